// The error map: what is a 503, what each domain error answers, and what a 500 logs.
import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, test } from 'node:test'

process.env.DATABASE_URL ??= 'postgres://bench:bench@127.0.0.1:5432/bench'
const { isUnavailable } = await import('../db/index.js')
const { CategoryInUseError, DatabaseUnavailableError, DuplicateKeyError, UnknownCategoryError } = await import('../db/errors.js')
const { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } = await import('../stock/errors.js')
const { toProblem } = await import('../lib/problems.js')
const { LOGGER, buildApp } = await import('../app.js')

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

  test('socket and pool failures are unavailable', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'EPIPE']) assert.ok(isUnavailable(sqlError(code)), code)
    assert.ok(isUnavailable(new Error('Connection terminated unexpectedly')))
    assert.ok(isUnavailable(new Error('timeout exceeded when trying to connect')))
    assert.ok(!isUnavailable(new TypeError('x is not a function')))
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
  test('is logged with its error, without the values PostgreSQL quotes', async () => {
    const lines = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString())
        done()
      },
    })
    const app = buildApp({ logger: { ...LOGGER, stream } })
    app.get('/boom', async () => {
      throw sqlError('23502', { detail: 'Failing row contains (secret-value)', table: 'item' })
    })
    const response = await app.inject({ method: 'GET', url: '/boom' })
    await app.close()
    assert.equal(response.statusCode, 500)
    assert.equal(response.json().detail, 'an unexpected error occurred')
    const logged = lines.join('')
    assert.match(logged, /PostgreSQL said 23502/)
    assert.doesNotMatch(logged, /secret-value/)
    assert.doesNotMatch(response.body, /23502|secret/)
  })
})
