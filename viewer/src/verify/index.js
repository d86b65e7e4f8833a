// The viewer's verifier: a second, independent implementation of docs/SHUFFLE.md,
// docs/EVENT-LOG.md and docs/BUNDLE.md, for the browser and Node.
//
//   verifyBundle(bundle, opts)   → {ok, game, hand_id, checks, decks, first_problem, …}
//   verifyMatch(matchFile, opts) → {ok, checks, hands, first_problem, …}
//   verifyRecords(records, opts) → {ok, checks, first_problem, …} (a running hand)
//   verifyFile(file, opts)       → either of the first two, by the file's `format`
//
// `bundle` / `matchFile` may be the file's text (then read strictly: duplicate member
// names, `1.0`, lone surrogates are caught as the format requires), its bytes, or parsed
// JSON. Bad input never throws: it gives ok:false with a `format` check.
export { verifyBundle, verifyRecords, ENGINE_NOTE } from './bundle.js';
export { verifyMatch, MATCH_CHECK_IDS } from './match.js';
export { CHECK_IDS, RULE_CHECK } from './checks.js';

import { verifyBundle, readInput, MATCH_FORMAT } from './bundle.js';
import { verifyMatch } from './match.js';
import { UnreadableJson } from './json.js';

/** Verifies a bundle or a match file, whichever `input` is (by its `format`). */
export async function verifyFile(input, opts = {}) {
  let v;
  try {
    v = readInput(input);
  } catch (e) {
    if (!(e instanceof UnreadableJson)) throw e;
    return { kind: 'bundle', ...(await verifyBundle(input, opts)) };
  }
  if (v && typeof v === 'object' && v.format === MATCH_FORMAT) return { kind: 'match', ...(await verifyMatch(v, opts)) };
  return { kind: 'bundle', ...(await verifyBundle(v, opts)) };
}
