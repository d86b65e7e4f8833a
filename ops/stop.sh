#!/usr/bin/env bash
# Stop audit-service started by ops/start.sh: SIGTERM, so requests in flight (and their
# appends) finish before it exits (up to its --shutdown-timeout).
set -euo pipefail
cd "$(dirname "$0")/.."
data="${AUDIT_DATA_DIR:-./data}"
pidfile="$data/audit-service.pid"
if [ ! -f "$pidfile" ]; then
  echo "no $pidfile: audit-service was not started by ops/start.sh" >&2
  exit 1
fi
pid=$(cat "$pidfile")
if kill -0 "$pid" 2>/dev/null; then
  kill -TERM "$pid"
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "audit-service (pid $pid) still running after 30 s" >&2
    exit 1
  fi
fi
rm -f "$pidfile"
echo "stopped"
