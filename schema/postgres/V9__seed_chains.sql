-- Seed chains (docs/SHUFFLE.md §12): a table's pre-commitment to the server seeds of its
-- next `length` hands. The anchor is published; the chain itself (its tail and a
-- checkpoint every 1024 positions) is sealed by the service under the seal key, with
-- associated data naming club, table, first hand and anchor, and never leaves it in the
-- clear. The table's hand `first_hand_no + k − 1` is dealt from position k; a table gets a
-- further chain (a row with a later first_hand_no) only once the one before is used up.
-- Rows are never updated: the position in use follows from the hand's number.
CREATE TABLE seed_chains (
    club_id        TEXT COLLATE "C"  NOT NULL,
    table_id       TEXT COLLATE "C"  NOT NULL,
    first_hand_no  BIGINT  NOT NULL CHECK (first_hand_no >= 1),
    length         INTEGER NOT NULL CHECK (length BETWEEN 1 AND 1000000),
    anchor         TEXT COLLATE "C"  NOT NULL CHECK (anchor ~ '^[0-9a-f]{64}$'),
    sealed         BYTEA   NOT NULL,
    created_ms     BIGINT  NOT NULL,
    CONSTRAINT seed_chains_pkey PRIMARY KEY (club_id, table_id, first_hand_no),
    CONSTRAINT seed_chains_table_fkey FOREIGN KEY (club_id, table_id)
        REFERENCES game_tables (club_id, table_id)
);
