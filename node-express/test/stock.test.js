// GET /items/{id}/stock against a fake stock upstream started here (node:http on a free port),
// with the database unreachable: the route must never need it. Each id scripts one answer.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { after, before, describe, it } from 'node:test'

const json = (status, body) => (req, res) => {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body))
}

const SCRIPT = {
  5: json(200, { itemId: 5, quantity: 12, warehouse: 'A' }),
  '-3': json(200, { itemId: -3, quantity: 0 }),
  6: json(200, { itemId: 7, quantity: 2147483647 }),
  7: json(500, { status: 500 }),
  8: json(503, {}),
  9: (req, res) => res.writeHead(302, { Location: '/stock/5' }).end(),
  10: json(200, 'not json'),
  11: json(200, ''),
  12: json(200, [{ quantity: 5 }]),
  13: json(200, { quantity: '5' }),
  14: json(200, { quantity: 1.5 }),
  15: json(200, { quantity: -1 }),
  16: json(200, { quantity: 2147483648 }),
  17: json(200, { quantity: true }),
  18: json(200, { itemId: 18 }),
  19: json(200, 5),
  20: (req) => req.socket.destroy(),
  21: (req, res) => res.writeHead(200, { 'Content-Length': 40 }).write('{"quantity":', () => req.socket.destroy()),
  22: () => {}, // never answers
  23: (req, res) => res.writeHead(200, { 'Content-Length': 40 }).write('{"quantity":'), // then stalls
}

const asked = []
const upstream = createServer((req, res) => {
  asked.push({ url: req.url, accept: req.headers.accept })
  const answer = SCRIPT[req.url.replace('/stock/', '')] ?? json(404, { status: 404 })
  answer(req, res)
})
upstream.listen(0, '127.0.0.1')
await once(upstream, 'listening')
const upstreamPort = upstream.address().port

// config.js reads the environment once, when first imported.
process.env.STOCK_URL = `http://127.0.0.1:${upstreamPort}/`
process.env.DATABASE_URL = 'postgres://bench:bench@127.0.0.1:1/none'
const { default: app } = await import('../app.js')
const { close: closeStock } = await import('../stock/index.js')

let server
let base

before(async () => {
  server = app.listen(0, '127.0.0.1')
  await once(server, 'listening')
  base = `http://127.0.0.1:${server.address().port}`
})

after(async () => {
  server.close()
  upstream.closeAllConnections()
  upstream.close()
  await closeStock()
})

const stock = (id, init) => fetch(`${base}/items/${id}/stock`, init)

async function expectProblem(response, status, title) {
  assert.equal(response.status, status)
  assert.match(response.headers.get('content-type'), /^application\/problem\+json/)
  const problem = await response.json()
  assert.deepEqual({ type: problem.type, title: problem.title, status: problem.status }, { type: 'about:blank', title, status })
  return problem
}

describe('GET /items/{id}/stock', () => {
  it('answers the quantity, asking for the canonical id with Accept: application/json', async () => {
    for (const written of ['5', '+5', '%2B5', '005']) {
      const response = await stock(written)
      assert.equal(response.status, 200, written)
      assert.match(response.headers.get('content-type'), /^application\/json/)
      assert.deepEqual(await response.json(), { itemId: 5, quantity: 12 })
      assert.deepEqual(asked.at(-1), { url: '/stock/5', accept: 'application/json' })
    }
  })

  it('answers the id asked and the bounds of a quantity', async () => {
    assert.deepEqual(await (await stock(-3)).json(), { itemId: -3, quantity: 0 })
    assert.deepEqual(await (await stock(6)).json(), { itemId: 6, quantity: 2147483647 })
  })

  it('writes a 64-bit id exactly', async () => {
    const response = await stock('9223372036854775807')
    await expectProblem(response, 404, 'Not Found')
    assert.equal(asked.at(-1).url, '/stock/9223372036854775807')
  })

  it('is a 404 when the upstream has no record', async () => {
    const problem = await expectProblem(await stock(4), 404, 'Not Found')
    assert.equal(problem.detail, 'no stock record for item 4')
  })

  it('is a 400 for a malformed id, without asking the upstream', async () => {
    const before = asked.length
    for (const bad of ['abc', '1.5', '99999999999999999999', '%20', '0x10', '1_0', '+']) {
      await expectProblem(await stock(bad), 400, 'Bad Request')
    }
    assert.equal(asked.length, before)
  })

  it('is a 405 with Allow for other methods', async () => {
    const response = await stock(5, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } })
    await expectProblem(response, 405, 'Method Not Allowed')
    assert.match(response.headers.get('allow'), /GET/)
  })

  it('is a 502 for any other status, asked once, and a redirect is not followed', async () => {
    for (const id of [7, 8, 9]) {
      const before = asked.length
      await expectProblem(await stock(id), 502, 'Bad Gateway')
      assert.deepEqual(asked.slice(before).map((a) => a.url), [`/stock/${id}`])
    }
  })

  it('is a 502 for a 200 without a valid quantity', async () => {
    for (const id of [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]) {
      await expectProblem(await stock(id), 502, 'Bad Gateway')
    }
  })

  it('is a 502 for a connection closed before a whole answer', async () => {
    await expectProblem(await stock(20), 502, 'Bad Gateway')
    await expectProblem(await stock(21), 502, 'Bad Gateway')
  })

  // undici checks both timeouts on its coarse clock (a tick every 499 ms): 1 to 2 s.
  it('is a 504 after 1 s without headers, or with a body that stalls for 1 s', async () => {
    for (const id of [22, 23]) {
      const started = performance.now()
      await expectProblem(await stock(id), 504, 'Gateway Timeout')
      const elapsed = performance.now() - started
      assert.ok(elapsed >= 900 && elapsed < 2500, `${id}: answered after ${elapsed} ms`)
    }
  })

  it('is a 502 while the upstream refuses connections, and recovers', async () => {
    upstream.close()
    upstream.closeAllConnections()
    await expectProblem(await stock(5), 502, 'Bad Gateway')
    upstream.listen(upstreamPort, '127.0.0.1')
    await once(upstream, 'listening')
    assert.equal((await stock(5)).status, 200)
  })
})
