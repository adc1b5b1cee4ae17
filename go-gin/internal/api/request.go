package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/shopspring/decimal"
)

const maxBodyBytes = 1 << 20

// bindID parses the {id} path parameter: a base-10 signed 64-bit integer, anything else a 400.
func bindID(c *gin.Context) (int64, bool) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		abortWithProblem(c, http.StatusBadRequest, "id must be an integer in the signed 64-bit range")
		return 0, false
	}
	return id, true
}

// pageQuery holds the paging parameters; they are parsed by hand because gin's form binding
// reads `?page=` as 0, where API.md wants a 400 for anything that is not an integer.
type pageQuery struct {
	Page int64
	Size int64
}

func bindPage(c *gin.Context) (pageQuery, bool) {
	q := pageQuery{Page: 0, Size: 20}
	var ok bool
	if q.Page, ok = queryInt(c, "page", 0, 0, 1<<63-1, "page must be an integer ≥ 0"); !ok {
		return q, false
	}
	if q.Size, ok = queryInt(c, "size", 20, 1, 100, "size must be an integer between 1 and 100"); !ok {
		return q, false
	}
	return q, true
}

func queryInt(c *gin.Context, name string, fallback, min, max int64, message string) (int64, bool) {
	raw, present := c.GetQuery(name)
	if !present {
		return fallback, true
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < min || n > max {
		abortWithProblem(c, http.StatusBadRequest, message)
		return 0, false
	}
	return n, true
}

// readJSONObject enforces, in API.md's order, the JSON content type (415), the 1 MiB limit
// (413) and parseable JSON (400). A body that parses but is not an object is the caller's 422.
func readJSONObject(c *gin.Context) (fields map[string]json.RawMessage, isObject bool, ok bool) {
	mediaType, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mediaType != "application/json" {
		abortWithProblem(c, http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json)")
		return nil, false, false
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			abortWithProblem(c, http.StatusRequestEntityTooLarge, "the body is larger than 1 MiB")
		} else {
			abortWithProblem(c, http.StatusBadRequest, "the body could not be read")
		}
		return nil, false, false
	}
	if !json.Valid(body) {
		abortWithProblem(c, http.StatusBadRequest, "the body is not valid JSON")
		return nil, false, false
	}
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false, true
	}
	if err := json.Unmarshal(body, &fields); err != nil {
		abortWithProblem(c, http.StatusBadRequest, "the body is not valid JSON")
		return nil, false, false
	}
	return fields, true, true
}

// validator collects one error per invalid field of a JSON object.
type validator struct {
	fields map[string]json.RawMessage
	errors []fieldError
}

func (v *validator) fail(field, message string) {
	v.errors = append(v.errors, fieldError{Field: field, Message: message})
}

func (v *validator) raw(field string) (json.RawMessage, bool) {
	raw, ok := v.fields[field]
	if !ok || string(raw) == "null" {
		return nil, false
	}
	return raw, true
}

func (v *validator) requiredString(field string, maxLen int) string {
	raw, ok := v.raw(field)
	if !ok {
		v.fail(field, "is required")
		return ""
	}
	s, ok := v.text(field, raw, maxLen)
	if ok && strings.Trim(s, " \t\r\n") == "" {
		v.fail(field, "must not be blank")
	}
	return s
}

func (v *validator) optionalString(field string, maxLen int) *string {
	raw, ok := v.raw(field)
	if !ok {
		return nil
	}
	s, ok := v.text(field, raw, maxLen)
	if !ok {
		return nil
	}
	return &s
}

func (v *validator) text(field string, raw json.RawMessage, maxLen int) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		v.fail(field, "must be a string")
		return "", false
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		v.fail(field, fmt.Sprintf("must be at most %d characters long, is %d", maxLen, n))
		return "", false
	}
	if strings.ContainsRune(s, 0) {
		v.fail(field, "must not contain the NUL character (U+0000)")
		return "", false
	}
	return s, true
}

// number returns the literal of a JSON number field, or false (and a field error).
func (v *validator) number(field string) (string, bool) {
	raw, ok := v.raw(field)
	if !ok {
		v.fail(field, "is required")
		return "", false
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil || !strings.ContainsAny(string(raw)[:1], "-0123456789") {
		v.fail(field, "must be a number")
		return "", false
	}
	return n.String(), true
}

func (v *validator) integer(field string, min, max int64) int64 {
	literal, ok := v.number(field)
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(literal, 10, 64)
	if err != nil || n < min || n > max {
		v.fail(field, fmt.Sprintf("must be an integer between %d and %d", min, max))
		return 0
	}
	return n
}

var maxPrice = decimal.RequireFromString("99999999.99")

func (v *validator) price(field string) decimal.Decimal {
	literal, ok := v.number(field)
	if !ok {
		return decimal.Zero
	}
	// An exponent beyond any valid price is rejected before decimal arithmetic would expand it.
	if i := strings.IndexAny(literal, "eE"); i >= 0 {
		if exp, err := strconv.Atoi(literal[i+1:]); err != nil || exp > 20 || exp < -20 {
			v.fail(field, "must be between 0 and 99999999.99 with at most 2 decimals")
			return decimal.Zero
		}
	}
	d, err := decimal.NewFromString(literal)
	if err != nil || d.IsNegative() || d.GreaterThan(maxPrice) || !d.Equal(d.Round(2)) {
		v.fail(field, "must be between 0 and 99999999.99 with at most 2 decimals")
		return decimal.Zero
	}
	return d.Round(2)
}

func abortInvalid(c *gin.Context, resource string, errs []fieldError) {
	abortWithProblem(c, http.StatusUnprocessableEntity, "the body is not a valid "+resource, errs...)
}

// notAnObject answers the 422 of a body that is JSON but not an object.
func notAnObject(c *gin.Context, resource string) {
	abortWithProblem(c, http.StatusUnprocessableEntity, "the body must be a JSON object describing a "+resource,
		fieldError{Field: "", Message: "must be a JSON object"})
}
