// Request and response plumbing shared by the routers.
import { STATUS_CODES, createServer } from 'node:http'
import { performance } from 'node:perf_hooks'
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
const MAX_BODY_BYTES = 1024 * 1024
const readText = express.text({ type: () => true, limit: MAX_BODY_BYTES })

// The body bytes that all requests together may be reading and parsing at once: 8 bodies of
// 1 MiB, or some 1,600 ordinary ones. A body being parsed is held about three times over (the
// chunks read, the text decoded from them, the strings parsed out of it), so bodies keep at most
// about 25 MiB alive however many arrive at once; the one event loop parses them in turn, so a
// larger budget only keeps the rest of a burst waiting for their 503 (README.md, "Limits"). The
// chunks are Buffers, outside the heap that --max-old-space-size bounds.
export const bodyBudget = { available: 8 * 1024 * 1024 }

// The budget bounds memory, not waiting. libuv accepts one connection per turn of the event loop,
// and a turn that parses and checks a near-limit body takes milliseconds, so under a burst the
// connections wait in the listen queue, each accepted as a body finishes and finding the room that
// body left: every one is read and judged in turn, and the last waits most of a minute (README.md,
// "Limits"). So a body larger than any valid item (16,384 characters of description, at most 12
// bytes each as JSON escapes) is also refused while the loop was busy more than 90% of the last
// half second: those 503s cost next to nothing, and the queue drains in seconds.
export const LARGE_BODY_BYTES = 256 * 1024
const BUSY_LOOP_SHARE = 0.9
const LOOP_SAMPLE_MS = 500
export const eventLoop = { busyShare: 0 }

// Samples the loop's utilization every LOOP_SAMPLE_MS into eventLoop.busyShare; returns the stop.
function sampleEventLoop() {
  let last = performance.eventLoopUtilization()
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization()
    eventLoop.busyShare = performance.eventLoopUtilization(now, last).utilization
    last = now
  }, LOOP_SAMPLE_MS).unref()
  return () => clearInterval(timer)
}

// What a body takes of the budget until its request is answered: its declared length, or the
// whole 1 MiB when it comes chunked or declares more (it is read up to there, then a 413).
function takeBodyBudget(req, res) {
  const declared = req.headers['content-length']
  const size = declared === undefined ? MAX_BODY_BYTES : Math.min(Number(declared), MAX_BODY_BYTES)
  if (size > bodyBudget.available) return false
  if (size > LARGE_BODY_BYTES && eventLoop.busyShare > BUSY_LOOP_SHARE) return false
  bodyBudget.available -= size
  res.once('close', () => {
    bodyBudget.available += size
  })
  return true
}

const MAY_BE_INEXACT_AS_DOUBLE = /[0-9](?:[eE]|[0-9.]{15})/

// A key given twice: the last one wins, as with JSON.parse (lossless-json would throw).
const lastKeyWins = ({ newValue }) => newValue

export function parseJson(text) {
  return MAY_BE_INEXACT_AS_DOUBLE.test(text) ? parse(text, null, { onDuplicateKey: lastKeyWins }) : JSON.parse(text)
}

function isJson(contentType) {
  return contentType?.split(';', 1)[0].trim().toLowerCase() === 'application/json'
}

// For POST and PUT: 415 unless the Content-Type is JSON, 503 when the body does not fit in what
// is left of the body budget or is large while the loop is busy, then 413 from the reader, then
// 400 unless the body is JSON (null, 42 and "x" are JSON: they parse and fail validation with
// 422). It runs after the route and the path id were checked.
export function jsonBody(req, res, next) {
  if (!isJson(req.get('Content-Type'))) {
    next(new HttpError(415, 'Content-Type must be application/json'))
    return
  }
  if (!takeBodyBudget(req, res)) {
    // The body stays unread, so the connection cannot carry another request.
    next(new HttpError(503, 'the server is busy, try again shortly', { headers: { Connection: 'close' } }))
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

// The status Node's http answers a malformed request with, by the parser's error code (its own
// clientError answer, which a listener replaces); 400 for every other code.
const CLIENT_ERROR_STATUS = { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 }

// Node's http answers bytes that arrive after a request with `Connection: close` (the parser's
// HPE_CLOSED_CONNECTION: a client that pipelined more requests behind it) with a 400 and destroys
// the connection at once, dropping the answers still owed to the requests before it. RFC 9112
// 9.6 asks for those to be answered and the later ones not processed: left alone, the parser has
// stopped at the later bytes, the owed answers go out in order, and Node closes the connection
// after the closing request's own. Any other error is answered as Node answers it, but only when
// the socket is writable, as Fastify's default handler does: whether a response is already being
// written is not public.
export function onClientError(err, socket) {
  if (err.code === 'HPE_CLOSED_CONNECTION') {
    return
  }
  if (socket.writable) {
    const status = CLIENT_ERROR_STATUS[err.code] ?? 400
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`)
  }
  socket.destroy(err)
}

// A request's headers have 10 s to arrive, whole (API.md, "Overload and slow clients"). Node
// looks for connections past it once every connectionsCheckingInterval (30 s by default), so a
// connection is closed between headersTimeout and headersTimeout + the interval after its request
// began: 9 s and a check every second close it within the 10 s. headersTimeout stops once the
// headers are in; requestTimeout runs on to the body's last byte, so it is the body's wait: 60 s,
// Tomcat's, where Node's default is 300 s (README.md, "Limits"; the same as node-fastify's).
const SERVER_OPTIONS = { headersTimeout: 9_000, requestTimeout: 60_000, connectionsCheckingInterval: 1_000 }

// Connections the kernel queues for the one event loop to accept. Node's default, 511, is
// overrun by a burst while the loop parses bodies, and the kernel then drops the connections
// past it unanswered; at 4,096 (Linux's somaxconn, Go's choice) they wait and get their 503.
const BACKLOG = 4096

// The app's HTTP server, as server.js and the tests start it: Express's app.listen, with the
// settings above, which it cannot pass. As there, the callback is called once: when listening,
// or with the error that prevented it.
export function listen(app, port, host, callback) {
  const server = createServer(SERVER_OPTIONS, app).on('clientError', onClientError)
  server.once('close', sampleEventLoop())
  const address = { port, host, backlog: BACKLOG }
  if (!callback) return server.listen(address)
  let done = (err) => {
    done = () => {}
    callback(err)
  }
  server.once('error', (err) => done(err))
  return server.listen(address, () => done())
}
