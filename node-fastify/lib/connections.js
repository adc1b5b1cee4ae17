// Fastify's clientErrorHandler: what Node's http parser could not take as a request.
import { STATUS_CODES } from 'node:http'

const STATUS_BY_CODE = {
  ERR_HTTP_REQUEST_TIMEOUT: 408, // headersTimeout or requestTimeout passed (README, "Limits")
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
}

// A client that pipelines requests behind one with `Connection: close` is owed answers up to that
// one, in order, and nothing after it (RFC 9112 9.6). Node's parser stops at the bytes after it
// with HPE_CLOSED_CONNECTION, and Fastify's default handler would answer 400 and destroy the
// socket, dropping the answers still owed; left alone, they go out and Node closes the connection
// after the last. Any other error is answered as Fastify's default handler answers it, in problem
// JSON, when the socket can still be written.
export function onClientError(err, socket) {
  if (err.code === 'HPE_CLOSED_CONNECTION' || err.code === 'ECONNRESET' || socket.destroyed) return
  if (socket.writable) {
    const status = STATUS_BY_CODE[err.code] ?? 400
    const body = JSON.stringify({ type: 'about:blank', title: STATUS_CODES[status], status, detail: 'malformed request' })
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy(err)
}
