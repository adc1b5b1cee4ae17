// The settings (API.md, "Environment"): readConfig() over environments of the test's own, and
// what the process does with a bad one. The tables of integers and of STOCK_URL are
// node-fastify's test/config.test.js's too: the two stacks read their settings alike. Importing
// config.js reads this process's environment as well, so DATABASE_URL must be set here as for
// every other test file.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ConfigError, readConfig } from '../config.js'

const DATABASE_URL = 'postgres://bench:bench@127.0.0.1:5432/bench'

describe('readConfig', () => {
  it('has the defaults of API.md', () => {
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
    it(`reads PORT=${JSON.stringify(raw)} as ${port ?? 'an error'}`, () => {
      const read = () => readConfig({ DATABASE_URL, PORT: raw })
      if (port === null) assert.throws(read, (err) => err instanceof ConfigError && err.message.startsWith('PORT must be an integer'))
      else assert.equal(read().port, port)
    })
  }

  it('reads every integer setting alike, each with its own range', () => {
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
    it(`reads STOCK_URL=${JSON.stringify(raw)} as ${stockUrl ?? 'an error'}`, () => {
      const read = () => readConfig({ DATABASE_URL, STOCK_URL: raw })
      if (stockUrl === null) assert.throws(read, (err) => err instanceof ConfigError && err.message.startsWith('STOCK_URL'))
      else assert.equal(read().stockUrl, stockUrl)
    })
  }

  it('requires DATABASE_URL, as a postgres:// URL', () => {
    for (const env of [{}, { DATABASE_URL: '' }, { DATABASE_URL: 'bench' }, { DATABASE_URL: 'mysql://h/db' }]) {
      assert.throws(() => readConfig(env), (err) => err instanceof ConfigError && err.message.startsWith('DATABASE_URL'))
    }
    assert.equal(readConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl, 'postgresql://h/db')
  })
})

// A bad setting is one line on stderr and exit status 1, before the process connects to anything
// (the database named here does not exist).
it('stops server.js at a bad setting with one line and exit status 1', () => {
  const server = fileURLToPath(new URL('../server.js', import.meta.url))
  const env = { DATABASE_URL: 'postgres://bench:bench@127.0.0.1:1/none', PORT: '0x1F90' }
  const { status, stdout, stderr } = spawnSync(process.execPath, [server], { env, encoding: 'utf8', timeout: 30_000 })
  assert.equal(stderr, 'node-express: PORT must be an integer between 0 and 65535, got "0x1F90"\n')
  assert.equal(stdout, '')
  assert.equal(status, 1)
})
