#!/usr/bin/env bash
# Runs every test on a fresh Debian machine, doing its own set-up first:
#  - installs PostgreSQL if it is missing and starts it if it is not running
#    (fails loudly, never skips, when it cannot);
#  - installs the Python packages the independent shuffle checker and the OpenAPI
#    validation (run by an end-to-end test) need;
#  - runs the independent Python re-derivation of the shuffle test vectors;
#  - runs the whole cargo workspace's tests (unit, property, end-to-end against
#    PostgreSQL and the embedded store).
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
