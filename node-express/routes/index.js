// Mounts every router; app.js mounts this one. The routers spell out full paths rather than being
// mounted under a prefix: a mounted router sees both /items and /items/ as "/", and API.md wants
// /items/ to be a 404.
import { Router } from 'express'
import avatar from './avatar.js'
import categories from './categories.js'
import health from './health.js'
import items from './items.js'
import stock from './stock.js'

const router = Router({ strict: true, caseSensitive: true })

router.use(categories, items, stock, avatar, health)

export default router
