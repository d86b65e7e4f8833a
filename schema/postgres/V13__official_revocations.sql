-- Revoking an official's key (docs/DISPUTES.md, "Officials and revocation").
--
-- `official_revocations`: one row per revoked official key, written once by the club
-- admin. A revoked key signs no further ruling; the rulings it signed before stay valid
-- (the record is never rewritten). Append-only in the database itself, as `officials`
-- (V10): a revocation is never edited or withdrawn. Keyed by club_id first
-- (docs/SCALING.md).

CREATE TABLE official_revocations (
    club_id     TEXT COLLATE "C" NOT NULL,
    key_id      TEXT COLLATE "C" NOT NULL,
    revoked_ms  BIGINT NOT NULL,
    -- The admin key that revoked it.
    revoked_by  TEXT   NOT NULL,
    -- Why, as the admin gave it (a display name's rules, at most 500 characters).
    reason      TEXT   NOT NULL,
    CONSTRAINT official_revocations_pkey PRIMARY KEY (club_id, key_id),
    CONSTRAINT official_revocations_official_fkey FOREIGN KEY (club_id, key_id)
        REFERENCES officials (club_id, key_id)
);

CREATE TRIGGER official_revocations_no_update_delete
    BEFORE UPDATE OR DELETE ON official_revocations
    FOR EACH ROW EXECUTE FUNCTION disputes_append_only();

CREATE TRIGGER official_revocations_no_truncate
    BEFORE TRUNCATE ON official_revocations
    FOR EACH STATEMENT EXECUTE FUNCTION disputes_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON official_revocations FROM PUBLIC;
