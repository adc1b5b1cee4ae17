// The operations of the scenarios, in each dialect a stack may serve (spec/hal.md): the paths,
// the write bodies and the statuses that answer each operation, in one table per dialect, so
// every scenario sends the same operations on the same data to every stack.
//
// Environment: DIALECT (api | hal, default api). The runner passes the stack's manifest
// `dialect`; a script run by hand speaks the API's dialect unless told `-e DIALECT=hal`.
//
// An operation is the unit of every figure (requests/s, latency, CPU and SQL per request): one
// operation is one request in the API's dialect, and in the HAL dialect too except the replace
// of an item, which is two there (common.js's replaceItem).

export const DIALECT = __ENV.DIALECT || 'api';

// The write body of an item: the same field values in every dialect; only how the category is
// named (`category`, a JSON member) differs. A script sends one description (1 or 5 KB) in
// every body, so it is JSON-encoded once, not on every request.
let described = null;
let describedJson = '';
function itemJson({ sku, name, price, stock, description }, category) {
  if (description !== described) {
    described = description;
    describedJson = JSON.stringify(description);
  }
  return `{"sku":${JSON.stringify(sku)},"name":${JSON.stringify(name)},"price":${JSON.stringify(price)},`
    + `"stock":${JSON.stringify(stock)},"description":${describedJson},${category}}`;
}

const DIALECTS = {
  // spec/API.md.
  api: {
    itemById: (id) => `/items/${id}`,
    itemsPage: (page) => `/items?page=${page}`,
    itemsByCategory: (category) => `/items?categoryId=${category}`,
    categoryItems: (category) => `/categories/${category}/items`,
    categoriesPage: (page) => `/categories?page=${page}`,
    categoryById: (id) => `/categories/${id}`,
    items: '/items',
    categories: '/categories',
    itemBody: (item) => itemJson(item, `"categoryId":${JSON.stringify(item.category)}`),
    categoryBody: ({ code, name }) => JSON.stringify({ code, name }),
    // The API's create answers the new resource, its id inside.
    createdId: (res) => JSON.parse(res.body).id,
    // The body names the category: one PUT replaces every field and moves the item.
    categoryMove: null,
    status: { read: 200, create: 201, replace: 200, delete: 204 },
  },
  // spec/hal.md, "Each operation of the API in this dialect".
  hal: {
    // The item with its category inlined (the excerpt projection): what the API's item carries.
    itemById: (id) => `/items/${id}?projection=inlineCategory`,
    itemsPage: (page) => `/items?page=${page}`,
    itemsByCategory: (category) => `/items/search/byCategory?categoryId=${category}`,
    // The API's nested route /categories/{c}/items is the same page of the same items as its
    // filter; in this dialect both are the repository's search by category (the association
    // resource /categories/{c}/items is not exported: spec/hal.md, "Resources and paths").
    categoryItems: (category) => `/items/search/byCategory?categoryId=${category}`,
    categoriesPage: (page) => `/categories?page=${page}`,
    categoryById: (id) => `/categories/${id}`,
    items: '/items',
    categories: '/categories',
    // The category is a link: the category's URI.
    itemBody: (item) => itemJson(item, `"category":${JSON.stringify(`/categories/${item.category}`)}`),
    categoryBody: ({ code, name }) => JSON.stringify({ code, name }),
    // Spring Data REST answers a create with 201 and Location (the body too, as configured);
    // the id is the Location's last segment, so creates need not keep their body.
    createdId: (res) => Number(String(res.headers.Location || '').split('/').pop()),
    // A PUT ignores the category link (spring-data-rest#1479): moving the item is a PUT of its
    // association resource, answered 204.
    categoryMove: {
      path: (id) => `/items/${id}/category`,
      body: (category) => `/categories/${category}`,
      contentType: 'text/uri-list',
      status: 204,
    },
    status: { read: 200, create: 201, replace: 200, delete: 204 },
  },
};

if (!DIALECTS[DIALECT]) {
  throw new Error(`DIALECT must be one of ${Object.keys(DIALECTS).join(', ')}, not ${DIALECT}`);
}

export const paths = DIALECTS[DIALECT];

// The requests of an operation beyond its first, each shown as an endpoint of its own: the
// scenarios that send such an operation list these too.
export const EXTRA_ENDPOINTS = {
  item_replace: paths.categoryMove ? ['item_replace_category'] : [],
};
