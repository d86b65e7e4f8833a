-- Disputes over finished hands (docs/DISPUTES.md).
--
-- `officials`: the club officials whose Ed25519 keys may sign rulings, registered by the
-- club admin. `disputes`: one row per dispute, what it is about and where it stands (its
-- status, the number of entries and the hash of the last: a projection of its entries,
-- kept for listing and filtering). `dispute_entries`: the dispute's record, entry 0 the
-- opening (claim and findings), each later entry a ruling; every entry is hashed, chained
-- and signed by the service, a ruling also by its official.
--
-- Entries and officials are append-only in the database itself, as events are (V1): a
-- ruling is never edited, a later one supersedes it and both stay; an official once
-- registered stays (rulings they signed name them). Every key leads with club_id
-- (docs/SCALING.md).

CREATE TABLE officials (
    club_id        TEXT COLLATE "C" NOT NULL,
    -- `ed25519:` and 16 hex characters of SHA-256 of the public key.
    key_id         TEXT COLLATE "C" NOT NULL,
    name           TEXT   NOT NULL,
    public_key     TEXT   NOT NULL,
    registered_ms  BIGINT NOT NULL,
    -- The admin key that registered it.
    registered_by  TEXT   NOT NULL,
    CONSTRAINT officials_pkey PRIMARY KEY (club_id, key_id),
    CONSTRAINT officials_club_fkey FOREIGN KEY (club_id) REFERENCES clubs (club_id)
);

CREATE TABLE disputes (
    club_id      TEXT COLLATE "C" NOT NULL,
    dispute_id   TEXT COLLATE "C" NOT NULL,
    hand_id      TEXT COLLATE "C" NOT NULL,
    table_id     TEXT COLLATE "C" NOT NULL,
    -- The event of the hand disputed, if one.
    event        BIGINT CHECK (event >= 0),
    kind         TEXT   NOT NULL CHECK (kind IN
        ('unfair_deal', 'action_not_mine', 'wrong_score', 'rule_broken', 'record_altered')),
    -- The claim, as entry 0 records it (NFC, at most 2,000 characters).
    claim        TEXT   NOT NULL,
    status       TEXT   NOT NULL CHECK (status IN ('open', 'upheld', 'rejected', 'penalty')),
    opened_role  TEXT   NOT NULL CHECK (opened_role IN ('seat', 'admin', 'auditor')),
    -- The seat token's or API key's id.
    opened_by    TEXT COLLATE "C" NOT NULL,
    opened_ms    BIGINT NOT NULL,
    updated_ms   BIGINT NOT NULL,
    -- How many entries the record has (the next entry's seq), and the last one's hash.
    entries      BIGINT NOT NULL CHECK (entries >= 1),
    head         TEXT   NOT NULL,
    CONSTRAINT disputes_pkey PRIMARY KEY (club_id, dispute_id),
    CONSTRAINT disputes_hand_fkey FOREIGN KEY (club_id, hand_id)
        REFERENCES hands (club_id, hand_id)
);
-- Listing, newest first: the club, one table, one hand, one opener.
CREATE INDEX disputes_opened_idx ON disputes (club_id, opened_ms DESC, dispute_id DESC);
CREATE INDEX disputes_table_idx ON disputes (club_id, table_id, opened_ms DESC, dispute_id DESC);
CREATE INDEX disputes_hand_idx ON disputes (club_id, hand_id);
CREATE INDEX disputes_opener_idx ON disputes (club_id, opened_by, opened_ms DESC, dispute_id DESC);

CREATE TABLE dispute_entries (
    club_id     TEXT COLLATE "C" NOT NULL,
    dispute_id  TEXT COLLATE "C" NOT NULL,
    seq         BIGINT NOT NULL CHECK (seq >= 0),
    kind        TEXT   NOT NULL CHECK (kind IN ('opened', 'ruling')),
    hash        TEXT   NOT NULL,
    prev_hash   TEXT   NOT NULL,
    -- The signed entry: {"entry", "hash", "signer", "sig"} (replayer::dispute).
    record      JSONB  NOT NULL,
    created_ms  BIGINT NOT NULL,
    CONSTRAINT dispute_entries_pkey PRIMARY KEY (club_id, dispute_id, seq),
    CONSTRAINT dispute_entries_dispute_fkey FOREIGN KEY (club_id, dispute_id)
        REFERENCES disputes (club_id, dispute_id)
);

CREATE FUNCTION disputes_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only: % refused', TG_TABLE_NAME, TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$;

CREATE TRIGGER dispute_entries_no_update_delete
    BEFORE UPDATE OR DELETE ON dispute_entries
    FOR EACH ROW EXECUTE FUNCTION disputes_append_only();

CREATE TRIGGER dispute_entries_no_truncate
    BEFORE TRUNCATE ON dispute_entries
    FOR EACH STATEMENT EXECUTE FUNCTION disputes_append_only();

CREATE TRIGGER officials_no_update_delete
    BEFORE UPDATE OR DELETE ON officials
    FOR EACH ROW EXECUTE FUNCTION disputes_append_only();

CREATE TRIGGER officials_no_truncate
    BEFORE TRUNCATE ON officials
    FOR EACH STATEMENT EXECUTE FUNCTION disputes_append_only();

REVOKE UPDATE, DELETE, TRUNCATE ON dispute_entries FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON officials FROM PUBLIC;
