// Bist-o-yek (بیست و یک, 21): the table model for a dropped file. It folds each recorded
// effect into a state as the replayer's engine does (`evolve`: no rule, each effect is the
// fact it states) and draws the view the replayer gives for viewer "all"; the few rules the
// view itself needs (card points, bet limits, who may act) are those of
// /work/shared/rules/bist-o-yek.md (§2, §5, §6.3).
import { Zones, Z, NOBODY, EVERYONE, seenBy, seenByViewer, viewerJson } from './zones.js';
import { seatName, cardFa, cardEn } from './text.js';

const DECK_SIZE = 36;
const STOCK = Z.stock;
const DISCARD = Z.discard;
const BANKER_UP = Z.table;
const hiddenZone = (b) => Z.hand(b);
const waitingZone = (s) => Z.pile(s);
const duelZone = (p) => Z.hand(p);

/** §2.2: 6–10 at face value, sarbaz (J) 2, bibi (Q) 3, shah (K) 4, tak (A) 11. */
export function points(card) {
  const r = card.slice(0, -1);
  return { 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 2, Q: 3, K: 4, A: 11 }[r] ?? 0;
}
/** §2.3: two aces alone are 21; otherwise the sum. */
export function total(cards) {
  const aces = cards.filter((c) => c.startsWith('A')).length;
  if (cards.length === 2 && aces === 2) return 21;
  return cards.reduce((a, c) => a + points(c), 0);
}
const sat = (x) => Math.max(0, x);

export function init(start) {
  const m = start.match_state;
  return {
    rules: start.rules,
    seats: m.seats,
    turn: m.turn,
    balance: [...m.balances],
    bank: 0,
    stake: 0,
    escrow: [],
    banker: null,
    candidate: m.candidate,
    declines: m.declines,
    khabar: false,
    round: 0,
    shuffles: 0,
    zones: new Zones(),
    queue: [],
    carried: false,
    duel: null,
    phase: { name: 'bank_offer' },
    taken: null,
    end: null,
  };
}

const bal = (s, seat) => s.balance[seat] ?? 0;
const betLimits = (s) => {
  const lo = Math.min(s.rules.min_bet, s.bank);
  const hi = s.rules.max_bet === 'whole_bank' ? s.bank : Math.min(s.bank, s.rules.max_bet.fixed);
  return [lo, hi];
};
const stakeCap = (s) => (s.rules.max_bet === 'whole_bank' ? null : s.rules.max_bet.fixed);
const threshold = (s) => s.rules.khabar_multiple * s.stake;
const exposure = (s) => s.escrow.reduce((a, x) => a + x.amount, 0);
const hidden = (s) => (s.banker === null ? null : s.zones.cards(hiddenZone(s.banker))[0] ?? null);
const duelCards = (s) => (s.duel ? s.zones.cards(duelZone(s.duel.player)) : []);

function draw(s, to, seen) {
  s.zones.moveTop(STOCK, 1, to, seen);
}
function discard(s, at) {
  const f = s.zones.find(at);
  if (!f || f.zone === STOCK || f.zone === DISCARD) return;
  if (s.banker !== null && f.zone === hiddenZone(s.banker)) s.carried = false;
  s.zones.moveCard(f.zone, at, DISCARD, f.card.seen);
}

/** Folds one effect (the engine's `evolve`); `order` is the shuffle's order for a shuffle's effects. */
export function evolve(s, e, order) {
  switch (e.type) {
    case 'bank_declined':
      s.declines = e.declines;
      break;
    case 'bank_offered':
      s.candidate = e.candidate;
      s.declines = e.declines;
      break;
    case 'bank_accepted':
      s.balance[e.banker] = sat(bal(s, e.banker) - e.stake);
      s.bank += e.stake;
      s.stake = e.stake;
      s.banker = e.banker;
      s.declines = 0;
      break;
    case 'phase':
      s.phase = e.phase;
      break;
    case 'shuffled':
      if (order) {
        if (e.reason !== 'restock') {
          s.carried = false;
          if (s.shuffles === 0) s.zones.install(STOCK, e.shuffle, order, NOBODY);
          else s.zones.reshuffleAll(STOCK, e.shuffle, order, NOBODY);
        } else {
          s.zones.relabel(DISCARD, e.shuffle, order, NOBODY);
          s.zones.moveAll(DISCARD, STOCK, NOBODY);
        }
      }
      s.shuffles = e.shuffle + 1;
      break;
    case 'khabar_announced':
      s.khabar = true;
      break;
    case 'round_dealt':
      s.round = e.round;
      s.queue = [...e.queue];
      break;
    case 'hidden_dealt':
      if (s.banker !== null) {
        draw(s, hiddenZone(s.banker), seenBy(s.banker));
        s.carried = false;
      }
      break;
    case 'waiting_dealt':
      draw(s, waitingZone(e.seat), seenBy(e.seat));
      break;
    case 'player_skipped': {
      const i = s.queue.indexOf(e.seat);
      if (i >= 0) s.queue.splice(i, 1);
      break;
    }
    case 'duel_opened': {
      const i = s.queue.indexOf(e.player);
      if (i >= 0) s.queue.splice(i, 1);
      s.duel = { player: e.player, swap_offered: false, side_open: false };
      break;
    }
    case 'swap_offered':
      if (s.duel) s.duel.swap_offered = true;
      break;
    case 'swapped':
      discard(s, e.card);
      break;
    case 'first_card':
      s.zones.moveCard(waitingZone(e.seat), e.card, duelZone(e.seat), seenBy(e.seat));
      break;
    case 'player_card_dealt':
      draw(s, duelZone(e.seat), e.face !== undefined ? EVERYONE : seenBy(e.seat));
      break;
    case 'card_exposed':
      if (s.zones.get(duelZone(e.seat), e.card)) s.zones.reveal(e.card);
      break;
    case 'bet_placed':
      s.balance[e.seat] = sat(bal(s, e.seat) - e.amount);
      s.escrow.push({ seat: e.seat, amount: e.amount, main: true });
      break;
    case 'side_bets_opened':
      if (s.duel) s.duel.side_open = true;
      break;
    case 'side_bets_closed':
      if (s.duel) s.duel.side_open = false;
      break;
    case 'side_bet_placed':
      s.balance[e.seat] = sat(bal(s, e.seat) - e.amount);
      s.escrow.push({ seat: e.seat, amount: e.amount, main: false });
      break;
    case 'hidden_revealed':
      if (s.banker !== null) {
        s.zones.moveAll(hiddenZone(s.banker), BANKER_UP, EVERYONE);
        s.carried = false;
      }
      break;
    case 'banker_drew':
      draw(s, BANKER_UP, EVERYONE);
      break;
    case 'hand_shown':
      s.zones.setSeenAll(duelZone(e.seat), EVERYONE);
      break;
    case 'settled': {
      const i = s.escrow.findIndex((x) => x.seat === e.seat);
      if (i >= 0) s.escrow.splice(i, 1);
      if (e.seat < s.balance.length) s.balance[e.seat] += e.escrow_to_owner + e.bank_to_owner;
      s.bank = sat(s.bank + e.escrow_to_bank - e.bank_to_owner);
      break;
    }
    case 'banker_card_carried':
      if (hidden(s)) s.carried = true;
      break;
    case 'discarded':
      for (const c of e.cards) discard(s, c);
      break;
    case 'duel_closed':
      s.duel = null;
      break;
    case 'bank_taken':
      s.bank = sat(s.bank - e.amount);
      if (e.banker < s.balance.length) s.balance[e.banker] += e.amount;
      s.taken = e.amount;
      break;
    case 'turn_ended':
      s.end = e.reason;
      s.khabar = false;
      s.queue = [];
      s.phase = { name: 'turn_over' };
      break;
    case 'match_ended':
      s.end = e.reason;
      s.queue = [];
      s.phase = { name: 'match_over' };
      break;
    default:
      // kept, player_stood, banker_stood, duel_result: facts with nothing to fold
      break;
  }
}

function sideBetOk(s, seat) {
  const d = s.duel;
  if (!d || !s.rules.side_bets || !d.side_open || seat >= s.seats || seat === s.banker || seat === d.player || s.escrow.some((x) => x.seat === seat)) return false;
  const min = s.rules.min_bet;
  let max = Math.min(bal(s, seat), sat(s.bank - exposure(s)));
  const cap = stakeCap(s);
  if (cap !== null) max = Math.min(max, cap);
  return min <= max;
}

/** Whether `actor` (a seat number, or 'service') has a legal action (§6.3). */
function canAct(s, actor) {
  const seat = actor !== 'service' && actor < s.seats ? actor : null;
  const is = (who) => seat !== null && who !== null && seat === who;
  const p = s.duel ? s.duel.player : null;
  switch (s.phase.name) {
    case 'bank_offer':
      return actor === 'service' || is(s.candidate);
    case 'round_start':
      return actor === 'service' || is(s.banker);
    case 'swap_decision':
    case 'face_choice':
    case 'banker_turn':
      return is(s.banker);
    case 'await_bet': {
      if (!is(p)) return false;
      const [lo, hi] = betLimits(s);
      return lo <= Math.min(hi, bal(s, seat));
    }
    case 'player_turn':
      if (is(p)) return true;
      return seat !== null && sideBetOk(s, seat);
    case 'await_suz':
      return is(p);
    default:
      return false;
  }
}

function toAct(s) {
  if (s.phase.name === 'await_shuffle') return [];
  const n = s.phase.name;
  const main = n === 'bank_offer' ? s.candidate : ['round_start', 'swap_decision', 'face_choice', 'banker_turn'].includes(n) ? s.banker : ['await_bet', 'player_turn', 'await_suz'].includes(n) ? (s.duel ? s.duel.player : null) : null;
  const out = [];
  if (main !== null && canAct(s, main)) out.push({ seat: main });
  for (let i = 0; i < s.seats; i++) if (i !== main && canAct(s, i)) out.push({ seat: i });
  if (canAct(s, 'service')) out.push('service');
  return out;
}

const cardView = (p, viewer) => {
  const v = { card: { ...p.r }, face_up: p.seen.everyone };
  if (seenByViewer(p.seen, viewer)) v.face = p.face;
  return v;
};

/** The view of `viewer` ("all" for a finished hand), as the replayer's JSON. */
export function view(s, viewer = 'all') {
  const waiting = [];
  for (let seat = 0; seat < s.seats; seat++) {
    const p = s.zones.cards(waitingZone(seat))[0];
    if (p) waiting.push({ seat, card: cardView(p, viewer) });
  }
  const v = {
    viewer: viewerJson(viewer),
    turn: s.turn,
    round: s.round,
    phase: s.phase,
    to_act: toAct(s),
    balances: [...s.balance],
    bank: s.bank,
    stake: s.stake,
    banker: s.banker,
    candidate: s.candidate,
    declines: s.declines,
    khabar: s.khabar,
  };
  if (s.banker !== null) {
    v.khabar_threshold = threshold(s);
    const [lo, hi] = betLimits(s);
    v.bet_limits = { lo, hi };
  }
  v.escrow = s.escrow.map((x) => ({ ...x }));
  v.queue = [...s.queue];
  v.waiting = waiting;
  const h = hidden(s);
  if (h) v.hidden = { card: cardView(h, viewer), carried: s.carried };
  if (s.duel) {
    const hand = duelCards(s);
    const whole = hand.every((p) => seenByViewer(p.seen, viewer));
    v.duel = { player: s.duel.player, cards: hand.map((p) => cardView(p, viewer)) };
    if (whole && hand.length > 0) v.duel.total = total(hand.map((p) => p.face));
    v.duel.side_open = s.duel.side_open;
    v.duel.swap_offered = s.duel.swap_offered;
  }
  const up = s.zones.cards(BANKER_UP);
  v.banker_cards = up.map((p) => cardView(p, viewer));
  if (up.length > 0 && up.every((p) => seenByViewer(p.seen, viewer))) v.banker_total = total(up.map((p) => p.face));
  v.stock = s.zones.len(STOCK);
  v.discard = s.shuffles === 0 ? DECK_SIZE : s.zones.len(DISCARD);
  v.discard_seen = s.zones.cards(DISCARD).filter((p) => p.seen.everyone).map((p) => p.face);
  return v;
}

const money = (n) => n.toLocaleString('en-US');
const moneyFa = (n) => n.toLocaleString('fa-IR');

/** What an action did, in words (public facts only: the faces its effects show). */
export function actionText(body, seats) {
  const a = body.action;
  const who = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
  const eff = (t) => body.effects.filter((e) => e.type === t);
  const shown = (e) => ({ en: cardEn(e.face), fa: cardFa(e.face) });
  switch (a.type) {
    case 'accept_bank': {
      const st = eff('bank_accepted')[0]?.stake ?? 0;
      return { en: `${who.en} takes the bank, posting ${money(st)} toman`, fa: `${who.fa} بانکدار شد و ${moneyFa(st)} تومان بانک گذاشت` };
    }
    case 'decline_bank':
      return { en: `${who.en} declines the bank`, fa: `${who.fa} بانک را قبول نکرد` };
    case 'announce_khabar':
      return { en: `${who.en} announces bank khabar: one more round`, fa: `${who.fa} بانک خبر داد: یک دور دیگر` };
    case 'deal':
      return { en: `${who.en} deals the round`, fa: `${who.fa} دست را پخش کرد` };
    case 'swap':
      return { en: `${who.en} swaps his face-down card`, fa: `${who.fa} برگ زیرش را عوض کرد` };
    case 'keep':
      return { en: `${who.en} keeps his face-down card`, fa: `${who.fa} برگ زیرش را نگه داشت` };
    case 'bet':
      return { en: `${who.en} bets ${money(a.amount)} toman`, fa: `${who.fa} ${moneyFa(a.amount)} تومان خواند` };
    case 'side_bet':
      return { en: `${who.en} side-bets ${money(a.amount)} toman`, fa: `${who.fa} ${moneyFa(a.amount)} تومان کنار گذاشت` };
    case 'hit': {
      const up = eff('player_card_dealt').find((e) => e.face);
      if (up) return { en: `${who.en} hits: ${shown(up).en}, face up`, fa: `${who.fa} برگ خواست: ${shown(up).fa}، رو` };
      return { en: `${who.en} hits`, fa: `${who.fa} برگ خواست` };
    }
    case 'stand':
      return { en: `${who.en} stands`, fa: `${who.fa} ایستاد` };
    case 'deal_face_up':
      return { en: `${who.en} deals the next card face up`, fa: `${who.fa} برگ بعدی را رو داد` };
    case 'deal_face_down':
      return { en: `${who.en} deals the next card face down`, fa: `${who.fa} برگ بعدی را به پشت داد` };
    case 'announce_suz':
      return { en: `${who.en} says suz: over 21`, fa: `${who.fa} گفت سوختم` };
    case 'banker_hit': {
      const d = eff('banker_drew')[0];
      return d ? { en: `${who.en} draws ${shown(d).en}`, fa: `${who.fa} برگ کشید: ${shown(d).fa}` } : { en: `${who.en} draws`, fa: `${who.fa} برگ کشید` };
    }
    case 'banker_stand': {
      const t = eff('banker_stood')[0]?.total;
      return { en: `${who.en} stands${t !== undefined ? ` at ${t}` : ''}`, fa: `${who.fa} ایستاد${t !== undefined ? ` با ${t.toLocaleString('fa-IR')}` : ''}` };
    }
    case 'end_match':
      return { en: `${who.en} ends the match`, fa: `${who.fa} بازی را تمام کرد` };
    default:
      return { en: `${who.en}: ${a.type}`, fa: `${who.fa}: ${a.type}` };
  }
}

/** Words for a shuffle: a new turn's, khabar's or round's full shuffle, or a restock. */
export function shuffleText(body) {
  const k = body.shuffle;
  if (body.reason === 'restock') {
    return { en: `The stock ran out: the ${body.cards} discards are shuffled into a new stock (shuffle ${k})`, fa: `دسته تمام شد: ${faNumLocal(body.cards)} برگ سوخته بُر خورد و دسته تازه شد (بُر ${faNumLocal(k)})` };
  }
  const why = { new_turn: ['a new banker\'s turn', 'دست تازه بانکدار'], khabar: ['after bank khabar', 'پس از بانک خبر'], round: ['a new round', 'دور تازه'] }[body.reason] ?? [body.reason, body.reason];
  return { en: `All ${body.cards} cards are shuffled for ${why[0]} (shuffle ${k})`, fa: `هر ${faNumLocal(body.cards)} برگ برای ${why[1]} بُر خورد (بُر ${faNumLocal(k)})` };
}
const faNumLocal = (n) => String(n).replace(/[0-9]/g, (d) => '۰۱۲۳۴۵۶۷۸۹'[d]);

/** Words for the outcome: each seat's net over the banker's turn. */
export function endText(o, seats) {
  if (!o || !Array.isArray(o.net)) return null;
  const sign = (n) => (n > 0 ? `+${n}` : `${n}`);
  const en = o.net.map((n, i) => `${seatName(seats, i).en} ${sign(n)}`).join(', ');
  const fa = o.net.map((n, i) => `${seatName(seats, i).fa} ${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n).toLocaleString('fa-IR')}`).join('، ');
  return { en: `${en} toman`, fa: `${fa} تومان` };
}
