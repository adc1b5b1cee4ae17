// The error map (lib/errors.js) and the one classifier of "unavailable" database errors
// (db/index.js): errors shaped as pg raises them, and one that PostgreSQL raises for real in
// DATABASE_URL to show what a 500 logs.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { format } from 'node:util'
import { close as closeDatabase, isUnavailable, query } from '../db/index.js'
import { CategoryInUseError, DatabaseUnavailableError, DuplicateKeyError, UnknownCategoryError } from '../db/errors.js'
import { problemHandler, toProblem } from '../lib/errors.js'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from '../stock/errors.js'

// pg's DatabaseError carries the SQLSTATE in `code`; socket errors carry errno names there.
const withCode = (code, message = `error ${code}`) => Object.assign(new Error(message), { code })

// Just enough of Express's response for problemHandler; what it sent lands in `sent`.
function fakeResponse() {
  const sent = {}
  const res = {
    headersSent: false,
    sent,
    set: () => res,
    type: () => res,
    status(status) {
      sent.status = status
      return res
    },
    json(body) {
      sent.body = body
      return res
    },
  }
  return res
}

describe('what means "unavailable"', () => {
  const cases = [
    ['08006 connection_failure', withCode('08006'), true],
    ['08001 unable to connect', withCode('08001'), true],
    ['08003 connection_does_not_exist', withCode('08003'), true],
    ['53300 too_many_connections', withCode('53300'), true],
    ['53100 disk_full', withCode('53100'), true],
    ['57P01 admin_shutdown', withCode('57P01'), true],
    ['57P02 crash_shutdown', withCode('57P02'), true],
    ['57P03 cannot_connect_now', withCode('57P03'), true],
    ['57P05 idle_session_timeout', withCode('57P05'), true],
    ['connection refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), true],
    ['connection reset', withCode('ECONNRESET', 'read ECONNRESET'), true],
    ['connection closed under a query', new Error('Connection terminated unexpectedly'), true],
    ['no pooled connection within 5 s', new Error('timeout exceeded when trying to connect'), true],
    ['23505 unique_violation', withCode('23505'), false],
    ['23503 foreign_key_violation', withCode('23503'), false],
    ['57014 query_canceled (class 57, not 57P)', withCode('57014'), false],
    ['40P01 deadlock_detected', withCode('40P01'), false],
    ['XX000 internal_error', withCode('XX000'), false],
    ['42P01 undefined_table', withCode('42P01'), false],
    ['a bug', new TypeError('Cannot read properties of undefined'), false],
  ]
  for (const [name, err, unavailable] of cases) {
    it(`${name}: ${unavailable ? '503' : 'not unavailable'}`, () => {
      assert.equal(isUnavailable(err), unavailable)
    })
  }

  // pg's and pg-pool's own errors carry no code, only these messages. node-fastify's
  // test/errors.test.js holds the same table: two stacks on one driver answer a failing pool alike.
  const poolMessages = [
    ['Connection terminated unexpectedly', true],
    ['Connection terminated', true],
    ['Connection terminated due to connection timeout', true],
    ['timeout exceeded when trying to connect', true],
    ['Client has encountered a connection error and is not queryable', true],
    ['Client was closed and is not queryable', true],
    ['Cannot use a pool after calling end on the pool', true],
    ['Client has already been connected. You cannot reuse a client.', false],
    ['Release called on client which has already been released to the pool.', false],
    ['Query values must be an array', false],
  ]
  for (const [message, unavailable] of poolMessages) {
    it(`pg's "${message}": ${unavailable ? '503' : 'not unavailable'}`, () => {
      assert.equal(isUnavailable(new Error(message)), unavailable)
    })
  }
})

describe('the error map', () => {
  it('maps the domain errors of data access to 409 and 422', () => {
    assert.deepEqual(toProblem(new DuplicateKeyError('sku S already exists')), { status: 409, detail: 'sku S already exists' })
    assert.deepEqual(toProblem(new CategoryInUseError('category 3 still has items')), { status: 409, detail: 'category 3 still has items' })
    assert.deepEqual(toProblem(new UnknownCategoryError('category 9 does not exist')), {
      status: 422,
      detail: 'category 9 does not exist',
      errors: [{ field: 'categoryId', message: 'category 9 does not exist' }],
    })
    assert.equal(toProblem(new DatabaseUnavailableError(withCode('57P01'))).status, 503)
  })

  it("maps the stock upstream's errors to 404, 502 and 504", () => {
    assert.deepEqual(toProblem(new StockNotFoundError(5n)), { status: 404, detail: 'no stock record for item 5' })
    assert.deepEqual(toProblem(new UpstreamFailedError('answered 500')), { status: 502, detail: 'the stock service gave no usable answer' })
    assert.deepEqual(toProblem(new UpstreamTimeoutError('Headers Timeout Error')), {
      status: 504,
      detail: 'the stock service did not answer in time',
    })
  })

  it('logs an upstream failure as one line, without a stack', (t) => {
    const warned = t.mock.method(console, 'warn', () => {})
    const failed = t.mock.method(console, 'error', () => {})
    for (const err of [new UpstreamFailedError('connect ECONNREFUSED 127.0.0.1:8099'), new UpstreamTimeoutError('Headers Timeout Error')]) {
      problemHandler(err, { method: 'GET', path: '/items/5/stock' }, fakeResponse(), () => {})
    }
    const lines = warned.mock.calls.map((call) => format(...call.arguments))
    assert.deepEqual(lines, [
      'GET /items/5/stock: stock upstream: connect ECONNREFUSED 127.0.0.1:8099',
      'GET /items/5/stock: stock upstream: Headers Timeout Error',
    ])
    assert.equal(failed.mock.callCount(), 0)
  })

  for (const code of ['23502', '23514', '23505', '23503']) {
    it(`answers a ${code} that data access did not turn into a domain error with a logged 500`, (t) => {
      const logged = t.mock.method(console, 'error', () => {})
      const res = fakeResponse()
      problemHandler(withCode(code, 'violates a constraint'), { method: 'POST', path: '/items' }, res, () => {})

      assert.equal(res.sent.status, 500)
      assert.deepEqual(res.sent.body, { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'an unexpected error occurred' })
      assert.equal(logged.mock.callCount(), 1)
    })
  }

  it('logs an error from the database without the values of its statement or row', async (t) => {
    t.after(closeDatabase)
    // Not null is no violation data access translates; PostgreSQL's DETAIL quotes the row.
    const sku = `SECRET-${process.pid}-${Date.now()}`
    const insert = 'INSERT INTO item (sku, name, price, stock, category_id) VALUES ($1, NULL, $2, $3, 1)'
    const err = await query({ text: insert, values: [sku, 4242.42, 424242] }).catch((e) => e)
    assert.equal(err.code, '23502')
    const logged = t.mock.method(console, 'error', () => {})

    const res = fakeResponse()
    problemHandler(err, { method: 'POST', path: '/items' }, res, () => {})

    assert.equal(res.sent.status, 500)
    const text = logged.mock.calls.map((call) => format(...call.arguments)).join('\n')
    assert.match(text, /violates not-null constraint/)
    for (const value of [sku, '4242.42', '424242']) assert.ok(!text.includes(value), `${value} logged:\n${text}`)
  })

  it('titles problems with the reason phrases of RFC 9110', (t) => {
    const titleOf = (err) => {
      const res = fakeResponse()
      problemHandler(err, {}, res, () => {})
      return res.sent.body.title
    }
    t.mock.method(console, 'warn', () => {})
    const titles = [400, 404, 405, 409, 413, 415, 422].map((status) => titleOf(Object.assign(new Error('x'), { status })))
    titles.push(titleOf(new DatabaseUnavailableError(withCode('08006'))))
    titles.push(titleOf(new UpstreamFailedError('x')), titleOf(new UpstreamTimeoutError('x')))
    assert.deepEqual(titles, ['Bad Request', 'Not Found', 'Method Not Allowed', 'Conflict', 'Content Too Large',
      'Unsupported Media Type', 'Unprocessable Content', 'Service Unavailable', 'Bad Gateway', 'Gateway Timeout'])
  })
})
