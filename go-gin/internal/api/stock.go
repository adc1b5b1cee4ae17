package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// getItemStock answers the quantity the stock upstream keeps for the item. It reads nothing from
// the database: whether the id names an item is the upstream's to say (its 404).
func (s *Server) getItemStock(c *gin.Context) error {
	var uri idURI
	if err := c.ShouldBindUri(&uri); err != nil {
		return err
	}
	quantity, err := s.stock.Quantity(c, int64(uri.ID))
	if err != nil {
		return err
	}
	c.JSON(http.StatusOK, stockResponse{ItemID: int64(uri.ID), Quantity: quantity})
	return nil
}
