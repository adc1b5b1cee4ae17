package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// The domain errors of the data layer. Callers see these, or for anything unexpected the
// driver's error itself; they never need to know a SQLSTATE. What they mean to a client is the
// API's business (internal/api/errors.go).

// NotFoundError: there is no category or item with this id.
type NotFoundError struct {
	Entity string // "category" or "item"
	ID     int64
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("%s %d not found", e.Entity, e.ID) }

// DuplicateKeyError: another row already holds this unique key (a category's code, an item's sku).
type DuplicateKeyError struct {
	Key   string // "code" or "sku"
	Value string
}

func (e *DuplicateKeyError) Error() string {
	return fmt.Sprintf("%s %s already exists", e.Key, e.Value)
}

// UnknownCategoryError: an item names a category that does not exist.
type UnknownCategoryError struct{ CategoryID int64 }

func (e *UnknownCategoryError) Error() string {
	return fmt.Sprintf("category %d does not exist", e.CategoryID)
}

// StillReferencedError: a category cannot be deleted while items reference it.
type StillReferencedError struct{ CategoryID int64 }

func (e *StillReferencedError) Error() string {
	return fmt.Sprintf("category %d still has items", e.CategoryID)
}

// ErrUnavailable wraps every failure that means PostgreSQL cannot be used right now.
var ErrUnavailable = errors.New("database unavailable")

// The SQLSTATEs of the constraint violations the schema can raise on purpose.
const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

// unavailable is the one classifier of "the database is not there" (spec/README.md): SQLSTATE
// class 08 (connection exception), class 53 (insufficient resources, such as 53300 too many
// connections) and class 57P (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect
// now, …); the driver's own I/O failures (refused, reset, closed, EOF); and the deadline that
// bounds the wait for a pooled connection. Any other error, whatever its SQLSTATE (57014
// query_canceled, XX000, 40P01, …), is not: it is a bug, answered as a logged 500.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		code := pgErr.Code
		return strings.HasPrefix(code, "08") || strings.HasPrefix(code, "53") || strings.HasPrefix(code, "57P")
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err) || pgconn.SafeToRetry(err)
}

// translate turns what pgx returned into a domain error: noRow is what "no row" means for the
// statement (nil where it cannot happen), and an unavailable database is ErrUnavailable.
// Anything else, constraint violations included, is returned as it is: the write methods
// recognise the violations their statement may raise (violates) before calling translate, so
// an unrecognised one ends as a 500.
func translate(err error, noRow error) error {
	switch {
	case err == nil:
		return nil
	case noRow != nil && errors.Is(err, pgx.ErrNoRows):
		return noRow
	case unavailable(err):
		return fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	return err
}

// violates reports whether err is a PostgreSQL error with this SQLSTATE.
func violates(err error, sqlstate string) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == sqlstate
}
