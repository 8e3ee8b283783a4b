-- The cluster's secret: one row, made by the first node that starts on the database
-- (32 random bytes), read by every node. A node that relays a socket signs its
-- client's address with it (HMAC-SHA-256), so that the node running the table counts
-- that client, and ignores an address a client names itself.
CREATE TABLE cluster_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret BYTEA NOT NULL
);
