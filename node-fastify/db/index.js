// The only module that imports pg: one Pool for the process, query() for the data modules, and
// isUnavailable(), the one place that tells an outage (503) from a bug (500).
import pg from 'pg'
import { config } from '../config.js'
import { DatabaseUnavailableError } from './errors.js'

const { Pool, types } = pg

// pg hands bigint and numeric over as text. Ids and counts stay far below 2^53, and a
// numeric(10,2) has at most 10 significant digits, so a JS number holds either exactly.
types.setTypeParser(types.builtins.INT8, Number)
types.setTypeParser(types.builtins.NUMERIC, Number)

export const UNIQUE_VIOLATION = '23505'
export const FOREIGN_KEY_VIOLATION = '23503'

const pool = new Pool({
  connectionString: config.databaseUrl,
  max: config.poolSize,
  // Also the longest wait for a free connection: past it the request is a 503.
  connectionTimeoutMillis: 5000,
})

// An idle client whose connection dies (PostgreSQL stopped or restarted) emits 'error' after the
// pool has dropped it; unhandled, the event would end the process.
pool.on('error', (err) => {
  console.error(`node-fastify: an idle database connection closed: ${err.message}`)
})

// SQLSTATE classes 08 (connection exception), 53 (insufficient resources) and 57P (shutdown,
// crash, start-up), and the failures that have no SQLSTATE: the socket's, and pg's own for a
// connection lost mid-query or a pool that had none free within connectionTimeoutMillis.
const UNAVAILABLE_SQLSTATE = /^(08|53|57P)/
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
const POOL_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end)/

export function isUnavailable(err) {
  return UNAVAILABLE_SQLSTATE.test(err.code ?? '') || SOCKET_ERRORS.has(err.code) || POOL_MESSAGES.test(err.message ?? '')
}

// `statement` is { name, text, values }: a named statement is prepared once per connection.
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
