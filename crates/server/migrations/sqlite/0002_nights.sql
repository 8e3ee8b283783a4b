-- Alexa Bid Euchre nights: their players, and each set's table as it is started.
CREATE TABLE nights (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,        -- the night (players, tokens, sets, results) as JSON
    status TEXT NOT NULL,       -- playing, over, ended
    created_at BIGINT NOT NULL
);
