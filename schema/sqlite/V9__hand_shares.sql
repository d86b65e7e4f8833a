-- Share links, as on PostgreSQL (schema/postgres/V12): one finished hand, read-only,
-- expiring and revocable; only the hash of the link's secret is kept. A row changes once
-- (revoked) and is never deleted.

CREATE TABLE hand_shares (
    club_id     TEXT    NOT NULL,
    share_id    TEXT    NOT NULL,
    hand_id     TEXT    NOT NULL,
    token_hash  TEXT    NOT NULL,
    created_ms  INTEGER NOT NULL,
    expires_ms  INTEGER NOT NULL CHECK (expires_ms > created_ms),
    created_by  TEXT    NOT NULL,
    revoked_ms  INTEGER,
    revoked_by  TEXT,
    PRIMARY KEY (club_id, share_id),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands (club_id, hand_id),
    CHECK ((revoked_ms IS NULL) = (revoked_by IS NULL))
) STRICT;
CREATE INDEX hand_shares_hand_idx ON hand_shares (club_id, hand_id, created_ms DESC);

CREATE TRIGGER hand_shares_revoke_only BEFORE UPDATE ON hand_shares
WHEN OLD.revoked_ms IS NOT NULL
    OR NEW.club_id IS NOT OLD.club_id OR NEW.share_id IS NOT OLD.share_id
    OR NEW.hand_id IS NOT OLD.hand_id OR NEW.token_hash IS NOT OLD.token_hash
    OR NEW.created_ms IS NOT OLD.created_ms OR NEW.expires_ms IS NOT OLD.expires_ms
    OR NEW.created_by IS NOT OLD.created_by
BEGIN
    SELECT RAISE(ABORT, 'a hand share may only be revoked, once');
END;

CREATE TRIGGER hand_shares_no_delete BEFORE DELETE ON hand_shares
BEGIN
    SELECT RAISE(ABORT, 'hand_shares rows are never deleted');
END;
