package store

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Acquire checks a connection out of the store's pool and keeps it until it is released, as a
// slow request would: the tests of package store_test use it to exhaust the pool.
func (s *Store) Acquire(ctx context.Context) (*pgxpool.Conn, error) { return s.pool.Acquire(ctx) }
