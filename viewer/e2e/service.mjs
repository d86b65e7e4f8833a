// The real service for the browser tests: the built `audit-service` binary on its
// embedded store in a fresh folder, on a free port; a club; bist-o-yek played over the API.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A built binary of the workspace: $<ENV>, else <target>/debug/<name>. */
export function binary(name, env) {
  if (process.env[env]) return process.env[env];
  const target = process.env.CARGO_TARGET_DIR || join(REPO, 'target');
  for (const profile of ['debug', 'release']) {
    const p = join(target, profile, name);
    if (existsSync(p)) return p;
  }
  throw new Error(`${name} is not built: run cargo build (or set ${env})`);
}

export async function startService() {
  const bin = binary('audit-service', 'AUDIT_SERVICE_BIN');
  const data = mkdtempSync(join(tmpdir(), 'viewer-e2e-'));
  // The embedded store in its own folder, whatever the environment names.
  const env = { ...process.env, RUST_LOG: 'info' };
  for (const k of ['DATABASE_URL', 'AUDIT_READ_DATABASE_URL', 'AUDIT_DATA_DIR', 'AUDIT_KEY_FILE', 'AUDIT_LISTEN']) delete env[k];
  const club = JSON.parse(execFileSync(bin, ['club', 'create', '--name', 'Kish club', '--json', '--data-dir', data], { env: { ...env, RUST_LOG: 'warn' } }).toString());
  const child = spawn(bin, ['serve', '--listen', '127.0.0.1:0', '--workers', '2', '--data-dir', data], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => {
    log += d.toString();
  });
  const base = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (line) => {
      const m = /^listening on (http:\/\/\S+)/.exec(line.trim());
      if (m) resolve(m[1]);
      else reject(new Error(`unexpected first line ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`audit-service exited (${code}): ${log}`)));
  });
  return {
    base,
    data,
    club: club.club_id,
    admin: club.admin_key,
    log: () => log,
    // The store's folder goes once the process has exited (it writes until then).
    stop: () => {
      child.once('exit', () => rmSync(data, { recursive: true, force: true }));
      child.kill('SIGTERM');
    },
  };
}

export async function api(svc, method, path, token, body) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(svc.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body: json, text };
}

export async function must(svc, method, path, token, body, want = [200, 201]) {
  const r = await api(svc, method, path, token, body);
  if (!want.includes(r.status)) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
  return r.body;
}

/** A small deterministic generator (xorshift), as the Rust tests' Rng. */
export function rng(seed) {
  let x = BigInt(seed);
  const M = (1n << 64n) - 1n;
  return {
    below(n) {
      x ^= (x << 13n) & M;
      x ^= x >> 7n;
      x ^= (x << 17n) & M;
      return Number(x % BigInt(Math.max(1, n)));
    },
  };
}

export async function createTable(svc, players = ['Dariush', 'Shirin', 'Babak']) {
  const t = await must(svc, 'POST', '/v1/tables', svc.admin, { game: 'bist-o-yek', seats: players.map((p) => ({ player: p })) });
  return { id: t.table_id, tokens: t.seats.map((s) => s.token), players };
}

export async function startHand(svc, table) {
  const h = await must(svc, 'POST', `/v1/tables/${table.id}/hands`, svc.admin, {});
  return h.hand_id;
}

function choose(legal, r) {
  const of = (t) => legal.find((l) => l.type === t);
  const take = of('accept_bank') ?? of('announce_khabar');
  if (take) return take;
  const l = legal[r.below(legal.length)];
  if (l.type === 'bet' || l.type === 'side_bet') return { type: l.type, amount: l.min + r.below(l.max - l.min + 1) };
  if (l.type === 'hit') return { type: 'hit' };
  return l;
}

/** One step of play; the hand as the admin sees it once it is over, else null. */
export async function step(svc, hand, table, r) {
  const h = await must(svc, 'GET', `/v1/hands/${hand}`, svc.admin);
  if (h.status !== 'in_progress') return h;
  if (h.to_act.shuffle_pending) {
    for (const t of table.tokens) {
      await api(svc, 'POST', `/v1/hands/${hand}/entropy`, t, { seed: randomBytes(16).toString('hex') });
    }
    const again = await must(svc, 'GET', `/v1/hands/${hand}`, svc.admin);
    if (again.to_act.shuffle_pending) await must(svc, 'POST', `/v1/hands/${hand}/deal`, svc.admin, {});
    return null;
  }
  const seat = h.to_act.actors.find((a) => a && typeof a === 'object').seat;
  const legal = await must(svc, 'GET', `/v1/hands/${hand}/legal-actions`, table.tokens[seat]);
  const action = choose(legal.legal_actions, r);
  await must(svc, 'POST', `/v1/hands/${hand}/actions`, table.tokens[seat], { action, expected_seq: legal.next_seq });
  return null;
}

export async function playToEnd(svc, hand, table, seed) {
  const r = rng(seed);
  for (let i = 0; i < 3000; i++) {
    const done = await step(svc, hand, table, r);
    if (done) return done;
  }
  throw new Error('the hand did not end');
}
