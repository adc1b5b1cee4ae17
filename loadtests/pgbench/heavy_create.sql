-- POST /items with a 5 KB description (the heavy-body scenario)
\set n random(1, 9000000000000000)
\set c random(1, 2000)
WITH written AS (
  INSERT INTO item (sku, name, price, stock, description, category_id)
  VALUES ('PGH-' || :n, 'Heavy item', 12.34, 5, repeat('x', 5120), :c)
  ON CONFLICT (sku) DO NOTHING
  RETURNING id, sku, name, price, stock, description, updated_at, category_id)
SELECT w.*, c.code, c.name FROM written w JOIN category c ON c.id = w.category_id;
