-- The club-wide order of events moves from events.gid to its own table, club_log, as
-- on PostgreSQL (schema/postgres/V2). SQLite has one writer at a time, so here an
-- append still gives its events their gids in its own transaction; the table layout is
-- the same on both stores.
--
-- SQLite cannot drop a column that has a UNIQUE constraint, so events is rebuilt. With
-- foreign keys on, DROP TABLE deletes the rows first, but fires no trigger doing so.
-- As on PostgreSQL, the rebuilt table has no foreign key to hands (the append that
-- writes events is the one that checks their hand), and club_log none to events.

CREATE TABLE events_v2 (
    club_id     TEXT    NOT NULL,
    hand_id     TEXT    NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    kind        TEXT    NOT NULL,
    hash        TEXT    NOT NULL,
    prev_hash   TEXT    NOT NULL,
    record      TEXT    NOT NULL CHECK (json_valid(record)),
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (club_id, hand_id, seq)
) STRICT;

INSERT INTO events_v2 (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms)
SELECT club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms FROM events;

CREATE TABLE club_log_v1 AS SELECT club_id, gid, hand_id, seq FROM events;

DROP TABLE events;
ALTER TABLE events_v2 RENAME TO events;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only');
END;

-- The club-wide order: gid 0, 1, 2 ... of a club, each naming one event. Append-only.
CREATE TABLE club_log (
    club_id  TEXT    NOT NULL,
    gid      INTEGER NOT NULL CHECK (gid >= 0),
    hand_id  TEXT    NOT NULL,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    PRIMARY KEY (club_id, gid),
    UNIQUE (club_id, hand_id, seq)
) STRICT;

INSERT INTO club_log (club_id, gid, hand_id, seq)
SELECT club_id, gid, hand_id, seq FROM club_log_v1;
DROP TABLE club_log_v1;

CREATE TRIGGER club_log_no_update BEFORE UPDATE ON club_log
BEGIN
    SELECT RAISE(ABORT, 'club_log is append-only');
END;

CREATE TRIGGER club_log_no_delete BEFORE DELETE ON club_log
BEGIN
    SELECT RAISE(ABORT, 'club_log is append-only');
END;
