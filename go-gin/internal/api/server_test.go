package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"

	"github.com/bench/go-gin/internal/config"
	"github.com/bench/go-gin/internal/store"
)

// fakeStore answers from memory: the handlers' own logic is what these tests cover; the SQL is
// covered by the conformance suite against a real database.
type fakeStore struct {
	items      map[int64]store.Item
	categories map[int64]store.Category
	down       bool
	lastInput  *store.ItemInput
	lastID     *int64
	lastList   *listCall
}

type listCall struct {
	filter     store.ItemFilter
	page, size int64
}

func newFakeStore() *fakeStore {
	at := time.Date(2026, 1, 1, 0, 0, 42, 0, time.UTC)
	desc := "seeded"
	return &fakeStore{
		categories: map[int64]store.Category{42: {ID: 42, Code: "CAT-0042", Name: "Category 42", UpdatedAt: at}},
		items: map[int64]store.Item{7: {ID: 7, SKU: "SKU-000007", Name: "Item 7", Price: decimal.RequireFromString("554.33"),
			Stock: 7, Description: &desc, Category: store.CategoryRef{ID: 42, Code: "CAT-0042", Name: "Category 42"}, UpdatedAt: at}},
	}
}

func (f *fakeStore) err() error {
	if f.down {
		return store.ErrUnavailable
	}
	return nil
}

func (f *fakeStore) Ping(context.Context) error { return f.err() }
func (f *fakeStore) ListCategories(context.Context, int64, int64) (store.Page[store.Category], error) {
	return store.Page[store.Category]{Rows: []store.Category{f.categories[42]}, Total: 1}, f.err()
}
func (f *fakeStore) GetCategory(_ context.Context, id int64) (store.Category, error) {
	c, ok := f.categories[id]
	if !ok {
		return c, &store.NotFoundError{Entity: "category", ID: id}
	}
	return c, f.err()
}
func (f *fakeStore) CreateCategory(_ context.Context, in store.CategoryInput) (store.Category, error) {
	switch in.Code {
	case "CAT-0042":
		return store.Category{}, &store.DuplicateKeyError{Key: "code", Value: in.Code}
	case "NOT-NULL":
		// An integrity error the data layer does not recognise reaches the API as it is.
		return store.Category{}, &pgconn.PgError{Code: "23502", Message: "null value in column"}
	}
	return store.Category{ID: 2001, Code: in.Code, Name: in.Name, UpdatedAt: time.Now()}, f.err()
}
func (f *fakeStore) UpdateCategory(_ context.Context, id int64, in store.CategoryInput) (store.Category, error) {
	if _, ok := f.categories[id]; !ok {
		return store.Category{}, &store.NotFoundError{Entity: "category", ID: id}
	}
	return store.Category{ID: id, Code: in.Code, Name: in.Name, UpdatedAt: time.Now()}, f.err()
}
func (f *fakeStore) DeleteCategory(_ context.Context, id int64) error {
	if id == 42 {
		return &store.StillReferencedError{CategoryID: id}
	}
	return &store.NotFoundError{Entity: "category", ID: id}
}
func (f *fakeStore) ListItems(_ context.Context, filter store.ItemFilter, page, size int64) (store.Page[store.Item], error) {
	f.lastList = &listCall{filter: filter, page: page, size: size}
	return store.Page[store.Item]{Rows: []store.Item{f.items[7]}, Total: 41}, f.err()
}
func (f *fakeStore) ListCategoryItems(_ context.Context, id, _, _ int64) (store.Page[store.Item], error) {
	if _, ok := f.categories[id]; !ok {
		return store.Page[store.Item]{}, &store.NotFoundError{Entity: "category", ID: id}
	}
	return store.Page[store.Item]{Rows: []store.Item{f.items[7]}, Total: 1}, f.err()
}
func (f *fakeStore) GetItem(_ context.Context, id int64) (store.Item, error) {
	if err := f.err(); err != nil {
		return store.Item{}, err
	}
	f.lastID = &id
	it, ok := f.items[id]
	if !ok {
		return it, &store.NotFoundError{Entity: "item", ID: id}
	}
	return it, nil
}
func (f *fakeStore) CreateItem(_ context.Context, in store.ItemInput) (store.Item, error) {
	f.lastInput = &in
	if in.SKU == "SKU-000001" {
		return store.Item{}, &store.DuplicateKeyError{Key: "sku", Value: in.SKU}
	}
	if in.CategoryID != 42 {
		return store.Item{}, &store.UnknownCategoryError{CategoryID: in.CategoryID}
	}
	return store.Item{ID: 100001, SKU: in.SKU, Name: in.Name, Price: in.Price, Stock: in.Stock,
		Description: in.Description, Category: f.items[7].Category, UpdatedAt: time.Now()}, nil
}
func (f *fakeStore) UpdateItem(_ context.Context, id int64, in store.ItemInput) (store.Item, error) {
	if _, ok := f.items[id]; !ok {
		return store.Item{}, &store.NotFoundError{Entity: "item", ID: id}
	}
	return f.CreateItem(context.Background(), in)
}
func (f *fakeStore) DeleteItem(_ context.Context, id int64) error {
	if _, ok := f.items[id]; !ok {
		return &store.NotFoundError{Entity: "item", ID: id}
	}
	return nil
}

func newTestServer(s Store) *Server { return newTestServerAsking(s, &fakeStock{}) }

// newTestServerAsking is a test server whose stock upstream is `upstream`.
func newTestServerAsking(s Store, upstream Stock) *Server {
	gin.SetMode(gin.TestMode)
	return NewServer(s, upstream, config.Config{AvatarBaseURL: "https://avatar.test", AvatarCount: 21})
}

func serve(s *Server, method, target, contentType, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	return rec
}

func decodeProblem(t *testing.T, rec *httptest.ResponseRecorder) problem {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") {
		t.Fatalf("Content-Type %q is not problem JSON; body %s", ct, rec.Body)
	}
	var p problem
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("problem body: %v", err)
	}
	if p.Type != "about:blank" || p.Status != rec.Code || p.Title != rfc9110Titles[rec.Code] || p.Detail == "" {
		t.Fatalf("malformed problem %+v for status %d", p, rec.Code)
	}
	return p
}

// The reason phrases of RFC 9110, which every problem's title repeats.
var rfc9110Titles = map[int]string{
	400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
	413: "Content Too Large", 415: "Unsupported Media Type", 422: "Unprocessable Content",
	500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
}

const validItem = `{"sku":"S-1","name":"n","price":12.5,"stock":3,"categoryId":42}`

func TestErrorStatuses(t *testing.T) {
	tests := []struct {
		name, method, target, contentType, body string
		status                                  int
		fields                                  []string
	}{
		{"unknown route", "GET", "/nope", "", "", 404, nil},
		{"trailing slash is not redirected", "GET", "/items/", "", "", 404, nil},
		{"method not allowed", "PATCH", "/items/abc", "", "", 405, nil},
		{"path id not an integer", "GET", "/items/abc", "", "", 400, nil},
		{"path id over int64", "GET", "/items/9223372036854775808", "", "", 400, nil},
		{"path id blank", "GET", "/categories/%20", "", "", 400, nil},
		{"path id before content type", "PUT", "/items/x", "text/plain", "{}", 400, nil},
		{"negative page", "GET", "/items?page=-1", "", "", 400, nil},
		{"empty page", "GET", "/categories?page=", "", "", 400, nil},
		{"size too large", "GET", "/items?size=101", "", "", 400, nil},
		{"size zero", "GET", "/categories/42/items?size=0", "", "", 400, nil},
		{"categoryId not an integer", "GET", "/items?categoryId=x", "", "", 400, nil},
		{"no content type", "POST", "/items", "", validItem, 415, nil},
		{"text content type", "POST", "/categories", "text/plain", `{"code":"a","name":"b"}`, 415, nil},
		{"too large", "POST", "/categories", "application/json", `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, 413, nil},
		{"unparseable", "POST", "/items", "application/json", `{"sku":`, 400, nil},
		{"empty body", "PUT", "/items/7", "application/json", ``, 400, nil},
		{"array body", "POST", "/items", "application/json", `[]`, 422, []string{""}},
		{"null body", "POST", "/categories", "application/json", `null`, 422, []string{""}},
		{"all fields missing", "POST", "/categories", "application/json", `{}`, 422, []string{"code", "name"}},
		{"blank code", "POST", "/categories", "application/json", `{"code":" \t","name":"x"}`, 422, []string{"code"}},
		{"code over 32 code points", "POST", "/categories", "application/json", `{"code":"` + strings.Repeat("é", 33) + `","name":"x"}`, 422, []string{"code"}},
		{"NUL in name", "POST", "/categories", "application/json", `{"code":"a","name":"a\u0000b"}`, 422, []string{"name"}},
		{"price as string", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":"1.5","stock":1,"categoryId":42}`, 422, []string{"price"}},
		{"price with 3 decimals", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":1.234,"stock":1,"categoryId":42}`, 422, []string{"price"}},
		{"price above max", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":100000000,"stock":1,"categoryId":42}`, 422, []string{"price"}},
		{"price huge exponent", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":1e-999999999,"stock":1,"categoryId":42}`, 422, []string{"price"}},
		{"stock fraction", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":1,"stock":1.5,"categoryId":42}`, 422, []string{"stock"}},
		{"stock over int32", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":1,"stock":2147483648,"categoryId":42}`, 422, []string{"stock"}},
		{"categoryId boolean", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":1,"stock":1,"categoryId":true}`, 422, []string{"categoryId"}},
		{"unknown category", "POST", "/items", "application/json", `{"sku":"s","name":"n","price":1,"stock":1,"categoryId":9}`, 422, []string{"categoryId"}},
		{"invalid before absent", "PUT", "/items/999", "application/json", `{"sku":""}`, 422, []string{"sku", "name", "price", "stock", "categoryId"}},
		{"absent item", "GET", "/items/8", "", "", 404, nil},
		{"absent category items", "GET", "/categories/1/items", "", "", 404, nil},
		{"duplicate code", "POST", "/categories", "application/json", `{"code":"CAT-0042","name":"x"}`, 409, nil},
		{"duplicate sku", "POST", "/items", "application/json", `{"sku":"SKU-000001","name":"n","price":1,"stock":1,"categoryId":42}`, 409, nil},
		{"category still referenced", "DELETE", "/categories/42", "", "", 409, nil},
		{"unrecognised integrity error", "POST", "/categories", "application/json", `{"code":"NOT-NULL","name":"x"}`, 500, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serve(newTestServer(newFakeStore()), tt.method, tt.target, tt.contentType, tt.body)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			p := decodeProblem(t, rec)
			var fields []string
			for _, e := range p.Errors {
				fields = append(fields, e.Field)
			}
			if strings.Join(fields, ",") != strings.Join(tt.fields, ",") {
				t.Fatalf("invalid fields %v, want %v", fields, tt.fields)
			}
		})
	}
}

func TestMethodNotAllowedListsAllowedMethods(t *testing.T) {
	rec := serve(newTestServer(newFakeStore()), "POST", "/categories/1/items", "", "")
	if got := rec.Header().Get("Allow"); got != "GET" {
		t.Fatalf("Allow %q, want GET", got)
	}
	rec = serve(newTestServer(newFakeStore()), "DELETE", "/items", "", "")
	if got := rec.Header().Get("Allow"); got != "GET, POST" {
		t.Fatalf("Allow %q, want GET, POST", got)
	}
}

func TestItemRepresentation(t *testing.T) {
	rec := serve(newTestServer(newFakeStore()), "GET", "/items/7", "", "")
	want := `{"id":7,"sku":"SKU-000007","name":"Item 7","price":554.33,"stock":7,"description":"seeded",` +
		`"categoryId":42,"category":{"id":42,"code":"CAT-0042","name":"Category 42"},"updatedAt":"2026-01-01T00:00:42Z"}`
	if rec.Code != 200 || rec.Body.String() != want {
		t.Fatalf("got %d %s\nwant %s", rec.Code, rec.Body, want)
	}
}

func TestPageEnvelope(t *testing.T) {
	rec := serve(newTestServer(newFakeStore()), "GET", "/items?page=2&size=20", "", "")
	var page struct {
		Content []map[string]any `json:"content"`
		Page    pageMeta         `json:"page"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil || rec.Code != 200 {
		t.Fatalf("status %d, body %s", rec.Code, rec.Body)
	}
	if page.Page != (pageMeta{Size: 20, Number: 2, TotalElements: 41, TotalPages: 3}) {
		t.Fatalf("page %+v", page.Page)
	}
}

func TestCreateItem(t *testing.T) {
	fake := newFakeStore()
	rec := serve(newTestServer(fake), "POST", "/items", "application/json; charset=utf-8",
		`{"sku":"S-1","name":"n","price":1.230,"stock":3,"categoryId":42,"id":5,"extra":true}`)
	if rec.Code != http.StatusCreated || rec.Header().Get("Location") != "/items/100001" {
		t.Fatalf("status %d, Location %q, body %s", rec.Code, rec.Header().Get("Location"), rec.Body)
	}
	if fake.lastInput.Description != nil || fake.lastInput.Price.String() != "1.23" {
		t.Fatalf("input %+v", fake.lastInput)
	}
}

func TestDeleteAnswersEmpty204(t *testing.T) {
	rec := serve(newTestServer(newFakeStore()), "DELETE", "/items/7", "", "")
	if rec.Code != http.StatusNoContent || rec.Body.Len() != 0 {
		t.Fatalf("status %d, body %q", rec.Code, rec.Body)
	}
}

func TestAvatarRedirects(t *testing.T) {
	server := newTestServer(newFakeStore())
	for range 50 {
		rec := serve(server, "GET", "/avatar", "", "")
		loc := rec.Header().Get("Location")
		if rec.Code != http.StatusFound || rec.Body.Len() != 0 || !strings.HasPrefix(loc, "https://avatar.test/Renard-") {
			t.Fatalf("status %d, Location %q, body %q", rec.Code, loc, rec.Body)
		}
	}
}

func TestDatabaseDownIs503(t *testing.T) {
	fake := newFakeStore()
	fake.down = true
	for _, target := range []string{"/health", "/items/7", "/items"} {
		rec := serve(newTestServer(fake), "GET", target, "", "")
		if rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("%s: status %d", target, rec.Code)
		}
		decodeProblem(t, rec)
	}
}

// While other requests' bodies hold the body budget, a body that does not fit is refused with
// a 503 before any of it is read, and the connection is closed; a request without a body is
// served as ever, and the body is taken again once the budget is free. A chunked body counts
// as the whole 1 MiB it may grow to.
func TestBodiesOverTheBudgetAre503(t *testing.T) {
	tests := []struct {
		name    string
		chunked bool
		held    int64 // of the budget, by other requests
	}{
		{"declared length one byte over what is left", false, bodyBudget - int64(len(validItem)) + 1},
		{"chunked, 1 MiB not left", true, bodyBudget - maxBodyBytes + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			server := newTestServer(newFakeStore())
			if !server.bodies.TryAcquire(tt.held) {
				t.Fatal("the budget is smaller than the test assumes")
			}
			post := func() (*httptest.ResponseRecorder, *strings.Reader) {
				body := strings.NewReader(validItem)
				req := httptest.NewRequest("POST", "/items", body)
				req.Header.Set("Content-Type", "application/json")
				if tt.chunked {
					req.ContentLength = -1
				}
				rec := httptest.NewRecorder()
				server.Handler().ServeHTTP(rec, req)
				return rec, body
			}

			rec, body := post()
			if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Connection") != "close" {
				t.Fatalf("status %d, Connection %q", rec.Code, rec.Header().Get("Connection"))
			}
			if p := decodeProblem(t, rec); p.Detail != "the server is busy, try again shortly" {
				t.Fatalf("detail %q", p.Detail)
			}
			if body.Len() != len(validItem) {
				t.Fatalf("%d bytes of the refused body were read", len(validItem)-body.Len())
			}
			if rec := serve(server, "GET", "/items/7", "", ""); rec.Code != http.StatusOK {
				t.Fatalf("a read while the budget is taken: status %d", rec.Code)
			}

			server.bodies.Release(tt.held)
			if rec, _ := post(); rec.Code != http.StatusCreated {
				t.Fatalf("with the budget free: status %d, body %s", rec.Code, rec.Body)
			}
		})
	}
}
