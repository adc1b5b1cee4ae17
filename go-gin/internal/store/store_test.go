package store

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

func TestOffset(t *testing.T) {
	tests := []struct {
		page, size, want int64
		ok               bool
	}{
		{0, 20, 0, true},
		{7, 13, 91, true},
		{1 << 62, 2, 0, false},
		{9223372036854775807, 100, 0, false},
		{92233720368547758, 100, 9223372036854775800, true},
	}
	for _, tt := range tests {
		got, ok := offset(tt.page, tt.size)
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("offset(%d, %d) = %d, %v; want %d, %v", tt.page, tt.size, got, ok, tt.want, tt.ok)
		}
	}
}

// The acquire deadline bounds the pool wait only: a statement on the acquired connection may
// run past AcquireTimeout, up to the call's deadline, as before the wait had a bound of its own.
func TestStatementOutlivesAcquireTimeout(t *testing.T) {
	url := os.Getenv("DATABASE_URL")
	if url == "" {
		t.Skip("DATABASE_URL is not set: this test needs a PostgreSQL database")
	}
	t.Parallel()
	s, err := Open(context.Background(), url, 1)
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	defer s.Close()
	start := time.Now()
	err = s.withConn(context.Background(), func(ctx context.Context, conn *pgxpool.Conn) error {
		if deadline, ok := ctx.Deadline(); !ok || deadline.Before(start.Add(callTimeout)) {
			t.Errorf("statement deadline %v (set: %v), want no earlier than %v", deadline, ok, start.Add(callTimeout))
		}
		_, err := conn.Exec(ctx, "SELECT pg_sleep($1)", (AcquireTimeout + 500*time.Millisecond).Seconds())
		return err
	})
	if err != nil {
		t.Fatalf("a statement longer than AcquireTimeout failed after %v: %v", time.Since(start), err)
	}
}
