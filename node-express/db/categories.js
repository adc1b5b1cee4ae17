// SQL for the category table. Absent rows come back as null; the constraint violations a write
// can cause, told apart by SQLSTATE, as domain errors; any other error as it is (a 500).
import { query, UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION } from './index.js'
import { CategoryInUseError, DuplicateKeyError } from './errors.js'

const COLUMNS = 'id, code, name, updated_at AS "updatedAt"'

export async function findPage({ offset, limit }) {
  const { rows: [{ total }] } = await query({ name: 'category-count', text: 'SELECT count(*) AS total FROM category' })
  if (offset >= total) return { total, content: [] }
  const { rows } = await query({
    name: 'category-page',
    text: `SELECT ${COLUMNS} FROM category ORDER BY id LIMIT $1 OFFSET $2`,
    values: [limit, offset],
  })
  return { total, content: rows }
}

export async function findById(id) {
  const { rows } = await query({
    name: 'category-by-id',
    text: `SELECT ${COLUMNS} FROM category WHERE id = $1`,
    values: [id],
  })
  return rows[0] ?? null
}

function duplicateCode(err, code) {
  return err.code === UNIQUE_VIOLATION ? new DuplicateKeyError(`code ${code} already exists`) : err
}

export async function create({ code, name }) {
  try {
    const { rows } = await query({
      name: 'category-insert',
      text: `INSERT INTO category (code, name) VALUES ($1, $2) RETURNING ${COLUMNS}`,
      values: [code, name],
    })
    return rows[0]
  } catch (err) {
    throw duplicateCode(err, code)
  }
}

export async function update(id, { code, name }) {
  try {
    const { rows } = await query({
      name: 'category-update',
      text: `UPDATE category SET code = $2, name = $3, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
      values: [id, code, name],
    })
    return rows[0] ?? null
  } catch (err) {
    throw duplicateCode(err, code)
  }
}

// true when a row was deleted, false when there was none.
export async function remove(id) {
  try {
    const { rowCount } = await query({ name: 'category-delete', text: 'DELETE FROM category WHERE id = $1', values: [id] })
    return rowCount > 0
  } catch (err) {
    throw err.code === FOREIGN_KEY_VIOLATION ? new CategoryInUseError(`category ${id} still has items`) : err
  }
}
