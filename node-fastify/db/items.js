// SQL for items, always read with their category in the same statement (a join), so a page of
// items costs two statements however many items it holds: the count and the page. Each function
// takes the instance's `db` (db/index.js) first, as db/categories.js's do.
import { DuplicateKeyError, UnknownCategoryError } from './errors.js'
import { FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from './index.js'

const SELECT_JOINED = `SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id, i.updated_at,
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

// A write body's values, in the order of the INSERT and UPDATE below. `categoryId` may be a
// BigInt (past 2^53) and goes over as text; PostgreSQL reads either as a bigint.
function writeValues({ sku, name, price, stock, description, categoryId }) {
  return [sku, name, price, stock, description ?? null, String(categoryId)]
}

function writeError(err, { sku, categoryId }) {
  if (err.code === UNIQUE_VIOLATION) return new DuplicateKeyError(`sku ${sku} already exists`)
  if (err.code === FOREIGN_KEY_VIOLATION) return new UnknownCategoryError(`category ${categoryId} does not exist`)
  return err
}

async function page(db, countStatement, pageStatement, { offset, size }) {
  const { rows } = await db.query(countStatement)
  const { total, found = true } = rows[0]
  if (!found) return null
  if (offset >= BigInt(total)) return { content: [], total }
  const result = await db.query({ ...pageStatement, values: [...pageStatement.values, size, offset.toString()] })
  return { content: result.rows.map(toItem), total }
}

const FROM_JOINED = 'FROM item i JOIN category c ON c.id = i.category_id'

export function findPage(db, paging) {
  return page(
    db,
    { name: 'item-count', text: 'SELECT count(*) AS total FROM item' },
    { name: 'item-page', text: `${SELECT_JOINED} ${FROM_JOINED} ORDER BY i.id LIMIT $1 OFFSET $2`, values: [] },
    paging,
  )
}

const PAGE_IN_CATEGORY = {
  name: 'item-page-in-category',
  text: `${SELECT_JOINED} ${FROM_JOINED} WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3`,
}

// An unknown category is an empty page here (GET /items?categoryId=).
export function findPageInCategory(db, categoryId, paging) {
  return page(
    db,
    { name: 'item-count-in-category', text: 'SELECT count(*) AS total FROM item WHERE category_id = $1', values: [categoryId] },
    { ...PAGE_IN_CATEGORY, values: [categoryId] },
    paging,
  )
}

// null when the category does not exist (GET /categories/{id}/items): the count query tells.
export function findPageOfCategory(db, categoryId, paging) {
  return page(
    db,
    {
      name: 'item-count-of-category',
      text: `SELECT (SELECT count(*) FROM item WHERE category_id = $1) AS total,
                    EXISTS (SELECT 1 FROM category WHERE id = $1) AS found`,
      values: [categoryId],
    },
    { ...PAGE_IN_CATEGORY, values: [categoryId] },
    paging,
  )
}

export async function findById(db, id) {
  const { rows } = await db.query({
    name: 'item-by-id',
    text: `${SELECT_JOINED} ${FROM_JOINED} WHERE i.id = $1`,
    values: [id],
  })
  return rows.length ? toItem(rows[0]) : null
}

// The written row joined to its category in the same statement.
export async function create(db, item) {
  try {
    const { rows } = await db.query({
      name: 'item-insert',
      text: `WITH written AS (
               INSERT INTO item (sku, name, price, stock, description, category_id)
               VALUES ($1, $2, $3, $4, $5, $6) RETURNING *)
             ${SELECT_JOINED} FROM written i JOIN category c ON c.id = i.category_id`,
      values: writeValues(item),
    })
    return toItem(rows[0])
  } catch (err) {
    throw writeError(err, item)
  }
}

// null when no item has that id: the UPDATE then touches no row, so neither the sku nor the
// category is checked, and an absent item answers before either.
export async function replace(db, id, item) {
  try {
    const { rows } = await db.query({
      name: 'item-update',
      text: `WITH written AS (
               UPDATE item SET sku = $1, name = $2, price = $3, stock = $4, description = $5, category_id = $6,
                               updated_at = now()
               WHERE id = $7 RETURNING *)
             ${SELECT_JOINED} FROM written i JOIN category c ON c.id = i.category_id`,
      values: [...writeValues(item), id],
    })
    return rows.length ? toItem(rows[0]) : null
  } catch (err) {
    throw writeError(err, item)
  }
}

// false when no item has that id.
export async function remove(db, id) {
  const { rowCount } = await db.query({ name: 'item-delete', text: 'DELETE FROM item WHERE id = $1', values: [id] })
  return rowCount > 0
}
