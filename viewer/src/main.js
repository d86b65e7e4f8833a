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
import { STRINGS, num } from './ui/i18n.js';
import { adjustmentText, describe, gameName } from './ui/describe.js';
import { drawTable, viewerSeat } from './ui/table.js';
import { drawPanel, ruleChecks } from './ui/panel.js';
import { takeCredential, keepCredential, get, ApiError } from './ui/api.js';
import { readEmbedded } from './embedded.js';

const AUTOPLAY_MS = 1200;

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
  const lang = frag.get('lang');
  return {
    step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
    hand: hand !== null && /^\d+$/.test(hand) ? Number(hand) : null,
    lang: lang === 'fa' || lang === 'en' ? lang : null,
  };
}

function writePlace() {
  const hand = state.hands[state.handIdx];
  const frag = new URLSearchParams();
  if (state.hands.length > 1) frag.set('hand', String(state.handIdx + 1));
  if (hand?.steps.length) frag.set('step', String(hand.steps[state.stepIdx]?.seq ?? 0));
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
  // The step the address names, else the last.
  const place = readPlace();
  const at = place.step === null ? -1 : h0.steps.findIndex((s) => s.seq === place.step);
  state.stepIdx = at >= 0 ? at : Math.max(0, h0.steps.length - 1);
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
  state.stepIdx = 0;
  writePlace();
  render();
}

function stopPlay() {
  if (state.timer) clearInterval(state.timer);
  state.timer = null;
}

function togglePlay() {
  const hand = current();
  if (!hand) return;
  if (state.timer) {
    stopPlay();
  } else {
    if (state.stepIdx >= hand.steps.length - 1) state.stepIdx = 0;
    state.timer = setInterval(() => {
      const hd = current();
      if (!hd || state.stepIdx >= hd.steps.length - 1) {
        stopPlay();
        renderStep();
        return;
      }
      goStep(state.stepIdx + 1);
    }, AUTOPLAY_MS);
  }
  renderStep();
}

document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(e.target.tagName) && e.target.type !== 'range') return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = {
    ArrowRight: () => goStep(state.stepIdx + 1),
    ArrowDown: () => goStep(state.stepIdx + 1),
    ArrowLeft: () => goStep(state.stepIdx - 1),
    ArrowUp: () => goStep(state.stepIdx - 1),
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
  } else if (e.key === ' ' && !(e.target instanceof HTMLButtonElement)) {
    e.preventDefault();
    togglePlay();
  }
});

window.addEventListener('hashchange', () => {
  const p = readPlace();
  if (p.hand !== null && p.hand - 1 !== state.handIdx && p.hand - 1 < state.hands.length) {
    state.handIdx = p.hand - 1;
    render();
  }
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

function setLang(lang) {
  state.lang = lang;
  document.documentElement.lang = lang;
  document.documentElement.dir = STRINGS[lang].rtl ? 'rtl' : 'ltr';
  document.title = STRINGS[lang].title;
  writePlace();
  render();
}

function header() {
  const hand = current();
  const T = t();
  return h(
    'header.top',
    h('h1', T.title),
    hand
      ? h('p.meta', { dataset: { hand: hand.id } },
        h('span.game', gameName(hand.game, state.lang)), ' · ',
        h('code.hand-id', { dir: 'ltr' }, hand.id), ' · ',
        h('span.status', T.hand_status[hand.status] ?? hand.status ?? ''))
      : null,
    h('button.lang', { type: 'button', onclick: () => setLang(state.lang === 'en' ? 'fa' : 'en'), lang: state.lang === 'en' ? 'fa' : 'en', 'aria-label': state.lang === 'en' ? 'فارسی (Persian)' : 'English' }, T.lang_other),
  );
}

/** The other hands of a served hand's table, as links to their pages. */
function tableBar() {
  const list = state.table;
  if (!list || list.length < 2) return null;
  const T = t();
  const i = list.findIndex((x) => x.hand_id === state.handId);
  const link = (x, label, id) => (x ? h('a', { href: `/hands/${encodeURIComponent(x.hand_id)}`, id }, label) : h('span', { id, 'aria-disabled': 'true' }, label));
  return h('nav.match', { 'aria-label': 'hands of the table' },
    link(list[i - 1], `‹ ${T.prev_hand}`, 'prev-hand'),
    h('span#hand-label', T.hand_of(i + 1, list.length)),
    link(list[i + 1], `${T.next_hand} ›`, 'next-hand'));
}

function matchBar() {
  if (state.mode === 'served') return tableBar();
  if (state.hands.length < 2 && !state.match) return null;
  const T = t();
  const m = state.match;
  return h(
    'nav.match', { 'aria-label': 'hands of the match' },
    h('button#prev-hand', { type: 'button', onclick: () => goHand(state.handIdx - 1), disabled: state.handIdx === 0 }, '‹ ', T.prev_hand),
    h('span#hand-label', T.hand_of(state.handIdx + 1, state.hands.length)),
    h('button#next-hand', { type: 'button', onclick: () => goHand(state.handIdx + 1), disabled: state.handIdx >= state.hands.length - 1 }, T.next_hand, ' ›'),
    h('ol.hand-list', state.hands.map((hd, i) => {
      const ok = hd.crypto ? (hd.crypto.ok && (hd.rules?.every((r) => r.ok !== false) ?? true)) : null;
      return h('li', h('button', { type: 'button', 'aria-current': i === state.handIdx ? 'true' : null, onclick: () => goHand(i), dataset: { ok: String(ok) } }, `${i + 1}${ok === false ? ' ✗' : ok ? ' ✓' : ''}`));
    })),
    m ? h('p.match-verdict', { dataset: { ok: String(m.ok) } }, m.ok ? T.match_valid : `✗ ${m.first_problem?.message ?? ''}`) : null,
    ...(m?.adjustments ?? []).filter((a) => a.applied_by === null).map((a) => h('p.match-adjustment', T.after_last_hand, ' ', adjustmentText(a, current()?.players, state.lang))),
  );
}

let stepEls = null;

function render() {
  const T = t();
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
  const slider = h('input#slider', { type: 'range', min: '0', max: String(Math.max(0, hand.steps.length - 1)), value: String(state.stepIdx), 'aria-label': state.lang === 'fa' ? 'گام' : 'Step' });
  slider.addEventListener('input', () => {
    stopPlay();
    goStep(Number(slider.value));
  });
  stepEls = {
    board: h('div.board'),
    text: h('p#step-text', { 'aria-live': 'polite' }),
    label: h('span#step-label'),
    slider,
    play: h('button#play', { type: 'button', onclick: togglePlay }),
    panel: h('div.panel-wrap'),
    list: h('ol.step-list'),
    viewer: h('p.viewer-note'),
  };
  const controls = h(
    'nav.controls', { 'aria-label': 'steps' },
    h('button#first', { type: 'button', onclick: () => { stopPlay(); goStep(0); }, 'aria-label': T.first, title: T.first }, '«'),
    h('button#prev', { type: 'button', onclick: () => { stopPlay(); goStep(state.stepIdx - 1); }, 'aria-label': T.prev, title: T.prev }, '‹'),
    stepEls.play,
    h('button#next', { type: 'button', onclick: () => { stopPlay(); goStep(state.stepIdx + 1); }, 'aria-label': T.next, title: T.next }, '›'),
    h('button#last', { type: 'button', onclick: () => { stopPlay(); goStep(Infinity); }, 'aria-label': T.last, title: T.last }, '»'),
    stepEls.slider,
    stepEls.label,
  );
  hand.steps.forEach((s, i) => {
    stepEls.list.append(h('li', h('button', { type: 'button', dataset: { step: String(s.seq) }, onclick: () => { stopPlay(); goStep(i); } }, h('span.seq', num(state.lang, s.seq)), ' ', s.text?.[state.lang] ?? '')));
  });
  fill(
    app,
    header(),
    matchBar(),
    h('div.layout',
      h('div.main', stepEls.viewer, stepEls.board, stepEls.text, controls),
      h('aside.side', stepEls.panel, h('details.steps', h('summary', state.lang === 'fa' ? 'همهٔ گام‌ها' : 'All steps'), stepEls.list))),
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
  const step = hand.steps[state.stepIdx];
  const last = hand.steps[hand.steps.length - 1]?.seq ?? 0;
  const me = hand.viewer === 'seat' ? viewerSeat(step?.view?.viewer) : null;
  fill(stepEls.board, step?.view ? drawTable({ game: hand.game, view: step.view, players: hand.players, lang: state.lang, me }) : h('div.table.empty', T.views_none));
  stepEls.text.textContent = step?.text?.[state.lang] ?? '';
  stepEls.text.dataset.seq = String(step?.seq ?? '');
  stepEls.label.textContent = T.step_of(step?.seq ?? 0, last);
  stepEls.slider.value = String(state.stepIdx);
  stepEls.play.textContent = state.timer ? '||' : '▶';
  stepEls.play.setAttribute('aria-label', state.timer ? T.pause : T.play);
  stepEls.play.title = state.timer ? T.pause : T.play;
  const who = hand.viewer === 'seat' ? T.viewer_seat(me) : hand.viewer === 'public' ? T.viewer_public : T.viewer_all;
  fill(stepEls.viewer, h('span', { dataset: { viewer: hand.viewer } }, who), ' · ', h('span.views-source', { dataset: { source: hand.viewsSource } }, viewsNote(hand)));
  fill(stepEls.panel, drawPanel({ crypto: hand.crypto, rules: hand.rules, source: hand.ruleSource, lang: state.lang, onGoto: (seq) => { stopPlay(); goSeq(seq); } }));
  for (const b of stepEls.list.querySelectorAll('button[aria-current]')) b.removeAttribute('aria-current');
  const cur = stepEls.list.querySelector(`button[data-step="${step?.seq}"]`);
  if (cur) cur.setAttribute('aria-current', 'step');
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
    state.stepIdx = 0;
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
      state.error = `${e.code ?? e.status}: ${e.message}`;
    } else {
      state.error = e.message;
    }
  }
  state.loading = false;
  writePlace();
  render();
}

// ---------------------------------------------------------------------------------------
// Start

async function start() {
  const place = readPlace();
  if (place.lang) state.lang = place.lang;
  document.documentElement.lang = state.lang;
  document.documentElement.dir = STRINGS[state.lang].rtl ? 'rtl' : 'ltr';
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
      state.stepIdx = i >= 0 ? i : 0;
    } catch (e) {
      state.error = e.message;
    }
    state.loading = false;
    render();
  } else if (served) {
    state.mode = 'served';
    state.handId = decodeURIComponent(served[1]);
    const cred = takeCredential(state.handId);
    if (!cred) {
      state.needCredential = true;
      render();
      return;
    }
    await loadServed(cred);
  } else {
    state.mode = 'drop';
    render();
  }
}

start();
