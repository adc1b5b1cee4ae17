package api

import (
	"fmt"
	"math/rand/v2"
	"net/http"

	"github.com/gin-gonic/gin"
)

// avatar answers a bare 302: c.Redirect would add an HTML body to GET responses.
func (s *Server) avatar(c *gin.Context) {
	n := rand.IntN(s.config.AvatarCount) + 1
	c.Header("Location", fmt.Sprintf("%s/Renard-%d.png", s.config.AvatarBaseURL, n))
	c.Status(http.StatusFound)
	c.Writer.WriteHeaderNow()
}
