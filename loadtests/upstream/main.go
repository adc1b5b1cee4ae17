// Command upstream is the stock service the outbound scenario's stacks call: GET /stock/{id}
// answers the quantity of an item after a delay drawn per request, like a slow service a real API
// depends on. It is part of the harness, not a stack: it must stay cheap enough to share a CPU
// with PostgreSQL and the load generator, so it is the standard library and nothing else.
//
//	GET /stock/{id}  200 {"itemId": id, "quantity": q} for 1 <= id <= UPSTREAM_ITEMS, else 404
//	GET /health      200 {"status":"UP"}, at once
//
// Environment: HOST (127.0.0.1), PORT (8099), UPSTREAM_DELAY_MS ("1-50": uniform over whole
// milliseconds, both ends included; "0" for none), UPSTREAM_SEED (1), UPSTREAM_ITEMS (100000).
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	config, err := configFromEnvironment(os.Getenv)
	if err != nil {
		log.Fatalf("upstream: %v", err)
	}
	server := &http.Server{
		Addr:              net.JoinHostPort(config.host, strconv.Itoa(config.port)),
		Handler:           newStock(config).routes(),
		ReadHeaderTimeout: 5 * time.Second,
	}
	stop, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	go func() {
		<-stop.Done()
		ctx, done := context.WithTimeout(context.Background(), 5*time.Second)
		defer done()
		_ = server.Shutdown(ctx)
	}()
	log.Printf("upstream: stock service on http://%s (delay %s ms, seed %d, items %d)",
		server.Addr, config.delayText, config.seed, config.items)
	if err := server.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("upstream: %v", err)
	}
}

type config struct {
	host      string
	port      int
	delayMin  time.Duration
	delayMax  time.Duration
	delayText string
	seed      uint64
	items     int64
}

func configFromEnvironment(getenv func(string) string) (config, error) {
	value := func(name, fallback string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return fallback
	}
	c := config{host: value("HOST", "127.0.0.1"), delayText: value("UPSTREAM_DELAY_MS", "1-50")}
	var err error
	if c.port, err = strconv.Atoi(value("PORT", "8099")); err != nil || c.port < 1 || c.port > 65535 {
		return c, fmt.Errorf("PORT=%q is not a port number", value("PORT", ""))
	}
	if c.delayMin, c.delayMax, err = parseDelay(c.delayText); err != nil {
		return c, err
	}
	if c.seed, err = strconv.ParseUint(value("UPSTREAM_SEED", "1"), 10, 64); err != nil {
		return c, fmt.Errorf("UPSTREAM_SEED=%q is not a whole number", value("UPSTREAM_SEED", ""))
	}
	if c.items, err = strconv.ParseInt(value("UPSTREAM_ITEMS", "100000"), 10, 64); err != nil || c.items < 1 {
		return c, fmt.Errorf("UPSTREAM_ITEMS=%q is not a positive whole number", value("UPSTREAM_ITEMS", ""))
	}
	return c, nil
}

// parseDelay reads "MIN-MAX" or "N" milliseconds.
func parseDelay(text string) (time.Duration, time.Duration, error) {
	low, high, ranged := strings.Cut(text, "-")
	if !ranged {
		high = low
	}
	lowMs, errLow := strconv.Atoi(strings.TrimSpace(low))
	highMs, errHigh := strconv.Atoi(strings.TrimSpace(high))
	if errLow != nil || errHigh != nil || lowMs < 0 || highMs < lowMs {
		return 0, 0, fmt.Errorf("UPSTREAM_DELAY_MS=%q is not MIN-MAX milliseconds (like 1-50) or one number", text)
	}
	return time.Duration(lowMs) * time.Millisecond, time.Duration(highMs) * time.Millisecond, nil
}
