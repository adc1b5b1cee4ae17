package store

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/shopspring/decimal"
)

type CategoryRef struct {
	ID   int64
	Code string
	Name string
}

type Item struct {
	ID          int64
	SKU         string
	Name        string
	Price       decimal.Decimal
	Stock       int32
	Description *string
	Category    CategoryRef
	UpdatedAt   time.Time
}

type ItemInput struct {
	SKU         string
	Name        string
	Price       decimal.Decimal
	Stock       int32
	Description *string
	CategoryID  int64
}

// Every item read joins its category: one statement per page, never one per item.
const itemSelect = `SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
       c.id, c.code, c.name
  FROM item i JOIN category c ON c.id = i.category_id`

// Writes return the row joined with its category in the same statement.
const itemReturning = ` RETURNING id, sku, name, price, stock, description, updated_at, category_id)
SELECT w.id, w.sku, w.name, w.price, w.stock, w.description, w.updated_at, c.id, c.code, c.name
  FROM written w JOIN category c ON c.id = w.category_id`

func scanItem(row pgx.Row) (Item, error) {
	var it Item
	var price pgtype.Numeric
	err := row.Scan(&it.ID, &it.SKU, &it.Name, &price, &it.Stock, &it.Description, &it.UpdatedAt,
		&it.Category.ID, &it.Category.Code, &it.Category.Name)
	it.Price = toDecimal(price)
	return it, err
}

// ItemFilter narrows a list of items to one category when CategoryID is set.
type ItemFilter struct {
	CategoryID *int64
}

func (s *Store) ListItems(ctx context.Context, filter ItemFilter, page, size int64) (Page[Item], error) {
	result := Page[Item]{Rows: []Item{}}
	err := s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		var err error
		if filter.CategoryID != nil {
			err = conn.QueryRow(ctx, "SELECT count(*) FROM item WHERE category_id = $1", *filter.CategoryID).
				Scan(&result.Total)
		} else {
			err = conn.QueryRow(ctx, "SELECT count(*) FROM item").Scan(&result.Total)
		}
		if err != nil {
			return err
		}
		off, ok := offset(page, size)
		if !ok || off >= result.Total {
			return nil
		}
		var rows pgx.Rows
		if filter.CategoryID != nil {
			rows, err = conn.Query(ctx, itemSelect+" WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3",
				*filter.CategoryID, size, off)
		} else {
			rows, err = conn.Query(ctx, itemSelect+" ORDER BY i.id LIMIT $1 OFFSET $2", size, off)
		}
		if err != nil {
			return err
		}
		result.Rows, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Item, error) { return scanItem(r) })
		return err
	})
	return result, translate(err, nil)
}

// ListCategoryItems is ListItems for one category, with a *NotFoundError when the category is absent.
// Existence and count come from one statement, so a page costs two statements as elsewhere.
func (s *Store) ListCategoryItems(ctx context.Context, categoryID, page, size int64) (Page[Item], error) {
	result := Page[Item]{Rows: []Item{}}
	var exists bool
	err := s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		err := conn.QueryRow(ctx,
			"SELECT EXISTS (SELECT 1 FROM category WHERE id = $1), (SELECT count(*) FROM item WHERE category_id = $1)",
			categoryID).Scan(&exists, &result.Total)
		if err != nil || !exists {
			return err
		}
		off, ok := offset(page, size)
		if !ok || off >= result.Total {
			return nil
		}
		rows, err := conn.Query(ctx, itemSelect+" WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3",
			categoryID, size, off)
		if err != nil {
			return err
		}
		result.Rows, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Item, error) { return scanItem(r) })
		return err
	})
	if err == nil && !exists {
		return result, &NotFoundError{Entity: "category", ID: categoryID}
	}
	return result, translate(err, nil)
}

func (s *Store) GetItem(ctx context.Context, id int64) (it Item, err error) {
	err = s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		it, err = scanItem(conn.QueryRow(ctx, itemSelect+" WHERE i.id = $1", id))
		return err
	})
	return it, translate(err, &NotFoundError{Entity: "item", ID: id})
}

func (s *Store) CreateItem(ctx context.Context, in ItemInput) (it Item, err error) {
	err = s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		it, err = scanItem(conn.QueryRow(ctx, `WITH written AS (
INSERT INTO item (sku, name, price, stock, description, category_id)
VALUES ($1, $2, $3::numeric, $4, $5, $6)`+itemReturning,
			in.SKU, in.Name, in.Price.String(), in.Stock, in.Description, in.CategoryID))
		return err
	})
	if err != nil {
		return it, itemWriteError(err, in, nil)
	}
	return it, nil
}

func (s *Store) UpdateItem(ctx context.Context, id int64, in ItemInput) (it Item, err error) {
	err = s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) error {
		it, err = scanItem(conn.QueryRow(ctx, `WITH written AS (
UPDATE item SET sku = $2, name = $3, price = $4::numeric, stock = $5, description = $6, category_id = $7,
       updated_at = now()
 WHERE id = $1`+itemReturning,
			id, in.SKU, in.Name, in.Price.String(), in.Stock, in.Description, in.CategoryID))
		return err
	})
	if err != nil {
		return it, itemWriteError(err, in, &NotFoundError{Entity: "item", ID: id})
	}
	return it, nil
}

// itemWriteError: on an item write, a unique violation is its sku being taken and a foreign-key
// violation its category not existing. PostgreSQL checks the unique index while writing the
// row and the foreign key at the end of the statement, so a taken sku answers first.
func itemWriteError(err error, in ItemInput, noRow error) error {
	switch {
	case violates(err, uniqueViolation):
		return &DuplicateKeyError{Key: "sku", Value: in.SKU}
	case violates(err, foreignKeyViolation):
		return &UnknownCategoryError{CategoryID: in.CategoryID}
	}
	return translate(err, noRow)
}

func (s *Store) DeleteItem(ctx context.Context, id int64) error {
	var tag pgconn.CommandTag
	err := s.withConn(ctx, func(ctx context.Context, conn *pgxpool.Conn) (err error) {
		tag, err = conn.Exec(ctx, "DELETE FROM item WHERE id = $1", id)
		return err
	})
	if err != nil {
		return translate(err, nil)
	}
	if tag.RowsAffected() == 0 {
		return &NotFoundError{Entity: "item", ID: id}
	}
	return nil
}
