// One verdict for a hand, the first thing the page shows: verified (by whom, under which
// key), or not verified (where, and why in plain words), and from which step on what the
// page draws is unproven. Pure (no DOM): the page draws it, the tests read it.

/**
 * `hand`: {crypto, rules, ruleSource, steps, status}. Returns
 * {state, problem, badFrom, keys, trust, ruleSource}:
 *  - state: 'pending' | 'running' | 'verified' | 'self' | 'partial' | 'failed'
 *  - problem: the first failing check {id, seq, seat, message} or null
 *  - badFrom: the index of the first step at or after the problem (0 when the problem
 *    belongs to the whole file), null when nothing fails
 */
export function verdictOf(hand) {
  const crypto = hand?.crypto ?? null;
  const rules = Array.isArray(hand?.rules) ? hand.rules : [];
  const steps = Array.isArray(hand?.steps) ? hand.steps : [];
  const failing = [...(crypto?.checks ?? []).filter((c) => c.ok === false), ...rules.filter((r) => r.ok === false)];
  // The earliest problem: a whole-file problem (no step) first, else the lowest step.
  let problem = null;
  for (const c of failing) {
    const seq = Number.isInteger(c.seq) ? c.seq : null;
    if (problem === null) problem = { ...c, seq };
    else if (problem.seq !== null && (seq === null || seq < problem.seq)) problem = { ...c, seq };
  }
  const keys = Array.isArray(crypto?.signers) ? crypto.signers : [];
  const base = { problem, keys, trust: crypto?.trust ?? null, ruleSource: hand?.ruleSource ?? 'none', badFrom: null };
  if (problem) {
    let badFrom = 0;
    if (problem.seq !== null) {
      const i = steps.findIndex((s) => s.seq >= problem.seq);
      badFrom = i >= 0 ? i : steps.length;
    }
    return { ...base, state: 'failed', badFrom };
  }
  if (!crypto) return { ...base, state: 'pending' };
  if (hand.status === 'in_progress' || hand.ruleSource === 'running') return { ...base, state: 'running' };
  const rulesOk = rules.length > 0 && rules.every((r) => r.ok === true);
  if (!rulesOk) return { ...base, state: 'partial' };
  if (crypto.trust !== 'trusted_key') return { ...base, state: 'self' };
  return { ...base, state: 'verified' };
}

/** Whether step index `i` is unproven under verdict `v`. */
export const isUnproven = (v, i) => v?.badFrom !== null && v?.badFrom !== undefined && i >= v.badFrom;
