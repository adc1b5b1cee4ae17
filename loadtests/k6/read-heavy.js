// read-heavy: 50% item pages, 20% items of a category (filter), 20% items of a category
// (nested route), 10% category pages; 50 → 100 → 200 VUs. See lib/common.js for the environment.
import { get, options as build, pick, summary, uniform, SEEDED_CATEGORIES } from './lib/common.js';

const STAGES = [50, 100, 200];
const ENDPOINTS = ['items_page', 'items_by_category', 'category_items', 'categories_page'];

export const options = build(STAGES, ENDPOINTS);

const requests = [
  [50, () => get(`/items?page=${uniform(0, 49)}`, 'items_page')],
  [20, () => get(`/items?categoryId=${uniform(1, SEEDED_CATEGORIES)}`, 'items_by_category')],
  [20, () => get(`/categories/${uniform(1, SEEDED_CATEGORIES)}/items`, 'category_items')],
  [10, () => get(`/categories?page=${uniform(0, 99)}`, 'categories_page')],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('read-heavy', STAGES, ENDPOINTS, data);
}
