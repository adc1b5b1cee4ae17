// join-filter: 70% items of a random category, 30% one random item (with its category);
// 60 → 120 VUs. Paths per dialect: lib/dialects.js.
import { get, options as build, pick, summary, uniform, SEEDED_CATEGORIES, SEEDED_ITEMS } from './lib/common.js';
import { paths } from './lib/dialects.js';

const STAGES = [60, 120];
const ENDPOINTS = ['items_by_category', 'item_by_id'];

export const options = build(STAGES, ENDPOINTS);

const requests = [
  [70, () => get(paths.itemsByCategory(uniform(1, SEEDED_CATEGORIES)), 'items_by_category')],
  [30, () => get(paths.itemById(uniform(1, SEEDED_ITEMS)), 'item_by_id')],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('join-filter', STAGES, ENDPOINTS, data);
}
