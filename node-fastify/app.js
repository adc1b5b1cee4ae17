// The Fastify instance: its options (limits, validation, logging), the JSON parser, the error
// handlers, the plugins that hold the settings, the database pool and the stock client, and the
// routes. buildApp() is what server.js listens with and what the tests inject requests into, as
// Fastify's testing guide lays an application out.
import Fastify, { LogController } from 'fastify'
import underPressure from '@fastify/under-pressure'
import ajvErrors from 'ajv-errors'
import configuration, { logRequests } from './config.js'
import database from './db/index.js'
import { contractKeywords } from './lib/ajv.js'
import { onClientError } from './lib/connections.js'
import { exactJsonParser } from './lib/json.js'
import { bodyBudget } from './lib/limits.js'
import { methodNotAllowedRoutes, servedMethods } from './lib/methods.js'
import { notFoundHandler, problemHandler } from './lib/problems.js'
import avatarRoutes from './routes/avatar.js'
import categoryRoutes from './routes/categories.js'
import healthRoutes from './routes/health.js'
import itemRoutes from './routes/items.js'
import stockRoutes from './routes/stock.js'
import stockClient from './stock/index.js'

// spec/API.md: a body of up to 1 MiB.
export const BODY_LIMIT = 1024 * 1024

// How many body bytes the process reads at once (lib/limits.js; README, "Limits").
export const BODY_BUDGET = 8 * BODY_LIMIT

// A body larger than any valid item (16,384 characters of description, at most 12 bytes each as
// JSON escapes) is refused while the event loop was busy this share of the last half second
// (lib/limits.js; README, "Limits").
export const LARGE_BODY = 256 * 1024
export const BUSY_LOOP_SHARE = 0.9

// The error of a 500 is logged without the enumerable extras pino's serializer would add: pg's
// errors carry PostgreSQL's DETAIL ("Failing row contains (...)"), the request's own values.
function errorForLog(err) {
  return { type: err.constructor?.name, code: err.code, message: err.message, stack: err.stack }
}

export const LOGGER = { level: 'info', serializers: { err: errorForLog } }

// LOG_REQUESTS=true: one line per request when it completes, where Fastify writes two (one as it
// arrives); otherwise none.
class RequestLines extends LogController {
  incomingRequest() {}

  requestCompleted(error, request, reply) {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime }
    reply.log.info(line, 'request completed')
  }
}

// `env` holds the settings, as process.env does (server.js passes process.env, the tests their
// own); they are checked when the app starts, and a bad one rejects ready() and listen() with a
// ConfigError. The other options are Fastify's, over these (the tests give the logger a stream of
// their own).
export function buildApp({ env = {}, ...options } = {}) {
  const app = Fastify({
    logger: LOGGER,
    logController: logRequests(env) ? new RequestLines() : new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Node's http.Server settings (README, "Limits").
    http: { headersTimeout: 9_500, connectionsCheckingInterval: 500 },
    // The body's wait, Tomcat's 60 s. It runs from the accept (a later request: its first byte) to
    // the body's last byte, waits for the one event loop included (Node reads no more of a body
    // not yet consumed), so a shorter one cuts requests still queued behind a burst; oha waits
    // 60 s for each in the resilience case.
    requestTimeout: 60_000,
    routerOptions: {
      // The contract's longest request target: an id of any length is judged by the id check
      // (400), not turned away by the router (404). The default, 100, guards regular expressions
      // in parameters against long input; ID_PARAM's is `.+`.
      maxParamLength: 8000,
    },
    ajv: {
      customOptions: {
        // A 422 lists every invalid field. Write bodies have a fixed set of properties and no
        // arrays, so the errors Ajv collects stay a handful.
        allErrors: true,
        // "3" is no stock and true no price: a write body is taken as written. Path and query
        // values are validated as text (schemas.js), so nothing needs coercing.
        coerceTypes: false,
        allowUnionTypes: true,
      },
      plugins: [contractKeywords, ajvErrors],
    },
    clientErrorHandler: onClientError,
    ...options,
  })

  // RFC 9110 gives a DELETE's content no meaning, and the contract has a DELETE ignore a JSON
  // Content-Type: Fastify then reads no body (an empty one with that type would be a 400).
  app.addHttpMethod('DELETE', { hasBody: false, overrideExisting: true })

  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, exactJsonParser(app))
  // Measures the event loop's utilization over each half second (its default is the share since
  // the start, which a long idle start keeps low through any burst); with no threshold set it
  // refuses nothing itself: the body budget asks it.
  app.register(underPressure, { sampleInterval: 500, eventLoopUtilizationMode: 'interval' })
  app.addHook(
    'preParsing',
    bodyBudget({
      budgetBytes: BODY_BUDGET,
      bodyLimit: BODY_LIMIT,
      largeBytes: LARGE_BODY,
      busy: () => app.memoryUsage().eventLoopUtilized > BUSY_LOOP_SHARE,
    }),
  )

  app.setErrorHandler(problemHandler)
  app.setNotFoundHandler(notFoundHandler)

  // The settings first: the pool and the client take their options from them as they load (a
  // function given as options runs then, with the decorators of the plugins before it). Each
  // closes what it made in its own onClose hook.
  app.register(configuration, { env })
  app.register(database, ({ config }) => ({ connectionString: config.databaseUrl, max: config.poolSize }))
  app.register(stockClient, ({ config }) => ({ origin: config.stockUrl }))

  const served = servedMethods(app)
  app.register(categoryRoutes)
  app.register(itemRoutes)
  app.register(stockRoutes)
  app.register(avatarRoutes)
  app.register(healthRoutes)
  app.register(methodNotAllowedRoutes(served))
  return app
}
