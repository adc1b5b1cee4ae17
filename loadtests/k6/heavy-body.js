// heavy-body: creates and replacements of items with 5 KB descriptions; 30 → 60 VUs.
// Bodies per dialect: lib/dialects.js.
import {
  createItem, options as build, pick, recordWrite, replaceItem, summary, text, uniform, uniqueKey,
  SEEDED_CATEGORIES, SEEDED_ITEMS,
} from './lib/common.js';

const STAGES = [30, 60];
const ENDPOINTS = ['item_create', 'item_replace'];

export const options = build(STAGES, ENDPOINTS);

const DESCRIPTION = text(5 * 1024);

function item(sku) {
  return {
    sku, name: 'Heavy item', price: uniform(0, 9999999) / 100, stock: uniform(0, 500),
    description: DESCRIPTION, category: uniform(1, SEEDED_CATEGORIES),
  };
}

const requests = [
  [50, () => {
    const id = createItem(item(uniqueKey('H6-')));
    if (id !== null) recordWrite('item_created', id);
  }],
  [50, () => {
    const id = uniform(1, SEEDED_ITEMS);
    replaceItem(id, item(`SKU-${String(id).padStart(6, '0')}`));
  }],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('heavy-body', STAGES, ENDPOINTS, data);
}
