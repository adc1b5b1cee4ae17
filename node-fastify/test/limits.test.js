// The bounds of README's "Limits": body bytes read at once, and the time request headers get.
import assert from 'node:assert/strict'
import { EventEmitter, once } from 'node:events'
import { connect } from 'node:net'
import { test } from 'node:test'
import { bodyBudget } from '../lib/limits.js'
import { build } from './helper.js'

function request(headers) {
  const headersSent = {}
  const raw = new EventEmitter()
  return { request: { headers }, reply: { raw, header: (name, value) => (headersSent[name] = value) }, raw, headersSent }
}

test('bodies past the budget are a 503 that closes the connection, until bytes are given back', async () => {
  const reserve = bodyBudget({ budgetBytes: 3000, bodyLimit: 2000 })
  const first = request({ 'content-length': '2000' })
  await reserve(first.request, first.reply, 'payload')
  const chunked = request({ 'transfer-encoding': 'chunked' })
  await assert.rejects(reserve(chunked.request, chunked.reply, 'payload'), { statusCode: 503 })
  assert.equal(chunked.headersSent.connection, 'close')
  const small = request({ 'content-length': '1000' })
  assert.equal(await reserve(small.request, small.reply, 'payload'), 'payload')
  first.raw.emit('close')
  await reserve(chunked.request, chunked.reply, 'payload')
})

test('requests without a body, or one Fastify refuses unread, reserve nothing', async () => {
  const reserve = bodyBudget({ budgetBytes: 10, bodyLimit: 10 })
  for (const headers of [{}, { 'content-length': '0' }, { 'content-length': '11' }]) {
    const { request: req, reply } = request(headers)
    await reserve(req, reply, 'payload')
  }
  const { request: req, reply } = request({ 'content-length': '10' })
  await reserve(req, reply, 'payload')
})

test('a request whose headers do not end within 10 s is closed', async (t) => {
  const app = build(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const socket = connect(app.server.address().port, '127.0.0.1')
  await once(socket, 'connect')
  const started = performance.now()
  socket.write('GET /items/1 HTTP/1.1\r\nHost: test\r\n')
  const slow = setInterval(() => socket.write('X-Slow: 1\r\n'), 2000)
  socket.resume()
  await once(socket, 'close')
  clearInterval(slow)
  const seconds = (performance.now() - started) / 1000
  assert.ok(seconds > 9 && seconds <= 10.5, `closed after ${seconds} s`)
})

test('a large body is refused while the event loop is busy, a small one is not', async () => {
  let busy = true
  const reserve = bodyBudget({ budgetBytes: 10_000, bodyLimit: 5000, largeBytes: 1000, busy: () => busy })
  const large = request({ 'content-length': '1001' })
  await assert.rejects(reserve(large.request, large.reply, 'payload'), { statusCode: 503 })
  assert.equal(large.headersSent.connection, 'close')
  const chunked = request({ 'transfer-encoding': 'chunked' })
  await assert.rejects(reserve(chunked.request, chunked.reply, 'payload'), { statusCode: 503 })
  const small = request({ 'content-length': '1000' })
  assert.equal(await reserve(small.request, small.reply, 'payload'), 'payload')
  busy = false
  assert.equal(await reserve(large.request, large.reply, 'payload'), 'payload')
})

test('the app refuses a near-limit body with a 503 while its event loop is busy', async (t) => {
  const app = build(t)
  await app.ready()
  const body = JSON.stringify({ sku: 'LARGE-1', price: 1, stock: 1, categoryId: 1, name: 'x'.repeat(300_000) })
  const send = () =>
    app.inject({ method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, payload: body })
  // Idle for a whole sample of under-pressure's (0.5 s) after the start: the body is read and judged.
  await new Promise((resolve) => setTimeout(resolve, 1100))
  assert.equal((await send()).statusCode, 422)
  // Busy for 1.2 s in slices of 20 ms, so that under-pressure's timer runs between them and
  // one of its samples covers busy time alone.
  const until = performance.now() + 1200
  while (performance.now() < until) {
    const slice = performance.now() + 20
    while (performance.now() < slice) {
      /* busy */
    }
    await new Promise(setImmediate)
  }
  const response = await send()
  assert.equal(response.statusCode, 503)
  assert.equal(response.json().title, 'Service Unavailable')
})
