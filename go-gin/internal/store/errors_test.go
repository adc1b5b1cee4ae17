package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/shopspring/decimal"
)

func pgError(code string) error {
	return &pgconn.PgError{Severity: "ERROR", Code: code, Message: "test"}
}

func TestUnavailable(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"08006 connection_failure", pgError("08006"), true},
		{"08001 unable to connect", pgError("08001"), true},
		{"08P01 protocol violation", pgError("08P01"), true},
		{"53300 too_many_connections", pgError("53300"), true},
		{"53100 disk_full", pgError("53100"), true},
		{"57P01 admin_shutdown", pgError("57P01"), true},
		{"57P02 crash_shutdown", pgError("57P02"), true},
		{"57P03 cannot_connect_now", pgError("57P03"), true},
		{"wrapped 57P01", fmt.Errorf("query: %w", pgError("57P01")), true},
		{"connect error", &pgconn.ConnectError{}, true},
		{"connection refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, true},
		{"connection reset", &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}, true},
		{"EOF", io.EOF, true},
		{"unexpected EOF", fmt.Errorf("read: %w", io.ErrUnexpectedEOF), true},
		{"pool wait ran out", context.DeadlineExceeded, true},

		{"23505 unique_violation", pgError("23505"), false},
		{"23503 foreign_key_violation", pgError("23503"), false},
		{"23502 not_null_violation", pgError("23502"), false},
		{"57014 query_canceled", pgError("57014"), false},
		{"XX000 internal_error", pgError("XX000"), false},
		{"40P01 deadlock_detected", pgError("40P01"), false},
		{"42P01 undefined_table", pgError("42P01"), false},
		{"no rows", pgx.ErrNoRows, false},
		{"client went away", context.Canceled, false},
		{"anything else", errors.New("scan: cannot assign"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unavailable(tt.err); got != tt.want {
				t.Fatalf("unavailable = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestWriteErrorsAreRecognisedBySQLStateAndOperation(t *testing.T) {
	category := CategoryInput{Code: "CAT-0042", Name: "x"}
	item := ItemInput{SKU: "SKU-000001", Price: decimal.New(1, 0), CategoryID: 9}
	notFound := &NotFoundError{Entity: "item", ID: 7}
	tests := []struct {
		name  string
		got   error
		check func(error) bool
	}{
		{"category write, 23505: code taken", categoryWriteError(pgError("23505"), category, nil),
			isA[*DuplicateKeyError](func(e *DuplicateKeyError) bool { return e.Key == "code" && e.Value == "CAT-0042" })},
		{"item write, 23505: sku taken", itemWriteError(pgError("23505"), item, nil),
			isA[*DuplicateKeyError](func(e *DuplicateKeyError) bool { return e.Key == "sku" && e.Value == "SKU-000001" })},
		{"item write, 23503: unknown category", itemWriteError(pgError("23503"), item, nil),
			isA[*UnknownCategoryError](func(e *UnknownCategoryError) bool { return e.CategoryID == 9 })},
		{"item write, no row: not found", itemWriteError(pgx.ErrNoRows, item, notFound),
			func(err error) bool { return err == notFound }},
		{"item write, 57P01: unavailable", itemWriteError(pgError("57P01"), item, nil),
			func(err error) bool { return errors.Is(err, ErrUnavailable) }},
		// Any other integrity error is no domain error: the API answers it as a logged 500.
		{"item write, 23502 stays a database error", itemWriteError(pgError("23502"), item, nil), isRawPgError},
		{"item write, 23514 stays a database error", itemWriteError(pgError("23514"), item, nil), isRawPgError},
		{"category write, 23503 stays a database error", categoryWriteError(pgError("23503"), category, nil), isRawPgError},
		{"read, 57014 stays a database error", translate(pgError("57014"), notFound), isRawPgError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.check(tt.got) {
				t.Fatalf("got %T %v", tt.got, tt.got)
			}
		})
	}
}

func isA[T error](match func(T) bool) func(error) bool {
	return func(err error) bool {
		var target T
		return errors.As(err, &target) && match(target)
	}
}

func isRawPgError(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && !errors.Is(err, ErrUnavailable)
}
