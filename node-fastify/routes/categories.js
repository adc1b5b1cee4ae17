// /categories, /categories/{id} and /categories/{id}/items: HTTP only.
import * as categories from '../db/categories.js'
import * as items from '../db/items.js'
import { writeHooks } from '../lib/hooks.js'
import { pageOf, pagingOf } from '../lib/paging.js'
import { NotFoundError } from '../lib/problems.js'
import * as schemas from '../schemas.js'

const categoryPage = schemas.pageOf(schemas.category)
const itemPage = schemas.pageOf(schemas.item)

function notFound(id) {
  return new NotFoundError(`category ${id} not found`)
}

export default async function categoryRoutes(fastify) {
  const { db } = fastify
  fastify.get('/categories', { schema: { querystring: schemas.pagingQuery, response: { 200: categoryPage } } }, async (request) => {
    const paging = pagingOf(request.query)
    return pageOf(await categories.findPage(db, paging), paging)
  })

  fastify.post(
    '/categories',
    { ...writeHooks, schema: { body: schemas.categoryBody, response: { 201: schemas.category } } },
    async (request, reply) => {
      const created = await categories.create(db, request.body)
      return reply.code(201).header('location', `/categories/${created.id}`).send(created)
    },
  )

  const byId = { params: schemas.idParams, response: { 200: schemas.category } }

  fastify.get(`/categories/${schemas.ID_PARAM}`, { schema: byId }, async (request) => {
    const id = BigInt(request.params.id)
    const found = await categories.findById(db, id)
    if (!found) throw notFound(id)
    return found
  })

  fastify.put(`/categories/${schemas.ID_PARAM}`, { ...writeHooks, schema: { ...byId, body: schemas.categoryBody } }, async (request) => {
    const id = BigInt(request.params.id)
    const replaced = await categories.replace(db, id, request.body)
    if (!replaced) throw notFound(id)
    return replaced
  })

  fastify.delete(`/categories/${schemas.ID_PARAM}`, { schema: { params: schemas.idParams } }, async (request, reply) => {
    const id = BigInt(request.params.id)
    if (!(await categories.remove(db, id))) throw notFound(id)
    return reply.code(204).send()
  })

  fastify.get(
    `/categories/${schemas.ID_PARAM}/items`,
    { schema: { params: schemas.idParams, querystring: schemas.pagingQuery, response: { 200: itemPage } } },
    async (request) => {
      const id = BigInt(request.params.id)
      const paging = pagingOf(request.query)
      const found = await items.findPageOfCategory(db, id, paging)
      if (!found) throw notFound(id)
      return pageOf(found, paging)
    },
  )
}
