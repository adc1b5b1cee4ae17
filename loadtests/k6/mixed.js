// mixed: reads and writes on /items and /categories with 1 KB descriptions; 50 → 100 VUs.
// Every create and delete is recorded (recordWrite), so the runner can check that no write was lost.
import {
  del, get, options as build, pick, post, put, recordWrite, summary, text, uniform, uniqueKey,
  SEEDED_CATEGORIES, SEEDED_ITEMS,
} from './lib/common.js';

const STAGES = [50, 100];
const ENDPOINTS = ['item_by_id', 'items_page', 'item_create', 'item_replace', 'item_delete',
  'category_by_id', 'category_create'];

export const options = build(STAGES, ENDPOINTS);

const DESCRIPTION = text(1024);
// Items this VU created and has not deleted yet: deletes take from here, so they expect a 204.
const created = [];

function itemBody(sku) {
  return JSON.stringify({
    sku, name: 'Load test item', price: uniform(0, 9999999) / 100, stock: uniform(0, 500),
    description: DESCRIPTION, categoryId: uniform(1, SEEDED_CATEGORIES),
  });
}

function createItem() {
  const res = post('/items', itemBody(uniqueKey('K6-')), 'item_create');
  if (res.status === 201) {
    const { id } = JSON.parse(res.body);
    recordWrite('item_created', id);
    created.push(id);
  }
}

function deleteItem() {
  if (created.length === 0) return createItem();
  const id = created.shift();
  recordWrite(del(`/items/${id}`, 'item_delete').status === 204 ? 'item_deleted' : 'item_delete_unconfirmed', id);
}

function replaceItem() {
  // A seeded item keeps its own sku, so the replacement never collides with another row.
  const id = uniform(1, SEEDED_ITEMS);
  put(`/items/${id}`, itemBody(`SKU-${String(id).padStart(6, '0')}`), 'item_replace');
}

function createCategory() {
  const res = post('/categories', JSON.stringify({ code: uniqueKey('K'), name: 'Load test category' }),
    'category_create');
  if (res.status === 201) recordWrite('category_created', JSON.parse(res.body).id);
}

const requests = [
  [35, () => get(`/items/${uniform(1, SEEDED_ITEMS)}`, 'item_by_id')],
  [15, () => get(`/items?page=${uniform(0, 49)}`, 'items_page')],
  [15, createItem],
  [10, replaceItem],
  [10, deleteItem],
  [10, () => get(`/categories/${uniform(1, SEEDED_CATEGORIES)}`, 'category_by_id')],
  [5, createCategory],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('mixed', STAGES, ENDPOINTS, data);
}
