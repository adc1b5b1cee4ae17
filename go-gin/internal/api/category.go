package api

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/store"
)

func (s *Server) listCategories(c *gin.Context) {
	q, ok := bindPage(c)
	if !ok {
		return
	}
	page, err := s.store.ListCategories(c, q.Page, q.Size)
	if err != nil {
		abortWithError(c, err, "")
		return
	}
	c.JSON(http.StatusOK, newPage(page, q, toCategoryResponse))
}

func (s *Server) getCategory(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	category, err := s.store.GetCategory(c, id)
	if err != nil {
		abortWithError(c, err, categoryNotFound(id))
		return
	}
	c.JSON(http.StatusOK, toCategoryResponse(category))
}

func (s *Server) createCategory(c *gin.Context) {
	in, ok := bindCategory(c)
	if !ok {
		return
	}
	category, err := s.store.CreateCategory(c, in)
	if err != nil {
		abortWithCategoryWriteError(c, err, in, 0)
		return
	}
	c.Header("Location", fmt.Sprintf("/categories/%d", category.ID))
	c.JSON(http.StatusCreated, toCategoryResponse(category))
}

func (s *Server) updateCategory(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	in, ok := bindCategory(c)
	if !ok {
		return
	}
	category, err := s.store.UpdateCategory(c, id, in)
	if err != nil {
		abortWithCategoryWriteError(c, err, in, id)
		return
	}
	c.JSON(http.StatusOK, toCategoryResponse(category))
}

func (s *Server) deleteCategory(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	switch err := s.store.DeleteCategory(c, id); {
	case errors.Is(err, store.ErrStillReferenced):
		abortWithProblem(c, http.StatusConflict, fmt.Sprintf("category %d still has items", id))
	case err != nil:
		abortWithError(c, err, categoryNotFound(id))
	default:
		c.Status(http.StatusNoContent)
	}
}

func (s *Server) listCategoryItems(c *gin.Context) {
	id, ok := bindID(c)
	if !ok {
		return
	}
	q, ok := bindPage(c)
	if !ok {
		return
	}
	page, err := s.store.ListCategoryItems(c, id, q.Page, q.Size)
	if err != nil {
		abortWithError(c, err, categoryNotFound(id))
		return
	}
	c.JSON(http.StatusOK, newPage(page, q, toItemResponse))
}

// bindCategory reads and validates a category body: {"code", "name"}.
func bindCategory(c *gin.Context) (store.CategoryInput, bool) {
	fields, isObject, ok := readJSONObject(c)
	if !ok {
		return store.CategoryInput{}, false
	}
	if !isObject {
		notAnObject(c, "category")
		return store.CategoryInput{}, false
	}
	v := validator{fields: fields}
	in := store.CategoryInput{
		Code: v.requiredString("code", 32),
		Name: v.requiredString("name", 128),
	}
	if len(v.errors) > 0 {
		abortInvalid(c, "category", v.errors)
		return in, false
	}
	return in, true
}

func abortWithCategoryWriteError(c *gin.Context, err error, in store.CategoryInput, id int64) {
	if errors.Is(err, store.ErrDuplicate) {
		abortWithProblem(c, http.StatusConflict, fmt.Sprintf("code %s already exists", in.Code))
		return
	}
	abortWithError(c, err, categoryNotFound(id))
}

func categoryNotFound(id int64) string {
	return fmt.Sprintf("category %d not found", id)
}
