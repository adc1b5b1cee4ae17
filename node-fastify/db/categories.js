// SQL for categories. Writes go straight to PostgreSQL and its constraint errors say what went
// wrong: nothing is checked first. Each function takes the instance's `db` (db/index.js) first:
// the pool belongs to the app, not to this module.
import { CategoryInUseError, DuplicateKeyError } from './errors.js'
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from './index.js'

const COLUMNS = 'id, code, name, updated_at'

function toCategory(row) {
  return { id: row.id, code: row.code, name: row.name, updatedAt: row.updated_at }
}

function duplicateCode(err, code) {
  return err.code === UNIQUE_VIOLATION ? new DuplicateKeyError(`code ${code} already exists`) : err
}

// `offset` is a BigInt: page × size may pass 64 bits, so the page query runs only when the page
// starts before the end.
export async function findPage(db, { offset, size }) {
  const { rows } = await db.query({ name: 'category-count', text: 'SELECT count(*) AS total FROM category' })
  const total = rows[0].total
  if (offset >= BigInt(total)) return { content: [], total }
  const page = await db.query({
    name: 'category-page',
    text: `SELECT ${COLUMNS} FROM category ORDER BY id LIMIT $1 OFFSET $2`,
    values: [size, offset.toString()],
  })
  return { content: page.rows.map(toCategory), total }
}

export async function findById(db, id) {
  const { rows } = await db.query({ name: 'category-by-id', text: `SELECT ${COLUMNS} FROM category WHERE id = $1`, values: [id] })
  return rows.length ? toCategory(rows[0]) : null
}

export async function create(db, { code, name }) {
  try {
    const { rows } = await db.query({
      name: 'category-insert',
      text: `INSERT INTO category (code, name) VALUES ($1, $2) RETURNING ${COLUMNS}`,
      values: [code, name],
    })
    return toCategory(rows[0])
  } catch (err) {
    throw duplicateCode(err, code)
  }
}

// null when no category has that id.
export async function replace(db, id, { code, name }) {
  try {
    const { rows } = await db.query({
      name: 'category-update',
      text: `UPDATE category SET code = $2, name = $3, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      values: [id, code, name],
    })
    return rows.length ? toCategory(rows[0]) : null
  } catch (err) {
    throw duplicateCode(err, code)
  }
}

// false when no category has that id.
export async function remove(db, id) {
  try {
    const { rowCount } = await db.query({ name: 'category-delete', text: 'DELETE FROM category WHERE id = $1', values: [id] })
    return rowCount > 0
  } catch (err) {
    throw err.code === FOREIGN_KEY_VIOLATION ? new CategoryInUseError(`category ${id} still has items`) : err
  }
}
