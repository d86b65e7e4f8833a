-- The dealer's store, PostgreSQL.
--
-- Every table leads its primary key with club_id, so that a club's rows can later be
-- distributed by club (Citus-style) without a schema change. Times are unix
-- milliseconds (BIGINT); hashes and signatures are lowercase hex TEXT. Ids are
-- COLLATE "C": they sort byte-wise, as in SQLite, whatever the cluster's locale, so a
-- page cursor means the same thing on every database.

CREATE TABLE clubs (
    club_id     TEXT COLLATE "C"   NOT NULL,
    name        TEXT   NOT NULL,
    created_ms  BIGINT NOT NULL,
    -- The gid the club's next event gets: a club-wide order over all of its hands,
    -- contiguous from 0 and in commit order (the row is locked by each append).
    next_gid    BIGINT NOT NULL DEFAULT 0 CHECK (next_gid >= 0),
    CONSTRAINT clubs_pkey PRIMARY KEY (club_id)
);

CREATE TABLE api_keys (
    club_id     TEXT COLLATE "C"   NOT NULL,
    key_id      TEXT COLLATE "C"   NOT NULL,
    key_hash    TEXT   NOT NULL,
    role        TEXT   NOT NULL CHECK (role IN ('admin', 'auditor')),
    created_ms  BIGINT NOT NULL,
    CONSTRAINT api_keys_pkey PRIMARY KEY (club_id, key_id),
    CONSTRAINT api_keys_club_fkey FOREIGN KEY (club_id) REFERENCES clubs (club_id)
);
-- A presented key names its key_id before the club is known.
CREATE UNIQUE INDEX api_keys_key_id_key ON api_keys (key_id);

CREATE TABLE game_tables (
    club_id        TEXT COLLATE "C"   NOT NULL,
    table_id       TEXT COLLATE "C"   NOT NULL,
    game           TEXT   NOT NULL,
    rules          JSONB  NOT NULL,
    setup          JSONB  NOT NULL,
    match_state    JSONB  NOT NULL,
    match_version  BIGINT NOT NULL CHECK (match_version >= 0),
    created_ms     BIGINT NOT NULL,
    CONSTRAINT game_tables_pkey PRIMARY KEY (club_id, table_id),
    CONSTRAINT game_tables_club_fkey FOREIGN KEY (club_id) REFERENCES clubs (club_id)
);

CREATE TABLE seats (
    club_id     TEXT COLLATE "C"     NOT NULL,
    table_id    TEXT COLLATE "C"     NOT NULL,
    seat        SMALLINT NOT NULL CHECK (seat >= 0),
    player      TEXT     NOT NULL,
    token_id    TEXT COLLATE "C"     NOT NULL,
    token_hash  TEXT     NOT NULL,
    public_key  TEXT,
    CONSTRAINT seats_pkey PRIMARY KEY (club_id, table_id, seat),
    CONSTRAINT seats_table_fkey FOREIGN KEY (club_id, table_id)
        REFERENCES game_tables (club_id, table_id)
);
-- A seat token names its token_id before the club is known.
CREATE UNIQUE INDEX seats_token_id_key ON seats (token_id);

CREATE TABLE hands (
    club_id         TEXT COLLATE "C"   NOT NULL,
    hand_id         TEXT COLLATE "C"   NOT NULL,
    table_id        TEXT COLLATE "C"   NOT NULL,
    game            TEXT   NOT NULL,
    hand_no         BIGINT NOT NULL CHECK (hand_no >= 1),
    status          TEXT   NOT NULL CHECK (status IN ('in_progress', 'completed', 'abandoned')),
    next_seq        BIGINT NOT NULL CHECK (next_seq >= 0),
    players         TEXT[] NOT NULL,
    started_ms      BIGINT NOT NULL,
    ended_ms        BIGINT,
    outcome         JSONB,
    abandon_reason  TEXT,
    CONSTRAINT hands_pkey PRIMARY KEY (club_id, hand_id),
    CONSTRAINT hands_table_fkey FOREIGN KEY (club_id, table_id)
        REFERENCES game_tables (club_id, table_id),
    CONSTRAINT hands_hand_no_key UNIQUE (club_id, table_id, hand_no)
);
-- At most one hand in progress per table.
CREATE UNIQUE INDEX hands_in_progress_key ON hands (club_id, table_id)
    WHERE status = 'in_progress';
-- History, newest first: the whole club, and one table.
CREATE INDEX hands_started_idx ON hands (club_id, started_ms DESC, hand_id DESC);
CREATE INDEX hands_table_started_idx ON hands (club_id, table_id, started_ms DESC, hand_id DESC);

-- Projection of hands.players for "hands this player sat in".
CREATE TABLE hand_players (
    club_id  TEXT COLLATE "C"     NOT NULL,
    hand_id  TEXT COLLATE "C"     NOT NULL,
    seat     SMALLINT NOT NULL CHECK (seat >= 0),
    player   TEXT     NOT NULL,
    CONSTRAINT hand_players_pkey PRIMARY KEY (club_id, hand_id, seat),
    CONSTRAINT hand_players_hand_fkey FOREIGN KEY (club_id, hand_id)
        REFERENCES hands (club_id, hand_id)
);
CREATE INDEX hand_players_player_idx ON hand_players (club_id, player, hand_id);

CREATE TABLE events (
    club_id     TEXT COLLATE "C"   NOT NULL,
    hand_id     TEXT COLLATE "C"   NOT NULL,
    seq         BIGINT NOT NULL CHECK (seq >= 0),
    gid         BIGINT NOT NULL CHECK (gid >= 0),
    kind        TEXT   NOT NULL,
    hash        TEXT   NOT NULL,
    prev_hash   TEXT   NOT NULL,
    record      JSONB  NOT NULL,
    created_ms  BIGINT NOT NULL,
    CONSTRAINT events_pkey PRIMARY KEY (club_id, hand_id, seq),
    CONSTRAINT events_gid_key UNIQUE (club_id, gid),
    CONSTRAINT events_hand_fkey FOREIGN KEY (club_id, hand_id)
        REFERENCES hands (club_id, hand_id)
);

-- Sealed (encrypted by the service) server seeds, one per shuffle of a hand.
CREATE TABLE hand_secrets (
    club_id  TEXT COLLATE "C"    NOT NULL,
    hand_id  TEXT COLLATE "C"    NOT NULL,
    shuffle  INTEGER NOT NULL CHECK (shuffle >= 0),
    sealed   BYTEA   NOT NULL,
    CONSTRAINT hand_secrets_pkey PRIMARY KEY (club_id, hand_id, shuffle),
    CONSTRAINT hand_secrets_hand_fkey FOREIGN KEY (club_id, hand_id)
        REFERENCES hands (club_id, hand_id)
);

CREATE TABLE idempotency_keys (
    club_id       TEXT COLLATE "C"    NOT NULL,
    key           TEXT COLLATE "C"    NOT NULL,
    request_hash  TEXT    NOT NULL,
    status        INTEGER NOT NULL,
    response      JSONB   NOT NULL,
    created_ms    BIGINT  NOT NULL,
    CONSTRAINT idempotency_keys_pkey PRIMARY KEY (club_id, key),
    CONSTRAINT idempotency_keys_club_fkey FOREIGN KEY (club_id) REFERENCES clubs (club_id)
);

-- Events are append-only in the database itself: the service never updates or deletes
-- one, and neither may anyone else without first disabling these triggers (which takes
-- the table's owner or a superuser, and is then caught by verification).
CREATE FUNCTION events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER events_no_update_delete
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON events FROM PUBLIC;
