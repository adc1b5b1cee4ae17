// The one place that turns errors into RFC 9457 problem JSON. The HTTP layer raises HttpError
// with its status; data access raises the domain errors of db/errors.js and the stock client
// those of stock/errors.js, mapped to a status (and for a 422 the JSON field) here;
// body-parser's errors carry a `type`; anything else is a bug and answers a generic 500.
import { STATUS_CODES } from 'node:http'
import { CategoryInUseError, DatabaseUnavailableError, DuplicateKeyError, UnknownCategoryError } from '../db/errors.js'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from '../stock/errors.js'

export class HttpError extends Error {
  constructor(status, detail, { errors, headers } = {}) {
    super(detail)
    this.status = status
    this.errors = errors
    this.headers = headers
  }
}

// RFC 9110's reason phrases. Node's STATUS_CODES still has RFC 7231's for these two
// ("Payload Too Large", "Unprocessable Entity"); the others are the same.
const TITLES = { ...STATUS_CODES, 413: 'Content Too Large', 422: 'Unprocessable Content' }

const BODY_PARSER_DETAILS = {
  'entity.too.large': 'request body is larger than 1 MiB',
  'request.aborted': 'request body was not received completely',
  'request.size.invalid': 'request body is shorter than its Content-Length',
}

export function toProblem(err) {
  if (err instanceof HttpError) {
    return { status: err.status, detail: err.message, errors: err.errors, headers: err.headers }
  }
  if (err instanceof DuplicateKeyError || err instanceof CategoryInUseError) {
    return { status: 409, detail: err.message }
  }
  if (err instanceof UnknownCategoryError) {
    return { status: 422, detail: err.message, errors: [{ field: 'categoryId', message: err.message }] }
  }
  if (err instanceof DatabaseUnavailableError) {
    return { status: 503, detail: 'the database is unavailable, try again shortly' }
  }
  if (err instanceof StockNotFoundError) {
    return { status: 404, detail: err.message }
  }
  if (err instanceof UpstreamFailedError) {
    return { status: 502, detail: 'the stock service gave no usable answer' }
  }
  if (err instanceof UpstreamTimeoutError) {
    return { status: 504, detail: 'the stock service did not answer in time' }
  }
  // body-parser and the router give client errors a 4xx status (the router's undecodable path
  // parameters without `expose`, so their message stays unsaid).
  if (err.status >= 400 && err.status < 500) {
    return { status: err.status, detail: BODY_PARSER_DETAILS[err.type] ?? (err.expose ? err.message : 'malformed request') }
  }
  return { status: 500, detail: 'an unexpected error occurred' }
}

function sendProblem(res, { status, detail, errors, headers }) {
  if (headers) res.set(headers)
  res
    .status(status)
    .type('application/problem+json')
    .json({ type: 'about:blank', title: TITLES[status], status, detail, ...(errors && { errors }) })
}

export function notFoundHandler(req, res, next) {
  next(new HttpError(404, `no resource at ${req.path}`))
}

// Express recognises error middleware by its four parameters, so `_next` stays although unused.
export function problemHandler(err, req, res, _next) {
  const problem = toProblem(err)
  // A bug is logged by its stack (message and frames) alone: node-postgres's error also carries
  // PostgreSQL's DETAIL, which quotes the request's values ("Failing row contains ..."), and
  // request data is logged nowhere.
  if (problem.status === 500) console.error(`${req.method} ${req.path} failed:`, err.stack ?? err)
  // The upstream's fault, not a bug here: one line with what it did, no stack.
  if (problem.status === 502 || problem.status === 504) console.warn(`${req.method} ${req.path}: stock upstream: ${err.message}`)
  if (res.headersSent) {
    // Too late for a problem body: drop the connection so the client sees the failure.
    req.socket.destroy()
    return
  }
  sendProblem(res, problem)
}
