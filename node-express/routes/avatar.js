import { Router } from 'express'
import { config } from '../config.js'
import { methodNotAllowed } from '../lib/http.js'

const router = Router({ strict: true, caseSensitive: true })

router
  .route('/avatar')
  .get((req, res) => {
    const n = 1 + Math.floor(Math.random() * config.avatarCount)
    // res.redirect() would add an HTML body; API.md wants a bare 302.
    res.status(302).location(`${config.avatarBaseUrl}/Renard-${n}.png`).end()
  })
  .all(methodNotAllowed)

export default router
