-- Several nodes on one database: each table runs on the node that holds its lease.

-- Every node's internal address (where the others relay sockets to it), renewed with
-- its leases.
CREATE TABLE nodes (
    name TEXT PRIMARY KEY,
    addr TEXT NOT NULL,
    seen_at TIMESTAMPTZ NOT NULL
);

-- One row per table a node runs: its owner, the fencing epoch (raised at every
-- takeover; each write of the table checks it in its own transaction) and when the
-- lease lapses unless renewed; the table's lobby summary (JSON) while it is live.
CREATE TABLE leases (
    table_id TEXT PRIMARY KEY REFERENCES tables(id),
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL,
    summary TEXT
);

CREATE INDEX leases_expiry ON leases (expires_at);
