// Input rules of API.md: path ids and query parameters (400) and write bodies (422).
import { isLosslessNumber } from 'lossless-json'
import * as z from 'zod'
import { HttpError } from './errors.js'

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
// An optional sign, then ASCII digits: "+5" and "007" are integers, " 5", "1_0" and "١٢" are not.
const DECIMAL_INTEGER = /^[+-]?[0-9]+$/

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

// A code point is one or two UTF-16 units, so a string of more than twice `max` units has more
// than `max` code points: too long without counting them, which for a 1 MiB string takes
// 40 ms of the one event loop (README.md, "Limits").
const withinCodePoints = (text, max) => text.length <= max || (text.length <= 2 * max && codePointLength(text) <= max)

const BLANK = /^[ \t\r\n]*$/

function text(max, { required }) {
  const kind = required ? 'a string' : 'a string or null'
  return z
    .string({ error: (issue) => (issue.input == null && required ? 'is required' : `must be ${kind}`) })
    .refine((s) => !required || !BLANK.test(s), { error: 'must not be blank', abort: true })
    .refine((s) => !s.includes('\u0000'), { error: 'must not contain the character U+0000', abort: true })
    .refine((s) => withinCodePoints(s, max), `must be at most ${max} characters`)
}

// Body numbers arrive either as doubles that hold exactly the value written, or as lossless-json's
// LosslessNumber, which keeps the number's JSON text (lib/http.js decides which). Either is
// judged by the exact decimal value of its text, never by double arithmetic.
const JSON_NUMBER = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/

const isJsonNumber = (value) => typeof value === 'number' || isLosslessNumber(value)

// A double's shortest text (String) has the value of the text it was parsed from, here.
const numberText = (value) => (typeof value === 'number' ? String(value) : value.value)

// The exact value of a JSON number's text as ±digits × 10^exponent, with `digits` free of
// leading and trailing zeros ('' for zero). A huge exponent stays a number (even Infinity): it
// is only compared, never used to build the value.
export function exactDecimal(text) {
  const [, sign, whole, fraction = '', exponent = '0'] = JSON_NUMBER.exec(text)
  const significant = (whole + fraction).replace(/^0+/, '')
  const digits = significant.replace(/0+$/, '')
  if (digits === '') return { negative: false, digits, exponent: 0 }
  return {
    negative: sign === '-',
    digits,
    exponent: Number(exponent) - fraction.length + (significant.length - digits.length),
  }
}

// The value times 10^scale when that is an integer of at most `maxDigits` digits, as a BigInt;
// 'fraction' when it is not an integer, 'range' when it has more digits.
function scaledInteger(text, scale, maxDigits) {
  const { negative, digits, exponent } = exactDecimal(text)
  if (digits === '') return 0n
  const shift = exponent + scale
  if (shift < 0) return 'fraction'
  if (digits.length + shift > maxDigits) return 'range'
  const magnitude = BigInt(digits) * 10n ** BigInt(shift)
  return negative ? -magnitude : magnitude
}

// A JSON number: `required` when absent, `wrongType` when anything else (a string, a boolean).
function jsonNumber(wrongType) {
  return z.custom(isJsonNumber, {
    error: (issue) => (issue.input === undefined ? 'is required' : wrongType),
    abort: true,
  })
}

// An integer field: a JSON number whose exact value is an integer in min..max (BigInts). `3.0` and
// `3e0` are 3; `1.5` is not an integer.
function integer(min, max, rangeMessage = `must be between ${min} and ${max}`) {
  return jsonNumber('must be an integer').transform((number, ctx) => {
    const value = scaledInteger(numberText(number), 0, 19)
    if (typeof value === 'bigint' && value >= min && value <= max) return value
    ctx.issues.push({ code: 'custom', message: value === 'fraction' ? 'must be an integer' : rangeMessage, input: number })
    return z.NEVER
  })
}

const MAX_PRICE_CENTS = 9999999999n

// Valid when 0 <= price <= 99999999.99 and price × 100 is an integer, by exact value: 1.230 and
// 1e2 pass, 1.234 and 1.00000000000000001 do not. The result is the price as a decimal string
// with two places, which PostgreSQL's numeric takes as it is.
const price = jsonNumber('must be a number').transform((number, ctx) => {
  const cents = scaledInteger(numberText(number), 2, 10)
  if (typeof cents === 'bigint' && cents >= 0n && cents <= MAX_PRICE_CENTS) {
    return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`
  }
  const message = cents === 'fraction' ? 'must have at most 2 decimals' : 'must be between 0 and 99999999.99'
  ctx.issues.push({ code: 'custom', message, input: number })
  return z.NEVER
})

// Unknown properties (and id, updatedAt) are dropped; the root must be an object. A
// LosslessNumber is a JS object too, so a body such as 42 is told apart before z.object.
const isJsonObject = (body) =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && !isLosslessNumber(body)
const object = (shape) =>
  z.custom(isJsonObject, { error: 'request body must be a JSON object', abort: true }).pipe(z.object(shape))

export const categoryBody = object({
  code: text(32, { required: true }),
  name: text(128, { required: true }),
})

export const itemBody = object({
  sku: text(64, { required: true }),
  name: text(128, { required: true }),
  price,
  stock: integer(0n, 2147483647n).transform(Number),
  description: text(16384, { required: false }).nullish().transform((d) => d ?? null),
  // Any signed 64-bit integer is a well-formed id (a BigInt); 0, negative and unknown ids are
  // rejected by the database, after an absent item and a taken sku.
  categoryId: integer(INT64_MIN, INT64_MAX, 'must be the id of a category'),
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
