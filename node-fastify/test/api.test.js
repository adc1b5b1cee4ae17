// The routes against the seeded database in DATABASE_URL, through inject(): reads, writes and
// what PostgreSQL decides (409, the 422 of an unknown category, the order of 404 before both).
// Rows made here are unique to the run and deleted again.
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { build, sender } from './helper.js'

const RUN = `T${Date.now().toString(36)}`

test('reads', async (t) => {
  const send = sender(build(t))

  await t.test('an item with its category', async () => {
    const response = await send('GET', '/items/%2B5')
    assert.equal(response.statusCode, 200)
    const body = response.json()
    assert.equal(body.sku, 'SKU-000005')
    assert.equal(body.price, 395.95)
    assert.deepEqual(body.category, { id: 5, code: 'CAT-0005', name: 'Category 5' })
    assert.equal(new Date(body.updatedAt).toISOString(), '2026-01-01T00:00:05.000Z')
  })

  await t.test('a page, and a page past the end of 64 bits', async () => {
    const { content, page } = (await send('GET', '/items?page=1&size=3')).json()
    const ids = content.map((i) => i.id)
    assert.equal(ids.length, 3)
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b))
    assert.deepEqual(page, { size: 3, number: 1, totalElements: page.totalElements, totalPages: Math.ceil(page.totalElements / 3) })
    const far = await send('GET', '/items?page=9223372036854775807&size=100')
    assert.match(far.body, /"number":9223372036854775807/)
    assert.deepEqual(far.json().content, [])
  })

  await t.test('the items of a category, and of an absent one', async () => {
    const { content } = (await send('GET', '/categories/42/items?size=2')).json()
    assert.deepEqual(content.map((i) => i.id), [42, 2042])
    assert.equal((await send('GET', '/categories/0/items')).statusCode, 404)
    assert.equal((await send('GET', '/items?categoryId=0')).json().page.totalElements, 0)
  })

  await t.test('well-formed ids that name nothing are 404', async () => {
    for (const id of ['0', '-5', '9223372036854775807']) assert.equal((await send('GET', `/items/${id}`)).statusCode, 404)
  })
})

// One category for the run; its items and itself are deleted when the writes are done, in the
// test itself, so before build()'s hook closes the app.
test('writes', async (t) => {
  const send = sender(build(t))
  const category = (await send('POST', '/categories', JSON.stringify({ code: RUN, name: 'test run' }))).json()
  const item = (overrides = {}) =>
    JSON.stringify({ sku: `${RUN}-${Math.random()}`, name: 'a thing', price: 19.99, stock: 7, categoryId: category.id, ...overrides })

  try {
    await t.test('a price is stored by its exact value', async () => {
      for (const [written, stored] of [['1e2', 100], ['125E-2', 1.25], ['1.10000000000000000000', 1.1], ['99999999.99', 99999999.99]]) {
        const response = await send('POST', '/items', item().replace('19.99', written))
        assert.equal(response.statusCode, 201, response.body)
        assert.equal(response.json().price, stored)
        assert.equal(response.headers.location, `/items/${response.json().id}`)
      }
      const refused = await send('POST', '/items', item().replace('19.99', '1.00000000000000001'))
      assert.equal(refused.statusCode, 422)
    })

    await t.test('a replace is whole, and keeping its own sku is no conflict', async () => {
      const created = (await send('POST', '/items', item({ description: 'there' }))).json()
      const replaced = await send('PUT', `/items/${created.id}`, item({ sku: created.sku, name: 'renamed' }))
      assert.equal(replaced.statusCode, 200)
      assert.equal(replaced.json().description, null)
      assert.equal(replaced.json().name, 'renamed')
    })

    await t.test('a taken sku is a 409, before an unknown category', async () => {
      assert.equal((await send('POST', '/items', item({ sku: 'SKU-000003' }))).statusCode, 409)
      assert.equal((await send('POST', '/items', item({ sku: 'SKU-000003', categoryId: 999999999 }))).statusCode, 409)
    })

    await t.test('an unknown category is a 422 on categoryId, after an absent item', async () => {
      const response = await send('POST', '/items', item({ categoryId: 999999999 }))
      assert.equal(response.statusCode, 422)
      assert.deepEqual(response.json().errors.map((e) => e.field), ['categoryId'])
      assert.equal((await send('PUT', '/items/999999999', item({ categoryId: 999999999 }))).statusCode, 404)
    })

    await t.test('a category with items is a 409 to delete; deleted, it is gone', async () => {
      assert.equal((await send('DELETE', `/categories/${category.id}`)).statusCode, 409)
      const spare = (await send('POST', '/categories', JSON.stringify({ code: `${RUN}-spare`, name: 'spare' }))).json()
      assert.equal((await send('POST', '/categories', JSON.stringify({ code: spare.code, name: 'again' }))).statusCode, 409)
      assert.equal((await send('DELETE', `/categories/${spare.id}`)).statusCode, 204)
      assert.equal((await send('GET', `/categories/${spare.id}`)).statusCode, 404)
    })
  } finally {
    const { content } = (await send('GET', `/categories/${category.id}/items?size=100`)).json()
    for (const { id } of content) await send('DELETE', `/items/${id}`)
    await send('DELETE', `/categories/${category.id}`)
  }
})
