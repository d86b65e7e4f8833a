-- Tokens name their club, as on PostgreSQL (schema/postgres/V7): an API key or seat token
-- is found by (club_id, id), unique within its club, and every unique index leads with
-- club_id. Tokens issued before this version, which name only their id, are routed to
-- their club through token_routes, filled here once and never written again.

CREATE TABLE token_routes (
    kind      TEXT NOT NULL CHECK (kind IN ('ak', 'st')),
    token_id  TEXT NOT NULL,
    club_id   TEXT NOT NULL,
    PRIMARY KEY (kind, token_id)
) STRICT;

INSERT INTO token_routes (kind, token_id, club_id)
SELECT 'ak', key_id, club_id FROM api_keys;

INSERT INTO token_routes (kind, token_id, club_id)
SELECT 'st', token_id, club_id FROM seats;

DROP INDEX api_keys_key_id_key;

DROP INDEX seats_token_id_key;
CREATE UNIQUE INDEX seats_token_key ON seats (club_id, token_id);
