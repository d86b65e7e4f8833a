// Writes fixtures/golden/views.json: for every bundle the view tests read, the digest of
// the replayer's view (`replayer replay FILE --step N --json`, its `table`) after each
// event. Run it with the replayer built (cargo build -p replayer) whenever a fixture is
// added or an engine's view changes: node test/make-golden.mjs --write
import { join } from 'node:path';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { FIXTURES } from './helpers.mjs';
import { REPLAYER, runReplayer } from './replayer.mjs';
import { allBundles, viewDigest } from './helpers.mjs';

// Does nothing unless asked: `node --test test/` loads every file of test/.
if (process.argv.includes('--write')) main();

function main() {
if (!REPLAYER) throw new Error('the replayer is not built: cargo build -p replayer');
const out = {};
for (const [name, b] of allBundles()) {
  const dir = mkdtempSync(join(tmpdir(), 'vlib-g-'));
  const p = join(dir, 'b.json');
  writeFileSync(p, JSON.stringify(b));
  out[name] = b.records.map((_, i) => {
    const r = runReplayer(['replay', p, '--step', String(i), '--json']);
    if (r.code !== 0) throw new Error(`${name} step ${i}: ${r.stderr}`);
    return viewDigest(JSON.parse(r.stdout).table);
  });
  process.stderr.write(`${name}: ${out[name].length} steps\n`);
}
mkdirSync(join(FIXTURES, 'golden'), { recursive: true });
writeFileSync(join(FIXTURES, 'golden', 'views.json'), JSON.stringify(out, null, 1) + '\n');
}
