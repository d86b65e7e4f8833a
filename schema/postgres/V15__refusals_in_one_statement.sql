-- A refusal raised from inside one statement, so that a write whose checks are part of
-- the statement itself (a hand's end: its row not quarantined, its table's
-- `match_version` the expected one) can be written in autocommit, one round trip and
-- one WAL flush, and fail as a whole when a check does not hold. The store then retries
-- the write in a transaction of its own, which says which check failed
-- (services/src/store/postgres/batch.rs, `plain_statement`).
--
-- Called only from the ELSE branch of a CASE, so only when a check fails. SQLSTATE
-- DL001 ("dealer refusal") is ours: the store tells it from other errors in its logs.
CREATE FUNCTION dealer_refuse(what TEXT) RETURNS INTEGER
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    RAISE EXCEPTION 'refused: %', what USING ERRCODE = 'DL001';
END;
$$;
