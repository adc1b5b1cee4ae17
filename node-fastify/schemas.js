// The JSON schemas of the routes: Fastify validates requests with them (Ajv, with the keywords of
// lib/ajv.js) and serialises responses with them (fast-json-stringify). Each `errorMessage`
// (ajv-errors) is what a 400's detail or a 422's errors[] entry says about that field.

// --- Path ids and query parameters (400) ---------------------------------------------------------

// The path parameter of /items/{id}, /items/{id}/stock, /categories/{id} and /categories/{id}/items.
// find-my-way matches an empty segment to a parameter, and /items/ is no route of the contract
// (404), so the id takes one character or more: any character (`.` would miss a decoded %0A),
// for the id check to judge (400).
export const ID_PARAM = ':id([\\s\\S]+)'

const int64Text = (message) => ({ type: 'string', format: 'int64-text', errorMessage: message })

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: int64Text('must be an integer: an optional sign and ASCII digits, within 64 bits') },
}

const paging = {
  page: {
    type: 'string',
    format: 'int64-text',
    formatMinimum: '0',
    default: '0',
    errorMessage: 'must be an integer of at least 0',
  },
  size: {
    type: 'string',
    format: 'int64-text',
    formatMinimum: '1',
    formatMaximum: '100',
    default: '20',
    errorMessage: 'must be an integer from 1 to 100',
  },
}

export const pagingQuery = { type: 'object', properties: paging }

export const itemsQuery = {
  type: 'object',
  properties: { ...paging, categoryId: int64Text('must be an integer: an optional sign and ASCII digits, within 64 bits') },
}

// --- Write bodies (422) --------------------------------------------------------------------------

// Blank is empty or only spaces, tabs, CR and LF (spec/API.md, "Field rules"); U+0000 is refused
// because PostgreSQL cannot store it. Ajv counts maxLength in code points, as varchar(n) does.
const NO_NUL = '^[^\\u0000]*$'
const NOT_BLANK = '[^ \\t\\r\\n]'

function requiredText(maxLength) {
  return {
    type: 'string',
    maxLength,
    allOf: [{ pattern: NOT_BLANK }, { pattern: NO_NUL }],
    errorMessage: `must be a string of 1 to ${maxLength} characters, not blank, without U+0000`,
  }
}

function bodyOf(properties, required) {
  return {
    type: 'object',
    required,
    properties,
    errorMessage: { type: 'must be a JSON object' },
  }
}

export const categoryBody = bodyOf({ code: requiredText(32), name: requiredText(128) }, ['code', 'name'])

export const itemBody = bodyOf(
  {
    sku: requiredText(64),
    name: requiredText(128),
    price: {
      type: 'number',
      minimum: 0,
      maximum: 99999999.99,
      maxDecimals: 2,
      errorMessage: 'must be a number from 0 to 99999999.99 with at most 2 decimals',
    },
    stock: { type: 'integer', minimum: 0, maximum: 2147483647, errorMessage: 'must be an integer from 0 to 2147483647' },
    description: {
      type: ['string', 'null'],
      maxLength: 16384,
      pattern: NO_NUL,
      errorMessage: 'must be null or a string of at most 16384 characters, without U+0000',
    },
    categoryId: { int64: true, errorMessage: 'must be an integer id, within 64 bits' },
  },
  ['sku', 'name', 'price', 'stock', 'categoryId'],
)

// --- Responses -----------------------------------------------------------------------------------

const timestamp = { type: 'string', format: 'date-time' }

export const category = {
  type: 'object',
  required: ['id', 'code', 'name', 'updatedAt'],
  properties: { id: { type: 'integer' }, code: { type: 'string' }, name: { type: 'string' }, updatedAt: timestamp },
}

export const item = {
  type: 'object',
  required: ['id', 'sku', 'name', 'price', 'stock', 'description', 'categoryId', 'category', 'updatedAt'],
  properties: {
    id: { type: 'integer' },
    sku: { type: 'string' },
    name: { type: 'string' },
    price: { type: 'number' },
    stock: { type: 'integer' },
    description: { type: ['string', 'null'] },
    categoryId: { type: 'integer' },
    category: {
      type: 'object',
      required: ['id', 'code', 'name'],
      properties: { id: { type: 'integer' }, code: { type: 'string' }, name: { type: 'string' } },
    },
    updatedAt: timestamp,
  },
}

// A page in the shape Spring Data gives one. `number` repeats the page asked for, any signed
// 64-bit value: a BigInt, which fast-json-stringify writes exactly.
export function pageOf(content) {
  return {
    type: 'object',
    required: ['content', 'page'],
    properties: {
      content: { type: 'array', items: content },
      page: {
        type: 'object',
        required: ['size', 'number', 'totalElements', 'totalPages'],
        properties: {
          size: { type: 'integer' },
          number: { type: 'integer' },
          totalElements: { type: 'integer' },
          totalPages: { type: 'integer' },
        },
      },
    },
  }
}

export const stock = {
  type: 'object',
  required: ['itemId', 'quantity'],
  properties: { itemId: { type: 'integer' }, quantity: { type: 'integer' } },
}

export const health = { type: 'object', properties: { status: { type: 'string' } } }
