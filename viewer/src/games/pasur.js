// Pasur (پاسور, Chahar Barg): the table model for a dropped file. It folds each recorded
// effect as the replayer's engine does (replayer/src/games/pasur/evolve.rs: each effect is
// the fact it states) and draws the view the replayer gives for viewer "all": the table's
// cards, each seat's captures, the surs (/work/shared/rules/pasur.md §5, §6).
import { Zones, Z, NOBODY, EVERYONE, seenBy, viewerJson } from './zones.js';
import { seatName, cardEn, cardFa, faNum } from './text.js';

const MAX_SCORE = 100000;
const clone = (v) => JSON.parse(JSON.stringify(v));
const sideCount = (rules, n) => (n === 4 && (rules?.four_player_mode ?? 'partnership') === 'partnership' ? 2 : n);
const sideOf = (seat, n, sides) => (sides < n && sides > 0 ? seat % sides : seat);
const deals = (n) => (n === 2 ? 6 : n === 3 ? 4 : 3);

export function init(start) {
  const m = start.match_state;
  const n = m.seats;
  const sides = sideCount(start.rules, n);
  return {
    rules: start.rules,
    n,
    sides,
    now: clone(m),
    zones: new Zones(),
    shuffles: 0,
    phase: { name: 'await_shuffle' },
    dealer: m.dealer,
    deal_no: 0,
    plays: 0,
    turn: (m.dealer + 1) % n,
    last_capturer: null,
    surs: new Array(sides).fill(0),
    sur_marks: [],
    scored: [],
  };
}

export function evolve(s, e, order) {
  switch (e.type) {
    case 'shuffled':
      if (order) s.zones.install(Z.stock, e.shuffle, order, NOBODY);
      s.shuffles = e.shuffle + 1;
      break;
    case 'dealt':
      for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
      s.deal_no = e.deal;
      break;
    case 'table_dealt':
      for (const c of e.cards) s.zones.moveCard(Z.stock, c.card, Z.table, EVERYONE);
      break;
    case 'table_jack_replaced': {
      // The replacement takes the jack's slot; the jack goes into the stock at `at`.
      const table = s.zones.list(Z.table);
      const slot = Math.max(0, table.findIndex((p) => p.r.shuffle === e.jack.card.shuffle && p.r.pos === e.jack.card.pos));
      const stock = s.zones.list(Z.stock);
      const ri = stock.findIndex((p) => p.r.shuffle === e.replacement.card.shuffle && p.r.pos === e.replacement.card.pos);
      if (ri >= 0) {
        const [rep] = stock.splice(ri, 1);
        rep.seen = EVERYONE;
        table.splice(slot, 0, rep);
      }
      const ji = table.findIndex((p) => p.r.shuffle === e.jack.card.shuffle && p.r.pos === e.jack.card.pos);
      if (ji >= 0) {
        const [jack] = table.splice(ji, 1);
        jack.seen = EVERYONE;
        stock.splice(Math.min(e.at, stock.length), 0, jack);
      }
      break;
    }
    case 'played': {
      const capture = e.capture ?? [];
      const to = capture.length ? Z.won(e.seat) : Z.table;
      s.zones.moveCard(Z.hand(e.seat), e.card.card, to, EVERYONE);
      for (const c of capture) s.zones.moveCard(Z.table, c.card, Z.won(e.seat), EVERYONE);
      if (capture.length) s.last_capturer = e.seat;
      s.plays = e.play;
      s.turn = (e.seat + 1) % s.n;
      break;
    }
    case 'sur':
      if (e.side < s.surs.length) s.surs[e.side] += 1;
      s.sur_marks.push({ seat: e.seat, play: e.play });
      break;
    case 'leftovers_taken': {
      const to = e.seat === null || e.seat === undefined ? Z.out : Z.won(e.seat);
      for (const c of e.cards) s.zones.moveCard(Z.table, c.card, to, EVERYONE);
      break;
    }
    case 'hand_scored':
      for (const x of e.sides) {
        if (x.side < s.now.scores.length) s.now.scores[x.side] = Math.min(s.now.scores[x.side] + x.points, MAX_SCORE);
      }
      s.scored = clone(e.sides);
      break;
    case 'tied_at_top':
      s.now.eligible = [...e.sides];
      break;
    case 'match_won':
      s.now.over = true;
      s.now.winner = e.side;
      delete s.now.eligible;
      break;
    case 'next_dealer':
      s.now.dealer = e.seat;
      break;
    case 'phase':
      s.phase = e.phase;
      break;
    default:
      break;
  }
}

function toAct(s) {
  if (s.phase.name === 'playing' && !s.now.over) return [{ seat: s.turn }];
  return [];
}

function matchJson(m) {
  const out = clone(m);
  if (!out.eligible || out.eligible.length === 0) delete out.eligible;
  return out;
}

export function view(s, viewer = 'all') {
  const seats = [...Array(s.n).keys()];
  const v = {
    viewer: viewerJson(viewer),
    seats: s.n,
    sides: [...Array(s.sides).keys()].map((side) => seats.filter((x) => sideOf(x, s.n, s.sides) === side)),
    phase: s.phase,
    to_act: toAct(s),
    awaiting_shuffle: s.phase.name === 'await_shuffle',
    dealer: s.dealer,
    turn: s.turn,
    deal: s.deal_no,
    deals: deals(s.n),
    plays: s.plays,
    stock: s.zones.len(Z.stock),
    table: s.zones.zoneView(Z.table, viewer),
    hand_sizes: seats.map((x) => s.zones.len(Z.hand(x))),
    captured: seats.map((x) => s.zones.len(Z.won(x))),
    surs: [...s.surs],
    sur_marks: s.sur_marks.map((m) => ({ ...m })),
    last_capturer: s.last_capturer,
  };
  if (s.scored.length) v.scored = clone(s.scored);
  v.match = matchJson(s.now);
  v.zones = s.zones.view(viewer);
  return v;
}

const listEn = (cs) => cs.map((c) => cardEn(c.face)).join(', ');
const listFa = (cs) => cs.map((c) => cardFa(c.face)).join('، ');

export function actionText(body, seats) {
  const who = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
  const p = body.effects.find((e) => e.type === 'played');
  if (!p) return { en: `${who.en}: ${body.action.type}`, fa: `${who.fa}: ${body.action.type}` };
  const cap = p.capture ?? [];
  let en = `${who.en} plays the ${cardEn(p.card.face)}`;
  let fa = `${who.fa} ${cardFa(p.card.face)} بازی کرد`;
  if (cap.length) {
    en += ` and takes ${listEn(cap)}`;
    fa += ` و ${listFa(cap)} را برداشت`;
  } else {
    en += ' onto the table';
    fa += ' و روی زمین ماند';
  }
  if (body.effects.some((e) => e.type === 'sur')) {
    en += ': sur!';
    fa += ': سور!';
  }
  const left = body.effects.find((e) => e.type === 'leftovers_taken');
  if (left) {
    const w = left.seat === null || left.seat === undefined ? null : seatName(seats, left.seat);
    en += w ? `; the cards left on the table go to ${w.en}` : '; the cards left on the table are set aside';
    fa += w ? `؛ برگ‌های مانده روی زمین به ${w.fa} رسید` : '؛ برگ‌های مانده کنار گذاشته شد';
  }
  const deal = body.effects.find((e) => e.type === 'dealt');
  if (deal) {
    en += `; deal ${deal.deal}`;
    fa += `؛ دور ${faNum(deal.deal)} پخش شد`;
  }
  return { en, fa };
}

/** Words for the shuffle: the deal, the four table cards, any table jack put back. */
export function shuffleText(body) {
  const t = body.effects.find((e) => e.type === 'table_dealt');
  const jacks = body.effects.filter((e) => e.type === 'table_jack_replaced');
  let en = `The deck is shuffled and dealt (${body.cards} cards)`;
  let fa = `دسته بُر خورد و پخش شد (${faNum(body.cards)} برگ)`;
  if (t) {
    en += `; on the table: ${listEn(t.cards)}`;
    fa += `؛ روی زمین: ${listFa(t.cards)}`;
  }
  for (const j of jacks) {
    en += `; the ${cardEn(j.jack.face)} goes back into the stock, the ${cardEn(j.replacement.face)} takes its place`;
    fa += `؛ ${cardFa(j.jack.face)} به میان برگ‌ها برگشت و ${cardFa(j.replacement.face)} جایش آمد`;
  }
  return { en, fa };
}

/** Words for the outcome: each side's points. */
export function endText(o) {
  if (!o || !Array.isArray(o.sides)) return null;
  const en = o.sides.map((x) => `side ${x.side} ${x.points} points${x.surs ? ` (${x.surs} sur)` : ''}`).join(', ');
  const fa = o.sides.map((x) => `تیم ${faNum(x.side)} ${faNum(x.points)} امتیاز${x.surs ? ` (${faNum(x.surs)} سور)` : ''}`).join('، ');
  return { en, fa };
}
