-- Sealed openings of private actions, as on PostgreSQL (schema/postgres/V5): one row per
-- `private_action` event, written with it, kept once the hand is over as sealed seeds
-- are. SQLite, one writer at a time, keeps its foreign key to the hand.
CREATE TABLE hand_inputs (
    club_id  TEXT    NOT NULL,
    hand_id  TEXT    NOT NULL,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    sealed   BLOB    NOT NULL,
    PRIMARY KEY (club_id, hand_id, seq),
    FOREIGN KEY (club_id, hand_id) REFERENCES hands (club_id, hand_id)
) STRICT;
