-- GET /categories?page=r
\set r random(0, 99)
SELECT count(*) FROM category;
SELECT id, code, name, updated_at FROM category ORDER BY id LIMIT 20 OFFSET :r * 20;
