#!/usr/bin/env bash
# The store's performance benchmarks, run by hand (never in CI): see ops/README.md.
#
#   ops/bench.sh                 # appends, then history
#   ops/bench.sh appends [ARGS]  # only the append benchmark, extra loadgen arguments
#   ops/bench.sh history [ARGS]  # only the history benchmark
#   ops/bench.sh http [ARGS]     # actions through the HTTP API against the appends
#   ops/bench.sh clublog [ARGS]  # the club log: checkpoint and proof costs at
#                                # CLUBLOG_SIZES leaves, appends with its builder on/off
#
# Environment: BENCH_DURATION_SECS (20), BENCH_CONCURRENCY (1,8,32), BENCH_EVENTS
# (1000000; growing sizes, comma-separated, e.g. 1000000,10000000: the history is
# measured at each, the later against the first; with exactly two sizes each has a
# database of its own and they are measured in interleaved rounds), BENCH_QUERIES (4000
# per size),
# LOADGEN_BIN (a prebuilt loadgen: no build), SERVICE_BIN (a prebuilt
# audit-service, for http: no build), CLUBLOG_SIZES (1000000,10000000), BENCH_CLUBLOG_TABLES
# (8), BENCH_SHARED_BUFFERS (unset: the local server as it is; set, e.g. 6GB: a throw-away
# cluster of the same PostgreSQL started for the run, with that shared_buffers and
# BENCH_PG_PORT (5434), initdb'd in a temporary folder and removed at the end: a server
# sized for its data, as a deployment of that size would be), BENCH_PG_OPTIONS (more
# server options for that cluster, e.g. "-c shared_preload_libraries=pg_stat_statements"),
# BENCH_PREWARM (set: history reads its tables and indexes into shared_buffers with
# pg_prewarm before measuring, the steady state of a server sized to hold them).
#
# Each benchmark gets a fresh database bench_<random hex> on the local PostgreSQL
# (DATABASE_URL_ADMIN, default postgres://postgres@127.0.0.1:5432/postgres, a role
# that may create databases), and http a second one for the service; built in
# --release, and the databases are dropped at the end, also when the run fails or is
# interrupted. Only 127.0.0.1 is ever contacted.
set -euo pipefail
cd "$(dirname "$0")/.."

ADMIN_URL="${DATABASE_URL_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}"
DURATION="${BENCH_DURATION_SECS:-20}"
CONCURRENCY="${BENCH_CONCURRENCY:-1,8,32}"
EVENTS="${BENCH_EVENTS:-1000000}"
QUERIES="${BENCH_QUERIES:-4000}"

say() { printf '[bench.sh] %s\n' "$*" >&2; }

# BENCH_SHARED_BUFFERS: a cluster of our own for the run (as the postgres user; the
# binaries of the local server's version), stopped and removed on exit.
OWN_DIR=""
OWN_BIN=""
stop_own() {
  if [ -n "$OWN_DIR" ]; then
    say "stopping the benchmark's own cluster in $OWN_DIR"
    as_pg "$OWN_BIN/pg_ctl" -D "$OWN_DIR" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$OWN_DIR"
    OWN_DIR=""
  fi
}
as_pg() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
if [ -n "${BENCH_SHARED_BUFFERS:-}" ]; then
  case "$BENCH_SHARED_BUFFERS" in
    *[!0-9A-Za-z]*|'') say "FATAL: BENCH_SHARED_BUFFERS must be a size such as 6GB"; exit 2 ;;
  esac
  port="${BENCH_PG_PORT:-5434}"
  case "$port" in ''|*[!0-9]*) say "FATAL: BENCH_PG_PORT must be a number"; exit 2 ;; esac
  OWN_BIN=$(psql "$ADMIN_URL" -Atqc "select setting from pg_config where name = 'BINDIR'" 2>/dev/null || true)
  [ -n "$OWN_BIN" ] && [ -x "$OWN_BIN/initdb" ] || OWN_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -x "$OWN_BIN/initdb" ] || { say "FATAL: no initdb found"; exit 2; }
  if pg_isready -q -h 127.0.0.1 -p "$port" 2>/dev/null; then
    say "FATAL: something answers on port $port already; set BENCH_PG_PORT"; exit 2
  fi
  OWN_DIR=$(mktemp -d /tmp/bench-pg.XXXXXX)
  trap stop_own EXIT
  chown postgres "$OWN_DIR"; chmod 700 "$OWN_DIR"
  say "own cluster: initdb in $OWN_DIR, port $port, shared_buffers $BENCH_SHARED_BUFFERS"
  as_pg "$OWN_BIN/initdb" -D "$OWN_DIR" -A trust -U postgres --no-sync >/dev/null
  as_pg "$OWN_BIN/pg_ctl" -D "$OWN_DIR" -l "$OWN_DIR/server.log" -w -t 120 \
    -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$OWN_DIR -c shared_buffers=$BENCH_SHARED_BUFFERS -c max_wal_size=8GB -c max_connections=200 ${BENCH_PG_OPTIONS:-}" \
    start >/dev/null || { say "FATAL: the cluster did not start:"; tail -n 20 "$OWN_DIR/server.log" >&2; exit 2; }
  ADMIN_URL="postgres://postgres@127.0.0.1:$port/postgres"
  say "server: $(psql "$ADMIN_URL" -Atqc 'select version()'), shared_buffers $(psql "$ADMIN_URL" -Atqc 'show shared_buffers')"
fi

case "$ADMIN_URL" in
  postgres://*@127.0.0.1:*|postgres://*@127.0.0.1/*|postgres://*@localhost:*|postgres://*@localhost/*) ;;
  *) say "FATAL: DATABASE_URL_ADMIN must point at 127.0.0.1 or localhost"; exit 2 ;;
esac
command -v psql >/dev/null || { say "FATAL: psql is needed"; exit 2; }
psql "$ADMIN_URL" -Atqc 'select 1' >/dev/null || {
  say "FATAL: cannot connect to $ADMIN_URL"; exit 2; }

what="${1:-all}"
[ $# -gt 0 ] && shift

TARGET="${CARGO_TARGET_DIR:-target}/release"
if [ -n "${LOADGEN_BIN:-}" ]; then
  # A loadgen built elsewhere (e.g. against another version of the store, for an A/B).
  BIN="$LOADGEN_BIN"
  say "using $BIN (not rebuilt)"
  SVC_BIN="${SERVICE_BIN:-$TARGET/audit-service}"
elif [ "$what" = http ] && [ -z "${SERVICE_BIN:-}" ]; then
  say "building loadgen and audit-service (--release)"
  cargo build --release --locked -p loadgen -p services --bins
  BIN="$TARGET/loadgen"
  SVC_BIN="$TARGET/audit-service"
else
  say "building loadgen (--release)"
  cargo build --release --locked -p loadgen
  BIN="$TARGET/loadgen"
  SVC_BIN="${SERVICE_BIN:-$TARGET/audit-service}"
fi

DBS=()
drop_dbs() {
  local db
  for db in "${DBS[@]}"; do
    say "dropping database $db"
    psql "$ADMIN_URL" -Atqc "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
  done
  DBS=()
}
trap 'drop_dbs; stop_own' EXIT
trap 'drop_dbs; stop_own; exit 130' INT TERM

# A fresh database, dropped at the end; sets DB and DB_URL.
fresh_db() {
  DB="bench_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  psql "$ADMIN_URL" -Atqc "CREATE DATABASE $DB" >/dev/null
  DBS+=("$DB")
  DB_URL="${ADMIN_URL%/*}/$DB"
  say "database $DB"
}

run_appends() {
  fresh_db
  "$BIN" appends --hands-concurrency "$CONCURRENCY" --duration-secs "$DURATION" \
    --database-url "$DB_URL" "$@"
  drop_dbs
}

run_history() {
  # About 1.45 kB of the database's disk per event, indexes and club_log included
  # (10M events: ~14.5 GB; ops/README.md, fifth round), plus WAL on the way.
  local datadir avail largest need
  datadir="$(psql "$ADMIN_URL" -Atqc 'SHOW data_directory' 2>/dev/null || true)"
  avail="$(df -B1 --output=avail "${datadir:-/}" 2>/dev/null | tail -n 1 | tr -d ' ' || true)"
  case "$avail" in ''|*[!0-9]*) avail="$(df -B1 --output=avail / | tail -n 1 | tr -d ' ')" ;; esac
  local e
  largest=0
  for e in ${EVENTS//,/ }; do
    case "$e" in ''|*[!0-9]*) say "FATAL: BENCH_EVENTS must be numbers, comma-separated"; exit 2 ;; esac
    [ "$e" -gt "$largest" ] && largest=$e
  done
  need=$(( largest * 1450 + 2 * 1024 * 1024 * 1024 ))
  say "history sizes $EVENTS events: needs about $(( need / 1024 / 1024 / 1024 )) GB, $(( avail / 1024 / 1024 / 1024 )) GB free"
  if [ "$avail" -lt "$need" ]; then
    say "FATAL: not enough disk for $largest events"; exit 2
  fi
  fresh_db
  local main_url=$DB_URL
  local interleave=()
  # Two sizes: the first one gets a database of its own too, and the two are measured in
  # interleaved rounds (loadgen history --first-size-database-url), so that the machine's
  # drift over the load's minutes is not counted as the history's growth.
  if [ "$(echo "$EVENTS" | tr ',' '\n' | grep -c .)" -eq 2 ]; then
    fresh_db
    interleave=(--first-size-database-url "$DB_URL")
  fi
  local warm=()
  [ -n "${BENCH_PREWARM:-}" ] && warm=(--prewarm)
  "$BIN" history --events "$EVENTS" --queries "$QUERIES" --database-url "$main_url" \
    "${interleave[@]}" "${warm[@]}" "$@"
  drop_dbs
}

run_http() {
  [ -x "$SVC_BIN" ] || { say "FATAL: no audit-service at $SVC_BIN (SERVICE_BIN)"; exit 2; }
  fresh_db
  local store_url=$DB_URL
  fresh_db
  local service_url=$DB_URL
  "$BIN" http --concurrency "$CONCURRENCY" --duration-secs "$DURATION" \
    --database-url "$store_url" --service-database-url "$service_url" \
    --service-bin "$SVC_BIN" "$@"
  drop_dbs
}

run_clublog() {
  fresh_db
  "$BIN" clublog --sizes "${CLUBLOG_SIZES:-1000000,10000000}" \
    --concurrency "${BENCH_CLUBLOG_TABLES:-8}" --duration-secs "$(( DURATION * 2 ))" \
    --database-url "$DB_URL" "$@"
  drop_dbs
}

case "$what" in
  appends) run_appends "$@" ;;
  clublog) run_clublog "$@" ;;
  history) run_history "$@" ;;
  http) run_http "$@" ;;
  all) run_appends; run_history ;;
  *) say "usage: ops/bench.sh [appends|history|http|clublog|all] [loadgen arguments]"; exit 2 ;;
esac
