-- People's accounts and their signed-in sessions (PostgreSQL; the same columns as SQLite's).
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,             -- the name as its owner wrote it
    name_key TEXT NOT NULL UNIQUE,  -- the name after NFKC and case folding: one account each
    password_hash TEXT NOT NULL,    -- Argon2id, as a PHC string (never the password)
    created_at BIGINT NOT NULL
);

-- A session is kept by the SHA-256 of its token: the token itself is only in the cookie.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
