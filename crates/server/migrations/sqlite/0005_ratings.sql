-- Ratings (Weng-Lin, one per account and game family) and their history. The same SQL
-- on SQLite and PostgreSQL.
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    family TEXT NOT NULL,           -- kaibosh, bid-euchre, kout
    mu DOUBLE PRECISION NOT NULL,   -- the rating's mean
    sigma DOUBLE PRECISION NOT NULL, -- its uncertainty
    games BIGINT NOT NULL,          -- rated games played
    PRIMARY KEY (account_id, family)
);
CREATE INDEX ratings_leaders ON ratings (family, games);

-- Each account's rating after each rated game: the profile's chart.
CREATE TABLE rating_history (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    table_id TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,          -- the account's rated games of the family with this one
    at BIGINT NOT NULL,
    PRIMARY KEY (account_id, table_id)
);

-- Every rated game once: rating a game again (after a crash) changes nothing.
CREATE TABLE rated_games (
    table_id TEXT PRIMARY KEY,
    family TEXT NOT NULL,
    at BIGINT NOT NULL
);
