import { Router } from 'express'
import * as items from '../db/items.js'
import { HttpError } from '../lib/errors.js'
import { idParam, jsonBody, methodNotAllowed, sendPage } from '../lib/http.js'
import { itemBody, parseBody, parseCategoryFilter, parsePaging } from '../lib/validation.js'

const router = Router({ strict: true, caseSensitive: true })

const notFound = (id) => new HttpError(404, `item ${id} not found`)

router
  .route('/items')
  .get(async (req, res) => {
    const paging = parsePaging(req.query)
    const categoryId = parseCategoryFilter(req.query)
    const window = { offset: paging.offset, limit: paging.size }
    const page =
      categoryId === undefined
        ? await items.findPage(window)
        : ((await items.findPageByCategory(categoryId, window)) ?? { total: 0, content: [] })
    sendPage(res, page, paging)
  })
  .post(jsonBody, async (req, res) => {
    const item = await items.create(parseBody(itemBody, req.body))
    res.status(201).location(`/items/${item.id}`).json(item)
  })
  .all(methodNotAllowed)

router
  .route('/items/:id')
  .get(idParam, async (req, res) => {
    const item = await items.findById(res.locals.id)
    if (!item) throw notFound(res.locals.id)
    res.json(item)
  })
  .put(idParam, jsonBody, async (req, res) => {
    const item = await items.update(res.locals.id, parseBody(itemBody, req.body))
    if (!item) throw notFound(res.locals.id)
    res.json(item)
  })
  .delete(idParam, async (req, res) => {
    if (!(await items.remove(res.locals.id))) throw notFound(res.locals.id)
    res.status(204).end()
  })
  .all(methodNotAllowed)

export default router
