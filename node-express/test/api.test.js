// In-process HTTP tests of the exported app against the database in DATABASE_URL (seeded by
// db/seed.sql). Rows they create carry a unique suffix and are deleted again, so a second run
// on the same database passes too.
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import app from '../app.js'
import { close as closeDatabase } from '../db/index.js'
import { LARGE_BODY_BYTES, bodyBudget, eventLoop, listen } from '../lib/http.js'

let server
let base
const suffix = `${process.pid}-${Date.now()}`

before(async () => {
  server = listen(app, 0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  base = `http://127.0.0.1:${server.address().port}`
})

after(async () => {
  await new Promise((resolve) => server.close(resolve))
  await closeDatabase()
})

// Bodies over LARGE_BODY_BYTES are refused while the event loop was busy over the last half
// second, and the tests' own client shares the loop: before sending one, a whole sample of idle.
function idleLoop() {
  return new Promise((resolve) => setTimeout(resolve, 1100))
}

function request(method, path, { body, json, headers = {} } = {}) {
  if (json !== undefined) {
    body = JSON.stringify(json)
    headers = { 'Content-Type': 'application/json', ...headers }
  }
  return fetch(base + path, { method, body, headers, redirect: 'manual' })
}

// RFC 9110's reason phrases, word for word.
const TITLES = { 400: 'Bad Request', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 413: 'Content Too Large',
  415: 'Unsupported Media Type', 422: 'Unprocessable Content', 500: 'Internal Server Error', 503: 'Service Unavailable' }

async function expectProblem(response, status) {
  assert.equal(response.status, status)
  assert.match(response.headers.get('content-type'), /^application\/problem\+json/)
  const problem = await response.json()
  assert.equal(problem.type, 'about:blank')
  assert.equal(problem.status, status)
  assert.equal(problem.title, TITLES[status])
  assert.equal(typeof problem.detail, 'string')
  return problem
}

async function expectInvalidFields(response, fields) {
  const problem = await expectProblem(response, 422)
  assert.deepEqual(problem.errors.map((e) => e.field).sort(), [...fields].sort())
}

describe('reads', () => {
  it('returns a seeded item with its category, price as a number', async () => {
    const response = await request('GET', '/items/12345')
    assert.equal(response.status, 200)
    assert.match(response.headers.get('content-type'), /^application\/json/)
    const item = await response.json()
    assert.equal(item.description.length >= 300, true)
    delete item.description
    assert.deepEqual(item, {
      id: 12345,
      sku: 'SKU-012345',
      name: 'Item 12345',
      price: 600.55,
      stock: 345,
      categoryId: 345,
      category: { id: 345, code: 'CAT-0345', name: 'Category 345' },
      updatedAt: '2026-01-01T03:25:45.000Z',
    })
  })

  it('pages items by id', async () => {
    const response = await request('GET', '/items?page=1&size=2')
    const page = await response.json()
    assert.deepEqual(page.content.map((i) => i.id), [3, 4])
    assert.deepEqual(page.page, { size: 2, number: 1, totalElements: 100000, totalPages: 50000 })
  })

  it('filters items by category', async () => {
    const page = await (await request('GET', '/items?categoryId=7&size=100')).json()
    assert.equal(page.page.totalElements, 50)
    assert.equal(page.content.length, 50)
    assert.ok(page.content.every((i) => i.categoryId === 7 && i.category.code === 'CAT-0007'))
  })

  it('answers an empty page for an unknown category filter', async () => {
    const response = await request('GET', '/items?categoryId=99999999')
    assert.equal(response.status, 200)
    assert.deepEqual((await response.json()).page, { size: 20, number: 0, totalElements: 0, totalPages: 0 })
  })

  it('lists the items of a category, 404 when it is absent', async () => {
    const page = await (await request('GET', '/categories/42/items?size=3')).json()
    assert.deepEqual(page.content.map((i) => i.id), [42, 2042, 4042])
    assert.equal(page.page.totalPages, 17)
    await expectProblem(await request('GET', '/categories/99999999/items'), 404)
  })

  it('answers an empty page past the end, even when page × size overflows 64 bits', async () => {
    const page = await (await request('GET', '/categories?page=9223372036854775807&size=100')).json()
    assert.deepEqual(page.content, [])
    assert.equal(page.page.totalElements >= 2000, true)
    const text = await (await request('GET', '/categories?page=9223372036854775807&size=100')).text()
    assert.match(text, /"number":9223372036854775807[,}]/)
  })

  it('returns a category', async () => {
    const response = await request('GET', '/categories/42')
    const category = await response.json()
    assert.deepEqual(Object.keys(category).sort(), ['code', 'id', 'name', 'updatedAt'])
    assert.equal(category.id, 42)
  })
})

describe('routing and parameters', () => {
  it('answers 404 problem JSON for absent ids and unknown routes', async () => {
    for (const path of ['/items/-5', '/items/0', '/categories/99999999', '/items/', '/nope', '/Items']) {
      await expectProblem(await request('GET', path), 404)
    }
  })

  it('answers 400 for malformed ids and query parameters', async () => {
    for (const path of ['/items/abc', '/items/1.5', '/items/99999999999999999999', '/items?page=', '/items?size=0',
      '/items?size=101', '/items?categoryId=x', '/categories?page=-1', '/categories/x/items']) {
      await expectProblem(await request('GET', path), 400)
    }
  })

  it('takes ids and query integers with a plus sign or leading zeros', async () => {
    for (const path of ['/items/+5', '/items/%2B5', '/items/005']) {
      const response = await request('GET', path)
      assert.equal(response.status, 200, path)
      assert.equal((await response.json()).id, 5)
    }
    const page = await (await request('GET', '/items?page=%2B5&size=002&categoryId=%2B7')).json()
    assert.deepEqual(page.content.map((i) => i.id), [20007, 22007])
    assert.deepEqual(page.page, { size: 2, number: 5, totalElements: 50, totalPages: 25 })
  })

  it('answers 400 for integers that are not an optional sign and ASCII digits', async () => {
    // ?page=+5 is form-decoded to " 5".
    for (const path of ['/items/%205', '/items/1_0', '/items/%EF%BC%95', '/items/%D9%A1%D9%A2', '/items/+', '/items/--5',
      '/items?page=+5', '/items?page=1_0', '/items?size=%EF%BC%95', '/items?categoryId=%D9%A1']) {
      await expectProblem(await request('GET', path), 400)
    }
  })

  it('answers 405 with Allow before looking at the id', async () => {
    const cases = [['PATCH', '/items/abc', 'GET, PUT, DELETE'], ['DELETE', '/items', 'GET, POST'],
      ['PUT', '/categories', 'GET, POST'], ['POST', '/categories/1/items', 'GET'], ['POST', '/health', 'GET'],
      ['DELETE', '/avatar', 'GET']]
    for (const [method, path, allow] of cases) {
      const response = await request(method, path)
      await expectProblem(response, 405)
      assert.deepEqual(response.headers.get('allow').split(', ').sort(), allow.split(', ').sort())
    }
  })

  it('redirects /avatar with 302 and no body', async () => {
    const response = await request('GET', '/avatar')
    assert.equal(response.status, 302)
    assert.match(response.headers.get('location'), /^https:\/\/avatar\.example\.com\/Renard-([1-9]|1\d|2[01])\.png$/)
    assert.equal(await response.text(), '')
  })

  it('reports health', async () => {
    const response = await request('GET', '/health')
    assert.equal(response.status, 200)
    assert.deepEqual(await response.json(), { status: 'UP' })
  })
})

describe('request bodies', () => {
  const valid = JSON.stringify({ code: `NOPE-${suffix}`, name: 'never stored' })

  it('answers 415 without a JSON Content-Type', async () => {
    await expectProblem(await request('POST', '/categories', { body: valid }), 415)
    await expectProblem(await request('POST', '/categories', { body: valid, headers: { 'Content-Type': 'text/plain' } }), 415)
  })

  it('checks the path id before the Content-Type', async () => {
    await expectProblem(await request('PUT', '/categories/abc', { body: valid }), 400)
  })

  it('answers 400 for an empty or malformed body', async () => {
    const json = { 'Content-Type': 'application/json; charset=utf-8' }
    await expectProblem(await request('POST', '/categories', { body: '', headers: json }), 400)
    await expectProblem(await request('POST', '/categories', { body: '{"code":', headers: json }), 400)
  })

  it('accepts 1 MiB and answers 413 above it', async () => {
    const padding = (bytes) => ' '.repeat(bytes - valid.length)
    await idleLoop()
    const exact = await request('POST', '/categories', { body: valid.replace('{', `{${padding(1048576)}`), headers: { 'Content-Type': 'application/json' } })
    // The code is valid, so the exact size gets past the size check to the database and 201.
    assert.equal(exact.status, 201)
    await request('DELETE', `/categories/${(await exact.json()).id}`)
    const over = await request('POST', '/categories', { body: valid + padding(1048577), headers: { 'Content-Type': 'application/json' } })
    await expectProblem(over, 413)
  })

  it('answers 503 and closes the connection for a body that does not fit in the budget', async () => {
    const json = { 'Content-Type': 'application/json' }
    const budget = bodyBudget.available
    try {
      // Other requests' bodies hold the rest of the budget: one byte short for this one.
      bodyBudget.available = Buffer.byteLength(valid) - 1
      const response = await request('POST', '/categories', { body: valid, headers: json })
      assert.equal((await expectProblem(response, 503)).detail, 'the server is busy, try again shortly')
      assert.equal(response.headers.get('connection'), 'close')
      // A chunked body counts as the 1 MiB it may grow to.
      bodyBudget.available = 1048576 - 1
      const chunked = await fetch(`${base}/categories`, { method: 'POST', body: new Blob([valid]).stream(), duplex: 'half', headers: json })
      await expectProblem(chunked, 503)
      // Requests without a body are served as ever.
      assert.equal((await request('GET', '/categories/7')).status, 200)
    } finally {
      bodyBudget.available = budget
    }
  })

  it('answers 503 and closes the connection for a large body while the event loop is busy', async () => {
    const json = { 'Content-Type': 'application/json' }
    const large = JSON.stringify({ sku: `LARGE-${suffix}`, price: 1, stock: 1, categoryId: 1, name: 'x'.repeat(LARGE_BODY_BYTES) })
    // Busy for 1.2 s in slices of 20 ms, so that the sampler runs between them and one of its
    // samples covers busy time alone.
    const until = performance.now() + 1200
    while (performance.now() < until) {
      const slice = performance.now() + 20
      while (performance.now() < slice) {
        // busy
      }
      await new Promise(setImmediate)
    }
    assert.ok(eventLoop.busyShare > 0.9, `busy share ${eventLoop.busyShare}`)
    const response = await request('POST', '/items', { body: large, headers: json })
    assert.equal((await expectProblem(response, 503)).detail, 'the server is busy, try again shortly')
    assert.equal(response.headers.get('connection'), 'close')
    // A body of a valid item's size is read as ever, and a large one once the loop is idle.
    await expectInvalidFields(await request('POST', '/items', { json: { name: '' } }), ['name', 'sku', 'price', 'stock', 'categoryId'])
    await idleLoop()
    assert.ok(eventLoop.busyShare < 0.5, `busy share ${eventLoop.busyShare}`)
    await expectInvalidFields(await request('POST', '/items', { body: large, headers: json }), ['name'])
  })

  it('answers 422 for JSON that is not an object', async () => {
    for (const json of [null, [], 'x', 42]) await expectInvalidFields(await request('POST', '/items', { json }), [''])
  })

  it('answers 422 for invalid fields before 404 for an absent item', async () => {
    const body = { sku: ' ', name: 'n', price: 1.234, stock: 1.5, description: 7, categoryId: null }
    await expectInvalidFields(await request('PUT', '/items/999999999', { json: body }), ['sku', 'price', 'stock', 'description', 'categoryId'])
  })
})

describe('writes', () => {
  it('creates, updates and deletes a category', async () => {
    const code = `T-${suffix}`
    const created = await request('POST', '/categories', { json: { code, name: 'Test', id: 1 } })
    assert.equal(created.status, 201)
    const category = await created.json()
    assert.equal(created.headers.get('location'), `/categories/${category.id}`)
    assert.equal(category.code, code)
    assert.ok(Math.abs(Date.parse(category.updatedAt) - Date.now()) < 60_000)

    await expectProblem(await request('POST', '/categories', { json: { code, name: 'Again' } }), 409)
    await expectProblem(await request('PUT', '/categories/1', { json: { code, name: 'Taken' } }), 409)

    const updated = await request('PUT', `/categories/${category.id}`, { json: { code, name: 'Renamed' } })
    assert.equal(updated.status, 200)
    assert.equal((await updated.json()).name, 'Renamed')

    const deleted = await request('DELETE', `/categories/${category.id}`)
    assert.equal(deleted.status, 204)
    assert.equal(await deleted.text(), '')
    await expectProblem(await request('DELETE', `/categories/${category.id}`), 404)
  })

  it('refuses to delete a category that still has items', async () => {
    await expectProblem(await request('DELETE', '/categories/5'), 409)
  })

  it('creates, updates and deletes an item', async () => {
    const sku = `T-${suffix}`
    const body = { sku, name: 'Test item', price: 12.5, stock: 7, categoryId: 9 }
    const created = await request('POST', '/items', { json: body })
    assert.equal(created.status, 201)
    const item = await created.json()
    assert.equal(created.headers.get('location'), `/items/${item.id}`)
    assert.deepEqual(
      { ...item, id: undefined, updatedAt: undefined },
      { ...body, id: undefined, description: null, category: { id: 9, code: 'CAT-0009', name: 'Category 9' }, updatedAt: undefined },
    )

    await expectProblem(await request('POST', '/items', { json: { ...body, sku: 'SKU-000001' } }), 409)
    await expectInvalidFields(await request('POST', '/items', { json: { ...body, sku: `U-${suffix}`, categoryId: 99999999 } }), ['categoryId'])
    // A taken sku is reported before an unknown category; an absent item before either.
    await expectProblem(await request('PUT', `/items/${item.id}`, { json: { ...body, sku: 'SKU-000001', categoryId: 99999999 } }), 409)
    await expectProblem(await request('PUT', '/items/999999999', { json: { ...body, categoryId: 99999999 } }), 404)

    const replaced = await request('PUT', `/items/${item.id}`, { json: { ...body, price: 99999999.99, description: '' } })
    assert.equal(replaced.status, 200)
    const stored = await (await request('GET', `/items/${item.id}`)).json()
    assert.equal(stored.price, 99999999.99)
    assert.equal(stored.description, '')

    assert.equal((await request('DELETE', `/items/${item.id}`)).status, 204)
    await expectProblem(await request('GET', `/items/${item.id}`), 404)
  })

  it('judges a price by the exact value of its JSON text and stores that value', async () => {
    const sku = `P-${suffix}`
    const send = (method, path, price) => request(method, path, {
      body: `{"sku":"${sku}","name":"priced","price":${price},"stock":1,"categoryId":9}`,
      headers: { 'Content-Type': 'application/json' },
    })
    const created = await send('POST', '/items', '1e2')
    assert.equal(created.status, 201)
    const { id, price } = await created.json()
    assert.equal(price, 100)
    try {
      for (const [text, value] of [['125E-2', 1.25], ['1.10000000000000000000', 1.1], ['99999999.99', 99999999.99], ['0', 0]]) {
        const replaced = await send('PUT', `/items/${id}`, text)
        assert.equal(replaced.status, 200, text)
        assert.equal((await replaced.json()).price, value, text)
        assert.equal((await (await request('GET', `/items/${id}`)).json()).price, value, text)
      }
      // A binary double would round each of these to a valid price.
      for (const text of ['1.00000000000000001', '99999999.995', '1e-400', '1e400']) {
        await expectInvalidFields(await send('PUT', `/items/${id}`, text), ['price'])
      }
    } finally {
      await request('DELETE', `/items/${id}`)
    }
  })
})

// Everything the server sends on one connection until it closes it.
function pipelined(requests) {
  return new Promise((resolve, reject) => {
    const socket = connect(server.address().port, '127.0.0.1')
    let received = ''
    socket.setEncoding('latin1')
    socket.setTimeout(5000, () => socket.destroy(new Error(`no close within 5 s after: ${received}`)))
    socket.on('data', (chunk) => { received += chunk })
    socket.on('close', () => resolve(received))
    socket.on('error', reject)
    socket.write(requests.join(''))
  })
}

describe('keep-alive', () => {
  const get = (path, close) => `GET ${path} HTTP/1.1\r\nHost: t\r\n${close ? 'Connection: close\r\n' : ''}\r\n`

  // RFC 9112 9.6: every request up to the closing one answered in order, none after it.
  for (const closeAt of [2, 1]) {
    it(`answers pipelined requests in order up to the one with Connection: close (number ${closeAt + 1} of 3)`, async () => {
      const paths = ['/categories/7', '/items/7', '/categories/8']
      const received = await pipelined(paths.map((path, n) => get(path, n === closeAt)))
      const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/)
      const expected = ['"code":"CAT-0007"', '"sku":"SKU-000007"', '"code":"CAT-0008"'].slice(0, closeAt + 1)
      assert.equal(answers.length, expected.length, received)
      answers.forEach((answer, n) => {
        assert.match(answer, /^HTTP\/1\.1 200 /)
        assert.ok(answer.includes(expected[n]), `answer ${n + 1}: ${answer}`)
      })
    })
  }

  it('still answers a request it cannot parse with 400 and closes', async () => {
    const received = await pipelined(['GET /categories/7 HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n'])
    assert.match(received, /^HTTP\/1\.1 400 Bad Request\r\n/)
  })
})

describe('slow clients', () => {
  it('closes with 408 a connection whose headers are not all there within 10 s, others served meanwhile', async () => {
    const started = Date.now()
    const received = await new Promise((resolve, reject) => {
      const socket = connect(server.address().port, '127.0.0.1')
      let answer = ''
      let line = 0
      // A header line every 5 s, never the blank line that ends them.
      const trickle = setInterval(() => socket.write(`X-Slow: ${++line}\r\n`), 5000)
      socket.setEncoding('latin1')
      socket.setTimeout(15000, () => socket.destroy(new Error('still open after 15 s')))
      socket.on('data', (chunk) => { answer += chunk })
      socket.on('close', () => {
        clearInterval(trickle)
        resolve(answer)
      })
      socket.on('error', reject)
      socket.write('GET /categories/7 HTTP/1.1\r\nHost: t\r\n')
      request('GET', '/categories/7').then((response) => assert.equal(response.status, 200)).catch(reject)
    })
    const after = Date.now() - started
    assert.match(received, /^HTTP\/1\.1 408 Request Timeout\r\n/)
    assert.ok(after >= 9000 && after <= 10500, `closed after ${after} ms`)
  })
})
