// The contract's input rules, answered before any database work: routes and methods (404, 405),
// path ids and query integers (400), Content-Type (415), size (413), JSON syntax (400) and the
// field rules (422), in that order. Fastify's inject() runs each request through the whole app;
// each group of cases shares one app, built for the group's test and closed when it ends.
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { decimalsOf, isInt64, isInt64Text } from '../lib/ajv.js'
import { exactNumber } from '../lib/json.js'
import { build, sender } from './helper.js'

function problem(response, status) {
  assert.equal(response.statusCode, status, response.body)
  assert.match(response.headers['content-type'], /^application\/problem\+json/)
  const body = response.json()
  assert.equal(body.type, 'about:blank')
  assert.equal(body.status, status)
  assert.ok(body.detail)
  return body
}

describe('the integer grammar', () => {
  test('an optional sign, ASCII digits, within 64 bits', () => {
    for (const text of ['5', '+5', '-5', '007', '0', '-0', '9223372036854775807', '-9223372036854775808']) {
      assert.ok(isInt64Text(text), text)
    }
    for (const text of ['', ' 5', '5 ', '1_0', '1.0', '1e3', '0x10', '+', '--5', '5-', '١٢', '５', '9223372036854775808']) {
      assert.ok(!isInt64Text(text), text)
    }
  })

  test('a JSON integer id is a safe JS integer or a BigInt in range', () => {
    assert.ok(isInt64(5) && isInt64(-1) && isInt64(9223372036854775807n))
    assert.ok(!isInt64(1.5) && !isInt64('5') && !isInt64(9223372036854775808n) && !isInt64(null))
  })
})

describe('numbers by their exact value', () => {
  test('the parser keeps a double only where it holds the value written', () => {
    assert.equal(exactNumber('1e2'), 100)
    assert.equal(exactNumber('125E-2'), 1.25)
    assert.equal(exactNumber('1.10000000000000000000'), 1.1)
    assert.equal(exactNumber('9223372036854775807'), 9223372036854775807n)
    for (const text of ['1.00000000000000001', '1e400', '1e-400']) {
      assert.equal(typeof exactNumber(text), 'object', text)
    }
  })

  test('decimals are counted on the value', () => {
    assert.equal(decimalsOf(1.1), 1)
    assert.equal(decimalsOf(100), 0)
    assert.equal(decimalsOf(1.23), 2)
    assert.equal(decimalsOf(1e-7), 7)
    assert.equal(decimalsOf(1.5e-7), 8)
  })
})

test('routes and methods', async (t) => {
  const send = sender(build(t))

  for (const url of ['/', '/items/', '/ITEMS', '/categories/1/items/', '/items/1/category']) {
    await t.test(`${url} is a 404`, async () => problem(await send('GET', url), 404))
  }

  for (const [method, url, allow] of [
    ['PATCH', '/items/abc', ['GET', 'PUT', 'DELETE']],
    ['DELETE', '/items', ['GET', 'POST']],
    ['QUERY', '/items', ['GET', 'POST']],
    ['PROPFIND', '/categories/1/items', ['GET']],
    ['POST', '/items/1/stock', ['GET']],
  ]) {
    await t.test(`${method} ${url} is a 405 listing ${allow}`, async () => {
      const response = await send(method, url, '{}')
      problem(response, 405)
      const listed = response.headers.allow.split(', ')
      for (const served of allow) assert.ok(listed.includes(served), response.headers.allow)
      assert.ok(!listed.includes(method))
    })
  }
})

test('path ids and query parameters', async (t) => {
  const send = sender(build(t))

  for (const id of ['abc', '1.5', '%205', '1_0', '9223372036854775808', '%D9%A1']) {
    await t.test(`id ${id} is a 400`, async () => problem(await send('GET', `/items/${id}`), 400))
  }

  await t.test('a malformed id comes before the Content-Type and the body', async () => {
    problem(await send('PUT', '/items/abc', 'not json', { 'content-type': 'text/plain' }), 400)
  })

  for (const query of ['page=-1', 'page=', 'page=+5', 'size=0', 'size=101', 'size=1.0', 'categoryId=abc']) {
    await t.test(`?${query} is a 400`, async () => problem(await send('GET', `/items?${query}`), 400))
  }

  await t.test('the detail names the parameter', async () => {
    assert.equal(problem(await send('GET', '/items?size=0'), 400).detail, 'size must be an integer from 1 to 100')
  })
})

test('bodies', async (t) => {
  const send = sender(build(t))

  await t.test('a write without a JSON Content-Type is a 415, with a body or without', async () => {
    problem(await send('POST', '/categories', '{"code":"X","name":"y"}', {}), 415)
    problem(await send('POST', '/categories', '', {}), 415)
    problem(await send('PUT', '/categories/1', '{}', { 'content-type': 'text/plain' }), 415)
  })

  await t.test('the Content-Type comes before the size, the size before the syntax', async () => {
    const big = `{"name":"${'n'.repeat(1024 * 1024)}"}`
    problem(await send('POST', '/categories', big, { 'content-type': 'text/plain' }), 415)
    assert.equal(problem(await send('POST', '/categories', `${big}x`), 413).title, 'Content Too Large')
  })

  for (const raw of ['', '{', '{"code": "X",}', '{} x', '{"a": 1e2', Buffer.from('\xff\xfe{}', 'latin1')]) {
    await t.test(`${JSON.stringify(String(raw))} is a 400`, async () => problem(await send('POST', '/items', raw), 400))
  }

  for (const raw of ['null', '[]', '"x"', '42']) {
    await t.test(`${raw} is a 422 on the body`, async () => {
      assert.deepEqual(problem(await send('POST', '/items', raw), 422).errors.map((e) => e.field), [''])
    })
  }

  await t.test('every invalid field is listed once', async () => {
    const body = '{"sku": " \\t", "price": 1.00000000000000001, "stock": "3", "description": 1, "categoryId": 1.5}'
    const { title, errors } = problem(await send('POST', '/items', body), 422)
    assert.equal(title, 'Unprocessable Content')
    assert.deepEqual(errors.map((e) => e.field).sort(), ['categoryId', 'description', 'name', 'price', 'sku', 'stock'])
    for (const { message } of errors) assert.ok(message)
  })

  for (const price of ['1.234', '-0.01', '100000000', '99999999.995', '1e400', '1e-400', '"9.99"', 'true', 'null']) {
    await t.test(`price ${price} is a 422 on price`, async () => {
      const body = `{"sku": "S", "name": "n", "price": ${price}, "stock": 1, "categoryId": 1}`
      assert.deepEqual(problem(await send('POST', '/items', body), 422).errors.map((e) => e.field), ['price'])
    })
  }

  await t.test('lengths count code points, and U+0000 is refused', async () => {
    const emoji = '😀'.repeat(32)
    const body = JSON.stringify({ code: emoji, name: `a\u0000b` })
    assert.deepEqual(problem(await send('POST', '/categories', body), 422).errors.map((e) => e.field), ['name'])
  })

  await t.test('an invalid body comes before an absent resource', async () => {
    problem(await send('PUT', '/items/999999999', '{"sku": "x"}'), 422)
  })
})
