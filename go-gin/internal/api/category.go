package api

import (
	"fmt"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/store"
)

func (s *Server) listCategories(c *gin.Context) {
	q := newPageQuery()
	if err := bindQuery(c, &q); err != nil {
		abortWithError(c, err)
		return
	}
	page, err := s.store.ListCategories(c, int64(q.Page), int64(q.Size))
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, newPage(page, q, toCategoryResponse))
}

func (s *Server) getCategory(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	category, err := s.store.GetCategory(c, id)
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, toCategoryResponse(category))
}

func (s *Server) createCategory(c *gin.Context) {
	in, err := bindCategory(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	category, err := s.store.CreateCategory(c, in)
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.Header("Location", fmt.Sprintf("/categories/%d", category.ID))
	c.JSON(http.StatusCreated, toCategoryResponse(category))
}

func (s *Server) updateCategory(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	in, err := bindCategory(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	category, err := s.store.UpdateCategory(c, id, in)
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, toCategoryResponse(category))
}

func (s *Server) deleteCategory(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	if err := s.store.DeleteCategory(c, id); err != nil {
		abortWithError(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (s *Server) listCategoryItems(c *gin.Context) {
	id, err := bindID(c)
	if err != nil {
		abortWithError(c, err)
		return
	}
	q := newPageQuery()
	if err := bindQuery(c, &q); err != nil {
		abortWithError(c, err)
		return
	}
	page, err := s.store.ListCategoryItems(c, id, int64(q.Page), int64(q.Size))
	if err != nil {
		abortWithError(c, err)
		return
	}
	c.JSON(http.StatusOK, newPage(page, q, toItemResponse))
}

// bindCategory reads and validates a category body: {"code", "name"}.
func bindCategory(c *gin.Context) (store.CategoryInput, error) {
	fields, err := readJSONObject(c, "category")
	if err != nil {
		return store.CategoryInput{}, err
	}
	v := validator{fields: fields}
	in := store.CategoryInput{
		Code: v.requiredString("code", 32),
		Name: v.requiredString("name", 128),
	}
	if len(v.errors) > 0 {
		return in, invalid("category", v.errors)
	}
	return in, nil
}
