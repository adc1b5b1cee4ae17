// The application/json body parser, in place of Fastify's own, so that numbers keep their exact
// value: JSON.parse makes every number a double, and a price is judged by the decimal written
// (spec/API.md, "price"): 1.00000000000000001 would arrive as 1 and pass.
//
// Most bodies hold no number a double cannot hold exactly (a double holds every decimal of up to
// 15 significant digits), and those go to Fastify's own parser, JSON.parse behind its guard
// against prototype poisoning. A body that may hold one, a number written with an exponent or with
// 16 or more digits (the test looks at the whole text, strings included, so a description "1e9"
// only costs the slower parser), goes to lossless-json, which hands each number's text to
// exactNumber(). It is much slower than JSON.parse, so it runs only where needed.
import { errorCodes } from 'fastify'
import { isSafeNumber, LosslessNumber, parse } from 'lossless-json'

const { FST_ERR_CTP_INVALID_JSON_BODY } = errorCodes

const MAY_BE_INEXACT_AS_DOUBLE = /[0-9](?:[eE]|[0-9.]{15})/
const INTEGER = /^-?[0-9]+$/

// A JS number where the double holds the value written (1e2, 1.10000000000000000000), a BigInt
// for a whole number past 2^53 (a categoryId), else the text itself as a LosslessNumber, which no
// schema type matches: 1.00000000000000001, 1e400, 1e-400 are no value a double or a BigInt holds.
export function exactNumber(text) {
  if (isSafeNumber(text)) return Number(text)
  return INTEGER.test(text) ? BigInt(text) : new LosslessNumber(text)
}

// A key given twice: the last one wins, as with JSON.parse (lossless-json would throw).
const lastKeyWins = ({ newValue }) => newValue

export function exactJsonParser(fastify) {
  // 'remove' drops __proto__ and constructor.prototype keys; lossless-json keeps them as plain own
  // keys. Neither sets a prototype, and properties a write body does not define are ignored.
  const parseJson = fastify.getDefaultJsonParser('remove', 'remove')
  return function parseExactJson(request, body, done) {
    if (!MAY_BE_INEXACT_AS_DOUBLE.test(body)) {
      parseJson(request, body, done)
      return
    }
    let value
    try {
      value = parse(body, null, { parseNumber: exactNumber, onDuplicateKey: lastKeyWins })
    } catch {
      // A SyntaxError, or a RangeError when nesting runs out of stack: either way not JSON we take.
      done(new FST_ERR_CTP_INVALID_JSON_BODY(), undefined)
      return
    }
    done(null, value)
  }
}
