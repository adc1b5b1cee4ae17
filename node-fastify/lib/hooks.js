// Route hooks that put the contract's order of errors (spec/API.md, "Which error answers first")
// where Fastify's lifecycle puts it otherwise. Fastify reads and parses the body (415, 413, 400)
// before it validates anything, params included; the contract wants a malformed path id (400)
// first. So the write routes check their params when the request arrives (onRequest), with the
// route's own compiled schema, and Fastify's validation after the body repeats that cheap check.
import { errorCodes } from 'fastify'

const { FST_ERR_CTP_INVALID_MEDIA_TYPE } = errorCodes

function validationError(errors, context) {
  const error = new Error(`${context} failed validation`)
  return Object.assign(error, { statusCode: 400, validation: errors, validationContext: context })
}

export async function paramsBeforeBody(request) {
  const validate = request.getValidationFunction('params')
  if (validate && !validate(request.params)) throw validationError(validate.errors, 'params')
}

// Fastify answers 415 for a body without a Content-Type, but a write with neither (no body at all)
// reaches validation, where it would be a 422. Without a Content-Type a write is a 415 either way.
export async function contentTypeRequired(request) {
  if (request.headers['content-type'] === undefined) throw new FST_ERR_CTP_INVALID_MEDIA_TYPE()
}

export const writeHooks = { onRequest: [paramsBeforeBody, contentTypeRequired] }
