-- GET /items?categoryId=c
\set c random(1, 2000)
SELECT count(*) FROM item WHERE category_id = :c;
SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at, c.id, c.code, c.name
  FROM item i JOIN category c ON c.id = i.category_id WHERE i.category_id = :c ORDER BY i.id LIMIT 20 OFFSET 0;
