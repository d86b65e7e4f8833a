// The replay page: a hand (or a match, hand by hand) step by step, the table drawn as the
// players saw it, each step in words (English or Persian), and a verification panel.
//
// Three ways in:
//  - served by the service at /hands/{hand_id}: the views are the service's, for the
//    caller's credential (typed in, or from the URL's fragment); the bundle's crypto is
//    checked here, the rules and settlement are the service's verdict;
//  - written by `replayer view FILE`: the file, the native replayer's verdict and views
//    are inside the page (no request leaves it);
//  - a file dropped on the page: crypto checked here, views from the in-browser engines.
import { verifyBundle, verifyMatch, verifyRecords } from './verify/index.js';
import { stepViews } from 'viewer-games';
import { h, fill } from './ui/dom.js';
import { STRINGS, num, iso } from './ui/i18n.js';
import { adjustmentText, describe, gameName } from './ui/describe.js';
import { drawTable, viewerSeat } from './ui/table.js';
import { drawPanel, ruleChecks } from './ui/panel.js';
import { takeCredential, keepCredential, get, ApiError } from './ui/api.js';
import { verdictOf, isUnproven } from './ui/verdict.js';
import { groupSteps, isBookkeeping, nextPlay, resultIndex, endedBy, trickAt, trickNumber } from './ui/steps.js';
import { resultOf } from './ui/result.js';
import { readEmbedded } from './embedded.js';

// Autoplay: milliseconds per step at each speed.
const SPEEDS = [
  ['0.5×', 2400],
  ['1×', 1200],
  ['2×', 600],
  ['4×', 300],
];

const state = {
  mode: 'drop',
  lang: 'en',
  hands: [],
  match: null, // the match-level verification, for a match file
  handIdx: 0,
  stepIdx: 0,
  timer: null,
  error: null,
  handId: null,
  loading: false,
  table: null, // a served hand's table: its hands, oldest first
  speed: 1, // index into SPEEDS
  watch: null, // the seat watched from (null: the view the source gives)
  resultHidden: false,
  share: null, // a share link's token, kept in the address so that it can be passed on
  credKind: null, // 'share' | 'token'
  shareError: null, // share_expired | share_revoked | unauthorized, for a share link refused
};

const app = document.getElementById('app');

// ---------------------------------------------------------------------------------------
// The URL: the step (and the hand of a match) in the fragment, `#step=23&hand=2`; a
// `?step=23` query is read too. Credentials never go in the query.

function readPlace() {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(location.search);
  const step = frag.get('step') ?? query.get('step');
  const hand = frag.get('hand');
  const lang = frag.get('lang') ?? query.get('lang');
  const as = frag.get('as');
  return {
    step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
    hand: hand !== null && /^\d+$/.test(hand) ? Number(hand) : null,
    lang: lang === 'fa' || lang === 'en' ? lang : null,
    as: as !== null && /^\d+$/.test(as) ? Number(as) : as === 'all' ? 'all' : null,
  };
}

function writePlace() {
  const hand = state.hands[state.handIdx];
  const frag = new URLSearchParams();
  // A share link's token first: the address stays a link that can be passed on.
  if (state.share) frag.set('share', state.share);
  if (state.hands.length > 1) frag.set('hand', String(state.handIdx + 1));
  if (hand?.steps.length) frag.set('step', String(hand.steps[state.stepIdx]?.seq ?? 0));
  if (state.watch !== null) frag.set('as', String(state.watch));
  if (state.lang !== 'en') frag.set('lang', state.lang);
  const url = location.pathname + (location.protocol === 'file:' ? '' : location.search.replace(/[?&]?step=\d+/, '')) + '#' + frag.toString();
  try {
    history.replaceState(null, '', url);
  } catch {
    /* a file: URL may refuse; the step is still shown */
  }
}

// ---------------------------------------------------------------------------------------
// Building a hand's steps

function recordsOf(bundle) {
  return Array.isArray(bundle?.records) ? bundle.records : [];
}

function playersOf(records) {
  const seats = records[0]?.event?.body?.seats;
  return Array.isArray(seats) ? seats.map((s) => s.player ?? s.name ?? null) : [];
}

function withText(steps, game, players) {
  for (const s of steps) s.text = s.text ?? describe(s.record, { game, players, view: s.view });
  return steps;
}

/**
 * A step's words from this browser's table model, with the penalty rulings a hand's start
 * carries into the match (`hand_started`'s `adjustments`), which the models leave out.
 */
function withCarried(text, record, players) {
  const b = record?.event?.body;
  const carried = b?.type === 'hand_started' && Array.isArray(b.adjustments) ? b.adjustments : [];
  if (!text || !carried.length) return text;
  const words = (lang) => [text[lang], ...carried.map((a) => adjustmentText(a, players, lang))].join(' ');
  return { en: words('en'), fa: words('fa') };
}

/** Views for a bundle from the in-browser engines; null when the game has none here. */
function browserViews(bundle, decks) {
  try {
    const list = stepViews(bundle, decks ?? {});
    const bySeq = new Map();
    for (const s of list) bySeq.set(s.seq, s);
    return bySeq;
  } catch {
    return null;
  }
}

/** A hand from a file: its records, views (native where embedded, else this browser's). */
function fileHand(bundle, native, crypto) {
  const records = recordsOf(bundle);
  const game = bundle?.game ?? records[0]?.event?.body?.game ?? null;
  const players = playersOf(records);
  const nativeSteps = Array.isArray(native?.steps) ? native.steps : [];
  let browser = null;
  let fromNative = 0;
  let fromBrowser = 0;
  const steps = records.map((record, i) => {
    const seq = record?.event?.seq ?? i;
    const n = nativeSteps[i];
    if (n && n.view) {
      fromNative++;
      return { seq, record, view: n.view };
    }
    if (browser === null) browser = browserViews(bundle, crypto?.decks) ?? false;
    const b = browser ? browser.get(seq) : null;
    if (b) fromBrowser++;
    return { seq, record, view: b?.view ?? null, text: withCarried(b?.text, record, players) };
  });
  const viewsSource = fromNative ? 'native' : fromBrowser ? 'browser' : 'none';
  return {
    id: bundle?.hand ?? records[0]?.event?.hand ?? '?',
    game,
    players,
    status: bundle?.status ?? null,
    viewer: 'all',
    steps: withText(steps, game, players),
    viewsSource,
    partialViews: fromNative && fromNative < records.length,
    crypto,
    rules: native?.verdict ? ruleChecks(native.verdict, records) : null,
    ruleSource: native?.verdict ? 'native' : 'none',
    bundle,
  };
}

async function openFile(value, native) {
  if (value?.format === 'persian-cards/match') {
    const m = await verifyMatch(value);
    state.match = { ...m, native: native?.verdict ?? null };
    const hands = Array.isArray(value.hands) ? value.hands : [];
    const cryptoByHand = new Map((m.hands ?? []).filter((x) => !x.quarantined).map((x) => [x.hand_id, x]));
    state.hands = hands.map((b, i) => fileHand(b, native?.hands?.[i], cryptoByHand.get(b?.hand) ?? null));
  } else {
    state.match = null;
    const crypto = await verifyBundle(value);
    state.hands = [fileHand(value, native?.hands?.[0], crypto)];
  }
}

// ---------------------------------------------------------------------------------------
// The service

async function openServed(handId, cred) {
  const hand = await get(`/v1/hands/${encodeURIComponent(handId)}`, cred);
  const steps = [];
  let from = 0;
  let viewer = 'public';
  for (;;) {
    const page = await get(`/v1/hands/${encodeURIComponent(handId)}/replay/steps?from=${from}`, cred);
    viewer = page.viewer;
    for (const s of page.steps) steps.push({ seq: s.step, record: s.event, view: s.view });
    if (page.next_from === null || page.next_from === undefined) break;
    from = page.next_from;
  }
  const records = steps.map((s) => s.record);
  const players = Array.isArray(hand.players) && hand.players.length ? hand.players : playersOf(records);
  const h0 = {
    id: hand.hand_id,
    game: hand.game,
    players,
    status: hand.status,
    viewer,
    viewerSeat: viewerSeat(steps[steps.length - 1]?.view?.viewer),
    steps: withText(steps, hand.game, players),
    viewsSource: 'server',
    crypto: null,
    rules: null,
    ruleSource: hand.status === 'in_progress' ? 'running' : 'server',
  };
  state.hands = [h0];
  state.match = null;
  // The step the address names, else the result (a running hand: its last step).
  const place = readPlace();
  const at = place.step === null ? -1 : h0.steps.findIndex((s) => s.seq === place.step);
  state.stepIdx = at >= 0 ? at : resultIndex(h0.steps);
  if (Number.isInteger(place.as)) state.watch = place.as;
  state.loading = false;
  render();
  // The table's other hands, when this credential may list them (a share link may not).
  if (hand.table_id) {
    get(`/v1/hands?table_id=${encodeURIComponent(hand.table_id)}&limit=200`, cred)
      .then((list) => {
        state.table = (list.hands ?? []).slice().sort((a, b) => a.hand_no - b.hand_no);
        render();
      })
      .catch(() => {});
  }
  // The crypto, here; the rules and settlement, the service's verdict.
  const keys = await get('/v1/keys', null).catch(() => null);
  const trustedKeys = (keys?.keys ?? []).map((k) => k.public_key);
  if (hand.status === 'in_progress') {
    h0.crypto = await verifyRecords(records, { keys: keys ?? [], hand: hand.hand_id });
  } else {
    const text = await get(`/v1/hands/${encodeURIComponent(handId)}/bundle`, cred, { text: true });
    h0.crypto = await verifyBundle(text, trustedKeys.length ? { trustedKeys } : {});
    try {
      h0.bundle = JSON.parse(text);
    } catch {
      h0.bundle = null;
    }
    const verdict = await get(`/v1/hands/${encodeURIComponent(handId)}/verify`, cred).catch(() => null);
    h0.rules = verdict ? ruleChecks(verdict, records) : null;
    if (!verdict) h0.ruleSource = 'none';
  }
}

// ---------------------------------------------------------------------------------------
// Stepping

function current() {
  return state.hands[state.handIdx] ?? null;
}

function goStep(i) {
  const hand = current();
  if (!hand) return;
  state.stepIdx = Math.max(0, Math.min(hand.steps.length - 1, i));
  writePlace();
  renderStep();
}

/** One step of play forward (+1) or back (-1): bookkeeping steps are passed over. */
function goPlay(dir) {
  const hand = current();
  if (!hand) return;
  goStep(nextPlay(hand.steps, state.stepIdx, dir));
}

function goSeq(seq) {
  const hand = current();
  if (!hand) return;
  const i = hand.steps.findIndex((s) => s.seq === seq);
  goStep(i < 0 ? 0 : i);
}

function goHand(i) {
  if (i < 0 || i >= state.hands.length) return;
  stopPlay();
  state.handIdx = i;
  state.stepIdx = resultIndex(state.hands[i].steps);
  state.resultHidden = false;
  writePlace();
  render();
}

function stopPlay() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
}

function startTimer() {
  if (state.timer) clearInterval(state.timer);
  state.timer = setInterval(() => {
    const hd = current();
    const next = hd ? nextPlay(hd.steps, state.stepIdx, 1) : state.stepIdx;
    if (!hd || next === state.stepIdx) {
      stopPlay();
      renderStep();
      return;
    }
    goStep(next);
  }, SPEEDS[state.speed][1]);
}

function togglePlay() {
  const hand = current();
  if (!hand) return;
  if (state.timer) {
    stopPlay();
  } else {
    if (nextPlay(hand.steps, state.stepIdx, 1) === state.stepIdx) state.stepIdx = 0;
    startTimer();
  }
  renderStep();
}

document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) && e.target.type !== 'range') return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  // Right to left (Persian), the arrows are mirrored: ← goes forward, → back.
  const fwd = STRINGS[state.lang].rtl ? 'ArrowLeft' : 'ArrowRight';
  const back = STRINGS[state.lang].rtl ? 'ArrowRight' : 'ArrowLeft';
  const keys = {
    [fwd]: () => goPlay(1),
    ArrowDown: () => goPlay(1),
    [back]: () => goPlay(-1),
    ArrowUp: () => goPlay(-1),
    Home: () => goStep(0),
    End: () => goStep(Infinity),
    PageDown: () => goHand(state.handIdx + 1),
    PageUp: () => goHand(state.handIdx - 1),
  };
  if (e.target?.type === 'range' && keys[e.key]) {
    // the slider moves itself; keep one step per key
    e.preventDefault();
  }
  if (keys[e.key]) {
    e.preventDefault();
    stopPlay();
    keys[e.key]();
  } else if (e.key === ' ' && !(e.target instanceof HTMLButtonElement) && !(e.target instanceof HTMLElement && e.target.tagName === 'SUMMARY')) {
    e.preventDefault();
    togglePlay();
  }
});

// The address edited by hand (or a link followed): the step, the hand, the language and
// the seat watched from take effect at once.
window.addEventListener('hashchange', () => {
  const p = readPlace();
  if (p.lang !== null && p.lang !== state.lang) {
    setLang(p.lang);
  }
  let redraw = false;
  if (p.hand !== null && p.hand - 1 !== state.handIdx && p.hand - 1 < state.hands.length) {
    state.handIdx = p.hand - 1;
    redraw = true;
  }
  const watch = Number.isInteger(p.as) ? p.as : null;
  if (watch !== state.watch) {
    state.watch = watch;
    redraw = true;
  }
  if (redraw) render();
  if (p.step !== null) {
    const hand = current();
    const i = hand ? hand.steps.findIndex((s) => s.seq === p.step) : -1;
    if (i >= 0 && i !== state.stepIdx) {
      state.stepIdx = i;
      renderStep();
    }
  }
});

// ---------------------------------------------------------------------------------------
// Rendering

function t() {
  return STRINGS[state.lang];
}

/** The page's language: `lang` and `dir` of the document, the tab's title. */
function applyLang() {
  const T = t();
  document.documentElement.lang = state.lang;
  document.documentElement.dir = T.rtl ? 'rtl' : 'ltr';
  const hand = current();
  document.title = hand ? `${gameName(hand.game, state.lang)} · ${T.title}` : T.title;
}

function setLang(lang) {
  state.lang = lang;
  applyLang();
  writePlace();
  render();
}

function statusText(hand, v) {
  const T = t();
  const s = T.hand_status[hand.status] ?? hand.status ?? '';
  return v.state === 'failed' && s ? T.status_claimed(s) : s;
}

function header() {
  const hand = current();
  const T = t();
  const v = hand ? verdictOf(hand) : null;
  return h(
    'header.top',
    h('h1', T.title),
    hand
      ? h('p.meta', { dataset: { hand: hand.id } },
        h('span.game', gameName(hand.game, state.lang)), ' · ',
        h('code.hand-id', { dir: 'ltr' }, hand.id), ' · ',
        h('span.status', { dataset: { verdict: v.state } }, statusText(hand, v)))
      : null,
    h('button.lang', { type: 'button', onclick: () => setLang(state.lang === 'en' ? 'fa' : 'en'), lang: state.lang === 'en' ? 'fa' : 'en', 'aria-label': state.lang === 'en' ? 'فارسی (Persian)' : 'English' }, T.lang_other),
  );
}

/** The verdict everyone sees first: verified by whom under which key, or where and why not. */
function verdictEl(hand) {
  const T = t();
  const v = verdictOf(hand);
  const keys = v.keys.length ? v.keys.map((k) => iso(k)).join(', ') : '?';
  const rulesLine = { server: T.v_rules_server, native: T.v_rules_native }[v.ruleSource] ?? T.v_rules_none;
  const signedLine = v.trust === 'trusted_key' ? T.v_signed_service(keys) : T.v_signed_self(keys);
  let title;
  let mark;
  let lines = [];
  let action = null;
  switch (v.state) {
    case 'failed': {
      const p = v.problem;
      const at = p.seq !== null ? hand.steps[v.badFrom]?.seq ?? p.seq : null;
      mark = '✗';
      title = T.v_failed;
      lines = [
        h('span.where', p.seq !== null ? T.v_where(at, p.seat) : T.v_where_all), ' ',
        h('strong.why', { dataset: { check: p.id } }, `${T.why[p.id] ?? T.checks[p.id] ?? p.id}.`), ' ',
        h('span.after', p.seq !== null ? T.v_after(at) : T.v_after_all),
      ];
      if (p.seq !== null) action = h('button#verdict-goto', { type: 'button', onclick: () => { stopPlay(); goStep(v.badFrom); } }, T.v_goto, ' ', num(state.lang, at));
      break;
    }
    case 'verified':
      mark = '✓';
      title = T.v_verified;
      lines = [signedLine, ' ', T.v_decks, ' ', rulesLine];
      break;
    case 'self':
      mark = '✓';
      title = T.v_self;
      lines = [signedLine, ' ', T.v_decks, ' ', rulesLine];
      break;
    case 'partial':
      mark = '–';
      title = T.v_partial;
      lines = [signedLine, ' ', T.v_decks, ' ', rulesLine];
      break;
    case 'running':
      mark = '…';
      title = T.v_running;
      lines = [T.v_running_detail];
      break;
    default:
      mark = '…';
      title = T.v_pending;
  }
  return h(
    'section#verdict.verdict.' + v.state,
    { role: v.state === 'failed' ? 'alert' : 'status', dataset: { state: v.state, badFrom: v.badFrom === null ? '' : String(hand.steps[v.badFrom]?.seq ?? '') } },
    h('p.verdict-title', h('span.mark', { 'aria-hidden': 'true' }, mark), ' ', h('strong', title)),
    lines.length ? h('p.verdict-detail', lines) : null,
    action,
    v.state === 'failed' && v.problem.message ? h('p.verdict-tech', h('bdi', { dir: 'ltr', lang: 'en' }, v.problem.message)) : null,
  );
}

/** Under the header on the service: whether the address in the bar can be passed on. */
function linkNote() {
  if (state.mode !== 'served' || !state.credKind) return null;
  const T = t();
  if (state.credKind === 'share') {
    const btn = h('button#copy-link', { type: 'button' }, T.copy_link);
    btn.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(location.href);
        btn.textContent = T.copied;
      } catch {
        /* no clipboard: the address bar holds the same link */
      }
    });
    return h('p.link-note', { dataset: { link: 'share' } }, T.link_share, ' ', btn);
  }
  return h('p.link-note', { dataset: { link: 'private' } }, T.link_private);
}

/** The other hands of a served hand's table, as links to their pages. */
function tableBar() {
  const list = state.table;
  if (!list || list.length < 2) return null;
  const T = t();
  const i = list.findIndex((x) => x.hand_id === state.handId);
  const rtl = T.rtl;
  const link = (x, label, id) => (x ? h('a', { href: `/hands/${encodeURIComponent(x.hand_id)}`, id }, label) : h('span', { id, 'aria-disabled': 'true' }, label));
  return h('nav.match', { 'aria-label': 'hands of the table' },
    link(list[i - 1], `${rtl ? '›' : '‹'} ${T.prev_hand}`, 'prev-hand'),
    h('span#hand-label', T.hand_of(i + 1, list.length)),
    link(list[i + 1], `${T.next_hand} ${rtl ? '‹' : '›'}`, 'next-hand'));
}

function matchBar() {
  if (state.mode === 'served') return tableBar();
  if (state.hands.length < 2 && !state.match) return null;
  const T = t();
  const m = state.match;
  const rtl = T.rtl;
  return h(
    'nav.match', { 'aria-label': 'hands of the match' },
    h('button#prev-hand', { type: 'button', onclick: () => goHand(state.handIdx - 1), disabled: state.handIdx === 0 }, rtl ? '› ' : '‹ ', T.prev_hand),
    h('span#hand-label', T.hand_of(state.handIdx + 1, state.hands.length)),
    h('button#next-hand', { type: 'button', onclick: () => goHand(state.handIdx + 1), disabled: state.handIdx >= state.hands.length - 1 }, T.next_hand, rtl ? ' ‹' : ' ›'),
    h('ol.hand-list', state.hands.map((hd, i) => {
      const ok = hd.crypto ? (hd.crypto.ok && (hd.rules?.every((r) => r.ok !== false) ?? true)) : null;
      return h('li', h('button', { type: 'button', 'aria-current': i === state.handIdx ? 'true' : null, onclick: () => goHand(i), dataset: { ok: String(ok) } }, `${num(state.lang, i + 1)}${ok === false ? ' ✗' : ok ? ' ✓' : ''}`));
    })),
    m ? h('p.match-verdict', { dataset: { ok: String(m.ok) } }, m.ok ? T.match_valid : `✗ ${m.first_problem?.message ?? ''}`) : null,
    ...(m?.adjustments ?? []).filter((a) => a.applied_by === null).map((a) => h('p.match-adjustment', T.after_last_hand, ' ', adjustmentText(a, current()?.players, state.lang))),
  );
}

// ---------------------------------------------------------------------------------------
// Watching from a seat: that seat's view at each step (the in-browser engines fold the
// verified records with the committed decks, and show a face only where the zones say the
// seat had seen it), and the full view from the reveal on.

function revealIndex(hand) {
  return hand.steps.findIndex((s) => s.record?.event?.body?.type === 'seeds_revealed');
}

function canWatch(hand) {
  return !!(hand && hand.bundle && hand.crypto?.decks && hand.status !== 'in_progress' && Object.keys(hand.crypto.decks).length && revealIndex(hand) >= 0);
}

function seatViews(hand, seat) {
  if (!hand.seatViews) hand.seatViews = new Map();
  if (!hand.seatViews.has(seat)) {
    let m = null;
    try {
      const list = stepViews(hand.bundle, hand.crypto.decks, { seat });
      m = new Map(list.map((x) => [x.seq, x.view]));
    } catch {
      m = null;
    }
    hand.seatViews.set(seat, m);
  }
  return hand.seatViews.get(seat);
}

/** The view drawn at step `i`, and how: {view, watching: null | 'seat' | 'after' | 'unavailable'}. */
function viewAt(hand, i) {
  const step = hand.steps[i];
  if (state.watch === null) return { view: step?.view ?? null, watching: null };
  if (!canWatch(hand)) return { view: step?.view ?? null, watching: 'unavailable' };
  if (i >= revealIndex(hand)) return { view: step?.view ?? null, watching: 'after' };
  const m = seatViews(hand, state.watch);
  if (!m) return { view: step?.view ?? null, watching: 'unavailable' };
  return { view: m.get(step.seq) ?? null, watching: 'seat' };
}

function watchSelect(hand) {
  const T = t();
  const n = hand.players.length;
  if (!n) return null;
  const sel = h('select#watch', { 'aria-label': T.watch_as },
    h('option', { value: '' }, T.watch_all),
    [...Array(n).keys()].map((s) => h('option', { value: String(s), selected: state.watch === s ? 'selected' : null }, T.watch_seat(num(state.lang, s), hand.players[s] ? hand.players[s] : null))));
  sel.value = state.watch === null ? '' : String(state.watch);
  sel.disabled = !canWatch(hand);
  sel.addEventListener('change', () => {
    state.watch = sel.value === '' ? null : Number(sel.value);
    writePlace();
    renderStep();
  });
  return h('label.watch', T.watch_as, ' ', sel);
}

let stepEls = null;

function errorPage() {
  const T = t();
  const code = state.shareError;
  const [title, help] = code === 'share_expired' ? [T.share_expired_title, T.share_expired_help] : code === 'share_revoked' ? [T.share_revoked_title, T.share_revoked_help] : [T.share_bad_title, T.share_bad_help];
  return h('section.gone', { role: 'alert', dataset: { code } }, h('h2.error', title), h('p', help), h('p.code', h('code', { dir: 'ltr' }, code)));
}

function render() {
  const T = t();
  applyLang();
  if (state.mode === 'served' && state.shareError) {
    fill(app, header(), errorPage());
    return;
  }
  if (state.mode === 'served' && state.needCredential) {
    fill(app, header(), credentialForm());
    return;
  }
  if (state.error) {
    fill(app, header(), h('p.error', { role: 'alert' }, `${T.error}: ${state.error}`), state.mode === 'served' ? credentialForm() : dropZone());
    return;
  }
  if (!state.hands.length) {
    fill(app, header(), state.loading ? h('p.loading', T.loading) : state.mode === 'drop' ? dropZone() : h('p.loading', T.loading));
    return;
  }
  const hand = current();
  const rtl = T.rtl;
  const slider = h('input#slider', { type: 'range', min: '0', max: String(Math.max(0, hand.steps.length - 1)), value: String(state.stepIdx), 'aria-label': state.lang === 'fa' ? 'گام' : 'Step' });
  slider.addEventListener('input', () => {
    stopPlay();
    goStep(Number(slider.value));
  });
  const speed = h('select#speed', { 'aria-label': T.speed, title: T.speed }, SPEEDS.map(([label], i) => h('option', { value: String(i) }, label)));
  speed.value = String(state.speed);
  speed.addEventListener('change', () => {
    state.speed = Number(speed.value);
    if (state.timer) startTimer();
  });
  stepEls = {
    board: h('div.board'),
    text: h('p#step-text', { 'aria-live': 'polite' }),
    label: h('span#step-label'),
    slider,
    play: h('button#play', { type: 'button', onclick: togglePlay }),
    panel: h('div.panel-wrap'),
    list: h('ol.step-list'),
    viewer: h('span.viewer-source'),
    watchNote: h('p.watch-note'),
  };
  // « ‹ › »: mirrored right to left, where the first step is on the right.
  const glyph = rtl ? { first: '»', prev: '›', next: '‹', last: '«' } : { first: '«', prev: '‹', next: '›', last: '»' };
  const controls = h(
    'nav.controls', { 'aria-label': 'steps' },
    h('button#first', { type: 'button', onclick: () => { stopPlay(); goStep(0); }, 'aria-label': T.first, title: T.first }, glyph.first),
    h('button#prev', { type: 'button', onclick: () => { stopPlay(); goPlay(-1); }, 'aria-label': T.prev, title: T.prev }, glyph.prev),
    stepEls.play,
    h('button#next', { type: 'button', onclick: () => { stopPlay(); goPlay(1); }, 'aria-label': T.next, title: T.next }, glyph.next),
    h('button#last', { type: 'button', onclick: () => { stopPlay(); goStep(Infinity); }, 'aria-label': T.last, title: T.last }, glyph.last),
    speed,
    stepEls.slider,
    stepEls.label,
  );
  const v = verdictOf(hand);
  const item = (i) => {
    const s = hand.steps[i];
    const bad = isUnproven(v, i);
    return h('li' + (bad ? '.unproven' : ''), h('button', { type: 'button', dataset: { step: String(s.seq), unproven: bad ? 'true' : 'false' }, onclick: () => { stopPlay(); goStep(i); } },
      h('span.seq', num(state.lang, s.seq)), ' ', bad ? h('span.unproven-tag', `⚠ ${T.unproven}`) : null, bad ? ' ' : null, s.text?.[state.lang] ?? ''));
  };
  for (const g of groupSteps(hand.steps)) {
    if (g.kind === 'play') stepEls.list.append(item(g.i));
    else {
      const n = g.to - g.from + 1;
      const open = state.stepIdx >= g.from && state.stepIdx <= g.to;
      stepEls.list.append(h('li.book', h('details', { open: open ? 'open' : null, dataset: { from: String(hand.steps[g.from].seq), to: String(hand.steps[g.to].seq) } },
        h('summary', T.bookkeeping(num(state.lang, n))),
        h('ol', [...Array(n).keys()].map((k) => item(g.from + k))))));
    }
  }
  fill(
    app,
    header(),
    linkNote(),
    verdictEl(hand),
    matchBar(),
    h('div.layout',
      h('div.main',
        h('div.viewer-note', stepEls.viewer, ' ', watchSelect(hand)),
        stepEls.watchNote,
        stepEls.board,
        // The step's words and its buttons, kept in sight together under the table.
        h('div.dock', stepEls.text, controls)),
      h('aside.side', stepEls.panel, h('details.steps', { open: 'open' }, h('summary', T.all_steps), stepEls.list))),
  );
  renderStep();
}

function viewsNote(hand) {
  const T = t();
  return { server: T.views_server, native: T.views_native, browser: T.views_browser, none: T.views_none }[hand.viewsSource] ?? '';
}

function renderStep() {
  const hand = current();
  if (!hand || !stepEls) return;
  const T = t();
  const i = state.stepIdx;
  const step = hand.steps[i];
  const last = hand.steps[hand.steps.length - 1]?.seq ?? 0;
  const v = verdictOf(hand);
  const bad = isUnproven(v, i);
  const badSeq = v.badFrom === null ? null : hand.steps[v.badFrom]?.seq ?? null;
  const { view, watching } = viewAt(hand, i);
  const me = watching === 'seat' || watching === 'after' ? state.watch : hand.viewer === 'seat' ? viewerSeat(step?.view?.viewer) : null;
  const ended = endedBy(hand.steps, i);
  const result = ended && !state.resultHidden ? resultOf(hand.game, ended.body, hand.players, view?.match?.seating ?? hand.steps[ended.index]?.view?.match?.seating) : null;
  const unprovenText = bad ? (v.badFrom === 0 && v.problem?.seq === null ? T.unproven_table_all : T.unproven_table(badSeq)) : null;
  let board;
  if (view) {
    board = drawTable({
      game: hand.game, view, players: hand.players, lang: state.lang, me,
      trick: hand.game === 'hokm' ? trickAt(hand.steps, i) : null,
      unproven: unprovenText,
      result,
      onHideResult: () => {
        state.resultHidden = true;
        renderStep();
      },
    });
  } else if (bad) {
    board = h('div.table.empty.unproven', { dataset: { unproven: 'true' } }, '⚠ ', T.no_table_unproven(badSeq));
  } else {
    board = h('div.table.empty', T.views_none);
  }
  if (ended && state.resultHidden) board.append(h('button.show-result', { type: 'button', onclick: () => { state.resultHidden = false; renderStep(); } }, T.show_result));
  fill(stepEls.board, board);
  const words = step?.text?.[state.lang] ?? '';
  const plays = (step?.record?.event?.body?.effects ?? []).some((e) => e?.type === 'played');
  const trickNo = hand.game === 'hokm' && plays ? `${T.trick_no(num(state.lang, trickNumber(hand.steps, i)))}: ` : '';
  fill(stepEls.text, bad ? h('strong.unproven-tag', `⚠ ${T.unproven}: `) : null, isBookkeeping(step?.record) ? null : trickNo, words);
  stepEls.text.dataset.seq = String(step?.seq ?? '');
  stepEls.text.dataset.unproven = bad ? 'true' : 'false';
  stepEls.label.textContent = T.step_of(step?.seq ?? 0, last);
  stepEls.slider.value = String(i);
  // The slider's track: red from the first unproven step to the end.
  if (v.badFrom !== null && hand.steps.length > 1) {
    const pct = (100 * v.badFrom) / (hand.steps.length - 1);
    stepEls.slider.style.background = `linear-gradient(${T.rtl ? 'to left' : 'to right'}, #cfd8d3 0 ${pct}%, #b3261e ${pct}% 100%)`;
    stepEls.slider.dataset.unprovenFrom = String(badSeq);
    stepEls.slider.classList.add('marked');
  }
  stepEls.play.textContent = state.timer ? '||' : '▶';
  stepEls.play.setAttribute('aria-label', state.timer ? T.pause : T.play);
  stepEls.play.title = state.timer ? T.pause : T.play;
  const who = watching === 'seat' ? T.watch_note_seat(num(state.lang, state.watch)) : hand.viewer === 'seat' ? T.viewer_seat(num(state.lang, me)) : hand.viewer === 'public' ? T.viewer_public : T.viewer_all;
  fill(stepEls.viewer, h('span', { dataset: { viewer: hand.viewer, watching: watching ?? '' } }, who), ' · ', h('span.views-source', { dataset: { source: hand.viewsSource } }, viewsNote(hand)));
  // A dropped file that fails before its reveal: the faces follow from seeds revealed after
  // the first problem, so this page names no hidden card at any step.
  const noFaces = hand.viewsSource === 'browser' && hand.crypto && !hand.crypto.ok && !Object.keys(hand.crypto.decks ?? {}).length;
  fill(stepEls.watchNote, watching === 'after' ? T.watch_note_after : watching === 'unavailable' ? T.watch_unavailable : noFaces ? T.no_faces(num(state.lang, badSeq ?? 0)) : null);
  fill(stepEls.panel, drawPanel({ crypto: hand.crypto, rules: hand.rules, source: hand.ruleSource, lang: state.lang, onGoto: (seq) => { stopPlay(); goSeq(seq); } }));
  for (const b of stepEls.list.querySelectorAll('button[aria-current]')) b.removeAttribute('aria-current');
  const cur = stepEls.list.querySelector(`button[data-step="${step?.seq}"]`);
  if (cur) {
    cur.setAttribute('aria-current', 'step');
    const det = cur.closest('details');
    if (det && !det.classList.contains('steps')) det.open = true;
  }
}

// ---------------------------------------------------------------------------------------
// Credentials and files

function credentialForm() {
  const T = t();
  const input = h('input#credential', { type: 'password', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'credential-help' });
  const form = h('form.credential',
    h('label', { for: 'credential' }, T.credential),
    input,
    h('button', { type: 'submit' }, T.open),
    h('p#credential-help', T.credential_help));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const cred = input.value.trim();
    if (!cred) return;
    keepCredential(state.handId, cred);
    state.needCredential = false;
    state.credKind = cred.startsWith('sh_') ? 'share' : 'token';
    state.share = state.credKind === 'share' ? cred : null;
    loadServed(cred);
  });
  return form;
}

function dropZone() {
  const T = t();
  const input = h('input#file', { type: 'file', accept: '.json,application/json' });
  input.addEventListener('change', () => input.files?.[0] && openLocalFile(input.files[0]));
  const zone = h('section.drop', { 'aria-labelledby': 'drop-title' },
    h('h2#drop-title', T.drop_title),
    h('p', T.drop_help),
    h('label.file', { for: 'file' }, T.choose_file),
    input);
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    const f = e.dataTransfer?.files?.[0];
    if (f) openLocalFile(f);
  });
  return zone;
}

async function openLocalFile(file) {
  state.loading = true;
  state.error = null;
  render();
  try {
    const text = await file.text();
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new Error(`not JSON: ${e.message}`);
    }
    await openFile(value, null);
    state.handIdx = 0;
    state.stepIdx = resultIndex(current()?.steps ?? []);
  } catch (e) {
    state.error = e.message;
  }
  state.loading = false;
  render();
}

async function loadServed(cred) {
  state.loading = true;
  state.error = null;
  render();
  try {
    await openServed(state.handId, cred);
  } catch (e) {
    if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404)) {
      keepCredential(state.handId, null);
      if (state.credKind === 'share') {
        // A share link refused: say what happened and what to do; no key form.
        state.shareError = e.code === 'share_expired' || e.code === 'share_revoked' ? e.code : e.code ?? 'unauthorized';
      } else {
        state.error = `${e.code ?? e.status}: ${e.message}`;
      }
    } else {
      state.error = e.message;
    }
  }
  state.loading = false;
  if (!state.shareError) writePlace();
  render();
}

// ---------------------------------------------------------------------------------------
// Start

async function start() {
  const place = readPlace();
  if (place.lang) state.lang = place.lang;
  if (Number.isInteger(place.as)) state.watch = place.as;
  applyLang();
  const embedded = document.getElementById('embedded-data');
  const served = /^https?:$/.test(location.protocol) && /^\/hands\/([^/]+)$/.exec(location.pathname);
  if (embedded) {
    state.mode = 'file';
    state.loading = true;
    render();
    try {
      const data = readEmbedded(JSON.parse(embedded.textContent));
      await openFile(data.file, data.native);
      state.handIdx = place.hand !== null ? Math.min(Math.max(place.hand - 1, 0), state.hands.length - 1) : 0;
      const hand = current();
      const i = place.step !== null ? hand.steps.findIndex((s) => s.seq === place.step) : -1;
      state.stepIdx = i >= 0 ? i : resultIndex(hand.steps);
    } catch (e) {
      state.error = e.message;
    }
    state.loading = false;
    render();
  } else if (served) {
    state.mode = 'served';
    state.handId = decodeURIComponent(served[1]);
    const got = takeCredential(state.handId);
    if (!got) {
      state.needCredential = true;
      render();
      return;
    }
    state.credKind = got.kind;
    if (got.kind === 'share') state.share = got.cred;
    await loadServed(got.cred);
  } else {
    state.mode = 'drop';
    render();
  }
}

start();
