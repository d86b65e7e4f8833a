-- Share links (docs/API.md, "Share links"): a club admin hands one finished hand to a
-- player or an outside auditor as a link, read-only, expiring and revocable.
--
-- The link's token is `sh_<club id>_<share id>_<secret>`; only `SHA-256(secret)` is kept,
-- as for API keys and seat tokens. A share is never deleted (who shared what, and when, is
-- part of a dispute's story): revoking it sets `revoked_ms` and `revoked_by` once, and
-- nothing else of a row ever changes. Every key leads with club_id (docs/SCALING.md).

CREATE TABLE hand_shares (
    club_id     TEXT COLLATE "C" NOT NULL,
    share_id    TEXT COLLATE "C" NOT NULL,
    hand_id     TEXT COLLATE "C" NOT NULL,
    -- Lowercase hex of SHA-256 of the link's secret.
    token_hash  TEXT   NOT NULL,
    created_ms  BIGINT NOT NULL,
    expires_ms  BIGINT NOT NULL CHECK (expires_ms > created_ms),
    -- The admin key that made it.
    created_by  TEXT   NOT NULL,
    revoked_ms  BIGINT,
    revoked_by  TEXT,
    CONSTRAINT hand_shares_pkey PRIMARY KEY (club_id, share_id),
    CONSTRAINT hand_shares_hand_fkey FOREIGN KEY (club_id, hand_id)
        REFERENCES hands (club_id, hand_id),
    CONSTRAINT hand_shares_revoked CHECK ((revoked_ms IS NULL) = (revoked_by IS NULL))
);
CREATE INDEX hand_shares_hand_idx ON hand_shares (club_id, hand_id, created_ms DESC);

-- A share's row changes once, from not revoked to revoked; never deleted.
CREATE FUNCTION hand_shares_revoke_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'hand_shares rows are never deleted'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.revoked_ms IS NOT NULL
        OR NEW.club_id IS DISTINCT FROM OLD.club_id
        OR NEW.share_id IS DISTINCT FROM OLD.share_id
        OR NEW.hand_id IS DISTINCT FROM OLD.hand_id
        OR NEW.token_hash IS DISTINCT FROM OLD.token_hash
        OR NEW.created_ms IS DISTINCT FROM OLD.created_ms
        OR NEW.expires_ms IS DISTINCT FROM OLD.expires_ms
        OR NEW.created_by IS DISTINCT FROM OLD.created_by THEN
        RAISE EXCEPTION 'a hand share may only be revoked, once'
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER hand_shares_revoke_only BEFORE UPDATE OR DELETE ON hand_shares
    FOR EACH ROW EXECUTE FUNCTION hand_shares_revoke_only();
