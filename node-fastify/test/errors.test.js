// The error map: what is a 503, what each domain error answers, and what a 500 logs.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'
import { LOGGER } from '../app.js'
import { CategoryInUseError, DatabaseUnavailableError, DuplicateKeyError, UnknownCategoryError } from '../db/errors.js'
import { isUnavailable } from '../db/index.js'
import { toProblem } from '../lib/problems.js'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from '../stock/errors.js'
import { build } from './helper.js'

function sqlError(code, extra = {}) {
  return Object.assign(new Error(`PostgreSQL said ${code}`), { code, ...extra })
}

describe('isUnavailable', () => {
  const table = [
    ['08006', true], ['08001', true], ['08003', true], ['08000', true], ['53300', true], ['53200', true],
    ['57P01', true], ['57P02', true], ['57P03', true], ['57P04', true], ['57P05', true],
    ['23505', false], ['23503', false], ['23502', false], ['57014', false], ['40P01', false], ['XX000', false],
    ['42601', false],
  ]
  for (const [code, unavailable] of table) {
    test(`SQLSTATE ${code} is ${unavailable ? '' : 'not '}unavailable`, () => {
      assert.equal(isUnavailable(sqlError(code)), unavailable)
    })
  }

  test('socket failures are unavailable', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE']) assert.ok(isUnavailable(sqlError(code)), code)
    assert.ok(!isUnavailable(new TypeError('x is not a function')))
  })

  // pg's and pg-pool's own errors carry no code, only these messages. node-express's
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
    test(`pg's "${message}" is ${unavailable ? '' : 'not '}unavailable`, () => {
      assert.equal(isUnavailable(new Error(message)), unavailable)
    })
  }
})

describe('the pool', () => {
  test('a database that refuses connections is a 503, and the app stays up', async (t) => {
    const app = build(t, { env: { DATABASE_URL: 'postgres://bench:bench@127.0.0.1:1/none' } })
    const response = await app.inject({ method: 'GET', url: '/health' })
    assert.equal(response.statusCode, 503)
    assert.equal(response.json().title, 'Service Unavailable')
    assert.equal((await app.inject({ method: 'GET', url: '/avatar' })).statusCode, 302)
  })

  test('is ended when the app closes: a query after it is unavailable, not a 500', async (t) => {
    const app = build(t)
    await app.ready()
    const { db } = app
    await app.close()
    await assert.rejects(db.query({ text: 'SELECT 1' }), DatabaseUnavailableError)
  })
})

describe('toProblem', () => {
  const table = [
    [new DuplicateKeyError('sku S already exists'), 409],
    [new CategoryInUseError('category 3 still has items'), 409],
    [new UnknownCategoryError('category 9 does not exist'), 422],
    [new DatabaseUnavailableError(sqlError('08006')), 503],
    [new StockNotFoundError(5n), 404],
    [new UpstreamFailedError('answered 500'), 502],
    [new UpstreamTimeoutError('Headers Timeout Error'), 504],
    [sqlError('23502'), 500],
    [new TypeError('boom'), 500],
  ]
  for (const [error, status] of table) {
    test(`${error.constructor.name} is a ${status}`, () => assert.equal(toProblem(error).status, status))
  }

  test('an unknown category is a 422 on categoryId', () => {
    assert.deepEqual(toProblem(new UnknownCategoryError('x')).errors.map((e) => e.field), ['categoryId'])
  })

  test("a 502 or a 504 says nothing of what the upstream sent", () => {
    assert.doesNotMatch(toProblem(new UpstreamFailedError('answered 500 <html>')).detail, /html|500/)
  })
})

describe('a 500', () => {
  test('is logged with its error, without the values PostgreSQL quotes', async (t) => {
    const lines = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    const app = build(t, { logger: { ...LOGGER, stream } })
    app.get('/boom', async () => {
      throw sqlError('23502', { detail: 'Failing row contains (secret-value)', table: 'item' })
    })
    const response = await app.inject({ method: 'GET', url: '/boom' })
    assert.equal(response.statusCode, 500)
    assert.equal(response.json().detail, 'an unexpected error occurred')
    const logged = lines.join('')
    assert.match(logged, /PostgreSQL said 23502/)
    assert.doesNotMatch(logged, /secret-value/)
    assert.doesNotMatch(response.body, /23502|secret/)
  })
})
