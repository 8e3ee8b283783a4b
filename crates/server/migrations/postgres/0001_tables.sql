-- Tables, their logs and their chat (PostgreSQL; the same columns as SQLite's).
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    settings TEXT NOT NULL,     -- the table's Settings as JSON
    deal_rng TEXT NOT NULL,     -- the deal generator before the first deal, as JSON
    seats TEXT NOT NULL,        -- the seats (tokens, names, who sits) as JSON
    host_token TEXT NOT NULL,
    status TEXT NOT NULL,       -- open, playing, over, ended
    created_at BIGINT NOT NULL
);

-- The tables a restart resumes and the lobby lists.
CREATE INDEX tables_live ON tables (created_at, id) WHERE status IN ('open', 'playing');

CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    version BIGINT NOT NULL,
    entry TEXT NOT NULL,        -- one log Entry as JSON: server side only
    PRIMARY KEY (table_id, version)
);

-- Where in the game each chat line was said: after `deals` deals and `actions` actions
-- of the latest one (those taken back not counted).
CREATE TABLE chat (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq BIGINT NOT NULL,
    sender TEXT NOT NULL,
    body TEXT NOT NULL,
    at BIGINT NOT NULL,
    deals BIGINT,
    actions BIGINT,
    PRIMARY KEY (table_id, seq)
);

-- Alexa Bid Euchre nights: their players, and each set's table as it is started.
CREATE TABLE nights (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,        -- the night (players, tokens, sets, results) as JSON
    status TEXT NOT NULL,       -- playing, over, ended
    created_at BIGINT NOT NULL
);
