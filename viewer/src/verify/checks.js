// The checks the viewer shows, and which rule of docs/EVENT-LOG.md §12 belongs to which.

/** The checks, in the order the panel lists them. */
export const CHECK_IDS = [
  'format',
  'chain',
  'signatures',
  'commitments',
  'seed_chain',
  'decks',
  'player_signatures',
  'private_inputs',
  'log_proof',
];

/** Rule name (docs/EVENT-LOG.md §12, Summary of checks) → check id. */
export const RULE_CHECK = {
  unreadable: 'format',
  unsupported: 'format',
  encoding: 'format',
  event_format: 'format',
  event_version: 'format',
  first_event: 'format',
  prev_hand: 'format',
  shuffle_version: 'format',
  seats: 'format',
  header: 'format',
  abandon_reason: 'format',
  hash: 'chain',
  sequence: 'chain',
  chain: 'chain',
  hand_id: 'chain',
  complete: 'chain',
  time_order: 'chain',
  after_reveal: 'chain',
  after_end: 'chain',
  reveal_at_end: 'chain',
  bundle_key_id: 'signatures',
  signer: 'signatures',
  signature: 'signatures',
  reveal_all: 'commitments',
  reveal_order: 'commitments',
  server_seed: 'commitments',
  commitment: 'commitments',
  commitment_order: 'commitments',
  commit_at_once: 'commitments',
  seed_chain: 'seed_chain',
  seed_chain_seeds: 'seed_chain',
  seed_chain_anchor: 'seed_chain',
  client_entropy: 'decks',
  client_seed_window: 'decks',
  seat: 'decks',
  client_seed_once: 'decks',
  shuffle_order: 'decks',
  shuffle_request: 'decks',
  shuffle_source: 'decks',
  deck_seed: 'decks',
  effects: 'decks',
  player_signature: 'player_signatures',
  player_signature_required: 'player_signatures',
  player_signatures: 'player_signatures',
  private_input: 'private_inputs',
  reveal_inputs: 'private_inputs',
  log_proof: 'log_proof',
};

/** A problem found: where, which rule, what was expected against what was found. */
export class Problem {
  constructor(seq, rule, expected, found, seat = null) {
    this.seq = seq;
    this.rule = rule;
    this.expected = expected;
    this.found = found;
    this.seat = seat;
  }
  get check() {
    return RULE_CHECK[this.rule] ?? 'format';
  }
  get message() {
    const where = this.seq === null ? 'bundle' : `event ${this.seq}`;
    const seat = this.seat === null ? '' : `, seat ${this.seat}`;
    return `${where}${seat}: ${this.rule}: expected ${this.expected}, found ${this.found}`;
  }
}

/**
 * The panel's checks from the first problem (or none) and what applied:
 * `applicable[id]` false makes a check null ("not applicable"); `done` lists the checks
 * finished before the problem was found.
 */
export function buildChecks(problem, { applicable = {}, done = [], notes = {} } = {}) {
  const failed = problem ? problem.check : null;
  return CHECK_IDS.map((id) => {
    if (id === failed) {
      return { id, ok: false, seq: problem.seq, rule: problem.rule, seat: problem.seat, expected: problem.expected, found: problem.found, message: problem.message };
    }
    if (applicable[id] === false) {
      return { id, ok: null, seq: null, rule: null, message: notes[id] ?? 'not applicable to this hand' };
    }
    if (problem && !done.includes(id)) {
      const where = problem.seq === null ? 'the bundle' : `event ${problem.seq}`;
      return { id, ok: null, seq: null, rule: null, message: `not finished: verification stops at the first problem (${where}, ${problem.rule})` };
    }
    return { id, ok: true, seq: null, rule: null, message: notes[id] ?? 'passed' };
  });
}
