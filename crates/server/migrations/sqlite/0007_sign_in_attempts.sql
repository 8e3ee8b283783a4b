-- Sign-in attempts, counted in the database as on PostgreSQL (where every node sees
-- them): one row a limited key (a name from an address, or an address), with the time
-- in milliseconds (the server's clock) at which its allowance is whole again if
-- nothing more is tried (a rate limit's "theoretical arrival time"). A row past that
-- time is as good as none, and is deleted.
CREATE TABLE sign_in_attempts (
    key TEXT PRIMARY KEY,
    full_at_ms BIGINT NOT NULL
);
CREATE INDEX sign_in_attempts_full_at ON sign_in_attempts (full_at_ms);
