// The only module that imports undici: the plugin that makes one keep-alive Pool for the stock
// upstream's origin when the app starts, decorates the instance with `stock` (quantity() for the
// route) and closes the pool in onClose.
import fp from 'fastify-plugin'
import { Pool } from 'undici'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from './errors.js'

const TIMEOUT_MS = 1000
const MAX_QUANTITY = 2147483647
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])

function failure(err) {
  const what = err.message || err.code || String(err)
  return TIMEOUT_CODES.has(err.code) ? new UpstreamTimeoutError(what) : new UpstreamFailedError(what)
}

// How many of item `id` (a BigInt, sent in canonical decimal) the upstream keeps. Whether the id
// names an item is the upstream's to say.
async function quantity(pool, id) {
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

async function stockClient(fastify, { origin }) {
  // `connections: null` is undici's default, no cap: a request past a cap would queue inside
  // undici, where no timeout runs yet, and the outbound scenario keeps hundreds in flight. A
  // Pool's request() neither retries nor follows redirects unless given interceptors for them.
  const pool = new Pool(origin, {
    connections: null,
    connect: { timeout: TIMEOUT_MS },
    // From the request written to the response's headers, then between two pieces of its body.
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  })

  fastify.decorate('stock', { quantity: (id) => quantity(pool, id) })

  fastify.addHook('onClose', async () => {
    await pool.close()
  })
}

// fastify-plugin, so that `fastify.stock` is the root instance's, seen by the stock route.
export default fp(stockClient, { name: 'stock' })
