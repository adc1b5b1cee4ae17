// outbound: one random item's stock, which the stack asks the stock upstream for (loadtests/upstream:
// 1-50 ms per answer), so every request waits on an HTTP call and no row is read; 200 VUs without
// think time. The same path in every dialect. The runner sends this mix with oha from a URL list
// (loadtests/bench/measure/load/urls.py); the stack needs STOCK_URL (./bench serve starts the upstream).
import { get, options as build, summary, uniform, SEEDED_ITEMS } from './lib/common.js';

const STAGES = [200];
const ENDPOINTS = ['item_stock'];

export const options = build(STAGES, ENDPOINTS);

const itemStock = (id) => `/items/${id}/stock`;

export default function () {
  get(itemStock(uniform(1, SEEDED_ITEMS)), 'item_stock');
}

export function handleSummary(data) {
  return summary('outbound', STAGES, ENDPOINTS, data);
}
