// Ghahve (قهوه): the table model for a dropped file. It folds each recorded effect as the
// replayer's engine does (`replayer/src/games/ghahve/evolve.rs`: each effect is the fact it
// states) and draws the view the replayer gives for viewer "all"; seat order, the dealer,
// bidding and who acts follow /work/shared/rules/ghahve.md (d + 1 bids and leads first, the
// dealer's left cuts, everything to the right; spades always trump; two jokers).
import { Zones, Z, NOBODY, EVERYONE, seenBy, seenAnd, viewerJson } from './zones.js';
import { seatName, cardEn, cardFa, faNum } from './text.js';

const DRAW_PILE = Z.pile(0);
const DRAWN = Z.table;
const MAX_SCORE = 100000;
const SEATS = 4;

const clone = (v) => JSON.parse(JSON.stringify(v));
const place = (s, t) => Math.max(0, t.indexOf(s));
const plus = (s, k, t) => (t.length ? t[(place(s, t) + k) % Math.max(1, t.length)] : s);
const right = (s, t) => plus(s, 1, t);
const teamOf = (seat, t) => (place(seat, t) % 2 === 1 ? 1 : 0);

export function init(start) {
  const m = start.match_state;
  const dealer = m.dealer ?? null;
  return {
    rules: start.rules,
    now: clone(m),
    zones: new Zones(),
    shuffles: 0,
    phase: { name: 'await_shuffle', reason: dealer !== null ? 'deal' : 'draw' },
    dealer,
    draw_seats: [],
    deck_len: 0,
    cut: 0,
    bids: new Array(SEATS).fill(null),
    contracts: null,
    commitment: null,
    buys: 0,
    declined: [],
    leader: dealer !== null ? right(dealer, m.seating) : 0,
    won: new Array(SEATS).fill(0),
    bj_played: false,
    cj_released: false,
    failed: [],
    gained: [0, 0],
  };
}

const table = (s) => s.now.seating;
const add = (v, i, p) => {
  if (i < v.length) v[i] = Math.max(-MAX_SCORE, Math.min(v[i] + p, MAX_SCORE));
};

function swapHands(s) {
  const t = [...table(s)];
  for (let i = 0; i < SEATS; i++) {
    for (const p of [...s.zones.cards(Z.hand(i))]) s.zones.moveCard(Z.hand(i), p.r, Z.pile(1 + i), p.seen);
  }
  for (let i = 0; i < SEATS; i++) {
    const to = right(i, t);
    for (const p of [...s.zones.cards(Z.pile(1 + i))]) s.zones.moveCard(Z.pile(1 + i), p.r, Z.hand(to), seenAnd(p.seen, to));
  }
}

export function evolve(s, e, order) {
  switch (e.type) {
    case 'shuffled':
      if (order) s.zones.install(e.reason === 'draw' ? DRAW_PILE : Z.stock, e.shuffle, order, NOBODY);
      if (e.reason === 'deal') {
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
    case 'dealer_set':
      s.dealer = e.seat;
      s.now.dealer = e.seat;
      s.leader = right(e.seat, table(s));
      break;
    case 'cut_applied':
      s.zones.moveTop(Z.stock, e.k, Z.stock, NOBODY);
      s.cut = e.k;
      break;
    case 'dealt':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
      break;
    case 'bid_made':
      if (e.seat < SEATS) s.bids[e.seat] = e.n;
      break;
    case 'contracts_set':
      s.contracts = [e.team0, e.team1];
      s.commitment = null;
      s.declined = [];
      break;
    case 'buy_declared':
      s.commitment = { team: teamOf(e.seat, table(s)), required: e.required };
      s.buys += 1;
      break;
    case 'buy_declined':
      s.declined.push(e.seat);
      break;
    case 'hands_swapped':
      swapHands(s);
      s.bids = s.bids.map(() => null);
      s.declined = [];
      break;
    case 'played':
      s.zones.moveCard(Z.hand(e.seat), e.card.card, Z.trick, EVERYONE);
      if (e.card.face === 'BJ') s.bj_played = true;
      break;
    case 'joker_released':
      s.cj_released = true;
      break;
    case 'trick_won':
      s.zones.moveAll(Z.trick, Z.won(e.seat), EVERYONE);
      if (e.seat < s.won.length) s.won[e.seat] += 1;
      s.leader = e.seat;
      break;
    case 'hand_scored':
      add(s.now.scores, e.team, e.points);
      add(s.gained, e.team, e.points);
      break;
    case 'penalty_awarded':
      add(s.now.scores, e.team, e.points);
      add(s.gained, e.team, e.points);
      if (e.fails) {
        const off = teamOf(e.offender, table(s));
        if (!s.failed.includes(off)) s.failed.push(off);
      }
      break;
    case 'dealer_passed':
      s.now.dealer = e.to;
      break;
    case 'dealer_stays':
      s.now.dealer = e.seat;
      break;
    case 'match_won':
      s.now.over = true;
      s.now.winner = e.team;
      break;
    case 'phase':
      s.phase = e.phase;
      break;
    default:
      // draw_deck_spent, buy_offered: nothing to fold
      break;
  }
}

const tricksPlayed = (s) => s.won.reduce((a, w) => a + w, 0);
const toPlay = (s) => plus(s.leader, s.zones.len(Z.trick), table(s));
const biddingOrder = (s) => [1, 2, 3, 4].map((o) => plus(s.dealer ?? 0, o % SEATS, table(s)));

function mainActor(s) {
  switch (s.phase.name) {
    case 'awaiting_cut':
      return s.dealer === null ? null : plus(s.dealer, 3, table(s));
    case 'bidding':
      return biddingOrder(s).find((x) => s.bids[x] === null) ?? null;
    case 'buy_window':
      return biddingOrder(s).find((x) => teamOf(x, table(s)) === s.phase.team && !s.declined.includes(x)) ?? null;
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
  if (!s.now.over && s.phase.name !== 'hand_over' && s.rules.cheating_penalty !== 'none') out.push('service');
  return out;
}

function teamTricks(s) {
  const v = [0, 0];
  s.won.forEach((w, i) => {
    v[teamOf(i, table(s))] += w;
  });
  return v;
}

export function view(s, viewer = 'all') {
  const drawnCards = s.zones.zoneView(DRAWN, viewer);
  return {
    viewer: viewerJson(viewer),
    seats: s.now.seats,
    phase: s.phase,
    to_act: toAct(s),
    awaiting_shuffle: s.phase.name === 'await_shuffle',
    dealer: s.dealer,
    trump: 'S',
    cut: s.cut,
    bids: [...s.bids],
    contracts: s.contracts ? [...s.contracts] : null,
    commitment: s.commitment ? { ...s.commitment } : null,
    buys: s.buys,
    leader: s.leader,
    trick_no: tricksPlayed(s) + 1,
    tricks_won: [...s.won],
    team_tricks: teamTricks(s),
    bj_played: s.bj_played,
    cj_released: s.cj_released,
    trick: s.zones.zoneView(Z.trick, viewer),
    drawn: s.draw_seats.slice(0, drawnCards.length).map((seat, i) => ({ seat, card: drawnCards[i] })),
    match: clone(s.now),
    zones: s.zones.view(viewer),
  };
}

const TEAM_FA = (t) => `تیم ${faNum(t)}`;

export function actionText(body, seats) {
  const a = body.action;
  const who = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
  const eff = (t) => body.effects.filter((e) => e.type === t);
  const contracts = () => {
    const c = eff('contracts_set')[0];
    if (!c) return { en: '', fa: '' };
    const offer = eff('buy_offered')[0];
    return {
      en: `; contracts: team 0 ${c.team0}, team 1 ${c.team1}${offer ? `; team ${offer.team} may buy (must then bid ${offer.required})` : ''}`,
      fa: `؛ تعهد تیم‌ها: ${TEAM_FA(0)} ${faNum(c.team0)}، ${TEAM_FA(1)} ${faNum(c.team1)}${offer ? `؛ ${TEAM_FA(offer.team)} می‌تواند دست را بخرد (با تعهد ${faNum(offer.required)})` : ''}`,
    };
  };
  switch (a.type) {
    case 'cut':
      return { en: `${who.en} cuts the deck at ${a.k}`, fa: `${who.fa} دسته را از ${faNum(a.k)} کپ کرد` };
    case 'bid': {
      const c = contracts();
      return { en: `${who.en} bids ${a.n} tricks${c.en}`, fa: `${who.fa} ${faNum(a.n)} دست خواند${c.fa}` };
    }
    case 'buy':
      return { en: `${who.en} buys the other team's hands: everyone passes his hand to the right`, fa: `${who.fa} دست حریف را خرید: هر کس دستش را به نفر سمت راست داد` };
    case 'decline_buy':
      return { en: `${who.en} does not buy`, fa: `${who.fa} نخرید` };
    case 'play': {
      const p = eff('played')[0];
      const won = eff('trick_won')[0];
      let en = p ? `${who.en} plays the ${cardEn(p.card.face)}` : `${who.en} plays`;
      let fa = p ? `${who.fa} ${cardFa(p.card.face)} بازی کرد` : `${who.fa} بازی کرد`;
      if (eff('joker_released').length) {
        en += '; the coloured joker may now be played';
        fa += '؛ ژوکر رنگی آزاد شد';
      }
      if (won) {
        const w = seatName(seats, won.seat);
        en += `; ${w.en} takes trick ${won.index}`;
        fa += `؛ دست ${faNum(won.index)} را ${w.fa} برد`;
      }
      for (const h of eff('hand_scored')) {
        en += `; team ${h.team}: contract ${h.contract}, ${h.tricks} tricks, ${h.points} points`;
        fa += `؛ ${TEAM_FA(h.team)}: تعهد ${faNum(h.contract)}، ${faNum(h.tricks)} دست، ${faNum(h.points)} امتیاز`;
      }
      const mw = eff('match_won')[0];
      if (mw) {
        en += `; team ${mw.team} wins the match`;
        fa += `؛ ${TEAM_FA(mw.team)} بازی را برد`;
      }
      return { en, fa };
    }
    case 'award_cheating_penalty':
      return { en: `${who.en} awards a cheating penalty against seat ${a.offender}`, fa: `${who.fa} جریمه تقلب برای صندلی ${faNum(a.offender)} داد` };
    default:
      return { en: `${who.en}: ${a.type}`, fa: `${who.fa}: ${a.type}` };
  }
}

/** Words for a shuffle: the draw for the first dealer (its cards are shown), or the deal. */
export function shuffleText(body, seats) {
  if (body.reason === 'draw') {
    const draws = body.effects.filter((e) => e.type === 'draw_card');
    const d = body.effects.find((e) => e.type === 'dealer_set');
    const w = d ? seatName(seats, d.seat) : null;
    return {
      en: `Cards are drawn for the first dealer: ${draws.map((x) => `seat ${x.seat} ${x.card.face}`).join(', ')}${w ? `; ${w.en} deals` : ''}`,
      fa: `برای پاسور برگ کشیدند: ${draws.map((x) => `صندلی ${faNum(x.seat)} ${cardFa(x.card.face)}`).join('، ')}${w ? `؛ ${w.fa} پاسور شد` : ''}`,
    };
  }
  return { en: `The deck is shuffled for the deal (${body.cards} cards, shuffle ${body.shuffle})`, fa: `دسته برای پخش بُر خورد (${faNum(body.cards)} برگ)` };
}

/** Words for the outcome: each team's contract, tricks and points. */
export function endText(o) {
  if (!o || !Array.isArray(o.teams) || o.teams.length !== 2) return null;
  const [a, b] = o.teams;
  return {
    en: `team 0 ${a.points} (contract ${a.contract}, ${a.tricks} tricks), team 1 ${b.points} (contract ${b.contract}, ${b.tricks} tricks)`,
    fa: `${TEAM_FA(0)} ${faNum(a.points)} (تعهد ${faNum(a.contract)}، ${faNum(a.tricks)} دست)، ${TEAM_FA(1)} ${faNum(b.points)} (تعهد ${faNum(b.contract)}، ${faNum(b.tricks)} دست)`,
  };
}
