-- Tokens name their club; every unique index leads with club_id.
--
-- Up to V6 an API key (`ak_<key id>_<secret>`) and a seat token (`st_<token id>_<secret>`)
-- named only their own id, and were found by it through an index unique across clubs
-- (api_keys_key_id_key, seats_token_id_key). Distributed by club (docs/SCALING.md), such
-- an index cannot be enforced, and the lookup would ask every shard. From this version a
-- token names its club too (`ak_<club id>_<key id>_<secret>`, services/src/auth.rs), and
-- is found by (club_id, id): a key id or seat token id is unique within its club only.
--
-- Tokens issued before this version keep working, through `token_routes`: the club of
-- every API key and seat token that exists now, filled here once and never written by
-- the service again. Tokens issued from now on have no row there, so the old spelling
-- of a new token is refused. The table is small, read by id alone, and not a club's: on
-- Citus a reference table (one copy on every node), the one exception to "every unique
-- index leads with club_id" (services/tests/store_conformance.rs,
-- pg_catalog_is_ready_for_citus). It can be dropped, with the old format, once no
-- client presents one (the metric legacy_tokens_total).
--
-- Upgrade with the old processes stopped: a token an old process issued after this
-- migration ran would have no route, and an old process refuses the new format.

CREATE TABLE token_routes (
    -- The token's prefix: 'ak' (API key) or 'st' (seat token).
    kind      TEXT COLLATE "C" NOT NULL CHECK (kind IN ('ak', 'st')),
    token_id  TEXT COLLATE "C" NOT NULL,
    club_id   TEXT COLLATE "C" NOT NULL,
    CONSTRAINT token_routes_pkey PRIMARY KEY (kind, token_id)
);

INSERT INTO token_routes (kind, token_id, club_id)
SELECT 'ak', key_id, club_id FROM api_keys;

INSERT INTO token_routes (kind, token_id, club_id)
SELECT 'st', token_id, club_id FROM seats;

COMMENT ON TABLE token_routes IS
    'The club of each API key and seat token issued before V7, for tokens in the legacy '
    'format that does not name its club. Written only by migration V7. Deprecated.';

DROP INDEX api_keys_key_id_key;

-- A seat token is found by its club and id; unique within the club.
DROP INDEX seats_token_id_key;
CREATE UNIQUE INDEX seats_token_key ON seats (club_id, token_id);
