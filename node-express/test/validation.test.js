import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { categoryBody, itemBody, parseBody, parseId, parsePaging } from '../lib/validation.js'

const validItem = { sku: 'SKU-T', name: 'Item', price: 9.99, stock: 3, categoryId: 1 }

// The set of fields a body is rejected for, or null when it is accepted.
function invalidFields(schema, body) {
  try {
    parseBody(schema, body)
    return null
  } catch (err) {
    assert.equal(err.status, 422)
    return err.errors.map((e) => e.field).sort()
  }
}

describe('path ids', () => {
  it('accepts any signed 64-bit integer', () => {
    assert.equal(parseId('42'), 42n)
    assert.equal(parseId('-5'), -5n)
    assert.equal(parseId('9223372036854775807'), 9223372036854775807n)
    assert.equal(parseId('-9223372036854775808'), -9223372036854775808n)
  })

  for (const text of ['abc', '1.5', '', ' 1', '0x10', '1e3', '9223372036854775808', '99999999999999999999']) {
    it(`rejects ${JSON.stringify(text)} with 400`, () => {
      assert.throws(() => parseId(text), { status: 400 })
    })
  }
})

describe('paging', () => {
  it('defaults to page 0 of 20', () => {
    assert.deepEqual(parsePaging({}), { page: 0n, size: 20, offset: 0n })
  })

  it('computes the offset without overflowing', () => {
    const { offset } = parsePaging({ page: '9223372036854775807', size: '100' })
    assert.equal(offset, 922337203685477580700n)
  })

  for (const query of [{ page: '' }, { page: '-1' }, { page: 'x' }, { size: '0' }, { size: '101' }, { size: '' }]) {
    it(`rejects ${JSON.stringify(query)} with 400`, () => {
      assert.throws(() => parsePaging(query), { status: 400 })
    })
  }
})

describe('category body', () => {
  it('keeps code and name as given and drops other fields', () => {
    const body = { code: ' A ', name: 'Name', id: 9, updatedAt: 'x' }
    assert.deepEqual(parseBody(categoryBody, body), { code: ' A ', name: 'Name' })
  })

  it('reports the body itself as field "" when it is not an object', () => {
    for (const body of [null, [], 'x', 42]) assert.deepEqual(invalidFields(categoryBody, body), [''])
  })

  it('reports one entry per invalid field', () => {
    assert.deepEqual(invalidFields(categoryBody, {}), ['code', 'name'])
    assert.deepEqual(invalidFields(categoryBody, { code: 123, name: null }), ['code', 'name'])
    assert.deepEqual(invalidFields(categoryBody, { code: ' \t\r\n', name: '' }), ['code', 'name'])
  })

  it('counts lengths in code points', () => {
    assert.equal(invalidFields(categoryBody, { code: '😀'.repeat(32), name: 'n' }), null)
    assert.deepEqual(invalidFields(categoryBody, { code: '😀'.repeat(33), name: 'n' }), ['code'])
    assert.deepEqual(invalidFields(categoryBody, { code: 'c', name: 'x'.repeat(129) }), ['name'])
  })

  it('rejects U+0000', () => {
    assert.deepEqual(invalidFields(categoryBody, { code: 'a\u0000b', name: 'n' }), ['code'])
  })
})

describe('item body', () => {
  it('stores an absent description as null', () => {
    assert.equal(parseBody(itemBody, validItem).description, null)
  })

  it('allows a blank description but not U+0000 or more than 16384 characters', () => {
    assert.equal(invalidFields(itemBody, { ...validItem, description: ' ' }), null)
    assert.deepEqual(invalidFields(itemBody, { ...validItem, description: '\u0000' }), ['description'])
    assert.deepEqual(invalidFields(itemBody, { ...validItem, description: 'd'.repeat(16385) }), ['description'])
  })

  it('judges price by value, with at most 2 decimals', () => {
    for (const price of [0, 1.23, 1.230, 99999999.99]) {
      assert.equal(invalidFields(itemBody, { ...validItem, price }), null, `price ${price}`)
    }
    for (const price of [1.234, -0.01, 100000000, 0.1 + 0.2, '9.99', true, null]) {
      assert.deepEqual(invalidFields(itemBody, { ...validItem, price }), ['price'], `price ${price}`)
    }
  })

  it('takes integers for stock and categoryId', () => {
    for (const stock of [1.5, -1, 2147483648, '1', false]) {
      assert.deepEqual(invalidFields(itemBody, { ...validItem, stock }), ['stock'], `stock ${stock}`)
    }
    for (const categoryId of [undefined, null, 1.5, '1']) {
      assert.deepEqual(invalidFields(itemBody, { ...validItem, categoryId }), ['categoryId'], `categoryId ${categoryId}`)
    }
    // Well formed ids that name no category: the database answers for them, after the absent item.
    for (const categoryId of [0, -1]) {
      assert.equal(invalidFields(itemBody, { ...validItem, categoryId }), null, `categoryId ${categoryId}`)
    }
  })

  it('reports every invalid field', () => {
    const body = { sku: '', name: 'n', price: 'x', stock: -1, categoryId: null }
    assert.deepEqual(invalidFields(itemBody, body), ['categoryId', 'price', 'sku', 'stock'])
  })
})
