// The bounds on request bodies (spec/API.md, "Overload and slow clients"). Node reads every
// connection's body as it arrives, so a burst of thousands of 1 MiB uploads would hold gigabytes.
// Each request with a body reserves its Content-Length (or the body limit when it comes chunked)
// from a budget before Fastify reads it, in a preParsing hook, and gives it back when its response
// is done; a request that does not fit is a 503 at once, and its connection is closed rather than
// its body read. Requests without a body reserve nothing, so reads and the stock calls that the
// benchmark keeps by the hundred in flight are never held back.
//
// The budget bounds memory, not waiting. libuv accepts one connection per turn of the event loop,
// and a turn that judges a near-limit body takes some 12 ms (decoding, parsing and checking 1 MiB
// of text), so under a burst the connections wait in the listen queue, each accepted as a body
// finishes and finding the room that body left: every one is read and judged in turn, and the
// last waits minutes (README, "Limits"). So a large body is also refused while the event loop
// has no time to spare: the 503s cost next to nothing and the queue drains in seconds.
import { ServerBusyError } from './problems.js'

export function bodyBudget({ budgetBytes, bodyLimit, largeBytes = Infinity, busy = () => false }) {
  let reserved = 0

  return async function reserveBodyBytes(request, reply, payload) {
    const { headers } = request
    const declared = Number(headers['content-length'])
    // Longer than the limit, Fastify refuses it (413) without reading it.
    if (headers['transfer-encoding'] === undefined && !(declared > 0 && declared <= bodyLimit)) return payload
    const bytes = headers['transfer-encoding'] === undefined ? declared : bodyLimit
    if (reserved + bytes > budgetBytes || (bytes > largeBytes && busy())) {
      reply.header('connection', 'close')
      throw new ServerBusyError()
    }
    reserved += bytes
    reply.raw.once('close', () => {
      reserved -= bytes
    })
    return payload
  }
}
