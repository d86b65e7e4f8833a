// What a step is, for stepping and drawing: play or bookkeeping (seeds, commitments,
// shuffles that move no card), where the hand's result is, and the trick on the table at a
// step (Hokm): the cards played since the last trick was taken, each by its seat, and at
// the step that takes a trick, that whole trick with its winner. Pure functions of the
// records (no DOM), so that they are tested in Node.

const BOOKKEEPING = new Set(['shuffle_committed', 'client_seed', 'seeds_revealed']);
// A shuffle whose effects are only these moves no card to anyone: bookkeeping too.
const QUIET_SHUFFLE_EFFECTS = new Set(['shuffled', 'phase', 'relabelled']);

const bodyOf = (record) => record?.event?.body ?? record?.body ?? null;

/** Whether a step is bookkeeping (a seed, a commitment, a reveal, a shuffle that deals nothing). */
export function isBookkeeping(record) {
  const b = bodyOf(record);
  if (!b) return false;
  if (BOOKKEEPING.has(b.type)) return true;
  if (b.type === 'shuffled') {
    const effects = Array.isArray(b.effects) ? b.effects : [];
    return effects.every((e) => QUIET_SHUFFLE_EFFECTS.has(e?.type));
  }
  return false;
}

/**
 * The step list in groups: `[{kind: 'play', i}, {kind: 'book', from, to}]` (indices into
 * `steps`, `to` inclusive), consecutive bookkeeping steps in one group.
 */
export function groupSteps(steps) {
  const out = [];
  steps.forEach((s, i) => {
    if (isBookkeeping(s.record)) {
      const last = out[out.length - 1];
      if (last && last.kind === 'book' && last.to === i - 1) last.to = i;
      else out.push({ kind: 'book', from: i, to: i });
    } else out.push({ kind: 'play', i });
  });
  return out;
}

/** The next (dir +1) or previous (-1) play step from index `i`; `i` itself when there is none. */
export function nextPlay(steps, i, dir) {
  for (let j = i + dir; j >= 0 && j < steps.length; j += dir) if (!isBookkeeping(steps[j].record)) return j;
  return i;
}

/** The index of the step that ends the hand (its result), else of the last step. */
export function resultIndex(steps) {
  const i = steps.findIndex((s) => bodyOf(s.record)?.type === 'hand_ended' || bodyOf(s.record)?.type === 'abandoned');
  return i >= 0 ? i : Math.max(0, steps.length - 1);
}

/** The step that ends the hand, its body (`hand_ended` or `abandoned`), at or before index `i`; else null. */
export function endedBy(steps, i) {
  for (let j = Math.min(i, steps.length - 1); j >= 0; j--) {
    const b = bodyOf(steps[j].record);
    if (b?.type === 'hand_ended' || b?.type === 'abandoned') return { index: j, body: b };
  }
  return null;
}

/**
 * Hokm's trick at step `i`: `{cards: [{seat, face}], winner, done}`. Between tricks the
 * cards played since the last `trick_won`; at the step whose play takes the trick, that
 * whole trick (its last card included, which the table's view has already gathered into
 * the winner's pile) with `winner` and `done: true`. Faces come from the `played` effects,
 * which are public. A deal annulled starts over.
 */
export function trickAt(steps, i) {
  const cards = [];
  let winner = null;
  for (let j = 0; j <= i && j < steps.length; j++) {
    const b = bodyOf(steps[j].record);
    if (!b || !Array.isArray(b.effects)) continue;
    if (winner !== null) {
      cards.length = 0;
      winner = null;
    }
    for (const e of b.effects) {
      if (e?.type === 'played') cards.push({ seat: e.seat, face: e.card?.face ?? null });
      else if (e?.type === 'trick_won') winner = e.seat;
      else if (e?.type === 'deal_annulled') cards.length = 0;
    }
  }
  return { cards, winner, done: winner !== null };
}

/** The trick number (1-based) a step's trick is, counting the tricks taken before it. */
export function trickNumber(steps, i) {
  let n = 1;
  for (let j = 0; j < i && j < steps.length; j++) {
    const b = bodyOf(steps[j].record);
    for (const e of b?.effects ?? []) if (e?.type === 'trick_won') n++;
  }
  return n;
}
