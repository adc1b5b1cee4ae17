// The only module that reads the environment (spec/API.md, "Environment"). A missing or malformed
// setting stops the process at once with one line on stderr, before anything listens or connects.

const env = process.env

function fail(message) {
  console.error(`node-fastify: ${message}`)
  process.exit(1)
}

function integer(name, fallback, min, max) {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!/^[0-9]+$/.test(raw) || value < min || value > max) {
    fail(`${name} must be an integer from ${min} to ${max}, got "${raw}"`)
  }
  return value
}

function databaseUrl() {
  const raw = env.DATABASE_URL
  if (!raw) fail('DATABASE_URL is not set (expected postgres://user:password@host:port/database)')
  let url
  try {
    url = new URL(raw)
  } catch {
    fail('DATABASE_URL is not a URL (expected postgres://user:password@host:port/database)')
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    fail(`DATABASE_URL must be a postgres:// URL, got the scheme "${url.protocol}"`)
  }
  return raw
}

// The stock upstream's origin: http://, a host and a port, no path; one trailing slash is fine.
function stockUrl() {
  const raw = env.STOCK_URL || 'http://127.0.0.1:8099'
  let url
  try {
    url = new URL(raw)
  } catch {
    fail(`STOCK_URL is not a URL (expected http://host:port), got "${raw}"`)
  }
  if (url.protocol !== 'http:' || !url.hostname || url.pathname !== '/' || url.search || url.hash || url.username) {
    fail(`STOCK_URL must be http://host:port with no path, got "${raw}"`)
  }
  return url.origin
}

export const config = Object.freeze({
  host: env.HOST || '127.0.0.1',
  port: integer('PORT', 8080, 0, 65535),
  databaseUrl: databaseUrl(),
  poolSize: integer('DB_POOL_SIZE', 10, 1, 10000),
  avatarBaseUrl: (env.AVATAR_BASE_URL || 'https://avatar.example.com').replace(/\/+$/, ''),
  avatarCount: integer('AVATAR_COUNT', 21, 1, Number.MAX_SAFE_INTEGER),
  logRequests: (env.LOG_REQUESTS ?? '').toLowerCase() === 'true',
  stockUrl: stockUrl(),
})
