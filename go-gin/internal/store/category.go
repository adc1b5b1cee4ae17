package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

type Category struct {
	ID        int64
	Code      string
	Name      string
	UpdatedAt time.Time
}

type CategoryInput struct {
	Code string
	Name string
}

const categoryColumns = "id, code, name, updated_at"

func scanCategory(row pgx.Row) (Category, error) {
	var c Category
	err := row.Scan(&c.ID, &c.Code, &c.Name, &c.UpdatedAt)
	return c, err
}

func (s *Store) ListCategories(ctx context.Context, page, size int64) (Page[Category], error) {
	result := Page[Category]{Rows: []Category{}}
	err := s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM category").Scan(&result.Total); err != nil {
			return err
		}
		off, ok := offset(page, size)
		if !ok || off >= result.Total {
			return nil
		}
		rows, err := conn.Query(ctx,
			"SELECT "+categoryColumns+" FROM category ORDER BY id LIMIT $1 OFFSET $2", size, off)
		if err != nil {
			return err
		}
		result.Rows, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Category, error) { return scanCategory(r) })
		return err
	})
	return result, translate(err, nil)
}

func (s *Store) GetCategory(ctx context.Context, id int64) (c Category, err error) {
	err = s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		c, err = scanCategory(conn.QueryRow(ctx, "SELECT "+categoryColumns+" FROM category WHERE id = $1", id))
		return err
	})
	return c, translate(err, &NotFoundError{Entity: "category", ID: id})
}

func (s *Store) CreateCategory(ctx context.Context, in CategoryInput) (c Category, err error) {
	err = s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		c, err = scanCategory(conn.QueryRow(ctx,
			"INSERT INTO category (code, name) VALUES ($1, $2) RETURNING "+categoryColumns, in.Code, in.Name))
		return err
	})
	if err != nil {
		return c, categoryWriteError(err, in, nil)
	}
	return c, nil
}

func (s *Store) UpdateCategory(ctx context.Context, id int64, in CategoryInput) (c Category, err error) {
	err = s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		c, err = scanCategory(conn.QueryRow(ctx,
			"UPDATE category SET code = $2, name = $3, updated_at = now() WHERE id = $1 RETURNING "+categoryColumns,
			id, in.Code, in.Name))
		return err
	})
	if err != nil {
		return c, categoryWriteError(err, in, &NotFoundError{Entity: "category", ID: id})
	}
	return c, nil
}

// categoryWriteError: a unique violation on a category write is its code being taken (the only
// unique key a write can touch: ids come from the sequence).
func categoryWriteError(err error, in CategoryInput, noRow error) error {
	if violates(err, uniqueViolation) {
		return &DuplicateKeyError{Key: "code", Value: in.Code}
	}
	return translate(err, noRow)
}

func (s *Store) DeleteCategory(ctx context.Context, id int64) error {
	var tag pgconn.CommandTag
	err := s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) (err error) {
		tag, err = conn.Exec(ctx, "DELETE FROM category WHERE id = $1", id)
		return err
	})
	// A foreign-key violation on a category delete: items still reference it.
	if violates(err, foreignKeyViolation) {
		return &StillReferencedError{CategoryID: id}
	}
	if err != nil {
		return translate(err, nil)
	}
	if tag.RowsAffected() == 0 {
		return &NotFoundError{Entity: "category", ID: id}
	}
	return nil
}
