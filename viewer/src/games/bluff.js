// Bluff (بلوف): the table model for a dropped file. It folds each recorded effect as the
// replayer's engine does (`evolve`) and draws the view the replayer gives for viewer "all";
// who may act follows /work/shared/rules/bluff.md (the turn, and the seats that may ask the
// next player to challenge).
import { Zones, Z, NOBODY, seenBy, viewerJson } from './zones.js';
import { seatName, cardEn, cardFa, faNum } from './text.js';

const PILE = Z.pile(0);
const right = (seat, n) => (seat + 1) % n;

export function init(start) {
  const m = start.match_state;
  return {
    rules: start.rules,
    seats: m.seats,
    dealer: m.dealer,
    zones: new Zones(),
    shuffles: 0,
    phase: { name: 'deal' },
    pile: [],
    round_rank: null,
    ended_round_rank: null,
    lead_reason: 'hand_start',
    lead_count: 0,
    played_this_round: [],
    window_open: false,
    requests: [],
    pending_out: null,
    out_order: [],
    turn: right(m.dealer, m.seats),
    last_challenge: null,
    thief: null,
  };
}

export function evolve(s, e, order) {
  switch (e.type) {
    case 'shuffled':
      if (e.reason === 'deal' && order) s.zones.install(Z.stock, e.shuffle, order, NOBODY);
      s.shuffles = e.shuffle + 1;
      break;
    case 'dealt':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
      break;
    case 'set_aside':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.out, NOBODY);
      break;
    case 'play_started':
      s.phase = { name: 'play' };
      s.turn = e.starter;
      s.lead_reason = 'hand_start';
      break;
    case 'played':
      for (const r of e.cards) s.zones.moveCard(Z.hand(e.seat), r, PILE, seenBy(e.seat));
      s.pile.push({ seat: e.seat, rank: e.rank, cards: e.cards.map((r) => ({ ...r })), lead: e.lead });
      if (e.lead) {
        s.round_rank = e.rank;
        s.ended_round_rank = null;
        s.lead_count = e.count;
        s.played_this_round = [e.seat];
      } else {
        s.played_this_round.push(e.seat);
      }
      s.window_open = true;
      s.requests = [];
      break;
    case 'passed':
      s.window_open = false;
      s.requests = [];
      s.played_this_round.push(e.seat);
      break;
    case 'out_pending':
      s.pending_out = e.seat;
      break;
    case 'went_out':
      s.out_order.push(e.seat);
      s.pending_out = null;
      break;
    case 'back_in':
      s.pending_out = null;
      break;
    case 'turn':
      s.turn = e.seat;
      break;
    case 'round_lapped':
      s.ended_round_rank = e.rank;
      s.round_rank = null;
      s.lead_reason = 'after_lap';
      s.played_this_round = [];
      break;
    case 'challenge_requested':
      s.requests.push(e.by);
      break;
    case 'not_challenged':
      s.window_open = false;
      s.requests = [];
      break;
    case 'challenged':
      for (const c of e.cards) s.zones.reveal(c.card);
      s.window_open = false;
      s.last_challenge = { challenger: e.challenger, challenged: e.seat, rank: e.rank, count: e.cards.length, truthful: e.truthful, taker: e.taker };
      break;
    case 'pile_taken':
      s.zones.moveAll(PILE, Z.hand(e.seat), seenBy(e.seat));
      s.pile = [];
      s.round_rank = null;
      s.ended_round_rank = null;
      s.played_this_round = [];
      s.lead_reason = 'after_challenge';
      s.window_open = false;
      s.requests = [];
      break;
    case 'phase':
      s.phase = e.phase;
      break;
    case 'relabelled':
      if (order) s.zones.relabel(Z.hand(e.seat), e.shuffle, order, seenBy(e.seat));
      s.shuffles = e.shuffle + 1;
      s.phase = { name: 'play' };
      break;
    case 'hand_ended':
      s.thief = e.thief;
      s.phase = { name: 'over' };
      s.window_open = false;
      s.requests = [];
      break;
    default:
      break;
  }
}

const held = (s, seat) => s.zones.len(Z.hand(seat));
const lastPlay = (s) => (s.window_open ? (s.pile[s.pile.length - 1] ?? null) : null);
const mayRequest = (s, seat) => {
  const lp = lastPlay(s);
  return s.phase.name === 'play' && seat < s.seats && seat !== s.turn && held(s, seat) > 0 && !s.requests.includes(seat) && lp !== null && lp.seat !== seat;
};

function toAct(s) {
  if (s.phase.name !== 'play') return [];
  const out = [{ seat: s.turn }];
  for (let i = 0; i < s.seats; i++) if (mayRequest(s, i)) out.push({ seat: i });
  return out;
}

const sameRef = (a, b) => a.shuffle === b.shuffle && a.pos === b.pos;

export function view(s, viewer = 'all') {
  const pileCards = s.zones.zoneView(PILE, viewer);
  const v = {
    viewer: viewerJson(viewer),
    seats: s.seats,
    dealer: s.dealer,
    phase: s.phase,
    to_act: toAct(s),
  };
  if (s.phase.name === 'play' || s.phase.name === 'relabel') v.turn = s.turn;
  Object.assign(v, {
    round_rank: s.round_rank,
    ended_round_rank: s.ended_round_rank,
    lead_reason: s.lead_reason,
    played_this_round: [...s.played_this_round],
    window_open: s.window_open,
    requests: [...s.requests],
  });
  if (s.pending_out !== null) v.pending_out = s.pending_out;
  v.out_order = [...s.out_order];
  if (s.last_challenge) v.last_challenge = { ...s.last_challenge };
  v.hands = [...Array(s.seats).keys()].map((seat) => ({ seat, count: held(s, seat), cards: s.zones.zoneView(Z.hand(seat), viewer) }));
  v.pile_size = s.zones.len(PILE);
  v.pile = s.pile.map((p) => ({ seat: p.seat, rank: p.rank, count: p.cards.length, lead: p.lead, cards: pileCards.filter((c) => p.cards.some((r) => sameRef(r, c.ref))) }));
  v.set_aside = s.zones.zoneView(Z.out, viewer);
  if (s.thief !== null) v.thief = s.thief;
  return v;
}

const RANK_FA = { J: 'سرباز', Q: 'بی‌بی', K: 'شاه', A: 'تک' };
const rankFa = (r) => RANK_FA[r] ?? faNum(r);
const RANK_EN = { J: 'jacks', Q: 'queens', K: 'kings', A: 'aces' };
const rankEn = (r) => RANK_EN[r] ?? `${r}s`;

export function actionText(body, seats) {
  const a = body.action;
  const who = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
  const eff = (t) => body.effects.filter((e) => e.type === t);
  const played = eff('played')[0];
  const ch = eff('challenged')[0];
  if (played) {
    return {
      en: `${who.en} puts down ${played.count} card(s), saying "${played.count} ${rankEn(played.rank)}"`,
      fa: `${who.fa} ${faNum(played.count)} برگ گذاشت و گفت «${faNum(played.count)} تا ${rankFa(played.rank)}»`,
    };
  }
  if (ch) {
    const faces = ch.cards.map((c) => c.face);
    const taker = seatName(seats, ch.taker);
    return {
      en: `${who.en} calls bluff: ${faces.map(cardEn).join(', ')}; ${ch.truthful ? 'it was true' : 'it was a bluff'}, ${taker.en} takes the pile`,
      fa: `${who.fa} اعلام بلوف کرد: ${faces.map(cardFa).join('، ')}؛ ${ch.truthful ? 'راست بود' : 'بلوف بود'} و ${taker.fa} همه برگ‌ها را برداشت`,
    };
  }
  switch (a.type) {
    case 'no_challenge':
      return { en: `${who.en} lets it pass`, fa: `${who.fa} اعلام بلوف نکرد` };
    case 'request_challenge':
      return { en: `${who.en} asks the next player to call bluff`, fa: `${who.fa} از نفر بعد خواست اعلام بلوف کند` };
    case 'pass':
      return { en: `${who.en} passes`, fa: `${who.fa} رد کرد` };
    default:
      return { en: `${who.en}: ${a.type}`, fa: `${who.fa}: ${a.type}` };
  }
}

/** Words for a shuffle: the deal, or the relabel of a hand that took the pile. */
export function shuffleText(body, seats) {
  const rl = body.effects.find((e) => e.type === 'relabelled');
  if (rl) {
    const w = seatName(seats, rl.seat);
    return { en: `${w.en}'s ${rl.cards} cards are shuffled anew, so no one can follow the cards seen in the pile`, fa: `${faNum(rl.cards)} برگ ${w.fa} دوباره بُر خورد تا برگ‌های دیده‌شده دنبال نشوند` };
  }
  return { en: `The cards are shuffled and dealt (${body.cards} cards)`, fa: `برگ‌ها بُر خورد و پخش شد (${faNum(body.cards)} برگ)` };
}

const TITLE_FA = { king: 'شاه', vizier: 'وزیر', executioner: 'جلاد', thief: 'دزد' };
/** Words for the outcome: who went out in which order, and the titles. */
export function endText(o, seats) {
  if (!o || !Array.isArray(o.order) || !Array.isArray(o.titles)) return null;
  return {
    en: o.order.map((seat) => `${seatName(seats, seat).en} ${o.titles[seat] ?? ''}`.trim()).join(', '),
    fa: o.order.map((seat) => `${seatName(seats, seat).fa} ${TITLE_FA[o.titles[seat]] ?? o.titles[seat] ?? ''}`.trim()).join('، '),
  };
}
