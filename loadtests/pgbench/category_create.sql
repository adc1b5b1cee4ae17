-- POST /categories
\set n random(1, 9000000000000000)
INSERT INTO category (code, name) VALUES ('PG' || :n, 'Load test category')
  ON CONFLICT (code) DO NOTHING RETURNING id, code, name, updated_at;
