package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"
	"github.com/shopspring/decimal"

	"github.com/bench/go-gin/internal/store"
)

// Path ids and query parameters.
//
// They are an optional sign and ASCII digits in the signed 64-bit range (spec/README.md):
// exactly what strconv.ParseInt(s, 10, 64) accepts, so `+5` and `007` are integers while ` 5`,
// `١٢`, `1_0`, `0x10` and an empty value are not. gin's ShouldBindUri and ShouldBindQuery bind
// them into the parameter types below and call their UnmarshalParam instead of gin's own int
// binding, which reads an empty value as 0 and trims spaces first; both are a 400 here.

// paramError is a path id or query parameter that breaks its rule.
type paramError struct{ rule string }

func (e *paramError) Error() string { return e.rule }

func parseParam(s string, min, max int64, rule string) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < min || n > max {
		return 0, &paramError{rule: rule}
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

// Request bodies: one struct for each resource, which its POST and PUT both take. Every field
// is a pointer, so that `required` tells a missing or null property from a zero value.

type categoryRequest struct {
	Code *string `json:"code" binding:"required,notblank,max=32,nonul"`
	Name *string `json:"name" binding:"required,notblank,max=128,nonul"`
}

func (r *categoryRequest) input() store.CategoryInput {
	return store.CategoryInput{Code: *r.Code, Name: *r.Name}
}

type itemRequest struct {
	SKU         *string `json:"sku" binding:"required,notblank,max=64,nonul"`
	Name        *string `json:"name" binding:"required,notblank,max=128,nonul"`
	Price       *price  `json:"price" binding:"required"`
	Stock       *int32  `json:"stock" binding:"required,min=0"`
	Description *string `json:"description" binding:"omitnil,max=16384,nonul"`
	CategoryID  *int64  `json:"categoryId" binding:"required"`
}

func (r *itemRequest) input() store.ItemInput {
	return store.ItemInput{
		SKU:         *r.SKU,
		Name:        *r.Name,
		Price:       decimal.Decimal(*r.Price),
		Stock:       *r.Stock,
		Description: r.Description,
		CategoryID:  *r.CategoryID,
	}
}

const maxBodyBytes = 1 << 20

// bodyBudget bounds the body bytes that all requests together may be reading and decoding at
// once: 32 bodies of 1 MiB, or thousands of ordinary ones. Decoding a body holds about three
// copies of it (the bytes read, the property's raw JSON, the decoded string), so bodies keep at
// most about 100 MiB alive however many arrive, and the heap at most twice that (GOGC's 100).
// README.md, "Limits".
const bodyBudget = 32 << 20

var (
	errBusy            = errors.New("the server is busy, try again shortly")
	errNotJSON         = errors.New("the body must be JSON (Content-Type: application/json)")
	errUnreadableBody  = errors.New("the body could not be read")
	errMalformedJSON   = errors.New("the body is not valid JSON")
	errBodyNotAnObject = &invalidBodyError{
		detail: "the body must be a JSON object",
		fields: []fieldError{{Field: "", Message: "must be a JSON object"}},
	}
)

// invalidBodyError is a body that parses as JSON but breaks the field rules, one entry a field.
type invalidBodyError struct {
	detail string
	fields []fieldError
}

func (e *invalidBodyError) Error() string { return e.detail }

// bindJSON is gin's ShouldBindJSON with the contract's answers where gin's differ (README,
// "Notable choices"): it checks the Content-Type (415), reads at most 1 MiB (413) of JSON that
// must parse whole (400) into an object (422 on the body), then binds the object's properties
// and validates them with gin's validator and the `binding` tags (422, every field listed).
// A body that does not fit in what is left of the body budget is not read at all (503).
func (s *Server) bindJSON(c *gin.Context, obj any) error {
	mediaType, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mediaType != "application/json" {
		return errNotJSON
	}
	weight := bodyWeight(c.Request)
	if !s.bodies.TryAcquire(weight) {
		return errBusy
	}
	// Once bound, obj holds only what passed validation, or it is answered at once (422).
	defer s.bodies.Release(weight)
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return tooLarge
		}
		return errUnreadableBody
	}
	var properties map[string]json.RawMessage
	if err := json.Unmarshal(body, &properties); err != nil {
		var notAnObject *json.UnmarshalTypeError
		if errors.As(err, &notAnObject) {
			return errBodyNotAnObject
		}
		return errMalformedJSON
	}
	if properties == nil { // the body was `null`
		return errBodyNotAnObject
	}

	invalid := decodeProperties(properties, obj)
	var broken validator.ValidationErrors
	if err := binding.Validator.ValidateStruct(obj); err != nil && !errors.As(err, &broken) {
		return err
	}
	for _, rule := range broken {
		// A property of the wrong type was left nil: `required` would list it a second time.
		if !slices.ContainsFunc(invalid, func(e fieldError) bool { return e.Field == rule.Field() }) {
			invalid = append(invalid, fieldError{Field: rule.Field(), Message: ruleMessage(rule)})
		}
	}
	if len(invalid) > 0 {
		return &invalidBodyError{detail: "the body has invalid fields", fields: invalid}
	}
	return nil
}

// bodyWeight is what reading the body may cost of the budget: its declared length, or the whole
// 1 MiB when it comes chunked or declares more (it is read up to there, then a 413).
func bodyWeight(r *http.Request) int64 {
	if r.ContentLength >= 0 && r.ContentLength <= maxBodyBytes {
		return r.ContentLength
	}
	return maxBodyBytes
}

// decodeProperties decodes each property into the field of obj (a pointer to a request struct)
// whose json tag names it exactly, and returns one error for each property of the wrong JSON
// type. Decoding the whole object at once would report only the first of those, and would bind
// `"Code"` to `code`: encoding/json matches names case-insensitively, where the contract
// ignores every property it does not define.
func decodeProperties(properties map[string]json.RawMessage, obj any) []fieldError {
	var wrongType []fieldError
	fields := reflect.ValueOf(obj).Elem()
	for i := range fields.NumField() {
		name := jsonName(fields.Type().Field(i))
		if raw, ok := properties[name]; ok {
			if err := json.Unmarshal(raw, fields.Field(i).Addr().Interface()); err != nil {
				wrongType = append(wrongType, fieldError{Field: name, Message: wrongTypeMessage(err)})
			}
		}
	}
	return wrongType
}

// jsonName is the JSON property a struct field binds, which also names it in the 422's errors.
func jsonName(field reflect.StructField) string {
	name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
	return name
}

func wrongTypeMessage(err error) string {
	var wrongType *json.UnmarshalTypeError
	if !errors.As(err, &wrongType) {
		return err.Error() // a field type's own UnmarshalJSON words its rule
	}
	switch wrongType.Type.Kind() {
	case reflect.Int32, reflect.Int64:
		return fmt.Sprintf("must be an integer in the signed %d-bit range", wrongType.Type.Bits())
	case reflect.String:
		return "must be a string"
	}
	return "has the wrong JSON type"
}

func ruleMessage(rule validator.FieldError) string {
	switch rule.Tag() {
	case "required":
		return "is required"
	case "notblank":
		return "must not be blank"
	case "nonul":
		return "must not contain the NUL character (U+0000)"
	case "max":
		if rule.Kind() == reflect.String {
			return "must be at most " + rule.Param() + " characters long"
		}
		return "must be at most " + rule.Param()
	case "min":
		return "must be at least " + rule.Param()
	}
	return "breaks the rule " + rule.Tag()
}

// registerValidations teaches gin's validator the contract's string rules and to name fields
// by their JSON names, once for the process (the validator is gin's global one).
var registerValidations = sync.OnceFunc(func() {
	v := binding.Validator.Engine().(*validator.Validate)
	v.RegisterTagNameFunc(jsonName)
	for tag, valid := range map[string]validator.Func{
		// Blank is empty or only spaces, tabs, CR and LF (spec/API.md): not unicode.IsSpace.
		"notblank": func(fl validator.FieldLevel) bool { return strings.Trim(fl.Field().String(), " \t\r\n") != "" },
		// PostgreSQL cannot store U+0000 in text.
		"nonul": func(fl validator.FieldLevel) bool { return !strings.ContainsRune(fl.Field().String(), 0) },
	} {
		if err := v.RegisterValidation(tag, valid); err != nil {
			panic(err)
		}
	}
})

// price is an item's price, judged as it is decoded: by the exact decimal value of the JSON
// number as written, which is gone once a validator sees a float64 or a decimal.
type price decimal.Decimal

var (
	errPriceNotANumber = errors.New("must be a number")
	errPriceRule       = errors.New("must be a number between 0 and 99999999.99 with at most 2 decimals")
)

func (p *price) UnmarshalJSON(literal []byte) error {
	if !strings.ContainsAny(string(literal[:1]), "-0123456789") {
		return errPriceNotANumber
	}
	value, ok := parsePrice(string(literal))
	if !ok {
		return errPriceRule
	}
	*p = price(value)
	return nil
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
	value := decimal.New(coefficient, int32(exponent))
	if value.GreaterThan(maxPrice) {
		return decimal.Zero, false
	}
	return value, true
}
