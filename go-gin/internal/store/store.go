// Package store is the data access layer: SQL over a pgx pool, and domain errors. No HTTP here.
package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"
)

var (
	ErrNotFound        = errors.New("not found")
	ErrDuplicate       = errors.New("duplicate key")
	ErrStillReferenced = errors.New("still referenced")
	ErrUnknownCategory = errors.New("unknown category")
	// ErrUnavailable means the database cannot be reached or no connection freed up in time.
	ErrUnavailable = errors.New("database unavailable")

	errForeignKey = errors.New("foreign key violation")
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
	return translate(err)
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

// translate turns driver errors into the domain errors above; anything else stays as it is.
func translate(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return ErrNotFound
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case pgErr.Code == "23505":
			return fmt.Errorf("%w (%s)", ErrDuplicate, pgErr.ConstraintName)
		case pgErr.Code == "23503":
			return fmt.Errorf("%w (%s)", errForeignKey, pgErr.ConstraintName)
		case pgErr.Code == "53300", pgErr.Code[:2] == "08", pgErr.Code[:2] == "57":
			// too many connections, connection exception, operator intervention (shutdown)
			return fmt.Errorf("%w: %s", ErrUnavailable, pgErr.Message)
		}
		return err
	}
	var netErr net.Error
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) || errors.As(err, &netErr) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) || pgconn.SafeToRetry(err) || pgconn.Timeout(err) {
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return err
}

// toDecimal converts PostgreSQL's numeric to a decimal without going through float64.
func toDecimal(n pgtype.Numeric) decimal.Decimal {
	if !n.Valid || n.Int == nil {
		return decimal.Zero
	}
	return decimal.NewFromBigInt(n.Int, n.Exp)
}
