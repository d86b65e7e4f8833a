#!/usr/bin/env bash
# How long `replayer view` takes against `replayer verify` on the same long hands, in the
# same run (issue 28, point 7: `view` within 3 s for an 800-event hand).
#
#   ops/view-bench.sh                       # this tree's replayer, release build
#   ops/view-bench.sh --baseline REV        # and the replayer of git revision REV, same files
#
# Long hands are simulated (`replayer simulate`): Bluff for 8 seats (two packs) and
# Bist-o-yek for 8 seats (a whole banker's turn), several seeds each, plus whatever
# bundles are named in EXTRA (space-separated paths). For each file: its events and size,
# the seconds of `verify`, of `view` (this tree) and of `view` (the baseline), the ratio of
# view to verify, and the size of each page. Needs a release build (built here if missing:
# `cargo build --release -p replayer`); the baseline is built from `git archive REV` into
# the same target folder (its binary copied aside), so only the replayer crate is rebuilt.
set -euo pipefail
cd "$(dirname "$0")/.."

BASELINE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --baseline) BASELINE="$2"; shift 2 ;;
    *) echo "usage: $0 [--baseline REV]" >&2; exit 2 ;;
  esac
done

say() { printf '[view-bench] %s\n' "$*" >&2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/view-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
TARGET="${CARGO_TARGET_DIR:-$PWD/target}"

BASE_BIN=""
if [ -n "$BASELINE" ]; then
  say "building the baseline replayer ($BASELINE)"
  mkdir -p "$TMP/base"
  git archive "$BASELINE" | tar -x -C "$TMP/base"
  cargo build --release -q -p replayer --locked --manifest-path "$TMP/base/Cargo.toml" --target-dir "$TARGET"
  cp "$TARGET/release/replayer" "$TMP/replayer-base"
  BASE_BIN="$TMP/replayer-base"
fi
say "building this tree's replayer"
cargo build --release -q -p replayer --locked
BIN="$TARGET/release/replayer"

# Seconds a command takes (wall clock), its output thrown away; fails if it fails.
secs() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

files=()
for spec in "bluff 8 01" "bluff 8 02" "bluff 8 03" "bist-o-yek 8 01" "bist-o-yek 8 02"; do
  read -r game players s <<<"$spec"
  f="$TMP/$game-$players-$s.json"
  "$BIN" simulate --game "$game" --players "$players" --seed "$(printf "$s%.0s" $(seq 32))" -o "$f" >/dev/null
  files+=("$f")
done
for f in ${EXTRA:-}; do files+=("$f"); done

printf '%-26s %7s %9s %8s %8s %8s %8s %10s %10s\n' file events bytes verify view ratio "view(b)" page page_b
for f in "${files[@]}"; do
  events=$(jq '.records | length' "$f" 2>/dev/null || jq '[.hands[].records | length] | add' "$f")
  bytes=$(stat -c %s "$f")
  t_verify=$(secs "$BIN" verify "$f")
  t_view=$(secs "$BIN" view "$f" --out "$TMP/page.html")
  page=$(stat -c %s "$TMP/page.html")
  ratio=$(awk -v v="$t_view" -v w="$t_verify" 'BEGIN { printf "%.1f", v / (w > 0.005 ? w : 0.005) }')
  t_base="-"; page_b="-"
  if [ -n "$BASE_BIN" ]; then
    t_base=$(secs "$BASE_BIN" view "$f" --out "$TMP/page-base.html")
    page_b=$(stat -c %s "$TMP/page-base.html")
  fi
  printf '%-26s %7s %9s %8s %8s %8s %8s %10s %10s\n' "$(basename "$f")" "$events" "$bytes" "$t_verify" "$t_view" "$ratio" "$t_base" "$page" "$page_b"
done
