import { Router } from 'express'
import { ping } from '../db/index.js'
import { methodNotAllowed } from '../lib/http.js'

const router = Router({ strict: true, caseSensitive: true })

// A failing ping raises DatabaseUnavailableError, which the error middleware answers with 503.
router
  .route('/health')
  .get(async (req, res) => {
    await ping()
    res.json({ status: 'UP' })
  })
  .all(methodNotAllowed)

export default router
