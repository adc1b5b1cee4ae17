// The bound on request bodies held at once (spec/API.md, "Overload and slow clients"). Node reads
// every connection's body as it arrives, so a burst of thousands of 1 MiB uploads would hold
// gigabytes. Each request with a body reserves its Content-Length (or the body limit when it comes
// chunked) from a budget before Fastify reads it, in a preParsing hook, and gives it back when its
// response is done; a request that does not fit is a 503 at once, and its connection is closed
// rather than its body read. Requests without a body reserve nothing, so reads and the stock
// calls that the benchmark keeps by the hundred in flight are never held back.
import { ServerBusyError } from './problems.js'

export function bodyBudget({ budgetBytes, bodyLimit }) {
  let reserved = 0

  return async function reserveBodyBytes(request, reply, payload) {
    const { headers } = request
    const declared = Number(headers['content-length'])
    // Longer than the limit, Fastify refuses it (413) without reading it.
    if (headers['transfer-encoding'] === undefined && !(declared > 0 && declared <= bodyLimit)) return payload
    const bytes = headers['transfer-encoding'] === undefined ? declared : bodyLimit
    if (reserved + bytes > budgetBytes) {
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
