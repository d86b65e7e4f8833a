// The table drawn as the players see it: seats in their places around it, in the order
// play goes (seats are numbered counter-clockwise, play passes to the right: 0 at the
// bottom, 1 to its right, …), with each seat's cards, role, money or tricks; the middle of
// the table holds the bank and bets (21), the trick (Hokm) or the pile (Bluff).
//
// A view is exactly the engine's view JSON (the service's `replay` answer's `view`):
// faces appear only where the viewer may see them, and the drawing never guesses one.
import { h } from './dom.js';
import { cardEl, suitLabel } from './cards.js';
import { STRINGS, num } from './i18n.js';

const isSeat = (a, s) => a && typeof a === 'object' && a.seat === s;

/** The seat a `{seat: n}` / `"public"` / `"all"` viewer is, if one. */
export function viewerSeat(viewer) {
  return viewer && typeof viewer === 'object' && Number.isInteger(viewer.seat) ? viewer.seat : null;
}

function cardOf(c) {
  // bist-o-yek: {card, face_up, face?}; zones: {ref, face?}
  return { face: typeof c?.face === 'string' ? c.face : null, up: !!c?.face_up };
}

/** bist-o-yek (21): balances, the bank and every stake, the duel's and the banker's cards. */
function bistModel(v, t) {
  const n = Array.isArray(v.balances) ? v.balances.length : 0;
  const seats = [];
  for (let s = 0; s < n; s++) {
    const cards = [];
    let total = null;
    const roles = [];
    if (v.banker === s) roles.push(t.banker);
    else if (v.banker === null && v.candidate === s) roles.push(`${t.banker}?`);
    for (const w of v.waiting ?? []) if (w.seat === s) cards.push(cardOf(w.card));
    if (v.duel && v.duel.player === s) {
      for (const c of v.duel.cards ?? []) cards.push(cardOf(c));
      if (Number.isInteger(v.duel.total)) total = v.duel.total;
    }
    if (v.banker === s) {
      if (v.hidden) cards.push(cardOf(v.hidden.card));
      for (const c of v.banker_cards ?? []) cards.push(cardOf(c));
      if (Number.isInteger(v.banker_total)) total = v.banker_total;
    }
    const lines = [[t.balance, v.balances[s]]];
    for (const e of v.escrow ?? []) if (e.seat === s) lines.push([e.main ? t.bet : t.side_bet, e.amount]);
    seats.push({ seat: s, cards, total, roles, lines, active: (v.to_act ?? []).some((a) => isSeat(a, s)) });
  }
  const center = [
    [t.bank, v.bank],
    [t.stake, v.stake],
    [t.stock, v.stock],
    [t.discard, v.discard],
  ];
  if (v.khabar) center.push(['khabar', '✓']);
  return { seats, center, centerCards: (v.discard_seen ?? []).map((f) => ({ face: f, up: true, small: true })), phase: v.phase?.name ?? null };
}

function zoneCards(zones, name, of) {
  for (const z of zones ?? []) if (z.zone === name && (of === undefined || z.of === of)) return z.cards ?? [];
  return [];
}

/** Hokm: each seat's hand, the trick in the middle in the order it was played, trump. */
function hokmModel(v, t) {
  const n = v.seats ?? 0;
  const order = Array.isArray(v.match?.seating) && v.match.seating.length === n ? v.match.seating : [...Array(n).keys()];
  const seats = [];
  // The hakem draw's cards lie before their seats until the deal gathers them.
  const dealt = (v.zones ?? []).some((z) => z.zone === 'hand' && (z.cards ?? []).length);
  for (let s = 0; s < n; s++) {
    const roles = [];
    if (v.hakem === s) roles.push(t.hakem);
    if (v.dealer === s) roles.push(t.dealer);
    const cards = zoneCards(v.zones, 'hand', s).map(cardOf);
    const drawn = dealt ? [] : (v.drawn ?? []).filter((d) => d.seat === s).map((d) => ({ ...cardOf(d.card), up: true }));
    seats.push({
      seat: s,
      cards: [...drawn, ...cards],
      roles,
      lines: [[t.tricks, v.tricks_won?.[s] ?? 0]],
      active: (v.to_act ?? []).some((a) => isSeat(a, s)),
    });
  }
  // The trick: card i was played by the i-th seat in table order from the leader.
  const start = order.indexOf(v.leader);
  const trick = (v.trick ?? []).map((c, i) => ({ ...cardOf(c), up: true, seat: start < 0 ? null : order[(start + i) % n] }));
  const center = [];
  if (v.trump) center.push([t.trump, suitLabel(v.trump, t.rtl ? 'fa' : 'en')]);
  if (Array.isArray(v.match?.scores)) center.push([t.score, v.match.scores.join(' – ')]);
  if (Array.isArray(v.match?.rounds)) center.push([t.rounds, v.match.rounds.join(' – ')]);
  if (Array.isArray(v.side_tricks)) center.push([t.tricks, v.side_tricks.join(' – ')]);
  return { seats, order, center, centerCards: trick, phase: typeof v.phase === 'string' ? v.phase : v.phase?.name ?? null };
}

/** Bluff: each seat's hand (its count public), the pile's plays with what each claimed. */
function bluffModel(v, t) {
  const n = v.seats ?? 0;
  const seats = [];
  for (let s = 0; s < n; s++) {
    const hand = (v.hands ?? []).find((x) => x.seat === s);
    const roles = [];
    if (v.dealer === s) roles.push(t.dealer);
    seats.push({
      seat: s,
      cards: (hand?.cards ?? []).map(cardOf),
      roles,
      lines: [['#', hand?.count ?? 0]],
      active: (v.to_act ?? []).some((a) => isSeat(a, s)) || v.turn === s,
    });
  }
  const plays = (v.pile ?? []).slice(-4);
  const centerCards = [];
  for (const p of plays) for (const c of p.cards ?? []) centerCards.push({ ...cardOf(c), seat: p.seat, claim: `${p.count}×${p.rank}` });
  const center = [[t.pile, v.pile_size ?? 0]];
  if (v.round_rank) center.push([t.claimed, v.round_rank]);
  return { seats, center, centerCards, phase: v.phase?.name ?? v.phase ?? null };
}

/** Any other game: the seats' hands and the table from the zones, if the view has them. */
function zonesModel(v) {
  const hands = (v.zones ?? []).filter((z) => z.zone === 'hand');
  const n = v.seats ?? hands.reduce((m, z) => Math.max(m, (z.of ?? 0) + 1), 0);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push({ seat: s, cards: zoneCards(v.zones, 'hand', s).map(cardOf), roles: [], lines: [], active: (v.to_act ?? []).some((a) => isSeat(a, s)) });
  const centerCards = [...zoneCards(v.zones, 'table'), ...zoneCards(v.zones, 'trick')].map((c) => ({ ...cardOf(c), up: true }));
  return { seats, center: [], centerCards, phase: v.phase?.name ?? (typeof v.phase === 'string' ? v.phase : null) };
}

export function modelOf(game, view, t) {
  if (!view || typeof view !== 'object') return null;
  if (game === 'bist-o-yek') return bistModel(view, t);
  if (game === 'hokm') return hokmModel(view, t);
  if (game === 'bluff') return bluffModel(view, t);
  return zonesModel(view);
}

/**
 * The table element. `me` is the seat drawn at the bottom (the viewer's seat, else 0);
 * the others follow counter-clockwise in table order.
 */
export function drawTable({ game, view, players = [], lang = 'en', me = null }) {
  const t = STRINGS[lang];
  const m = modelOf(game, view, t);
  if (!m) return h('div.table.empty', t.views_none);
  const n = m.seats.length;
  const order = m.order ?? [...Array(n).keys()];
  const bottom = me !== null && order.includes(me) ? order.indexOf(me) : 0;
  const table = h('div.table', { role: 'group', 'aria-label': lang === 'fa' ? 'میز' : 'the table', dataset: { game, seats: String(n) } });
  const felt = h('div.felt');
  table.append(felt);
  for (const s of m.seats) {
    const p = (order.indexOf(s.seat) - bottom + n) % n;
    const a = (2 * Math.PI * p) / Math.max(n, 1);
    const faces = s.cards.filter((c) => c.face).map((c) => c.face);
    const el = h(
      'section.seat' + (s.active ? '.active' : ''),
      {
        'aria-label': `${t.seat(s.seat)}${players[s.seat] ? ' ' + players[s.seat] : ''}`,
        dataset: {
          seat: String(s.seat),
          pos: String(p),
          cards: faces.join(','),
          hidden: String(s.cards.filter((c) => !c.face).length),
          total: s.total === null || s.total === undefined ? '' : String(s.total),
        },
      },
      h('header.who',
        h('span.name', players[s.seat] ?? t.seat(s.seat)),
        h('span.seatno', ` · ${t.seat(s.seat)}`),
        s.roles.map((r) => h('span.role', r)),
        s.active ? h('span.turn', { title: t.to_act }, '●') : null,
      ),
      h('div.hand', s.cards.map((c) => cardEl(c.face, { up: c.up, lang }))),
      s.total !== null && s.total !== undefined ? h('div.total', `${t.total}: `, h('b', num(lang, s.total))) : null,
      h('dl.lines', s.lines.map(([k, v]) => [h('dt', k), h('dd', typeof v === 'number' ? num(lang, v) : String(v))])),
    );
    // Around an ellipse: p = 0 at the bottom, then counter-clockwise (right, top, left).
    el.style.left = `${50 + 40 * Math.sin(a)}%`;
    el.style.top = `${50 + 38 * Math.cos(a)}%`;
    felt.append(el);
  }
  const center = h(
    'div.center',
    h('dl.lines', m.center.map(([k, v]) => [h('dt', k), h('dd', { dataset: { key: k } }, typeof v === 'number' ? num(lang, v) : String(v))])),
    h('div.played', m.centerCards.map((c) => h('span.played-card', { dataset: { seat: c.seat ?? '' } }, cardEl(c.face, { up: true, lang, small: !!c.small }), c.seat !== undefined && c.seat !== null ? h('small', players[c.seat] ?? t.seat(c.seat)) : null, c.claim ? h('small', c.claim) : null))),
    m.phase ? h('div.phase', `${t.phase}: ${m.phase}`) : null,
    h('div.direction', { 'aria-hidden': 'true', title: lang === 'fa' ? 'جهت بازی' : 'direction of play' }, '↺'),
  );
  felt.append(center);
  return table;
}
