-- Seed chains, as on PostgreSQL (schema/postgres/V9): a table's sealed pre-commitment to
-- the server seeds of its next `length` hands, from hand `first_hand_no` on.
CREATE TABLE seed_chains (
    club_id        TEXT    NOT NULL,
    table_id       TEXT    NOT NULL,
    first_hand_no  INTEGER NOT NULL CHECK (first_hand_no >= 1),
    length         INTEGER NOT NULL CHECK (length BETWEEN 1 AND 1000000),
    anchor         TEXT    NOT NULL CHECK (length(anchor) = 64),
    sealed         BLOB    NOT NULL,
    created_ms     INTEGER NOT NULL,
    PRIMARY KEY (club_id, table_id, first_hand_no),
    FOREIGN KEY (club_id, table_id) REFERENCES game_tables (club_id, table_id)
) STRICT;
