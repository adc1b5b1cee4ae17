// What asking the stock upstream reports, in its own terms: lib/errors.js decides what each means
// in HTTP. Nothing under stock/ names a status.

// The upstream has no stock record for the item (it answered 404).
export class StockNotFoundError extends Error {
  constructor(id) {
    super(`no stock record for item ${id}`)
  }
}

// The upstream gave no usable answer: refused, reset or closed early, another status, or a 200
// without a valid quantity. The message says which, for the log.
export class UpstreamFailedError extends Error {}

// No connection within the connect timeout, or no answer within the response timeout.
export class UpstreamTimeoutError extends Error {}
