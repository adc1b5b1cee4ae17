-- DELETE /items/{id} of an item created earlier, as the mixed scenario deletes the oldest item its
-- VU created: the oldest item the ceiling's creates made (item_create.sql, sku PGB-), not one
-- made for the purpose, so the table grows by creates minus deletes as it does under k6.
-- SKIP LOCKED: concurrent clients never wait for each other's row. Deletes nothing until a
-- create has run (k6 creates instead then).
DELETE FROM item WHERE id = (
  SELECT id FROM item WHERE id > 100000 AND sku LIKE 'PGB-%' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED);
