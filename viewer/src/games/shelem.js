// Shelem (شلم): the table model for a dropped file. It folds each recorded effect as the
// replayer's engine does (`evolve`: each effect is the fact it states) and draws the view
// the replayer gives for viewer "all"; seats, teams and the deal follow
// /work/shared/rules/shelem.md (play to the right; team = seat mod 2, or the seat itself
// with 2 players). The hakem's 4 laid-away cards are a private action: the log holds only
// a commitment while the hand runs, so the model folds its opening (`laid_away`) from the
// hand's `seeds_revealed`.
import { Zones, Z, NOBODY, EVERYONE, seenBy, viewerJson } from './zones.js';
import { seatName, cardEn, cardFa, suitEn, suitFa, faNum } from './text.js';

const WIDOW = Z.pile(0);
const pileZone = (seat, pile) => Z.pile(seat * 3 + pile);
const clone = (v) => JSON.parse(JSON.stringify(v));
const team = (seat, n) => (n === 4 ? seat % 2 : seat % 2);

export function init(start) {
  const m = start.match_state;
  const n = m.seats;
  return {
    rules: start.rules,
    n,
    now: clone(m),
    zones: new Zones(),
    phase: { name: 'await_shuffle' },
    dealer: m.dealer,
    cut: 0,
    calls: [],
    hakem: null,
    contract: null,
    trump: null,
    leader: m.dealer,
    trick_seats: [],
    won: new Array(n).fill(0),
    row: null,
  };
}

export function evolve(s, e, order) {
  switch (e.type) {
    case 'shuffled':
      if (order) s.zones.install(Z.stock, e.shuffle, order, NOBODY);
      break;
    case 'cut_applied':
      s.zones.moveTop(Z.stock, e.k, Z.stock, NOBODY);
      s.cut = e.k;
      break;
    case 'dealt':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
      break;
    case 'widow_laid':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, WIDOW, NOBODY);
      break;
    case 'pile_laid':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, pileZone(e.seat, e.pile), NOBODY);
      break;
    case 'bid_made':
      s.calls.push({ seat: e.seat, bid: e.amount });
      break;
    case 'passed':
      s.calls.push({ seat: e.seat, bid: null });
      break;
    case 'auction_won':
      s.hakem = e.hakem;
      s.contract = e.contract;
      s.leader = e.hakem;
      break;
    case 'widow_taken':
      for (const r of e.cards) s.zones.moveCard(WIDOW, r, Z.hand(e.seat), seenBy(e.seat));
      break;
    case 'laid_away':
      for (const r of e.cards) s.zones.moveCard(Z.hand(e.seat), r, Z.discard, seenBy(e.seat));
      break;
    case 'trump_set':
      s.trump = e.suit;
      break;
    case 'played': {
      const from = e.pile === undefined || e.pile === null ? Z.hand(e.seat) : pileZone(e.seat, e.pile);
      s.zones.moveCard(from, e.card.card, Z.trick, EVERYONE);
      s.trick_seats.push(e.seat);
      break;
    }
    case 'pile_top_turned':
      s.zones.reveal(e.card.card);
      break;
    case 'trick_won':
      s.zones.moveAll(Z.trick, Z.won(e.seat), EVERYONE);
      if (e.seat < s.won.length) s.won[e.seat] += 1;
      s.trick_seats = [];
      s.leader = e.seat;
      break;
    case 'discards_revealed':
      s.zones.setSeenAll(Z.discard, EVERYONE);
      break;
    case 'hand_scored':
      s.now.totals = [...e.row.total];
      s.now.sheet.push(clone(e.row));
      s.row = clone(e.row);
      break;
    case 'match_won':
      s.now.over = true;
      s.now.winner = e.team;
      break;
    case 'next_dealer':
      s.now.dealer = e.seat;
      break;
    case 'phase':
      s.phase = e.phase;
      break;
    default:
      // passed_out: nothing to fold
      break;
  }
}

/** The opening of the private action (the hakem's 4 cards laid away), folded as its effects. */
export function evolvePrivate(s, body, opening) {
  if (!opening || opening.action?.type !== 'lay_away' || body.actor === 'service') return;
  const seat = body.actor.seat;
  evolve(s, { type: 'laid_away', seat, cards: opening.action.cards }, null);
  evolve(s, { type: 'phase', phase: { name: 'playing' } }, null);
}

function mainActor(s) {
  switch (s.phase.name) {
    case 'awaiting_cut':
      return (s.dealer + s.n - 1) % s.n;
    case 'bidding':
    case 'exchange':
      return s.phase.seat;
    case 'playing':
      return (s.leader + s.trick_seats.length) % s.n;
    default:
      return null;
  }
}

function high(s) {
  for (let i = s.calls.length - 1; i >= 0; i--) if (s.calls[i].bid !== null) return [s.calls[i].seat, s.calls[i].bid];
  return null;
}

export function view(s, viewer = 'all') {
  const m = s.phase.name === 'await_shuffle' ? null : mainActor(s);
  const teamTricks = [0, 0];
  s.won.forEach((w, i) => {
    teamTricks[team(i, s.n)] += w;
  });
  const piles = s.n === 2
    ? [0, 1].map((seat) => [1, 2, 3].map((p) => {
      const v = s.zones.zoneView(pileZone(seat, p), viewer);
      return s.rules?.pile_top === 'last_dealt' ? v.reverse() : v;
    }))
    : [];
  return {
    viewer: viewerJson(viewer),
    seats: s.n,
    phase: s.phase,
    to_act: m === null ? [] : [{ seat: m }],
    awaiting_shuffle: s.phase.name === 'await_shuffle',
    dealer: s.dealer,
    cut: s.cut,
    calls: clone(s.calls),
    high: high(s),
    hakem: s.hakem,
    contract: s.contract,
    trump: s.trump,
    leader: s.leader,
    trick: s.zones.zoneView(Z.trick, viewer),
    trick_seats: [...s.trick_seats],
    tricks_won: [...s.won],
    team_tricks: teamTricks,
    widow: s.zones.zoneView(WIDOW, viewer),
    laid_away: s.zones.zoneView(Z.discard, viewer),
    piles,
    row: s.row === null ? null : clone(s.row),
    match: clone(s.now),
    zones: s.zones.view(viewer),
  };
}

const OUTCOME = {
  made: { en: 'made', fa: 'ساخت' },
  failed: { en: 'failed', fa: 'نساخت' },
  yasa: { en: 'yasa', fa: 'یاسا' },
  shelem: { en: 'shelem', fa: 'شلم' },
  passed_out: { en: 'passed out', fa: 'همه پاس' },
};

export function actionText(body, seats) {
  const a = body.action;
  const who = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
  const eff = (t) => body.effects.filter((e) => e.type === t);
  let out;
  switch (a.type) {
    case 'cut':
      out = { en: `${who.en} cuts the deck at ${a.k}`, fa: `${who.fa} دسته را از ${faNum(a.k)} کپ کرد` };
      break;
    case 'bid':
      out = { en: `${who.en} bids ${a.amount}`, fa: `${who.fa} ${faNum(a.amount)} خواند` };
      break;
    case 'pass':
      out = { en: `${who.en} passes`, fa: `${who.fa} پاس داد` };
      break;
    case 'play': {
      const p = eff('played')[0];
      const t = eff('trump_set')[0];
      out = p ? { en: `${who.en} plays the ${cardEn(p.card.face)}${p.pile ? ` from pile ${p.pile}` : ''}`, fa: `${who.fa} ${cardFa(p.card.face)} بازی کرد${p.pile ? ` (از دسته ${faNum(p.pile)})` : ''}` } : { en: `${who.en} plays`, fa: `${who.fa} بازی کرد` };
      if (t) {
        out.en += `; ${suitEn(t.suit)} are trump`;
        out.fa += `؛ حکم ${suitFa(t.suit)} شد`;
      }
      const won = eff('trick_won')[0];
      if (won) {
        const w = seatName(seats, won.seat);
        out.en += `; ${w.en} takes the trick`;
        out.fa += `؛ دست را ${w.fa} برد`;
      }
      break;
    }
    default:
      out = { en: `${who.en}: ${a.type}`, fa: `${who.fa}: ${a.type}` };
  }
  const aw = eff('auction_won')[0];
  if (aw) {
    const h = seatName(seats, aw.hakem);
    out.en += `; ${h.en} is hakem at ${aw.contract} and takes the widow`;
    out.fa += `؛ ${h.fa} با ${faNum(aw.contract)} حاکم شد و ۴ برگ زمین را برداشت`;
  }
  if (eff('passed_out').length) {
    out.en += '; every player passed: the deal is void';
    out.fa += '؛ همه پاس دادند: دست باطل شد';
  }
  const sc = eff('hand_scored')[0];
  if (sc && sc.row.outcome !== 'passed_out') {
    const o = OUTCOME[sc.row.outcome] ?? { en: sc.row.outcome, fa: sc.row.outcome };
    out.en += `; the hakem team took ${sc.row.h}, the others ${sc.row.o} (${o.en}): ${sc.row.delta.join(' / ')}`;
    out.fa += `؛ تیم حاکم ${faNum(sc.row.h)} و حریف ${faNum(sc.row.o)} گرفت (${o.fa})`;
  }
  return out;
}

/** Words for the deal's shuffle. */
export function shuffleText(body) {
  return { en: `The deck is shuffled for the deal (${body.cards} cards)`, fa: `دسته برای پخش بُر خورد (${faNum(body.cards)} برگ)` };
}

/** Words for the outcome: the row on the score sheet. */
export function endText(o) {
  const row = o?.row;
  if (!row) return null;
  const k = OUTCOME[row.outcome] ?? { en: row.outcome, fa: row.outcome };
  const bid = row.bid === null || row.bid === undefined ? '—' : row.bid;
  return {
    en: `bid ${bid}, ${k.en}; totals ${row.total[0]} | ${row.total[1]}`,
    fa: `قرارداد ${bid === '—' ? '—' : faNum(bid)}، ${k.fa}؛ جمع ${faNum(row.total[0])} | ${faNum(row.total[1])}`,
  };
}
