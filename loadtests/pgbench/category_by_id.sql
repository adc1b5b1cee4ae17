-- GET /categories/{id}
\set id random(1, 2000)
SELECT id, code, name, updated_at FROM category WHERE id = :id;
