// Card faces: `"10H"` drawn as 10 and ♥ in red, readable at a glance; a hidden card as a
// back. Every card carries its face (or `hidden`) in `data-card`, for tests and tools.
import { h } from './dom.js';

const SUITS = {
  S: { sym: '♠', red: false, en: 'spades', fa: 'پیک' },
  H: { sym: '♥', red: true, en: 'hearts', fa: 'دل' },
  D: { sym: '♦', red: true, en: 'diamonds', fa: 'خشت' },
  C: { sym: '♣', red: false, en: 'clubs', fa: 'گشنیز' },
};
const RANKS_EN = { A: 'ace', K: 'king', Q: 'queen', J: 'jack' };
const RANKS_FA = { A: 'آس', K: 'شاه', Q: 'بی‌بی', J: 'سرباز' };

/** `"10H"` → {rank: "10", suit: "H"}; jokers `BJ`, `CJ`. */
export function parseCard(code) {
  if (typeof code !== 'string') return null;
  if (code === 'BJ' || code === 'CJ') return { rank: 'Joker', suit: code };
  const suit = code.slice(-1);
  if (!SUITS[suit]) return null;
  return { rank: code.slice(0, -1), suit };
}

/** A card's name in words. */
export function cardName(code, lang = 'en') {
  const c = parseCard(code);
  if (!c) return String(code);
  if (c.rank === 'Joker') return lang === 'fa' ? 'ژوکر' : code === 'BJ' ? 'black joker' : 'coloured joker';
  const s = SUITS[c.suit];
  if (lang === 'fa') return `${RANKS_FA[c.rank] ?? c.rank} ${s.fa}`;
  return `${RANKS_EN[c.rank] ?? c.rank} of ${s.en}`;
}

/** A card's short text: `10♥`. */
export function cardText(code) {
  const c = parseCard(code);
  if (!c) return String(code);
  if (c.rank === 'Joker') return code === 'BJ' ? '🃏' : '🃟';
  return `${c.rank}${SUITS[c.suit].sym}`;
}

/** A suit's symbol and name. */
export function suitLabel(code, lang = 'en') {
  const s = SUITS[code];
  return s ? `${s.sym} ${lang === 'fa' ? s.fa : s.en}` : String(code ?? '—');
}

/**
 * One card as drawn. `face` is the card's code when the viewer may see it, else
 * null/undefined (a back). `up` marks a face-up card (public).
 */
export function cardEl(face, { up = false, lang = 'en', small = false } = {}) {
  const c = parseCard(face);
  if (!c) {
    return h('span.card.back' + (small ? '.small' : ''), {
      role: 'img',
      'aria-label': lang === 'fa' ? 'کارت پشت‌ورو' : 'face-down card',
      dataset: { card: 'hidden' },
    });
  }
  const red = c.rank === 'Joker' ? c.suit === 'CJ' : SUITS[c.suit].red;
  return h(
    'span.card' + (red ? '.red' : '') + (up ? '.up' : '') + (small ? '.small' : ''),
    { role: 'img', 'aria-label': cardName(face, lang), dataset: { card: face }, dir: 'ltr' },
    h('span.rank', c.rank === 'Joker' ? 'J' : c.rank),
    h('span.suit', c.rank === 'Joker' ? '★' : SUITS[c.suit].sym),
  );
}
