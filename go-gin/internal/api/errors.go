package api

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/stock"
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

func newProblem(status int, detail string, errs ...fieldError) *problem {
	return &problem{Type: "about:blank", Title: title(status), Status: status, Detail: detail, Errors: errs}
}

// title is the status's reason phrase as RFC 9110 words it. Go's http.StatusText still has the
// older "Request Entity Too Large" and "Unprocessable Entity" for 413 and 422.
func title(status int) string {
	switch status {
	case http.StatusRequestEntityTooLarge:
		return "Content Too Large"
	case http.StatusUnprocessableEntity:
		return "Unprocessable Content"
	}
	return http.StatusText(status)
}

func abortWithProblem(c *gin.Context, p *problem) {
	c.Header("Content-Type", "application/problem+json")
	c.AbortWithStatusJSON(p.Status, p)
}

// abortWithError is the one place where an error becomes an HTTP answer: what request binding
// rejected, the data layer's and the stock upstream's domain errors, and anything else as a
// logged 500.
func abortWithError(c *gin.Context, err error) {
	var (
		param      *paramError
		tooLarge   *http.MaxBytesError
		invalid    *invalidBodyError
		notFound   *store.NotFoundError
		taken      *store.DuplicateKeyError
		referenced *store.StillReferencedError
		unknown    *store.UnknownCategoryError
		noStock    *stock.NotFoundError
	)
	switch {
	case errors.As(err, &param):
		abortWithProblem(c, newProblem(http.StatusBadRequest, param.Error()))
	case errors.Is(err, errNotJSON):
		abortWithProblem(c, newProblem(http.StatusUnsupportedMediaType, err.Error()))
	case errors.As(err, &tooLarge):
		abortWithProblem(c, newProblem(http.StatusRequestEntityTooLarge, "the body is larger than 1 MiB"))
	case errors.Is(err, errMalformedJSON), errors.Is(err, errUnreadableBody):
		abortWithProblem(c, newProblem(http.StatusBadRequest, err.Error()))
	case errors.As(err, &invalid):
		abortWithProblem(c, newProblem(http.StatusUnprocessableEntity, invalid.Error(), invalid.fields...))
	case errors.As(err, &notFound):
		abortWithProblem(c, newProblem(http.StatusNotFound, notFound.Error()))
	case errors.As(err, &taken):
		abortWithProblem(c, newProblem(http.StatusConflict, taken.Error()))
	case errors.As(err, &referenced):
		abortWithProblem(c, newProblem(http.StatusConflict, referenced.Error()))
	case errors.As(err, &unknown):
		detail := unknown.Error()
		abortWithProblem(c, newProblem(http.StatusUnprocessableEntity, detail,
			fieldError{Field: "categoryId", Message: detail}))
	case errors.As(err, &noStock):
		abortWithProblem(c, newProblem(http.StatusNotFound, noStock.Error()))
	// The upstream's failures are its own, not this server's: one line each, no 500.
	case errors.Is(err, stock.ErrTimeout):
		slog.Warn("stock upstream timed out", "path", c.Request.URL.Path, "error", err)
		abortWithProblem(c, newProblem(http.StatusGatewayTimeout, "the stock service did not answer in time"))
	case errors.Is(err, stock.ErrFailed):
		slog.Warn("stock upstream failed", "path", c.Request.URL.Path, "error", err)
		abortWithProblem(c, newProblem(http.StatusBadGateway, "the stock service gave no usable answer"))
	case errors.Is(err, errBusy):
		// The body was left unread: the connection cannot carry another request.
		c.Header("Connection", "close")
		abortWithProblem(c, newProblem(http.StatusServiceUnavailable, errBusy.Error()))
	case errors.Is(err, store.ErrUnavailable):
		slog.Warn("database unavailable", "method", c.Request.Method, "path", c.Request.URL.Path, "error", err)
		abortWithProblem(c, newProblem(http.StatusServiceUnavailable, "the database is unavailable, try again shortly"))
	default:
		slog.Error("request failed", "method", c.Request.Method, "path", c.Request.URL.Path, "error", err)
		abortWithProblem(c, newProblem(http.StatusInternalServerError, internalErrorDetail))
	}
}
