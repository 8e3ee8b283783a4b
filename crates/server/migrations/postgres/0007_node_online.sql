-- Who is online across the cluster: each node's signed-in accounts with a socket open on
-- it (their names, as a JSON array), published with its lease renewal.
ALTER TABLE nodes ADD COLUMN online TEXT;
