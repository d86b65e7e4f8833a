-- The club transparency log (docs/TRANSPARENCY.md): its tiles and its signed checkpoints.
--
-- Every event the sequencer ordered (club_log, gid g) is leaf g of its club's log. A
-- background builder appends the leaves, writes the tiles and entry bundles they fill
-- and the partial ones of the new size, then the signed checkpoint, in one transaction.
-- A tile's path names its content for ever (C2SP tlog-tiles: a partial tile `.p/W` is a
-- prefix of the tree too), so no tile is ever changed or deleted, and no checkpoint
-- either: each one is kept, so that a consistency proof against any of them can be
-- computed later.

CREATE TABLE log_tiles (
    club_id  TEXT COLLATE "C" NOT NULL,
    -- The tile's path under the log's prefix, as served: `tile/0/x001/234.p/7`.
    path     TEXT COLLATE "C" NOT NULL,
    bytes    BYTEA NOT NULL,
    CONSTRAINT log_tiles_pkey PRIMARY KEY (club_id, path)
);

CREATE TABLE log_checkpoints (
    club_id     TEXT COLLATE "C" NOT NULL,
    size        BIGINT NOT NULL CHECK (size >= 0),
    root        BYTEA  NOT NULL CHECK (length(root) = 32),
    -- The signed note, as served.
    note        TEXT   NOT NULL,
    created_ms  BIGINT NOT NULL,
    CONSTRAINT log_checkpoints_pkey PRIMARY KEY (club_id, size)
);

-- Rewriting a tile with the same bytes is what a builder that restarts from its last
-- checkpoint does (idempotent); any other change is refused.
CREATE FUNCTION log_tiles_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND NEW.club_id = OLD.club_id AND NEW.path = OLD.path
       AND NEW.bytes = OLD.bytes THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'log_tiles are immutable: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER log_tiles_no_change
    BEFORE UPDATE OR DELETE ON log_tiles
    FOR EACH ROW EXECUTE FUNCTION log_tiles_immutable();

CREATE TRIGGER log_tiles_no_truncate
    BEFORE TRUNCATE ON log_tiles
    FOR EACH STATEMENT EXECUTE FUNCTION log_append_only();

CREATE TRIGGER log_checkpoints_no_update_delete
    BEFORE UPDATE OR DELETE ON log_checkpoints
    FOR EACH ROW EXECUTE FUNCTION log_append_only();

CREATE TRIGGER log_checkpoints_no_truncate
    BEFORE TRUNCATE ON log_checkpoints
    FOR EACH STATEMENT EXECUTE FUNCTION log_append_only();

REVOKE DELETE, TRUNCATE ON log_tiles FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON log_checkpoints FROM PUBLIC;
