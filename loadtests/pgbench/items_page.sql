-- GET /items?page=r: the count and one JOIN page, as a stack at its best sends them.
\set r random(0, 49)
SELECT count(*) FROM item;
SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at, c.id, c.code, c.name
  FROM item i JOIN category c ON c.id = i.category_id ORDER BY i.id LIMIT 20 OFFSET :r * 20;
