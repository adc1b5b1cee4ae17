// Package config reads the process contract of API.md from the environment, and nothing else.
package config

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
)

type Config struct {
	Host          string
	Port          int
	DatabaseURL   string
	PoolSize      int32
	AvatarBaseURL string
	AvatarCount   int
	LogRequests   bool
	// StockURL is the stock upstream's base URL, http://host:port, without a trailing slash.
	StockURL string
}

func Load() (Config, error) {
	cfg := Config{
		Host:          getenv("HOST", "127.0.0.1"),
		DatabaseURL:   os.Getenv("DATABASE_URL"),
		AvatarBaseURL: getenv("AVATAR_BASE_URL", "https://avatar.example.com"),
	}
	if cfg.DatabaseURL == "" {
		return cfg, errors.New("DATABASE_URL is not set (e.g. postgres://bench:bench@127.0.0.1:5432/bench)")
	}
	var err error
	if cfg.Port, err = intEnv("PORT", 8080, 1, 65535); err != nil {
		return cfg, err
	}
	pool, err := intEnv("DB_POOL_SIZE", 10, 1, 1000)
	if err != nil {
		return cfg, err
	}
	cfg.PoolSize = int32(pool)
	if cfg.AvatarCount, err = intEnv("AVATAR_COUNT", 21, 1, 1_000_000); err != nil {
		return cfg, err
	}
	cfg.LogRequests, err = strconv.ParseBool(getenv("LOG_REQUESTS", "false"))
	if err != nil {
		return cfg, fmt.Errorf("LOG_REQUESTS must be true or false, not %q", os.Getenv("LOG_REQUESTS"))
	}
	if cfg.StockURL, err = stockURL(getenv("STOCK_URL", "http://127.0.0.1:8099")); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// stockURL is STOCK_URL as the client joins paths to it: an http URL of a host and port, with
// at most a trailing slash after them, which is dropped.
func stockURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "http" || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("STOCK_URL must be an http URL of a host and port (http://127.0.0.1:8099), not %q", raw)
	}
	return "http://" + u.Host, nil
}

func (c Config) Addr() string {
	return fmt.Sprintf("%s:%d", c.Host, c.Port)
}

func getenv(name, fallback string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return fallback
}

func intEnv(name string, fallback, min, max int) (int, error) {
	raw, ok := os.LookupEnv(name)
	if !ok || raw == "" {
		return fallback, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < min || n > max {
		return 0, fmt.Errorf("%s must be an integer between %d and %d, not %q", name, min, max, raw)
	}
	return n, nil
}
