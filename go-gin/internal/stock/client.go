// Package stock asks the stock upstream (STOCK_URL) for the quantity of an item over HTTP. It knows
// the upstream's answers and nothing of the API that passes them on.
package stock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// The domain errors of the upstream call. What they mean to a client is the API's business
// (internal/api/errors.go).
var (
	// ErrFailed: the upstream gave no usable answer (refused or dropped connection, a status other
	// than 200 and 404, a body without a valid quantity).
	ErrFailed = errors.New("the stock upstream gave no usable answer")
	// ErrTimeout: no connection, or no response headers, within the client's timeouts.
	ErrTimeout = errors.New("the stock upstream did not answer in time")
)

// NotFoundError: the upstream keeps no stock record for the item.
type NotFoundError struct{ ItemID int64 }

func (e *NotFoundError) Error() string { return fmt.Sprintf("no stock record for item %d", e.ItemID) }

const (
	// API.md's client rules: a connection within 1 s, response headers within 1 s of the request.
	ConnectTimeout  = time.Second
	ResponseTimeout = time.Second
	// The outbound scenario keeps hundreds of requests in flight. net/http opens as many
	// connections as there are requests (MaxConnsPerHost 0: no cap) but by default keeps only 2
	// of them idle per host, closing the rest after each burst; this keeps a burst's connections
	// alive for the next one instead of opening them again.
	idleConnections = 512
	idleTimeout     = 90 * time.Second
	// A quantity fits in a few dozen bytes; an answer past this is no answer of the upstream's.
	maxBody = 64 << 10
)

// Client is the one upstream client of the process: a pooled keep-alive transport, safe for
// concurrent use, created at start and closed at shutdown.
type Client struct {
	baseURL   string
	http      *http.Client
	transport *http.Transport
}

// New returns a client of the upstream at baseURL (scheme, host and port, no trailing slash).
func New(baseURL string) *Client {
	transport := &http.Transport{
		// No Proxy: the upstream is a direct peer, whatever HTTP_PROXY the machine sets.
		DialContext:           (&net.Dialer{Timeout: ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext,
		ResponseHeaderTimeout: ResponseTimeout,
		MaxIdleConns:          idleConnections,
		MaxIdleConnsPerHost:   idleConnections,
		IdleConnTimeout:       idleTimeout,
	}
	return &Client{
		baseURL:   baseURL,
		transport: transport,
		http: &http.Client{
			Transport: transport,
			// A redirect is an answer like any other status that is not 200 or 404: never followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
			// The transport bounds the connection and the headers; this bounds a body that trickles.
			Timeout: ConnectTimeout + ResponseTimeout,
		},
	}
}

// Close drops the pooled connections (at shutdown, after the last request).
func (c *Client) Close() { c.transport.CloseIdleConnections() }

// Quantity asks GET {STOCK_URL}/stock/{itemID} once (no retries) and returns the item's quantity.
func (c *Client) Quantity(ctx context.Context, itemID int64) (int32, error) {
	url := c.baseURL + "/stock/" + strconv.FormatInt(itemID, 10)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", ErrFailed, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, transportError(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return 0, transportError(err)
	}
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return 0, &NotFoundError{ItemID: itemID}
	case resp.StatusCode != http.StatusOK:
		return 0, fmt.Errorf("%w: status %d", ErrFailed, resp.StatusCode)
	case len(body) > maxBody:
		return 0, fmt.Errorf("%w: an answer over %d bytes", ErrFailed, maxBody)
	}
	return parseQuantity(body)
}

// transportError tells a timeout (504) from every other failure to get an answer (502).
func transportError(err error) error {
	var netErr net.Error
	if errors.As(err, &netErr) && netErr.Timeout() {
		return fmt.Errorf("%w: %v", ErrTimeout, err)
	}
	return fmt.Errorf("%w: %v", ErrFailed, err)
}

// parseQuantity reads `quantity` of a JSON object: a JSON integer from 0 to 2,147,483,647. It
// takes the property's JSON text rather than a Go number so that only an integer literal passes:
// decoding into a json.Number would accept "5", a string, and json.Unmarshal into a struct
// would match `Quantity` as well.
func parseQuantity(body []byte) (int32, error) {
	var answer map[string]json.RawMessage
	if err := json.Unmarshal(body, &answer); err != nil || answer == nil {
		return 0, fmt.Errorf("%w: the answer is not a JSON object", ErrFailed)
	}
	quantity, err := strconv.ParseInt(string(answer["quantity"]), 10, 32)
	if err != nil || quantity < 0 {
		return 0, fmt.Errorf("%w: quantity %q is not an integer from 0 to 2147483647", ErrFailed, answer["quantity"])
	}
	return int32(quantity), nil
}
