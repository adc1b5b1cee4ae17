package api

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/store"
)

func (s *Server) listItems(c *gin.Context) error {
	query := listItemsQuery{pageQuery: newPageQuery()}
	if err := c.ShouldBindQuery(&query); err != nil {
		return err
	}
	var filter store.ItemFilter
	if query.CategoryID != nil {
		categoryID := int64(*query.CategoryID)
		filter.CategoryID = &categoryID
	}
	page, err := s.store.ListItems(c, filter, int64(query.Page), int64(query.Size))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, newPage(page, query.pageQuery, toItemResponse))
	return nil
}

func (s *Server) getItem(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	item, err := s.store.GetItem(c, int64(uri.ID))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toItemResponse(item))
	return nil
}

func (s *Server) createItem(c *gin.Context) error {
	var req itemRequest
	if err := s.bindJSON(c, &req); err != nil {
		return err
	}
	item, err := s.store.CreateItem(c, req.input())
	if err != nil {
		return err
	}
	c.Header("Location", fmt.Sprintf("/items/%d", item.ID))
	c.JSON(http.StatusCreated, toItemResponse(item))
	return nil
}

func (s *Server) updateItem(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	var req itemRequest
	if err := s.bindJSON(c, &req); err != nil {
		return err
	}
	item, err := s.store.UpdateItem(c, int64(uri.ID), req.input())
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toItemResponse(item))
	return nil
}

func (s *Server) deleteItem(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	if err := s.store.DeleteItem(c, int64(uri.ID)); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}
