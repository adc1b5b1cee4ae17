package api

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"
)

func (s *Server) listCategories(c *gin.Context) error {
	query := newPageQuery()
	if err := c.ShouldBindQuery(&query); err != nil {
		return err
	}
	page, err := s.store.ListCategories(c, int64(query.Page), int64(query.Size))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, newPage(page, query, toCategoryResponse))
	return nil
}

func (s *Server) getCategory(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	category, err := s.store.GetCategory(c, int64(uri.ID))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toCategoryResponse(category))
	return nil
}

func (s *Server) createCategory(c *gin.Context) error {
	var req categoryRequest
	if err := s.bindJSON(c, &req); err != nil {
		return err
	}
	category, err := s.store.CreateCategory(c, req.input())
	if err != nil {
		return err
	}
	c.Header("Location", fmt.Sprintf("/categories/%d", category.ID))
	c.JSON(http.StatusCreated, toCategoryResponse(category))
	return nil
}

func (s *Server) updateCategory(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	var req categoryRequest
	if err := s.bindJSON(c, &req); err != nil {
		return err
	}
	category, err := s.store.UpdateCategory(c, int64(uri.ID), req.input())
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, toCategoryResponse(category))
	return nil
}

func (s *Server) deleteCategory(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	if err := s.store.DeleteCategory(c, int64(uri.ID)); err != nil {
		return err
	}
	c.Status(http.StatusNoContent)
	return nil
}

func (s *Server) listCategoryItems(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	query := newPageQuery()
	if err := c.ShouldBindQuery(&query); err != nil {
		return err
	}
	page, err := s.store.ListCategoryItems(c, int64(uri.ID), int64(query.Page), int64(query.Size))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, newPage(page, query, toItemResponse))
	return nil
}
