-- Tables, their logs and their chat. Plain SQL that PostgreSQL also reads.
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,     -- the table's Settings as JSON
    deal_rng TEXT NOT NULL,     -- the deal generator before the first deal, as JSON
    seats TEXT NOT NULL,        -- the seats (tokens, names, who sits) as JSON
    host_token TEXT NOT NULL,
    status TEXT NOT NULL,       -- open, playing, over, ended
    created_at BIGINT NOT NULL
);

CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    version BIGINT NOT NULL,
    entry TEXT NOT NULL,        -- one log Entry as JSON: server side only
    PRIMARY KEY (table_id, version)
);

CREATE TABLE chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq BIGINT NOT NULL,
    sender TEXT NOT NULL,
    body TEXT NOT NULL,
    at BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq)
);
