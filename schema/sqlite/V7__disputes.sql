-- Disputes over finished hands, as on PostgreSQL (schema/postgres/V10, docs/DISPUTES.md):
-- the club's officials, one row per dispute (where it stands: a projection of its
-- entries), and each dispute's record of signed, chained entries. Entries and officials
-- are append-only.

CREATE TABLE officials (
    club_id        TEXT    NOT NULL REFERENCES clubs (club_id),
    key_id         TEXT    NOT NULL,
    name           TEXT    NOT NULL,
    public_key     TEXT    NOT NULL,
    registered_ms  INTEGER NOT NULL,
    registered_by  TEXT    NOT NULL,
    PRIMARY KEY (club_id, key_id)
) STRICT;

CREATE TABLE disputes (
    club_id      TEXT    NOT NULL,
    dispute_id   TEXT    NOT NULL,
    hand_id      TEXT    NOT NULL,
    table_id     TEXT    NOT NULL,
    event        INTEGER CHECK (event >= 0),
    kind         TEXT    NOT NULL CHECK (kind IN
        ('unfair_deal', 'action_not_mine', 'wrong_score', 'rule_broken', 'record_altered')),
    claim        TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('open', 'upheld', 'rejected', 'penalty')),
    opened_role  TEXT    NOT NULL CHECK (opened_role IN ('seat', 'admin', 'auditor')),
    opened_by    TEXT    NOT NULL,
    opened_ms    INTEGER NOT NULL,
    updated_ms   INTEGER NOT NULL,
    entries      INTEGER NOT NULL CHECK (entries >= 1),
    head         TEXT    NOT NULL,
    PRIMARY KEY (club_id, dispute_id),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands (club_id, hand_id)
) STRICT;
CREATE INDEX disputes_opened_idx ON disputes (club_id, opened_ms DESC, dispute_id DESC);
CREATE INDEX disputes_table_idx ON disputes (club_id, table_id, opened_ms DESC, dispute_id DESC);
CREATE INDEX disputes_hand_idx ON disputes (club_id, hand_id);
CREATE INDEX disputes_opener_idx ON disputes (club_id, opened_by, opened_ms DESC, dispute_id DESC);

CREATE TABLE dispute_entries (
    club_id     TEXT    NOT NULL,
    dispute_id  TEXT    NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    kind        TEXT    NOT NULL CHECK (kind IN ('opened', 'ruling')),
    hash        TEXT    NOT NULL,
    prev_hash   TEXT    NOT NULL,
    record      TEXT    NOT NULL CHECK (json_valid(record)),
    created_ms  INTEGER NOT NULL,
    PRIMARY KEY (club_id, dispute_id, seq),
    FOREIGN KEY (club_id, dispute_id) REFERENCES disputes (club_id, dispute_id)
) STRICT;

CREATE TRIGGER dispute_entries_no_update BEFORE UPDATE ON dispute_entries
BEGIN
    SELECT RAISE(ABORT, 'dispute_entries is append-only');
END;

CREATE TRIGGER dispute_entries_no_delete BEFORE DELETE ON dispute_entries
BEGIN
    SELECT RAISE(ABORT, 'dispute_entries is append-only');
END;

CREATE TRIGGER officials_no_update BEFORE UPDATE ON officials
BEGIN
    SELECT RAISE(ABORT, 'officials is append-only');
END;

CREATE TRIGGER officials_no_delete BEFORE DELETE ON officials
BEGIN
    SELECT RAISE(ABORT, 'officials is append-only');
END;
