// Input rules of API.md: path ids and query parameters (400) and write bodies (422).
import * as z from 'zod'
import { HttpError } from './errors.js'

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const DECIMAL_INTEGER = /^-?\d+$/

// A signed 64-bit integer written in base 10, as a BigInt; null for anything else.
function int64(text) {
  if (typeof text !== 'string' || !DECIMAL_INTEGER.test(text)) return null
  const value = BigInt(text)
  return value >= INT64_MIN && value <= INT64_MAX ? value : null
}

export function parseId(text) {
  const id = int64(text)
  if (id === null) throw new HttpError(400, `id must be a 64-bit integer, got "${text}"`)
  return id
}

// Paging: `offset` is a BigInt because page × size may exceed 64 bits (the page is then empty).
export function parsePaging(query) {
  let page = 0n
  if (query.page !== undefined) {
    page = int64(query.page)
    if (page === null || page < 0n) throw new HttpError(400, 'page must be an integer of 0 or more')
  }
  let size = 20
  if (query.size !== undefined) {
    const value = int64(query.size)
    if (value === null || value < 1n || value > 100n) {
      throw new HttpError(400, 'size must be an integer between 1 and 100')
    }
    size = Number(value)
  }
  return { page, size, offset: page * BigInt(size) }
}

export function parseCategoryFilter(query) {
  if (query.categoryId === undefined) return undefined
  const id = int64(query.categoryId)
  if (id === null) throw new HttpError(400, 'categoryId must be a 64-bit integer')
  return id
}

// PostgreSQL counts varchar lengths in code points; String#length counts UTF-16 units.
function codePointLength(text) {
  let count = 0
  for (const _ of text) count++
  return count
}

const BLANK = /^[ \t\r\n]*$/

function text(max, { required }) {
  const kind = required ? 'a string' : 'a string or null'
  return z
    .string({ error: (issue) => (issue.input == null && required ? 'is required' : `must be ${kind}`) })
    .refine((s) => !required || !BLANK.test(s), { error: 'must not be blank', abort: true })
    .refine((s) => !s.includes('\u0000'), { error: 'must not contain the character U+0000', abort: true })
    .refine((s) => s.length <= max || codePointLength(s) <= max, `must be at most ${max} characters`)
}

function integer(min, max, rangeMessage = `must be between ${min} and ${max}`) {
  return z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer') })
    .refine(Number.isInteger, { error: 'must be an integer', abort: true })
    .refine((n) => n >= min && n <= max, rangeMessage)
}

const MAX_PRICE = 99999999.99

// JSON numbers arrive as doubles: a price has at most 2 decimals when scaling by 100 and
// rounding gives back the same double (1.230 passes, 1.234 does not).
const hasAtMostTwoDecimals = (n) => Math.round(n * 100) / 100 === n

const price = z
  .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
  .refine((n) => n >= 0 && n <= MAX_PRICE, { error: `must be between 0 and ${MAX_PRICE}`, abort: true })
  .refine(hasAtMostTwoDecimals, 'must have at most 2 decimals')

// Unknown properties (and id, updatedAt) are dropped; the root must be an object.
const object = (shape) => z.object(shape, { error: 'request body must be a JSON object' })

export const categoryBody = object({
  code: text(32, { required: true }),
  name: text(128, { required: true }),
})

export const itemBody = object({
  sku: text(64, { required: true }),
  name: text(128, { required: true }),
  price,
  stock: integer(0, 2147483647),
  description: text(16384, { required: false }).nullish().transform((d) => d ?? null),
  // 0 and negative ids are well formed; like any unknown id, the database rejects them.
  categoryId: integer(Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'must be the id of a category'),
})

// One entry per invalid field (its first problem); field "" is the body itself.
export function parseBody(schema, body) {
  const result = schema.safeParse(body)
  if (result.success) return result.data
  const errors = []
  const seen = new Set()
  for (const issue of result.error.issues) {
    const field = issue.path.join('.')
    if (seen.has(field)) continue
    seen.add(field)
    errors.push({ field, message: issue.message })
  }
  const detail = errors.map(({ field, message }) => (field ? `${field} ${message}` : message)).join('; ')
  throw new HttpError(422, detail, { errors })
}
