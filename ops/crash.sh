#!/usr/bin/env bash
# Durability under kill -9, run by hand (never in CI): see ops/README.md and
# docs/DURABILITY.md.
#
#   ops/crash.sh                 # the embedded store, then PostgreSQL
#   ops/crash.sh embedded        # only the embedded store
#   ops/crash.sh postgres        # only PostgreSQL
#
# Each round: start audit-service on 127.0.0.1 (a free port), create a club, play hands
# at many tables at once over HTTP (loadgen crash drive), kill -9 the service at a random
# moment, restart it on the same store, then check (loadgen crash check): every write
# acknowledged with a 2xx before the kill is in the log with the same hashes; every write
# in flight that carried an idempotency key, sent again, gets its recorded answer or runs
# once; every hand in progress plays on to its end and a new hand is played at each
# table; every bundle and match file verifies with `replayer verify --key`; and
# `audit-service audit` of the club finds nothing. Exits non-zero on any failure.
#
# Environment: CRASH_ROUNDS (3 per store), CRASH_TABLES (16), CRASH_HOKM_TABLES (4 of
# them), CRASH_KILL_MIN_MS / CRASH_KILL_MAX_MS (2000 / 10000: when to kill, after play
# starts), CRASH_PROFILE (debug, or release), CRASH_BIN_DIR (prebuilt audit-service,
# replayer and loadgen: no build), CRASH_KEEP=1 (keep the round files even when all
# passed), DATABASE_URL_ADMIN (default postgres://postgres@127.0.0.1:5432/postgres, a
# role that may create databases).
#
# The embedded store lives in a temp folder; PostgreSQL gets a fresh database
# crash_<random hex>, dropped at the end, also when the run fails or is interrupted.
# Only 127.0.0.1 is ever contacted.
set -euo pipefail
cd "$(dirname "$0")/.."

ADMIN_URL="${DATABASE_URL_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}"
ROUNDS="${CRASH_ROUNDS:-3}"
TABLES="${CRASH_TABLES:-16}"
HOKM="${CRASH_HOKM_TABLES:-4}"
KILL_MIN="${CRASH_KILL_MIN_MS:-2000}"
KILL_MAX="${CRASH_KILL_MAX_MS:-10000}"
PROFILE="${CRASH_PROFILE:-debug}"

say() { printf '[crash.sh] %s\n' "$*" >&2; }

for v in "$ROUNDS" "$TABLES" "$HOKM" "$KILL_MIN" "$KILL_MAX"; do
  case "$v" in ''|*[!0-9]*) say "CRASH_* settings must be whole numbers (got '$v')"; exit 2 ;; esac
done
if [ "$KILL_MAX" -lt "$KILL_MIN" ]; then
  say "CRASH_KILL_MAX_MS must not be below CRASH_KILL_MIN_MS"; exit 2
fi

what="${1:-all}"
case "$what" in
  embedded|postgres|all) ;;
  *) say "usage: ops/crash.sh [embedded|postgres|all]"; exit 2 ;;
esac
if [ "$what" != embedded ]; then
  case "$ADMIN_URL" in
    postgres://*@127.0.0.1:*|postgres://*@127.0.0.1/*|postgres://*@localhost:*|postgres://*@localhost/*) ;;
    *) say "FATAL: DATABASE_URL_ADMIN must point at 127.0.0.1 or localhost"; exit 2 ;;
  esac
  command -v psql >/dev/null || { say "FATAL: psql is needed"; exit 2; }
  psql "$ADMIN_URL" -Atqc 'select 1' >/dev/null || {
    say "FATAL: cannot connect to $ADMIN_URL"; exit 2; }
fi

if [ -n "${CRASH_BIN_DIR:-}" ]; then
  BIN="$CRASH_BIN_DIR"
  say "using the binaries in $BIN (not rebuilt)"
else
  case "$PROFILE" in
    debug) flag=() ;;
    release) flag=(--release) ;;
    *) say "CRASH_PROFILE must be debug or release"; exit 2 ;;
  esac
  say "building audit-service, replayer and loadgen ($PROFILE)"
  cargo build "${flag[@]}" --locked -p services -p replayer -p loadgen --bins
  BIN="${CARGO_TARGET_DIR:-target}/$PROFILE"
fi
SVC="$BIN/audit-service"
LOADGEN="$BIN/loadgen"
REPLAYER="$BIN/replayer"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/crash.XXXXXX")"
DB=""
SVC_PID=""
DRV_PID=""
failed=0

# Stops what this script started (by pid) and drops its database.
cleanup() {
  for pid in "$DRV_PID" "$SVC_PID"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -9 "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  DRV_PID=""; SVC_PID=""
  if [ -n "$DB" ]; then
    say "dropping database $DB"
    psql "$ADMIN_URL" -Atqc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null || true
    DB=""
  fi
}
on_exit() {
  cleanup
  if [ "$failed" = 0 ] && [ -z "${CRASH_KEEP:-}" ]; then
    rm -rf "$WORK"
  else
    say "round files kept in $WORK"
  fi
}
trap on_exit EXIT
trap 'failed=1; exit 130' INT TERM

# start_service DIR: starts `serve` on a free port with the store flags in STORE;
# sets SVC_PID and URL.
start_service() {
  local dir=$1 out
  out="$dir/serve.$(date +%s%N).out"
  "$SVC" serve --listen 127.0.0.1:0 "${STORE[@]}" >"$out" 2>>"$dir/serve.log" &
  SVC_PID=$!
  for _ in $(seq 1 600); do
    if grep -q '^listening on http://' "$out" 2>/dev/null; then
      URL="$(sed -n 's/^listening on \(http:\/\/.*\)$/\1/p' "$out" | head -n 1)"
      return 0
    fi
    if ! kill -0 "$SVC_PID" 2>/dev/null; then
      say "audit-service exited at start; see $dir/serve.log"
      tail -n 20 "$dir/serve.log" >&2 || true
      return 1
    fi
    sleep 0.1
  done
  say "audit-service did not listen within 60 s"
  return 1
}

# round STORE_NAME N: one kill-restart-check round on the store named by STORE.
round() {
  local name=$1 n=$2 dir t0 kill_ms club
  dir="$WORK/$name-$n"
  mkdir -p "$dir"
  t0=$(date +%s%N)
  # Called as `round … || failed=1`, so `set -e` does not apply in here: each step that
  # can fail says so.
  start_service "$dir" || return 1
  "$SVC" club create --name "crash $name $n" --json "${STORE[@]}" >"$dir/club.json" || return 1
  club="$(sed -n 's/.*"club_id":"\([^"]*\)".*/\1/p' "$dir/club.json")"
  "$LOADGEN" crash drive --url "$URL" --club-file "$dir/club.json" --state "$dir" \
    --tables "$TABLES" --hokm-tables "$HOKM" >"$dir/drive.out" 2>"$dir/drive.log" &
  DRV_PID=$!
  for _ in $(seq 1 600); do
    [ -f "$dir/ready" ] && break
    kill -0 "$DRV_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ ! -f "$dir/ready" ]; then
    say "$name round $n: the driver did not start; see $dir/drive.log"
    tail -n 20 "$dir/drive.log" >&2 || true
    return 1
  fi
  kill_ms=$(( KILL_MIN + (RANDOM * 32768 + RANDOM) % (KILL_MAX - KILL_MIN + 1) ))
  sleep "$(printf '%d.%03d' $((kill_ms / 1000)) $((kill_ms % 1000)))"
  kill -9 "$SVC_PID" || return 1
  wait "$SVC_PID" 2>/dev/null || true
  SVC_PID=""
  # The driver stops by itself once its requests find nobody listening.
  wait "$DRV_PID" || { say "$name round $n: the driver failed; see $dir/drive.log"; DRV_PID=""; return 1; }
  DRV_PID=""
  start_service "$dir" || return 1
  local verdict=0 line audit_line
  line="$("$LOADGEN" crash check --url "$URL" --club-file "$dir/club.json" --state "$dir" \
    --replayer "$REPLAYER" "${STORE[@]}" 2>"$dir/check.log")" || verdict=1
  # The store's projections against the signed log, while the service still runs.
  audit_line="$("$SVC" audit --club "$club" "${STORE[@]}" 2>&1 | tail -n 1)" || verdict=1
  kill -TERM "$SVC_PID"
  wait "$SVC_PID" 2>/dev/null || true
  SVC_PID=""
  local secs=$(( ($(date +%s%N) - t0) / 1000000 ))
  printf '%s round %d/%d: killed %d.%03d s into play; %s; audit: %s; round %d.%d s\n' \
    "$name" "$n" "$ROUNDS" $((kill_ms / 1000)) $((kill_ms % 1000)) "${line:-no report}" \
    "$audit_line" $((secs / 1000)) $(((secs % 1000) / 100))
  if [ "$verdict" != 0 ]; then
    say "$name round $n FAILED; see $dir/check.log and $dir/drive.log"
    grep -h 'FAIL\|unexpected' "$dir/check.log" "$dir/drive.log" | head -n 20 >&2 || true
    return 1
  fi
}

run_store() {
  local name=$1
  if [ "$name" = embedded ]; then
    mkdir -p "$WORK/embedded-data"
    STORE=(--data-dir "$WORK/embedded-data")
    say "embedded store in $WORK/embedded-data (SQLite, WAL, synchronous = FULL)"
  else
    DB="crash_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
    psql "$ADMIN_URL" -Atqc "CREATE DATABASE $DB" >/dev/null
    mkdir -p "$WORK/postgres-data"
    STORE=(--data-dir "$WORK/postgres-data" --database-url "${ADMIN_URL%/*}/$DB")
    # As the service's sessions see them (docs/DURABILITY.md).
    say "PostgreSQL database $DB ($(psql "${ADMIN_URL%/*}/$DB" -Atqc "SELECT 'fsync=' || current_setting('fsync') \
      || ' synchronous_commit=' || current_setting('synchronous_commit') \
      || ' full_page_writes=' || current_setting('full_page_writes')" | tr -d '\n'))"
  fi
  for n in $(seq 1 "$ROUNDS"); do
    round "$name" "$n" || failed=1
  done
  if [ "$name" = postgres ]; then
    cleanup
  fi
}

case "$what" in
  embedded) run_store embedded ;;
  postgres) run_store postgres ;;
  all) run_store embedded; run_store postgres ;;
esac
if [ "$failed" != 0 ]; then
  say "FAILED"
  exit 1
fi
say "all rounds passed"
