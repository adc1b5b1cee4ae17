// The one place that turns errors into RFC 9457 problem JSON (spec/API.md, "Errors"): Fastify's
// error handler and not-found handler. Schema validation fails with Fastify's `validation`
// errors, the routes and hooks raise the errors below, data access and the stock client raise their domain
// errors, and Fastify's own client errors (415, 413, a body that is not JSON) carry a statusCode.
// Anything else is a bug: a logged 500 with a generic detail.
import { STATUS_CODES } from 'node:http'
import createError from '@fastify/error'
import { CategoryInUseError, DatabaseUnavailableError, DuplicateKeyError, UnknownCategoryError } from '../db/errors.js'
import { StockNotFoundError, UpstreamFailedError, UpstreamTimeoutError } from '../stock/errors.js'

// The HTTP layer's own errors, made as Fastify makes its own (each with its statusCode).
export const NotFoundError = createError('APP_NOT_FOUND', '%s', 404)
export const MethodNotAllowedError = createError('APP_METHOD_NOT_ALLOWED', 'method %s is not allowed here, only %s', 405)
export const ServerBusyError = createError('APP_SERVER_BUSY', 'the server is busy, try again shortly', 503)

// RFC 9110's reason phrases. Node's STATUS_CODES still has RFC 7231's for these two
// ("Payload Too Large", "Unprocessable Entity").
const TITLES = { ...STATUS_CODES, 413: 'Content Too Large', 422: 'Unprocessable Content' }

// Fastify's own client errors, in words of the API. Others keep Fastify's message.
const FASTIFY_DETAILS = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request body is larger than 1 MiB',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is not valid JSON: it is empty',
  FST_ERR_CTP_INVALID_JSON_BODY: 'request body is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request body does not match its Content-Length',
}

// A field's name from an Ajv error: its instance path ("/price"), or for a missing property the
// property; "" is the body (or the query) as a whole.
function fieldOf(error) {
  return error.params?.missingProperty ?? error.instancePath.split('/')[1] ?? ''
}

// One entry per field, its first problem; ajv-errors has already put each field's message.
function fieldErrors(validation) {
  const byField = new Map()
  for (const error of validation) {
    const field = fieldOf(error)
    if (!byField.has(field)) byField.set(field, error.keyword === 'required' ? 'is required' : error.message)
  }
  return [...byField].map(([field, message]) => ({ field, message }))
}

export function toProblem(error) {
  if (error.validation) {
    const errors = fieldErrors(error.validation)
    if (error.validationContext === 'body') return { status: 422, detail: 'request body is not a valid write body', errors }
    return { status: 400, detail: errors.map(({ field, message }) => `${field} ${message}`).join('; ') }
  }
  if (error instanceof DuplicateKeyError || error instanceof CategoryInUseError) return { status: 409, detail: error.message }
  if (error instanceof UnknownCategoryError) {
    return { status: 422, detail: error.message, errors: [{ field: 'categoryId', message: error.message }] }
  }
  if (error instanceof DatabaseUnavailableError) return { status: 503, detail: 'the database is unavailable, try again shortly' }
  if (error instanceof StockNotFoundError) return { status: 404, detail: error.message }
  if (error instanceof UpstreamFailedError) return { status: 502, detail: 'the stock service gave no usable answer' }
  if (error instanceof UpstreamTimeoutError) return { status: 504, detail: 'the stock service did not answer in time' }
  if ((error.statusCode >= 400 && error.statusCode < 500) || error.statusCode === 503) {
    return { status: error.statusCode, detail: FASTIFY_DETAILS[error.code] ?? error.message }
  }
  return { status: 500, detail: 'an unexpected error occurred' }
}

// Headers a hook set before raising (Allow on a 405, Connection on a 503) stay on the reply.
export function sendProblem(reply, { status, detail, errors }) {
  return reply
    .code(status)
    .type('application/problem+json')
    .send({ type: 'about:blank', title: TITLES[status], status, detail, ...(errors && { errors }) })
}

export function problemHandler(error, request, reply) {
  const problem = toProblem(error)
  if (problem.status === 500) request.log.error({ err: error }, `${request.method} ${request.routeOptions.url ?? request.url} failed`)
  // The upstream's fault, not a bug here: one line saying what it did, no stack.
  if (problem.status === 502 || problem.status === 504) request.log.warn(`stock upstream: ${error.message}`)
  return sendProblem(reply, problem)
}

export function notFoundHandler(request, reply) {
  return sendProblem(reply, { status: 404, detail: `no resource at ${request.url.split('?', 1)[0]}` })
}
