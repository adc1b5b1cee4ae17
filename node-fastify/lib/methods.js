// 405 Method Not Allowed with an Allow header (spec/API.md, "Status codes"). Fastify answers 404
// for a known path with a method it does not serve; here every path gets one more route, for all
// the methods it does not serve, that answers 405 when the request arrives (onRequest), ahead of
// any id or body check: PATCH /items/abc is a 405.
import { METHODS } from 'node:http'
import { MethodNotAllowedError } from './problems.js'

// Which methods each path serves, as the routes are added (HEAD included, which Fastify adds
// for every GET).
export function servedMethods(fastify) {
  const served = new Map()
  fastify.addHook('onRoute', ({ url, method, config }) => {
    if (config?.methodNotAllowed) return
    const methods = served.get(url) ?? new Set()
    for (const one of [method].flat()) methods.add(one)
    served.set(url, methods)
  })
  return served
}

// Registered after the API's routes. Fastify routes only the methods it knows, so it learns every
// method Node's parser accepts (but CONNECT, which Node hands to a 'connect' listener, not a
// route): QUERY /items or PROPFIND /items is a 405 too, not a 404.
export function methodNotAllowedRoutes(served) {
  return async function methodNotAllowed(fastify) {
    for (const method of METHODS) {
      if (method !== 'CONNECT' && !fastify.supportedMethods.includes(method)) fastify.addHttpMethod(method, { hasBody: true })
    }
    for (const [url, methods] of served) {
      const allow = [...methods].join(', ')
      fastify.route({
        method: fastify.supportedMethods.filter((method) => !methods.has(method)),
        url,
        config: { methodNotAllowed: true },
        onRequest: async (request, reply) => {
          reply.header('allow', allow)
          throw new MethodNotAllowedError(request.method, allow)
        },
        handler: async () => {},
      })
    }
  }
}
