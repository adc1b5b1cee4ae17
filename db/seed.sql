-- Deterministic seed: the conformance suite asserts these exact values, so any change here
-- must be mirrored in spec/conformance/seed.py.
BEGIN;

INSERT INTO category (id, code, name, updated_at)
SELECT g,
       'CAT-' || lpad(g::text, 4, '0'),
       'Category ' || g,
       timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'
FROM generate_series(1, 2000) AS g;

-- description: a prefix naming the item, then filler cut so that the whole text is
-- 300 + (id * 37) % 601 bytes (ASCII only, so bytes = characters), i.e. 300..900 bytes.
INSERT INTO item (id, sku, name, price, stock, description, category_id, updated_at)
SELECT g,
       'SKU-' || lpad(g::text, 6, '0'),
       'Item ' || g,
       ((g::bigint * 7919) % 100000) / 100.0,
       g % 500,
       left('Description of item ' || g || '. '
            || repeat('Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod '
                      || 'tempor incididunt ut labore et dolore magna aliqua. ', 9),
            300 + (g * 37) % 601),
       ((g - 1) % 2000) + 1,
       timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second'
FROM generate_series(1, 100000) AS g;

-- Explicit ids do not advance the sequences: continue after the seed.
SELECT setval(pg_get_serial_sequence('category', 'id'), 2000);
SELECT setval(pg_get_serial_sequence('item', 'id'), 100000);

COMMIT;

ANALYZE category;
ANALYZE item;
