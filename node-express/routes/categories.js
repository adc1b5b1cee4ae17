import { Router } from 'express'
import * as categories from '../db/categories.js'
import * as items from '../db/items.js'
import { HttpError } from '../lib/errors.js'
import { idParam, jsonBody, methodNotAllowed, sendPage } from '../lib/http.js'
import { categoryBody, parseBody, parsePaging } from '../lib/validation.js'

const router = Router({ strict: true, caseSensitive: true })

const notFound = (id) => new HttpError(404, `category ${id} not found`)

router
  .route('/categories')
  .get(async (req, res) => {
    const paging = parsePaging(req.query)
    sendPage(res, await categories.findPage({ offset: paging.offset, limit: paging.size }), paging)
  })
  .post(jsonBody, async (req, res) => {
    const category = await categories.create(parseBody(categoryBody, req.body))
    res.status(201).location(`/categories/${category.id}`).json(category)
  })
  .all(methodNotAllowed)

router
  .route('/categories/:id')
  .get(idParam, async (req, res) => {
    const category = await categories.findById(res.locals.id)
    if (!category) throw notFound(res.locals.id)
    res.json(category)
  })
  .put(idParam, jsonBody, async (req, res) => {
    const category = await categories.update(res.locals.id, parseBody(categoryBody, req.body))
    if (!category) throw notFound(res.locals.id)
    res.json(category)
  })
  .delete(idParam, async (req, res) => {
    if (!(await categories.remove(res.locals.id))) throw notFound(res.locals.id)
    res.status(204).end()
  })
  .all(methodNotAllowed)

router
  .route('/categories/:id/items')
  .get(idParam, async (req, res) => {
    const paging = parsePaging(req.query)
    const page = await items.findPageByCategory(res.locals.id, { offset: paging.offset, limit: paging.size })
    if (!page) throw notFound(res.locals.id)
    sendPage(res, page, paging)
  })
  .all(methodNotAllowed)

export default router
