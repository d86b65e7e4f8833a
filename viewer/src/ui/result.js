// A hand's result in words, from its `hand_ended` outcome: who won, the points, the titles,
// and which team is which (Hokm's "Score 1 – 0" says nothing without the teams' names).
// Pure (no DOM): every name is wrapped in Unicode isolates (FSI … PDI, see `iso`), which
// the page draws as <bdi>, so that "Sara!" stays "Sara!" inside right-to-left text.
import { iso, num } from './i18n.js';

const seatLabel = (players, s, lang) => {
  const p = players?.[s];
  if (p) return iso(p);
  return lang === 'fa' ? `جای ${num('fa', s)}` : `seat ${s}`;
};

const TEAM_LETTERS = ['A', 'B', 'C', 'D'];
const TEAM_FA = ['الف', 'ب', 'ج', 'د'];

/**
 * Hokm's sides: with four seats two teams, partners facing each other (places 0 and 2 of
 * the seating, 1 and 3); with two or three seats each seat is its own side.
 * Returns [{side, seats: [..], label: {en, fa}}].
 */
export function hokmSides(n, seating, players) {
  const order = Array.isArray(seating) && seating.length === n ? seating : [...Array(n).keys()];
  if (n === 4) {
    return [0, 1].map((side) => {
      const seats = order.filter((_, place) => place % 2 === side);
      return {
        side,
        seats,
        label: {
          en: `Team ${TEAM_LETTERS[side]} (${seats.map((s) => seatLabel(players, s, 'en')).join(' & ')})`,
          fa: `تیم ${TEAM_FA[side]} (${seats.map((s) => seatLabel(players, s, 'fa')).join(' و ')})`,
        },
        short: { en: `Team ${TEAM_LETTERS[side]}`, fa: `تیم ${TEAM_FA[side]}` },
      };
    });
  }
  return [...Array(n).keys()].map((s) => ({
    side: s,
    seats: [s],
    label: { en: seatLabel(players, s, 'en'), fa: seatLabel(players, s, 'fa') },
    short: { en: seatLabel(players, s, 'en'), fa: seatLabel(players, s, 'fa') },
  }));
}

/** The side a Hokm seat plays for. */
export function hokmSideOf(seat, n, seating) {
  return hokmSides(n, seating, []).find((x) => x.seats.includes(seat))?.side ?? seat;
}

const KIND = {
  plain: { en: '', fa: '' },
  kot: { en: "kot: the hakem's side took every one of the seven", fa: 'کُت: طرف حاکم هفت دست را بی‌باخت برد' },
  por_kot: { en: "por kot: the hakem's opponents took seven, the hakem's side none", fa: 'پر کُت: حریفان حاکم هفت دست بردند و طرف حاکم هیچ' },
  kot_at_six: { en: 'kot at six, scored as one', fa: 'کُت در شش، یک امتیاز' },
  six_six_five: { en: 'nobody reached seven; five tricks win', fa: 'کسی به هفت نرسید؛ پنج دست برنده است' },
  bam: { en: 'bam: every trick', fa: 'بام: همهٔ دست‌ها' },
};

const BLUFF_TITLES = {
  king: { en: 'King', fa: 'شاه' },
  vizier: { en: 'Vizier', fa: 'وزیر' },
  executioner: { en: 'Executioner', fa: 'جلاد' },
  thief: { en: 'Thief', fa: 'دزد' },
};

const place = (i, lang) => (lang === 'fa' ? `${num('fa', i)}.` : `${i}.`);

/**
 * The result card of a finished hand: `{title: {en, fa}, lines: [{en, fa}], winners: [seat]}`,
 * or null when the step's body is not an end. `body` is the `hand_ended` (or `abandoned`)
 * event body; `seating` the table order (Hokm).
 */
export function resultOf(game, body, players, seating) {
  if (!body) return null;
  if (body.type === 'abandoned') {
    return { title: { en: 'The hand was abandoned', fa: 'دست رها شد' }, lines: [{ en: `Reason: ${body.reason}`, fa: `دلیل: ${body.reason}` }], winners: [] };
  }
  if (body.type !== 'hand_ended') return null;
  const o = body.outcome ?? {};
  const both = (f) => ({ en: f('en'), fa: f('fa') });
  if (game === 'hokm' && Number.isInteger(o.winner)) {
    const n = o.seats ?? players?.length ?? 4;
    const sides = hokmSides(n, seating ?? o.next?.seating, players);
    const w = sides.find((x) => x.side === o.winner) ?? sides[0];
    const kind = KIND[o.kind] ?? { en: String(o.kind ?? ''), fa: String(o.kind ?? '') };
    const points = Array.isArray(o.points) ? o.points[o.winner] : null;
    const lines = [];
    if (Array.isArray(o.tricks)) {
      lines.push(both((l) => `${l === 'fa' ? 'دست‌های برده' : 'Tricks'}: ${sides.map((s) => `${s.short[l]} ${num(l, o.tricks[s.side] ?? 0)}`).join(l === 'fa' ? '، ' : ', ')}`));
    }
    if (points !== null) lines.push(both((l) => (l === 'fa' ? `امتیاز این دست: ${num('fa', points)} برای ${w.short.fa}` : `Points for this hand: ${points} to ${w.short.en}`)));
    const next = o.next;
    if (Array.isArray(next?.scores)) {
      lines.push(both((l) => `${l === 'fa' ? 'امتیاز مسابقه' : 'Match score'}: ${sides.map((s) => `${s.short[l]} ${num(l, next.scores[s.side] ?? 0)}`).join(l === 'fa' ? '، ' : ', ')}`));
    }
    if (next?.over && Number.isInteger(next.winner)) {
      const mw = sides.find((x) => x.side === next.winner);
      if (mw) lines.push(both((l) => (l === 'fa' ? `${mw.label.fa} مسابقه را برد` : `${mw.label.en} wins the match`)));
    }
    for (const s of sides.filter((x) => sides.length === 2 || x.side === o.winner)) lines.push(both((l) => s.label[l]));
    return {
      title: both((l) => (l === 'fa' ? `${w.label.fa} دست را برد${kind.fa ? ` (${kind.fa})` : ''}` : `${w.label.en} wins the hand${kind.en ? ` (${kind.en})` : ''}`)),
      lines: dedupe(lines),
      winners: w.seats,
    };
  }
  if (game === 'bluff' && Array.isArray(o.order) && Array.isArray(o.titles)) {
    const king = o.order[0];
    const thief = o.order[o.order.length - 1];
    const title = (s, l) => BLUFF_TITLES[o.titles[s]]?.[l] ?? String(o.titles[s] ?? '');
    return {
      title: both((l) => (l === 'fa' ? `${seatLabel(players, king, 'fa')} شاه شد؛ ${seatLabel(players, thief, 'fa')} دزد است` : `${seatLabel(players, king, 'en')} is King; ${seatLabel(players, thief, 'en')} is the Thief`)),
      lines: o.order.map((s, i) => both((l) => `${place(i + 1, l)} ${seatLabel(players, s, l)}: ${title(s, l)}`)),
      winners: [king],
    };
  }
  if (game === 'bist-o-yek' && Array.isArray(o.net)) {
    const best = Math.max(...o.net);
    const sign = (x, l) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${num(l, Math.abs(x))}`;
    return {
      title: both((l) => (l === 'fa' ? 'دست تمام و تسویه شد' : 'The hand is over and settled')),
      lines: o.net.map((x, s) => both((l) => `${seatLabel(players, s, l)}: ${sign(x, l)}${Array.isArray(o.balances) ? (l === 'fa' ? ` (موجودی ${num('fa', o.balances[s])})` : ` (balance ${num('en', o.balances[s])})`) : ''}`)),
      winners: best > 0 ? o.net.map((x, s) => (x === best ? s : -1)).filter((s) => s >= 0) : [],
    };
  }
  return { title: both((l) => (l === 'fa' ? 'دست تمام شد' : 'The hand is over')), lines: [], winners: [] };
}

function dedupe(lines) {
  const seen = new Set();
  return lines.filter((x) => (seen.has(x.en) ? false : (seen.add(x.en), true)));
}
