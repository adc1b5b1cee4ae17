package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/store"
)

const internalErrorDetail = "the server failed to answer this request"

// problem is RFC 9457 problem JSON, the body of every 4xx and 5xx.
type problem struct {
	Type   string       `json:"type"`
	Title  string       `json:"title"`
	Status int          `json:"status"`
	Detail string       `json:"detail"`
	Errors []fieldError `json:"errors,omitempty"`
}

type fieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func abortWithProblem(c *gin.Context, status int, detail string, errs ...fieldError) {
	body := problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail, Errors: errs}
	c.Header("Content-Type", "application/problem+json")
	c.AbortWithStatusJSON(status, body)
}

// abortWithError maps a store error to its status; resource names the entity for messages.
func abortWithError(c *gin.Context, err error, notFound string) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		abortWithProblem(c, http.StatusNotFound, notFound)
	case errors.Is(err, store.ErrUnavailable):
		slog.Warn("database unavailable", "path", c.Request.URL.Path, "error", err)
		abortWithProblem(c, http.StatusServiceUnavailable, "the database is unavailable, try again shortly")
	default:
		slog.Error("request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "error", err)
		abortWithProblem(c, http.StatusInternalServerError, internalErrorDetail)
	}
}
