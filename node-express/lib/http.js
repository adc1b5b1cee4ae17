// Request and response plumbing shared by the routers.
import express from 'express'
import { parse } from 'lossless-json'
import { HttpError } from './errors.js'
import { parseId } from './validation.js'

// The body is read as text and parsed here rather than by express.json, because JSON.parse
// makes every number a binary double: 1.00000000000000001 would arrive as 1 and 99999999.995 as
// 99999999.99, where a price is judged by its exact value. lossless-json keeps each number's
// text (a LosslessNumber), but it is slow on strings (an item with a 5 KB description: some 250 µs against 15 µs).
// So it parses only a body that may hold a number a double cannot: one written with an exponent
// (a digit then e or E) or with 16 or more digits (a run of digits and dots from a digit). Any
// other number's double has exactly the value written (a double holds every decimal of up to
// 15 significant digits), and JSON.parse reads that body. Strings are not told apart from
// numbers by this test, so a description such as "1e9" only costs the slow parser, never
// precision. lib/validation.js judges either kind of number by its exact decimal value.
const readText = express.text({ type: () => true, limit: '1mb' })

const MAY_BE_INEXACT_AS_DOUBLE = /[0-9](?:[eE]|[0-9.]{15})/

// A key given twice: the last one wins, as with JSON.parse (lossless-json would throw).
const lastKeyWins = ({ newValue }) => newValue

export function parseJson(text) {
  return MAY_BE_INEXACT_AS_DOUBLE.test(text) ? parse(text, null, { onDuplicateKey: lastKeyWins }) : JSON.parse(text)
}

function isJson(contentType) {
  return contentType?.split(';', 1)[0].trim().toLowerCase() === 'application/json'
}

// For POST and PUT: 415 unless the Content-Type is JSON, then 413 from the reader, then 400
// unless the body is JSON (null, 42 and "x" are JSON: they parse and fail validation with 422).
// It runs after the route and the path id were checked.
export function jsonBody(req, res, next) {
  if (!isJson(req.get('Content-Type'))) {
    next(new HttpError(415, 'Content-Type must be application/json'))
    return
  }
  readText(req, res, (err) => {
    if (err) {
      next(err)
      return
    }
    try {
      // No body at all (neither Content-Length nor chunked) leaves req.body undefined.
      req.body = parseJson(req.body ?? '')
    } catch {
      // A SyntaxError, or a RangeError when nesting runs out of stack: either way not JSON we take.
      next(new HttpError(400, 'request body is not valid JSON'))
      return
    }
    next()
  })
}

// Put first on routes with an :id, so that a malformed id answers 400 ahead of 415/413/400/422.
// (router.param would run before route.all() too, and answer 400 where 405 is due.)
export function idParam(req, res, next) {
  res.locals.id = parseId(req.params.id)
  next()
}

// Mounted with route.all() after a route's methods: the path is known, the method is not.
export function methodNotAllowed(req, res, next) {
  const allow = Object.keys(req.route.methods)
    .filter((method) => method !== '_all')
    .map((method) => method.toUpperCase())
    .join(', ')
  next(new HttpError(405, `method ${req.method} is not allowed here, only ${allow}`, { headers: { Allow: allow } }))
}

// The page envelope. The page number may be any signed 64-bit value (a BigInt), which
// JSON.stringify cannot write, so the envelope is assembled around the serialised content.
export function sendPage(res, { content, total }, { page, size }) {
  const totalPages = total === 0 ? 0 : Math.ceil(total / size)
  res
    .type('json')
    .send(
      `{"content":${JSON.stringify(content)},"page":{"size":${size},"number":${page},` +
        `"totalElements":${total},"totalPages":${totalPages}}}`,
    )
}
