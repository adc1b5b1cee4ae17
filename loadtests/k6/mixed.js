// mixed: reads and writes on /items and /categories with 1 KB descriptions; 50 → 100 VUs.
// Every create and delete is recorded (recordWrite), so the runner can check that no write was lost.
// Paths and bodies per dialect: lib/dialects.js.
import {
  createCategory, createItem, deleteItem, get, options as build, pick, recordWrite, replaceItem, summary, text,
  uniform, uniqueKey, SEEDED_CATEGORIES, SEEDED_ITEMS,
} from './lib/common.js';
import { paths } from './lib/dialects.js';

const STAGES = [50, 100];
const ENDPOINTS = ['item_by_id', 'items_page', 'item_create', 'item_replace', 'item_delete',
  'category_by_id', 'category_create'];

export const options = build(STAGES, ENDPOINTS);

const DESCRIPTION = text(1024);
// Items this VU created and has not deleted yet: deletes take from here, so they expect a 204.
const created = [];

function item(sku) {
  return {
    sku, name: 'Load test item', price: uniform(0, 9999999) / 100, stock: uniform(0, 500),
    description: DESCRIPTION, category: uniform(1, SEEDED_CATEGORIES),
  };
}

function create() {
  const id = createItem(item(uniqueKey('K6-')));
  if (id !== null) {
    recordWrite('item_created', id);
    created.push(id);
  }
}

function remove() {
  if (created.length === 0) return create();
  const id = created.shift();
  // Logged before it is sent: a run stopped with the delete in flight still says it was sent.
  recordWrite('item_delete_sent', id);
  if (deleteItem(id)) recordWrite('item_deleted', id);
}

function replace() {
  // A seeded item keeps its own sku, so the replacement never collides with another row.
  const id = uniform(1, SEEDED_ITEMS);
  replaceItem(id, item(`SKU-${String(id).padStart(6, '0')}`));
}

function addCategory() {
  const id = createCategory({ code: uniqueKey('K'), name: 'Load test category' });
  if (id !== null) recordWrite('category_created', id);
}

const requests = [
  [35, () => get(paths.itemById(uniform(1, SEEDED_ITEMS)), 'item_by_id')],
  [15, () => get(paths.itemsPage(uniform(0, 49)), 'items_page')],
  [15, create],
  [10, replace],
  [10, remove],
  [10, () => get(paths.categoryById(uniform(1, SEEDED_CATEGORIES)), 'category_by_id')],
  [5, addCategory],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('mixed', STAGES, ENDPOINTS, data);
}
