// What the route schemas need from Ajv beyond JSON Schema's own vocabulary: the contract's integer
// grammar for path and query text, and exact checks of numbers the body parser (lib/json.js) keeps
// exact. Given to Fastify as an Ajv plugin (app.js, `ajv.plugins`).

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const INTEGER_TEXT = /^[+-]?[0-9]+$/

// spec/API.md, "Integers in paths and query parameters": an optional sign and ASCII digits, in
// the signed 64-bit range. A pattern, not Number() or BigInt(), which take " 5", "0x10" or "1e3".
export function isInt64Text(text) {
  if (!INTEGER_TEXT.test(text)) return false
  const value = BigInt(text)
  return value >= INT64_MIN && value <= INT64_MAX
}

// For formatMinimum and formatMaximum (ajv-formats): the order of two such texts by value.
// Undefined when `text` is not one; the format itself reports that.
function compareInt64Texts(text, limit) {
  if (!isInt64Text(text)) return undefined
  const difference = BigInt(text) - BigInt(limit)
  return difference === 0n ? 0 : difference < 0n ? -1 : 1
}

// How many decimals a number has as written. lib/json.js gives a JS number only where the double
// holds the value written, and a double's shortest text (String) is then that value: 1.1 is
// "1.1", 1e-7 is "1e-7".
export function decimalsOf(number) {
  const [mantissa, exponent = '0'] = String(number).split('e')
  const fraction = mantissa.split('.')[1] ?? ''
  return Math.max(0, fraction.length - Number(exponent))
}

// A JSON integer in the signed 64-bit range: a JS number that is a safe integer, or a BigInt that
// lib/json.js made of a whole number past 2^53.
export function isInt64(value) {
  if (typeof value === 'bigint') return value >= INT64_MIN && value <= INT64_MAX
  return Number.isSafeInteger(value)
}

export function contractKeywords(ajv) {
  ajv.addFormat('int64-text', { type: 'string', validate: isInt64Text, compare: compareInt64Texts })
  ajv.addKeyword({
    keyword: 'maxDecimals',
    type: 'number',
    schemaType: 'number',
    validate: (places, number) => decimalsOf(number) <= places,
  })
  ajv.addKeyword({ keyword: 'int64', schemaType: 'boolean', validate: (wanted, value) => !wanted || isInt64(value) })
}
