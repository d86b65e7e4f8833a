// A tiny DOM helper: h('div.cls#id', {attrs}, children…). Text is always set as text,
// never as HTML, so nothing from a bundle or the API can become markup.

export function h(tag, attrs, ...children) {
  const m = /^([a-z0-9]+)((?:[.#][\w-]+)*)$/i.exec(tag);
  const el = document.createElement(m ? m[1] : 'div');
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === '.') el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

// A name inside a text is wrapped in Unicode isolates (FSI U+2068 … PDI U+2069, see
// `iso` in i18n.js); drawn, each such run becomes a <bdi> element (dir="auto"), so that a
// name's own direction and punctuation stay with it inside right-to-left text ("Sara!"
// stays "Sara!"), and a Persian name inside English text too.
const ISO_RUN = /\u2068([^\u2068\u2069]*)\u2069/g;

/** A text as nodes: its isolated runs as <bdi> elements, the rest as text. */
export function textNodes(s) {
  const out = [];
  let at = 0;
  for (const m of s.matchAll(ISO_RUN)) {
    if (m.index > at) out.push(document.createTextNode(s.slice(at, m.index)));
    const b = document.createElement('bdi');
    b.setAttribute('dir', 'auto');
    b.textContent = m[1];
    out.push(b);
    at = m.index + m[0].length;
  }
  if (at < s.length || out.length === 0) out.push(document.createTextNode(s.slice(at)));
  return out;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    if (c instanceof Node) el.append(c);
    else el.append(...textNodes(String(c)));
  }
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}
