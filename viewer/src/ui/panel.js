// The verification panel: each check passed, or its first problem linked to its step.
// Commitments, decks, the hash chain and signatures are checked in this browser (the
// verifier in src/verify, from docs/SHUFFLE.md and docs/EVENT-LOG.md); the rules and the
// settlement (the engine re-run) come from the service's verdict or from the native
// replayer's, embedded by `replayer view`, and the panel says which.
import { h } from './dom.js';
import { STRINGS, num, fa } from './i18n.js';

const INTEGRITY_RULES = new Set(['hash', 'signer', 'signature', 'chain', 'sequence', 'record', 'encoding', 'header']);

/** Rules and settlement rows from a native or server verdict. */
export function ruleChecks(verdict, records) {
  if (!verdict) return null;
  if (verdict.valid) {
    return [
      { id: 'rules', ok: true, seq: null, message: `every action re-run through the rules engine (${verdict.events ?? records?.length ?? '?'} events)` },
      { id: 'settlement', ok: true, seq: null, message: verdict.outcome ? 'the outcome and the payments follow from the play' : 'nothing to settle' },
    ];
  }
  const p = verdict.problem ?? {};
  const seq = Number.isInteger(p.event) ? p.event : null;
  const msg = `${seq === null ? 'bundle' : `event ${seq}`}${p.seat !== null && p.seat !== undefined ? `, seat ${p.seat}` : ''}: ${p.rule}: expected ${p.expected}, found ${p.found}`;
  const body = seq === null ? null : records?.[seq]?.event?.body;
  if (body?.type === 'hand_ended') {
    return [
      { id: 'rules', ok: true, seq: null, message: 'every action up to the end follows the rules' },
      { id: 'settlement', ok: false, seq, rule: p.rule, message: msg },
    ];
  }
  if (INTEGRITY_RULES.has(p.rule)) {
    const m = `not reached: the record fails before the rules (${msg})`;
    return [
      { id: 'rules', ok: null, seq: null, message: m },
      { id: 'settlement', ok: null, seq: null, message: m },
    ];
  }
  return [
    { id: 'rules', ok: false, seq, rule: p.rule, message: msg },
    { id: 'settlement', ok: null, seq: null, message: 'not reached: the rules fail first' },
  ];
}

const SHOWN = ['commitments', 'decks', 'chain', 'signatures'];

/**
 * The panel. `crypto`: the browser verifier's result (or null while it runs);
 * `rules`: rows from `ruleChecks` (or null); `source`: server | native | none | running.
 */
export function drawPanel({ crypto, rules, source, lang, onGoto, note }) {
  const t = STRINGS[lang];
  const rows = [];
  const list = crypto?.checks ?? [];
  for (const c of list) {
    const show = SHOWN.includes(c.id) || c.ok === false || (c.ok === true && !/^not applicable/.test(c.message ?? '')) || (c.ok === null && !/^not applicable/.test(c.message ?? '') && c.id !== 'log_proof' && c.id !== 'format');
    if (show) rows.push({ ...c, where: t.in_browser });
  }
  if (!crypto) for (const id of SHOWN) rows.push({ id, ok: undefined, message: t.pending });
  for (const r of rules ?? [
    { id: 'rules', ok: null, message: '' },
    { id: 'settlement', ok: null, message: '' },
  ]) rows.push(r);
  const srcText = { server: t.source_server, native: t.source_native, none: t.source_none, running: t.source_running }[source] ?? '';
  return h(
    'section.panel',
    { 'aria-labelledby': 'panel-title' },
    h('h2#panel-title', t.verification),
    h('ul.checks', rows.map((r) => {
      const state = r.ok === true ? 'true' : r.ok === false ? 'false' : r.ok === null ? 'null' : 'pending';
      const mark = r.ok === true ? '✓' : r.ok === false ? '✗' : r.ok === null ? '–' : '…';
      const label = r.ok === true ? t.passed : r.ok === false ? t.failed : r.ok === null ? t.not_checked : t.pending;
      return h(
        'li.check.' + state,
        { dataset: { check: r.id, ok: state, seq: r.seq ?? '' } },
        h('span.mark', { 'aria-hidden': 'true' }, mark),
        h('span.name', t.checks[r.id] ?? r.id),
        h('span.state', label),
        r.ok === false && r.seq !== null && r.seq !== undefined
          ? h('button.goto', { type: 'button', onclick: () => onGoto(r.seq), dataset: { goto: String(r.seq) } }, t.go_to_step(lang === 'fa' ? num('fa', r.seq) : r.seq))
          : null,
        r.message ? detailEl(r, lang) : null,
      );
    })),
    h('p.source', { dataset: { source } }, srcText),
    note ? h('p.note', note) : null,
  );
}

// The checks' details in Persian: the verifier's sentences are English (they are the
// format's, shared with `replayer verify`), so each known one is said in Persian, and a
// failure is said in plain words with the technical sentence kept beside it, left to right.
const FA_DETAILS = [
  [/^(\d+) events linked by their hashes$/, (m) => `${fa(Number(m[1]))} رویداد با هش‌هایشان به هم پیوسته‌اند`],
  [/^(\d+) service signatures verify \(against the trusted key\(s\) given\)$/, (m) => `${fa(Number(m[1]))} امضای سرویس با کلید منتشرشدهٔ سرویس درست است`],
  [/^(\d+) service signatures verify \(ONLY against the keys the bundle itself carries\)$/, (m) => `${fa(Number(m[1]))} امضای سرویس درست است، ولی فقط با کلیدهایی که خود پرونده دارد`],
  [/^(\d+) server seed\(s\) match their commitments$/, (m) => `${fa(Number(m[1]))} بذر سرور با تعهدهایشان می‌خوانند`],
  [/^(\d+) shuffle\(s\) derived from their seeds; every face shown matches$/, (m) => `${fa(Number(m[1]))} بُر از بذرهایشان ساخته شد؛ هر کارتِ نشان‌داده‌شده با آن می‌خواند`],
  [/^every action re-run through the rules engine \((\d+) events\)$/, (m) => `هر حرکت دوباره با موتور قوانین اجرا شد (${fa(Number(m[1]))} رویداد)`],
  [/^every action up to the end follows the rules$/, () => 'هر حرکت تا پایان دست طبق قوانین است'],
  [/^the outcome and the payments follow from the play$/, () => 'نتیجه و پرداخت‌ها از بازی به دست می‌آیند'],
  [/^nothing to settle$/, () => 'چیزی برای تسویه نیست'],
  [/^(\d+) player signature\(s\) verify$/, (m) => `${fa(Number(m[1]))} امضای بازیکن درست است`],
  [/^the hand's last event is leaf (\d+) of (\S+) at size (\d+)( \(the checkpoint checked ONLY against the keys the bundle itself carries\))?$/, (m) => `آخرین رویداد دست برگ ${fa(Number(m[1]))} از دفتر ${m[2]} در اندازهٔ ${fa(Number(m[3]))} است${m[4] ? ' (نقطهٔ وارسی فقط با کلیدهای خود پرونده وارسی شد)' : ''}`],
  [/^not applicable/, () => 'در این دست کاربرد ندارد'],
  [/^not reached/, () => 'به اینجا نرسید: مشکلی پیش‌تر هست'],
  [/^not checked/, () => 'وارسی نشد'],
  [/^passed$/, () => 'درست'],
];

/** A check's detail in the page's language, as an element. */
export function detailEl(r, lang) {
  const msg = String(r.message);
  if (lang !== 'fa') return h('p.detail', { dir: 'ltr' }, msg);
  const t = STRINGS.fa;
  if (r.ok !== false) {
    for (const [re, f] of FA_DETAILS) {
      const m = re.exec(msg);
      if (m) return h('p.detail', { dir: 'rtl', lang: 'fa' }, f(m));
    }
  }
  const plain = r.ok === false ? (t.why[r.id] ?? 'این وارسی نادرست است') : 'جزئیات فنی';
  return h('p.detail', { dir: 'rtl', lang: 'fa' }, plain, r.ok === false ? '.' : ':', ' ', h('bdi.tech', { dir: 'ltr', lang: 'en' }, msg));
}
