package store_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/api"
	"github.com/bench/go-gin/internal/config"
	"github.com/bench/go-gin/internal/store"
)

// openTestStore opens a Store on DATABASE_URL (the runner passes a seeded database to
// `./bench test`); without it the test is skipped, as `go test ./...` needs no database.
func openTestStore(t *testing.T, poolSize int32) *store.Store {
	t.Helper()
	url := os.Getenv("DATABASE_URL")
	if url == "" {
		t.Skip("DATABASE_URL is not set: this test needs a PostgreSQL database")
	}
	s, err := store.Open(context.Background(), url, poolSize)
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// API.md: a request waits at most 5 s for a pooled connection, then answers 503 at once. With a
// pool of one connection held elsewhere, every request must give up after AcquireTimeout, well
// before the 10 s its statements may take, and answer once the connection is back.
func TestExhaustedPoolAnswers503AfterAcquireTimeout(t *testing.T) {
	t.Parallel()
	s := openTestStore(t, 1)
	gin.SetMode(gin.TestMode)
	handler := api.NewServer(s, nil, config.Config{AvatarBaseURL: "https://avatar.test", AvatarCount: 21}).Handler()
	serve := func(target string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, target, nil))
		return rec
	}

	held, err := s.Acquire(context.Background())
	if err != nil {
		t.Fatalf("acquire the pool's only connection: %v", err)
	}
	// Concurrent waiters each give up after their own 5 s, not one after the other.
	targets := []string{"/health", "/items?page=0&size=2", "/categories/1"}
	type answer struct {
		rec     *httptest.ResponseRecorder
		elapsed time.Duration
	}
	answers := make([]answer, len(targets))
	var wg sync.WaitGroup
	for i, target := range targets {
		wg.Go(func() {
			start := time.Now()
			rec := serve(target)
			answers[i] = answer{rec, time.Since(start)}
		})
	}
	wg.Wait()
	held.Release()
	for i, target := range targets {
		rec, elapsed := answers[i].rec, answers[i].elapsed
		if rec.Code != http.StatusServiceUnavailable {
			t.Errorf("%s with the pool exhausted: status %d, body %s", target, rec.Code, rec.Body)
			continue
		}
		var p struct{ Title string }
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/problem+json") ||
			json.Unmarshal(rec.Body.Bytes(), &p) != nil || p.Title != "Service Unavailable" {
			t.Errorf("%s: not a 503 problem: Content-Type %q, body %s", target, ct, rec.Body)
		}
		// It waited for the pool (no less), and no longer than the wait plus a second (API.md's 6 s).
		if elapsed < store.AcquireTimeout-100*time.Millisecond || elapsed > store.AcquireTimeout+time.Second {
			t.Errorf("%s answered 503 after %v, want %v (+ at most 1 s)", target, elapsed, store.AcquireTimeout)
		}
	}

	if rec := serve("/health"); rec.Code != http.StatusOK {
		t.Fatalf("/health once the connection is back: status %d, body %s", rec.Code, rec.Body)
	}
}
