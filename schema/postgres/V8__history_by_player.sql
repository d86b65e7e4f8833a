-- A player's history in the order it is listed.
--
-- `GET /v1/hands?player=…` lists the hands a player sat in, newest first, 50 at a time.
-- Up to V7 that was an EXISTS on `hand_players` per hand, which PostgreSQL ran as a read
-- of every one of the player's rows (`hand_players_player_idx`, by hand id), a lookup of
-- each hand's row and a sort: a page cost time in proportion to the player's whole
-- history (585 hands for a regular at one million events, ten times that at ten million;
-- ops/README.md, fifth round). Now each seat's row carries its hand's start, and the
-- index below gives a player's hands in the listed order (start, then hand id, newest
-- first): a page reads its 50 index entries and 50 hand rows, however long the history.
--
-- The column is a copy of `hands.started_ms`, which never changes once the hand is
-- written; the store writes both in the statement (or transaction) that inserts the
-- hand. Existing rows are filled from their hands here: one pass over `hand_players`,
-- under the migration's lock (upgrade with the old processes stopped, as for V7: an old
-- process would insert seats without it and fail on NOT NULL).
ALTER TABLE hand_players ADD COLUMN started_ms BIGINT;

UPDATE hand_players p SET started_ms = h.started_ms
FROM hands h
WHERE h.club_id = p.club_id AND h.hand_id = p.hand_id;

-- Seats whose hand is missing would stay NULL and fail the constraint: there are none
-- (seat rows are written only with their hand, V4), and the migration stops if there are.
ALTER TABLE hand_players ALTER COLUMN started_ms SET NOT NULL;

CREATE INDEX hand_players_player_started_idx
    ON hand_players (club_id, player, started_ms DESC, hand_id DESC);

-- The index it replaces: by (club, player, hand id), used only by that EXISTS.
DROP INDEX hand_players_player_idx;

COMMENT ON COLUMN hand_players.started_ms IS
    'The hand''s start (hands.started_ms), for a player''s history in listed order.';
