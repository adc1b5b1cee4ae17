// GET /items/{id}/stock: the one route that asks another service (`fastify.stock`,
// stock/index.js). It reads nothing from PostgreSQL, and the upstream, not this route, says
// whether the id names an item.
import * as schemas from '../schemas.js'

export default async function stockRoutes(fastify) {
  const { stock } = fastify
  fastify.get(
    `/items/${schemas.ID_PARAM}/stock`,
    { schema: { params: schemas.idParams, response: { 200: schemas.stock } } },
    async (request) => {
      const id = BigInt(request.params.id)
      return { itemId: id, quantity: await stock.quantity(id) }
    },
  )
}
