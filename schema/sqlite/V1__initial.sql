-- The dealer's store, SQLite (the embedded default).
--
-- The same tables as schema/postgres: club_id leads every primary key, times are unix
-- milliseconds, hashes are lowercase hex TEXT, JSON is TEXT checked by json_valid.
-- STRICT tables make SQLite enforce the declared column types.

CREATE TABLE clubs (
    club_id     TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    created_ms  INTEGER NOT NULL,
    -- The gid the club's next event gets: contiguous from 0, in commit order.
    next_gid    INTEGER NOT NULL DEFAULT 0 CHECK (next_gid >= 0),
    PRIMARY KEY (club_id)
) STRICT;

CREATE TABLE api_keys (
    club_id     TEXT    NOT NULL REFERENCES clubs (club_id),
    key_id      TEXT    NOT NULL,
    key_hash    TEXT    NOT NULL,
    role        TEXT    NOT NULL CHECK (role IN ('admin', 'auditor')),
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (club_id, key_id)
) STRICT;
CREATE UNIQUE INDEX api_keys_key_id_key ON api_keys (key_id);

CREATE TABLE game_tables (
    club_id        TEXT    NOT NULL REFERENCES clubs (club_id),
    table_id       TEXT    NOT NULL,
    game           TEXT    NOT NULL,
    rules          TEXT    NOT NULL CHECK (json_valid(rules)),
    setup          TEXT    NOT NULL CHECK (json_valid(setup)),
    match_state    TEXT    NOT NULL CHECK (json_valid(match_state)),
    match_version  INTEGER NOT NULL CHECK (match_version >= 0),
    created_ms     INTEGER NOT NULL,
    PRIMARY KEY (club_id, table_id)
) STRICT;

CREATE TABLE seats (
    club_id     TEXT    NOT NULL,
    table_id    TEXT    NOT NULL,
    seat        INTEGER NOT NULL CHECK (seat >= 0 AND seat <= 32767),
    player      TEXT    NOT NULL,
    token_id    TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL,
    public_key  TEXT,
    PRIMARY KEY (club_id, table_id, seat),
    FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, table_id)
) STRICT;
CREATE UNIQUE INDEX seats_token_id_key ON seats (token_id);

CREATE TABLE hands (
    club_id         TEXT    NOT NULL,
    hand_id         TEXT    NOT NULL,
    table_id        TEXT    NOT NULL,
    game            TEXT    NOT NULL,
    hand_no         INTEGER NOT NULL CHECK (hand_no >= 1),
    status          TEXT    NOT NULL CHECK (status IN ('in_progress', 'completed', 'abandoned')),
    next_seq        INTEGER NOT NULL CHECK (next_seq >= 0),
    players         TEXT    NOT NULL CHECK (json_valid(players)),
    started_ms      INTEGER NOT NULL,
    ended_ms        INTEGER,
    outcome         TEXT    CHECK (outcome IS NULL OR json_valid(outcome)),
    abandon_reason  TEXT,
    PRIMARY KEY (club_id, hand_id),
    FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, table_id),
    UNIQUE (club_id, table_id, hand_no)
) STRICT;
CREATE UNIQUE INDEX hands_in_progress_key ON hands (club_id, table_id)
    WHERE status = 'in_progress';
CREATE INDEX hands_started_idx ON hands (club_id, started_ms DESC, hand_id DESC);
CREATE INDEX hands_table_started_idx ON hands (club_id, table_id, started_ms DESC, hand_id DESC);

CREATE TABLE hand_players (
    club_id  TEXT    NOT NULL,
    hand_id  TEXT    NOT NULL,
    seat     INTEGER NOT NULL CHECK (seat >= 0),
    player   TEXT    NOT NULL,
    PRIMARY KEY (club_id, hand_id, seat),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands (club_id, hand_id)
) STRICT;
CREATE INDEX hand_players_player_idx ON hand_players (club_id, player, hand_id);

CREATE TABLE events (
    club_id     TEXT    NOT NULL,
    hand_id     TEXT    NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    gid         INTEGER NOT NULL CHECK (gid >= 0),
    kind        TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    prev_hash   TEXT    NOT NULL,
    record      TEXT    NOT NULL CHECK (json_valid(record)),
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (club_id, hand_id, seq),
    UNIQUE (club_id, gid),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands (club_id, hand_id)
) STRICT;

CREATE TABLE hand_secrets (
    club_id  TEXT    NOT NULL,
    hand_id  TEXT    NOT NULL,
    shuffle  INTEGER NOT NULL CHECK (shuffle >= 0),
    sealed   BLOB    NOT NULL,
    PRIMARY KEY (club_id, hand_id, shuffle),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands (club_id, hand_id)
) STRICT;

CREATE TABLE idempotency_keys (
    club_id       TEXT    NOT NULL REFERENCES clubs (club_id),
    key           TEXT    NOT NULL,
    request_hash  TEXT    NOT NULL,
    status        INTEGER NOT NULL,
    response      TEXT    NOT NULL CHECK (json_valid(response)),
    created_ms    INTEGER NOT NULL,
    PRIMARY KEY (club_id, key)
) STRICT;

-- Events are append-only in the database itself.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;
