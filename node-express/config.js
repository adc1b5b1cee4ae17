// The only module that reads the environment. Invalid settings stop the process at once with a
// one-line message, before anything listens or connects. readConfig() is the reading itself, an
// environment in and the settings out, so that the tests can give it environments of their own.

export class ConfigError extends Error {}

// Decimal digits and nothing else: Number() alone would also take " 80", "0x50", "8e1" or a
// blank, which it reads as 0, a random port.
const DIGITS = /^[0-9]+$/

function integer(env, name, fallback, min, max) {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!DIGITS.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`)
  }
  return value
}

function databaseUrl(env) {
  const raw = env.DATABASE_URL
  if (!raw) throw new ConfigError('DATABASE_URL is not set (expected postgres://user:pass@host:port/db)')
  let url
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL (expected postgres://user:pass@host:port/db)')
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(`DATABASE_URL must use the postgres:// scheme, got "${url.protocol}"`)
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

export function readConfig(env) {
  return Object.freeze({
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    databaseUrl: databaseUrl(env),
    poolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 10000),
    avatarBaseUrl: (env.AVATAR_BASE_URL || 'https://avatar.example.com').replace(/\/+$/, ''),
    avatarCount: integer(env, 'AVATAR_COUNT', 21, 1, Number.MAX_SAFE_INTEGER),
    logRequests: (env.LOG_REQUESTS ?? '').toLowerCase() === 'true',
    stockUrl: stockUrl(env),
  })
}

function fromEnvironment() {
  try {
    return readConfig(process.env)
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    console.error(`node-express: ${err.message}`)
    process.exit(1)
  }
}

export const config = fromEnvironment()
