// SQL for the item table. Every read joins the category it embeds: one statement per page,
// never one per item. Absent rows come back as null; the constraint violations a write can
// cause, told apart by SQLSTATE, as domain errors; any other error as it is (a 500).
import { query, UNIQUE_VIOLATION, FOREIGN_KEY_VIOLATION } from './index.js'
import { DuplicateKeyError, UnknownCategoryError } from './errors.js'

const COLUMNS = `i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id, i.updated_at,
  c.code AS category_code, c.name AS category_name`

function toItem(row) {
  return {
    id: row.id,
    sku: row.sku,
    name: row.name,
    price: row.price,
    stock: row.stock,
    description: row.description,
    categoryId: row.category_id,
    category: { id: row.category_id, code: row.category_code, name: row.category_name },
    updatedAt: row.updated_at,
  }
}

async function page(total, offset, statement) {
  if (offset >= total) return { total, content: [] }
  const { rows } = await query(statement)
  return { total, content: rows.map(toItem) }
}

export async function findPage({ offset, limit }) {
  const { rows: [{ total }] } = await query({ name: 'item-count', text: 'SELECT count(*) AS total FROM item' })
  return page(total, offset, {
    name: 'item-page',
    text: `SELECT ${COLUMNS} FROM item i JOIN category c ON c.id = i.category_id ORDER BY i.id LIMIT $1 OFFSET $2`,
    values: [limit, offset],
  })
}

// null when the category itself does not exist.
export async function findPageByCategory(categoryId, { offset, limit }) {
  const { rows: [{ found, total }] } = await query({
    name: 'item-count-by-category',
    text: `SELECT EXISTS (SELECT 1 FROM category WHERE id = $1) AS found,
                  (SELECT count(*) FROM item WHERE category_id = $1) AS total`,
    values: [categoryId],
  })
  if (!found) return null
  return page(total, offset, {
    name: 'item-page-by-category',
    text: `SELECT ${COLUMNS} FROM item i JOIN category c ON c.id = i.category_id
           WHERE i.category_id = $3 ORDER BY i.id LIMIT $1 OFFSET $2`,
    values: [limit, offset, categoryId],
  })
}

export async function findById(id) {
  const { rows } = await query({
    name: 'item-by-id',
    text: `SELECT ${COLUMNS} FROM item i JOIN category c ON c.id = i.category_id WHERE i.id = $1`,
    values: [id],
  })
  return rows[0] ? toItem(rows[0]) : null
}

// PostgreSQL checks unique keys as it writes the row and foreign keys at the end of the
// statement, so a taken sku is reported before an unknown category, as API.md orders them.
function writeError(err, item) {
  if (err.code === UNIQUE_VIOLATION) return new DuplicateKeyError(`sku ${item.sku} already exists`)
  if (err.code === FOREIGN_KEY_VIOLATION) return new UnknownCategoryError(`category ${item.categoryId} does not exist`)
  return err
}

const itemValues = (item) => [item.sku, item.name, item.price, item.stock, item.description, item.categoryId]

export async function create(item) {
  try {
    const { rows } = await query({
      name: 'item-insert',
      text: `WITH i AS (
               INSERT INTO item (sku, name, price, stock, description, category_id)
               VALUES ($1, $2, $3, $4, $5, $6) RETURNING *)
             SELECT ${COLUMNS} FROM i JOIN category c ON c.id = i.category_id`,
      values: itemValues(item),
    })
    return toItem(rows[0])
  } catch (err) {
    throw writeError(err, item)
  }
}

export async function update(id, item) {
  try {
    const { rows } = await query({
      name: 'item-update',
      text: `WITH i AS (
               UPDATE item SET sku = $1, name = $2, price = $3, stock = $4, description = $5,
                               category_id = $6, updated_at = now()
               WHERE id = $7 RETURNING *)
             SELECT ${COLUMNS} FROM i JOIN category c ON c.id = i.category_id`,
      values: [...itemValues(item), id],
    })
    return rows[0] ? toItem(rows[0]) : null
  } catch (err) {
    throw writeError(err, item)
  }
}

// true when a row was deleted, false when there was none.
export async function remove(id) {
  const { rowCount } = await query({ name: 'item-delete', text: 'DELETE FROM item WHERE id = $1', values: [id] })
  return rowCount > 0
}
