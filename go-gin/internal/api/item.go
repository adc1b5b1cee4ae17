package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/store"
)

func (s *Server) listItems(c *gin.Context) {
	q, ok := bindPage(c)
	if !ok {
		return
	}
	var filter store.ItemFilter
	if _, present := c.GetQuery("categoryId"); present {
		categoryID, ok := queryInt(c, "categoryId", 0, -1<<63, 1<<63-1, "categoryId must be an integer")
		if !ok {
			return
		}
		filter.CategoryID = &categoryID
	}
	page, err := s.store.ListItems(c, filter, q.Page, q.Size)
	if err != nil {
		abortWithError(c, err, "")
		return
	}
	c.JSON(http.StatusOK, newPage(page, q, toItemResponse))
}

func (s *Server) getItem(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	item, err := s.store.GetItem(c, id)
	if err != nil {
		abortWithError(c, err, itemNotFound(id))
		return
	}
	c.JSON(http.StatusOK, toItemResponse(item))
}

func (s *Server) createItem(c *gin.Context) {
	in, ok := bindItem(c)
	if !ok {
		return
	}
	item, err := s.store.CreateItem(c, in)
	if err != nil {
		abortWithItemWriteError(c, err, in, 0)
		return
	}
	c.Header("Location", fmt.Sprintf("/items/%d", item.ID))
	c.JSON(http.StatusCreated, toItemResponse(item))
}

func (s *Server) updateItem(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	in, ok := bindItem(c)
	if !ok {
		return
	}
	item, err := s.store.UpdateItem(c, id, in)
	if err != nil {
		abortWithItemWriteError(c, err, in, id)
		return
	}
	c.JSON(http.StatusOK, toItemResponse(item))
}

func (s *Server) deleteItem(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	if err := s.store.DeleteItem(c, id); err != nil {
		abortWithError(c, err, itemNotFound(id))
		return
	}
	c.Status(http.StatusNoContent)
}

// bindItem reads and validates an item body: {"sku", "name", "price", "stock", "description"?, "categoryId"}.
func bindItem(c *gin.Context) (store.ItemInput, bool) {
	fields, isObject, ok := readJSONObject(c)
	if !ok {
		return store.ItemInput{}, false
	}
	if !isObject {
		notAnObject(c, "item")
		return store.ItemInput{}, false
	}
	v := validator{fields: fields}
	in := store.ItemInput{
		SKU:         v.requiredString("sku", 64),
		Name:        v.requiredString("name", 128),
		Price:       v.price("price"),
		Stock:       int32(v.integer("stock", 0, 1<<31-1)),
		Description: v.optionalString("description", 16384),
		CategoryID:  v.integer("categoryId", -1<<63, 1<<63-1),
	}
	if len(v.errors) > 0 {
		abortInvalid(c, "item", v.errors)
		return in, false
	}
	return in, true
}

func abortWithItemWriteError(c *gin.Context, err error, in store.ItemInput, id int64) {
	switch {
	case errors.Is(err, store.ErrDuplicate):
		abortWithProblem(c, http.StatusConflict, fmt.Sprintf("sku %s already exists", in.SKU))
	case errors.Is(err, store.ErrUnknownCategory):
		detail := fmt.Sprintf("category %d does not exist", in.CategoryID)
		abortWithProblem(c, http.StatusUnprocessableEntity, detail, fieldError{Field: "categoryId", Message: detail})
	default:
		abortWithError(c, err, itemNotFound(id))
	}
}

func itemNotFound(id int64) string {
	return fmt.Sprintf("item %d not found", id)
}
