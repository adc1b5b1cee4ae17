-- GET /items/{id}
\set id random(1, 100000)
SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at, c.id, c.code, c.name
  FROM item i JOIN category c ON c.id = i.category_id WHERE i.id = :id;
