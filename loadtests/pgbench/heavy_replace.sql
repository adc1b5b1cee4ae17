-- PUT /items/{id} with a 5 KB description (the heavy-body scenario)
\set id random(1, 100000)
\set c random(1, 2000)
WITH written AS (
  UPDATE item SET sku = 'SKU-' || lpad(:id::text, 6, '0'), name = 'Heavy item', price = 12.34, stock = 5,
         description = repeat('x', 5120), category_id = :c, updated_at = now()
   WHERE id = :id
  RETURNING id, sku, name, price, stock, description, updated_at, category_id)
SELECT w.*, c.code, c.name FROM written w JOIN category c ON c.id = w.category_id;
