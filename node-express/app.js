// The Express application, exported for server.js and the tests; it never listens itself.
import express from 'express'
import morgan from 'morgan'
import { config } from './config.js'
import { notFoundHandler, problemHandler } from './lib/errors.js'
import routes from './routes/index.js'

const app = express()

// No ETag: every response is computed fresh (no conditional 304s), and hashing bodies costs CPU.
app.set('etag', false)
app.disable('x-powered-by')

if (config.logRequests) app.use(morgan('short'))

app.use(routes)
app.use(notFoundHandler)
app.use(problemHandler)

export default app
