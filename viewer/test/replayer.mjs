// The reference verifier, where it is built: `cargo build -p replayer` (with
// CARGO_TARGET_DIR, or the workspace's target/), or REPLAYER=path. Tests that compare
// with it run only when it is there; REQUIRE_REPLAYER=1 makes its absence a failure.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './helpers.mjs';

const candidates = [
  process.env.REPLAYER,
  process.env.CARGO_TARGET_DIR && join(process.env.CARGO_TARGET_DIR, 'debug', 'replayer'),
  process.env.CARGO_TARGET_DIR && join(process.env.CARGO_TARGET_DIR, 'release', 'replayer'),
  join(REPO, 'target', 'debug', 'replayer'),
  join(REPO, 'target', 'release', 'replayer'),
].filter(Boolean);

export const REPLAYER = candidates.find((p) => existsSync(p)) ?? null;
if (!REPLAYER && process.env.REQUIRE_REPLAYER === '1') throw new Error('REQUIRE_REPLAYER=1 but no replayer binary: cargo build -p replayer');

/** Runs the replayer with args; returns {code, stdout, stderr}. */
export function runReplayer(args, opts = {}) {
  const r = spawnSync(REPLAYER, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...opts });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `replayer verify --json FILE`: {code, verdict, stderr}. */
export function replayerVerify(file, extra = []) {
  const r = runReplayer(['verify', '--json', ...extra, file]);
  let verdict = null;
  try {
    verdict = r.stdout ? JSON.parse(r.stdout) : null;
  } catch {
    verdict = null;
  }
  return { code: r.code, verdict, stderr: r.stderr };
}
