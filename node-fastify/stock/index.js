// The only module that imports undici: one keep-alive Pool for the stock upstream's origin, made
// with the process and closed at shutdown, and quantity() for the route.
import { Pool } from 'undici'
import { config } from '../config.js'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from './errors.js'

const TIMEOUT_MS = 1000
const MAX_QUANTITY = 2147483647
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

// `connections: null` is undici's default, no cap: a request past a cap would queue inside
// undici, where no timeout runs yet, and the outbound scenario keeps hundreds in flight. A Pool's
// request() neither retries nor follows redirects unless given interceptors for them.
const pool = new Pool(config.stockUrl, {
  connections: null,
  connect: { timeout: TIMEOUT_MS },
  // From the request written to the response's headers, then between two pieces of its body.
  headersTimeout: TIMEOUT_MS,
  bodyTimeout: TIMEOUT_MS,
})

function failure(err) {
  const what = err.message || err.code || String(err)
  return TIMEOUT_CODES.has(err.code) ? new UpstreamTimeoutError(what) : new UpstreamFailedError(what)
}

// How many of item `id` (a BigInt, sent in canonical decimal) the upstream keeps. Whether the id
// names an item is the upstream's to say.
export async function quantity(id) {
  let response
  try {
    response = await pool.request({ method: 'GET', path: `/stock/${id}`, headers: { accept: 'application/json' } })
  } catch (err) {
    throw failure(err)
  }
  const { statusCode, body } = response
  if (statusCode !== 200) {
    // Read to its end so that the connection goes back to the pool.
    await body.dump().catch(() => {})
    throw statusCode === 404 ? new StockNotFoundError(id) : new UpstreamFailedError(`answered ${statusCode}`)
  }
  let record
  try {
    record = await body.json()
  } catch (err) {
    throw failure(err)
  }
  // JSON.parse cannot tell 5.0 from 5: any number whose value is an integer in range counts.
  const value = record?.quantity
  if (!Number.isInteger(value) || value < 0 || value > MAX_QUANTITY) {
    throw new UpstreamFailedError('answered 200 without a valid quantity')
  }
  return value
}

export function close() {
  return pool.close()
}
