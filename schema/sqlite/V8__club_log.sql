-- The club transparency log (docs/TRANSPARENCY.md): its tiles and its signed
-- checkpoints, as on PostgreSQL (schema/postgres/V11). No tile and no checkpoint is
-- ever changed or deleted; a tile may be rewritten with the same bytes (a builder that
-- restarts from its last checkpoint).

CREATE TABLE log_tiles (
    club_id  TEXT NOT NULL,
    path     TEXT NOT NULL,
    bytes    BLOB NOT NULL,
    PRIMARY KEY (club_id, path)
) STRICT;

CREATE TABLE log_checkpoints (
    club_id     TEXT    NOT NULL,
    size        INTEGER NOT NULL CHECK (size >= 0),
    root        BLOB    NOT NULL CHECK (length(root) = 32),
    note        TEXT    NOT NULL,
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (club_id, size)
) STRICT;

CREATE TRIGGER log_tiles_no_update BEFORE UPDATE ON log_tiles
WHEN NEW.club_id IS NOT OLD.club_id OR NEW.path IS NOT OLD.path OR NEW.bytes IS NOT OLD.bytes
BEGIN
    SELECT RAISE(ABORT, 'log_tiles are immutable');
END;

CREATE TRIGGER log_tiles_no_delete BEFORE DELETE ON log_tiles
BEGIN
    SELECT RAISE(ABORT, 'log_tiles are immutable');
END;

CREATE TRIGGER log_checkpoints_no_update BEFORE UPDATE ON log_checkpoints
BEGIN
    SELECT RAISE(ABORT, 'log_checkpoints are append-only');
END;

CREATE TRIGGER log_checkpoints_no_delete BEFORE DELETE ON log_checkpoints
BEGIN
    SELECT RAISE(ABORT, 'log_checkpoints are append-only');
END;
