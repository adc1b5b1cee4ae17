// Entry point: checks the database, listens, and shuts down gracefully on SIGTERM.
// One process on purpose: the service is capped at 1 CPU, and Node serves all requests from one
// event loop, so a cluster of workers would only compete for that CPU.
import { createRequire } from 'node:module'
import app from './app.js'
import { config } from './config.js'
import { close as closeDatabase, ping } from './db/index.js'
import { listen } from './lib/http.js'
import { close as closeStock } from './stock/index.js'

const expressVersion = createRequire(import.meta.url)('express/package.json').version

// Connection errors can be AggregateErrors (one per address tried) with an empty message.
function describe(err) {
  const cause = err.cause ?? err
  return cause.message || cause.errors?.[0]?.message || cause.code || String(cause)
}

try {
  await ping()
} catch (err) {
  console.error(`node-express: cannot reach the database at start: ${describe(err)}`)
  process.exit(1)
}

const server = listen(app, config.port, config.host, (err) => {
  if (err) {
    console.error(`node-express: cannot listen on ${config.host}:${config.port}: ${err.message}`)
    process.exit(1)
  }
  console.log(
    `node-express: Express ${expressVersion} on Node.js ${process.versions.node}, ` +
      `listening on ${config.host}:${config.port}, pool size ${config.poolSize}, 1 process`,
  )
})

function shutdown(signal) {
  console.log(`node-express: ${signal} received, finishing in-flight requests`)
  server.close(async () => {
    await Promise.all([closeDatabase(), closeStock()])
    process.exit(0)
  })
  // close() stops accepting and closes the keep-alive connections idle right now; a busy one
  // turns idle once its response is sent, so sweep until none is left. Whatever still hangs on
  // is cut at 8 s, so the process exits within 10 s.
  setInterval(() => server.closeIdleConnections(), 100).unref()
  setTimeout(() => server.closeAllConnections(), 8000).unref()
}

process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
