// read-heavy: 50% item pages, 20% items of a category (filter), 20% items of a category
// (nested route), 10% category pages; 50 → 100 → 200 VUs. See lib/common.js for the environment
// and lib/dialects.js for the paths of each dialect.
import { get, options as build, pick, summary, uniform, SEEDED_CATEGORIES } from './lib/common.js';
import { paths } from './lib/dialects.js';

const STAGES = [50, 100, 200];
const ENDPOINTS = ['items_page', 'items_by_category', 'category_items', 'categories_page'];

export const options = build(STAGES, ENDPOINTS);

const requests = [
  [50, () => get(paths.itemsPage(uniform(0, 49)), 'items_page')],
  [20, () => get(paths.itemsByCategory(uniform(1, SEEDED_CATEGORIES)), 'items_by_category')],
  [20, () => get(paths.categoryItems(uniform(1, SEEDED_CATEGORIES)), 'category_items')],
  [10, () => get(paths.categoriesPage(uniform(0, 99)), 'categories_page')],
];

export default function () {
  pick(requests)();
}

export function handleSummary(data) {
  return summary('read-heavy', STAGES, ENDPOINTS, data);
}
