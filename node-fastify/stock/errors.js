// What asking the stock upstream reports, in its own terms; lib/problems.js maps each to a status.

// The upstream keeps no stock record for the item (it answered 404).
export class StockNotFoundError extends Error {
  constructor(id) {
    super(`no stock record for item ${id}`)
  }
}

// The upstream gave no usable answer: another status, a body that is not a valid quantity, a
// connection refused, reset or closed early.
export class UpstreamFailedError extends Error {}

// No connection, or no response headers, within the second each is given.
export class UpstreamTimeoutError extends Error {}
