import { Router } from 'express'
import { idParam, methodNotAllowed } from '../lib/http.js'
import { quantity } from '../stock/index.js'

const router = Router({ strict: true, caseSensitive: true })

// Asks the upstream only, never the database: it answers while PostgreSQL is down.
router
  .route('/items/:id/stock')
  .get(idParam, async (req, res) => {
    const id = res.locals.id
    const value = await quantity(id)
    // The id is a BigInt, which JSON.stringify cannot write: the body is assembled around it.
    res.type('json').send(`{"itemId":${id},"quantity":${value}}`)
  })
  .all(methodNotAllowed)

export default router
