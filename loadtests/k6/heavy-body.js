// heavy-body: creates and replacements of items with 5 KB descriptions; 30 → 60 VUs.
import {
  options as build, pick, post, put, recordWrite, summary, text, uniform, uniqueKey,
  SEEDED_CATEGORIES, SEEDED_ITEMS,
} from './lib/common.js';

const STAGES = [30, 60];
const ENDPOINTS = ['item_create', 'item_replace'];

export const options = build(STAGES, ENDPOINTS);

const DESCRIPTION = text(5 * 1024);

function body(sku) {
  return JSON.stringify({
    sku, name: 'Heavy item', price: uniform(0, 9999999) / 100, stock: uniform(0, 500),
    description: DESCRIPTION, categoryId: uniform(1, SEEDED_CATEGORIES),
  });
}

const requests = [
  [50, () => {
    const res = post('/items', body(uniqueKey('H6-')), 'item_create');
    if (res.status === 201) recordWrite('item_created', JSON.parse(res.body).id);
  }],
  [50, () => {
    const id = uniform(1, SEEDED_ITEMS);
    put(`/items/${id}`, body(`SKU-${String(id).padStart(6, '0')}`), 'item_replace');
  }],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('heavy-body', STAGES, ENDPOINTS, data);
}
