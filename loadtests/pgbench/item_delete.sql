-- DELETE /items/{id} of an item made for it (the mixed scenario deletes what it created)
\set n random(1, 9000000000000000)
INSERT INTO item (sku, name, price, stock, category_id) VALUES ('PGD-' || :n, 'x', 1, 1, 1)
  ON CONFLICT (sku) DO NOTHING;
DELETE FROM item WHERE sku = 'PGD-' || :n;
