// The only module that imports undici: one Pool for the stock upstream's origin, and quantity()
// for the route. Errors leave it as the domain errors of stock/errors.js.
import { Pool } from 'undici'
import { config } from '../config.js'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from './errors.js'

const TIMEOUT_MS = 1000
const MAX_QUANTITY = 2147483647
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

// A Pool is undici's keep-alive pool for one origin. `connections: null` (no cap) on purpose: a
// request past a cap would wait in undici's queue, where no timeout runs yet, so hundreds in
// flight each get a socket, kept alive for the next. No retries and no redirects: a Pool's
// request() does neither unless given interceptors for them.
const pool = new Pool(config.stockUrl, {
  connections: null,
  connect: { timeout: TIMEOUT_MS },
  // From the request written to its headers, then between two pieces of the body.
  headersTimeout: TIMEOUT_MS,
  bodyTimeout: TIMEOUT_MS,
})

function upstreamError(err) {
  const message = err.message || err.code || String(err)
  return TIMEOUT_CODES.has(err.code) ? new UpstreamTimeoutError(message) : new UpstreamFailedError(message)
}

// The quantity the upstream keeps for `id` (a BigInt, sent in canonical decimal). Whether the id
// names an item is the upstream's answer, not checked here.
export async function quantity(id) {
  let response
  try {
    response = await pool.request({ method: 'GET', path: `/stock/${id}`, headers: { accept: 'application/json' } })
  } catch (err) {
    throw upstreamError(err)
  }
  const { statusCode, body } = response
  if (statusCode !== 200) {
    // Read to the end, so that the socket goes back to the pool.
    await body.dump().catch(() => {})
    throw statusCode === 404 ? new StockNotFoundError(id) : new UpstreamFailedError(`answered ${statusCode}`)
  }
  let record
  try {
    record = await body.json()
  } catch (err) {
    throw upstreamError(err)
  }
  // Only an object has a `quantity`. JSON.parse cannot tell 5.0 from 5: a number whose value is
  // an integer counts.
  const value = record?.quantity
  if (!Number.isInteger(value) || value < 0 || value > MAX_QUANTITY) {
    throw new UpstreamFailedError('answered 200 without a valid quantity')
  }
  return value
}

// Waits for requests in flight, then closes every socket.
export function close() {
  return pool.close()
}
