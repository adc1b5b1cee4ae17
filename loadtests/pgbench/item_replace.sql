-- PUT /items/{id} with a 1 KB description, keeping the item's own sku
\set id random(1, 100000)
\set c random(1, 2000)
WITH written AS (
  UPDATE item SET sku = 'SKU-' || lpad(:id::text, 6, '0'), name = 'Load test item', price = 12.34, stock = 5,
         description = repeat('x', 1024), category_id = :c, updated_at = now()
   WHERE id = :id
  RETURNING id, sku, name, price, stock, description, updated_at, category_id)
SELECT w.*, c.code, c.name FROM written w JOIN category c ON c.id = w.category_id;
