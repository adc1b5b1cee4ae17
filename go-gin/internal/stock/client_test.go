package stock

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// upstream is a fake stock upstream: every request to /stock/{id} gets `answer`.
func upstream(t *testing.T, answer http.HandlerFunc) (*Client, *httptest.Server) {
	t.Helper()
	server := httptest.NewServer(answer)
	t.Cleanup(server.Close)
	client := New(server.URL)
	t.Cleanup(client.Close)
	return client, server
}

func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func TestQuantityAsksOnceForTheItem(t *testing.T) {
	var asked []string
	client, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Method+" "+r.URL.Path+" "+r.Header.Get("Accept"))
		reply(http.StatusOK, `{"itemId": -7, "quantity": 345, "warehouse": "north"}`)(w, r)
	})
	quantity, err := client.Quantity(context.Background(), -7)
	if err != nil || quantity != 345 {
		t.Fatalf("quantity %d, error %v", quantity, err)
	}
	if len(asked) != 1 || asked[0] != "GET /stock/-7 application/json" {
		t.Fatalf("asked %q", asked)
	}
}

func TestQuantityBounds(t *testing.T) {
	for body, want := range map[string]int32{`{"quantity":0}`: 0, `{"quantity":2147483647}`: 2147483647} {
		client, _ := upstream(t, reply(http.StatusOK, body))
		if quantity, err := client.Quantity(context.Background(), 1); err != nil || quantity != want {
			t.Fatalf("%s: quantity %d, error %v", body, quantity, err)
		}
	}
}

func TestNoStockRecordIsNotFound(t *testing.T) {
	client, _ := upstream(t, reply(http.StatusNotFound, `{"detail":"no such item"}`))
	_, err := client.Quantity(context.Background(), 5)
	var notFound *NotFoundError
	if !errors.As(err, &notFound) || notFound.ItemID != 5 || err.Error() != "no stock record for item 5" {
		t.Fatalf("error %v", err)
	}
}

func TestUnusableAnswersFail(t *testing.T) {
	tests := map[string]http.HandlerFunc{
		"500":                  reply(http.StatusInternalServerError, `{"quantity":1}`),
		"503":                  reply(http.StatusServiceUnavailable, ``),
		"400":                  reply(http.StatusBadRequest, `{}`),
		"not JSON":             reply(http.StatusOK, `not json`),
		"empty body":           reply(http.StatusOK, ``),
		"trailing garbage":     reply(http.StatusOK, `{"quantity":1} x`),
		"an array":             reply(http.StatusOK, `[{"quantity":1}]`),
		"null":                 reply(http.StatusOK, `null`),
		"a number":             reply(http.StatusOK, `5`),
		"quantity missing":     reply(http.StatusOK, `{"itemId":1}`),
		"quantity in capitals": reply(http.StatusOK, `{"Quantity":1}`),
		"quantity a string":    reply(http.StatusOK, `{"quantity":"5"}`),
		"quantity a fraction":  reply(http.StatusOK, `{"quantity":1.5}`),
		"quantity an exponent": reply(http.StatusOK, `{"quantity":1e2}`),
		"quantity negative":    reply(http.StatusOK, `{"quantity":-1}`),
		"quantity too large":   reply(http.StatusOK, `{"quantity":2147483648}`),
		"quantity a boolean":   reply(http.StatusOK, `{"quantity":true}`),
		"quantity null":        reply(http.StatusOK, `{"quantity":null}`),
		"a redirect": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/stock/2", http.StatusFound)
		},
		"closed without an answer": func(w http.ResponseWriter, _ *http.Request) {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
		},
	}
	for name, answer := range tests {
		t.Run(name, func(t *testing.T) {
			var requests atomic.Int32
			client, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				answer(w, r)
			})
			_, err := client.Quantity(context.Background(), 1)
			if !errors.Is(err, ErrFailed) {
				t.Fatalf("error %v, want ErrFailed", err)
			}
			// Once, not followed, not retried (a dropped fresh connection is not resent either).
			if n := requests.Load(); n != 1 {
				t.Fatalf("the upstream was asked %d times", n)
			}
		})
	}
}

func TestRefusedConnectionFails(t *testing.T) {
	server := httptest.NewServer(reply(http.StatusOK, `{"quantity":1}`))
	server.Close()
	client := New(server.URL)
	defer client.Close()
	if _, err := client.Quantity(context.Background(), 1); !errors.Is(err, ErrFailed) {
		t.Fatalf("error %v, want ErrFailed", err)
	}
}

func TestNoResponseHeadersWithinTheTimeoutTimesOut(t *testing.T) {
	release := make(chan struct{})
	client, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	started := time.Now()
	_, err := client.Quantity(context.Background(), 1)
	elapsed := time.Since(started)
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("error %v, want ErrTimeout", err)
	}
	if elapsed < ResponseTimeout || elapsed > ResponseTimeout+500*time.Millisecond {
		t.Fatalf("gave up after %v, not after %v", elapsed, ResponseTimeout)
	}
}

func TestAnAnswerWithinTheTimeoutIsRead(t *testing.T) {
	client, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		reply(http.StatusOK, `{"quantity":9}`)(w, r)
	})
	if quantity, err := client.Quantity(context.Background(), 1); err != nil || quantity != 9 {
		t.Fatalf("quantity %d, error %v", quantity, err)
	}
}

// The pool does not cap the requests in flight: the upstream holds every answer until all of
// them have arrived, which a pool of fewer connections would never let happen within the timeout.
func TestHundredsOfRequestsAreInFlightAtOnce(t *testing.T) {
	const inFlight = 512
	var arrived sync.WaitGroup
	arrived.Add(inFlight)
	all := make(chan struct{})
	go func() { arrived.Wait(); close(all) }()
	client, _ := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		arrived.Done()
		<-all
		reply(http.StatusOK, `{"quantity":3}`)(w, r)
	})
	errs := make(chan error, inFlight)
	for range inFlight {
		go func() {
			_, err := client.Quantity(context.Background(), 1)
			errs <- err
		}()
	}
	for range inFlight {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
