-- The one schema every stack uses. No stack creates or migrates tables itself.
-- The constraints carry the names PostgreSQL would give them by default, stated here so that a
-- stack may match a violation by name (spec/API.md, "Database errors"): only these three.
CREATE TABLE category (
    id         bigserial    PRIMARY KEY,
    code       varchar(32)  NOT NULL CONSTRAINT category_code_key UNIQUE,
    name       varchar(128) NOT NULL,
    updated_at timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE item (
    id          bigserial     PRIMARY KEY,
    sku         varchar(64)   NOT NULL CONSTRAINT item_sku_key UNIQUE,
    name        varchar(128)  NOT NULL,
    price       numeric(10,2) NOT NULL,
    stock       integer       NOT NULL,
    description text,
    category_id bigint        NOT NULL CONSTRAINT item_category_id_fkey REFERENCES category (id),
    updated_at  timestamptz   NOT NULL DEFAULT now()
);

CREATE INDEX item_category_id_idx ON item (category_id);
