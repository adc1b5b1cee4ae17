import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { isLosslessNumber } from 'lossless-json'
import { parseJson } from '../lib/http.js'
import { categoryBody, exactDecimal, itemBody, parseBody, parseCategoryFilter, parseId, parsePaging } from '../lib/validation.js'

const validItem = { sku: 'SKU-T', name: 'Item', price: 9.99, stock: 3, categoryId: 1 }

// What the body parser makes of `body` sent as JSON (numbers keep their text).
const asJson = (body) => parseJson(JSON.stringify(body))

// The set of fields a body is rejected for, or null when it is accepted.
function invalidFields(schema, body) {
  try {
    parseBody(schema, asJson(body))
    return null
  } catch (err) {
    assert.equal(err.status, 422)
    return err.errors.map((e) => e.field).sort()
  }
}

// An item body whose price is written exactly as given (JSON.stringify cannot write 1e2).
const withPrice = (text) => parseJson(`{"sku":"SKU-T","name":"Item","price":${text},"stock":3,"categoryId":1}`)

describe('path ids', () => {
  it('accepts any signed 64-bit integer', () => {
    assert.equal(parseId('42'), 42n)
    assert.equal(parseId('-5'), -5n)
    assert.equal(parseId('9223372036854775807'), 9223372036854775807n)
    assert.equal(parseId('-9223372036854775808'), -9223372036854775808n)
  })

  it('takes a plus sign and leading zeros', () => {
    assert.equal(parseId('+5'), 5n)
    assert.equal(parseId('007'), 7n)
    assert.equal(parseId('-007'), -7n)
    assert.equal(parseId('+9223372036854775807'), 9223372036854775807n)
  })

  const notIntegers = ['abc', '1.5', '', ' 1', '1 ', '1_0', '0x10', '1e3', '+', '-', '--5', '+-5', '\uff15', '\u0661\u0662',
    '9223372036854775808', '-9223372036854775809', '99999999999999999999']
  for (const text of notIntegers) {
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

  it('takes a plus sign (%2B in a query string) and leading zeros', () => {
    assert.deepEqual(parsePaging({ page: '+5', size: '007' }), { page: 5n, size: 7, offset: 35n })
    assert.equal(parseCategoryFilter({ categoryId: '+7' }), 7n)
  })

  const badQueries = [{ page: '' }, { page: '-1' }, { page: 'x' }, { page: ' 5' }, { page: '1_0' }, { page: '1.0' },
    { size: '0' }, { size: '101' }, { size: '' }, { size: '\uff15' }]
  for (const query of badQueries) {
    it(`rejects ${JSON.stringify(query)} with 400`, () => {
      assert.throws(() => parsePaging(query), { status: 400 })
    })
  }

  for (const categoryId of ['', ' 7', '\u0661\u0662', '7.0', '9223372036854775808']) {
    it(`rejects categoryId ${JSON.stringify(categoryId)} with 400`, () => {
      assert.throws(() => parseCategoryFilter({ categoryId }), { status: 400 })
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
    assert.equal(parseBody(itemBody, asJson(validItem)).description, null)
  })

  it('allows a blank description but not U+0000 or more than 16384 characters', () => {
    assert.equal(invalidFields(itemBody, { ...validItem, description: ' ' }), null)
    assert.deepEqual(invalidFields(itemBody, { ...validItem, description: '\u0000' }), ['description'])
    assert.deepEqual(invalidFields(itemBody, { ...validItem, description: 'd'.repeat(16385) }), ['description'])
  })

  it('judges price by the exact value of its JSON text and stores it with two places', () => {
    const valid = { 0: '0.00', '-0': '0.00', '0.0e5': '0.00', '1.23': '1.23', '1.230': '1.23', '1e2': '100.00',
      '125E-2': '1.25', '1.10000000000000000000': '1.10', '99999999.99': '99999999.99', '9999999999e-2': '99999999.99',
      '0.001e1': '0.01' }
    for (const [text, stored] of Object.entries(valid)) {
      assert.equal(parseBody(itemBody, withPrice(text)).price, stored, `price ${text}`)
    }
  })

  it('rejects a price a binary double would round into the rule', () => {
    const invalid = ['1.00000000000000001', '99999999.995', '99999999.990000000001', '1.234', '1e-3', '-0.01',
      '100000000', '1e8', '1e400', '-1e400', '1e-400', '1e99999999999999999999', '0.30000000000000004']
    for (const text of invalid) {
      assert.throws(() => parseBody(itemBody, withPrice(text)), (err) => err.status === 422 && err.errors[0].field === 'price', `price ${text}`)
    }
  })

  it('rejects a price that is not a JSON number', () => {
    for (const price of ['9.99', true, null, undefined, {}]) {
      assert.deepEqual(invalidFields(itemBody, { ...validItem, price }), ['price'], `price ${price}`)
    }
  })

  it('takes integers for stock and categoryId', () => {
    for (const stock of [1.5, -1, 2147483648, '1', false, 1e300]) {
      assert.deepEqual(invalidFields(itemBody, { ...validItem, stock }), ['stock'], `stock ${stock}`)
    }
    assert.equal(parseBody(itemBody, parseJson('{"sku":"s","name":"n","price":1,"stock":3.0,"categoryId":1}')).stock, 3)
    for (const categoryId of [undefined, null, 1.5, '1']) {
      assert.deepEqual(invalidFields(itemBody, { ...validItem, categoryId }), ['categoryId'], `categoryId ${categoryId}`)
    }
    for (const categoryId of ['9223372036854775808', '-9223372036854775809', '1e19']) {
      const body = parseJson(`{"sku":"s","name":"n","price":1,"stock":1,"categoryId":${categoryId}}`)
      assert.throws(() => parseBody(itemBody, body), (err) => err.errors[0].field === 'categoryId', `categoryId ${categoryId}`)
    }
    // Well formed ids that name no category: the database answers for them, after the absent item.
    for (const categoryId of ['0', '-1', '9223372036854775807', '-9223372036854775808']) {
      const body = parseJson(`{"sku":"s","name":"n","price":1,"stock":1,"categoryId":${categoryId}}`)
      assert.equal(parseBody(itemBody, body).categoryId, BigInt(categoryId), `categoryId ${categoryId}`)
    }
  })

  it('reports every invalid field', () => {
    const body = { sku: '', name: 'n', price: 'x', stock: -1, categoryId: null }
    assert.deepEqual(invalidFields(itemBody, body), ['categoryId', 'price', 'sku', 'stock'])
  })
})

describe('JSON bodies', () => {
  it('keeps the text of every number a double could not hold exactly', () => {
    for (const text of ['1.00000000000000001', '99999999.995000001', '1e2', '125E-2', '1e-400', '1234567890123456']) {
      const { price } = parseJson(`{"name":"n","price":${text}}`)
      assert.equal(isLosslessNumber(price), true, text)
      assert.equal(price.value, text)
    }
  })

  it('parses a body whose numbers doubles hold exactly with JSON.parse', () => {
    assert.deepEqual(parseJson('{"price":99999999.99,"stock":-12,"categoryId":123456789012345,"d":"x"}'),
      { price: 99999999.99, stock: -12, categoryId: 123456789012345, d: 'x' })
  })

  it('lets the last of a repeated key win either way', () => {
    assert.deepEqual(parseJson('{"a":1,"a":2}'), { a: 2 })
    assert.equal(parseJson('{"a":1e2,"a":"x"}').a, 'x')
  })

  it('throws on what is not JSON either way', () => {
    for (const text of ['', '{', '{"a":1,}', 'NaN', '{"a":1e2,}', '[1e2', '01', '1.', '.5', '1e', '+1']) {
      assert.throws(() => parseJson(text), SyntaxError, JSON.stringify(text))
    }
  })
})

describe('exact decimals', () => {
  it('reads a JSON number as digits and a power of ten, exactly', () => {
    assert.deepEqual(exactDecimal('1.230'), { negative: false, digits: '123', exponent: -2 })
    assert.deepEqual(exactDecimal('-125E-2'), { negative: true, digits: '125', exponent: -2 })
    assert.deepEqual(exactDecimal('1e2'), { negative: false, digits: '1', exponent: 2 })
    assert.deepEqual(exactDecimal('1200'), { negative: false, digits: '12', exponent: 2 })
    assert.deepEqual(exactDecimal('-0.000'), { negative: false, digits: '', exponent: 0 })
    assert.deepEqual(exactDecimal('1.00000000000000001'), { negative: false, digits: '100000000000000001', exponent: -17 })
  })
})
