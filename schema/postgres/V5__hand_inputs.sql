-- Sealed openings of private actions.
--
-- A private action (a Bluff play laid face down ...) enters the log as a salted
-- commitment (`private_action`); its opening (the action and its salt) stays secret until
-- the hand's reveal, `seeds_revealed.inputs`. Until then the service must keep it, as it
-- keeps the hand's server seeds, so that a restarted process, or another process that
-- takes the hand on, can go on with it and reveal it: one row per private action, sealed
-- (encrypted and authenticated) by the service, written in the transaction or statement
-- that appends its `private_action` event.
--
-- As `hand_secrets` since V4, no foreign key to `hands`: a row is written only with its
-- event, by an append that goes in right after the hand's last event (see V3, V4), and a
-- per-row check would cost what V4 measured. Rows are kept once the hand is over, as
-- sealed seeds are: the reveal has made them public by then.
CREATE TABLE hand_inputs (
    club_id  TEXT COLLATE "C"  NOT NULL,
    hand_id  TEXT COLLATE "C"  NOT NULL,
    -- The seq of the private action's event.
    seq      BIGINT NOT NULL CHECK (seq >= 0),
    sealed   BYTEA  NOT NULL,
    CONSTRAINT hand_inputs_pkey PRIMARY KEY (club_id, hand_id, seq)
);
