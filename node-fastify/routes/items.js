// /items and /items/{id}: HTTP only.
import * as items from '../db/items.js'
import { writeHooks } from '../lib/hooks.js'
import { pageOf, pagingOf } from '../lib/paging.js'
import { NotFoundError } from '../lib/problems.js'
import * as schemas from '../schemas.js'

const itemPage = schemas.pageOf(schemas.item)

function notFound(id) {
  return new NotFoundError(`item ${id} not found`)
}

export default async function itemRoutes(fastify) {
  const { db } = fastify
  fastify.get('/items', { schema: { querystring: schemas.itemsQuery, response: { 200: itemPage } } }, async (request) => {
    const paging = pagingOf(request.query)
    const { categoryId } = request.query
    const found =
      categoryId === undefined ? await items.findPage(db, paging) : await items.findPageInCategory(db, BigInt(categoryId), paging)
    return pageOf(found, paging)
  })

  fastify.post('/items', { ...writeHooks, schema: { body: schemas.itemBody, response: { 201: schemas.item } } }, async (request, reply) => {
    const created = await items.create(db, request.body)
    return reply.code(201).header('location', `/items/${created.id}`).send(created)
  })

  const byId = { params: schemas.idParams, response: { 200: schemas.item } }

  fastify.get(`/items/${schemas.ID_PARAM}`, { schema: byId }, async (request) => {
    const id = BigInt(request.params.id)
    const found = await items.findById(db, id)
    if (!found) throw notFound(id)
    return found
  })

  fastify.put(`/items/${schemas.ID_PARAM}`, { ...writeHooks, schema: { ...byId, body: schemas.itemBody } }, async (request) => {
    const id = BigInt(request.params.id)
    const replaced = await items.replace(db, id, request.body)
    if (!replaced) throw notFound(id)
    return replaced
  })

  fastify.delete(`/items/${schemas.ID_PARAM}`, { schema: { params: schemas.idParams } }, async (request, reply) => {
    const id = BigInt(request.params.id)
    if (!(await items.remove(db, id))) throw notFound(id)
    return reply.code(204).send()
  })
}
