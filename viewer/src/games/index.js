// Table models for a dropped file (no server, no WebAssembly on this machine): each game's
// JS model folds the recorded effects as the replayer's engine does and draws the view the
// replayer gives for viewer "all" (`replayer replay FILE --step N --json`, its `table`).
//
//   stepViews(bundle, decks[, viewer]) → [{seq, view, text: {en, fa}}], one per event
//
// `bundle` is the parsed bundle (or its text), `decks` the `decks` of verifyBundle's result
// (each shuffle's order). Throws {code: "unsupported_game"} for a game without a model.
import * as bistOYek from './bist-o-yek.js';
import * as hokm from './hokm.js';
import * as bluff from './bluff.js';
import * as ghahve from './ghahve.js';
import * as shelem from './shelem.js';
import * as pasur from './pasur.js';
import { dealerText } from './text.js';
import { parseStrict } from '../verify/json.js';
import { verifyBundleSync } from '../verify/bundle.js';

/** The games with a model, by game id. */
export const MODELS = {
  'bist-o-yek': bistOYek,
  hokm,
  bluff,
  ghahve,
  shelem,
  pasur,
};

export const SUPPORTED_GAMES = Object.keys(MODELS);

/**
 * `viewer`: "all" (default), or `{seat: n}` for what seat n could see after each step (the
 * zones know who has seen each face: the seat's own cards, what was shown to it, what is
 * public), as `replayer replay FILE --step i --as n` gives it.
 */
export function stepViews(bundle, decks, viewer = 'all') {
  const b = typeof bundle === 'string' ? parseStrict(bundle) : bundle;
  const records = b?.records ?? [];
  const start = records[0]?.event?.body;
  const game = start?.game ?? b?.game;
  const model = Object.prototype.hasOwnProperty.call(MODELS, game) ? MODELS[game] : null;
  if (!model) {
    const e = new Error(`no table model for the game ${JSON.stringify(game)}`);
    e.code = 'unsupported_game';
    e.game = game;
    throw e;
  }
  const orders = decks ?? verifyBundleSync(b).decks;
  const seats = start.seats;
  let s = null;
  const out = [];
  for (const r of records) {
    const e = r.event;
    const body = e.body;
    if (body.type === 'hand_started') s = model.init(body, seats);
    else if (s && body.type === 'shuffled') {
      const order = orders[body.shuffle];
      for (const x of body.effects) model.evolve(s, x, order ?? null);
    } else if (s && body.type === 'action') {
      for (const x of body.effects) model.evolve(s, x, null);
    } else if (s && body.type === 'private_action' && model.evolvePrivate) {
      // A private action's effects follow from its opening, revealed at the hand's end.
      const opened = records.at(-1)?.event?.body?.inputs?.find((o) => o.seq === e.seq);
      model.evolvePrivate(s, body, opened ?? null);
    }
    out.push({ seq: e.seq, view: s ? model.view(s, viewer) : null, text: dealerText(body, seats, model.actionText, model.shuffleText, model.endText) });
  }
  return out;
}
