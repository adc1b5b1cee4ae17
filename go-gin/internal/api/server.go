// Package api is the HTTP layer: routes, request parsing and validation, JSON and problem responses.
package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/sync/semaphore"

	"github.com/bench/go-gin/internal/config"
	"github.com/bench/go-gin/internal/store"
)

// Store is what the handlers need of the data layer; *store.Store implements it.
type Store interface {
	Ping(ctx context.Context) error
	ListCategories(ctx context.Context, page, size int64) (store.Page[store.Category], error)
	GetCategory(ctx context.Context, id int64) (store.Category, error)
	CreateCategory(ctx context.Context, in store.CategoryInput) (store.Category, error)
	UpdateCategory(ctx context.Context, id int64, in store.CategoryInput) (store.Category, error)
	DeleteCategory(ctx context.Context, id int64) error
	ListItems(ctx context.Context, filter store.ItemFilter, page, size int64) (store.Page[store.Item], error)
	ListCategoryItems(ctx context.Context, categoryID, page, size int64) (store.Page[store.Item], error)
	GetItem(ctx context.Context, id int64) (store.Item, error)
	CreateItem(ctx context.Context, in store.ItemInput) (store.Item, error)
	UpdateItem(ctx context.Context, id int64, in store.ItemInput) (store.Item, error)
	DeleteItem(ctx context.Context, id int64) error
}

// Stock is what the stock endpoint needs of the upstream; *stock.Client implements it.
type Stock interface {
	Quantity(ctx context.Context, itemID int64) (int32, error)
}

type Server struct {
	store  Store
	stock  Stock
	config config.Config
	router *gin.Engine
	// bodies is the body budget: bytes of request bodies being read and decoded (bindJSON).
	bodies *semaphore.Weighted
}

func NewServer(s Store, st Stock, cfg config.Config) *Server {
	registerValidations()
	server := &Server{store: s, stock: st, config: cfg, bodies: semaphore.NewWeighted(bodyBudget)}
	server.setupRouter()
	return server
}

func (s *Server) Handler() http.Handler { return s.router }

// route is one row of the method × path table.
type route struct {
	method  string
	path    string
	handler gin.HandlerFunc
}

func (s *Server) routes() []route {
	return []route{
		{http.MethodGet, "/categories", handle(s.listCategories)},
		{http.MethodPost, "/categories", handle(s.createCategory)},
		{http.MethodGet, "/categories/:id", handle(s.getCategory)},
		{http.MethodPut, "/categories/:id", handle(s.updateCategory)},
		{http.MethodDelete, "/categories/:id", handle(s.deleteCategory)},
		{http.MethodGet, "/categories/:id/items", handle(s.listCategoryItems)},
		{http.MethodGet, "/items", handle(s.listItems)},
		{http.MethodPost, "/items", handle(s.createItem)},
		{http.MethodGet, "/items/:id", handle(s.getItem)},
		{http.MethodPut, "/items/:id", handle(s.updateItem)},
		{http.MethodDelete, "/items/:id", handle(s.deleteItem)},
		{http.MethodGet, "/items/:id/stock", handle(s.getItemStock)},
		{http.MethodGet, "/avatar", s.avatar},
		{http.MethodGet, "/health", s.health},
	}
}

// handle adapts a handler that returns its error to gin: abortWithError answers every error of
// every resource route, so no handler writes an error itself.
func handle(h func(c *gin.Context) error) gin.HandlerFunc {
	return func(c *gin.Context) {
		if err := h(c); err != nil {
			abortWithError(c, err)
		}
	}
}

func (s *Server) setupRouter() {
	router := gin.New()
	// Paths are exact (API.md): /items/ is a 404, not a redirect.
	router.RedirectTrailingSlash = false
	router.RedirectFixedPath = false
	router.HandleMethodNotAllowed = true
	router.ContextWithFallback = true
	if s.config.LogRequests {
		router.Use(gin.Logger())
	}
	router.Use(gin.CustomRecovery(func(c *gin.Context, recovered any) {
		abortWithError(c, fmt.Errorf("panic: %v", recovered))
	}))

	for _, r := range s.routes() {
		router.Handle(r.method, r.path, r.handler)
	}
	router.NoRoute(func(c *gin.Context) {
		abortWithProblem(c, newProblem(http.StatusNotFound, "no resource at "+c.Request.URL.Path))
	})
	// gin has already set the Allow header from its route trees when this runs.
	router.NoMethod(func(c *gin.Context) {
		abortWithProblem(c, newProblem(http.StatusMethodNotAllowed,
			"method "+c.Request.Method+" is not allowed on "+c.Request.URL.Path))
	})
	s.router = router
}

func (s *Server) health(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c, 5*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		// Whatever makes SELECT 1 fail, the service is not ready.
		slog.Warn("health check failed", "error", err)
		abortWithProblem(c, newProblem(http.StatusServiceUnavailable, "the database is unreachable"))
		return
	}
	c.JSON(http.StatusOK, gin.H{"status": "UP"})
}
