package api

import (
	"time"

	"github.com/shopspring/decimal"

	"github.com/bench/go-gin/internal/store"
)

type categoryResponse struct {
	ID        int64     `json:"id"`
	Code      string    `json:"code"`
	Name      string    `json:"name"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type categoryRefResponse struct {
	ID   int64  `json:"id"`
	Code string `json:"code"`
	Name string `json:"name"`
}

type itemResponse struct {
	ID          int64               `json:"id"`
	SKU         string              `json:"sku"`
	Name        string              `json:"name"`
	Price       jsonDecimal         `json:"price"`
	Stock       int32               `json:"stock"`
	Description *string             `json:"description"`
	CategoryID  int64               `json:"categoryId"`
	Category    categoryRefResponse `json:"category"`
	UpdatedAt   time.Time           `json:"updatedAt"`
}

// jsonDecimal writes a decimal as a JSON number (shopspring's default is a quoted string).
type jsonDecimal decimal.Decimal

func (d jsonDecimal) MarshalJSON() ([]byte, error) {
	return []byte(decimal.Decimal(d).String()), nil
}

// stockResponse is GET /items/{id}/stock: the id asked for and the upstream's quantity.
type stockResponse struct {
	ItemID   int64 `json:"itemId"`
	Quantity int32 `json:"quantity"`
}

type pageMeta struct {
	Size          int64 `json:"size"`
	Number        int64 `json:"number"`
	TotalElements int64 `json:"totalElements"`
	TotalPages    int64 `json:"totalPages"`
}

type pageResponse[T any] struct {
	Content []T      `json:"content"`
	Page    pageMeta `json:"page"`
}

func newPage[S, T any](p store.Page[S], q pageQuery, convert func(S) T) pageResponse[T] {
	content := make([]T, len(p.Rows))
	for i, row := range p.Rows {
		content[i] = convert(row)
	}
	size := int64(q.Size)
	return pageResponse[T]{
		Content: content,
		Page: pageMeta{
			Size:          size,
			Number:        int64(q.Page),
			TotalElements: p.Total,
			TotalPages:    (p.Total + size - 1) / size,
		},
	}
}

func toCategoryResponse(c store.Category) categoryResponse {
	return categoryResponse{ID: c.ID, Code: c.Code, Name: c.Name, UpdatedAt: c.UpdatedAt.UTC()}
}

func toItemResponse(it store.Item) itemResponse {
	return itemResponse{
		ID:          it.ID,
		SKU:         it.SKU,
		Name:        it.Name,
		Price:       jsonDecimal(it.Price),
		Stock:       it.Stock,
		Description: it.Description,
		CategoryID:  it.Category.ID,
		Category:    categoryRefResponse{ID: it.Category.ID, Code: it.Category.Code, Name: it.Category.Name},
		UpdatedAt:   it.UpdatedAt.UTC(),
	}
}
