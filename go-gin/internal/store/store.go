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

// AcquireTimeout bounds the wait for a pooled connection: API.md wants a 503 once it has passed,
// never a hang.
const AcquireTimeout = 5 * time.Second

// callTimeout bounds a whole store call, pool wait included: what is left of it once a
// connection is in hand is for the statements, against a database that stopped answering.
const callTimeout = AcquireTimeout + 5*time.Second

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

// withConn runs fn on one pooled connection, the only way the store reaches the database.
// pgxpool (5.12) has no acquire timeout of its own: pool.Query and the like wait for a
// connection as long as their context lets them. So the connection is acquired explicitly,
// under AcquireTimeout, and an exhausted pool gives up after 5 s with context.DeadlineExceeded
// (an "unavailable" error, hence a 503). The statements run under the call's deadline
// (callTimeout from the start of the call), never under the acquire one. fn gets that
// context; the error, fn's or the pool's, is returned untranslated for the caller to read.
func (s *Store) withConn(ctx context.Context, fn func(ctx context.Context, conn *pgxpool.Conn) error) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	acquireCtx, cancelAcquire := context.WithTimeout(ctx, AcquireTimeout)
	conn, err := s.pool.Acquire(acquireCtx)
	cancelAcquire()
	if err != nil {
		return err
	}
	defer conn.Release()
	return fn(ctx, conn)
}

// Ping runs the readiness query of /health.
func (s *Store) Ping(ctx context.Context) error {
	err := s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		_, err := conn.Exec(ctx, "SELECT 1")
		return err
	})
	return translate(err, nil)
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

// toDecimal converts PostgreSQL's numeric to a decimal without going through float64.
func toDecimal(n pgtype.Numeric) decimal.Decimal {
	if !n.Valid || n.Int == nil {
		return decimal.Zero
	}
	return decimal.NewFromBigInt(n.Int, n.Exp)
}
