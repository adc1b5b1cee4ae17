package main

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

type stock struct {
	config
	// Requests answered so far: the n-th request's delay is a function of the seed and n, so a
	// run's sequence of delays is the same each time, without a lock around a shared generator.
	served atomic.Uint64
}

func newStock(c config) *stock {
	return &stock{config: c}
}

func (s *stock) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stock/{id}", s.quantity)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, `{"status":"UP"}`)
	})
	return mux
}

func (s *stock) quantity(w http.ResponseWriter, r *http.Request) {
	time.Sleep(s.delay(s.served.Add(1)))
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 || id > s.items {
		writeJSON(w, http.StatusNotFound, `{"status":404,"detail":"no such item"}`)
		return
	}
	writeJSON(w, http.StatusOK, `{"itemId":`+strconv.FormatInt(id, 10)+`,"quantity":`+strconv.FormatInt(quantityOf(id), 10)+`}`)
}

// quantityOf is the item's stock as the upstream keeps it: deterministic, 0 to 999.
func quantityOf(id int64) int64 {
	return id * 7919 % 1000
}

// delay is the n-th request's wait, uniform over whole milliseconds in [delayMin, delayMax].
func (s *stock) delay(n uint64) time.Duration {
	span := uint64((s.delayMax-s.delayMin)/time.Millisecond) + 1
	return s.delayMin + time.Duration(splitmix64(s.seed^n)%span)*time.Millisecond
}

// splitmix64 is a well-mixed 64-bit hash: consecutive n give independent-looking draws.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
