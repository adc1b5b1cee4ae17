-- The one schema every stack uses. No stack creates or migrates tables itself.
CREATE TABLE category (
    id         bigserial    PRIMARY KEY,
    code       varchar(32)  NOT NULL UNIQUE,
    name       varchar(128) NOT NULL,
    updated_at timestamptz  NOT NULL DEFAULT now()
);

CREATE TABLE item (
    id          bigserial     PRIMARY KEY,
    sku         varchar(64)   NOT NULL UNIQUE,
    name        varchar(128)  NOT NULL,
    price       numeric(10,2) NOT NULL,
    stock       integer       NOT NULL,
    description text,
    category_id bigint        NOT NULL REFERENCES category (id),
    updated_at  timestamptz   NOT NULL DEFAULT now()
);

CREATE INDEX item_category_id_idx ON item (category_id);
