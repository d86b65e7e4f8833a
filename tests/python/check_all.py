#!/usr/bin/env python3
"""Run every independent Python check of the formats in docs/ and sum their results.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_all.py

Runs check_shuffle_vectors.py (docs/SHUFFLE.md), check_event_vectors.py
(docs/EVENT-LOG.md), check_shuffle_sources.py (the `source` of `shuffled` events and the
revealed faces, EVENT-LOG.md §3.4 and §11, on docs/vectors/bundles-v1/),
check_match_vectors.py (the links of a match file, docs/BUNDLE.md §8, on
docs/vectors/match-v1/), check_transparency_vectors.py (the club transparency log,
docs/TRANSPARENCY.md) and check_chain_vectors.py (seed chains and player action
signatures, docs/SHUFFLE.md §12 and EVENT-LOG.md §9, on docs/vectors/seed-chain-v1.json and
the chained match vectors) and check_docs_vs_binary.py (the statements of BUNDLE.md,
EVENT-LOG.md, the JSON Schemas and README.md against `replayer` itself: simulated hands of
every game against the schemas, hex case, match files, rule order, section numbers; it
builds the replayer with cargo unless REPLAYER names a binary), each in its own interpreter, shows their output, and ends with one line "N passed, M failed" over all of them. Exits 1 if
any vector failed or a checker could not run.

The checkers are one independent implementation of the documents, not one each: the
shuffle-sources check imports the cards, decks and shuffle of check_shuffle_vectors.py,
the match check the strict reading and canonical hash of check_event_vectors.py, and the
transparency check its canonical hash (copies of them had already drifted apart).
"""

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHECKERS = [
    "check_shuffle_vectors.py",
    "check_event_vectors.py",
    "check_shuffle_sources.py",
    "check_match_vectors.py",
    "check_transparency_vectors.py",
    "check_chain_vectors.py",
    "check_docs_vs_binary.py",
]
SUMMARY = re.compile(r"^(\d+) passed, (\d+) failed$")


def run(script):
    """Run one checker; returns (passed, failed) from its last line."""
    proc = subprocess.run(
        [sys.executable, str(HERE / script)],
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    lines = proc.stdout.splitlines()
    for line in lines[:-1]:
        print("%s: %s" % (script, line))
    for line in proc.stderr.splitlines():
        print("%s (stderr): %s" % (script, line))
    m = SUMMARY.match(lines[-1].strip()) if lines else None
    if m is None:
        print("FAIL %s: exited %d without a summary line" % (script, proc.returncode))
        return 0, 1
    passed, failed = int(m.group(1)), int(m.group(2))
    print("%s: %d passed, %d failed" % (script, passed, failed))
    if proc.returncode != 0 and failed == 0:
        print("FAIL %s: exited %d" % (script, proc.returncode))
        failed = 1
    return passed, failed


def main():
    total_passed = total_failed = 0
    for script in CHECKERS:
        p, f = run(script)
        total_passed += p
        total_failed += f
    print("%d passed, %d failed" % (total_passed, total_failed))
    return 0 if total_failed == 0 and total_passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
