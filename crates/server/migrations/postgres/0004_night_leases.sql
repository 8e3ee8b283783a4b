-- Nights run on one node at a time too: the node that holds the night's lease starts
-- its sets and stores its state (each save checks the lease in its own transaction).
CREATE TABLE night_leases (
    night_id TEXT PRIMARY KEY REFERENCES nights(id),
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
