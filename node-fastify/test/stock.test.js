// GET /items/{id}/stock against a fake stock upstream (node:http on a free port), one scripted
// answer per item id, named to the app by its STOCK_URL. No database is needed: the route reads
// none.
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer } from 'node:http'
import { after, test } from 'node:test'
import { build } from './helper.js'

const asked = []
const answers = {
  5: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"itemId": 99, "quantity": 345}'),
  6: (res) => res.writeHead(404).end(),
  7: (res) => res.writeHead(500).end('<html>oops</html>'),
  8: (res) => res.writeHead(302, { location: '/stock/5' }).end(),
  9: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"quantity": 1.5}'),
  10: (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('not json'),
  11: () => {}, // never answers
  12: (res) => res.socket.destroy(),
  '-3': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"quantity": 2147483647}'),
}

const upstream = createServer((req, res) => {
  asked.push({ url: req.url, accept: req.headers.accept })
  answers[req.url.split('/')[2]](res)
})
upstream.listen(0, '127.0.0.1')
await once(upstream, 'listening')
const STOCK_URL = `http://127.0.0.1:${upstream.address().port}/`

after(() => {
  upstream.closeAllConnections()
  upstream.close()
})

// An app for test `t`, started, whose stock client asks the fake upstream; stock(id) asks it for
// one item.
async function stockOf(t) {
  const app = build(t, { env: { STOCK_URL } })
  await app.ready()
  return (id) => {
    asked.length = 0
    return app.inject({ method: 'GET', url: `/items/${id}/stock` })
  }
}

test('the quantity, for the id asked, whatever the upstream says its id is', async (t) => {
  const stock = await stockOf(t)
  const response = await stock('5')
  assert.equal(response.statusCode, 200)
  assert.match(response.headers['content-type'], /^application\/json/)
  assert.deepEqual(response.json(), { itemId: 5, quantity: 345 })
  assert.deepEqual(asked, [{ url: '/stock/5', accept: 'application/json' }])
})

test('the id goes out in canonical decimal', async (t) => {
  const stock = await stockOf(t)
  for (const written of ['+5', '%2B5', '005']) {
    assert.equal((await stock(written)).statusCode, 200)
    assert.deepEqual(asked.map((a) => a.url), ['/stock/5'])
  }
  const negative = await stock('-3')
  assert.deepEqual(negative.json(), { itemId: -3, quantity: 2147483647 })
})

test('an id that is not an integer is a 400, and the upstream is not asked', async (t) => {
  const stock = await stockOf(t)
  assert.equal((await stock('abc')).statusCode, 400)
  assert.deepEqual(asked, [])
})

test('no stock record is a 404', async (t) => {
  const stock = await stockOf(t)
  assert.equal((await stock('6')).statusCode, 404)
})

test('any other answer is a 502, asked once, a redirect not followed', async (t) => {
  const stock = await stockOf(t)
  for (const id of ['7', '8', '9', '10', '12']) {
    const response = await stock(id)
    assert.equal(response.statusCode, 502, id)
    assert.equal(response.json().title, 'Bad Gateway')
    assert.equal(asked.length, 1, id)
  }
})

test('no answer is a 504 after about a second', async (t) => {
  const stock = await stockOf(t)
  const started = performance.now()
  const response = await stock('11')
  const seconds = (performance.now() - started) / 1000
  assert.equal(response.statusCode, 504)
  assert.equal(response.json().title, 'Gateway Timeout')
  assert.ok(seconds >= 0.9 && seconds < 3, `${seconds} s`)
})
