// The only module that imports pg: one Pool for the process, and query() for everyone else.
import pg from 'pg'
import { config } from '../config.js'
import { DatabaseUnavailableError } from './errors.js'

const { Pool, types } = pg

// pg hands bigint and numeric over as strings. Ids and counts stay far below 2^53 and a
// numeric(10,2) has at most 10 significant digits, so both are exact as JS numbers.
types.setTypeParser(types.builtins.INT8, Number)
types.setTypeParser(types.builtins.NUMERIC, Number)

export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'

const pool = new Pool({
  connectionString: config.databaseUrl,
  max: config.poolSize,
  // Also bounds the wait for a free client: past it the request answers 503.
  connectionTimeoutMillis: 5000,
})

// An idle client whose connection dies (PostgreSQL restarted or stopped) emits 'error'; the pool
// has already discarded it, so it is never handed out. Unhandled, the event would crash the process.
pool.on('error', (err) => {
  console.error(`node-express: idle database connection closed: ${err.message}`)
})

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources) and 57P (operator
// intervention: shutdown, crash recovery, start-up), plus the failures that have no SQLSTATE at
// all: the socket's, and pg's own for a connection lost or closed under a query, a pool that had
// none free within connectionTimeoutMillis, and a pool already ended (a request that races the
// shutdown). Not the rest of class 57: 57014 query_canceled is no outage. node-fastify
// recognises the same list, and both stacks' errors tests hold the same table of pg's messages.
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
const POOL_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Cannot use a pool after calling end)/

// The one place that decides whether a database error means "unavailable" (503) rather than a
// bug (500).
export function isUnavailable(err) {
  return UNAVAILABLE_SQLSTATE.test(err.code ?? '') || SOCKET_ERRORS.has(err.code) || POOL_MESSAGES.test(err.message ?? '')
}

// `statement` is { name, text, values }: named statements are prepared once per connection.
export async function query(statement) {
  try {
    return await pool.query(statement)
  } catch (err) {
    throw isUnavailable(err) ? new DatabaseUnavailableError(err) : err
  }
}

export async function ping() {
  await query({ text: 'SELECT 1' })
}

export function close() {
  return pool.end()
}
