package api

import (
	"maps"
	"net/http"
	"strings"
	"testing"
)

func TestPathIDs(t *testing.T) {
	tests := []struct {
		name, target string
		status       int
		id           int64 // the id the store was asked for, when the request got that far
	}{
		{"plain", "/items/7", 200, 7},
		{"plus sign", "/items/+7", 200, 7},
		{"encoded plus sign", "/items/%2B7", 200, 7},
		{"leading zeros", "/items/007", 200, 7},
		{"minus zero", "/items/-0", 404, 0},
		{"negative", "/items/-5", 404, -5},
		{"int64 max", "/items/9223372036854775807", 404, 9223372036854775807},
		{"int64 min", "/items/-9223372036854775808", 404, -9223372036854775808},
		{"over int64", "/items/9223372036854775808", 400, 0},
		{"under int64", "/items/-9223372036854775809", 400, 0},
		{"leading space", "/items/%207", 400, 0},
		{"trailing space", "/items/7%20", 400, 0},
		{"Arabic-Indic digits", "/items/%D9%A1%D9%A2", 400, 0},
		{"fullwidth digit", "/items/%EF%BC%95", 400, 0},
		{"underscore", "/items/1_0", 400, 0},
		{"decimal", "/items/1.0", 400, 0},
		{"exponent", "/items/1e3", 400, 0},
		{"hexadecimal", "/items/0x10", 400, 0},
		{"lone sign", "/items/+", 400, 0},
		{"letters", "/items/abc", 400, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFakeStore()
			rec := serve(newTestServer(fake), "GET", tt.target, "", "")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status == 400 {
				if p := decodeProblem(t, rec); p.Detail != "id must be an integer in the signed 64-bit range" {
					t.Fatalf("detail %q", p.Detail)
				}
				if fake.lastID != nil {
					t.Fatalf("the store was asked for item %d", *fake.lastID)
				}
				return
			}
			if fake.lastID == nil || *fake.lastID != tt.id {
				t.Fatalf("store asked for %v, want %d", fake.lastID, tt.id)
			}
		})
	}
}

func TestQueryIntegers(t *testing.T) {
	ptr := func(n int64) *int64 { return &n }
	tests := []struct {
		name, query string
		detail      string // of the 400; "" for a 200
		page, size  int64
		categoryID  *int64
	}{
		{"defaults", "", "", 0, 20, nil},
		{"all given", "page=3&size=100&categoryId=42", "", 3, 100, ptr(42)},
		{"encoded plus sign", "page=%2B5&size=%2B7&categoryId=%2B42", "", 5, 7, ptr(42)},
		{"leading zeros", "page=007&size=010", "", 7, 10, nil},
		{"negative category", "categoryId=-1", "", 0, 20, ptr(-1)},
		{"page at int64 max", "page=9223372036854775807", "", 9223372036854775807, 20, nil},
		{"unknown parameters ignored", "sort=name&foo=", "", 0, 20, nil},

		{"a raw plus decodes to a space", "page=+5", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"empty page", "page=", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"negative page", "page=-1", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"page over int64", "page=9223372036854775808", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"page with trailing space", "page=5%20", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"Arabic-Indic page", "page=%D9%A1", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"underscore page", "page=1_0", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"lone sign page", "page=-", "page must be an integer ≥ 0 (in the signed 64-bit range)", 0, 0, nil},
		{"empty size", "size=", "size must be an integer between 1 and 100", 0, 0, nil},
		{"size zero", "size=0", "size must be an integer between 1 and 100", 0, 0, nil},
		{"size over 100", "size=101", "size must be an integer between 1 and 100", 0, 0, nil},
		{"size decimal", "size=1.0", "size must be an integer between 1 and 100", 0, 0, nil},
		{"fullwidth size", "size=%EF%BC%95", "size must be an integer between 1 and 100", 0, 0, nil},
		{"empty categoryId", "categoryId=", "categoryId must be an integer in the signed 64-bit range", 0, 0, nil},
		{"categoryId exponent", "categoryId=1e3", "categoryId must be an integer in the signed 64-bit range", 0, 0, nil},
		{"categoryId hexadecimal", "categoryId=0x10", "categoryId must be an integer in the signed 64-bit range", 0, 0, nil},
		{"categoryId over int64", "categoryId=9223372036854775808", "categoryId must be an integer in the signed 64-bit range", 0, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := newFakeStore()
			rec := serve(newTestServer(fake), "GET", "/items?"+tt.query, "", "")
			if tt.detail != "" {
				if rec.Code != http.StatusBadRequest {
					t.Fatalf("status %d, want 400; body %s", rec.Code, rec.Body)
				}
				if p := decodeProblem(t, rec); p.Detail != tt.detail {
					t.Fatalf("detail %q, want %q", p.Detail, tt.detail)
				}
				return
			}
			if rec.Code != http.StatusOK || fake.lastList == nil {
				t.Fatalf("status %d; body %s", rec.Code, rec.Body)
			}
			got := fake.lastList
			if got.page != tt.page || got.size != tt.size {
				t.Fatalf("page %d size %d, want %d %d", got.page, got.size, tt.page, tt.size)
			}
			if (got.filter.CategoryID == nil) != (tt.categoryID == nil) ||
				(tt.categoryID != nil && *got.filter.CategoryID != *tt.categoryID) {
				t.Fatalf("categoryId %v, want %v", got.filter.CategoryID, tt.categoryID)
			}
		})
	}
}

func TestPriceIsJudgedByExactValue(t *testing.T) {
	tests := []struct {
		literal string
		want    string // the price taken, or "" when it is invalid
	}{
		{"0", "0"},
		{"-0", "0"},
		{"0.00", "0"},
		{"0e-999999999", "0"},
		{"0e99999999999999999999", "0"},
		{"1.230", "1.23"},
		{"600.55", "600.55"},
		{"99999999.99", "99999999.99"},
		{"1e2", "100"},
		{"1E+2", "100"},
		{"125E-2", "1.25"},
		{"1.10000000000000000000", "1.1"},
		{"100000000000000000000000e-22", "10"},
		{"1000000000000000000000e-23", "0.01"},
		{"9999999999e-2", "99999999.99"},

		{"1.00000000000000001", ""},
		{"99999999.995", ""},
		{"99999999.991", ""},
		{"1.234", ""},
		{"-0.01", ""},
		{"-1", ""},
		{"100000000", ""},
		{"1e8", ""},
		{"1e400", ""},
		{"1e-400", ""},
		{"1e-3", ""},
		{"1e-999999999", ""},
		{"1e99999999999999999999", ""},
		{"1e-99999999999999999999", ""},
		{"1e9223372036854775807", ""},
		{"1.5e-9223372036854775808", ""},
	}
	for _, tt := range tests {
		t.Run(tt.literal, func(t *testing.T) {
			price, ok := parsePrice(tt.literal)
			if ok != (tt.want != "") || (ok && price.String() != tt.want) {
				t.Fatalf("parsePrice(%s) = %s, %v; want %q", tt.literal, price, ok, tt.want)
			}
		})
	}
}

func TestPriceThroughTheHandler(t *testing.T) {
	for literal, status := range map[string]int{
		`1e2`: 201, `125E-2`: 201, `1.10000000000000000000`: 201,
		`1.00000000000000001`: 422, `99999999.995`: 422, `"9.99"`: 422, `true`: 422, `null`: 422,
	} {
		fake := newFakeStore()
		rec := serve(newTestServer(fake), "POST", "/items", "application/json",
			`{"sku":"S-1","name":"n","stock":3,"categoryId":42,"price":`+literal+`}`)
		if rec.Code != status {
			t.Fatalf("price %s: status %d, want %d; body %s", literal, rec.Code, status, rec.Body)
		}
		if status == 422 {
			if p := decodeProblem(t, rec); len(p.Errors) != 1 || p.Errors[0].Field != "price" {
				t.Fatalf("price %s: errors %+v", literal, p.Errors)
			}
		}
	}
}

func TestBodyFields(t *testing.T) {
	tests := []struct {
		name, target, body string
		status             int
		messages           map[string]string // field → message of the 422; nil for another status
	}{
		{"every wrong type is listed with the other rules", "/items",
			`{"sku":"","name":null,"price":"x","stock":-5,"categoryId":"c","description":1}`, 422,
			map[string]string{"sku": "must not be blank", "name": "is required", "price": "must be a number",
				"stock": "must be at least 0", "categoryId": "must be an integer in the signed 64-bit range",
				"description": "must be a string"}},
		{"two wrong types", "/categories", `{"code":true,"name":false}`, 422,
			map[string]string{"code": "must be a string", "name": "must be a string"}},
		{"numbers out of range", "/items",
			`{"sku":"s","name":"n","price":1.234,"stock":2147483648,"categoryId":99999999999999999999}`, 422,
			map[string]string{"price": "must be a number between 0 and 99999999.99 with at most 2 decimals",
				"stock": "must be an integer in the signed 32-bit range", "categoryId": "must be an integer in the signed 64-bit range"}},
		{"fractions are not integers", "/items", `{"sku":"s","name":"n","price":1,"stock":1.5,"categoryId":4.2}`, 422,
			map[string]string{"stock": "must be an integer in the signed 32-bit range", "categoryId": "must be an integer in the signed 64-bit range"}},
		{"lengths count code points", "/categories", `{"code":"` + strings.Repeat("😀", 33) + `","name":"` + strings.Repeat("😀", 128) + `"}`, 422,
			map[string]string{"code": "must be at most 32 characters long"}},
		{"NUL", "/items", `{"sku":"s","name":"n","price":1,"stock":1,"categoryId":42,"description":"a\u0000"}`, 422,
			map[string]string{"description": "must not contain the NUL character (U+0000)"}},
		{"property names are case-sensitive", "/categories", `{"Code":"X","name":"y"}`, 422,
			map[string]string{"code": "is required"}},
		{"only ASCII spaces, tabs, CR and LF are blank", "/categories", `{"code":"\u00a0","name":"\u2003"}`, 201, nil},
		{"blank description is kept", "/items", `{"sku":"s","name":"n","price":1,"stock":0,"categoryId":42,"description":" "}`, 201, nil},
		{"zero is a value, not a missing one", "/items", `{"sku":"s","name":"n","price":0,"stock":0,"categoryId":0}`, 422,
			map[string]string{"categoryId": "category 0 does not exist"}},
		{"data after the object", "/categories", `{"code":"X","name":"y"} {}`, 400, nil},
		{"not an object", "/items", `[{"sku":"s"}]`, 422, map[string]string{"": "must be a JSON object"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serve(newTestServer(newFakeStore()), "POST", tt.target, "application/json", tt.body)
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			if tt.messages == nil {
				return
			}
			messages := map[string]string{}
			for _, e := range decodeProblem(t, rec).Errors {
				messages[e.Field] = e.Message
			}
			if !maps.Equal(messages, tt.messages) {
				t.Fatalf("errors %v, want %v", messages, tt.messages)
			}
		})
	}
}
