// Words for the steps, in English and Persian: seat names, card names, and the events every
// game shares (the dealer's events of docs/EVENT-LOG.md §3).

const FA_DIGITS = '۰۱۲۳۴۵۶۷۸۹';
/** A number in Persian digits. */
export const faNum = (n) => String(n).replace(/[0-9]/g, (d) => FA_DIGITS[d]);

const RANK_EN = { J: 'jack', Q: 'queen', K: 'king', A: 'ace' };
const SUIT_EN = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
// /work/shared/rules: tak, shah, bibi, sarbaz; pik, del, khesht, khaj
const RANK_FA = { J: 'سرباز', Q: 'بی‌بی', K: 'شاه', A: 'تک' };
const SUIT_FA = { S: 'پیک', H: 'دل', D: 'خشت', C: 'خاج' };

/** "KH" → "king of hearts (KH)". */
export function cardEn(c) {
  if (c === 'BJ') return 'black joker';
  if (c === 'CJ') return 'coloured joker';
  const r = c.slice(0, -1);
  return `${RANK_EN[r] ?? r} of ${SUIT_EN[c.slice(-1)]} (${c})`;
}
/** "KH" → "شاه دل". */
export function cardFa(c) {
  if (c === 'BJ') return 'ژوکر سیاه';
  if (c === 'CJ') return 'ژوکر رنگی';
  const r = c.slice(0, -1);
  return `${RANK_FA[r] ?? faNum(r)} ${SUIT_FA[c.slice(-1)]}`;
}
export const suitEn = (s) => SUIT_EN[s] ?? s;
export const suitFa = (s) => SUIT_FA[s] ?? s;

/** A seat by its player's name, and its number. */
export function seatName(seats, seat) {
  // The name in Unicode isolates (FSI … PDI): drawn as <bdi>, its punctuation stays with it.
  const p = seats?.[seat]?.player ? `\u2068${seats[seat].player}\u2069` : null;
  return {
    en: p ? `${p} (seat ${seat})` : `seat ${seat}`,
    fa: p ? `${p} (صندلی ${faNum(seat)})` : `صندلی ${faNum(seat)}`,
  };
}

const GAME_FA = { 'bist-o-yek': 'بیست و یک', hokm: 'حکم', bluff: 'بلوف', shelem: 'شلم', ghahve: 'قهوه', pasur: 'پاسور', 'haft-khabis': 'هفت خبیث', sheytoonak: 'شیطونک' };

/** Words for an event that is the dealer's, not a game's action. */
export function dealerText(body, seats, actionText, shuffleText, endText) {
  switch (body.type) {
    case 'hand_started':
      return {
        en: `Hand ${body.hand_no} of ${body.game} starts at ${body.table} (${body.seats.length} seats); the dealer commits to shuffle 0`,
        fa: `دست ${faNum(body.hand_no)} ${GAME_FA[body.game] ?? body.game} با ${faNum(body.seats.length)} بازیکن شروع شد؛ تعهد بُر ۰ منتشر شد`,
      };
    case 'client_seed': {
      const w = seatName(seats, body.seat);
      return { en: `${w.en} adds a seed to shuffle ${body.shuffle}`, fa: `${w.fa} دانه‌ای به بُر ${faNum(body.shuffle)} افزود` };
    }
    case 'shuffled':
      if (shuffleText) {
        const t = shuffleText(body, seats);
        if (t) return t;
      }
      return {
        en: `Shuffle ${body.shuffle} is used (${body.reason}, ${body.cards} cards)`,
        fa: `بُر ${faNum(body.shuffle)} زده شد (${faNum(body.cards)} برگ)`,
      };
    case 'shuffle_committed':
      return { en: `The dealer commits to shuffle ${body.shuffle}`, fa: `تعهد بُر ${faNum(body.shuffle)} منتشر شد` };
    case 'action':
      return actionText(body, seats);
    case 'private_action': {
      const w = body.actor === 'service' ? { en: 'The service', fa: 'سرویس' } : seatName(seats, body.actor.seat);
      return { en: `${w.en} makes a secret choice`, fa: `${w.fa} انتخابی پنهان کرد` };
    }
    case 'hand_ended': {
      const t = endText ? endText(body.outcome, seats) : null;
      return t ? { en: `The hand is over: ${t.en}`, fa: `دست تمام شد: ${t.fa}` } : { en: 'The hand is over', fa: 'دست تمام شد' };
    }
    case 'abandoned':
      return { en: `The hand is abandoned: ${body.reason}`, fa: `دست رها شد: ${body.reason}` };
    case 'seeds_revealed':
      return { en: `The dealer reveals the seeds of ${body.seeds.length} shuffle(s): every deck can be checked`, fa: `دانه‌های ${faNum(body.seeds.length)} بُر فاش شد: هر دسته قابل بررسی است` };
    default:
      return { en: body.type, fa: body.type };
  }
}
