// Each step in words, in English and in Persian, from its event (and, to name a card
// that was played, the table after it). Game terms keep their Persian names (hakem,
// suz, khabar), glossed in English.
import { cardName } from './cards.js';
import { fa, iso } from './i18n.js';
import { resultOf } from './result.js';

const GAME_NAMES = {
  'bist-o-yek': { en: 'Bist-o-yek (21)', fa: 'بیست و یک' },
  hokm: { en: 'Hokm', fa: 'حکم' },
  shelem: { en: 'Shelem', fa: 'شلم' },
  ghahve: { en: 'Ghahve', fa: 'قهوه' },
  pasur: { en: 'Pasur', fa: 'پاسور' },
  'haft-khabis': { en: 'Haft Khabis', fa: 'هفت خبیث' },
  bluff: { en: 'Bluff', fa: 'بلوف' },
  sheytoonak: { en: 'Sheytoonak', fa: 'شیطونک' },
};

const SUIT_FA = { S: 'پیک', H: 'دل', D: 'خشت', C: 'گشنیز' };
const SUIT_EN = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

export function gameName(game, lang) {
  return GAME_NAMES[game]?.[lang] ?? String(game);
}

/** Who acted, in words. */
function who(actor, players, lang) {
  if (actor === 'service') return lang === 'fa' ? 'سرویس' : 'The service';
  const s = actor && typeof actor === 'object' ? actor.seat : actor;
  const name = players?.[s] ? iso(players[s]) : null;
  if (lang === 'fa') return name ? `${name} (جای ${fa(s)})` : `جای ${fa(s)}`;
  return name ? `${name} (seat ${s})` : `Seat ${s}`;
}

/** Every card of a view with its face, by `shuffle:pos`. */
export function facesOf(view) {
  const out = new Map();
  const walk = (v) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const ref = v.ref ?? v.card;
    if (ref && typeof ref === 'object' && 'shuffle' in ref && typeof v.face === 'string') out.set(`${ref.shuffle}:${ref.pos}`, v.face);
    for (const x of Object.values(v)) if (x && typeof x === 'object') walk(x);
  };
  walk(view);
  return out;
}

function cardsNamed(refs, view, lang) {
  const faces = facesOf(view);
  const names = (refs || []).map((r) => {
    const f = r && faces.get(`${r.shuffle}:${r.pos}`);
    return f ? cardName(f, lang) : null;
  });
  if (names.some((n) => n === null)) return null;
  return names.join(lang === 'fa' ? '، ' : ', ');
}

function n(lang, x) {
  return lang === 'fa' ? fa(x) : String(x);
}

const PENALTY_NAMES = {
  cheating_penalty: { en: 'the cheating penalty', fa: 'جریمهٔ تقلب' },
};

/**
 * A penalty ruling carried into the match (`hand_started`'s `adjustments`, or a match
 * file's `trailing_adjustments`), in words: which dispute and ruling, who was penalized and
 * who gained how many points.
 */
export function adjustmentText(a, players, lang) {
  const E = lang !== 'fa';
  const aw = a?.award ?? {};
  const name = PENALTY_NAMES[aw.penalty]?.[E ? 'en' : 'fa'] ?? String(aw.penalty);
  const groups = (Array.isArray(aw.beneficiaries) ? aw.beneficiaries : [])
    .map((g) => (Array.isArray(g) ? g : []).map((s) => who({ seat: s }, players, E ? 'en' : 'fa')).join(E ? ' and ' : ' و '));
  const gainers = groups.join(E ? '; ' : '؛ ');
  const offender = who({ seat: aw.offender }, players, E ? 'en' : 'fa');
  return E
    ? `A club official's penalty ruling counts in the match before this hand (dispute ${a.dispute}, ruling entry ${a.seq}): ${name} (${aw.section}) against ${offender}, ${aw.points} point(s) to ${gainers}; the hand starts from the score with it added.`
    : `پیش از این دست، رأی جریمهٔ داور باشگاه در مسابقه به حساب می‌آید (اختلاف ${a.dispute}، ثبت ${fa(a.seq)}): ${name} (${aw.section}) برای ${offender}، ${fa(aw.points)} امتیاز به ${gainers}؛ دست از امتیازی آغاز می‌شود که این به آن افزوده شده است.`;
}

/** One action in words: "bets 200". */
function action(game, a, view, lang) {
  const t = a?.type;
  const E = lang === 'en';
  switch (t) {
    // bist-o-yek
    case 'accept_bank': return E ? 'accepts the bank' : 'بانک را می‌پذیرد';
    case 'decline_bank': return E ? 'declines the bank' : 'بانک را نمی‌پذیرد';
    case 'announce_khabar': return E ? 'announces bank khabar (the bank is high)' : 'خبرِ بانک می‌دهد';
    case 'deal': return E ? 'deals' : 'کارت می‌دهد';
    case 'swap': return E ? 'swaps the hidden card' : 'کارت پنهان را عوض می‌کند';
    case 'keep': return E ? 'keeps the hidden card' : 'کارت پنهان را نگه می‌دارد';
    case 'bet': return E ? `bets ${a.amount}` : `${fa(a.amount)} شرط می‌بندد`;
    case 'side_bet': return E ? `places a side bet of ${a.amount}` : `${fa(a.amount)} شرط کناری می‌بندد`;
    case 'hit': return a.expose ? (E ? `asks for a card and shows ${cardName(a.expose, 'en')}` : `کارت می‌خواهد و ${cardName(a.expose, 'fa')} را رو می‌کند`) : (E ? 'asks for a card (hit)' : 'کارت می‌خواهد');
    case 'stand': return E ? 'stands' : 'می‌ایستد';
    case 'deal_face_up': return E ? 'deals the next card face up' : 'کارت بعد را رو می‌دهد';
    case 'deal_face_down': return E ? 'deals the next card face down' : 'کارت بعد را پشت‌ورو می‌دهد';
    case 'announce_suz': return E ? 'says "suz" (went over 21)' : 'می‌گوید «سوز» (بیش از ۲۱)';
    case 'banker_hit': return E ? 'the banker draws a card' : 'بانکدار کارت می‌کشد';
    case 'banker_stand': return E ? 'the banker stands' : 'بانکدار می‌ایستد';
    case 'end_match': return E ? 'ends the match' : 'مسابقه را پایان می‌دهد';
    // hokm
    case 'cut': return E ? `cuts the deck at ${a.k}` : `دسته را از ${fa(a.k)} می‌بُرد`;
    case 'declare_trump': return E ? `declares trump (hokm): ${SUIT_EN[a.suit] ?? a.suit}` : `حکم را ${SUIT_FA[a.suit] ?? a.suit} می‌کند`;
    case 'request_ten_low_redeal': return E ? 'asks for a redeal (ten low)' : 'درخواست دوباره دادن می‌کند';
    case 'call_sar_ghermez': return E ? 'calls sar ghermez' : 'سرِ قرمز می‌خواند';
    case 'call_sar_siah': return E ? 'calls sar siah' : 'سرِ سیاه می‌خواند';
    case 'call_barg_vasat': return E ? 'calls barg vasat' : 'برگِ وسط می‌خواند';
    case 'call_ya': return E ? `calls ya: ${SUIT_EN[a.x] ?? a.x} or ${SUIT_EN[a.y] ?? a.y}` : `یا می‌خواند: ${SUIT_FA[a.x] ?? a.x} یا ${SUIT_FA[a.y] ?? a.y}`;
    case 'discard': return E ? `discards ${a.cards?.length ?? 0} card(s)` : `${fa(a.cards?.length ?? 0)} کارت می‌سوزاند`;
    case 'keep_first': return E ? 'keeps the first card' : 'کارت نخست را نگه می‌دارد';
    case 'take_second': return E ? 'takes the second card' : 'کارت دوم را برمی‌دارد';
    case 'choose_final': return E ? 'chooses the final card' : 'کارت آخر را برمی‌گزیند';
    case 'peek_partner_packet': return E ? "peeks at the partner's packet" : 'به بستهٔ یار نگاه می‌کند';
    case 'decline_peek': return E ? 'declines to peek' : 'نگاه نمی‌کند';
    case 'play': {
      const c = cardsNamed([a.card], view, lang);
      return E ? `plays ${c ?? 'a card'}` : `${c ?? 'یک کارت'} بازی می‌کند`;
    }
    case 'continue_for_bam': return E ? 'plays on for bam (every trick)' : 'برای بام (کُت) ادامه می‌دهد';
    case 'end_hand': return E ? 'ends the hand' : 'دست را پایان می‌دهد';
    case 'award_cheating_penalty': return E ? `penalises seat ${a.offender} for cheating` : `جای ${fa(a.offender)} را برای تقلب جریمه می‌کند`;
    // bluff
    case 'lead': {
      const c = a.cards?.length ?? 0;
      return E ? `leads ${c} card(s), claiming ${a.rank}` : `${fa(c)} کارت می‌گذارد و ادعا می‌کند ${a.rank}`;
    }
    case 'follow': {
      const c = a.cards?.length ?? 0;
      return E ? `follows with ${c} card(s)` : `${fa(c)} کارت دنبال می‌گذارد`;
    }
    case 'pass': return E ? 'passes' : 'رد می‌کند';
    case 'challenge': return E ? 'calls bluff' : 'بلوف می‌گیرد';
    case 'no_challenge': return E ? 'does not challenge' : 'بلوف نمی‌گیرد';
    case 'request_challenge': return E ? 'asks the next player to challenge' : 'از نفر بعد می‌خواهد بلوف بگیرد';
    default:
      return E ? `${t ?? 'acts'}` : `${t ?? 'کنشی انجام می‌دهد'}`;
  }
}

function outcomeText(outcome, players, lang) {
  const net = Array.isArray(outcome?.net) ? outcome.net : null;
  if (!net) return '';
  const parts = net.map((x, s) => {
    const name = players?.[s] ? iso(players[s]) : lang === 'fa' ? `جای ${fa(s)}` : `seat ${s}`;
    const sign = x > 0 ? '+' : '';
    return `${name} ${sign}${n(lang, x)}`;
  });
  return lang === 'fa' ? ` نتیجه: ${parts.join('، ')}` : ` Result: ${parts.join(', ')}.`;
}

/** The step in words: {en, fa}. `view` is the table after it (to name played cards). */
export function describe(record, { game, players, view } = {}) {
  const out = {};
  for (const lang of ['en', 'fa']) out[lang] = describeIn(record, { game, players, view }, lang);
  return out;
}

function describeIn(record, { game, players, view }, lang) {
  const ev = record?.event ?? record;
  const b = ev?.body ?? {};
  const E = lang === 'en';
  switch (b.type) {
    case 'hand_started': {
      const start = E
        ? `Hand ${b.hand_no} of ${gameName(b.game ?? game, 'en')} starts with ${b.seats?.length ?? '?'} seats; the commitment to shuffle 0 is published before any card is dealt.`
        : `دست ${fa(b.hand_no)} از ${gameName(b.game ?? game, 'fa')} با ${fa(b.seats?.length ?? 0)} بازیکن آغاز می‌شود؛ تعهد به بُرزدن ۰ پیش از دادن هر کارت منتشر می‌شود.`;
      const carried = (Array.isArray(b.adjustments) ? b.adjustments : []).map((a) => adjustmentText(a, players, lang));
      return [start, ...carried].join(' ');
    }
    case 'shuffle_committed':
      return E ? `The commitment to shuffle ${b.shuffle} is published.` : `تعهد به بُرزدن ${fa(b.shuffle)} منتشر می‌شود.`;
    case 'client_seed':
      return E ? `${who({ seat: b.seat }, players, 'en')} adds a client seed to shuffle ${b.shuffle}.` : `${who({ seat: b.seat }, players, 'fa')} بذر خود را به بُرزدن ${fa(b.shuffle)} می‌افزاید.`;
    case 'shuffled': {
      const missing = Array.isArray(b.missing) && b.missing.length ? b.missing : null;
      const m = missing ? (E ? ` (without the seed of seat ${missing.join(', ')})` : ` (بی بذرِ جای ${missing.map(fa).join('، ')})`) : '';
      return E ? `Shuffle ${b.shuffle} is used: ${b.cards} cards in a committed order${m}.` : `بُرزدن ${fa(b.shuffle)} به کار می‌رود: ${fa(b.cards)} کارت به ترتیبی که از پیش تعهد شده${m}.`;
    }
    case 'action':
      return `${who(b.actor, players, lang)} ${action(game, b.action, view, lang)}.`.replace(/^(.)/, (c) => c);
    case 'private_action':
      return E ? `${who(b.actor, players, 'en')} makes a private choice (${b.public?.type ?? 'hidden'}), committed now and opened at the end.` : `${who(b.actor, players, 'fa')} انتخابی پنهان می‌کند که اکنون تعهد و در پایان گشوده می‌شود.`;
    case 'hand_ended': {
      // Hokm and Bluff: who won (the team by its players, or King and Thief).
      const r = game === 'hokm' || game === 'bluff' ? resultOf(game, b, players, b.outcome?.next?.seating) : null;
      if (r && (r.winners.length || game === 'bluff')) return E ? `The hand is over: ${r.title.en}.` : `دست تمام شد: ${r.title.fa}.`;
      return (E ? 'The hand is over and settled.' : 'دست تمام و تسویه شد.') + outcomeText(b.outcome, players, lang);
    }
    case 'abandoned':
      return E ? `The hand is abandoned: ${b.reason}` : `دست رها شد: ${b.reason}`;
    case 'seeds_revealed':
      return E ? `Every server seed is revealed (${b.seeds?.length ?? 0}): anyone can now re-derive every deck.` : `همهٔ بذرهای سرور آشکار شد (${fa(b.seeds?.length ?? 0)}): اکنون هر کس می‌تواند همهٔ دسته‌ها را دوباره بسازد.`;
    default:
      return E ? `Event ${ev?.seq}: ${b.type ?? 'unknown'}` : `رویداد ${fa(ev?.seq)}: ${b.type ?? 'ناشناخته'}`;
  }
}
