package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/shopspring/decimal"
)

const maxBodyBytes = 1 << 20

// Path ids and integer query parameters are an optional sign and ASCII digits in the signed
// 64-bit range (spec/README.md): exactly what strconv.ParseInt(s, 10, 64) accepts, so `+5`
// and `007` are integers while ` 5`, `١٢`, `1_0`, `0x10` and an empty value are not. They are
// bound with gin's ShouldBindUri and ShouldBindQuery into the parameter types below. gin calls
// their UnmarshalParam instead of its own int binding, which reads an empty value as 0 and
// trims spaces first; both are a 400 here.

// parseParam parses one parameter, or answers the 400 problem whose detail states the rule.
func parseParam(s string, min, max int64, rule string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < min || n > max {
		return 0, newProblem(http.StatusBadRequest, rule)
	}
	return n, nil
}

// resourceID is the {id} of a path.
type resourceID int64

func (id *resourceID) UnmarshalParam(s string) error {
	n, err := parseParam(s, math.MinInt64, math.MaxInt64, "id must be an integer in the signed 64-bit range")
	*id = resourceID(n)
	return err
}

// pageNumber is ?page=, 0-based.
type pageNumber int64

func (p *pageNumber) UnmarshalParam(s string) error {
	n, err := parseParam(s, 0, math.MaxInt64, "page must be an integer ≥ 0 (in the signed 64-bit range)")
	*p = pageNumber(n)
	return err
}

// pageSize is ?size=.
type pageSize int64

func (p *pageSize) UnmarshalParam(s string) error {
	n, err := parseParam(s, 1, 100, "size must be an integer between 1 and 100")
	*p = pageSize(n)
	return err
}

// categoryFilter is ?categoryId= on the item list.
type categoryFilter int64

func (f *categoryFilter) UnmarshalParam(s string) error {
	n, err := parseParam(s, math.MinInt64, math.MaxInt64, "categoryId must be an integer in the signed 64-bit range")
	*f = categoryFilter(n)
	return err
}

// idURI is the request struct of every /…/{id} route.
type idURI struct {
	ID resourceID `uri:"id"`
}

// pageQuery is ?page=&size=; absent parameters keep the defaults of newPageQuery.
type pageQuery struct {
	Page pageNumber `form:"page"`
	Size pageSize   `form:"size"`
}

func newPageQuery() pageQuery { return pageQuery{Page: 0, Size: 20} }

// listItemsQuery is the query of GET /items: paging and an optional category.
type listItemsQuery struct {
	pageQuery
	CategoryID *categoryFilter `form:"categoryId"`
}

func bindID(c *gin.Context) (int64, error) {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return 0, badParameter(err)
	}
	return int64(uri.ID), nil
}

func bindQuery(c *gin.Context, query any) error {
	if err := c.ShouldBindQuery(query); err != nil {
		return badParameter(err)
	}
	return nil
}

// badParameter keeps the 400 a parameter type answered; any other binding failure is a 400 too.
func badParameter(err error) error {
	var p *problem
	if errors.As(err, &p) {
		return p
	}
	return newProblem(http.StatusBadRequest, "the path or query string is malformed")
}

// readJSONObject enforces, in API.md's order, the JSON content type (415), the 1 MiB limit
// (413) and parseable JSON (400). A body that parses but is not an object is a 422.
func readJSONObject(c *gin.Context, resource string) (map[string]json.RawMessage, error) {
	mediaType, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return nil, newProblem(http.StatusUnsupportedMediaType, "the body must be JSON (Content-Type: application/json)")
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, newProblem(http.StatusRequestEntityTooLarge, "the body is larger than 1 MiB")
		}
		return nil, newProblem(http.StatusBadRequest, "the body could not be read")
	}
	if !json.Valid(body) {
		return nil, newProblem(http.StatusBadRequest, "the body is not valid JSON")
	}
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, newProblem(http.StatusUnprocessableEntity, "the body must be a JSON object describing a "+resource,
			fieldError{Field: "", Message: "must be a JSON object"})
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return nil, newProblem(http.StatusBadRequest, "the body is not valid JSON")
	}
	return fields, nil
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

const priceRule = "must be a number between 0 and 99999999.99 with at most 2 decimals"

func (v *validator) price(field string) decimal.Decimal {
	literal, ok := v.number(field)
	if !ok {
		return decimal.Zero
	}
	price, ok := parsePrice(literal)
	if !ok {
		v.fail(field, priceRule)
	}
	return price
}

var maxPrice = decimal.New(9999999999, -2)

// parsePrice judges a JSON number literal by its exact decimal value (spec/README.md): valid
// when 0 ≤ value ≤ 99999999.99 and value × 100 is an integer, so `1e2`, `125E-2` and
// `1.10000000000000000000` are prices while `1.00000000000000001` and `99999999.995` are not.
// The literal is reduced to digits × 10^exponent without trailing zeros before any arithmetic,
// so neither a long literal nor an exponent like `1e-999999999` costs more than its length.
func parsePrice(literal string) (decimal.Decimal, bool) {
	mantissa, exponent := literal, int64(0)
	if i := strings.IndexAny(literal, "eE"); i >= 0 {
		e, err := strconv.ParseInt(literal[i+1:], 10, 64)
		if err != nil || e > 1<<40 || e < -1<<40 {
			// No literal is long enough to bring such an exponent back into range: the value is
			// 0 when all its digits are, and out of range otherwise.
			return decimal.Zero, strings.Trim(literal[:i], "-0.") == ""
		}
		mantissa, exponent = literal[:i], e
	}
	negative := strings.HasPrefix(mantissa, "-")
	mantissa = strings.TrimPrefix(mantissa, "-")
	if i := strings.IndexByte(mantissa, '.'); i >= 0 {
		exponent -= int64(len(mantissa) - i - 1)
		mantissa = mantissa[:i] + mantissa[i+1:]
	}
	digits := strings.TrimLeft(mantissa, "0")
	if digits == "" {
		return decimal.Zero, true // 0, -0, 0.000, 0e7
	}
	trimmed := strings.TrimRight(digits, "0")
	exponent += int64(len(digits) - len(trimmed))
	// At most 2 decimals and at most 8 integer digits; then the value fits in 10 digits.
	if negative || exponent < -2 || int64(len(trimmed))+exponent > 8 {
		return decimal.Zero, false
	}
	coefficient, err := strconv.ParseInt(trimmed, 10, 64)
	if err != nil {
		return decimal.Zero, false
	}
	price := decimal.New(coefficient, int32(exponent))
	if price.GreaterThan(maxPrice) {
		return decimal.Zero, false
	}
	return price, true
}

func invalid(resource string, errs []fieldError) error {
	return newProblem(http.StatusUnprocessableEntity, "the body is not a valid "+resource, errs...)
}
