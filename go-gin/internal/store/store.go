// Package store is the data access layer: SQL over a pgx pool, and domain errors. No HTTP here.
package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"
)

// AcquireTimeout bounds the wait for a pooled connection: API.md wants a 503, never a hang.
const AcquireTimeout = 5 * time.Second

type Store struct {
	pool *pgxpool.Pool
}

func Open(ctx context.Context, databaseURL string, poolSize int32) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(databaseURL)
	if err != nil {
		return nil, fmt.Errorf("DATABASE_URL is not a valid PostgreSQL URL: %w", err)
	}
	cfg.MaxConns = poolSize
	cfg.ConnConfig.ConnectTimeout = AcquireTimeout
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	s := &Store{pool: pool}
	if err := s.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("cannot reach the database: %w", err)
	}
	return s, nil
}

func (s *Store) Close() { s.pool.Close() }

// Ping runs the readiness query of /health.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := withTimeout(ctx)
	defer cancel()
	_, err := s.pool.Exec(ctx, "SELECT 1")
	if err != nil {
		return translate(err, nil)
	}
	return nil
}

// Page is one page of rows and the total count of rows the query matches.
type Page[T any] struct {
	Rows  []T
	Total int64
}

// offset returns page*size, and false when it overflows: such a page is past the end.
func offset(page, size int64) (int64, bool) {
	if page > 0 && size > (1<<63-1)/page {
		return 0, false
	}
	return page * size, true
}

func withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	// The pool wait is bounded by AcquireTimeout; the rest is for a database that stopped answering.
	return context.WithTimeout(ctx, AcquireTimeout+5*time.Second)
}

// toDecimal converts PostgreSQL's numeric to a decimal without going through float64.
func toDecimal(n pgtype.Numeric) decimal.Decimal {
	if !n.Valid || n.Int == nil {
		return decimal.Zero
	}
	return decimal.NewFromBigInt(n.Int, n.Exp)
}
