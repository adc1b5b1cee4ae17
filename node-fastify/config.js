// The settings (spec/API.md, "Environment") and the plugin that decorates the instance with them.
// Nothing here reads process.env: server.js passes the environment to buildApp(), the tests pass
// their own, and the settings are read and checked when the app starts (the plugin loads), not
// when a module is imported. A missing or malformed setting is a ConfigError, which server.js
// writes as one line on stderr before it exits 1, before anything listens or connects.
import fp from 'fastify-plugin'

export class ConfigError extends Error {}

// Decimal digits and nothing else: Number() alone would also take " 80", "0x50", "8e1" or a
// blank, which it reads as 0, a random port.
const DIGITS = /^[0-9]+$/

function integer(env, name, fallback, min, max) {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!DIGITS.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function databaseUrl(env) {
  const raw = env.DATABASE_URL
  if (!raw) throw new ConfigError('DATABASE_URL is not set (expected postgres://user:password@host:port/database)')
  let url
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL (expected postgres://user:password@host:port/database)')
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL, got the scheme "${url.protocol}"`)
  }
  return raw
}

// The stock upstream's origin: http://, a host and a port, no path (one trailing slash is fine).
// The client speaks plain HTTP only. Empty is unset, as for every other setting here, so
// STOCK_URL= is the default, not an error.
function stockUrl(env) {
  const raw = env.STOCK_URL || 'http://127.0.0.1:8099'
  let url
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`STOCK_URL is not a URL (expected http://host:port), got "${raw}"`)
  }
  if (url.protocol !== 'http:' || !url.hostname || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new ConfigError(`STOCK_URL must be http://host:port with no path, got "${raw}"`)
  }
  return url.origin
}

// Read apart from the rest because it picks Fastify's logController, an option of the instance
// itself, fixed before any plugin runs. Anything but "true" is false, so it has nothing to check.
export function logRequests(env) {
  return (env.LOG_REQUESTS ?? '').toLowerCase() === 'true'
}

// `env` is an environment as process.env holds one: names to strings.
export function readConfig(env) {
  return Object.freeze({
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    databaseUrl: databaseUrl(env),
    poolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 10000),
    avatarBaseUrl: (env.AVATAR_BASE_URL || 'https://avatar.example.com').replace(/\/+$/, ''),
    avatarCount: integer(env, 'AVATAR_COUNT', 21, 1, Number.MAX_SAFE_INTEGER),
    logRequests: logRequests(env),
    stockUrl: stockUrl(env),
  })
}

// fastify-plugin, so that `fastify.config` is the root instance's, seen by every plugin after it.
export default fp(
  async function configuration(fastify, { env }) {
    fastify.decorate('config', readConfig(env))
  },
  { name: 'config' },
)
