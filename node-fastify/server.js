// Entry point: the only module that reads the environment. It starts the app (which checks the
// settings), checks the database, listens, and closes gracefully on SIGTERM. One process on
// purpose: the service is capped at 1 CPU, and Node serves every request from one event loop, so
// a cluster of workers would only compete for that CPU.
import { createRequire } from 'node:module'
import { buildApp } from './app.js'
import { ConfigError } from './config.js'

const { version } = createRequire(import.meta.url)('fastify/package.json')

// Connection errors may be AggregateErrors (one per address tried) with an empty message.
function describe(err) {
  const cause = err.cause ?? err
  return cause.message || cause.errors?.[0]?.message || cause.code || String(cause)
}

const app = buildApp({ env: process.env })

// ready() loads the plugins: the settings are read and checked, the pool and the stock client
// made. Neither connects yet, so a bad setting stops the start before anything listens or connects.
try {
  await app.ready()
} catch (err) {
  if (!(err instanceof ConfigError)) throw err
  console.error(`node-fastify: ${err.message}`)
  process.exit(1)
}

const { config } = app

try {
  await app.db.ping()
} catch (err) {
  console.error(`node-fastify: cannot reach the database at start: ${describe(err)}`)
  process.exit(1)
}

try {
  await app.listen({
    host: config.host,
    port: config.port,
    // Connections waiting to be accepted (README, "Limits"): Node's 511 overflows under a burst
    // of thousands while the one event loop is busy, and the kernel then drops or resets them.
    backlog: 4096,
    // Fastify's listen line, as the one line the contract asks for at start.
    listenTextResolver: (address) =>
      `node-fastify: Fastify ${version} on Node.js ${process.versions.node}, listening at ${address}, ` +
      `pool size ${config.poolSize}, 1 process`,
  })
} catch (err) {
  console.error(`node-fastify: cannot listen on ${config.host}:${config.port}: ${err.message}`)
  process.exit(1)
}

// close() stops accepting, answers 503 to requests that still arrive on open connections
// (return503OnClosing), closes keep-alive connections as they turn idle, waits for the requests
// in flight, then runs the plugins' onClose hooks (the database pool, the stock client). Whatever
// still hangs on at 8 s is cut, so the process exits within the contract's 10 s.
async function shutdown(signal) {
  app.log.info(`node-fastify: ${signal} received, finishing in-flight requests`)
  setTimeout(() => app.server.closeAllConnections(), 8000).unref()
  await app.close()
  process.exit(0)
}

process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
