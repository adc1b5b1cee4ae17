// Request and response plumbing shared by the routers.
import express from 'express'
import { HttpError } from './errors.js'
import { parseId } from './validation.js'

function rejectEmpty(req, res, buf) {
  // express.json turns an empty body into {}; API.md calls it unparseable.
  if (buf.length === 0) throw new HttpError(400, 'request body is empty, expected JSON')
}

const parseJson = express.json({
  limit: '1mb',
  // null, 42 and "x" are JSON: they must parse and then fail validation with 422, not 400.
  strict: false,
  verify: rejectEmpty,
})

function isJson(contentType) {
  return contentType?.split(';', 1)[0].trim().toLowerCase() === 'application/json'
}

// For POST and PUT: 415 unless the Content-Type is JSON (express.json would silently skip the
// body), then 413 / 400 from the parser, which runs after the route and path id were checked.
export function jsonBody(req, res, next) {
  if (!isJson(req.get('Content-Type'))) {
    next(new HttpError(415, 'Content-Type must be application/json'))
    return
  }
  parseJson(req, res, (err) => {
    // No body at all (neither Content-Length nor chunked): the parser leaves req.body unset.
    if (!err && req.body === undefined) err = new HttpError(400, 'request body is empty, expected JSON')
    next(err)
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
