// The table drawn as the players see it: seats in their places around it, in the order
// play goes (seats are numbered counter-clockwise, play passes to the right: 0 at the
// bottom, 1 to its right, …), with each seat's cards, role, money or tricks; the middle of
// the table holds the bank and bets (21), the trick (Hokm) or the pile (Bluff).
//
// A view is exactly the engine's view JSON (the service's `replay` answer's `view`):
// faces appear only where the viewer may see them, and the drawing never guesses one.
import { h } from './dom.js';
import { cardEl, suitLabel } from './cards.js';
import { STRINGS, num, iso, phaseName } from './i18n.js';
import { hokmSides } from './result.js';

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

/**
 * Hokm: each seat's hand, the trick (each card in front of the seat that played it, and
 * the finished trick with its winner at the step that takes it), trump, the score with the
 * teams named. `trick` is steps.js `trickAt`: the view alone has lost the last card of a
 * trick (it is already in the winner's pile) at the step that plays it.
 */
function hokmModel(v, t, { trick, players, lang }) {
  const n = v.seats ?? 0;
  const order = Array.isArray(v.match?.seating) && v.match.seating.length === n ? v.match.seating : [...Array(n).keys()];
  const sides = hokmSides(n, order, players);
  const seats = [];
  // The hakem draw's cards lie before their seats until the deal gathers them.
  const dealt = (v.zones ?? []).some((z) => z.zone === 'hand' && (z.cards ?? []).length);
  const played = new Map();
  if (trick) for (const c of trick.cards) played.set(c.seat, c.face);
  else {
    // Without the records: the view's trick, by table order from the leader.
    const start = order.indexOf(v.leader);
    (v.trick ?? []).forEach((c, i) => played.set(start < 0 ? i : order[(start + i) % n], cardOf(c).face));
  }
  for (let s = 0; s < n; s++) {
    const roles = [];
    if (v.hakem === s) roles.push(t.hakem);
    if (v.dealer === s) roles.push(t.dealer);
    if (n === 4) roles.push(sides.find((x) => x.seats.includes(s))?.short[lang] ?? '');
    const cards = zoneCards(v.zones, 'hand', s).map(cardOf);
    const drawn = dealt ? [] : (v.drawn ?? []).filter((d) => d.seat === s).map((d) => ({ ...cardOf(d.card), up: true }));
    seats.push({
      seat: s,
      cards: [...drawn, ...cards],
      roles,
      lines: [[t.tricks, v.tricks_won?.[s] ?? 0]],
      active: !trick?.done && (v.to_act ?? []).some((a) => isSeat(a, s)),
      played: played.has(s) ? { face: played.get(s), winner: trick?.done && trick.winner === s } : null,
    });
  }
  const center = [];
  if (v.trump) center.push([t.trump, suitLabel(v.trump, lang)]);
  const bySide = (arr) => sides.map((x) => `${x.short[lang]} ${num(lang, arr[x.side] ?? 0)}`).join(lang === 'fa' ? '، ' : ', ');
  if (Array.isArray(v.match?.scores)) center.push([t.score, bySide(v.match.scores)]);
  if (Array.isArray(v.match?.rounds) && v.match.rounds.some((r) => r > 0)) center.push([t.rounds, bySide(v.match.rounds)]);
  if (Array.isArray(v.side_tricks) && n === 4) center.push([t.tricks, bySide(v.side_tricks)]);
  const banner = trick?.done ? t.takes_trick(players[trick.winner] ? iso(players[trick.winner]) : t.seat(trick.winner)) : null;
  return { seats, order, center, centerCards: [], banner, winner: trick?.done ? trick.winner : null, phase: typeof v.phase === 'string' ? v.phase : v.phase?.name ?? null };
}

/**
 * Bluff: each seat's hand (its count public), the pile as a stack with its size, and the
 * last play in front of the seat that made it, with what it claimed. The pile is drawn as
 * one small stack whatever its size, so that it never covers the rest of the page.
 */
function bluffModel(v, t, { lang }) {
  const n = v.seats ?? 0;
  const seats = [];
  const last = (v.pile ?? [])[(v.pile ?? []).length - 1] ?? null;
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
      played: last && last.seat === s ? { faces: (last.cards ?? []).map((c) => cardOf(c).face), claim: claimText(last.count, last.rank, lang) } : null,
    });
  }
  const center = [[t.pile, v.pile_size ?? 0]];
  if (v.round_rank) center.push([t.claimed, rankText(v.round_rank, lang)]);
  return { seats, center, centerCards: [], pile: v.pile_size ?? 0, phase: v.phase?.name ?? v.phase ?? null };
}

const RANK_FA = { J: 'سرباز', Q: 'بی‌بی', K: 'شاه', A: 'تک' };
const rankText = (r, lang) => (lang === 'fa' ? RANK_FA[r] ?? num('fa', Number(r)) : String(r));
const claimText = (count, rank, lang) => (lang === 'fa' ? `${num('fa', count)} تا ${rankText(rank, 'fa')}` : `${count} × ${rank}`);

/** Any other game: the seats' hands and the table from the zones, if the view has them. */
function zonesModel(v) {
  const hands = (v.zones ?? []).filter((z) => z.zone === 'hand');
  const n = v.seats ?? hands.reduce((m, z) => Math.max(m, (z.of ?? 0) + 1), 0);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push({ seat: s, cards: zoneCards(v.zones, 'hand', s).map(cardOf), roles: [], lines: [], active: (v.to_act ?? []).some((a) => isSeat(a, s)) });
  const centerCards = [...zoneCards(v.zones, 'table'), ...zoneCards(v.zones, 'trick')].map((c) => ({ ...cardOf(c), up: true }));
  return { seats, center: [], centerCards, phase: v.phase?.name ?? (typeof v.phase === 'string' ? v.phase : null) };
}

export function modelOf(game, view, t, ctx = {}) {
  if (!view || typeof view !== 'object') return null;
  const c = { players: [], lang: t.rtl ? 'fa' : 'en', trick: null, ...ctx };
  if (game === 'bist-o-yek') return bistModel(view, t);
  if (game === 'hokm') return hokmModel(view, t, c);
  if (game === 'bluff') return bluffModel(view, t, c);
  return zonesModel(view);
}

/**
 * The table element. `me` is the seat drawn at the bottom (the viewer's seat, else 0);
 * the others follow counter-clockwise in table order. `trick`: Hokm's trick at this step
 * (steps.js). `unproven`: a sentence, when the step is at or after the first problem: the
 * table is then marked so (hatched, with the sentence on it). `result`: the result card
 * (result.js) to lay on the table, or null.
 */
export function drawTable({ game, view, players = [], lang = 'en', me = null, trick = null, unproven = null, result = null, onHideResult = null }) {
  const t = STRINGS[lang];
  const m = modelOf(game, view, t, { trick, players, lang });
  if (!m) return h('div.table.empty', t.views_none);
  const n = m.seats.length;
  const order = m.order ?? [...Array(n).keys()];
  const bottom = me !== null && order.includes(me) ? order.indexOf(me) : 0;
  const table = h('div.table' + (unproven ? '.unproven' : ''), { role: 'group', 'aria-label': lang === 'fa' ? 'میز' : 'the table', dataset: { game, seats: String(n), unproven: unproven ? 'true' : 'false' } });
  const felt = h('div.felt');
  table.append(felt);
  const name = (s) => (players[s] ? iso(players[s]) : t.seat(s));
  for (const s of m.seats) {
    const p = (order.indexOf(s.seat) - bottom + n) % n;
    const a = (2 * Math.PI * p) / Math.max(n, 1);
    const faces = s.cards.filter((c) => c.face).map((c) => c.face);
    let slot = null;
    if (s.played) {
      const list = s.played.faces ?? [s.played.face];
      slot = h(
        'div.played-slot' + (s.played.winner ? '.winner' : ''),
        { dataset: { seat: String(s.seat), cards: list.filter(Boolean).join(','), winner: s.played.winner ? 'true' : 'false' } },
        h('span.stack', list.map((f) => cardEl(f, { up: true, lang, small: list.length > 1 }))),
        s.played.claim ? h('small.claim', s.played.claim) : null,
        s.played.winner ? h('small.win', '★') : null,
      );
      // In front of the seat: a step from the seat toward the middle of the table.
      slot.style.setProperty('--dx', `${(-Math.sin(a) * 8.5).toFixed(2)}rem`);
      slot.style.setProperty('--dy', `${(-Math.cos(a) * 6.2).toFixed(2)}rem`);
    }
    const el = h(
      'section.seat' + (s.active ? '.active' : '') + (m.winner === s.seat ? '.won-trick' : ''),
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
        h('span.name', name(s.seat)),
        h('span.seatno', ` · ${t.seat(s.seat)}`),
        s.roles.filter(Boolean).map((r) => h('span.role', r)),
        s.active ? h('span.turn', { title: t.to_act }, '●') : null,
      ),
      h('div.hand', s.cards.map((c) => cardEl(c.face, { up: c.up, lang }))),
      s.total !== null && s.total !== undefined ? h('div.total', `${t.total}: `, h('b', num(lang, s.total))) : null,
      h('dl.lines', s.lines.map(([k, v]) => [h('dt', k), h('dd', typeof v === 'number' ? num(lang, v) : String(v))])),
      slot,
    );
    // Around an ellipse: p = 0 at the bottom, then counter-clockwise (right, top, left).
    el.style.left = `${50 + 40 * Math.sin(a)}%`;
    el.style.top = `${50 + 38 * Math.cos(a)}%`;
    felt.append(el);
  }
  const center = h(
    'div.center',
    m.banner ? h('p.trick-banner', { role: 'status' }, m.banner) : null,
    h('dl.lines', m.center.map(([k, v]) => [h('dt', k), h('dd', { dataset: { key: k } }, typeof v === 'number' ? num(lang, v) : String(v))])),
    m.pile !== undefined ? h('div.pile', { dataset: { size: String(m.pile) }, 'aria-hidden': 'true' }, m.pile > 0 ? [cardEl(null, { lang, small: true }), m.pile > 1 ? cardEl(null, { lang, small: true }) : null] : null) : null,
    m.centerCards.length ? h('div.played', m.centerCards.map((c) => h('span.played-card', { dataset: { seat: c.seat ?? '' } }, cardEl(c.face, { up: true, lang, small: !!c.small }), c.seat !== undefined && c.seat !== null ? h('small', name(c.seat)) : null, c.claim ? h('small', c.claim) : null))) : null,
    m.phase ? h('div.phase', { dataset: { phase: m.phase } }, `${t.phase}: ${phaseName(m.phase, lang)}`) : null,
    h('div.direction', { 'aria-hidden': 'true', title: lang === 'fa' ? 'جهت بازی' : 'direction of play' }, '↺'),
  );
  felt.append(center);
  if (unproven) table.prepend(h('p.unproven-note', { role: 'note' }, '⚠ ', unproven));
  if (result) {
    felt.append(h('section.result', { 'aria-labelledby': 'result-title', dataset: { winners: result.winners.join(',') } },
      h('h3#result-title', h('span.result-label', t.result), ' ', result.title[lang]),
      h('ul', result.lines.map((l) => h('li', l[lang]))),
      onHideResult ? h('button.hide-result', { type: 'button', onclick: onHideResult }, t.hide_result) : null));
  }
  return table;
}
