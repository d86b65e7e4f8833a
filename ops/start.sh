#!/usr/bin/env bash
# Start audit-service in the background.
#   ops/start.sh                      embedded store in ./data
#   DATABASE_URL=postgres://… ops/start.sh
# Settings come from the environment (AUDIT_LISTEN, AUDIT_DATA_DIR, DATABASE_URL,
# AUDIT_KEY_FILE); the pid goes to $AUDIT_DATA_DIR/audit-service.pid, the log to
# $AUDIT_DATA_DIR/audit-service.log. Stop it with ops/stop.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
data="${AUDIT_DATA_DIR:-./data}"
mkdir -p "$data"
pidfile="$data/audit-service.pid"
if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
  echo "audit-service is already running (pid $(cat "$pidfile"))" >&2
  exit 1
fi
cargo build --release -q -p services --bin audit-service
AUDIT_DATA_DIR="$data" nohup target/release/audit-service serve \
  >"$data/audit-service.out" 2>>"$data/audit-service.log" &
echo $! >"$pidfile"
for _ in $(seq 1 50); do
  if grep -q '^listening on ' "$data/audit-service.out" 2>/dev/null; then
    cat "$data/audit-service.out"
    exit 0
  fi
  if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
    echo "audit-service exited; see $data/audit-service.log" >&2
    tail -n 20 "$data/audit-service.log" >&2 || true
    exit 1
  fi
  sleep 0.2
done
echo "audit-service did not report listening within 10 s; see $data/audit-service.log" >&2
exit 1
