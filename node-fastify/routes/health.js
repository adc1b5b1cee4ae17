// GET /health: SELECT 1 on a pooled connection; a database that does not answer is the error
// handler's 503.
import * as schemas from '../schemas.js'

export default async function healthRoutes(fastify) {
  const { db } = fastify
  fastify.get('/health', { schema: { response: { 200: schemas.health } } }, async () => {
    await db.ping()
    return { status: 'UP' }
  })
}
