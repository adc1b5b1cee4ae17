// The settings (spec/API.md, "Environment"): readConfig() over environments of the test's own, the
// plugin that checks them when the app starts, and what server.js does with a bad one. The tables
// of integers and of STOCK_URL are node-express's test/config.test.js's too: the two stacks read
// their settings alike.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ConfigError, readConfig } from '../config.js'
import { build } from './helper.js'

const DATABASE_URL = 'postgres://bench:bench@127.0.0.1:5432/bench'

describe('readConfig', () => {
  test('the defaults of spec/API.md', () => {
    assert.deepEqual(readConfig({ DATABASE_URL }), {
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: DATABASE_URL,
      poolSize: 10,
      avatarBaseUrl: 'https://avatar.example.com',
      avatarCount: 21,
      logRequests: false,
      stockUrl: 'http://127.0.0.1:8099',
    })
  })

  // Decimal digits alone: what Number() would also read (hex, an exponent, a fraction, blanks, a
  // sign) is refused, not taken for another number.
  const integers = [
    ['8081', 8081],
    ['08081', 8081],
    ['0', 0],
    ['65535', 65535],
    ['', 8080],
    ['65536', null],
    ['-1', null],
    ['+8081', null],
    ['0x1F91', null],
    ['8e3', null],
    ['8081.0', null],
    [' 8081', null],
    ['8081 ', null],
    [' ', null],
    ['١٢', null],
    ['eighty', null],
  ]
  for (const [raw, port] of integers) {
    test(`PORT=${JSON.stringify(raw)} is ${port ?? 'refused'}`, () => {
      const read = () => readConfig({ DATABASE_URL, PORT: raw })
      if (port === null) assert.throws(read, (err) => err instanceof ConfigError && err.message.startsWith('PORT must be an integer'))
      else assert.equal(read().port, port)
    })
  }

  test('every integer setting is read alike, each with its own range', () => {
    assert.equal(readConfig({ DATABASE_URL, DB_POOL_SIZE: '32', AVATAR_COUNT: '5' }).poolSize, 32)
    for (const env of [{ DB_POOL_SIZE: '0' }, { DB_POOL_SIZE: '1e1' }, { AVATAR_COUNT: '0x10' }, { AVATAR_COUNT: '0' }]) {
      assert.throws(() => readConfig({ DATABASE_URL, ...env }), ConfigError, JSON.stringify(env))
    }
  })

  // Unset or empty, STOCK_URL is the default, as every other setting's empty value is.
  const stockUrls = [
    [undefined, 'http://127.0.0.1:8099'],
    ['', 'http://127.0.0.1:8099'],
    ['http://stock.internal:9000', 'http://stock.internal:9000'],
    ['http://stock.internal:9000/', 'http://stock.internal:9000'],
    ['http://127.0.0.1', 'http://127.0.0.1'],
    ['https://stock.internal:9000', null],
    ['stock.internal:9000', null],
    ['http://stock.internal:9000/stock', null],
    ['http://stock.internal:9000/?a=1', null],
    ['http://user@stock.internal:9000', null],
    ['http://', null],
    ['not a url', null],
  ]
  for (const [raw, stockUrl] of stockUrls) {
    test(`STOCK_URL=${JSON.stringify(raw)} is ${stockUrl ?? 'refused'}`, () => {
      const read = () => readConfig({ DATABASE_URL, STOCK_URL: raw })
      if (stockUrl === null) assert.throws(read, (err) => err instanceof ConfigError && err.message.startsWith('STOCK_URL'))
      else assert.equal(read().stockUrl, stockUrl)
    })
  }

  test('DATABASE_URL is required, as a postgres:// URL', () => {
    for (const env of [{}, { DATABASE_URL: '' }, { DATABASE_URL: 'bench' }, { DATABASE_URL: 'mysql://h/db' }]) {
      assert.throws(() => readConfig(env), (err) => err instanceof ConfigError && err.message.startsWith('DATABASE_URL'))
    }
    assert.equal(readConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl, 'postgresql://h/db')
  })
})

test('a bad setting fails the start of the app, not the import of a module', async (t) => {
  const app = build(t, { env: { PORT: '0x1F90' } })
  await assert.rejects(app.ready(), (err) => err instanceof ConfigError && err.message === 'PORT must be an integer from 0 to 65535, got "0x1F90"')
})

// server.js is the one reader of process.env: a bad setting is one line on stderr and exit status
// 1, before it connects to anything (the database named here does not exist).
test('server.js stops at a bad setting with one line and exit status 1', () => {
  const server = fileURLToPath(new URL('../server.js', import.meta.url))
  const env = { DATABASE_URL: 'postgres://bench:bench@127.0.0.1:1/none', PORT: '0x1F90' }
  const { status, stdout, stderr } = spawnSync(process.execPath, [server], { env, encoding: 'utf8', timeout: 30_000 })
  assert.equal(stderr, 'node-fastify: PORT must be an integer from 0 to 65535, got "0x1F90"\n')
  assert.equal(stdout, '')
  assert.equal(status, 1)
})
