#!/usr/bin/env bash
# Runs every test on a fresh Debian machine, doing its own set-up first:
#  - installs PostgreSQL if it is missing and starts it if it is not running
#    (fails loudly, never skips, when it cannot);
#  - starts a streaming hot standby of it on port 5433 (fresh pg_basebackup) and
#    exports DATABASE_URL_READ_ADMIN, so the PostgreSQL end-to-end tests read off it;
#  - installs the Python packages the independent shuffle checker and the OpenAPI
#    validation (run by an end-to-end test) need;
#  - runs the independent Python re-derivation of the shuffle test vectors;
#  - runs the whole cargo workspace's tests (unit, property, end-to-end against
#    PostgreSQL and the embedded store);
#  - installs Debian's chromium and the viewer's pinned Node
#    packages if missing, runs the viewer's verifier and table-model tests (viewer/test)
#    and the replay page's end-to-end tests in headless Chromium (viewer/e2e;
#    screenshots in viewer/e2e/artifacts/).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[test.sh] %s\n' "$*" >&2; }

PGURL="${DATABASE_URL_ADMIN:-postgres://postgres@127.0.0.1:5432/postgres}"
export DATABASE_URL_ADMIN="$PGURL"

pg_ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
installed_pg=0

if ! command -v pg_ctlcluster >/dev/null 2>&1 && ! command -v pg_isready >/dev/null 2>&1; then
  say "PostgreSQL is not installed: installing it"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
  installed_pg=1
fi

if ! pg_ready; then
  say "PostgreSQL is not running: starting it"
  ver=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$ver" ]; then
    say "FATAL: no PostgreSQL cluster under /etc/postgresql"; exit 1
  fi
  pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
  for _ in $(seq 1 30); do pg_ready && break; sleep 1; done
fi
if ! pg_ready; then
  say "FATAL: PostgreSQL is not reachable on 127.0.0.1:5432; the end-to-end tests need it"
  exit 1
fi
# Trust auth for local TCP connections is what this machine has. A cluster this script
# has just installed asks for a password instead: let local TCP connections in as on
# the project's machines (this cluster exists only for the tests).
if [ "$installed_pg" = 1 ] && ! psql "$PGURL" -Atqc 'select 1' >/dev/null 2>&1; then
  say "trusting local TCP connections on the PostgreSQL just installed"
  hba=$(su postgres -c "psql -Atqc 'show hba_file'")
  sed -i '1i host all all 127.0.0.1/32 trust' "$hba"
  su postgres -c "psql -Atqc 'select pg_reload_conf()'" >/dev/null
fi
if ! psql "$PGURL" -Atqc 'select 1' >/dev/null 2>&1; then
  say "FATAL: cannot connect to $PGURL (set DATABASE_URL_ADMIN to a superuser URL)"
  exit 1
fi

# A streaming hot standby of the test cluster on port 5433, for the end-to-end tests
# of reads off the primary (--read-database-url): a fresh pg_basebackup each run, so it
# never holds a previous run's state. Fails loudly when it cannot start.
STANDBY_PORT="${STANDBY_PORT:-5433}"
STANDBY_DIR="${STANDBY_DIR:-/tmp/pc-standby-$STANDBY_PORT}"
pg_bin() {
  local d
  d=$(psql "$PGURL" -Atqc "select setting from pg_config where name = 'BINDIR'" 2>/dev/null || true)
  if [ -n "$d" ] && [ -x "$d/pg_ctl" ]; then echo "$d"; return; fi
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$d" ] || { say "FATAL: no PostgreSQL binaries (pg_ctl, pg_basebackup) found"; exit 1; }
  echo "$d"
}
as_pg() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
start_standby() {
  local bin hba
  bin=$(pg_bin)
  hba=$(psql "$PGURL" -Atqc 'show hba_file')
  if ! grep -Eq '^[[:space:]]*host[[:space:]]+replication[[:space:]]+all[[:space:]]+127\.0\.0\.1/32[[:space:]]+trust' "$hba"; then
    say "letting local TCP replication connections in ($hba)"
    sed -i '1i host replication all 127.0.0.1/32 trust' "$hba"
    psql "$PGURL" -Atqc 'select pg_reload_conf()' >/dev/null
  fi
  # A standby left by an earlier run: stop it, whatever state it is in, and start over.
  if [ -f "$STANDBY_DIR/postmaster.pid" ]; then
    say "stopping the standby left in $STANDBY_DIR"
    as_pg "$bin/pg_ctl" -D "$STANDBY_DIR" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if pg_isready -q -h 127.0.0.1 -p "$STANDBY_PORT" 2>/dev/null; then
    say "FATAL: something else answers on port $STANDBY_PORT; set STANDBY_PORT"; exit 1
  fi
  rm -rf "$STANDBY_DIR"
  mkdir -p "$STANDBY_DIR"; chown postgres "$STANDBY_DIR"; chmod 700 "$STANDBY_DIR"
  say "hot standby: pg_basebackup into $STANDBY_DIR"
  as_pg "$bin/pg_basebackup" -h 127.0.0.1 -p 5432 -U postgres -D "$STANDBY_DIR" -R -X stream -c fast
  # Debian keeps a cluster's configuration outside its data folder, so the copy has
  # none: the standby's own, with the primary's limits a hot standby may not go below.
  {
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $STANDBY_PORT"
    echo "unix_socket_directories = '/tmp'"
    echo "hot_standby = on"
    echo "hba_file = '$hba'"
    echo "ident_file = '$(psql "$PGURL" -Atqc 'show ident_file')'"
    for g in max_connections max_worker_processes max_wal_senders max_prepared_transactions max_locks_per_transaction; do
      echo "$g = $(psql "$PGURL" -Atqc "show $g")"
    done
  } > "$STANDBY_DIR/postgresql.conf"
  chown postgres "$STANDBY_DIR/postgresql.conf"
  as_pg "$bin/pg_ctl" -D "$STANDBY_DIR" -l "$STANDBY_DIR/standby.log" -w -t 60 start >/dev/null \
    || { say "FATAL: the standby did not start:"; tail -n 30 "$STANDBY_DIR/standby.log" >&2; exit 1; }
  export DATABASE_URL_READ_ADMIN="postgres://postgres@127.0.0.1:$STANDBY_PORT/postgres"
  for _ in $(seq 1 60); do
    [ "$(psql "$DATABASE_URL_READ_ADMIN" -Atqc 'select pg_is_in_recovery()' 2>/dev/null)" = t ] && break
    sleep 1
  done
  if [ "$(psql "$DATABASE_URL_READ_ADMIN" -Atqc 'select pg_is_in_recovery()' 2>/dev/null)" != t ]; then
    say "FATAL: no hot standby in recovery on port $STANDBY_PORT:"; tail -n 30 "$STANDBY_DIR/standby.log" >&2; exit 1
  fi
  # Replay may have been left paused by an interrupted test of an earlier run.
  psql "$DATABASE_URL_READ_ADMIN" -Atqc 'select pg_wal_replay_resume()' >/dev/null
  say "hot standby streaming on 127.0.0.1:$STANDBY_PORT"
}
start_standby

say "independent shuffle check (Python, hashlib + cryptography's ChaCha20)"
# openapi-spec-validator is for the end-to-end test that validates /v1/openapi.json.
if ! python3 -c 'import cryptography, rfc8785, openapi_spec_validator' 2>/dev/null; then
  if ! python3 -m pip --version >/dev/null 2>&1; then
    say "pip is not installed: installing it"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq python3-pip >/dev/null
  fi
  # Debian's Python refuses user installs into the system (PEP 668) unless told.
  python3 -m pip install -q -r tests/python/requirements.txt \
    || python3 -m pip install -q --break-system-packages -r tests/python/requirements.txt
fi
python3 tests/python/check_all.py

say "cargo test --workspace"
cargo test --workspace --locked

# The replay page end to end in headless Chromium (viewer/e2e): Debian's chromium, which
# playwright-core drives over its own protocol (no chromedriver), installed here when
# missing, as PostgreSQL is.
say "the replay page in headless Chromium (viewer/e2e)"
if ! command -v chromium >/dev/null 2>&1; then
  say "Chromium is not installed: installing chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  say "Node is not installed: installing nodejs and npm"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq nodejs npm >/dev/null
fi
if [ ! -d viewer/node_modules/playwright-core ] || [ ! -d viewer/node_modules/esbuild ] \
  || [ viewer/package-lock.json -nt viewer/node_modules/.package-lock.json ]; then
  say "installing the viewer's pinned packages (npm ci)"
  (cd viewer && npm ci --no-audit --no-fund --loglevel=error)
fi
# The binaries the browser tests start: built by the tests above already.
cargo build --workspace --bins --locked
# The in-browser verifier and table models against every vector and the replayer's own
# verdicts and views (viewer/test; the replayer binary is required here).
say "the viewer's verifier and table models (viewer/test)"
(cd viewer && REQUIRE_REPLAYER=1 node --test test/)
(cd viewer && CHROMIUM_BIN="$(command -v chromium)" node --test e2e/*.test.mjs)
