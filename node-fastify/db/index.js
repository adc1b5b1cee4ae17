// The only module that imports pg: the plugin that makes the process's one Pool when the app
// starts, decorates the instance with `db` (query() for the data modules, ping() for the health
// check) and ends the pool in onClose; and isUnavailable(), the one place that tells an outage
// (503) from a bug (500).
import fp from 'fastify-plugin'
import pg from 'pg'
import { DatabaseUnavailableError } from './errors.js'

const { Pool, types } = pg

// pg hands bigint and numeric over as text. Ids and counts stay far below 2^53, and a
// numeric(10,2) has at most 10 significant digits, so a JS number holds either exactly.
types.setTypeParser(types.builtins.INT8, Number)
types.setTypeParser(types.builtins.NUMERIC, Number)

export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources) and 57P (shutdown,
// crash, start-up), and the failures that have no SQLSTATE: the socket's, and pg's own for a
// connection lost or closed under a query, a pool that had none free within
// connectionTimeoutMillis, and a pool already ended (a request that races the shutdown). Not the
// rest of class 57: 57014 query_canceled is no outage. node-express recognises the same list, and
// both stacks' errors tests hold the same table of pg's messages.
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
const POOL_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)/

export function isUnavailable(err) {
  return UNAVAILABLE_SQLSTATE.test(err.code ?? '') || SOCKET_ERRORS.has(err.code) || POOL_MESSAGES.test(err.message ?? '')
}

// `statement` is { name, text, values }: a named statement is prepared once per connection.
async function query(pool, statement) {
  try {
    return await pool.query(statement)
  } catch (err) {
    throw isUnavailable(err) ? new DatabaseUnavailableError(err) : err
  }
}

async function database(fastify, { connectionString, max }) {
  const pool = new Pool({
    connectionString,
    max,
    // Also the longest wait for a free connection: past it the request is a 503.
    connectionTimeoutMillis: 5000,
  })

  // An idle client whose connection dies (PostgreSQL stopped or restarted) emits 'error' after the
  // pool has dropped it; unhandled, the event would end the process.
  pool.on('error', (err) => {
    console.error(`node-fastify: an idle database connection closed: ${err.message}`)
  })

  fastify.decorate('db', {
    query: (statement) => query(pool, statement),
    ping: async () => {
      await query(pool, { text: 'SELECT 1' })
    },
  })

  // Fastify runs it once the server has closed and the requests in flight have been answered.
  fastify.addHook('onClose', async () => {
    await pool.end()
  })
}

// fastify-plugin, so that `fastify.db` is the root instance's, seen by every route plugin.
export default fp(database, { name: 'database' })
