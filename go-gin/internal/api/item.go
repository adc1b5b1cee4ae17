package api

import (
	"fmt"
	"math"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/store"
)

func (s *Server) listItems(c *gin.Context) {
	q := listItemsQuery{pageQuery: newPageQuery()}
	if err := bindQuery(c, &q); err != nil {
		abortWithError(c, err)
		return
	}
	var filter store.ItemFilter
	if q.CategoryID != nil {
		categoryID := int64(*q.CategoryID)
		filter.CategoryID = &categoryID
	}
	page, err := s.store.ListItems(c, filter, int64(q.Page), int64(q.Size))
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, newPage(page, q.pageQuery, toItemResponse))
}

func (s *Server) getItem(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	item, err := s.store.GetItem(c, id)
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, toItemResponse(item))
}

func (s *Server) createItem(c *gin.Context) {
	in, err := bindItem(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	item, err := s.store.CreateItem(c, in)
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.Header("Location", fmt.Sprintf("/items/%d", item.ID))
	c.JSON(http.StatusCreated, toItemResponse(item))
}

func (s *Server) updateItem(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	in, err := bindItem(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	item, err := s.store.UpdateItem(c, id, in)
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, toItemResponse(item))
}

func (s *Server) deleteItem(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	if err := s.store.DeleteItem(c, id); err != nil {
		abortWithError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// bindItem reads and validates an item body: {"sku", "name", "price", "stock", "description"?, "categoryId"}.
func bindItem(c *gin.Context) (store.ItemInput, error) {
	fields, err := readJSONObject(c, "item")
	if err != nil {
		return store.ItemInput{}, err
	}
	v := validator{fields: fields}
	in := store.ItemInput{
		SKU:         v.requiredString("sku", 64),
		Name:        v.requiredString("name", 128),
		Price:       v.price("price"),
		Stock:       int32(v.integer("stock", 0, math.MaxInt32)),
		Description: v.optionalString("description", 16384),
		CategoryID:  v.integer("categoryId", math.MinInt64, math.MaxInt64),
	}
	if len(v.errors) > 0 {
		return in, invalid("item", v.errors)
	}
	return in, nil
}
