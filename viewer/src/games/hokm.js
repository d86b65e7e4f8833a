// Hokm (حکم): the table model for a dropped file. It folds each recorded effect as the
// replayer's engine does (`evolve`: each effect is the fact it states) and draws the view
// the replayer gives for viewer "all"; seat order, the dealer and who acts follow
// /work/shared/rules/hokm.md (the hakem, the dealer on his left, play to the right).
import { Zones, Z, NOBODY, EVERYONE, seenBy, viewerJson, cardViewCore } from './zones.js';
import { seatName, cardEn, cardFa, suitEn, suitFa, faNum } from './text.js';

const DRAW_PILE = Z.pile(0);
const WITHHELD = Z.pile(1);
const DRAWN = Z.table;
const MAX_SCORE = 10000;

const clone = (v) => JSON.parse(JSON.stringify(v));
const place = (s, t) => Math.max(0, t.indexOf(s));
const plus = (s, k, t) => (t.length ? t[(place(s, t) + k) % Math.max(1, t.length)] : s);
const right = (s, t) => plus(s, 1, t);
const dealerOf = (h, t) => plus(h, Math.max(0, t.length - 1), t);
const cutterOf = (h, t) => plus(h, Math.max(0, t.length - 2), t);
const sides = (n) => (n === 4 ? 2 : n);
const sideOf = (seat, t) => (t.length === 4 ? (place(seat, t) % 2 === 1 ? 1 : 0) : seat);

export function init(start) {
  const m = start.match_state;
  const n = m.seats;
  return {
    rules: start.rules,
    n,
    now: clone(m),
    zones: new Zones(),
    shuffles: 0,
    phase: { name: 'await_shuffle', reason: m.hakem !== null && m.hakem !== undefined ? 'deal' : 'draw' },
    hakem: m.hakem ?? null,
    draw_seats: [],
    deal_shuffle: null,
    deck_len: 0,
    cut: 0,
    redeals: 0,
    trump: null,
    method: null,
    leader: m.hakem ?? 0,
    won: new Array(n).fill(0),
    bam: null,
    peeked: false,
    result: null,
    gained: new Array(sides(n)).fill(0),
  };
}

const table = (s) => s.now.seating;
const add = (v, i, p) => {
  if (i < v.length) v[i] = Math.min(v[i] + p, MAX_SCORE);
};
function moveKeepingSeen(s, from, to) {
  for (const p of [...s.zones.cards(from)]) s.zones.moveCard(from, p.r, to, p.seen);
}

export function evolve(s, e, order) {
  switch (e.type) {
    case 'shuffled':
      if (order) s.zones.install(e.reason === 'draw' ? DRAW_PILE : Z.stock, e.shuffle, order, NOBODY);
      if (e.reason === 'deal') {
        s.deal_shuffle = e.shuffle;
        s.deck_len = e.cards;
        s.cut = 0;
      }
      s.shuffles = e.shuffle + 1;
      break;
    case 'draw_card':
      s.zones.moveCard(DRAW_PILE, e.card.card, DRAWN, EVERYONE);
      s.draw_seats.push(e.seat);
      break;
    case 'reseated':
      s.now.seating = [...e.seating];
      break;
    case 'method_called':
      s.method = e.method;
      break;
    case 'hakem_set':
      s.hakem = e.seat;
      s.leader = e.seat;
      break;
    case 'cut_applied':
      s.zones.moveTop(Z.stock, e.k, Z.stock, NOBODY);
      s.cut = e.k;
      break;
    case 'dealt':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
      break;
    case 'withheld':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, WITHHELD, NOBODY);
      break;
    case 'released':
      for (const r of e.cards) s.zones.moveCard(WITHHELD, r, Z.hand(e.seat), seenBy(e.seat));
      break;
    case 'revealed':
      for (const c of e.cards) {
        if (s.zones.get(Z.stock, c.card)) s.zones.moveCard(Z.stock, c.card, Z.hand(e.seat), EVERYONE);
        else s.zones.reveal(c.card);
      }
      break;
    case 'trump_fixed':
      s.trump = e.suit;
      s.method = e.method;
      break;
    case 'deal_annulled':
      s.redeals = e.redeals;
      for (let i = 0; i < s.n; i++) moveKeepingSeen(s, Z.hand(i), Z.out);
      moveKeepingSeen(s, WITHHELD, Z.out);
      moveKeepingSeen(s, Z.stock, Z.out);
      s.deal_shuffle = null;
      s.trump = null;
      s.method = null;
      break;
    case 'discarded':
      for (const r of e.cards) s.zones.moveCard(Z.hand(e.seat), r, Z.discard, seenBy(e.seat));
      break;
    case 'offered':
      for (const r of e.cards) s.zones.showTo(r, e.seat);
      break;
    case 'drawn':
      s.zones.moveCard(Z.stock, e.kept, Z.hand(e.seat), seenBy(e.seat));
      s.zones.moveCard(Z.stock, e.burned, Z.out, e.burned_seen_by === undefined ? NOBODY : seenBy(e.burned_seen_by));
      break;
    case 'peeked':
      for (const r of e.cards) s.zones.showTo(r, e.seat);
      s.peeked = true;
      break;
    case 'played':
      s.zones.moveCard(Z.hand(e.seat), e.card.card, Z.trick, EVERYONE);
      break;
    case 'trick_won':
      s.zones.moveAll(Z.trick, Z.won(e.seat), EVERYONE);
      if (e.seat < s.won.length) s.won[e.seat] += 1;
      s.leader = e.seat;
      break;
    case 'bam_chosen':
      if (e.play_on) s.bam = sideOf(e.seat, table(s));
      break;
    case 'hand_won':
      add(s.now.scores, e.side, e.points);
      add(s.gained, e.side, e.points);
      s.result = [e.side, e.kind];
      break;
    case 'penalty_awarded':
      for (const side of e.sides) {
        add(s.now.scores, side, e.points);
        add(s.gained, side, e.points);
      }
      break;
    case 'deuce_started':
      s.now.deuce = true;
      break;
    case 'round_won':
      if (e.side < s.now.rounds.length) s.now.rounds[e.side] = Math.min(s.now.rounds[e.side] + 1, 3);
      s.now.scores = s.now.scores.map(() => 0);
      s.now.deuce = false;
      break;
    case 'match_won':
      s.now.over = true;
      s.now.winner = e.side;
      break;
    case 'next_hakem':
      s.now.hakem = e.seat;
      break;
    case 'phase':
      s.phase = e.phase;
      break;
    default:
      // draw_deck_spent: nothing to fold
      break;
  }
}

const drawer = (s, turn) => {
  const h = s.hakem ?? 0;
  return turn % 2 === 1 ? h : right(h, table(s));
};
const toPlay = (s) => plus(s.leader, s.zones.len(Z.trick), table(s));

function mainActor(s) {
  const h = s.hakem;
  if (h === null) return null;
  switch (s.phase.name) {
    case 'awaiting_cut':
      return cutterOf(h, table(s));
    case 'awaiting_trump':
    case 'fallback_trump':
      return h;
    case 'awaiting_discard':
    case 'awaiting_bam':
      return s.phase.seat;
    case 'draw_turn':
      return drawer(s, s.phase.turn);
    case 'awaiting_dealer_peek':
      return dealerOf(h, table(s));
    case 'playing':
      return toPlay(s);
    default:
      return null;
  }
}

function toAct(s) {
  if (s.phase.name === 'await_shuffle') return [];
  const out = [];
  const m = mainActor(s);
  if (m !== null) out.push({ seat: m });
  if (!s.now.over && s.phase.name !== 'hand_over') out.push('service');
  return out;
}

function sideTricks(s) {
  const v = new Array(sides(s.n)).fill(0);
  s.won.forEach((w, i) => {
    const k = sideOf(i, table(s));
    if (k < v.length) v[k] += w;
  });
  return v;
}

export function view(s, viewer = 'all') {
  const drawnCards = s.zones.zoneView(DRAWN, viewer);
  return {
    viewer: viewerJson(viewer),
    seats: s.n,
    phase: s.phase,
    to_act: toAct(s),
    awaiting_shuffle: s.phase.name === 'await_shuffle',
    hakem: s.hakem,
    dealer: s.hakem === null ? null : dealerOf(s.hakem, table(s)),
    trump: s.trump,
    method: s.method,
    cut: s.cut,
    redeals: s.redeals,
    leader: s.leader,
    tricks_won: [...s.won],
    side_tricks: sideTricks(s),
    bam: s.bam,
    trick: s.zones.zoneView(Z.trick, viewer),
    drawn: s.draw_seats.slice(0, drawnCards.length).map((seat, i) => ({ seat, card: drawnCards[i] })),
    match: clone(s.now),
    zones: s.zones.view(viewer),
  };
}

export function actionText(body, seats) {
  const a = body.action;
  const who = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
  const eff = (t) => body.effects.filter((e) => e.type === t);
  switch (a.type) {
    case 'cut':
      return { en: `${who.en} cuts the deck at ${a.k}`, fa: `${who.fa} دسته را از ${faNum(a.k)} کپ کرد` };
    case 'declare_trump':
      return { en: `${who.en} declares ${suitEn(a.suit)} trump`, fa: `${who.fa} ${suitFa(a.suit)} را حکم کرد` };
    case 'request_ten_low_redeal':
      return { en: `${who.en} asks for a redeal (ten low)`, fa: `${who.fa} درخواست پخش دوباره کرد (۱۰ لو کم)` };
    case 'call_sar_ghermez':
      return { en: `${who.en} calls sar-e ghermez`, fa: `${who.fa} سر قرمز خواند` };
    case 'call_sar_siah':
      return { en: `${who.en} calls sar-e siah`, fa: `${who.fa} سر سیاه خواند` };
    case 'call_barg_vasat':
      return { en: `${who.en} calls barg-e vasat`, fa: `${who.fa} برگ وسط خواند` };
    case 'call_ya':
      return { en: `${who.en} calls ${suitEn(a.x)} or ${suitEn(a.y)}`, fa: `${who.fa} یا ${suitFa(a.x)} یا ${suitFa(a.y)} خواند` };
    case 'discard':
      return { en: `${who.en} lays away ${a.cards.length} cards`, fa: `${who.fa} ${faNum(a.cards.length)} برگ کنار گذاشت` };
    case 'keep_first':
      return { en: `${who.en} keeps the first card`, fa: `${who.fa} برگ اول را برداشت` };
    case 'take_second':
      return { en: `${who.en} takes the second card`, fa: `${who.fa} برگ دوم را برداشت` };
    case 'choose_final':
      return { en: `${who.en} chooses a last card`, fa: `${who.fa} برگ آخر را انتخاب کرد` };
    case 'peek_partner_packet':
      return { en: `${who.en} looks at the partner's packet ${a.round}`, fa: `${who.fa} به دسته یارش نگاه کرد` };
    case 'decline_peek':
      return { en: `${who.en} does not look`, fa: `${who.fa} نگاه نکرد` };
    case 'play': {
      const p = eff('played')[0];
      const won = eff('trick_won')[0];
      let en = p ? `${who.en} plays the ${cardEn(p.card.face)}` : `${who.en} plays`;
      let fa = p ? `${who.fa} ${cardFa(p.card.face)} بازی کرد` : `${who.fa} بازی کرد`;
      if (won) {
        const w = seatName(seats, won.seat);
        en += `; ${w.en} takes the trick`;
        fa += `؛ دست را ${w.fa} برد`;
      }
      const hw = eff('hand_won')[0];
      if (hw) {
        const four = seats?.length === 4;
        const side = four ? { en: ['Team A', 'Team B'][hw.side], fa: ['تیم الف', 'تیم ب'][hw.side] } : seatName(seats, hw.side);
        en += `; ${side.en ?? `side ${hw.side}`} wins the hand (${hw.kind}, ${hw.points} points)`;
        fa += `؛ ${side.fa ?? `تیم ${faNum(hw.side)}`} دست را برد${hw.kind === 'kot' ? ' (کوت)' : ''}`;
      }
      return { en, fa };
    }
    case 'continue_for_bam':
      return { en: `${who.en} plays on for bam`, fa: `${who.fa} برای بام ادامه داد` };
    case 'end_hand':
      return { en: `${who.en} ends the hand`, fa: `${who.fa} دست را تمام کرد` };
    case 'award_cheating_penalty':
      return { en: `${who.en} awards a cheating penalty against seat ${a.offender}`, fa: `${who.fa} جریمه تقلب برای صندلی ${faNum(a.offender)} داد` };
    default:
      return { en: `${who.en}: ${a.type}`, fa: `${who.fa}: ${a.type}` };
  }
}

/** Words for a shuffle: the draw for hakem (its cards are shown), or the deal. */
export function shuffleText(body, seats) {
  if (body.reason === 'draw') {
    const draws = body.effects.filter((e) => e.type === 'draw_card');
    const hakem = body.effects.find((e) => e.type === 'hakem_set');
    const h = hakem ? seatName(seats, hakem.seat) : null;
    return {
      en: `Cards are drawn for hakem: ${draws.map((d) => `seat ${d.seat} ${d.card.face}`).join(', ')}${h ? `; ${h.en} is hakem` : ''}`,
      fa: `برای حاکم برگ کشیدند: ${draws.map((d) => `صندلی ${faNum(d.seat)} ${cardFa(d.card.face)}`).join('، ')}${h ? `؛ ${h.fa} حاکم شد` : ''}`,
    };
  }
  return { en: `The deck is shuffled for the deal (${body.cards} cards, shuffle ${body.shuffle})`, fa: `دسته برای پخش بُر خورد (${faNum(body.cards)} برگ)` };
}

/** Words for the outcome: the winning side, its tricks, and a kot. */
export function endText(o, seats) {
  if (!o || o.winner === undefined || o.winner === null) return null;
  const kot = o.kind && o.kind !== 'plain' ? ` (${o.kind})` : '';
  const kotFa = o.kind === 'kot' ? ' (کوت)' : o.kind === 'por_kot' ? ' (پر کوت)' : '';
  const tricks = Array.isArray(o.tricks) ? o.tricks.join('–') : '';
  // Four seats: two teams, A (side 0) and B (side 1), as the page's result names them.
  if (o.seats === 4) {
    const team = { en: ['Team A', 'Team B'][o.winner] ?? `side ${o.winner}`, fa: ['تیم الف', 'تیم ب'][o.winner] ?? `تیم ${faNum(o.winner)}` };
    return { en: `${team.en} wins, tricks ${tricks}${kot}`, fa: `${team.fa} برد، دست‌ها ${faNum(tricks)}${kotFa}` };
  }
  const seat = (l) => seatName(seats, o.winner)[l];
  return { en: `${seat('en')} wins, tricks ${tricks}${kot}`, fa: `${seat('fa')} برد، دست‌ها ${faNum(tricks)}${kotFa}` };
}
