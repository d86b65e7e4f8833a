// Strict JSON reading and the canonical bytes of docs/EVENT-LOG.md §1 and §5.
//
// The browser's JSON.parse keeps the last of two equal member names, reads `1.0` as `1`
// and loses integers beyond 2^53: each of those would let a verifier judge another
// document than the one the signer meant. So a bundle given as text is read by this
// reader, which refuses what the format makes unreadable (docs/EVENT-LOG.md §1, §12 A)
// and keeps every number that is not a plain safe integer as a `JsonNumber`, so that the
// `encoding` check can refuse it at its record.

/** A number literal that is not a plain integer of magnitude at most 2^53 − 1. */
export class JsonNumber {
  constructor(text) {
    this.text = text;
    this.value = Number(text);
    Object.freeze(this);
  }
}

/** Thrown by `parseStrict` for a text the format calls unreadable. */
export class UnreadableJson extends Error {
  constructor(message, offset) {
    super(message);
    this.name = 'UnreadableJson';
    this.offset = offset;
  }
}

const MAX_SAFE = 9007199254740991;
/** The file's nesting limit (serde_json's): containers at most 127 deep, the top one is 1. */
const MAX_FILE_DEPTH = 127;
/** An event's nesting limit: a value at depth at most 32, the event object at depth 0. */
export const MAX_EVENT_DEPTH = 32;

const INT_RE = /^-?(0|[1-9][0-9]*)$/;

/**
 * Reads a JSON text (RFC 8259) strictly: no duplicate member names anywhere, no escaped
 * lone surrogate, no number beyond a double's range, nesting at most 127. Numbers that are
 * plain safe integers become JS numbers; every other number a `JsonNumber`.
 */
export function parseStrict(text) {
  if (typeof text !== 'string') throw new UnreadableJson('not a text', 0);
  let i = 0;
  const n = text.length;
  // a byte order mark is not JSON (the reference's reader refuses it too)
  if (text.charCodeAt(0) === 0xfeff) throw new UnreadableJson('a byte order mark before the JSON', 0);

  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else break;
    }
  };
  const fail = (msg) => {
    throw new UnreadableJson(`${msg} at offset ${i}`, i);
  };

  const parseString = () => {
    // at the opening quote
    i++;
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) fail('an unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail('a control character in a string');
      if (c >= 0xd800 && c <= 0xdfff) {
        // a raw surrogate in the JS string: only a well-formed pair can come from UTF-8
        const d = text.charCodeAt(i + 1);
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          i += 2;
          continue;
        }
        fail('a lone surrogate');
      }
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += text.slice(start, i);
      i++;
      const e = text[i];
      i++;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const u = readHex4();
          if (u >= 0xd800 && u <= 0xdbff) {
            if (text[i] === '\\' && text[i + 1] === 'u') {
              i += 2;
              const lo = readHex4();
              if (lo >= 0xdc00 && lo <= 0xdfff) {
                out += String.fromCharCode(u, lo);
                break;
              }
            }
            fail('an escaped lone surrogate');
          } else if (u >= 0xdc00 && u <= 0xdfff) {
            fail('an escaped lone surrogate');
          }
          out += String.fromCharCode(u);
          break;
        }
        default:
          fail('an invalid escape');
      }
      start = i;
    }
  };
  const readHex4 = () => {
    const h = text.slice(i, i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('an invalid \\u escape');
    i += 4;
    return parseInt(h, 16);
  };
  const NUM_RE = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
  const parseNumber = () => {
    NUM_RE.lastIndex = i;
    const m = NUM_RE.exec(text);
    if (!m || m[0].length === 0 || m[0] === '-') fail('an invalid number');
    const lit = m[0];
    i += lit.length;
    const v = Number(lit);
    if (!Number.isFinite(v)) fail('a number beyond the range of a double');
    if (INT_RE.test(lit) && lit !== '-0' && Math.abs(v) <= MAX_SAFE) {
      // the literal is a plain integer; within 2^53 − 1 the double is exact
      return v;
    }
    return new JsonNumber(lit);
  };
  const parseValue = (depth) => {
    ws();
    if (i >= n) fail('an unexpected end');
    const c = text[i];
    if (c === '{') {
      if (depth + 1 > MAX_FILE_DEPTH) fail('nesting deeper than 127');
      i++;
      const obj = Object.create(null);
      const seen = new Set();
      ws();
      if (text[i] === '}') {
        i++;
        return toPlain(obj);
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('a member name expected');
        const key = parseString();
        if (seen.has(key)) fail(`a duplicate member name ${JSON.stringify(key)}`);
        seen.add(key);
        ws();
        if (text[i] !== ':') fail("':' expected");
        i++;
        obj[key] = parseValue(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return toPlain(obj);
        }
        fail("',' or '}' expected");
      }
    }
    if (c === '[') {
      if (depth + 1 > MAX_FILE_DEPTH) fail('nesting deeper than 127');
      i++;
      const arr = [];
      ws();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return arr;
        }
        fail("',' or ']' expected");
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    if (c === '-' || (c >= '0' && c <= '9')) return parseNumber();
    fail('an unexpected character');
  };
  const v = parseValue(0);
  ws();
  if (i !== n) fail('trailing characters after the JSON value');
  return v;
}

// Objects are built without a prototype (so "__proto__" is an ordinary member), then
// given an ordinary prototype-free copy via defineProperty to keep every name as data.
function toPlain(obj) {
  const out = {};
  for (const k of Object.keys(obj)) {
    Object.defineProperty(out, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Checks an event against docs/EVENT-LOG.md §1: integers only (|n| ≤ 2^53 − 1, no
 * fraction, exponent or -0) and nesting at most 32. Returns null when it holds, or a
 * short text saying what breaks it.
 */
export function encodingProblem(value, maxDepth = MAX_EVENT_DEPTH) {
  const walk = (v, depth) => {
    if (depth > maxDepth) return `nesting deeper than ${maxDepth}`;
    if (v instanceof JsonNumber) return `the number ${v.text} is not an integer of at most 2^53 - 1`;
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v) || Object.is(v, -0)) return `the number ${String(v)} is not an integer of at most 2^53 - 1`;
      return null;
    }
    if (typeof v === 'string') {
      if (!isWellFormed(v)) return 'a string with a lone surrogate';
      return null;
    }
    if (v === null || typeof v === 'boolean') return null;
    if (Array.isArray(v)) {
      for (const x of v) {
        const p = walk(x, depth + 1);
        if (p) return p;
      }
      return null;
    }
    if (typeof v === 'object') {
      for (const k of Object.keys(v)) {
        if (!isWellFormed(k)) return 'a member name with a lone surrogate';
        const p = walk(v[k], depth + 1);
        if (p) return p;
      }
      return null;
    }
    return `a value of type ${typeof v}`;
  };
  return walk(value, 0);
}

function isWellFormed(s) {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return false;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/**
 * The canonical text of a value by RFC 8785 (JCS), for values that passed
 * `encodingProblem` (integers only): no whitespace; object members sorted by their names
 * as sequences of UTF-16 code units, which is exactly how JS compares strings; strings
 * escaped as §5 rule 4 says.
 */
export function canonicalText(v) {
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v) || Object.is(v, -0)) throw new Error('not an integer the format carries');
    return String(v);
  }
  if (typeof v === 'string') return canonicalString(v);
  if (v instanceof JsonNumber) throw new Error('not an integer the format carries');
  if (Array.isArray(v)) return '[' + v.map(canonicalText).join(',') + ']';
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return '{' + keys.map((k) => canonicalString(k) + ':' + canonicalText(v[k])).join(',') + '}';
  }
  throw new Error(`cannot canonicalize a ${typeof v}`);
}

const SHORT_ESCAPES = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0c: '\\f', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

function canonicalString(s) {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) {
      out += s.slice(start, i);
      out += SHORT_ESCAPES[c] ?? '\\u' + c.toString(16).padStart(4, '0');
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

const encoder = new TextEncoder();

/** JCS(v) as UTF-8 bytes. */
export function canonicalBytes(v) {
  return encoder.encode(canonicalText(v));
}

/** Deep equality of JSON values (member order does not matter). */
export function jsonEqual(a, b) {
  if (a === b) return true;
  if (a instanceof JsonNumber || b instanceof JsonNumber) {
    return a instanceof JsonNumber && b instanceof JsonNumber && a.text === b.text;
  }
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual(a[k], b[k])) return false;
  }
  return true;
}
