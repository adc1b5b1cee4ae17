package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/bench/go-gin/internal/stock"
)

// fakeStock answers as the stock client would: a quantity, or one of its domain errors.
type fakeStock struct {
	quantity int32
	err      error
	asked    []int64
}

func (f *fakeStock) Quantity(_ context.Context, itemID int64) (int32, error) {
	f.asked = append(f.asked, itemID)
	return f.quantity, f.err
}

func TestStockAnswersTheQuantity(t *testing.T) {
	upstream := &fakeStock{quantity: 345}
	fake := newFakeStore()
	// The stock reads nothing from the database: it is served while PostgreSQL is down.
	fake.down = true
	server := newTestServerAsking(fake, upstream)
	for _, target := range []string{"/items/7/stock", "/items/+7/stock", "/items/%2B7/stock", "/items/007/stock"} {
		rec := serve(server, "GET", target, "", "")
		if rec.Code != http.StatusOK || rec.Body.String() != `{"itemId":7,"quantity":345}` {
			t.Fatalf("%s: status %d, body %s", target, rec.Code, rec.Body)
		}
	}
	if fmt.Sprint(upstream.asked) != "[7 7 7 7]" {
		t.Fatalf("the upstream was asked for %v", upstream.asked)
	}
}

func TestStockErrors(t *testing.T) {
	tests := []struct {
		name, method, target string
		err                  error
		status               int
	}{
		{"id not an integer", "GET", "/items/abc/stock", nil, 400},
		{"id out of range", "GET", "/items/9223372036854775808/stock", nil, 400},
		{"another method", "POST", "/items/7/stock", nil, 405},
		{"no stock record", "GET", "/items/7/stock", &stock.NotFoundError{ItemID: 7}, 404},
		{"upstream failed", "GET", "/items/7/stock", fmt.Errorf("%w: status 500", stock.ErrFailed), 502},
		{"upstream timed out", "GET", "/items/7/stock", fmt.Errorf("%w: i/o timeout", stock.ErrTimeout), 504},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upstream := &fakeStock{err: tt.err}
			rec := serve(newTestServerAsking(newFakeStore(), upstream), tt.method, tt.target, "", "")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			decodeProblem(t, rec)
			if tt.err == nil && len(upstream.asked) != 0 {
				t.Fatalf("the upstream was asked for %v", upstream.asked)
			}
		})
	}
}

func TestStockMethodNotAllowedListsGet(t *testing.T) {
	rec := serve(newTestServer(newFakeStore()), "DELETE", "/items/7/stock", "", "")
	if got := rec.Header().Get("Allow"); got != "GET" {
		t.Fatalf("Allow %q, want GET", got)
	}
}

// The route, the real client and the error map together, against an upstream started here.
func TestStockAgainstAnUpstream(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	answers := map[string]http.HandlerFunc{
		"/stock/1": func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"quantity":12}`)) },
		"/stock/2": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNotFound) },
		"/stock/3": func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) },
		"/stock/4": func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`<html>`)) },
		"/stock/5": func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"quantity":-1}`)) },
		"/stock/6": func(_ http.ResponseWriter, r *http.Request) {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		},
	}
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		answers[r.URL.Path](w, r)
	}))
	defer server.Close()
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close()

	tests := []struct {
		name, upstreamURL, target string
		status                    int
	}{
		{"quantity", server.URL, "/items/1/stock", 200},
		{"no stock record", server.URL, "/items/2/stock", 404},
		{"upstream error", server.URL, "/items/3/stock", 502},
		{"garbage body", server.URL, "/items/4/stock", 502},
		{"bad quantity", server.URL, "/items/5/stock", 502},
		{"refused", refused.URL, "/items/1/stock", 502},
		{"hang past the timeout", server.URL, "/items/6/stock", 504},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := stock.New(tt.upstreamURL)
			defer client.Close()
			rec := serve(newTestServerAsking(newFakeStore(), client), "GET", tt.target, "", "")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status == 200 {
				if rec.Body.String() != `{"itemId":1,"quantity":12}` {
					t.Fatalf("body %s", rec.Body)
				}
				return
			}
			decodeProblem(t, rec)
		})
	}
}
