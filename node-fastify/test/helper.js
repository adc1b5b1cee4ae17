// What every test file builds its app with, as Fastify's generated projects and fastify/demo do:
// build(t) makes the app for test `t` and closes it when `t` ends, which ends its database pool
// and stock client (their plugins' onClose hooks).
import { buildApp } from '../app.js'

// The settings the tests start the app with. DATABASE_URL is the runner's when it gives one
// (test/api.test.js needs the seeded database); the other files open no database connection,
// so any postgres:// URL does for them.
export const TEST_ENV = Object.freeze({
  DATABASE_URL: process.env.DATABASE_URL || 'postgres://bench:bench@127.0.0.1:5432/bench',
})

// `env` is laid over TEST_ENV; the other options are buildApp()'s (Fastify's), with the logger
// off unless a test gives one. The app is not ready yet, so a test may still add a route of its
// own; inject() and listen() make it ready.
export function build(t, { env, ...options } = {}) {
  const app = buildApp({ logger: false, ...options, env: { ...TEST_ENV, ...env } })
  t.after(() => app.close())
  return app
}

// inject() with a JSON Content-Type whenever there is a payload, unless the headers say otherwise.
export function sender(app) {
  return (method, url, payload, headers = payload === undefined ? {} : { 'content-type': 'application/json' }) =>
    app.inject({ method, url, payload, headers })
}
