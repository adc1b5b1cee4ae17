// Command server serves the benchmark's Category/Item API with gin and pgx.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/bench/go-gin/internal/api"
	"github.com/bench/go-gin/internal/config"
	"github.com/bench/go-gin/internal/stock"
	"github.com/bench/go-gin/internal/store"
)

const version = "1.0.0"

func main() {
	// `server healthcheck` lets a container probe /health without curl in the image.
	if len(os.Args) == 2 && os.Args[1] == "healthcheck" {
		os.Exit(healthcheck())
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "go-gin:", err)
		os.Exit(1)
	}
}

func run() error {
	cfg, err := config.Load()
	if err != nil {
		return err
	}
	gin.SetMode(gin.ReleaseMode)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	db, err := store.Open(ctx, cfg.DatabaseURL, cfg.PoolSize)
	if err != nil {
		return err
	}
	defer db.Close()
	// One upstream client for the process, its connections pooled across requests.
	upstream := stock.New(cfg.StockURL)
	defer upstream.Close()

	server := &http.Server{
		Addr:              cfg.Addr(),
		Handler:           api.NewServer(db, upstream, cfg).Handler(),
		ReadHeaderTimeout: 10 * time.Second,
	}
	listenErr := make(chan error, 1)
	go func() { listenErr <- server.ListenAndServe() }()
	fmt.Printf("go-gin %s (gin %s, %s) listening on %s, pool size %d\n",
		version, ginVersion(), runtime.Version(), cfg.Addr(), cfg.PoolSize)

	select {
	case err := <-listenErr:
		return err
	case <-ctx.Done():
	}
	// In-flight requests finish (an upstream call within its 2 s); the pools close after them
	// (deferred), well inside API.md's 10 s.
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	if err := server.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		slog.Warn("shutdown did not finish in time", "error", err)
	}
	return nil
}

func healthcheck() int {
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	client := http.Client{Timeout: 3 * time.Second}
	resp, err := client.Get("http://127.0.0.1:" + port + "/health")
	if err != nil {
		fmt.Fprintln(os.Stderr, "healthcheck:", err)
		return 1
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		fmt.Fprintln(os.Stderr, "healthcheck: status", resp.StatusCode)
		return 1
	}
	return 0
}

func ginVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/gin-gonic/gin" {
				return dep.Version
			}
		}
	}
	return gin.Version
}
