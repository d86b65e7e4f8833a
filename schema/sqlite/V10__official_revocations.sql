-- Revoking an official's key, as on PostgreSQL (schema/postgres/V13, docs/DISPUTES.md):
-- one row per revoked official key, append-only.

CREATE TABLE official_revocations (
    club_id     TEXT    NOT NULL,
    key_id      TEXT    NOT NULL,
    revoked_ms  INTEGER NOT NULL,
    revoked_by  TEXT    NOT NULL,
    reason      TEXT    NOT NULL,
    PRIMARY KEY (club_id, key_id),
    FOREIGN KEY (club_id, key_id) REFERENCES officials (club_id, key_id)
) STRICT;

CREATE TRIGGER official_revocations_no_update BEFORE UPDATE ON official_revocations
BEGIN
    SELECT RAISE(ABORT, 'official_revocations is append-only');
END;

CREATE TRIGGER official_revocations_no_delete BEFORE DELETE ON official_revocations
BEGIN
    SELECT RAISE(ABORT, 'official_revocations is append-only');
END;
