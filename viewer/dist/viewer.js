(() => {
  var __defProp = Object.defineProperty;
  var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
  var __export = (target, all) => {
    for (var name in all)
      __defProp(target, name, { get: all[name], enumerable: true });
  };
  var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);

  // src/verify/json.js
  var JsonNumber = class {
    constructor(text) {
      this.text = text;
      this.value = Number(text);
      Object.freeze(this);
    }
  };
  var UnreadableJson = class extends Error {
    constructor(message, offset) {
      super(message);
      this.name = "UnreadableJson";
      this.offset = offset;
    }
  };
  var MAX_SAFE = 9007199254740991;
  var MAX_FILE_DEPTH = 127;
  var MAX_EVENT_DEPTH = 32;
  var INT_RE = /^-?(0|[1-9][0-9]*)$/;
  function parseStrict(text) {
    if (typeof text !== "string") throw new UnreadableJson("not a text", 0);
    let i = 0;
    const n2 = text.length;
    if (text.charCodeAt(0) === 65279) throw new UnreadableJson("a byte order mark before the JSON", 0);
    const ws = () => {
      while (i < n2) {
        const c = text.charCodeAt(i);
        if (c === 32 || c === 9 || c === 10 || c === 13) i++;
        else break;
      }
    };
    const fail = (msg) => {
      throw new UnreadableJson(`${msg} at offset ${i}`, i);
    };
    const parseString = () => {
      i++;
      let out = "";
      let start2 = i;
      for (; ; ) {
        if (i >= n2) fail("an unterminated string");
        const c = text.charCodeAt(i);
        if (c === 34) {
          out += text.slice(start2, i);
          i++;
          return out;
        }
        if (c < 32) fail("a control character in a string");
        if (c >= 55296 && c <= 57343) {
          const d = text.charCodeAt(i + 1);
          if (c <= 56319 && d >= 56320 && d <= 57343) {
            i += 2;
            continue;
          }
          fail("a lone surrogate");
        }
        if (c !== 92) {
          i++;
          continue;
        }
        out += text.slice(start2, i);
        i++;
        const e = text[i];
        i++;
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "	";
            break;
          case "u": {
            const u = readHex4();
            if (u >= 55296 && u <= 56319) {
              if (text[i] === "\\" && text[i + 1] === "u") {
                i += 2;
                const lo = readHex4();
                if (lo >= 56320 && lo <= 57343) {
                  out += String.fromCharCode(u, lo);
                  break;
                }
              }
              fail("an escaped lone surrogate");
            } else if (u >= 56320 && u <= 57343) {
              fail("an escaped lone surrogate");
            }
            out += String.fromCharCode(u);
            break;
          }
          default:
            fail("an invalid escape");
        }
        start2 = i;
      }
    };
    const readHex4 = () => {
      const h2 = text.slice(i, i + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(h2)) fail("an invalid \\u escape");
      i += 4;
      return parseInt(h2, 16);
    };
    const NUM_RE = /-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/y;
    const parseNumber = () => {
      NUM_RE.lastIndex = i;
      const m = NUM_RE.exec(text);
      if (!m || m[0].length === 0 || m[0] === "-") fail("an invalid number");
      const lit = m[0];
      i += lit.length;
      const v2 = Number(lit);
      if (!Number.isFinite(v2)) fail("a number beyond the range of a double");
      if (INT_RE.test(lit) && lit !== "-0" && Math.abs(v2) <= MAX_SAFE) {
        return v2;
      }
      return new JsonNumber(lit);
    };
    const parseValue = (depth) => {
      ws();
      if (i >= n2) fail("an unexpected end");
      const c = text[i];
      if (c === "{") {
        if (depth + 1 > MAX_FILE_DEPTH) fail("nesting deeper than 127");
        i++;
        const obj = /* @__PURE__ */ Object.create(null);
        const seen = /* @__PURE__ */ new Set();
        ws();
        if (text[i] === "}") {
          i++;
          return toPlain(obj);
        }
        for (; ; ) {
          ws();
          if (text[i] !== '"') fail("a member name expected");
          const key = parseString();
          if (seen.has(key)) fail(`a duplicate member name ${JSON.stringify(key)}`);
          seen.add(key);
          ws();
          if (text[i] !== ":") fail("':' expected");
          i++;
          obj[key] = parseValue(depth + 1);
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "}") {
            i++;
            return toPlain(obj);
          }
          fail("',' or '}' expected");
        }
      }
      if (c === "[") {
        if (depth + 1 > MAX_FILE_DEPTH) fail("nesting deeper than 127");
        i++;
        const arr2 = [];
        ws();
        if (text[i] === "]") {
          i++;
          return arr2;
        }
        for (; ; ) {
          arr2.push(parseValue(depth + 1));
          ws();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === "]") {
            i++;
            return arr2;
          }
          fail("',' or ']' expected");
        }
      }
      if (c === '"') return parseString();
      if (text.startsWith("true", i)) {
        i += 4;
        return true;
      }
      if (text.startsWith("false", i)) {
        i += 5;
        return false;
      }
      if (text.startsWith("null", i)) {
        i += 4;
        return null;
      }
      if (c === "-" || c >= "0" && c <= "9") return parseNumber();
      fail("an unexpected character");
    };
    const v = parseValue(0);
    ws();
    if (i !== n2) fail("trailing characters after the JSON value");
    return v;
  }
  function toPlain(obj) {
    const out = {};
    for (const k of Object.keys(obj)) {
      Object.defineProperty(out, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  function encodingProblem(value, maxDepth = MAX_EVENT_DEPTH) {
    const walk = (v, depth) => {
      if (depth > maxDepth) return `nesting deeper than ${maxDepth}`;
      if (v instanceof JsonNumber) return `the number ${v.text} is not an integer of at most 2^53 - 1`;
      if (typeof v === "number") {
        if (!Number.isSafeInteger(v) || Object.is(v, -0)) return `the number ${String(v)} is not an integer of at most 2^53 - 1`;
        return null;
      }
      if (typeof v === "string") {
        if (!isWellFormed(v)) return "a string with a lone surrogate";
        return null;
      }
      if (v === null || typeof v === "boolean") return null;
      if (Array.isArray(v)) {
        for (const x of v) {
          const p = walk(x, depth + 1);
          if (p) return p;
        }
        return null;
      }
      if (typeof v === "object") {
        for (const k of Object.keys(v)) {
          if (!isWellFormed(k)) return "a member name with a lone surrogate";
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
      if (c >= 55296 && c <= 56319) {
        const d = s.charCodeAt(i + 1);
        if (d >= 56320 && d <= 57343) {
          i++;
          continue;
        }
        return false;
      }
      if (c >= 56320 && c <= 57343) return false;
    }
    return true;
  }
  function canonicalText(v) {
    if (v === null) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (typeof v === "number") {
      if (!Number.isSafeInteger(v) || Object.is(v, -0)) throw new Error("not an integer the format carries");
      return String(v);
    }
    if (typeof v === "string") return canonicalString(v);
    if (v instanceof JsonNumber) throw new Error("not an integer the format carries");
    if (Array.isArray(v)) return "[" + v.map(canonicalText).join(",") + "]";
    if (typeof v === "object") {
      const keys = Object.keys(v).sort((a, b) => a < b ? -1 : a > b ? 1 : 0);
      return "{" + keys.map((k) => canonicalString(k) + ":" + canonicalText(v[k])).join(",") + "}";
    }
    throw new Error(`cannot canonicalize a ${typeof v}`);
  }
  var SHORT_ESCAPES = { 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r", 34: '\\"', 92: "\\\\" };
  function canonicalString(s) {
    let out = '"';
    let start2 = 0;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c < 32 || c === 34 || c === 92) {
        out += s.slice(start2, i);
        out += SHORT_ESCAPES[c] ?? "\\u" + c.toString(16).padStart(4, "0");
        start2 = i + 1;
      }
    }
    return out + s.slice(start2) + '"';
  }
  var encoder = new TextEncoder();
  function canonicalBytes(v) {
    return encoder.encode(canonicalText(v));
  }
  function jsonEqual(a, b) {
    if (a === b) return true;
    if (a instanceof JsonNumber || b instanceof JsonNumber) {
      return a instanceof JsonNumber && b instanceof JsonNumber && a.text === b.text;
    }
    if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
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

  // node_modules/@noble/hashes/_u64.js
  var U32_MASK64 = /* @__PURE__ */ (() => BigInt(2 ** 32 - 1))();
  var _32n = /* @__PURE__ */ BigInt(32);
  function fromBig(n2, le = false) {
    if (le)
      return { h: Number(n2 & U32_MASK64), l: Number(n2 >> _32n & U32_MASK64) };
    return { h: Number(n2 >> _32n & U32_MASK64) | 0, l: Number(n2 & U32_MASK64) | 0 };
  }
  function split(lst, le = false) {
    const len = lst.length;
    let Ah = new Uint32Array(len);
    let Al = new Uint32Array(len);
    for (let i = 0; i < len; i++) {
      const { h: h2, l } = fromBig(lst[i], le);
      [Ah[i], Al[i]] = [h2, l];
    }
    return [Ah, Al];
  }
  var fromNumH = (n2) => n2 / 2 ** 32 | 0;
  var fromNumL = (n2) => n2 >>> 0;
  function setU64FromNum(view7, byteOffset, n2, isLE2) {
    const h2 = fromNumH(n2);
    const l = fromNumL(n2);
    view7.setUint32(byteOffset, isLE2 ? l : h2, isLE2);
    view7.setUint32(byteOffset + 4, isLE2 ? h2 : l, isLE2);
  }
  var shrSH = (h2, _l, s) => h2 >>> s;
  var shrSL = (h2, l, s) => h2 << 32 - s | l >>> s;
  var rotrSH = (h2, l, s) => h2 >>> s | l << 32 - s;
  var rotrSL = (h2, l, s) => h2 << 32 - s | l >>> s;
  var rotrBH = (h2, l, s) => h2 << 64 - s | l >>> s - 32;
  var rotrBL = (h2, l, s) => h2 >>> s - 32 | l << 64 - s;
  function add(Ah, Al, Bh, Bl) {
    const l = (Al >>> 0) + (Bl >>> 0);
    return { h: Ah + Bh + (l / 2 ** 32 | 0) | 0, l: l | 0 };
  }
  var add3L = (Al, Bl, Cl) => (Al >>> 0) + (Bl >>> 0) + (Cl >>> 0);
  var add3H = (low, Ah, Bh, Ch) => Ah + Bh + Ch + (low / 2 ** 32 | 0) | 0;
  var add4L = (Al, Bl, Cl, Dl) => (Al >>> 0) + (Bl >>> 0) + (Cl >>> 0) + (Dl >>> 0);
  var add4H = (low, Ah, Bh, Ch, Dh) => Ah + Bh + Ch + Dh + (low / 2 ** 32 | 0) | 0;
  var add5L = (Al, Bl, Cl, Dl, El) => (Al >>> 0) + (Bl >>> 0) + (Cl >>> 0) + (Dl >>> 0) + (El >>> 0);
  var add5H = (low, Ah, Bh, Ch, Dh, Eh) => Ah + Bh + Ch + Dh + Eh + (low / 2 ** 32 | 0) | 0;

  // node_modules/@noble/hashes/utils.js
  function isBytes(a) {
    return a instanceof Uint8Array || ArrayBuffer.isView(a) && a.constructor.name === "Uint8Array" && "BYTES_PER_ELEMENT" in a && a.BYTES_PER_ELEMENT === 1;
  }
  var atitle = (title) => title ? `"${title}" ` : "";
  function anumber(n2, title = "") {
    if (typeof n2 !== "number")
      throw new TypeError(atitle(title) + "expected number, got " + typeof n2);
    if (!Number.isSafeInteger(n2) || n2 < 0)
      throw new RangeError(atitle(title) + "expected integer >= 0, got " + n2);
    return n2;
  }
  function abytes(value, length, title = "") {
    if (isBytes(value) && (length === void 0 || value.length === length))
      return value;
    if (length !== void 0)
      anumber(length, "length");
    const bytes = isBytes(value);
    const ofLen = length !== void 0 ? ` of length ${length}` : "";
    const got = bytes ? `length=${value.length}` : `type=${typeof value}`;
    const message = atitle(title) + "expected Uint8Array" + ofLen + ", got " + got;
    if (!bytes)
      throw new TypeError(message);
    throw new RangeError(message);
  }
  var aobject = (value, label) => {
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new TypeError((label === "object" ? "" : `"${label}" `) + "expected object, got type=" + typeof value);
  };
  var aopts = (value, label) => {
    aobject(value, label);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      throw new TypeError(`"${label}" expected plain object`);
    if (Object.hasOwn(value, "__proto__"))
      throw new TypeError(`"${label}.__proto__" is not allowed`);
  };
  function aexists(instance, checkFinished = true) {
    if (instance.destroyed)
      throw new Error("hash was destroyed");
    if (checkFinished && instance.finished)
      throw new Error("digest() was already called");
  }
  function aoutput(out, instance) {
    abytes(out, void 0, "output");
    const min = instance.outputLen;
    if (!(out.length >= min)) {
      throw new RangeError('"output" expected length >= ' + min);
    }
  }
  function clean(...arrays) {
    for (let i = 0; i < arrays.length; i++) {
      arrays[i].fill(0);
    }
  }
  function createView(arr2) {
    return new DataView(arr2.buffer, arr2.byteOffset, arr2.byteLength);
  }
  function rotr(word, shift) {
    return word << 32 - shift | word >>> shift;
  }
  var hasHexBuiltin = /* @__PURE__ */ (() => (
    // @ts-ignore
    typeof Uint8Array.from([]).toHex === "function" && typeof Uint8Array.fromHex === "function"
  ))();
  var hexes = /* @__PURE__ */ Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
  function bytesToHex(bytes) {
    abytes(bytes);
    if (hasHexBuiltin)
      return bytes.toHex();
    let hex2 = "";
    for (let i = 0; i < bytes.length; i++) {
      hex2 += hexes[bytes[i]];
    }
    return hex2;
  }
  function asciiToBase16(ch) {
    return ch >= 48 && ch <= 57 ? ch - 48 : ch >= 65 && ch <= 70 ? ch - (65 - 10) : ch >= 97 && ch <= 102 ? ch - (97 - 10) : void 0;
  }
  function hexToBytes(hex2) {
    if (typeof hex2 !== "string")
      throw new TypeError("hex string expected, got " + typeof hex2);
    if (hasHexBuiltin) {
      try {
        return Uint8Array.fromHex(hex2);
      } catch (error) {
        if (error instanceof SyntaxError)
          throw new RangeError(error.message);
        throw error;
      }
    }
    const hl = hex2.length;
    const al = hl / 2;
    if (hl % 2)
      throw new RangeError("hex string expected, got unpadded hex of length " + hl);
    const array = new Uint8Array(al);
    for (let ai = 0, hi = 0; ai < al; ai++, hi += 2) {
      const n1 = asciiToBase16(hex2.charCodeAt(hi));
      const n2 = asciiToBase16(hex2.charCodeAt(hi + 1));
      if (n1 === void 0 || n2 === void 0) {
        const char = hex2[hi] + hex2[hi + 1];
        throw new RangeError('hex string expected, got non-hex character "' + char + '" at index ' + hi);
      }
      array[ai] = n1 * 16 + n2;
    }
    return array;
  }
  function concatBytes(...arrays) {
    let sum = 0;
    for (let i = 0; i < arrays.length; i++) {
      const a = arrays[i];
      abytes(a);
      sum += a.length;
    }
    const res = new Uint8Array(sum);
    for (let i = 0, pad = 0; i < arrays.length; i++) {
      const a = arrays[i];
      res.set(a, pad);
      pad += a.length;
    }
    return res;
  }
  function checkOpts(defaults, opts, title = "opts") {
    aopts(defaults, "defaults");
    if (opts !== void 0)
      aopts(opts, title);
    const merged = Object.assign(/* @__PURE__ */ Object.create(null), defaults, opts);
    return merged;
  }
  function createHasher(hashCons, info = {}) {
    if (typeof hashCons !== "function")
      throw new TypeError('"hashCons" expected function, got type=' + typeof hashCons);
    info = checkOpts({}, info, "info");
    const hashC = (msg, opts) => hashCons(opts).update(msg).digest();
    const tmp = hashCons(void 0);
    hashC.outputLen = tmp.outputLen;
    hashC.blockLen = tmp.blockLen;
    hashC.canXOF = tmp.canXOF;
    hashC.create = (opts) => hashCons(opts);
    Object.assign(hashC, info);
    return Object.freeze(hashC);
  }
  function randomBytes(bytesLength = 32) {
    anumber(bytesLength, "bytesLength");
    const cr = typeof globalThis === "object" ? globalThis.crypto : null;
    if (typeof cr?.getRandomValues !== "function")
      throw new Error("crypto.getRandomValues must be defined");
    if (bytesLength > 65536)
      throw new RangeError(`"bytesLength" expected <= 65536, got ${bytesLength}`);
    return cr.getRandomValues(new Uint8Array(bytesLength));
  }
  var oidNist = (suffix) => ({
    // Current NIST hashAlgs suffixes used here fit in one DER subidentifier octet.
    // Larger suffix values would need base-128 OID encoding and a different length byte.
    oid: Uint8Array.from([6, 9, 96, 134, 72, 1, 101, 3, 4, 2, suffix])
  });

  // node_modules/@noble/hashes/_md.js
  function Chi(a, b, c) {
    return a & b ^ ~a & c;
  }
  function Maj(a, b, c) {
    return a & b ^ a & c ^ b & c;
  }
  var HashMD = class {
    constructor(blockLen, outputLen, padOffset, isLE2) {
      __publicField(this, "blockLen");
      __publicField(this, "outputLen");
      __publicField(this, "canXOF", false);
      __publicField(this, "padOffset");
      __publicField(this, "isLE");
      // For partial updates less than block size
      __publicField(this, "buffer");
      __publicField(this, "view");
      __publicField(this, "finished", false);
      __publicField(this, "length", 0);
      __publicField(this, "pos", 0);
      __publicField(this, "destroyed", false);
      this.blockLen = blockLen;
      this.outputLen = outputLen;
      this.padOffset = padOffset;
      this.isLE = isLE2;
      this.buffer = new Uint8Array(blockLen);
      this.view = createView(this.buffer);
    }
    update(data) {
      aexists(this);
      abytes(data);
      const { view: view7, buffer, blockLen } = this;
      const len = data.length;
      let processed = false;
      for (let pos = 0; pos < len; ) {
        const take = Math.min(blockLen - this.pos, len - pos);
        if (take === blockLen) {
          const dataView = createView(data);
          for (; blockLen <= len - pos; pos += blockLen)
            this.process(dataView, pos);
          processed = true;
          continue;
        }
        buffer.set(pos === 0 && take === len ? data : data.subarray(pos, pos + take), this.pos);
        this.pos += take;
        pos += take;
        if (this.pos === blockLen) {
          this.process(view7, 0);
          this.pos = 0;
          processed = true;
        }
      }
      this.length += data.length;
      if (processed)
        this.roundClean();
      return this;
    }
    digestInto(out) {
      aexists(this);
      aoutput(out, this);
      this.finished = true;
      const { buffer, view: view7, blockLen, isLE: isLE2 } = this;
      let { pos } = this;
      buffer[pos++] = 128;
      buffer.fill(0, pos);
      if (this.padOffset > blockLen - pos) {
        this.process(view7, 0);
        buffer.fill(0);
      }
      setU64FromNum(view7, blockLen - 8, this.length * 8, isLE2);
      this.process(view7, 0);
      this.roundClean();
      const oview = out === buffer ? view7 : createView(out);
      const len = this.outputLen;
      const outLen = len / 4;
      const state2 = this.get();
      if (len % 4 || outLen > state2.length)
        throw new Error("invalid outputLen");
      for (let i = 0; i < outLen; i++)
        oview.setUint32(4 * i, state2[i], isLE2);
    }
    digest() {
      const { buffer, outputLen } = this;
      this.digestInto(buffer);
      const res = buffer.slice(0, outputLen);
      this.destroy();
      return res;
    }
    _cloneIntoMeta(to) {
      const { buffer, length, finished, destroyed, pos } = this;
      to.destroyed = destroyed;
      to.finished = finished;
      to.length = length;
      to.pos = pos;
      if (pos)
        to.buffer.set(buffer);
      return to;
    }
    clone() {
      return this._cloneInto();
    }
  };
  var SHA256_IV = /* @__PURE__ */ Uint32Array.from([
    1779033703,
    3144134277,
    1013904242,
    2773480762,
    1359893119,
    2600822924,
    528734635,
    1541459225
  ]);
  var SHA512_IV = /* @__PURE__ */ Uint32Array.from([
    1779033703,
    4089235720,
    3144134277,
    2227873595,
    1013904242,
    4271175723,
    2773480762,
    1595750129,
    1359893119,
    2917565137,
    2600822924,
    725511199,
    528734635,
    4215389547,
    1541459225,
    327033209
  ]);

  // node_modules/@noble/hashes/sha2.js
  var SHA256_K = /* @__PURE__ */ Uint32Array.from([
    1116352408,
    1899447441,
    3049323471,
    3921009573,
    961987163,
    1508970993,
    2453635748,
    2870763221,
    3624381080,
    310598401,
    607225278,
    1426881987,
    1925078388,
    2162078206,
    2614888103,
    3248222580,
    3835390401,
    4022224774,
    264347078,
    604807628,
    770255983,
    1249150122,
    1555081692,
    1996064986,
    2554220882,
    2821834349,
    2952996808,
    3210313671,
    3336571891,
    3584528711,
    113926993,
    338241895,
    666307205,
    773529912,
    1294757372,
    1396182291,
    1695183700,
    1986661051,
    2177026350,
    2456956037,
    2730485921,
    2820302411,
    3259730800,
    3345764771,
    3516065817,
    3600352804,
    4094571909,
    275423344,
    430227734,
    506948616,
    659060556,
    883997877,
    958139571,
    1322822218,
    1537002063,
    1747873779,
    1955562222,
    2024104815,
    2227730452,
    2361852424,
    2428436474,
    2756734187,
    3204031479,
    3329325298
  ]);
  var SHA256_W = /* @__PURE__ */ new Uint32Array(64);
  var SHA2_32B = class extends HashMD {
    constructor(outputLen, IV) {
      super(64, outputLen, 8, false);
      // We cannot use array here since array allows indexing by variable
      // which means optimizer/compiler cannot use registers.
      // Numeric initializers matter: starting the fields as `undefined` changes
      // V8's field representation and makes sha256 3x slower (measured).
      __publicField(this, "A", 0);
      __publicField(this, "B", 0);
      __publicField(this, "C", 0);
      __publicField(this, "D", 0);
      __publicField(this, "E", 0);
      __publicField(this, "F", 0);
      __publicField(this, "G", 0);
      __publicField(this, "H", 0);
      this.A = IV[0] | 0;
      this.B = IV[1] | 0;
      this.C = IV[2] | 0;
      this.D = IV[3] | 0;
      this.E = IV[4] | 0;
      this.F = IV[5] | 0;
      this.G = IV[6] | 0;
      this.H = IV[7] | 0;
    }
    get() {
      const { A, B, C, D, E, F, G, H } = this;
      return [A, B, C, D, E, F, G, H];
    }
    // prettier-ignore
    set(A, B, C, D, E, F, G, H) {
      this.A = A | 0;
      this.B = B | 0;
      this.C = C | 0;
      this.D = D | 0;
      this.E = E | 0;
      this.F = F | 0;
      this.G = G | 0;
      this.H = H | 0;
    }
    _cloneInto(to) {
      (to || (to = new this.constructor())).set(...this.get());
      return this._cloneIntoMeta(to);
    }
    process(view7, offset) {
      for (let i = 0; i < 16; i++, offset += 4)
        SHA256_W[i] = view7.getUint32(offset, false);
      for (let i = 16; i < 64; i++) {
        const W15 = SHA256_W[i - 15];
        const W2 = SHA256_W[i - 2];
        const s0 = rotr(W15, 7) ^ rotr(W15, 18) ^ W15 >>> 3;
        const s1 = rotr(W2, 17) ^ rotr(W2, 19) ^ W2 >>> 10;
        SHA256_W[i] = s1 + SHA256_W[i - 7] + s0 + SHA256_W[i - 16] | 0;
      }
      let { A, B, C, D, E, F, G, H } = this;
      for (let i = 0; i < 64; i++) {
        const sigma1 = rotr(E, 6) ^ rotr(E, 11) ^ rotr(E, 25);
        const T1 = H + sigma1 + Chi(E, F, G) + SHA256_K[i] + SHA256_W[i] | 0;
        const sigma0 = rotr(A, 2) ^ rotr(A, 13) ^ rotr(A, 22);
        const T2 = sigma0 + Maj(A, B, C) | 0;
        H = G;
        G = F;
        F = E;
        E = D + T1 | 0;
        D = C;
        C = B;
        B = A;
        A = T1 + T2 | 0;
      }
      A = A + this.A | 0;
      B = B + this.B | 0;
      C = C + this.C | 0;
      D = D + this.D | 0;
      E = E + this.E | 0;
      F = F + this.F | 0;
      G = G + this.G | 0;
      H = H + this.H | 0;
      this.set(A, B, C, D, E, F, G, H);
    }
    roundClean() {
      clean(SHA256_W);
    }
    destroy() {
      this.destroyed = true;
      this.set(0, 0, 0, 0, 0, 0, 0, 0);
      clean(this.buffer);
    }
  };
  var _SHA256 = class extends SHA2_32B {
    constructor() {
      super(32, SHA256_IV);
    }
  };
  var K512 = /* @__PURE__ */ (() => split([
    "0x428a2f98d728ae22",
    "0x7137449123ef65cd",
    "0xb5c0fbcfec4d3b2f",
    "0xe9b5dba58189dbbc",
    "0x3956c25bf348b538",
    "0x59f111f1b605d019",
    "0x923f82a4af194f9b",
    "0xab1c5ed5da6d8118",
    "0xd807aa98a3030242",
    "0x12835b0145706fbe",
    "0x243185be4ee4b28c",
    "0x550c7dc3d5ffb4e2",
    "0x72be5d74f27b896f",
    "0x80deb1fe3b1696b1",
    "0x9bdc06a725c71235",
    "0xc19bf174cf692694",
    "0xe49b69c19ef14ad2",
    "0xefbe4786384f25e3",
    "0x0fc19dc68b8cd5b5",
    "0x240ca1cc77ac9c65",
    "0x2de92c6f592b0275",
    "0x4a7484aa6ea6e483",
    "0x5cb0a9dcbd41fbd4",
    "0x76f988da831153b5",
    "0x983e5152ee66dfab",
    "0xa831c66d2db43210",
    "0xb00327c898fb213f",
    "0xbf597fc7beef0ee4",
    "0xc6e00bf33da88fc2",
    "0xd5a79147930aa725",
    "0x06ca6351e003826f",
    "0x142929670a0e6e70",
    "0x27b70a8546d22ffc",
    "0x2e1b21385c26c926",
    "0x4d2c6dfc5ac42aed",
    "0x53380d139d95b3df",
    "0x650a73548baf63de",
    "0x766a0abb3c77b2a8",
    "0x81c2c92e47edaee6",
    "0x92722c851482353b",
    "0xa2bfe8a14cf10364",
    "0xa81a664bbc423001",
    "0xc24b8b70d0f89791",
    "0xc76c51a30654be30",
    "0xd192e819d6ef5218",
    "0xd69906245565a910",
    "0xf40e35855771202a",
    "0x106aa07032bbd1b8",
    "0x19a4c116b8d2d0c8",
    "0x1e376c085141ab53",
    "0x2748774cdf8eeb99",
    "0x34b0bcb5e19b48a8",
    "0x391c0cb3c5c95a63",
    "0x4ed8aa4ae3418acb",
    "0x5b9cca4f7763e373",
    "0x682e6ff3d6b2b8a3",
    "0x748f82ee5defb2fc",
    "0x78a5636f43172f60",
    "0x84c87814a1f0ab72",
    "0x8cc702081a6439ec",
    "0x90befffa23631e28",
    "0xa4506cebde82bde9",
    "0xbef9a3f7b2c67915",
    "0xc67178f2e372532b",
    "0xca273eceea26619c",
    "0xd186b8c721c0c207",
    "0xeada7dd6cde0eb1e",
    "0xf57d4f7fee6ed178",
    "0x06f067aa72176fba",
    "0x0a637dc5a2c898a6",
    "0x113f9804bef90dae",
    "0x1b710b35131c471b",
    "0x28db77f523047d84",
    "0x32caab7b40c72493",
    "0x3c9ebe0a15c9bebc",
    "0x431d67c49c100d4c",
    "0x4cc5d4becb3e42b6",
    "0x597f299cfc657e2a",
    "0x5fcb6fab3ad6faec",
    "0x6c44198c4a475817"
  ].map((n2) => BigInt(n2))))();
  var SHA512_Kh = /* @__PURE__ */ (() => K512[0])();
  var SHA512_Kl = /* @__PURE__ */ (() => K512[1])();
  var SHA512_W_H = /* @__PURE__ */ new Uint32Array(80);
  var SHA512_W_L = /* @__PURE__ */ new Uint32Array(80);
  var SHA2_64B = class extends HashMD {
    constructor(outputLen, IV) {
      super(128, outputLen, 16, false);
      // We cannot use array here since array allows indexing by variable
      // which means optimizer/compiler cannot use registers.
      // h -- high 32 bits, l -- low 32 bits
      // Numeric initializers matter: starting the fields as `undefined` changes
      // V8's field representation and slows hashing down (measured on sha256).
      __publicField(this, "Ah", 0);
      __publicField(this, "Al", 0);
      __publicField(this, "Bh", 0);
      __publicField(this, "Bl", 0);
      __publicField(this, "Ch", 0);
      __publicField(this, "Cl", 0);
      __publicField(this, "Dh", 0);
      __publicField(this, "Dl", 0);
      __publicField(this, "Eh", 0);
      __publicField(this, "El", 0);
      __publicField(this, "Fh", 0);
      __publicField(this, "Fl", 0);
      __publicField(this, "Gh", 0);
      __publicField(this, "Gl", 0);
      __publicField(this, "Hh", 0);
      __publicField(this, "Hl", 0);
      this.Ah = IV[0] | 0;
      this.Al = IV[1] | 0;
      this.Bh = IV[2] | 0;
      this.Bl = IV[3] | 0;
      this.Ch = IV[4] | 0;
      this.Cl = IV[5] | 0;
      this.Dh = IV[6] | 0;
      this.Dl = IV[7] | 0;
      this.Eh = IV[8] | 0;
      this.El = IV[9] | 0;
      this.Fh = IV[10] | 0;
      this.Fl = IV[11] | 0;
      this.Gh = IV[12] | 0;
      this.Gl = IV[13] | 0;
      this.Hh = IV[14] | 0;
      this.Hl = IV[15] | 0;
    }
    // prettier-ignore
    get() {
      const { Ah, Al, Bh, Bl, Ch, Cl, Dh, Dl, Eh, El, Fh, Fl, Gh, Gl, Hh, Hl } = this;
      return [Ah, Al, Bh, Bl, Ch, Cl, Dh, Dl, Eh, El, Fh, Fl, Gh, Gl, Hh, Hl];
    }
    // prettier-ignore
    set(Ah, Al, Bh, Bl, Ch, Cl, Dh, Dl, Eh, El, Fh, Fl, Gh, Gl, Hh, Hl) {
      this.Ah = Ah | 0;
      this.Al = Al | 0;
      this.Bh = Bh | 0;
      this.Bl = Bl | 0;
      this.Ch = Ch | 0;
      this.Cl = Cl | 0;
      this.Dh = Dh | 0;
      this.Dl = Dl | 0;
      this.Eh = Eh | 0;
      this.El = El | 0;
      this.Fh = Fh | 0;
      this.Fl = Fl | 0;
      this.Gh = Gh | 0;
      this.Gl = Gl | 0;
      this.Hh = Hh | 0;
      this.Hl = Hl | 0;
    }
    _cloneInto(to) {
      (to || (to = new this.constructor())).set(...this.get());
      return this._cloneIntoMeta(to);
    }
    process(view7, offset) {
      for (let i = 0; i < 16; i++, offset += 4) {
        SHA512_W_H[i] = view7.getUint32(offset);
        SHA512_W_L[i] = view7.getUint32(offset += 4);
      }
      for (let i = 16; i < 80; i++) {
        const W15h = SHA512_W_H[i - 15] | 0;
        const W15l = SHA512_W_L[i - 15] | 0;
        const s0h = rotrSH(W15h, W15l, 1) ^ rotrSH(W15h, W15l, 8) ^ shrSH(W15h, W15l, 7);
        const s0l = rotrSL(W15h, W15l, 1) ^ rotrSL(W15h, W15l, 8) ^ shrSL(W15h, W15l, 7);
        const W2h = SHA512_W_H[i - 2] | 0;
        const W2l = SHA512_W_L[i - 2] | 0;
        const s1h = rotrSH(W2h, W2l, 19) ^ rotrBH(W2h, W2l, 61) ^ shrSH(W2h, W2l, 6);
        const s1l = rotrSL(W2h, W2l, 19) ^ rotrBL(W2h, W2l, 61) ^ shrSL(W2h, W2l, 6);
        const SUMl = add4L(s0l, s1l, SHA512_W_L[i - 7], SHA512_W_L[i - 16]);
        const SUMh = add4H(SUMl, s0h, s1h, SHA512_W_H[i - 7], SHA512_W_H[i - 16]);
        SHA512_W_H[i] = SUMh | 0;
        SHA512_W_L[i] = SUMl | 0;
      }
      let { Ah, Al, Bh, Bl, Ch, Cl, Dh, Dl, Eh, El, Fh, Fl, Gh, Gl, Hh, Hl } = this;
      for (let i = 0; i < 80; i++) {
        const sigma1h = rotrSH(Eh, El, 14) ^ rotrSH(Eh, El, 18) ^ rotrBH(Eh, El, 41);
        const sigma1l = rotrSL(Eh, El, 14) ^ rotrSL(Eh, El, 18) ^ rotrBL(Eh, El, 41);
        const CHIh = Eh & Fh ^ ~Eh & Gh;
        const CHIl = El & Fl ^ ~El & Gl;
        const T1ll = add5L(Hl, sigma1l, CHIl, SHA512_Kl[i], SHA512_W_L[i]);
        const T1h = add5H(T1ll, Hh, sigma1h, CHIh, SHA512_Kh[i], SHA512_W_H[i]);
        const T1l = T1ll | 0;
        const sigma0h = rotrSH(Ah, Al, 28) ^ rotrBH(Ah, Al, 34) ^ rotrBH(Ah, Al, 39);
        const sigma0l = rotrSL(Ah, Al, 28) ^ rotrBL(Ah, Al, 34) ^ rotrBL(Ah, Al, 39);
        const MAJh = Ah & Bh ^ Ah & Ch ^ Bh & Ch;
        const MAJl = Al & Bl ^ Al & Cl ^ Bl & Cl;
        Hh = Gh | 0;
        Hl = Gl | 0;
        Gh = Fh | 0;
        Gl = Fl | 0;
        Fh = Eh | 0;
        Fl = El | 0;
        ({ h: Eh, l: El } = add(Dh | 0, Dl | 0, T1h | 0, T1l | 0));
        Dh = Ch | 0;
        Dl = Cl | 0;
        Ch = Bh | 0;
        Cl = Bl | 0;
        Bh = Ah | 0;
        Bl = Al | 0;
        const All = add3L(T1l, sigma0l, MAJl);
        Ah = add3H(All, T1h, sigma0h, MAJh);
        Al = All | 0;
      }
      ({ h: Ah, l: Al } = add(this.Ah | 0, this.Al | 0, Ah | 0, Al | 0));
      ({ h: Bh, l: Bl } = add(this.Bh | 0, this.Bl | 0, Bh | 0, Bl | 0));
      ({ h: Ch, l: Cl } = add(this.Ch | 0, this.Cl | 0, Ch | 0, Cl | 0));
      ({ h: Dh, l: Dl } = add(this.Dh | 0, this.Dl | 0, Dh | 0, Dl | 0));
      ({ h: Eh, l: El } = add(this.Eh | 0, this.El | 0, Eh | 0, El | 0));
      ({ h: Fh, l: Fl } = add(this.Fh | 0, this.Fl | 0, Fh | 0, Fl | 0));
      ({ h: Gh, l: Gl } = add(this.Gh | 0, this.Gl | 0, Gh | 0, Gl | 0));
      ({ h: Hh, l: Hl } = add(this.Hh | 0, this.Hl | 0, Hh | 0, Hl | 0));
      this.set(Ah, Al, Bh, Bl, Ch, Cl, Dh, Dl, Eh, El, Fh, Fl, Gh, Gl, Hh, Hl);
    }
    roundClean() {
      clean(SHA512_W_H, SHA512_W_L);
    }
    destroy() {
      this.destroyed = true;
      clean(this.buffer);
      this.set(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }
  };
  var _SHA512 = class extends SHA2_64B {
    constructor() {
      super(64, SHA512_IV);
    }
  };
  var sha256 = /* @__PURE__ */ createHasher(
    () => new _SHA256(),
    /* @__PURE__ */ oidNist(1)
  );
  var sha512 = /* @__PURE__ */ createHasher(
    () => new _SHA512(),
    /* @__PURE__ */ oidNist(3)
  );

  // src/verify/bytes.js
  var encoder2 = new TextEncoder();
  var utf8 = (s) => encoder2.encode(s);
  function sha2562(...parts) {
    return sha256(concat(...parts));
  }
  function concat(...parts) {
    let len = 0;
    for (const p of parts) len += p.length;
    const out = new Uint8Array(len);
    let o = 0;
    for (const p of parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
  function u32be(v) {
    if (!Number.isInteger(v) || v < 0 || v > 4294967295) throw new RangeError(`not a u32: ${v}`);
    return new Uint8Array([v >>> 24 & 255, v >>> 16 & 255, v >>> 8 & 255, v & 255]);
  }
  var enc = (x) => concat(u32be(x.length), x);
  var tag = (s) => concat(utf8(s), new Uint8Array([0]));
  function toHex(b) {
    let s = "";
    for (const x of b) s += x.toString(16).padStart(2, "0");
    return s;
  }
  var HEX_ANY = /^(?:[0-9a-fA-F]{2})*$/;
  var HEX_LOWER = /^(?:[0-9a-f]{2})*$/;
  function fromHex(h2) {
    if (typeof h2 !== "string" || !HEX_ANY.test(h2)) throw new Error("malformed hex");
    const out = new Uint8Array(h2.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(h2.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  function isLowerHex(h2, chars = null) {
    return typeof h2 === "string" && HEX_LOWER.test(h2) && (chars === null || h2.length === chars);
  }
  function isAnyHex(h2, chars) {
    return typeof h2 === "string" && HEX_ANY.test(h2) && h2.length === chars;
  }
  function bytesEqual(a, b) {
    if (a.length !== b.length) return false;
    let d = 0;
    for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
    return d === 0;
  }

  // node_modules/@noble/curves/utils.js
  /*! noble-curves - MIT License (c) 2022 Paul Miller (paulmillr.com) */
  function aarray(item, title, inner = () => {
  }) {
    if (!Array.isArray(item))
      throw new TypeError(`"${title}" expected array, got type=${typeof item}`);
    for (let i = 0; i < item.length; i++)
      inner(item[i], `${title}[${i}]`);
    return item;
  }
  var abytes2 = (value, length, title) => abytes(value, length, title);
  var anumber2 = anumber;
  function aobject2(value, title = "object") {
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new TypeError(title === "object" ? "expected valid options object" : `"${title}" expected object, got type=${typeof value}`);
    return value;
  }
  function afunction(value, title) {
    if (typeof value !== "function")
      throw new TypeError(`"${title}" is invalid: expected function, got ${typeof value}`);
    return value;
  }
  var bytesToHex2 = bytesToHex;
  var concatBytes2 = (...arrays) => concatBytes(...arrays);
  var hexToBytes2 = (hex2) => hexToBytes(hex2);
  var isBytes2 = isBytes;
  var randomBytes2 = (bytesLength) => randomBytes(bytesLength);
  var _0n = /* @__PURE__ */ BigInt(0);
  var _1n = /* @__PURE__ */ BigInt(1);
  var atitle2 = (title) => title ? `"${title}" ` : "";
  function abool(value, title = "") {
    if (typeof value !== "boolean")
      throw new TypeError(atitle2(title) + "expected boolean, got type=" + typeof value);
    return value;
  }
  function abignumber(n2) {
    if (typeof n2 === "bigint") {
      if (!isPosBig(n2))
        throw new RangeError("positive bigint expected, got " + n2);
    } else
      anumber2(n2);
    return n2;
  }
  function asafenumber(value, title = "") {
    if (typeof value !== "number") {
      const prefix = title && `"${title}" `;
      throw new TypeError(prefix + "expected number, got type=" + typeof value);
    }
    if (!Number.isSafeInteger(value)) {
      const prefix = title && `"${title}" `;
      throw new RangeError(prefix + "expected safe integer, got " + value);
    }
  }
  function hexToNumber(hex2) {
    if (typeof hex2 !== "string")
      throw new TypeError("hex string expected, got " + typeof hex2);
    return hex2 === "" ? _0n : BigInt("0x" + hex2);
  }
  function bytesToNumberBE(bytes) {
    return hexToNumber(bytesToHex(bytes));
  }
  function bytesToNumberLE(bytes) {
    return hexToNumber(bytesToHex(copyBytes(abytes(bytes)).reverse()));
  }
  function numberToBytesBE(n2, len) {
    anumber(len);
    if (len === 0)
      throw new Error("zero output length is invalid");
    n2 = abignumber(n2);
    const expectedLen = len * 2;
    const hex2 = n2.toString(16);
    if (hex2.length > expectedLen)
      throw new RangeError("number is too large");
    return hexToBytes(hex2.padStart(expectedLen, "0"));
  }
  function numberToBytesLE(n2, len) {
    return numberToBytesBE(n2, len).reverse();
  }
  function copyBytes(bytes) {
    return Uint8Array.from(abytes2(bytes));
  }
  function isPosBig(n2) {
    return typeof n2 === "bigint" && _0n <= n2;
  }
  function inRange(n2, min, max) {
    return isPosBig(n2) && isPosBig(min) && isPosBig(max) && min <= n2 && n2 < max;
  }
  function aInRange(title, n2, min, max) {
    if (!inRange(n2, min, max))
      throw new RangeError("expected valid " + title + ": " + min + " <= n < " + max + ", got " + n2);
  }
  function bitLen(n2) {
    if (n2 < _0n)
      throw new Error("expected non-negative bigint, got " + n2);
    return n2 === _0n ? 0 : n2.toString(2).length;
  }
  var bitMask = (n2) => {
    asafenumber(n2, "n");
    return (_1n << BigInt(n2)) - _1n;
  };
  function validateObject(object, fields = {}, optFields = {}, title = "object") {
    aobject2(object, title);
    aobject2(fields, "fields");
    aobject2(optFields, "optFields");
    function checkField(fieldName, expectedType, isOpt) {
      const label = title === "object" ? `param "${String(fieldName)}"` : `"${title}.${String(fieldName)}"`;
      const val = object[fieldName];
      if (!Object.hasOwn(object, fieldName) && (isOpt ? val !== void 0 : expectedType !== "function")) {
        throw new TypeError(`${label} is invalid: expected own property`);
      }
      if (isOpt && val === void 0)
        return;
      const current2 = typeof val;
      if (current2 !== expectedType || val === null)
        throw new TypeError(`${label} is invalid: expected ${expectedType}, got ${current2}`);
    }
    const iter = (f, isOpt) => Object.entries(f).forEach(([k, v]) => checkField(k, v, isOpt));
    iter(fields, false);
    iter(optFields, true);
  }

  // node_modules/@noble/curves/abstract/modular.js
  /*! noble-curves - MIT License (c) 2022 Paul Miller (paulmillr.com) */
  var _0n2 = /* @__PURE__ */ BigInt(0);
  var _1n2 = /* @__PURE__ */ BigInt(1);
  var _2n = /* @__PURE__ */ BigInt(2);
  var _3n = /* @__PURE__ */ BigInt(3);
  var _4n = /* @__PURE__ */ BigInt(4);
  var _5n = /* @__PURE__ */ BigInt(5);
  var _7n = /* @__PURE__ */ BigInt(7);
  var _8n = /* @__PURE__ */ BigInt(8);
  var _9n = /* @__PURE__ */ BigInt(9);
  var _15n = /* @__PURE__ */ BigInt(15);
  var _16n = /* @__PURE__ */ BigInt(16);
  var POW_WINDOWED_MIN = /* @__PURE__ */ BigInt("0x10000000000000000");
  function mod(a, b) {
    if (b <= _0n2)
      throw new Error("mod: expected positive modulus, got " + b);
    const result = a % b;
    return result >= _0n2 ? result : b + result;
  }
  function pow(num2, power, modulo) {
    if (modulo <= _1n2)
      throw new Error("pow: expected modulus > 1, got " + modulo);
    if (typeof power !== "bigint")
      throw new TypeError("invalid exponent: expected bigint, got " + typeof power);
    if (power < _0n2)
      throw new Error("invalid exponent, negatives unsupported");
    if (power === _0n2)
      return _1n2;
    if (power === _1n2)
      return num2;
    let d = num2 % modulo;
    if (d < _0n2)
      d += modulo;
    if (power < POW_WINDOWED_MIN) {
      let p2 = _1n2;
      while (power > _0n2) {
        if (power & _1n2)
          p2 = p2 * d % modulo;
        d = d * d % modulo;
        power >>= _1n2;
      }
      return p2;
    }
    const digits = [];
    while (power > _0n2) {
      digits.push(Number(power & _15n));
      power >>= _4n;
    }
    const table3 = new Array(16);
    table3[0] = _1n2;
    table3[1] = d;
    for (let i = 2; i < 16; i++)
      table3[i] = table3[i - 1] * d % modulo;
    let p = table3[digits[digits.length - 1]];
    for (let w = digits.length - 2; w >= 0; w--) {
      p = p * p % modulo;
      p = p * p % modulo;
      p = p * p % modulo;
      p = p * p % modulo;
      const digit = digits[w];
      if (digit !== 0)
        p = p * table3[digit] % modulo;
    }
    return p;
  }
  function pow2(x, power, modulo) {
    if (modulo <= _1n2)
      throw new Error("pow2: expected modulus > 1, got " + modulo);
    if (power < _0n2)
      throw new Error("pow2: expected non-negative exponent, got " + power);
    let res = x;
    while (power-- > _0n2) {
      res *= res;
      res %= modulo;
    }
    return res;
  }
  function invert(number, modulo) {
    if (number === _0n2)
      throw new Error("invert: expected non-zero number");
    if (modulo <= _1n2)
      throw new Error("invert: expected modulus > 1, got " + modulo);
    let a = mod(number, modulo);
    let b = modulo;
    let x = _0n2, u = _1n2;
    while (a !== _0n2) {
      const q = b / a;
      const r = b - a * q;
      const m = x - u * q;
      b = a, a = r, x = u, u = m;
    }
    const gcd = b;
    if (gcd !== _1n2)
      throw new Error("invert: does not exist");
    return mod(x, modulo);
  }
  function assertIsSquare(Fp2, root, n2) {
    const F = Fp2;
    if (!F.eql(F.sqr(root), n2))
      throw new Error("Cannot find square root");
  }
  function aoddModulus(order, fnName) {
    if ((order & _1n2) === _0n2)
      throw new Error(fnName + ": expected odd modulus, got " + order);
  }
  function sqrt3mod4(Fp2, n2) {
    const F = Fp2;
    const p1div4 = (F.ORDER + _1n2) / _4n;
    const root = F.pow(n2, p1div4);
    assertIsSquare(F, root, n2);
    return root;
  }
  function sqrt5mod8(Fp2, n2) {
    const F = Fp2;
    const p5div8 = (F.ORDER - _5n) / _8n;
    const n22 = F.mul(n2, _2n);
    const v = F.pow(n22, p5div8);
    const nv = F.mul(n2, v);
    const i = F.mul(F.mul(nv, _2n), v);
    const root = F.mul(nv, F.sub(i, F.ONE));
    assertIsSquare(F, root, n2);
    return root;
  }
  function sqrt9mod16(P) {
    const Fp_ = Field(P);
    const tn = tonelliShanks(P);
    const c1 = tn(Fp_, Fp_.neg(Fp_.ONE));
    const c2 = tn(Fp_, c1);
    const c3 = tn(Fp_, Fp_.neg(c1));
    const c4 = (P + _7n) / _16n;
    return ((Fp2, n2) => {
      const F = Fp2;
      let tv1 = F.pow(n2, c4);
      let tv2 = F.mul(tv1, c1);
      const tv3 = F.mul(tv1, c2);
      const tv4 = F.mul(tv1, c3);
      const e1 = F.eql(F.sqr(tv2), n2);
      const e2 = F.eql(F.sqr(tv3), n2);
      tv1 = F.cmov(tv1, tv2, e1);
      tv2 = F.cmov(tv4, tv3, e2);
      const e3 = F.eql(F.sqr(tv2), n2);
      const root = F.cmov(tv1, tv2, e3);
      assertIsSquare(F, root, n2);
      return root;
    });
  }
  function tonelliShanks(P) {
    if (P < _3n)
      throw new Error("sqrt is not defined for small field");
    aoddModulus(P, "tonelliShanks");
    let Q = P - _1n2;
    let S = 0;
    while (Q % _2n === _0n2) {
      Q /= _2n;
      S++;
    }
    let Z2 = _2n;
    const _Fp = Field(P);
    while (FpLegendre(_Fp, Z2) === 1) {
      if (Z2++ > 1e3)
        throw new Error("Cannot find square root: probably non-prime P");
    }
    if (S === 1)
      return sqrt3mod4;
    let cc = _Fp.pow(Z2, Q);
    const Q1div2 = (Q + _1n2) / _2n;
    return function tonelliSlow(Fp2, n2) {
      const F = Fp2;
      if (F.is0(n2))
        return n2;
      if (FpLegendre(F, n2) !== 1)
        throw new Error("Cannot find square root");
      let M = S;
      let c = F.mul(F.ONE, cc);
      let t2 = F.pow(n2, Q);
      let R = F.pow(n2, Q1div2);
      while (!F.eql(t2, F.ONE)) {
        if (F.is0(t2))
          throw new Error("Cannot find square root: probably non-prime P");
        let i = 1;
        let t_tmp = F.sqr(t2);
        while (!F.eql(t_tmp, F.ONE)) {
          i++;
          t_tmp = F.sqr(t_tmp);
          if (i === M)
            throw new Error("Cannot find square root");
        }
        const exponent = _1n2 << BigInt(M - i - 1);
        const b = F.pow(c, exponent);
        M = i;
        c = F.sqr(b);
        t2 = F.mul(t2, c);
        R = F.mul(R, b);
      }
      return R;
    };
  }
  function FpSqrt(P) {
    aoddModulus(P, "Fp.sqrt");
    if (P % _4n === _3n)
      return sqrt3mod4;
    if (P % _8n === _5n)
      return sqrt5mod8;
    if (P % _16n === _9n)
      return sqrt9mod16(P);
    return tonelliShanks(P);
  }
  var isNegativeLE = (num2, modulo) => (mod(num2, modulo) & _1n2) === _1n2;
  var FIELD_FIELDS = [
    "create",
    "isValid",
    "is0",
    "neg",
    "inv",
    "sqrt",
    "sqr",
    "eql",
    "add",
    "sub",
    "mul",
    "pow",
    "div",
    "addN",
    "subN",
    "mulN",
    "sqrN"
  ];
  function validateField(field) {
    aobject2(field, "field");
    if (typeof field.ORDER !== "bigint")
      throw new TypeError('param "ORDER" is invalid: expected bigint, got ' + typeof field.ORDER);
    asafenumber(field.BYTES, "BYTES");
    asafenumber(field.BITS, "BITS");
    for (const name of FIELD_FIELDS)
      afunction(field[name], "field." + name);
    if (field.BYTES < 1 || field.BITS < 1)
      throw new Error("invalid field: expected BYTES/BITS > 0");
    if (field.ORDER <= _1n2)
      throw new Error("invalid field: expected ORDER > 1, got " + field.ORDER);
    return field;
  }
  function FpInvertBatch(Fp2, nums, passZero = false) {
    validateField(Fp2);
    aarray(nums, "nums");
    abool(passZero, "passZero");
    const F = Fp2;
    const inverted = new Array(nums.length).fill(passZero ? F.ZERO : void 0);
    const multipliedAcc = nums.reduce((acc, num2, i) => {
      if (F.is0(num2))
        return acc;
      inverted[i] = acc;
      return F.mul(acc, num2);
    }, F.ONE);
    const invertedAcc = F.inv(multipliedAcc);
    nums.reduceRight((acc, num2, i) => {
      if (F.is0(num2))
        return acc;
      inverted[i] = F.mul(acc, inverted[i]);
      return F.mul(acc, num2);
    }, invertedAcc);
    return inverted;
  }
  function FpLegendre(Fp2, n2) {
    validateField(Fp2);
    const F = Fp2;
    aoddModulus(F.ORDER, "FpLegendre");
    const p1mod2 = (F.ORDER - _1n2) / _2n;
    const powered = F.pow(n2, p1mod2);
    const yes = F.eql(powered, F.ONE);
    const zero = F.eql(powered, F.ZERO);
    const no = F.eql(powered, F.neg(F.ONE));
    if (!yes && !zero && !no)
      throw new Error("invalid Legendre symbol result");
    return yes ? 1 : zero ? 0 : -1;
  }
  function nLength(n2, nBitLength) {
    if (nBitLength !== void 0)
      anumber2(nBitLength);
    if (n2 <= _0n2)
      throw new Error("invalid n length: expected positive n, got " + n2);
    if (nBitLength !== void 0 && nBitLength < 1)
      throw new Error("invalid n length: expected positive bit length, got " + nBitLength);
    const bits = bitLen(n2);
    if (nBitLength !== void 0 && nBitLength < bits)
      throw new Error(`invalid n length: expected nBitLength (${nBitLength}) >= bitLen(n) (${bits})`);
    const _nBitLength = nBitLength !== void 0 ? nBitLength : bits;
    const nByteLength = Math.ceil(_nBitLength / 8);
    return { nBitLength: _nBitLength, nByteLength };
  }
  var FIELD_SQRT = /* @__PURE__ */ new WeakMap();
  var _Field = class {
    constructor(ORDER, opts = {}) {
      __publicField(this, "ORDER");
      __publicField(this, "BITS");
      __publicField(this, "BYTES");
      __publicField(this, "isLE");
      __publicField(this, "ZERO", _0n2);
      __publicField(this, "ONE", _1n2);
      __publicField(this, "_lengths");
      __publicField(this, "_mod");
      if (ORDER <= _1n2)
        throw new Error("invalid field: expected ORDER > 1, got " + ORDER);
      let _nbitLength = void 0;
      this.isLE = false;
      if (opts != null && typeof opts === "object") {
        if (typeof opts.BITS === "number")
          _nbitLength = opts.BITS;
        if (typeof opts.sqrt === "function")
          Object.defineProperty(this, "sqrt", { value: opts.sqrt, enumerable: true });
        if (typeof opts.isLE === "boolean")
          this.isLE = opts.isLE;
        if (opts.allowedLengths)
          this._lengths = Object.freeze(opts.allowedLengths.slice());
        if (typeof opts.modFromBytes === "boolean")
          this._mod = opts.modFromBytes;
      }
      const { nBitLength, nByteLength } = nLength(ORDER, _nbitLength);
      if (nByteLength > 2048)
        throw new Error("invalid field: expected ORDER of <= 2048 bytes");
      this.ORDER = ORDER;
      this.BITS = nBitLength;
      this.BYTES = nByteLength;
      Object.freeze(this);
    }
    create(num2) {
      return mod(num2, this.ORDER);
    }
    isValid(num2) {
      if (typeof num2 !== "bigint")
        throw new TypeError("invalid field element: expected bigint, got " + typeof num2);
      return _0n2 <= num2 && num2 < this.ORDER;
    }
    is0(num2) {
      return num2 === _0n2;
    }
    // is valid and invertible
    isValidNot0(num2) {
      return !this.is0(num2) && this.isValid(num2);
    }
    isOdd(num2) {
      return (num2 & _1n2) === _1n2;
    }
    neg(num2) {
      return mod(-num2, this.ORDER);
    }
    eql(lhs, rhs) {
      return lhs === rhs;
    }
    sqr(num2) {
      return mod(num2 * num2, this.ORDER);
    }
    add(lhs, rhs) {
      return mod(lhs + rhs, this.ORDER);
    }
    sub(lhs, rhs) {
      return mod(lhs - rhs, this.ORDER);
    }
    mul(lhs, rhs) {
      return mod(lhs * rhs, this.ORDER);
    }
    pow(num2, power) {
      return pow(num2, power, this.ORDER);
    }
    div(lhs, rhs) {
      return mod(lhs * invert(rhs, this.ORDER), this.ORDER);
    }
    // Same as above, but doesn't normalize
    sqrN(num2) {
      return num2 * num2;
    }
    addN(lhs, rhs) {
      return lhs + rhs;
    }
    subN(lhs, rhs) {
      return lhs - rhs;
    }
    mulN(lhs, rhs) {
      return lhs * rhs;
    }
    inv(num2) {
      return invert(num2, this.ORDER);
    }
    sqrt(num2) {
      let sqrt = FIELD_SQRT.get(this);
      if (!sqrt)
        FIELD_SQRT.set(this, sqrt = FpSqrt(this.ORDER));
      return sqrt(this, num2);
    }
    toBytes(num2) {
      return this.isLE ? numberToBytesLE(num2, this.BYTES) : numberToBytesBE(num2, this.BYTES);
    }
    fromBytes(bytes, skipValidation = false) {
      abytes2(bytes);
      const { _lengths: allowedLengths, BYTES, isLE: isLE2, ORDER, _mod: modFromBytes } = this;
      if (allowedLengths) {
        if (bytes.length < 1 || !allowedLengths.includes(bytes.length) || bytes.length > BYTES) {
          throw new Error("Field.fromBytes: expected " + allowedLengths + " bytes, got " + bytes.length);
        }
        const padded = new Uint8Array(BYTES);
        padded.set(bytes, isLE2 ? 0 : padded.length - bytes.length);
        bytes = padded;
      }
      if (bytes.length !== BYTES)
        throw new Error("Field.fromBytes: expected " + BYTES + " bytes, got " + bytes.length);
      let scalar = isLE2 ? bytesToNumberLE(bytes) : bytesToNumberBE(bytes);
      if (modFromBytes)
        scalar = mod(scalar, ORDER);
      if (!skipValidation) {
        if (!this.isValid(scalar))
          throw new Error("invalid field element: outside of range 0..ORDER");
      }
      return scalar;
    }
    // TODO: we don't need it here, move out to separate fn
    invertBatch(lst) {
      return FpInvertBatch(this, lst, true);
    }
    // We can't move this out because Fp6, Fp12 implement it
    // and it's unclear what to return in there.
    cmov(a, b, condition) {
      abool(condition, "condition");
      return condition ? b : a;
    }
  };
  function Field(ORDER, opts = {}) {
    Object.freeze(_Field.prototype);
    return new _Field(ORDER, opts);
  }

  // node_modules/@noble/curves/abstract/curve.js
  /*! noble-curves - MIT License (c) 2022 Paul Miller (paulmillr.com) */
  var _0n3 = /* @__PURE__ */ BigInt(0);
  var _1n3 = /* @__PURE__ */ BigInt(1);
  var _4n2 = /* @__PURE__ */ BigInt(4);
  var BLIND_BYTES = 16;
  var BLIND_BITS = 128;
  var FW_WINDOW = 5;
  var TABLE_BYTES_MAX = /* @__PURE__ */ (() => 2 ** 31)();
  function validatePointCons(Point2) {
    const pc = Point2;
    if (typeof pc !== "function")
      throw new TypeError('"Point" expected constructor, got type=' + typeof Point2);
    afunction(pc.fromAffine, "Point.fromAffine");
    afunction(pc.fromBytes, "Point.fromBytes");
    afunction(pc.fromHex, "Point.fromHex");
    aobject2(pc.BASE, "Point.BASE");
    aobject2(pc.ZERO, "Point.ZERO");
    validateField(pc.Fp);
    validateField(pc.Fn);
  }
  function normalizeZ(c, points2) {
    validatePointCons(c);
    validateMSMPoints(points2, c);
    const invertedZs = FpInvertBatch(c.Fp, points2.map((p) => p.Z));
    return points2.map((p, i) => c.fromAffine(p.toAffine(invertedZs[i])));
  }
  function validateW(W, bits, min = 1) {
    if (!Number.isSafeInteger(W) || W < min || W > bits)
      throw new Error("invalid window size, expected [" + min + ".." + bits + "], got W=" + W);
  }
  function validateTableBytes(numPoints, fpBytes) {
    const bytes = numPoints * (4 * fpBytes + 128);
    if (bytes > TABLE_BYTES_MAX)
      throw new Error("invalid window size: table would need ~" + Math.ceil(bytes / 2 ** 20) + " MiB, max " + TABLE_BYTES_MAX / 2 ** 20 + " MiB");
  }
  function probeRandomBytes(randomBytes4, length) {
    if (randomBytes4 === void 0)
      return void 0;
    afunction(randomBytes4, "randomBytes");
    try {
      const probe = randomBytes4(length);
      if (!isBytes2(probe) || probe.length !== length)
        return void 0;
    } catch {
      return void 0;
    }
    return randomBytes4;
  }
  function validateMSMPoints(points2, c) {
    aarray(points2, "points");
    points2.forEach((p, i) => {
      if (!(p instanceof c))
        throw new Error("invalid point at index " + i);
    });
  }
  function validateMSMScalars(scalars, field, maxScalar) {
    if (!Array.isArray(scalars))
      throw new Error("array of scalars expected");
    scalars.forEach((s, i) => {
      const ok = maxScalar === void 0 ? field.isValid(s) : isPosBig(s) && s < maxScalar;
      if (!ok)
        throw new Error("invalid scalar at index " + i);
    });
  }
  var pointWindowSizes = /* @__PURE__ */ new WeakMap();
  function getWindowSize(P) {
    return pointWindowSizes.get(P) || 1;
  }
  function oddMultiples(p, size) {
    const dbl = p.double();
    const t2 = [p];
    for (let j = 1; j < size; j++)
      t2.push(t2[j - 1].add(dbl));
    return t2;
  }
  function wnafDigits(n2, W) {
    const size = 2 ** W;
    const half = size / 2;
    const mask = BigInt(size - 1);
    const d = [];
    while (n2 > _0n3) {
      let w = 0;
      if (n2 & _1n3) {
        w = Number(n2 & mask);
        if (w >= half)
          w -= size;
        n2 -= BigInt(w);
      }
      d.push(w);
      n2 >>= _1n3;
    }
    return d;
  }
  function signedWindowDigits(n2, W, windows) {
    const size = 2 ** W;
    const half = size / 2;
    const mask = BigInt(size - 1);
    const shiftBy = BigInt(W);
    const d = [];
    for (let w = 0; w < windows; w++) {
      let v = Number(n2 & mask);
      n2 >>= shiftBy;
      if (v > half) {
        v -= size;
        n2 += _1n3;
      }
      d.push(v);
    }
    if (n2 !== _0n3)
      throw new Error("invalid wnaf");
    return d;
  }
  function wnafWalk(zero, tables, digits) {
    let max = 0;
    for (const d of digits)
      max = Math.max(max, d.length);
    let acc = zero;
    for (let bit = max - 1; bit >= 0; bit--) {
      if (bit !== max - 1)
        acc = acc.double();
      for (let i = 0; i < digits.length; i++) {
        const w = digits[i][bit];
        if (w) {
          const item = tables[i][Math.abs(w) - 1 >> 1];
          acc = acc.add(w < 0 ? item.negate() : item);
        }
      }
    }
    return acc;
  }
  var ScalarMultiplier = class {
    // Parametrized with a given Point class (not individual point)
    constructor(Point2, randomBytes4) {
      __publicField(this, "Point");
      __publicField(this, "BASE");
      __publicField(this, "ZERO");
      __publicField(this, "randomBytes");
      __publicField(this, "wnafPrecomputes", /* @__PURE__ */ new WeakMap());
      __publicField(this, "baseCanBeBlinded");
      __publicField(this, "bits");
      validatePointCons(Point2);
      this.randomBytes = probeRandomBytes(randomBytes4, BLIND_BYTES);
      this.Point = Point2;
      this.BASE = Point2.BASE;
      this.ZERO = Point2.ZERO;
      this.bits = Point2.Fn.BITS;
    }
    /**
     * Creates a signed fixed-window wNAF precomputation table: for every window w, the
     * multiples `[1..2^(W−1)]⋅2^(w⋅W)⋅P`, flattened. All doublings are baked into the table,
     * so cached multiplication is additions-only. `windows = ceil(bits/W) + 1`: the extra
     * window absorbs the final carry of signed-digit recoding.
     * For a 256-bit curve and W=6, the table is 44⋅32 = 1408 points.
     * @param point - Point instance
     * @param W - window size
     * @param bits - scalar bitlength the table must cover
     */
    buildWnafTable(point, W, bits) {
      const windows = Math.ceil(bits / W) + 1;
      const half = 2 ** (W - 1);
      const comp = [];
      let base = point;
      for (let w = 0; w < windows; w++) {
        let acc = base;
        for (let i = 0; i < half; i++) {
          comp.push(acc);
          acc = acc.add(base);
        }
        base = comp[comp.length - 1].double();
      }
      return { W, bits, windows, comp };
    }
    /**
     * Implements ec multiplication using precomputed signed fixed-window wNAF tables.
     * Constant-time: fixed window count with one table addition per window — zero digits feed
     * the fake accumulator — and no doublings; the lookup scans the whole window slice.
     * Scalar bounds are validated by the public entry points ({@link ScalarMultiplier.mulCT},
     * {@link ScalarMultiplier.mulCTBlinded}, {@link ScalarMultiplier.mulUnsafe});
     * signedWindowDigits throws if `n` exceeds the table.
     * @returns real and fake (for const-time) points
     */
    wnafCachedCT(precomputes, n2) {
      const { W, windows, comp } = precomputes;
      const half = 2 ** (W - 1);
      const digits = signedWindowDigits(n2, W, windows);
      let p = this.ZERO;
      let f = this.BASE;
      for (let w = 0; w < windows; w++) {
        const digit = digits[w];
        const start2 = w * half;
        const idx = Math.abs(digit) - 1;
        let sel = comp[start2];
        for (let i = 1; i < half; i++)
          sel = i === idx ? comp[start2 + i] : sel;
        const neg = sel.negate();
        if (digit === 0)
          f = f.add(comp[start2]);
        else
          p = p.add(digit < 0 ? neg : sel);
      }
      return { p, f };
    }
    // Cache key is point identity plus (W, bits); at most two entries exist per point (public-width
    // `Fn.BITS` and blinded `Fn.BITS + BLIND_BITS`). Callers must not reuse the same point with
    // incompatible `transform(...)` layouts and expect a separate cache entry.
    getWnafPrecomputes(W, point, bits, transform) {
      let entries = this.wnafPrecomputes.get(point);
      let comp = entries?.find((entry) => entry.W === W && entry.bits === bits);
      if (!comp) {
        comp = this.buildWnafTable(point, W, bits);
        if (typeof transform === "function")
          comp = { ...comp, comp: transform(comp.comp) };
        if (!entries) {
          entries = [];
          this.wnafPrecomputes.set(point, entries);
        }
        entries.push(comp);
      }
      return comp;
    }
    assertPoint(point) {
      if (!(point instanceof this.Point))
        throw new TypeError('"point" expected Point instance, got type=' + typeof point);
    }
    // Shared prologue of the constant-time entry points. Rejects scalar 0: in key/signature-style
    // callers a zero scalar means broken upstream plumbing, and concrete Points already reject it.
    // Uses inRange instead of Fn.isValidNot0: validateField() only certifies the arithmetic subset.
    validateMulInput(point, scalar) {
      this.assertPoint(point);
      if (!inRange(scalar, _1n3, this.Point.Fn.ORDER))
        throw new Error("invalid scalar");
    }
    // Constant-time dispatch shared by mulCT / mulCTBlinded. Un-precomputed points (W===1, e.g.
    // ECDH peer keys) skip building a throwaway cached table in favor of a small fixed-window
    // multiply. `n` must be < 2^bits.
    runCT(point, n2, bits, transform) {
      const W = getWindowSize(point);
      if (W === 1)
        return this.fixedWindowCT(point, n2, bits);
      return this.wnafCachedCT(this.getWnafPrecomputes(W, point, bits, transform), n2);
    }
    mulCT(point, scalar, transform) {
      this.validateMulInput(point, scalar);
      return this.runCT(point, scalar, this.bits, transform);
    }
    mulCTBlinded(point, scalar, transform) {
      this.validateMulInput(point, scalar);
      if (this.randomBytes === void 0)
        throw new Error("randomBytes is required for scalar blinding");
      const bits = this.Point.Fn.BITS + BLIND_BITS;
      const blind = this.randomBytes(BLIND_BYTES);
      if (!isBytes2(blind) || blind.length !== BLIND_BYTES)
        throw new Error("randomBytes returned invalid byte array");
      blind[0] = blind[0] & 63 | 128;
      const n2 = scalar + bytesToNumberBE(blind) * this.Point.Fn.ORDER;
      return this.runCT(point, n2, bits, transform);
    }
    /**
     * Constant-time multiplication `n*point` for an un-precomputed point, via a small fixed window.
     * A cached wNAF table only pays off when reused; a flat 2^FW_WINDOW table (`size-1` adds) is
     * far cheaper to build for a single use. The point-operation sequence is independent of `n`:
     * build the table, then per window exactly FW_WINDOW doublings, a data-oblivious scan over
     * every table entry, and one addition (adds the identity when the window digit is 0 — never
     * skipped).
     *
     * `n` must be `< 2^bits`. Assumes complete addition (adding the identity costs the same as any
     * add), which holds for the Weierstrass/Edwards point types used here. The table is left in
     * projective form (no normalizeZ): normalizing this small a table costs more than the
     * mixed-add savings it would buy for a single multiply.
     * @returns real point `p`; `f` duplicates it only to match {@link wnafCachedCT}'s return shape
     * (this path needs no fake accumulator — its op-count is already scalar-independent).
     */
    fixedWindowCT(point, n2, bits) {
      const W = FW_WINDOW;
      const size = 1 << W;
      const mask = bitMask(W);
      const table3 = new Array(size);
      table3[0] = this.ZERO;
      for (let i = 1; i < size; i++)
        table3[i] = table3[i - 1].add(point);
      const windows = Math.ceil(bits / W);
      let acc = this.ZERO;
      for (let window2 = windows - 1; window2 >= 0; window2--) {
        if (window2 !== windows - 1)
          for (let d = 0; d < W; d++)
            acc = acc.double();
        const digit = Number(n2 >> BigInt(window2 * W) & mask);
        let sel = table3[0];
        for (let i = 1; i < size; i++)
          sel = i === digit ? table3[i] : sel;
        acc = acc.add(sel);
      }
      return { p: acc, f: acc };
    }
    shouldBlind(point, cofactor) {
      if (this.randomBytes === void 0)
        return false;
      if (cofactor === _1n3)
        return true;
      if (point !== this.BASE)
        return false;
      if (this.baseCanBeBlinded === void 0)
        this.baseCanBeBlinded = this.mulUnsafe(this.BASE, this.Point.Fn.ORDER).is0();
      return this.baseCanBeBlinded;
    }
    mulSecret(point, scalar, cofactor, transform) {
      return this.shouldBlind(point, cofactor) ? this.mulCTBlinded(point, scalar, transform) : this.mulCT(point, scalar, transform);
    }
    mulUnsafe(point, scalar, transform) {
      this.assertPoint(point);
      if (!isPosBig(scalar))
        throw new Error("invalid scalar");
      const W = getWindowSize(point);
      if (W === 1 || scalar >= this.Point.Fn.ORDER)
        return mulAddUnsafe(this.Point, [point], [scalar], true);
      const precomputes = this.getWnafPrecomputes(W, point, this.bits, transform);
      return this.wnafCachedCT(precomputes, scalar).p;
    }
    // Remembers the window size used for precomputed wNAF multiplication of the given point
    // and drops any previously built tables. Usually only the base point is precomputed.
    // W=1 resets the point to the un-precomputed (table-less) paths.
    // W is additionally capped so tables stay under ~2 GiB ({@link TABLE_BYTES_MAX}).
    setWindowSize(point, W) {
      this.assertPoint(point);
      validateW(W, this.bits);
      const windows = Math.ceil((this.bits + BLIND_BITS) / W) + 1;
      validateTableBytes(windows * 2 ** (W - 1), this.Point.Fp.BYTES);
      pointWindowSizes.set(point, W);
      this.wnafPrecomputes.delete(point);
    }
    // True when a window size is set: tables themselves are built lazily on first multiply.
    hasWindowSize(point) {
      return getWindowSize(point) !== 1;
    }
  };
  function mulAddUnsafe(c, points2, scalars, allowOversized = false) {
    validatePointCons(c);
    validateMSMPoints(points2, c);
    abool(allowOversized, "allowOversized");
    validateMSMScalars(scalars, c.Fn, allowOversized ? c.Fn.ORDER ** _4n2 : void 0);
    if (points2.length !== scalars.length)
      throw new Error("arrays of points and scalars must have equal length");
    const tables = points2.map((p) => oddMultiples(p, 4));
    const digits = scalars.map((n2) => wnafDigits(n2, 4));
    return wnafWalk(c.ZERO, tables, digits);
  }
  function createField(order, field, isLE2) {
    if (field) {
      if (field.ORDER !== order)
        throw new Error("Field.ORDER must match order: Fp == p, Fn == n");
      validateField(field);
      return field;
    } else {
      return Field(order, { isLE: isLE2 });
    }
  }
  function createCurveFields(type, CURVE, curveOpts = {}, FpFnLE) {
    if (type !== "weierstrass" && type !== "edwards")
      throw new Error('expected curve type "weierstrass" or "edwards"');
    if (FpFnLE === void 0)
      FpFnLE = type === "edwards";
    if (!CURVE || typeof CURVE !== "object")
      throw new Error(`expected valid ${type} CURVE object`);
    validateObject(curveOpts);
    for (const p of ["p", "n", "h"]) {
      const val = CURVE[p];
      if (!(isPosBig(val) && val !== _0n3))
        throw new Error(`CURVE.${p} must be positive bigint`);
    }
    const Fp2 = createField(CURVE.p, curveOpts.Fp, FpFnLE);
    const Fn = createField(CURVE.n, curveOpts.Fn, FpFnLE);
    const _b = type === "weierstrass" ? "b" : "d";
    const params = ["Gx", "Gy", "a", _b];
    for (const p of params) {
      if (!Fp2.isValid(CURVE[p]))
        throw new Error(`CURVE.${p} must be valid field element of CURVE.Fp`);
    }
    CURVE = Object.freeze(Object.assign({}, CURVE));
    return { CURVE, Fp: Fp2, Fn };
  }
  function createKeygen(randomSecretKey, getPublicKey) {
    return function keygen(seed) {
      const secretKey = randomSecretKey(seed);
      return { secretKey, publicKey: getPublicKey(secretKey) };
    };
  }

  // node_modules/@noble/curves/abstract/edwards.js
  /*! noble-curves - MIT License (c) 2022 Paul Miller (paulmillr.com) */
  var _0n4 = /* @__PURE__ */ BigInt(0);
  var _1n4 = /* @__PURE__ */ BigInt(1);
  var _2n2 = /* @__PURE__ */ BigInt(2);
  var _4n3 = /* @__PURE__ */ BigInt(4);
  var _8n2 = /* @__PURE__ */ BigInt(8);
  function isEdValidXY(Fp2, CURVE, x, y) {
    const x2 = Fp2.sqr(x);
    const y2 = Fp2.sqr(y);
    const left = Fp2.add(Fp2.mul(CURVE.a, x2), y2);
    const right4 = Fp2.add(Fp2.ONE, Fp2.mul(CURVE.d, Fp2.mul(x2, y2)));
    return Fp2.eql(left, right4);
  }
  function edwards(params, extraOpts = {}) {
    validateObject(extraOpts, {}, {}, "extraOpts");
    const opts = extraOpts;
    const validated = createCurveFields("edwards", params, opts, opts.FpFnLE);
    const { Fp: Fp2, Fn } = validated;
    let CURVE = validated.CURVE;
    const { h: cofactor } = CURVE;
    if (FpLegendre(Fp2, CURVE.a) !== 1)
      throw new Error("edwards: CURVE.a must be a square in Fp for complete addition formulas");
    if (FpLegendre(Fp2, CURVE.d) !== -1)
      throw new Error("edwards: CURVE.d must be a non-square in Fp for complete addition formulas");
    validateObject(opts, {}, { uvRatio: "function", randomBytes: "function" });
    const randomBytes4 = opts.randomBytes === void 0 ? randomBytes2 : opts.randomBytes;
    const MASK = _2n2 << BigInt(Fp2.BYTES * 8) - _1n4;
    function isOdd(n2) {
      if (!Fp2.isOdd)
        throw new Error("Field does not have .isOdd()");
      return Fp2.isOdd(n2);
    }
    const uvRatio2 = opts.uvRatio === void 0 ? (u, v) => {
      try {
        return { isValid: true, value: Fp2.sqrt(Fp2.div(u, v)) };
      } catch (e) {
        return { isValid: false, value: _0n4 };
      }
    } : opts.uvRatio;
    if (!isEdValidXY(Fp2, CURVE, CURVE.Gx, CURVE.Gy))
      throw new Error("bad curve params: generator point");
    const mulA = Fp2.eql(CURVE.a, Fp2.neg(Fp2.ONE)) ? (x) => Fp2.neg(x) : Fp2.eql(CURVE.a, Fp2.ONE) ? (x) => x : (x) => Fp2.mul(CURVE.a, x);
    function acoord(title, n2, banZero = false) {
      const min = banZero ? _1n4 : _0n4;
      aInRange("coordinate " + title, n2, min, MASK);
      return n2;
    }
    function aedpoint(other) {
      if (!(other instanceof Point2))
        throw new Error("EdwardsPoint expected");
    }
    const _Point = class _Point {
      constructor(X, Y, Z2, T) {
        __publicField(this, "X");
        __publicField(this, "Y");
        __publicField(this, "Z");
        __publicField(this, "T");
        this.X = acoord("x", X);
        this.Y = acoord("y", Y);
        this.Z = acoord("z", Z2, true);
        this.T = acoord("t", T);
        Object.freeze(this);
      }
      static CURVE() {
        return CURVE;
      }
      /**
       * Create one extended Edwards point from affine coordinates.
       * Does NOT validate that the point is on-curve or torsion-free.
       * Use `.assertValidity()` on adversarial inputs.
       */
      static fromAffine(p) {
        if (p instanceof _Point)
          throw new Error("extended point not allowed");
        const { x, y } = p || {};
        acoord("x", x);
        acoord("y", y);
        return new _Point(x, y, Fp2.ONE, Fp2.mul(x, y));
      }
      // Uses algo from RFC8032 5.1.3.
      static fromBytes(bytes, zip215 = false) {
        const len = Fp2.BYTES;
        const { a, d } = CURVE;
        bytes = copyBytes(abytes2(bytes, len, "point"));
        abool(zip215, "zip215");
        const normed = copyBytes(bytes);
        const lastByte = bytes[len - 1];
        normed[len - 1] = lastByte & ~128;
        const y = bytesToNumberLE(normed);
        const max = zip215 ? MASK : Fp2.ORDER;
        aInRange("point.y", y, _0n4, max);
        const y2 = Fp2.sqr(y);
        const u = Fp2.sub(y2, Fp2.ONE);
        const v = Fp2.sub(Fp2.mulN(d, y2), a);
        let { isValid, value: x } = uvRatio2(u, v);
        if (!isValid)
          throw new Error("bad point: invalid y coordinate");
        const isXOdd = isOdd(x);
        const isLastByteOdd = (lastByte & 128) !== 0;
        if (!zip215 && Fp2.is0(x) && isLastByteOdd)
          throw new Error("bad point: x=0 and x_0=1");
        if (isLastByteOdd !== isXOdd)
          x = Fp2.neg(x);
        return _Point.fromAffine({ x, y });
      }
      static fromHex(hex2, zip215 = false) {
        return _Point.fromBytes(hexToBytes2(hex2), zip215);
      }
      get x() {
        return this.toAffine().x;
      }
      get y() {
        return this.toAffine().y;
      }
      precompute(windowSize = 6, isLazy = true) {
        wnaf.setWindowSize(this, windowSize);
        if (!isLazy)
          this.multiply(_2n2);
        return this;
      }
      // Useful in fromAffine() - not for fromBytes(), which always created valid points.
      assertValidity() {
        const p = this;
        const { a, d } = CURVE;
        if (p.is0())
          throw new Error("bad point: ZERO");
        const { X, Y, Z: Z2, T } = p;
        const X2 = Fp2.sqr(X);
        const Y2 = Fp2.sqr(Y);
        const Z22 = Fp2.sqr(Z2);
        const Z4 = Fp2.sqr(Z22);
        const aX2 = Fp2.mul(X2, a);
        const left = Fp2.mul(Fp2.add(aX2, Y2), Z22);
        const right4 = Fp2.add(Z4, Fp2.mul(d, Fp2.mul(X2, Y2)));
        if (!Fp2.eql(left, right4))
          throw new Error("bad point: equation left != right (1)");
        const XY = Fp2.mul(X, Y);
        const ZT = Fp2.mul(Z2, T);
        if (!Fp2.eql(XY, ZT))
          throw new Error("bad point: equation left != right (2)");
      }
      // Compare one point to another.
      equals(other) {
        aedpoint(other);
        const { X: X1, Y: Y1, Z: Z1 } = this;
        const { X: X2, Y: Y2, Z: Z2 } = other;
        const X1Z2 = Fp2.mul(X1, Z2);
        const X2Z1 = Fp2.mul(X2, Z1);
        const Y1Z2 = Fp2.mul(Y1, Z2);
        const Y2Z1 = Fp2.mul(Y2, Z1);
        return Fp2.eql(X1Z2, X2Z1) && Fp2.eql(Y1Z2, Y2Z1);
      }
      is0() {
        return this.equals(_Point.ZERO);
      }
      negate() {
        return new _Point(Fp2.neg(this.X), this.Y, this.Z, Fp2.neg(this.T));
      }
      // Fast algo for doubling Extended Point.
      // https://hyperelliptic.org/EFD/g1p/auto-twisted-extended.html#doubling-dbl-2008-hwcd
      // Cost: 4M + 4S + 1*a + 6add + 1*2.
      double() {
        const { X: X1, Y: Y1, Z: Z1 } = this;
        const A = Fp2.sqr(X1);
        const B = Fp2.sqr(Y1);
        const C = Fp2.mul(Fp2.sqr(Z1), _2n2);
        const D = mulA(A);
        const x1y1 = Fp2.addN(X1, Y1);
        const E = Fp2.sub(Fp2.subN(Fp2.sqr(x1y1), A), B);
        const G = Fp2.addN(D, B);
        const F = Fp2.subN(G, C);
        const H = Fp2.subN(D, B);
        const X3 = Fp2.mul(E, F);
        const Y3 = Fp2.mul(G, H);
        const T3 = Fp2.mul(E, H);
        const Z3 = Fp2.mul(F, G);
        return new _Point(X3, Y3, Z3, T3);
      }
      // Fast algo for adding 2 Extended Points.
      // https://hyperelliptic.org/EFD/g1p/auto-twisted-extended.html#addition-add-2008-hwcd
      // Cost: 9M + 1*a + 1*d + 7add.
      add(other) {
        aedpoint(other);
        const { d } = CURVE;
        const { X: X1, Y: Y1, Z: Z1, T: T1 } = this;
        const { X: X2, Y: Y2, Z: Z2, T: T2 } = other;
        const A = Fp2.mul(X1, X2);
        const B = Fp2.mul(Y1, Y2);
        const C = Fp2.mul(Fp2.mulN(T1, d), T2);
        const D = Fp2.mul(Z1, Z2);
        const E = Fp2.sub(Fp2.subN(Fp2.mulN(Fp2.addN(X1, Y1), Fp2.addN(X2, Y2)), A), B);
        const F = Fp2.subN(D, C);
        const G = Fp2.addN(D, C);
        const H = Fp2.sub(B, mulA(A));
        const X3 = Fp2.mul(E, F);
        const Y3 = Fp2.mul(G, H);
        const T3 = Fp2.mul(E, H);
        const Z3 = Fp2.mul(F, G);
        return new _Point(X3, Y3, Z3, T3);
      }
      subtract(other) {
        aedpoint(other);
        return this.add(other.negate());
      }
      // Constant-time multiplication.
      multiply(scalar) {
        if (!Fn.isValidNot0(scalar))
          throw new RangeError("invalid scalar: expected 1 <= sc < curve.n");
        const { p, f } = wnaf.mulSecret(this, scalar, cofactor, normalize);
        return normalize([p, f])[0];
      }
      // Non-constant-time multiplication. Uses double-and-add algorithm.
      // It's faster, but should only be used when you don't care about
      // an exposed private key e.g. sig verification.
      // Keeps the same subgroup-scalar contract: 0 is allowed for public-scalar callers, but
      // n and larger values are rejected instead of being reduced mod n to the identity point.
      multiplyUnsafe(scalar) {
        if (!Fn.isValid(scalar))
          throw new RangeError("invalid scalar: expected 0 <= sc < curve.n");
        if (scalar === _0n4)
          return _Point.ZERO;
        if (this.is0() || scalar === _1n4)
          return this;
        return wnaf.mulUnsafe(this, scalar, normalize);
      }
      // Checks if point is of small order.
      // If you add something to small order point, you will have "dirty"
      // point with torsion component.
      // Clears cofactor and checks if the result is 0.
      isSmallOrder() {
        return this.clearCofactor().is0();
      }
      // Multiplies point by curve order and checks if the result is 0.
      // Returns `false` is the point is dirty.
      isTorsionFree() {
        return wnaf.mulUnsafe(this, CURVE.n).is0();
      }
      // Converts Extended point to default (x, y) coordinates.
      // Can accept precomputed Z^-1 - for example, from invertBatch.
      toAffine(invertedZ) {
        const p = this;
        let iz = invertedZ;
        if (iz != null && typeof iz !== "bigint")
          throw new TypeError('"invertedZ" expected bigint, got type=' + typeof iz);
        const { X, Y, Z: Z2 } = p;
        const is0 = p.is0();
        if (iz == null)
          iz = is0 ? Fp2.create(_8n2) : Fp2.inv(Z2);
        const x = Fp2.mul(X, iz);
        const y = Fp2.mul(Y, iz);
        const zz = Fp2.mul(Z2, iz);
        if (is0)
          return { x: Fp2.ZERO, y: Fp2.ONE };
        if (!Fp2.eql(zz, Fp2.ONE))
          throw new Error("invZ was invalid");
        return { x, y };
      }
      clearCofactor() {
        if (cofactor === _1n4)
          return this;
        if (cofactor === _2n2)
          return this.double();
        if (cofactor === _4n3)
          return this.double().double();
        if (cofactor === _8n2)
          return this.double().double().double();
        return this.multiplyUnsafe(cofactor);
      }
      toBytes() {
        const { x, y } = this.toAffine();
        const bytes = Fp2.toBytes(y);
        bytes[bytes.length - 1] |= isOdd(x) ? 128 : 0;
        return bytes;
      }
      toHex() {
        return bytesToHex2(this.toBytes());
      }
      toString() {
        return `<Point ${this.is0() ? "ZERO" : this.toHex()}>`;
      }
    };
    __publicField(_Point, "BASE", new _Point(CURVE.Gx, CURVE.Gy, Fp2.ONE, Fp2.mul(CURVE.Gx, CURVE.Gy)));
    __publicField(_Point, "ZERO", new _Point(Fp2.ZERO, Fp2.ONE, Fp2.ONE, Fp2.ZERO));
    __publicField(_Point, "Fp", Fp2);
    __publicField(_Point, "Fn", Fn);
    let Point2 = _Point;
    const normalize = (points2) => normalizeZ(Point2, points2);
    const wnaf = new ScalarMultiplier(Point2, randomBytes4);
    if (wnaf.bits >= 6)
      Point2.BASE.precompute(6);
    Object.freeze(Point2.prototype);
    Object.freeze(Point2);
    return Point2;
  }
  function eddsa(Point2, cHash, eddsaOpts = {}) {
    validatePointCons(Point2);
    if (typeof cHash !== "function")
      throw new Error('"hash" function param is required');
    const hash = cHash;
    const opts = eddsaOpts;
    validateObject(opts, {}, {
      adjustScalarBytes: "function",
      randomBytes: "function",
      domain: "function",
      prehash: "function",
      zip215: "boolean",
      mapToCurve: "function",
      toMontgomery: "function",
      toMontgomerySecret: "function"
    });
    const { prehash } = opts;
    const { BASE, Fp: Fp2, Fn } = Point2;
    const outputLen = hash.outputLen;
    const expectedLen = 2 * Fp2.BYTES;
    if (outputLen !== void 0) {
      asafenumber(outputLen, "hash.outputLen");
      if (outputLen !== expectedLen)
        throw new Error(`hash.outputLen must be ${expectedLen}, got ${outputLen}`);
    }
    const randomBytes4 = opts.randomBytes === void 0 ? randomBytes2 : opts.randomBytes;
    const toMontgomery2 = opts.toMontgomery;
    const toMontgomerySecret2 = opts.toMontgomerySecret;
    const adjustScalarBytes2 = opts.adjustScalarBytes === void 0 ? (bytes) => bytes : opts.adjustScalarBytes;
    const domain = opts.domain === void 0 ? (data, ctx, phflag) => {
      abool(phflag, "phflag");
      if (ctx.length || phflag)
        throw new Error("Contexts/pre-hash are not supported");
      return data;
    } : opts.domain;
    function modN_LE(hash2) {
      return Fn.create(bytesToNumberLE(hash2));
    }
    function getPrivateScalar(key) {
      const len = lengths.secretKey;
      abytes2(key, lengths.secretKey, "secretKey");
      const hashed = abytes2(hash(key), 2 * len, "hashedSecretKey");
      const head = adjustScalarBytes2(hashed.slice(0, len));
      const prefix = hashed.slice(len, 2 * len);
      const scalar = modN_LE(head);
      return { head, prefix, scalar };
    }
    function getExtendedPublicKey(secretKey) {
      const { head, prefix, scalar } = getPrivateScalar(secretKey);
      const point = BASE.multiply(scalar);
      const pointBytes = point.toBytes();
      return { head, prefix, scalar, point, pointBytes };
    }
    function getPublicKey(secretKey) {
      return getExtendedPublicKey(secretKey).pointBytes;
    }
    function hashDomainToScalar(context = Uint8Array.of(), ...msgs) {
      const msg = concatBytes2(...msgs);
      return modN_LE(hash(domain(msg, abytes2(context, void 0, "context"), !!prehash)));
    }
    function sign(msg, secretKey, options = {}) {
      validateObject(options, {}, {}, "options");
      msg = copyBytes(abytes2(msg, void 0, "message"));
      if (prehash)
        msg = prehash(msg);
      const { prefix, scalar, pointBytes } = getExtendedPublicKey(secretKey);
      const r = hashDomainToScalar(options.context, prefix, msg);
      const R = BASE.multiply(r).toBytes();
      const k = hashDomainToScalar(options.context, R, pointBytes, msg);
      const s = Fn.create(r + k * scalar);
      if (!Fn.isValid(s))
        throw new Error("sign failed: invalid s");
      const rs = concatBytes2(R, Fn.toBytes(s));
      return abytes2(rs, lengths.signature, "result");
    }
    const verifyOpts = {
      zip215: opts.zip215
    };
    function verify(sig, msg, publicKey, options = verifyOpts) {
      validateObject(options);
      const { context } = options;
      const zip215 = options.zip215 === void 0 ? !!verifyOpts.zip215 : options.zip215;
      const len = lengths.signature;
      sig = abytes2(sig, len, "signature");
      msg = abytes2(msg, void 0, "message");
      publicKey = abytes2(publicKey, lengths.publicKey, "publicKey");
      if (zip215 !== void 0)
        abool(zip215, "zip215");
      if (prehash)
        msg = prehash(msg);
      const mid = len / 2;
      const r = sig.subarray(0, mid);
      const s = bytesToNumberLE(sig.subarray(mid, len));
      let A, R, SB;
      try {
        A = Point2.fromBytes(publicKey, zip215);
        R = Point2.fromBytes(r, zip215);
        SB = BASE.multiplyUnsafe(s);
      } catch (error) {
        return false;
      }
      if (!zip215 && A.isSmallOrder())
        return false;
      const k = hashDomainToScalar(context, r, publicKey, msg);
      const RkA = R.add(A.multiplyUnsafe(k));
      return RkA.subtract(SB).clearCofactor().is0();
    }
    const _size = Fp2.BYTES;
    const lengths = {
      secretKey: _size,
      publicKey: _size,
      signature: 2 * _size,
      seed: _size
    };
    function randomSecretKey(seed) {
      seed = seed === void 0 ? randomBytes4(lengths.seed) : seed;
      return abytes2(seed, lengths.seed, "seed");
    }
    function isValidSecretKey(key) {
      return isBytes2(key) && key.length === lengths.secretKey;
    }
    function isValidPublicKey(key, zip215) {
      try {
        return !!Point2.fromBytes(key, zip215 === void 0 ? verifyOpts.zip215 : zip215);
      } catch (error) {
        return false;
      }
    }
    const utils = {
      getExtendedPublicKey,
      randomSecretKey,
      isValidSecretKey,
      isValidPublicKey,
      /** Converts an Edwards public key to a companion Montgomery public key. */
      toMontgomery(publicKey) {
        if (toMontgomery2 === void 0)
          throw new Error("Montgomery conversion is not supported for this curve");
        return toMontgomery2(Point2.fromBytes(publicKey));
      },
      toMontgomerySecret(secretKey) {
        if (toMontgomerySecret2 === void 0)
          throw new Error("Montgomery conversion is not supported for this curve");
        return toMontgomerySecret2(secretKey);
      }
    };
    Object.freeze(lengths);
    Object.freeze(utils);
    return Object.freeze({
      keygen: createKeygen(randomSecretKey, getPublicKey),
      getPublicKey,
      sign,
      verify,
      utils,
      Point: Point2,
      lengths
    });
  }

  // node_modules/@noble/curves/ed25519.js
  /*! noble-curves - MIT License (c) 2022 Paul Miller (paulmillr.com) */
  var _1n5 = /* @__PURE__ */ BigInt(1);
  var _2n3 = /* @__PURE__ */ BigInt(2);
  var _5n2 = /* @__PURE__ */ BigInt(5);
  var _8n3 = /* @__PURE__ */ BigInt(8);
  var ed25519_CURVE_p = /* @__PURE__ */ BigInt("0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed");
  var ed25519_CURVE = /* @__PURE__ */ (() => ({
    p: ed25519_CURVE_p,
    n: BigInt("0x1000000000000000000000000000000014def9dea2f79cd65812631a5cf5d3ed"),
    h: _8n3,
    a: BigInt("0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec"),
    d: BigInt("0x52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3"),
    Gx: BigInt("0x216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a"),
    Gy: BigInt("0x6666666666666666666666666666666666666666666666666666666666666658")
  }))();
  function ed25519_pow_2_252_3(x) {
    const _10n = BigInt(10), _20n = BigInt(20), _40n = BigInt(40), _80n = BigInt(80);
    const P = ed25519_CURVE_p;
    const x2 = x * x % P;
    const b2 = x2 * x % P;
    const b4 = pow2(b2, _2n3, P) * b2 % P;
    const b5 = pow2(b4, _1n5, P) * x % P;
    const b10 = pow2(b5, _5n2, P) * b5 % P;
    const b20 = pow2(b10, _10n, P) * b10 % P;
    const b40 = pow2(b20, _20n, P) * b20 % P;
    const b80 = pow2(b40, _40n, P) * b40 % P;
    const b160 = pow2(b80, _80n, P) * b80 % P;
    const b240 = pow2(b160, _80n, P) * b80 % P;
    const b250 = pow2(b240, _10n, P) * b10 % P;
    const pow_p_5_8 = pow2(b250, _2n3, P) * x % P;
    return { pow_p_5_8, b2 };
  }
  function adjustScalarBytes(bytes) {
    bytes[0] &= 248;
    bytes[31] &= 127;
    bytes[31] |= 64;
    return bytes;
  }
  var ED25519_SQRT_M1 = /* @__PURE__ */ BigInt("19681161376707505956807079304988542015446066515923890162744021073123829784752");
  function uvRatio(u, v) {
    const P = ed25519_CURVE_p;
    const v3 = mod(v * v * v, P);
    const v7 = mod(v3 * v3 * v, P);
    const pow3 = ed25519_pow_2_252_3(u * v7).pow_p_5_8;
    let x = mod(u * v3 * pow3, P);
    const vx2 = mod(v * x * x, P);
    const root1 = x;
    const root2 = mod(x * ED25519_SQRT_M1, P);
    const useRoot1 = vx2 === u;
    const useRoot2 = vx2 === mod(-u, P);
    const noRoot = vx2 === mod(-u * ED25519_SQRT_M1, P);
    if (useRoot1)
      x = root1;
    if (useRoot2 || noRoot)
      x = root2;
    if (isNegativeLE(x, P))
      x = mod(-x, P);
    return { isValid: useRoot1 || useRoot2, value: x };
  }
  var ed25519_Point = /* @__PURE__ */ edwards(ed25519_CURVE, { uvRatio });
  var Fp = /* @__PURE__ */ (() => ed25519_Point.Fp)();
  function toMontgomery(point) {
    const { y } = point;
    return Fp.toBytes(Fp.div(_1n5 + y, _1n5 - y));
  }
  function toMontgomerySecret(secretKey) {
    const size = ed25519_Point.Fp.BYTES;
    abytes(secretKey, size);
    return adjustScalarBytes(sha512(secretKey.subarray(0, size))).subarray(0, size);
  }
  function ed(opts) {
    return eddsa(ed25519_Point, sha512, Object.assign({ adjustScalarBytes, toMontgomery, toMontgomerySecret, zip215: true }, opts));
  }
  var ed25519 = /* @__PURE__ */ ed({});

  // src/verify/ed25519.js
  var Point = ed25519.Point;
  var L = Point.Fn.ORDER;
  function leToBigInt(b) {
    let x = 0n;
    for (let i = b.length - 1; i >= 0; i--) x = x << 8n | BigInt(b[i]);
    return x;
  }
  function decodePoint(bytes) {
    if (!(bytes instanceof Uint8Array) || bytes.length !== 32) return null;
    try {
      return Point.fromBytes(bytes, false);
    } catch {
      return null;
    }
  }
  var keyCache = /* @__PURE__ */ new Map();
  function keyPoint(pub) {
    const id = String.fromCharCode(...pub);
    let A = keyCache.get(id);
    if (A === void 0) {
      A = decodePoint(pub);
      if (A && !A.isSmallOrder()) A.precompute(8, false);
      if (keyCache.size > 64) keyCache.clear();
      keyCache.set(id, A);
    }
    return A;
  }
  function verifyStrict(pub, sig, msg) {
    if (!(sig instanceof Uint8Array) || sig.length !== 64) return false;
    if (!(pub instanceof Uint8Array) || pub.length !== 32) return false;
    const A = keyPoint(pub);
    if (!A) return false;
    const rBytes = sig.subarray(0, 32);
    const R = decodePoint(rBytes);
    if (!R) return false;
    const s = leToBigInt(sig.subarray(32, 64));
    if (s >= L) return false;
    if (A.isSmallOrder() || R.isSmallOrder()) return false;
    const k = leToBigInt(sha512(concat(rBytes, pub, msg))) % L;
    const sB = s === 0n ? Point.ZERO : Point.BASE.multiplyUnsafe(s);
    const kA = k === 0n ? Point.ZERO : A.multiplyUnsafe(k);
    const rPrime = sB.subtract(kA);
    return bytesEqual(rPrime.toBytes(), rBytes);
  }
  var keyIdOf = (pub) => "ed25519:" + toHex(sha2562(pub).subarray(0, 8));

  // node_modules/@noble/ciphers/utils.js
  /*! noble-ciphers - MIT License (c) 2023 Paul Miller (paulmillr.com) */
  function isBytes3(a) {
    return a instanceof Uint8Array || ArrayBuffer.isView(a) && a.constructor.name === "Uint8Array" && "BYTES_PER_ELEMENT" in a && a.BYTES_PER_ELEMENT === 1;
  }
  var atitle3 = (title) => title ? `"${title}" ` : "";
  function abool2(value, title = "") {
    if (typeof value !== "boolean")
      throw new TypeError(atitle3(title) + "expected boolean, got type=" + typeof value);
    return value;
  }
  function anumber3(n2, title = "") {
    if (typeof n2 !== "number")
      throw new TypeError(atitle3(title) + "expected number, got " + typeof n2);
    if (!Number.isSafeInteger(n2) || n2 < 0)
      throw new RangeError(atitle3(title) + "expected integer >= 0, got " + n2);
    return n2;
  }
  function abytes3(value, length, title = "") {
    if (isBytes3(value) && (length === void 0 || value.length === length))
      return value;
    if (length !== void 0)
      anumber3(length, "length");
    const bytes = isBytes3(value);
    const ofLen = length !== void 0 ? ` of length ${length}` : "";
    const got = bytes ? `length=${value.length}` : `type=${typeof value}`;
    const message = atitle3(title) + "expected Uint8Array" + ofLen + ", got " + got;
    if (!bytes)
      throw new TypeError(message);
    throw new RangeError(message);
  }
  var aobject3 = (value, label) => {
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new TypeError(label === "object" ? "expected valid options object" : `"${label}" expected object, got type=${typeof value}`);
  };
  function u32(arr2) {
    return new Uint32Array(arr2.buffer, arr2.byteOffset, Math.floor(arr2.byteLength / 4));
  }
  function clean2(...arrays) {
    for (let i = 0; i < arrays.length; i++) {
      arrays[i].fill(0);
    }
  }
  var isLE = /* @__PURE__ */ (() => new Uint8Array(new Uint32Array([287454020]).buffer)[0] === 68)();
  function byteSwap(word) {
    return word << 24 & 4278190080 | word << 8 & 16711680 | word >>> 8 & 65280 | word >>> 24 & 255;
  }
  function byteSwap32(arr2) {
    for (let i = 0; i < arr2.length; i++) {
      arr2[i] = byteSwap(arr2[i]);
    }
    return arr2;
  }
  var swap32IfBE = isLE ? (u) => u : byteSwap32;
  function overlapBytes(a, b) {
    if (!a.byteLength || !b.byteLength)
      return false;
    return a.buffer === b.buffer && // best we can do, may fail with an obscure Proxy
    a.byteOffset < b.byteOffset + b.byteLength && // a starts before b end
    b.byteOffset < a.byteOffset + a.byteLength;
  }
  function complexOverlapBytes(input, output) {
    if (overlapBytes(input, output) && input.byteOffset < output.byteOffset)
      throw new Error("complex overlap of input and output is not supported");
  }
  function checkOpts2(defaults, opts) {
    aobject3(defaults, "defaults");
    aobject3(opts, "opts");
    const merged = Object.assign(defaults, opts);
    return merged;
  }
  function getOutput(expectedLength, out, onlyAligned = true) {
    if (out === void 0)
      return new Uint8Array(expectedLength);
    abytes3(out, expectedLength, "output");
    if (onlyAligned && !isAligned32(out))
      throw new Error("invalid output, must be aligned");
    return out;
  }
  function isAligned32(bytes) {
    return bytes.byteOffset % 4 === 0;
  }
  function copyBytes2(bytes) {
    return Uint8Array.from(abytes3(bytes));
  }

  // node_modules/@noble/ciphers/_arx.js
  var encodeStr = (str2) => Uint8Array.from(str2.split(""), (c) => c.charCodeAt(0));
  var sigma16_32 = /* @__PURE__ */ (() => swap32IfBE(u32(encodeStr("expand 16-byte k"))))();
  var sigma32_32 = /* @__PURE__ */ (() => swap32IfBE(u32(encodeStr("expand 32-byte k"))))();
  function rotl(a, b) {
    return a << b | a >>> 32 - b;
  }
  var BLOCK_LEN = 64;
  var BLOCK_LEN32 = 16;
  var MAX_COUNTER = /* @__PURE__ */ (() => 2 ** 32 - 1)();
  var U32_EMPTY = /* @__PURE__ */ Uint32Array.of();
  function runCipher(core, sigma, key, nonce, data, output, counter, rounds) {
    const len = data.length;
    const block = new Uint8Array(BLOCK_LEN);
    const b32 = u32(block);
    const isAligned = isLE && isAligned32(data) && isAligned32(output);
    const d32 = isAligned ? u32(data) : U32_EMPTY;
    const o32 = isAligned ? u32(output) : U32_EMPTY;
    if (!isLE) {
      for (let pos = 0; pos < len; counter++) {
        core(sigma, key, nonce, b32, counter, rounds);
        swap32IfBE(b32);
        if (counter >= MAX_COUNTER)
          throw new Error("arx: counter overflow");
        const take = Math.min(BLOCK_LEN, len - pos);
        for (let j = 0, posj; j < take; j++) {
          posj = pos + j;
          output[posj] = data[posj] ^ block[j];
        }
        pos += take;
      }
      return;
    }
    for (let pos = 0; pos < len; counter++) {
      core(sigma, key, nonce, b32, counter, rounds);
      if (counter >= MAX_COUNTER)
        throw new Error("arx: counter overflow");
      const take = Math.min(BLOCK_LEN, len - pos);
      if (isAligned && take === BLOCK_LEN) {
        const pos32 = pos / 4;
        if (pos % 4 !== 0)
          throw new Error("arx: invalid block position");
        for (let j = 0, posj; j < BLOCK_LEN32; j++) {
          posj = pos32 + j;
          o32[posj] = d32[posj] ^ b32[j];
        }
        pos += BLOCK_LEN;
        continue;
      }
      for (let j = 0, posj; j < take; j++) {
        posj = pos + j;
        output[posj] = data[posj] ^ block[j];
      }
      pos += take;
    }
  }
  function createCipher(core, opts) {
    const { allowShortKeys, extendNonceFn, counterLength, counterRight, rounds } = checkOpts2({ allowShortKeys: false, counterLength: 8, counterRight: false, rounds: 20 }, opts);
    if (typeof core !== "function")
      throw new Error("core must be a function");
    anumber3(counterLength);
    anumber3(rounds);
    abool2(counterRight);
    abool2(allowShortKeys);
    return (key, nonce, data, output, counter = 0) => {
      abytes3(key, void 0, "key");
      abytes3(nonce, void 0, "nonce");
      abytes3(data, void 0, "data");
      const len = data.length;
      const hasOutput = output !== void 0;
      output = getOutput(len, output, false);
      if (hasOutput)
        complexOverlapBytes(data, output);
      anumber3(counter);
      if (counter < 0 || counter >= MAX_COUNTER)
        throw new Error("arx: counter overflow");
      const toClean = [];
      let l = key.length;
      let k;
      let sigma;
      if (l === 32) {
        toClean.push(k = copyBytes2(key));
        sigma = sigma32_32;
      } else if (l === 16 && allowShortKeys) {
        k = new Uint8Array(32);
        k.set(key);
        k.set(key, 16);
        sigma = sigma16_32;
        toClean.push(k);
      } else {
        abytes3(key, 32, "arx key");
        throw new Error("invalid key size");
      }
      if (!isLE || !isAligned32(nonce))
        toClean.push(nonce = copyBytes2(nonce));
      let k32 = u32(k);
      if (extendNonceFn) {
        if (nonce.length !== 24)
          throw new Error("arx: extended nonce must be 24 bytes");
        const n16 = nonce.subarray(0, 16);
        if (isLE)
          extendNonceFn(sigma, k32, u32(n16), k32);
        else {
          const sigmaRaw = swap32IfBE(Uint32Array.from(sigma));
          extendNonceFn(sigmaRaw, k32, u32(n16), k32);
          clean2(sigmaRaw);
          swap32IfBE(k32);
        }
        nonce = nonce.subarray(16);
      } else if (!isLE)
        swap32IfBE(k32);
      const nonceNcLen = 16 - counterLength;
      if (nonceNcLen !== nonce.length)
        throw new Error(`arx: nonce must be ${nonceNcLen} or 16 bytes`);
      if (nonceNcLen !== 12) {
        const nc = new Uint8Array(12);
        nc.set(nonce, counterRight ? 0 : 12 - nonce.length);
        nonce = nc;
        toClean.push(nonce);
      }
      const n32 = swap32IfBE(u32(nonce));
      try {
        runCipher(core, sigma, k32, n32, data, output, counter, rounds);
        return output;
      } finally {
        clean2(...toClean);
      }
    };
  }

  // node_modules/@noble/ciphers/chacha.js
  function chachaCore(s, k, n2, out, cnt, rounds = 20) {
    let y00 = s[0], y01 = s[1], y02 = s[2], y03 = s[3], y04 = k[0], y05 = k[1], y06 = k[2], y07 = k[3], y08 = k[4], y09 = k[5], y10 = k[6], y11 = k[7], y12 = cnt, y13 = n2[0], y14 = n2[1], y15 = n2[2];
    let x00 = y00, x01 = y01, x02 = y02, x03 = y03, x04 = y04, x05 = y05, x06 = y06, x07 = y07, x08 = y08, x09 = y09, x10 = y10, x11 = y11, x12 = y12, x13 = y13, x14 = y14, x15 = y15;
    for (let r = 0; r < rounds; r += 2) {
      x00 = x00 + x04 | 0;
      x12 = rotl(x12 ^ x00, 16);
      x08 = x08 + x12 | 0;
      x04 = rotl(x04 ^ x08, 12);
      x00 = x00 + x04 | 0;
      x12 = rotl(x12 ^ x00, 8);
      x08 = x08 + x12 | 0;
      x04 = rotl(x04 ^ x08, 7);
      x01 = x01 + x05 | 0;
      x13 = rotl(x13 ^ x01, 16);
      x09 = x09 + x13 | 0;
      x05 = rotl(x05 ^ x09, 12);
      x01 = x01 + x05 | 0;
      x13 = rotl(x13 ^ x01, 8);
      x09 = x09 + x13 | 0;
      x05 = rotl(x05 ^ x09, 7);
      x02 = x02 + x06 | 0;
      x14 = rotl(x14 ^ x02, 16);
      x10 = x10 + x14 | 0;
      x06 = rotl(x06 ^ x10, 12);
      x02 = x02 + x06 | 0;
      x14 = rotl(x14 ^ x02, 8);
      x10 = x10 + x14 | 0;
      x06 = rotl(x06 ^ x10, 7);
      x03 = x03 + x07 | 0;
      x15 = rotl(x15 ^ x03, 16);
      x11 = x11 + x15 | 0;
      x07 = rotl(x07 ^ x11, 12);
      x03 = x03 + x07 | 0;
      x15 = rotl(x15 ^ x03, 8);
      x11 = x11 + x15 | 0;
      x07 = rotl(x07 ^ x11, 7);
      x00 = x00 + x05 | 0;
      x15 = rotl(x15 ^ x00, 16);
      x10 = x10 + x15 | 0;
      x05 = rotl(x05 ^ x10, 12);
      x00 = x00 + x05 | 0;
      x15 = rotl(x15 ^ x00, 8);
      x10 = x10 + x15 | 0;
      x05 = rotl(x05 ^ x10, 7);
      x01 = x01 + x06 | 0;
      x12 = rotl(x12 ^ x01, 16);
      x11 = x11 + x12 | 0;
      x06 = rotl(x06 ^ x11, 12);
      x01 = x01 + x06 | 0;
      x12 = rotl(x12 ^ x01, 8);
      x11 = x11 + x12 | 0;
      x06 = rotl(x06 ^ x11, 7);
      x02 = x02 + x07 | 0;
      x13 = rotl(x13 ^ x02, 16);
      x08 = x08 + x13 | 0;
      x07 = rotl(x07 ^ x08, 12);
      x02 = x02 + x07 | 0;
      x13 = rotl(x13 ^ x02, 8);
      x08 = x08 + x13 | 0;
      x07 = rotl(x07 ^ x08, 7);
      x03 = x03 + x04 | 0;
      x14 = rotl(x14 ^ x03, 16);
      x09 = x09 + x14 | 0;
      x04 = rotl(x04 ^ x09, 12);
      x03 = x03 + x04 | 0;
      x14 = rotl(x14 ^ x03, 8);
      x09 = x09 + x14 | 0;
      x04 = rotl(x04 ^ x09, 7);
    }
    let oi = 0;
    out[oi++] = y00 + x00 | 0;
    out[oi++] = y01 + x01 | 0;
    out[oi++] = y02 + x02 | 0;
    out[oi++] = y03 + x03 | 0;
    out[oi++] = y04 + x04 | 0;
    out[oi++] = y05 + x05 | 0;
    out[oi++] = y06 + x06 | 0;
    out[oi++] = y07 + x07 | 0;
    out[oi++] = y08 + x08 | 0;
    out[oi++] = y09 + x09 | 0;
    out[oi++] = y10 + x10 | 0;
    out[oi++] = y11 + x11 | 0;
    out[oi++] = y12 + x12 | 0;
    out[oi++] = y13 + x13 | 0;
    out[oi++] = y14 + x14 | 0;
    out[oi++] = y15 + x15 | 0;
  }
  var chacha20 = /* @__PURE__ */ createCipher(chachaCore, {
    counterRight: false,
    counterLength: 4,
    allowShortKeys: false
  });

  // src/verify/shuffle.js
  var COMMITMENT_TAG = tag("persian-cards/commitment/v1");
  var DECK_SEED_TAG = tag("persian-cards/deck-seed/v1");
  var CHAIN_TAG = tag("persian-cards/seed-chain/v1");
  var CHAIN_SERVER_SEED_TAG = tag("persian-cards/chain-server-seed/v1");
  var commitmentOf = (serverSeed) => sha2562(COMMITMENT_TAG, serverSeed);
  var ShuffleError = class extends Error {
    constructor(kind, message) {
      super(message);
      this.kind = kind;
    }
  };
  function deckSeedPreimage(serverSeed, handId, k, clientSeeds) {
    const id = utf8(handId);
    if (id.length === 0) throw new ShuffleError("EmptyHandId", "the hand id is empty");
    if (id.length > 128) throw new ShuffleError("HandIdTooLong", "the hand id is over 128 bytes");
    if (serverSeed.length !== 32) throw new ShuffleError("HexLength", "a server seed is 32 bytes");
    const sorted = [...clientSeeds].sort((a, b) => a.seat - b.seat);
    const parts = [DECK_SEED_TAG, serverSeed, enc(id), u32be(k), u32be(sorted.length)];
    for (let i = 0; i < sorted.length; i++) {
      const { seat: seat2, seed } = sorted[i];
      if (i > 0 && sorted[i - 1].seat === seat2) throw new ShuffleError("DuplicateSeat", `two client seeds for seat ${seat2}`);
      if (seed.length < 1 || seed.length > 64) throw new ShuffleError("ClientSeedLength", "a client seed is 1 to 64 bytes");
      parts.push(u32be(seat2), enc(seed));
    }
    return concat(...parts);
  }
  var deckSeed = (serverSeed, handId, k, clientSeeds) => sha2562(deckSeedPreimage(serverSeed, handId, k, clientSeeds));
  var Keystream = class {
    constructor(seed) {
      this.key = seed;
      this.block = 0;
      this.buf = new Uint8Array(0);
      this.pos = 0;
      this.used = 0;
    }
    nextWord() {
      if (this.pos + 4 > this.buf.length) {
        const zeros = new Uint8Array(64 * 16);
        this.buf = chacha20(this.key, new Uint8Array(12), zeros, void 0, this.block);
        this.block += 16;
        this.pos = 0;
      }
      const b = this.buf;
      const p = this.pos;
      this.pos += 4;
      this.used++;
      return (b[p] | b[p + 1] << 8 | b[p + 2] << 16 | b[p + 3] << 24) >>> 0;
    }
  };
  var TWO32 = 4294967296;
  function uniform(stream, b) {
    if (!Number.isInteger(b) || b < 1 || b > TWO32) throw new RangeError("uniform: 1 <= b <= 2^32");
    const zone = TWO32 - TWO32 % b;
    for (; ; ) {
      const x = stream.nextWord();
      if (x < zone) return x % b;
    }
  }
  function fisherYates(n2, stream) {
    const a = Array.from({ length: n2 }, (_, i) => i);
    for (let i = n2 - 1; i >= 1; i--) {
      const j = uniform(stream, i + 1);
      const t2 = a[i];
      a[i] = a[j];
      a[j] = t2;
    }
    return a;
  }
  var SUITS = ["S", "H", "D", "C"];
  var RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  var JOKERS = ["BJ", "CJ"];
  var CANONICAL = [...SUITS.flatMap((s) => RANKS.map((r) => r + s)), ...JOKERS];
  var CANONICAL_INDEX = new Map(CANONICAL.map((c, i) => [c, i]));
  var canonicalIndex = (c) => CANONICAL_INDEX.get(c) ?? -1;
  var sortCanonical = (cards) => [...cards].sort((a, b) => canonicalIndex(a) - canonicalIndex(b));
  var DECK_SPECS = {
    "standard-52": { ranks: RANKS, removed: [], jokers: [], packs: 1 },
    "standard-54": { ranks: RANKS, removed: [], jokers: ["BJ", "CJ"], packs: 1 },
    "bist-o-yek-36": { ranks: RANKS.slice(4), removed: [], jokers: [], packs: 1 },
    "hokm-51-without-2S": { ranks: RANKS, removed: ["2S"], jokers: [], packs: 1 },
    "hokm-51-without-2H": { ranks: RANKS, removed: ["2H"], jokers: [], packs: 1 },
    "hokm-51-without-2D": { ranks: RANKS, removed: ["2D"], jokers: [], packs: 1 },
    "hokm-51-without-2C": { ranks: RANKS, removed: ["2C"], jokers: [], packs: 1 },
    "ghahve-52": { ranks: RANKS, removed: ["2H", "2D"], jokers: ["BJ", "CJ"], packs: 1 },
    "bluff-104": { ranks: RANKS, removed: [], jokers: [], packs: 2 },
    "sheytoonak-53": { ranks: RANKS, removed: [], jokers: ["BJ"], packs: 1 }
  };
  var DECK_IDS = Object.keys(DECK_SPECS);
  function deckCards(id) {
    const spec = Object.prototype.hasOwnProperty.call(DECK_SPECS, id) ? DECK_SPECS[id] : null;
    if (!spec) return null;
    const pack = [...SUITS.flatMap((s) => spec.ranks.map((r) => r + s)).filter((c) => !spec.removed.includes(c)), ...spec.jokers];
    const out = [];
    for (let k = 0; k < spec.packs; k++) out.push(...pack);
    return out;
  }
  function shuffleCards(cards, seed) {
    const ks = new Keystream(seed);
    const permutation = fisherYates(cards.length, ks);
    return { permutation, order: permutation.map((p) => cards[p]), wordsUsed: ks.used };
  }
  function chainWalk(c, position, steps) {
    const buf = new Uint8Array(CHAIN_TAG.length + 4 + 32);
    buf.set(CHAIN_TAG, 0);
    const at = CHAIN_TAG.length;
    buf.set(c, at + 4);
    for (let i = position; i > position - steps; i--) {
      buf[at] = i >>> 24 & 255;
      buf[at + 1] = i >>> 16 & 255;
      buf[at + 2] = i >>> 8 & 255;
      buf[at + 3] = i & 255;
      buf.set(sha256(buf), at + 4);
    }
    return buf.slice(at + 4);
  }
  var chainServerSeed = (c, j) => sha2562(CHAIN_SERVER_SEED_TAG, c, u32be(j));

  // src/verify/eventlog.js
  var EVENT_HASH_TAG = tag("persian-cards/event/v1");
  var EVENT_SIG_TAG = tag("persian-cards/event-signature/v1");
  var ACTION_SIG_TAG = tag("persian-cards/action/v1");
  var PRIVATE_INPUT_TAG = tag("persian-cards/private-input/v1");
  var GAME_IDS = ["bist-o-yek", "hokm", "shelem", "ghahve", "pasur", "haft-khabis", "bluff", "sheytoonak"];
  var eventHash = (event) => sha2562(EVENT_HASH_TAG, canonicalBytes(event));
  var serviceMessage = (hash) => concat(EVENT_SIG_TAG, hash);
  var playerMessage = (event) => concat(
    ACTION_SIG_TAG,
    canonicalBytes({
      action: event.body.action,
      actor: event.body.actor,
      hand: event.hand,
      prev: event.prev,
      seq: event.seq
    })
  );
  var privateInputCommitment = (salt, action2, actor2, hand, seq) => sha2562(PRIVATE_INPUT_TAG, salt, canonicalBytes({ action: action2, actor: actor2, hand, seq }));
  var MAX_U32 = 4294967295;
  var MAX_U53 = 9007199254740991;
  var isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  var isInt = (v, max, min = 0) => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;
  var has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  var Shape = class extends Error {
  };
  function members(o, where, required, optional = []) {
    if (!isObj(o)) throw new Shape(`${where} is not an object`);
    for (const k of required) if (!has(o, k)) throw new Shape(`${where} has no member "${k}"`);
    for (const k of Object.keys(o)) {
      if (!required.includes(k) && !optional.includes(k)) throw new Shape(`${where} has an unknown member "${k}"`);
      if (optional.includes(k) && o[k] === null) throw new Shape(`${where}.${k} is null (an optional member is absent, never null)`);
    }
  }
  var need = (ok, what) => {
    if (!ok) throw new Shape(what);
  };
  var str = (v, w) => need(typeof v === "string", `${w} is not a string`);
  var u322 = (v, w) => need(isInt(v, MAX_U32), `${w} is not an integer 0 to 2^32 - 1`);
  var u53 = (v, w) => need(isInt(v, MAX_U53), `${w} is not an integer 0 to 2^53 - 1`);
  var seat = (v, w) => need(isInt(v, 255), `${w} is not a seat 0 to 255`);
  var hex = (v, chars, w) => need(isLowerHex(v, chars), `${w} is not ${chars} lowercase hex characters`);
  var bool = (v, w) => need(typeof v === "boolean", `${w} is not a boolean`);
  var arr = (v, w) => need(Array.isArray(v), `${w} is not an array`);
  var ref = (v, w) => {
    members(v, w, ["shuffle", "pos"]);
    u322(v.shuffle, `${w}.shuffle`);
    u322(v.pos, `${w}.pos`);
  };
  function adjustmentShape(a, w) {
    members(a, w, ["dispute", "seq", "hash", "award"]);
    str(a.dispute, `${w}.dispute`);
    u53(a.seq, `${w}.seq`);
    hex(a.hash, 64, `${w}.hash`);
    const aw = a.award;
    members(aw, `${w}.award`, ["penalty", "section", "offender", "beneficiaries", "points"]);
    str(aw.penalty, `${w}.award.penalty`);
    str(aw.section, `${w}.award.section`);
    seat(aw.offender, `${w}.award.offender`);
    arr(aw.beneficiaries, `${w}.award.beneficiaries`);
    aw.beneficiaries.forEach((g, i) => {
      arr(g, `${w}.award.beneficiaries[${i}]`);
      g.forEach((x, j) => seat(x, `${w}.award.beneficiaries[${i}][${j}]`));
    });
    u322(aw.points, `${w}.award.points`);
  }
  function isAdjustment(a) {
    try {
      adjustmentShape(a, "adjustment");
      return true;
    } catch (e) {
      if (e instanceof Shape) return false;
      throw e;
    }
  }
  var actor = (v, w) => {
    if (v === "service") return;
    need(isObj(v), `${w} is neither {"seat": n} nor "service"`);
    members(v, w, ["seat"]);
    seat(v.seat, `${w}.seat`);
  };
  var BODY = {
    hand_started(b) {
      members(
        b,
        "body",
        ["type", "club", "table", "hand_no", "game", "rules", "match_state", "seats", "deck", "shuffle_version", "commitment", "client_entropy"],
        ["prev_hand", "seed_chain", "player_signatures", "adjustments"]
      );
      str(b.club, "club");
      str(b.table, "table");
      u53(b.hand_no, "hand_no");
      need(GAME_IDS.includes(b.game), `game ${JSON.stringify(b.game)} is not a game id`);
      arr(b.seats, "seats");
      b.seats.forEach((s, i) => {
        members(s, `seats[${i}]`, ["seat", "player"], ["public_key"]);
        seat(s.seat, `seats[${i}].seat`);
        str(s.player, `seats[${i}].player`);
        if (has(s, "public_key")) hex(s.public_key, 64, `seats[${i}].public_key`);
      });
      need(DECK_IDS.includes(b.deck), `deck ${JSON.stringify(b.deck)} is not a deck id`);
      u322(b.shuffle_version, "shuffle_version");
      hex(b.commitment, 64, "commitment");
      bool(b.client_entropy, "client_entropy");
      if (has(b, "prev_hand")) {
        members(b.prev_hand, "prev_hand", ["hand", "hash"]);
        str(b.prev_hand.hand, "prev_hand.hand");
        hex(b.prev_hand.hash, 64, "prev_hand.hash");
      }
      if (has(b, "adjustments")) {
        arr(b.adjustments, "adjustments");
        need(b.adjustments.length > 0, "adjustments is empty (absent when there are none)");
        b.adjustments.forEach((a, i) => adjustmentShape(a, `adjustments[${i}]`));
      }
      if (has(b, "seed_chain")) {
        members(b.seed_chain, "seed_chain", ["anchor", "length", "position"]);
        hex(b.seed_chain.anchor, 64, "seed_chain.anchor");
        u322(b.seed_chain.length, "seed_chain.length");
        u322(b.seed_chain.position, "seed_chain.position");
      }
      if (has(b, "player_signatures")) need(b.player_signatures === "required", 'player_signatures is not "required"');
    },
    shuffle_committed(b) {
      members(b, "body", ["type", "shuffle", "commitment"]);
      u322(b.shuffle, "shuffle");
      hex(b.commitment, 64, "commitment");
    },
    client_seed(b) {
      members(b, "body", ["type", "shuffle", "seat", "seed"]);
      u322(b.shuffle, "shuffle");
      seat(b.seat, "seat");
      need(isLowerHex(b.seed) && b.seed.length >= 2 && b.seed.length <= 128, "seed is not 1 to 64 bytes of lowercase hex");
    },
    shuffled(b) {
      members(b, "body", ["type", "shuffle", "reason", "cards", "effects"], ["missing", "source"]);
      u322(b.shuffle, "shuffle");
      str(b.reason, "reason");
      u322(b.cards, "cards");
      arr(b.effects, "effects");
      if (has(b, "missing")) {
        arr(b.missing, "missing");
        b.missing.forEach((s, i) => seat(s, `missing[${i}]`));
      }
      if (has(b, "source")) {
        need(isObj(b.source), "source is not an object");
        if (has(b.source, "deck")) {
          members(b.source, "source", ["deck"]);
          need(DECK_IDS.includes(b.source.deck), "source.deck is not a deck id");
        } else {
          members(b.source, "source", ["gather"]);
          arr(b.source.gather, "source.gather");
          b.source.gather.forEach((r, i) => ref(r, `source.gather[${i}]`));
        }
      }
    },
    action(b) {
      members(b, "body", ["type", "actor", "action", "effects"]);
      actor(b.actor, "actor");
      arr(b.effects, "effects");
    },
    private_action(b) {
      members(b, "body", ["type", "actor", "commitment", "public"]);
      actor(b.actor, "actor");
      hex(b.commitment, 64, "commitment");
    },
    hand_ended(b) {
      members(b, "body", ["type", "outcome", "next_match"]);
    },
    abandoned(b) {
      members(b, "body", ["type", "reason"]);
      str(b.reason, "reason");
    },
    seeds_revealed(b) {
      members(b, "body", ["type", "seeds"], ["inputs", "chain_seed"]);
      arr(b.seeds, "seeds");
      b.seeds.forEach((s, i) => {
        members(s, `seeds[${i}]`, ["shuffle", "server_seed"]);
        u322(s.shuffle, `seeds[${i}].shuffle`);
        str(s.server_seed, `seeds[${i}].server_seed`);
      });
      if (has(b, "chain_seed")) hex(b.chain_seed, 64, "chain_seed");
      if (has(b, "inputs")) {
        arr(b.inputs, "inputs");
        b.inputs.forEach((x, i) => {
          members(x, `inputs[${i}]`, ["seq", "salt", "action"]);
          u53(x.seq, `inputs[${i}].seq`);
          hex(x.salt, 64, `inputs[${i}].salt`);
        });
      }
    }
  };
  function eventFormatProblem(event) {
    try {
      members(event, "the event", ["v", "hand", "seq", "prev", "time_ms", "body"], ["player_sig"]);
      u322(event.v, "v");
      str(event.hand, "hand");
      u53(event.seq, "seq");
      hex(event.prev, 64, "prev");
      u53(event.time_ms, "time_ms");
      need(isObj(event.body), "body is not an object");
      need(typeof event.body.type === "string" && has(BODY, event.body.type), `body type ${JSON.stringify(event.body.type)} is not a body of version 1`);
      BODY[event.body.type](event.body);
      if (has(event, "player_sig")) {
        members(event.player_sig, "player_sig", ["key_id", "sig"]);
        str(event.player_sig.key_id, "player_sig.key_id");
        hex(event.player_sig.sig, 128, "player_sig.sig");
      }
      return null;
    } catch (e) {
      if (e instanceof Shape) return e.message;
      throw e;
    }
  }

  // src/verify/checks.js
  var CHECK_IDS = [
    "format",
    "chain",
    "signatures",
    "commitments",
    "seed_chain",
    "decks",
    "player_signatures",
    "private_inputs",
    "log_proof"
  ];
  var RULE_CHECK = {
    unreadable: "format",
    unsupported: "format",
    encoding: "format",
    event_format: "format",
    event_version: "format",
    first_event: "format",
    prev_hand: "format",
    shuffle_version: "format",
    seats: "format",
    header: "format",
    abandon_reason: "format",
    hash: "chain",
    sequence: "chain",
    chain: "chain",
    hand_id: "chain",
    complete: "chain",
    time_order: "chain",
    after_reveal: "chain",
    after_end: "chain",
    reveal_at_end: "chain",
    bundle_key_id: "signatures",
    signer: "signatures",
    signature: "signatures",
    reveal_all: "commitments",
    reveal_order: "commitments",
    server_seed: "commitments",
    commitment: "commitments",
    commitment_order: "commitments",
    commit_at_once: "commitments",
    seed_chain: "seed_chain",
    seed_chain_seeds: "seed_chain",
    seed_chain_anchor: "seed_chain",
    client_entropy: "decks",
    client_seed_window: "decks",
    seat: "decks",
    client_seed_once: "decks",
    shuffle_order: "decks",
    shuffle_request: "decks",
    shuffle_source: "decks",
    deck_seed: "decks",
    effects: "decks",
    player_signature: "player_signatures",
    player_signature_required: "player_signatures",
    player_signatures: "player_signatures",
    private_input: "private_inputs",
    reveal_inputs: "private_inputs",
    log_proof: "log_proof"
  };
  var Problem = class {
    constructor(seq, rule, expected, found, seat2 = null) {
      this.seq = seq;
      this.rule = rule;
      this.expected = expected;
      this.found = found;
      this.seat = seat2;
    }
    get check() {
      return RULE_CHECK[this.rule] ?? "format";
    }
    get message() {
      const where = this.seq === null ? "bundle" : `event ${this.seq}`;
      const seat2 = this.seat === null ? "" : `, seat ${this.seat}`;
      return `${where}${seat2}: ${this.rule}: expected ${this.expected}, found ${this.found}`;
    }
  };
  function buildChecks(problem, { applicable = {}, done = [], notes = {} } = {}) {
    const failed = problem ? problem.check : null;
    return CHECK_IDS.map((id) => {
      if (id === failed) {
        return { id, ok: false, seq: problem.seq, rule: problem.rule, seat: problem.seat, expected: problem.expected, found: problem.found, message: problem.message };
      }
      if (applicable[id] === false) {
        return { id, ok: null, seq: null, rule: null, message: notes[id] ?? "not applicable to this hand" };
      }
      if (problem && !done.includes(id)) {
        const where = problem.seq === null ? "the bundle" : `event ${problem.seq}`;
        return { id, ok: null, seq: null, rule: null, message: `not finished: verification stops at the first problem (${where}, ${problem.rule})` };
      }
      return { id, ok: true, seq: null, rule: null, message: notes[id] ?? "passed" };
    });
  }

  // src/verify/transparency.js
  var LEAF_TAG = tag("persian-cards/tlog-leaf/v1");
  function u64be(n2) {
    const b = new Uint8Array(8);
    let x = BigInt(n2);
    for (let i = 7; i >= 0; i--) {
      b[i] = Number(x & 0xffn);
      x >>= 8n;
    }
    return b;
  }
  function leafEntry(salt, club, hand, seq, evHash) {
    const c = utf8(club);
    const h2 = utf8(hand);
    const commitment = sha2562(LEAF_TAG, salt, u32be(c.length), c, u32be(h2.length), h2, u64be(seq), evHash);
    return concat(new Uint8Array([1]), commitment);
  }
  var leafHash = (entry) => sha2562(new Uint8Array([0]), entry);
  var nodeHash = (l, r) => sha2562(new Uint8Array([1]), l, r);
  function verifyInclusion(index, size, leaf, proof, root) {
    if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size)) || index < 0 || index >= size) return false;
    let fn = index;
    let sn = size - 1;
    let r = leaf;
    for (const p of proof) {
      if (sn === 0) return false;
      if (fn % 2 === 1 || fn === sn) {
        r = nodeHash(p, r);
        if (fn % 2 === 0) {
          while (fn % 2 === 0 && fn !== 0) {
            fn = Math.floor(fn / 2);
            sn = Math.floor(sn / 2);
          }
        }
      } else {
        r = nodeHash(r, p);
      }
      fn = Math.floor(fn / 2);
      sn = Math.floor(sn / 2);
    }
    return sn === 0 && bytesEqual(r, root);
  }
  function b64decode(s) {
    if (typeof s !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return null;
    let bin;
    try {
      bin = atob(s);
    } catch {
      return null;
    }
    const out = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return b64encode(out) === s ? out : null;
  }
  var b64encode = (b) => btoa(String.fromCharCode(...b));
  function parseVkey(vkey) {
    if (typeof vkey !== "string") return null;
    const text = vkey.trim();
    const a = text.indexOf("+");
    const b = a < 0 ? -1 : text.indexOf("+", a + 1);
    if (a < 0 || b < 0) return null;
    const name = text.slice(0, a);
    const idHex = text.slice(a + 1, b);
    const keyB64 = text.slice(b + 1);
    if (/\s/.test(name)) return null;
    const raw = b64decode(keyB64);
    if (!name || !/^[0-9a-f]{8}$/.test(idHex) || !raw || raw.length !== 33 || raw[0] !== 1) return null;
    const pub = raw.subarray(1);
    const id = toHex(sha2562(utf8(name), new Uint8Array([10, 1]), pub).subarray(0, 4));
    return id === idHex ? { name, keyId: idHex, pub } : null;
  }
  function openCheckpoint(note, key) {
    if (typeof note !== "string" || !note.endsWith("\n")) return { error: "a note that does not end in a newline" };
    if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(note)) return { error: "a control character in the note" };
    const sep = note.indexOf("\n\n");
    if (sep < 0) return { error: "no blank line before the signatures" };
    const text = note.slice(0, sep + 1);
    const sigLines = note.slice(sep + 2, -1).split("\n");
    if (sigLines.length === 0 || sigLines.length > 100 || sigLines[0] === "") return { error: "no signature" };
    let good = 0;
    for (const line of sigLines) {
      const m = /^\u2014 ([^ +]+) ([A-Za-z0-9+/=]+)$/.exec(line);
      if (!m) return { error: "a malformed signature line" };
      const raw = b64decode(m[2]);
      if (!raw || raw.length < 5) return { error: "a malformed signature" };
      if (m[1] !== key.name || toHex(raw.subarray(0, 4)) !== key.keyId) continue;
      if (raw.length !== 68 || !verifyStrict(key.pub, raw.subarray(4), utf8(text))) return { error: "a signature by the log key that does not verify" };
      good++;
    }
    if (good === 0) return { error: "no signature by the log key" };
    if (good > 1) return { error: "the log key signs more than once" };
    const lines = text.slice(0, -1).split("\n");
    if (lines.length < 3 || lines.length > 19 || lines.some((l) => l === "")) return { error: "a malformed checkpoint text" };
    const [origin, sizeText, rootB64] = lines;
    if (!/^(0|[1-9][0-9]*)$/.test(sizeText) || BigInt(sizeText) >= 2n ** 64n) return { error: "a malformed tree size" };
    const root = b64decode(rootB64);
    if (!root || root.length !== 32) return { error: "a malformed root hash" };
    if (origin !== key.name) return { error: "a checkpoint whose origin is not the key name" };
    return { origin, size: Number(sizeText), root };
  }
  function vkeyOf(name, pub) {
    const id = toHex(sha2562(utf8(name), new Uint8Array([10, 1]), pub).subarray(0, 4));
    return `${name}+${id}+${b64encode(concat(new Uint8Array([1]), pub))}`;
  }
  function proofOfBundle(hand, lp) {
    const names = ["checkpoint", "leaf_index", "salt", "inclusion"];
    if (!lp || typeof lp !== "object" || Object.keys(lp).length !== names.length || names.some((k) => !(k in lp))) return null;
    if (typeof lp.checkpoint !== "string") return null;
    const lines = lp.checkpoint.split("\n");
    if (lines.length < 3 || !/^(0|[1-9][0-9]*)$/.test(lines[1])) return null;
    return {
      note: lp.checkpoint,
      proof: { format: "persian-cards/log-proof", version: 1, origin: lines[0], hand, salt: lp.salt, leaf_index: lp.leaf_index, tree_size: Number(lines[1]), inclusion: lp.inclusion }
    };
  }
  function checkLogProof(bundle, proof, checkpointNote, vkey) {
    const key = parseVkey(vkey);
    if (!key) return { ok: false, message: "the log key is not a valid vkey" };
    const names = ["format", "version", "origin", "hand", "salt", "leaf_index", "tree_size", "inclusion"];
    if (!proof || typeof proof !== "object" || names.some((k) => !(k in proof)) || Object.keys(proof).some((k) => !names.includes(k))) {
      return { ok: false, message: "the log proof is not a proof file of version 1" };
    }
    if (proof.format !== "persian-cards/log-proof" || proof.version !== 1) return { ok: false, message: "an unsupported log proof" };
    if (!isLowerHex(proof.salt, 64) || !Array.isArray(proof.inclusion) || proof.inclusion.some((h2) => !isLowerHex(h2, 64))) {
      return { ok: false, message: "a malformed log proof" };
    }
    const cp = openCheckpoint(checkpointNote, key);
    if (cp.error) return { ok: false, message: `checkpoint: ${cp.error}` };
    const records = bundle.records;
    const last = records[records.length - 1].event;
    const club = records[0].event.body.club;
    if (proof.hand !== bundle.hand) return { ok: false, message: `the proof is for hand ${proof.hand}` };
    if (proof.origin !== cp.origin || proof.origin !== `${cp.origin.slice(0, cp.origin.lastIndexOf("/clubs/"))}/clubs/${club}/log`) {
      return { ok: false, message: `the proof's origin ${proof.origin} is not the log of club ${club} the checkpoint names` };
    }
    if (proof.tree_size !== cp.size) return { ok: false, message: `a proof for tree size ${proof.tree_size}, the checkpoint is of size ${cp.size}` };
    const leaf = leafHash(leafEntry(fromHex(proof.salt), club, bundle.hand, last.seq, eventHash(last)));
    const ok = verifyInclusion(proof.leaf_index, proof.tree_size, leaf, proof.inclusion.map(fromHex), cp.root);
    return ok ? { ok: true, message: `the hand's last event is leaf ${proof.leaf_index} of ${cp.origin} at size ${cp.size}` } : { ok: false, message: "the inclusion proof does not lead to the checkpoint's root" };
  }

  // src/verify/bundle.js
  var BUNDLE_FORMAT = "persian-cards/hand-bundle";
  var MATCH_FORMAT = "persian-cards/match";
  var ZERO_HASH = "0".repeat(64);
  var STATUSES = ["in_progress", "completed", "abandoned"];
  var isObj2 = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JsonNumber);
  var has2 = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  function readInput(input) {
    if (typeof input === "string") return parseStrict(input);
    if (input instanceof ArrayBuffer) input = new Uint8Array(input);
    if (input instanceof Uint8Array) {
      let text;
      try {
        text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
      } catch {
        throw new UnreadableJson("the file is not UTF-8", 0);
      }
      return parseStrict(text);
    }
    return input;
  }
  var Unreadable = class extends Error {
    constructor(rule, message) {
      super(message);
      this.rule = rule;
    }
  };
  function readEnvelope(b) {
    if (!isObj2(b)) throw new Unreadable("unreadable", "the file is not a JSON object");
    if (has2(b, "format") && has2(b, "version")) {
      const okVersion = b.version === 1 || b.version === 2;
      if (b.format !== BUNDLE_FORMAT || !okVersion) {
        throw new Unreadable("unsupported", `an unsupported bundle: format ${JSON.stringify(b.format)}, version ${b.version instanceof JsonNumber ? b.version.text : JSON.stringify(b.version)}`);
      }
    }
    const required = ["format", "version", "hand", "game", "status", "keys", "records"];
    const optional = b.version === 2 ? ["log_proof"] : [];
    for (const k of required) if (!has2(b, k)) throw new Unreadable("unreadable", `the bundle has no member "${k}"`);
    for (const k of Object.keys(b)) {
      if (!required.includes(k) && !optional.includes(k)) throw new Unreadable("unreadable", `the bundle has an unknown member "${k}"`);
    }
    if (typeof b.hand !== "string") throw new Unreadable("unreadable", `the bundle's "hand" is not a string`);
    if (!GAME_IDS.includes(b.game)) throw new Unreadable("unreadable", `the bundle's "game" ${JSON.stringify(b.game)} is not a game id`);
    if (!STATUSES.includes(b.status)) throw new Unreadable("unreadable", `the bundle's "status" ${JSON.stringify(b.status)} is not a status`);
    if (!Array.isArray(b.keys)) throw new Unreadable("unreadable", `the bundle's "keys" is not an array`);
    const keys = b.keys.map((k, i) => {
      if (!isObj2(k) || Object.keys(k).length !== 2 || !has2(k, "key_id") || !has2(k, "public_key")) {
        throw new Unreadable("unreadable", `keys[${i}] is not {"key_id", "public_key"}`);
      }
      if (typeof k.key_id !== "string") throw new Unreadable("unreadable", `keys[${i}].key_id is not a string`);
      const pubHex = typeof k.public_key === "string" ? k.public_key.trim() : null;
      if (!isAnyHex(pubHex, 64)) throw new Unreadable("unreadable", `keys[${i}].public_key is not 64 hex characters`);
      const pub = fromHex(pubHex);
      if (!decodePoint(pub)) throw new Unreadable("unreadable", `keys[${i}].public_key is not a valid Ed25519 public key`);
      return { key_id: k.key_id, pub };
    });
    if (!Array.isArray(b.records)) throw new Unreadable("unreadable", `the bundle's "records" is not an array`);
    if (b.records.length === 0) throw new Unreadable("unreadable", "the bundle has no records");
    const records = b.records.map((r, i) => readRecord(r, i));
    return { hand: b.hand, game: b.game, status: b.status, keys, records, logProof: has2(b, "log_proof") ? b.log_proof : void 0 };
  }
  function readRecord(r, i) {
    const names = ["event", "hash", "signer", "sig"];
    if (!isObj2(r)) throw new Unreadable("unreadable", `records[${i}] is not an object`);
    for (const k of names) if (!has2(r, k)) throw new Unreadable("unreadable", `records[${i}] has no member "${k}"`);
    for (const k of Object.keys(r)) if (!names.includes(k)) throw new Unreadable("unreadable", `records[${i}] has an unknown member "${k}"`);
    if (!isAnyHex(r.hash, 64)) throw new Unreadable("unreadable", `records[${i}].hash is not 64 hex characters`);
    if (!isAnyHex(r.sig, 128)) throw new Unreadable("unreadable", `records[${i}].sig is not 128 hex characters`);
    if (typeof r.signer !== "string") throw new Unreadable("unreadable", `records[${i}].signer is not a string`);
    return { event: r.event, hash: fromHex(r.hash), signer: r.signer, sig: fromHex(r.sig) };
  }
  function readTrustedKeys(list) {
    if (list === void 0 || list === null) return null;
    if (!Array.isArray(list)) throw new Unreadable("unreadable", "trustedKeys is not an array of public keys");
    const out = /* @__PURE__ */ new Map();
    for (const h2 of list) {
      const t2 = typeof h2 === "string" ? h2.trim() : "";
      const pub = isAnyHex(t2, 64) ? fromHex(t2) : null;
      if (!pub || !decodePoint(pub)) throw new Unreadable("unreadable", `a trusted key that is not an Ed25519 public key: ${String(h2).slice(0, 80)}`);
      out.set(keyIdOf(pub), pub);
    }
    return out.size ? out : null;
  }
  function integrityPass({ hand, keys, records, trusted, firstSeq = 0, firstPrev = ZERO_HASH, checkBundleKeys = true }) {
    const signers = [];
    if (checkBundleKeys) {
      for (const k of keys) {
        const id = keyIdOf(k.pub);
        if (k.key_id !== id) return { problem: new Problem(null, "bundle_key_id", `key id ${id}`, k.key_id), signers, hashes: [] };
      }
    }
    const known = trusted ?? new Map(keys.map((k) => [k.key_id, k.pub]));
    const hashes = [];
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      const seq = firstSeq + i;
      const enc2 = encodingProblem(r.event);
      if (enc2) return { problem: new Problem(seq, "encoding", "integers of at most 2^53 - 1 and nesting of at most 32", enc2), signers, hashes };
      let h2;
      try {
        h2 = eventHash(r.event);
      } catch (e2) {
        return { problem: new Problem(seq, "encoding", "an event with canonical bytes", String(e2.message)), signers, hashes };
      }
      if (!bytesEqual(h2, r.hash)) return { problem: new Problem(seq, "hash", toHex(h2), toHex(r.hash)), signers, hashes };
      const pub = known.get(r.signer);
      if (!pub) {
        const expected = trusted ? `one of the trusted keys (${[...trusted.keys()].join(", ")})` : `a key the bundle carries (${[...known.keys()].join(", ") || "none"})`;
        return { problem: new Problem(seq, "signer", expected, r.signer), signers, hashes };
      }
      if (!signers.includes(r.signer)) signers.push(r.signer);
      if (!verifyStrict(pub, r.sig, serviceMessage(h2))) {
        return { problem: new Problem(seq, "signature", `a signature by ${r.signer} that verifies`, "a signature that does not verify"), signers, hashes };
      }
      const fmt = eventFormatProblem(r.event);
      if (fmt) return { problem: new Problem(seq, "event_format", "an event of version 1", fmt), signers, hashes };
      const e = r.event;
      if (e.seq !== seq) return { problem: new Problem(seq, "sequence", `seq ${seq}`, `seq ${e.seq}`), signers, hashes };
      const prev = i === 0 ? firstPrev : toHex(hashes[i - 1]);
      if (prev !== null && e.prev !== prev) return { problem: new Problem(seq, "chain", `prev ${prev}`, `prev ${e.prev}`), signers, hashes };
      if (hand !== null && e.hand !== hand) return { problem: new Problem(seq, "hand_id", `hand ${JSON.stringify(hand)}`, `hand ${JSON.stringify(e.hand)}`), signers, hashes };
      hashes.push(h2);
    }
    return { problem: null, signers, hashes };
  }
  function revealPass(events, { walkAnchor }) {
    const n2 = events.length;
    const commitments = [];
    for (const e of events) if (e.body.type === "hand_started" || e.body.type === "shuffle_committed") commitments.push(e.body.commitment);
    const last = events[n2 - 1].body;
    if (last.type !== "seeds_revealed") return { problem: new Problem(n2, "complete", "seeds_revealed as the last event", last.type) };
    const at = n2 - 1;
    if (last.seeds.length !== commitments.length) return { problem: new Problem(at, "reveal_all", `${commitments.length} seeds`, `${last.seeds.length} seeds`) };
    const seeds = [];
    for (let k = 0; k < last.seeds.length; k++) {
      const s = last.seeds[k];
      if (s.shuffle !== k) return { problem: new Problem(at, "reveal_order", `shuffle ${k}`, `shuffle ${s.shuffle}`) };
      if (!isLowerHex(s.server_seed, 64)) return { problem: new Problem(at, "server_seed", "64 lowercase hex characters", `a malformed server seed for shuffle ${k}`) };
      const seed = fromHex(s.server_seed);
      const c = toHex(commitmentOf(seed));
      if (c !== commitments[k]) return { problem: new Problem(at, "commitment", `commitment ${commitments[k]}`, `the seed of shuffle ${k} hashes to ${c}`) };
      seeds.push(seed);
    }
    const first = events[0].body;
    const chain = first.type === "hand_started" && has2(first, "seed_chain") ? first.seed_chain : null;
    const chainSeedHex = has2(last, "chain_seed") ? last.chain_seed : null;
    if (chain === null !== (chainSeedHex === null)) {
      return { problem: new Problem(at, "seed_chain", chain ? "a chain seed" : "no chain seed", chainSeedHex ? "a chain seed" : "none") };
    }
    let chainSeed = null;
    if (chain) {
      chainSeed = fromHex(chainSeedHex);
      for (let j = 0; j < seeds.length; j++) {
        if (!bytesEqual(chainServerSeed(chainSeed, j), seeds[j])) {
          return { problem: new Problem(at, "seed_chain_seeds", `server seed ${j} derived from the chain seed`, "another server seed") };
        }
      }
      const inRange2 = Number.isInteger(chain.position) && Number.isInteger(chain.length) && chain.position >= 1 && chain.position <= chain.length && chain.length <= 1e6;
      if (walkAnchor && inRange2) {
        const a = toHex(chainWalk(chainSeed, chain.position, chain.position));
        if (a !== chain.anchor) return { problem: new Problem(at, "seed_chain_anchor", `anchor ${chain.anchor}`, `the chain seed walks down to ${a}`) };
      }
    }
    return { problem: null, commitments, seeds, chainSeed, inputs: has2(last, "inputs") ? last.inputs : [] };
  }
  var utf8Len = (s) => utf8(s).length;
  var scalarCount = (s) => [...s].length;
  function facesIn(v, out = []) {
    if (Array.isArray(v)) {
      for (const x of v) facesIn(x, out);
    } else if (isObj2(v)) {
      if (typeof v.face === "string") {
        for (const m of ["card", "ref"]) {
          const r = v[m];
          if (isObj2(r) && Object.keys(r).length === 2 && Number.isInteger(r.shuffle) && Number.isInteger(r.pos)) out.push({ ref: r, face: v.face });
        }
      }
      for (const k of Object.keys(v)) facesIn(v[k], out);
    }
    return out;
  }
  function wrongFace(effects, orders) {
    for (const { ref: ref2, face } of facesIn(effects)) {
      const order = orders[ref2.shuffle];
      if (order === null) continue;
      const actual = order === void 0 ? void 0 : order[ref2.pos];
      if (actual !== face) {
        return {
          expected: actual === void 0 ? `no card at {shuffle ${ref2.shuffle}, pos ${ref2.pos}}` : `${actual} at {shuffle ${ref2.shuffle}, pos ${ref2.pos}}`,
          found: face
        };
      }
    }
    return null;
  }
  function foldPass(events, hashes, { seeds, inputs }, handId) {
    const st = {
      status: null,
      orders: [],
      decksComplete: true,
      playerSigs: 0,
      outcome: null,
      startBody: null,
      privateSeqs: []
    };
    const fail = (seq, rule, expected, found, seat2 = null) => ({ problem: new Problem(seq, rule, expected, found, seat2), st });
    const b0 = events[0].body;
    if (b0.type !== "hand_started") return fail(0, "first_event", "hand_started", b0.type);
    const id = events[0].hand;
    if (utf8Len(id) < 1 || utf8Len(id) > 128) return fail(0, "hand_id", "a hand id of 1 to 128 bytes", `${utf8Len(id)} bytes`);
    if (has2(b0, "prev_hand")) {
      const ph = b0.prev_hand.hand;
      if (b0.hand_no < 2) return fail(0, "prev_hand", "no prev_hand in hand 1", `prev_hand in hand ${b0.hand_no}`);
      if (utf8Len(ph) < 1 || utf8Len(ph) > 128 || ph === id) return fail(0, "prev_hand", "another hand id of 1 to 128 bytes", JSON.stringify(ph));
    }
    if (has2(b0, "seed_chain")) {
      const { position, length } = b0.seed_chain;
      if (!(position >= 1 && position <= length && length <= 1e6)) return fail(0, "seed_chain", "1 <= position <= length <= 1000000", `position ${position}, length ${length}`);
    }
    if (b0.player_signatures === "required") {
      const s = b0.seats.findIndex((x) => !has2(x, "public_key"));
      if (s >= 0) return fail(0, "player_signatures", "a public key for every seat", "a seat without one", s);
    }
    if (b0.shuffle_version !== 1) return fail(0, "shuffle_version", "shuffle version 1", `version ${b0.shuffle_version}`);
    for (let j = 0; j < b0.seats.length; j++) {
      if (b0.seats[j].seat !== j) return fail(0, "seats", `seat ${j}`, `seat ${b0.seats[j].seat}`);
    }
    st.startBody = b0;
    st.status = "in_progress";
    const openings = /* @__PURE__ */ new Map();
    for (const x of inputs) if (!openings.has(x.seq)) openings.set(x.seq, x);
    let committed = 0;
    let used = 0;
    const clientSeeds = /* @__PURE__ */ new Map();
    let revealed = false;
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      const b = e.body;
      const seatOf = (a) => isObj2(a) ? a.seat : null;
      if (e.v !== 1) return fail(i, "event_version", "v 1", `v ${e.v}`);
      if (revealed) return fail(i, "after_reveal", "no event after seeds_revealed", b.type);
      if ((st.status === "completed" || st.status === "abandoned") && b.type !== "seeds_revealed") return fail(i, "after_end", "seeds_revealed", b.type);
      if (i > 0 && e.time_ms < events[i - 1].time_ms) return fail(i, "time_order", `time_ms at least ${events[i - 1].time_ms}`, `${e.time_ms}`);
      if (i > 0 && events[i - 1].body.type === "shuffled") {
        const k = events[i - 1].body.shuffle;
        if (b.type !== "shuffle_committed" || b.shuffle !== k + 1) {
          return fail(i, "commit_at_once", `shuffle_committed ${k + 1}`, b.type === "shuffle_committed" ? `shuffle_committed ${b.shuffle}` : b.type);
        }
      }
      if (has2(e, "player_sig") && b.type !== "action") return fail(i, "player_signature", "no player signature on a " + b.type, "a player signature");
      switch (b.type) {
        case "hand_started":
          if (i !== 0) return fail(i, "first_event", "hand_started only at event 0", `hand_started at event ${i}`);
          committed = 1;
          break;
        case "shuffle_committed":
          if (b.shuffle !== committed || b.shuffle !== used) return fail(i, "commitment_order", `shuffle ${committed} (committed ${committed}, used ${used})`, `shuffle ${b.shuffle}`);
          committed++;
          break;
        case "client_seed": {
          if (!b0.client_entropy) return fail(i, "client_entropy", "no client seeds at this table", "a client seed", b.seat);
          if (b.shuffle !== used || b.shuffle >= committed) return fail(i, "client_seed_window", `a seed for shuffle ${used}, committed and not yet used`, `shuffle ${b.shuffle}`, b.seat);
          if (b.seat >= b0.seats.length) return fail(i, "seat", `a seat below ${b0.seats.length}`, `seat ${b.seat}`, b.seat);
          if (!clientSeeds.has(b.shuffle)) clientSeeds.set(b.shuffle, /* @__PURE__ */ new Map());
          const m = clientSeeds.get(b.shuffle);
          if (m.has(b.seat)) return fail(i, "client_seed_once", "one client seed per seat and shuffle", "a second one", b.seat);
          m.set(b.seat, fromHex(b.seed));
          break;
        }
        case "shuffled": {
          const k = b.shuffle;
          if (k !== used) return fail(i, "shuffle_order", `shuffle ${used}`, `shuffle ${k}`);
          if (k >= seeds.length) return fail(i, "server_seed", `a revealed seed for shuffle ${k}`, "none");
          if (k >= committed) return fail(i, "commitment", `a commitment to shuffle ${k}`, "none");
          const clients = [...clientSeeds.get(k) ?? /* @__PURE__ */ new Map()].map(([seat2, seed]) => ({ seat: seat2, seed }));
          let ds;
          try {
            ds = deckSeed(seeds[k], handId, k, clients);
          } catch (err) {
            if (err instanceof ShuffleError) return fail(i, "deck_seed", "a deck seed", err.kind);
            throw err;
          }
          let cards = null;
          if (has2(b, "source")) {
            if (has2(b.source, "deck")) {
              cards = deckCards(b.source.deck);
            } else {
              const faces = [];
              for (const r of b.source.gather) {
                const o = r.shuffle < k ? st.orders[r.shuffle] : void 0;
                if (o === null) {
                  faces.length = 0;
                  break;
                }
                if (o === void 0 || r.pos >= o.length) return fail(i, "shuffle_source", "references to cards of earlier shuffles", `{shuffle ${r.shuffle}, pos ${r.pos}}`);
                faces.push(o[r.pos]);
              }
              cards = faces.length === b.source.gather.length ? sortCanonical(faces) : null;
            }
            if (cards && cards.length !== b.cards) return fail(i, "shuffle_request", `${cards.length} cards, as its source names`, `${b.cards} cards`);
          }
          if (cards) {
            st.orders[k] = shuffleCards(cards, ds).order;
          } else {
            st.orders[k] = null;
            st.decksComplete = false;
          }
          used++;
          const wf = wrongFace(b.effects, st.orders);
          if (wf) return fail(i, "effects", wf.expected, wf.found);
          break;
        }
        case "action": {
          const seat2 = seatOf(b.actor);
          if (!has2(e, "player_sig")) {
            if (seat2 !== null && b0.player_signatures === "required") return fail(i, "player_signature_required", "a player signature", "none", seat2);
          } else {
            if (seat2 === null) return fail(i, "player_signature", "no player signature on an action by the service", "a player signature");
            const s = b0.seats[seat2];
            if (!s || !has2(s, "public_key")) return fail(i, "player_signature", "a seat with a registered key", "a seat without one", seat2);
            const pub = fromHex(s.public_key);
            const kid = keyIdOf(pub);
            if (e.player_sig.key_id !== kid) return fail(i, "player_signature", `key id ${kid}`, e.player_sig.key_id, seat2);
            if (!verifyStrict(pub, fromHex(e.player_sig.sig), playerMessage(e))) return fail(i, "player_signature", "a player signature that verifies", "one that does not", seat2);
            st.playerSigs++;
          }
          const wf = wrongFace(b.effects, st.orders);
          if (wf) return fail(i, "effects", wf.expected, wf.found, seat2);
          break;
        }
        case "private_action": {
          const seat2 = seatOf(b.actor);
          const o = openings.get(i);
          if (!o) return fail(i, "private_input", "an opening in seeds_revealed", "none", seat2);
          const c = toHex(privateInputCommitment(fromHex(o.salt), o.action, b.actor, e.hand, i));
          if (c !== b.commitment) return fail(i, "private_input", `an opening of commitment ${b.commitment}`, `one of ${c}`, seat2);
          st.privateSeqs.push(i);
          break;
        }
        case "hand_ended":
          st.status = "completed";
          st.outcome = b.outcome;
          break;
        case "abandoned":
          if (scalarCount(b.reason) > 500) return fail(i, "abandon_reason", "a reason of at most 500 characters", `${scalarCount(b.reason)} characters`);
          st.status = "abandoned";
          break;
        case "seeds_revealed": {
          if (st.status !== "completed" && st.status !== "abandoned") return fail(i, "reveal_at_end", "the hand over", "a hand still running");
          const got = (b.inputs ?? []).map((x) => x.seq);
          if (!jsonEqual(got, st.privateSeqs)) return fail(i, "reveal_inputs", `openings of events [${st.privateSeqs.join(", ")}]`, `[${got.join(", ")}]`);
          revealed = true;
          break;
        }
        default:
          break;
      }
    }
    return { problem: null, st };
  }
  async function verifyBundle(input, opts = {}) {
    try {
      return verifyBundleSync(input, opts);
    } catch (e) {
      const p = new Problem(null, "unreadable", "a bundle the verifier can judge", `internal error: ${e && e.message}`);
      return resultOf({ problem: p, game: null, hand: null });
    }
  }
  function resultOf({ problem, game, hand, applicable = {}, done = [], notes = {}, decks = {}, extra = {} }) {
    const checks = buildChecks(problem, { applicable, done, notes });
    const first = checks.find((c) => c.ok === false) ?? null;
    return { ok: problem === null, game, hand_id: hand, checks, decks, first_problem: first, ...extra };
  }
  function verifyBundleSync(input, opts = {}) {
    let value;
    try {
      value = readInput(input);
    } catch (e) {
      if (e instanceof UnreadableJson) return resultOf({ problem: new Problem(null, "unreadable", "a JSON text the format reads", e.message), game: null, hand: null });
      throw e;
    }
    let env;
    let trusted;
    try {
      env = readEnvelope(value);
      trusted = readTrustedKeys(opts.trustedKeys);
    } catch (e) {
      if (e instanceof Unreadable) {
        const hand = isObj2(value) && typeof value.hand === "string" ? value.hand : null;
        const game = isObj2(value) && typeof value.game === "string" ? value.game : null;
        return resultOf({ problem: new Problem(null, e.rule, "a readable hand bundle (docs/BUNDLE.md §1)", e.message), game, hand });
      }
      throw e;
    }
    const events = env.records.map((r) => r.event);
    const ev0 = isObj2(events[0]) && isObj2(events[0].body) ? events[0].body : {};
    const anyPlayerSig = events.some((e) => isObj2(e) && has2(e, "player_sig"));
    const lastBody2 = isObj2(events[events.length - 1]) && isObj2(events[events.length - 1].body) ? events[events.length - 1].body : {};
    const applicable = {
      seed_chain: has2(ev0, "seed_chain") || has2(lastBody2, "chain_seed"),
      player_signatures: anyPlayerSig || ev0.player_signatures === "required",
      private_inputs: events.some((e) => isObj2(e) && isObj2(e.body) && e.body.type === "private_action") || has2(lastBody2, "inputs"),
      log_proof: false
    };
    const notes = {
      seed_chain: "not applicable: the hand is not dealt from a seed chain",
      player_signatures: "not applicable: no action carries a player signature",
      private_inputs: "not applicable: the hand has no private action",
      log_proof: env.logProof === void 0 ? "not applicable: the bundle carries no log proof" : "not checked in the browser"
    };
    const trust = trusted ? "trusted_key" : "bundle_keys_only";
    const base = { game: env.game, hand: env.hand, applicable, notes };
    const extra = (more2) => ({ trust, status: null, signers: [], player_signatures_verified: 0, outcome: null, engine: ENGINE_NOTE, ...more2 });
    const p1 = integrityPass({ hand: env.hand, keys: env.keys, records: env.records, trusted });
    if (p1.problem) return resultOf({ ...base, problem: p1.problem, extra: extra({ signers: p1.signers }) });
    const done = ["signatures"];
    const p2 = revealPass(events, { walkAnchor: opts.walkAnchor !== false });
    if (p2.problem) return resultOf({ ...base, problem: p2.problem, done, extra: extra({ signers: p1.signers }) });
    done.push("seed_chain");
    const p3 = foldPass(events, p1.hashes, p2, events[0].hand);
    const decks = {};
    p3.st.orders.forEach((o, k) => {
      if (o) decks[k] = o;
    });
    const more = extra({ signers: p1.signers, status: p3.st.startBody ? p3.st.status : null, player_signatures_verified: p3.st.playerSigs, outcome: p3.st.outcome });
    if (!p3.st.decksComplete) {
      applicable.decks = false;
      notes.decks = "not derived: a shuffle records no source, so only the rules engine can name its cards";
    }
    if (p3.problem) return resultOf({ ...base, problem: p3.problem, done, decks, extra: more });
    if (env.game !== ev0.game) return resultOf({ ...base, problem: new Problem(null, "header", `game ${ev0.game}`, `game ${env.game}`), done, decks, extra: more });
    if (env.status !== p3.st.status) return resultOf({ ...base, problem: new Problem(null, "header", `status ${p3.st.status}`, `status ${env.status}`), done, decks, extra: more });
    let logCheck = null;
    const official = env.logProof === void 0 ? null : proofOfBundle(env.hand, env.logProof);
    if (official) {
      const note = opts.checkpoint ?? official.note;
      const vkeys = opts.logKey ? [opts.logKey] : [...trusted ? trusted.values() : env.keys.map((k) => k.pub)].map((pub) => vkeyOf(official.proof.origin, pub));
      const results = vkeys.map((k) => checkLogProof(value, official.proof, note, k));
      logCheck = results.find((r) => r.ok) ?? results[0] ?? { ok: false, message: "no key to check the checkpoint with" };
      if (logCheck.ok && !opts.logKey && !trusted) logCheck = { ok: true, message: `${logCheck.message} (the checkpoint checked ONLY against the keys the bundle itself carries)` };
    } else if (env.logProof !== void 0) {
      const lp = env.logProof;
      const note = opts.checkpoint ?? (isObj2(lp) && typeof lp.checkpoint === "string" ? lp.checkpoint : null);
      if (opts.logKey && note) {
        const file = isObj2(lp) && has2(lp, "checkpoint") ? Object.fromEntries(Object.entries(lp).filter(([k]) => k !== "checkpoint")) : lp;
        logCheck = checkLogProof(value, file, note, opts.logKey);
      } else {
        notes.log_proof = "not checked in the browser: give the club log's key (opts.logKey) and a checkpoint to check it";
      }
    }
    notes.decks = notes.decks ?? `${Object.keys(decks).length} shuffle(s) derived from their seeds; every face shown matches`;
    notes.commitments = `${p2.seeds.length} server seed(s) match their commitments`;
    notes.chain = `${events.length} events linked by their hashes`;
    notes.signatures = `${events.length} service signatures verify (${trust === "trusted_key" ? "against the trusted key(s) given" : "ONLY against the keys the bundle itself carries"})`;
    if (applicable.player_signatures) notes.player_signatures = `${p3.st.playerSigs} player signature(s) verify`;
    if (logCheck) {
      if (logCheck.ok) {
        applicable.log_proof = true;
        notes.log_proof = logCheck.message;
      } else {
        return resultOf({ ...base, problem: new Problem(null, "log_proof", "a log proof that leads to the checkpoint", logCheck.message), done: ["format", "chain", "signatures", "commitments", "seed_chain", "decks", "player_signatures", "private_inputs"], decks, extra: more });
      }
    }
    return resultOf({ ...base, problem: null, decks, extra: more });
  }
  var ENGINE_NOTE = "the rules and settlement (the engine re-run) are not checked by this verifier: they come from the server's verdict";
  async function verifyRecords(records, opts = {}) {
    const only = ["format", "chain", "signatures", "player_signatures"];
    const finish = (problem, more = {}) => {
      const checks = buildChecks(problem, {}).filter((c) => only.includes(c.id));
      return { ok: problem === null, checks, first_problem: checks.find((c) => c.ok === false) ?? null, ...more };
    };
    try {
      let v;
      try {
        v = readInput(records);
      } catch (e) {
        if (e instanceof UnreadableJson) return finish(new Problem(null, "unreadable", "JSON", e.message));
        throw e;
      }
      if (isObj2(v) && Array.isArray(v.events)) v = v.events;
      if (!Array.isArray(v) || v.length === 0) return finish(new Problem(null, "unreadable", "an array of records", "something else"));
      let recs;
      let keys = [];
      let trusted;
      try {
        recs = v.map((r, i) => readRecord(r, i));
        let ks = opts.keys;
        if (isObj2(ks) && Array.isArray(ks.keys)) ks = ks.keys;
        if (Array.isArray(ks)) {
          keys = ks.map((k) => {
            const pub = fromHex(String(k.public_key).trim());
            if (!decodePoint(pub)) throw new Unreadable("unreadable", "a key that is not an Ed25519 public key");
            return { key_id: keyIdOf(pub), pub };
          });
        }
        trusted = readTrustedKeys(opts.trustedKeys);
      } catch (e) {
        if (e instanceof Unreadable) return finish(new Problem(null, e.rule, "records as the API gives them", e.message));
        throw e;
      }
      const first = recs[0].event;
      const firstSeq = isObj2(first) && Number.isInteger(first.seq) ? first.seq : 0;
      const hand = opts.hand ?? (isObj2(first) && typeof first.hand === "string" ? first.hand : null);
      const firstPrev = firstSeq === 0 ? ZERO_HASH : opts.prevHash ?? null;
      if (!trusted && keys.length === 0) {
        return finish(new Problem(firstSeq, "signer", "a service key to check against (opts.keys or opts.trustedKeys)", "none given"));
      }
      const p1 = integrityPass({ hand, keys, records: recs, trusted, firstSeq, firstPrev, checkBundleKeys: false });
      const more = { signers: p1.signers, head: p1.hashes.length ? toHex(p1.hashes[p1.hashes.length - 1]) : null, trust: trusted ? "trusted_key" : "given_keys", player_signatures_verified: 0 };
      if (p1.problem) return finish(p1.problem, more);
      const b0 = recs[0].event.body;
      if (firstSeq === 0 && b0.type === "hand_started") {
        for (const r of recs) {
          const e = r.event;
          if (!has2(e, "player_sig")) continue;
          const seat2 = isObj2(e.body.actor) ? e.body.actor.seat : null;
          const s = seat2 === null ? null : b0.seats[seat2];
          if (e.body.type !== "action" || !s || !has2(s, "public_key")) return finish(new Problem(e.seq, "player_signature", "a player signature only on an action by a seat with a key", "one elsewhere", seat2), more);
          const pub = fromHex(s.public_key);
          if (e.player_sig.key_id !== keyIdOf(pub) || !verifyStrict(pub, fromHex(e.player_sig.sig), playerMessage(e))) {
            return finish(new Problem(e.seq, "player_signature", "a player signature that verifies", "one that does not", seat2), more);
          }
          more.player_signatures_verified++;
        }
      }
      return finish(null, more);
    } catch (e) {
      return finish(new Problem(null, "unreadable", "records the verifier can judge", `internal error: ${e && e.message}`));
    }
  }

  // src/verify/match.js
  var ENTRY_HASH_TAG = tag("persian-cards/dispute-entry/v1");
  var ENTRY_SIG_TAG = tag("persian-cards/dispute-entry-signature/v1");
  var RULING_SIG_TAG = tag("persian-cards/ruling/v1");
  var isObj3 = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof JsonNumber);
  var has3 = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
  var MATCH_CHECK_IDS = ["format", "hands", "links", "seed_chain", "match_over"];
  var MATCH_RULE_CHECK = {
    unreadable: "format",
    unsupported: "format",
    quarantined: "links",
    hand: "hands",
    match_header: "links",
    hand_no: "links",
    prev_hand: "links",
    same_match: "links",
    match_state: "links",
    adjustment_entry: "links",
    adjustment_signature: "links",
    adjustment_official: "links",
    adjustment_hand: "links",
    adjustment_twice: "links",
    adjustment_award: "links",
    seed_chain: "seed_chain",
    seed_chain_link: "seed_chain",
    seed_chain_anchor: "seed_chain"
  };
  function matchChecks(problem, applicable) {
    const failed = problem ? MATCH_RULE_CHECK[problem.rule] : null;
    return MATCH_CHECK_IDS.map((id) => {
      if (id === "match_over") {
        return { id, ok: null, seq: null, rule: "after_match_over", message: "not checked in the browser: whether a hand ended the match is the engine's word" };
      }
      if (id === failed) {
        const where = problem.index === null ? "match" : `hand ${problem.index} (${problem.hand})`;
        return { id, ok: false, seq: problem.seq, rule: problem.rule, hand_index: problem.index, hand_id: problem.hand, expected: problem.expected, found: problem.found, in_hand: problem.in_hand ?? null, message: `${where}: ${problem.rule}: expected ${problem.expected}, found ${problem.found}` };
      }
      if (applicable[id] === false) return { id, ok: null, seq: null, rule: null, message: "not applicable: no hand is dealt from a seed chain" };
      if (problem) return { id, ok: null, seq: null, rule: null, message: `not finished: the links stop at the first break (${problem.rule})` };
      return { id, ok: true, seq: null, rule: null, message: "passed" };
    });
  }
  var prob = (index, hand, rule, expected, found, extra = {}) => ({ index, hand, rule, expected, found, seq: null, ...extra });
  async function verifyMatch(input, opts = {}) {
    const fail = (p) => ({ ok: false, checks: matchChecks(p, {}), hands: [], first_problem: null });
    let m;
    try {
      m = readInput(input);
    } catch (e) {
      if (e instanceof UnreadableJson) {
        const r = fail(prob(null, null, "unreadable", "a JSON text the format reads", e.message));
        r.first_problem = r.checks.find((c) => c.ok === false);
        return r;
      }
      throw e;
    }
    const envProblem = readMatchEnvelope(m);
    if (envProblem) {
      const r = fail(prob(null, null, envProblem.rule, "a readable match file (docs/BUNDLE.md §8)", envProblem.message));
      r.first_problem = r.checks.find((c) => c.ok === false);
      return r;
    }
    const verdicts = m.hands.map((h2) => verifyBundleSync(h2, { ...opts, walkAnchor: false }));
    const quarantined = m.version >= 2 && Array.isArray(m.quarantined) ? m.quarantined : [];
    const carried = [];
    const problem = links(m, verdicts, quarantined, rulingKeys(m, opts), carried);
    const chained = m.hands.some((h2) => isObj3(h2) && Array.isArray(h2.records) && isObj3(h2.records[0]?.event?.body) && has3(h2.records[0].event.body, "seed_chain"));
    const checks = matchChecks(problem, { seed_chain: chained });
    const hands = verdicts.map((v, i) => ({ ...v, hand_no: startBody(m.hands[i])?.hand_no ?? null }));
    for (const q of quarantined) hands.push({ quarantined: true, ok: null, hand_id: q.hand, hand_no: q.hand_no, reason: q.reason, quarantined_ms: q.quarantined_ms, seq: q.seq, rule: q.rule, message: "quarantined by the service (its word, unsigned): the hand has no verifiable bundle" });
    hands.sort((a, b) => (a.hand_no ?? 0) - (b.hand_no ?? 0));
    return {
      ok: problem === null,
      club: m.club,
      table: m.table,
      game: m.game,
      checks,
      hands,
      quarantined,
      adjustments: carried,
      first_problem: checks.find((c) => c.ok === false) ?? null
    };
  }
  function readMatchEnvelope(m) {
    if (!isObj3(m)) return { rule: "unreadable", message: "the file is not a JSON object" };
    if (m.format !== MATCH_FORMAT || !(m.version === 1 || m.version === 2 || m.version === 3)) {
      return { rule: "unsupported", message: `an unsupported match file: format ${JSON.stringify(m.format)}, version ${JSON.stringify(m.version instanceof JsonNumber ? m.version.text : m.version)}` };
    }
    const required = ["format", "version", "club", "table", "game", "hands", ...m.version === 2 ? ["quarantined"] : []];
    const optional = m.version === 3 ? ["quarantined", "rulings", "ruling_keys", "trailing_adjustments"] : [];
    for (const k of required) if (!has3(m, k)) return { rule: "unreadable", message: `the match file has no member "${k}"` };
    for (const k of Object.keys(m)) if (!required.includes(k) && !optional.includes(k)) return { rule: "unreadable", message: `the match file has an unknown member "${k}"` };
    if (m.version === 3) {
      for (const k of ["rulings", "ruling_keys", "trailing_adjustments"]) {
        if (has3(m, k) && !Array.isArray(m[k])) return { rule: "unreadable", message: `${k} is not an array` };
      }
      for (const r of m.rulings ?? []) {
        if (!isObj3(r) || !isObj3(r.entry) || !isObj3(r.entry.body) || !isLowerHex(r.hash, 64) || typeof r.signer !== "string" || !isLowerHex(r.sig, 128)) {
          return { rule: "unreadable", message: "a ruling is not a signed dispute entry {entry, hash, signer, sig}" };
        }
      }
      for (const k of m.ruling_keys ?? []) {
        if (!isObj3(k) || typeof k.key_id !== "string" || !isLowerHex(k.public_key, 64) || keyIdOf(fromHex(k.public_key)) !== k.key_id) {
          return { rule: "unreadable", message: "a ruling key is not {key_id, public_key} with its own id" };
        }
      }
      if ((m.trailing_adjustments ?? []).some((a) => !isAdjustment(a))) return { rule: "unreadable", message: "a trailing adjustment is not {dispute, seq, hash, award}" };
    }
    if (typeof m.club !== "string" || typeof m.table !== "string") return { rule: "unreadable", message: "club and table are strings" };
    if (!GAME_IDS.includes(m.game)) return { rule: "unreadable", message: `game ${JSON.stringify(m.game)} is not a game id` };
    if (!Array.isArray(m.hands) || m.hands.length === 0) return { rule: "unreadable", message: "hands is not a non-empty array" };
    if (m.version === 2) {
      if (!Array.isArray(m.quarantined) || m.quarantined.length === 0) return { rule: "unreadable", message: "quarantined is not a non-empty array" };
      const names = ["hand", "hand_no", "reason", "quarantined_ms", "seq", "rule"];
      for (const q of m.quarantined) {
        if (!isObj3(q) || names.some((k) => !has3(q, k)) || Object.keys(q).some((k) => !names.includes(k))) {
          return { rule: "unreadable", message: "a quarantined entry is not {hand, hand_no, reason, quarantined_ms, seq, rule}" };
        }
        if (typeof q.hand !== "string" || !Number.isInteger(q.hand_no) || typeof q.reason !== "string" || typeof q.rule !== "string") {
          return { rule: "unreadable", message: "a quarantined entry of the wrong types" };
        }
      }
    }
    return null;
  }
  function startBody(h2) {
    const b = isObj3(h2) && Array.isArray(h2.records) && isObj3(h2.records[0]) && isObj3(h2.records[0].event) ? h2.records[0].event.body : null;
    return isObj3(b) && b.type === "hand_started" ? b : null;
  }
  function lastBody(h2, type) {
    if (!isObj3(h2) || !Array.isArray(h2.records)) return null;
    for (const r of h2.records) if (isObj3(r?.event?.body) && r.event.body.type === type) return r.event.body;
    return null;
  }
  function rulingKeys(m, opts) {
    const trusted = opts.trustedKeys ?? [];
    if (trusted.length) return trusted.map((k) => String(k).toLowerCase());
    const out = (m.ruling_keys ?? []).map((k) => k.public_key);
    for (const h2 of m.hands) for (const k of isObj3(h2) && Array.isArray(h2.keys) ? h2.keys : []) if (isObj3(k) && isLowerHex(k.public_key, 64)) out.push(k.public_key);
    return out;
  }
  function leftOf(h2) {
    const ended = lastBody(h2, "hand_ended");
    return ended ? ended.next_match : startBody(h2).match_state;
  }
  function hokmApply(rules, state2, award) {
    if (!isObj3(state2) || !Array.isArray(state2.seating) || !Array.isArray(state2.scores) || !isObj3(rules)) return null;
    if (state2.seating.length === 2 && rules.deuce_2p !== "off") return null;
    const s = JSON.parse(JSON.stringify(state2));
    const sideOf3 = (seat2) => s.seating.length === 4 ? s.seating.indexOf(seat2) % 2 : seat2;
    for (const g of award.beneficiaries) s.scores[sideOf3(g[0])] += award.points;
    const best = Math.max(...s.scores);
    if (best >= rules.target_points) {
      const side = s.scores.indexOf(best);
      s.rounds[side] = Math.min(s.rounds[side] + 1, 3);
      s.scores = s.scores.map(() => 0);
      s.deuce = false;
      if (s.rounds[side] >= rules.rounds_to_win) {
        s.over = true;
        s.winner = side;
      } else if (rules.new_round_hakem === "redraw") {
        s.hakem = null;
      }
    }
    return s;
  }
  function carryInto(m, i, id, adjustments, earlier, rules, state2, keys, done, carried) {
    let now = state2;
    for (const a of adjustments) {
      const named = `dispute ${a.dispute} entry ${a.seq} (${a.hash})`;
      const r = (m.rulings ?? []).find((x) => x.hash === a.hash);
      if (!r) return { problem: prob(i, id, "adjustment_entry", `the signed ruling entry ${named} among the file's rulings`, "no entry with that hash") };
      const e = r.entry;
      let h2;
      try {
        h2 = toHex(sha2562(ENTRY_HASH_TAG, canonicalBytes(e)));
      } catch {
        h2 = null;
      }
      if (h2 !== r.hash || e.dispute !== a.dispute || e.seq !== a.seq || e.club !== m.club) {
        return { problem: prob(i, id, "adjustment_entry", `entry ${named} of club ${m.club}, hashing to its hash`, `dispute ${e.dispute} entry ${e.seq} hashing to ${h2}`) };
      }
      const key = keys.find((k) => keyIdOf(fromHex(k)) === r.signer);
      if (!key || !verifyStrict(fromHex(key), fromHex(r.sig), concat(ENTRY_SIG_TAG, fromHex(r.hash)))) {
        return { problem: prob(i, id, "adjustment_signature", `entry ${named} signed by a trusted key or one of the file's`, `a signature by ${r.signer} that does not verify so`) };
      }
      const b = e.body;
      let official = false;
      if (b.type === "ruling" && isObj3(b.official) && isLowerHex(b.official.public_key, 64) && isLowerHex(b.official_sig, 128)) {
        const terms = { club: e.club, decision: b.decision, dispute: e.dispute, hand: e.hand, official: b.official, penalty: has3(b, "penalty") ? b.penalty : null, prev: e.prev, reason: b.reason, seq: e.seq };
        try {
          official = verifyStrict(fromHex(b.official.public_key), fromHex(b.official_sig), concat(RULING_SIG_TAG, canonicalBytes(terms)));
        } catch {
          official = false;
        }
      }
      if (!official) return { problem: prob(i, id, "adjustment_official", `entry ${named} signed by its official over the ruling message`, "a signature that does not verify") };
      if (!earlier.includes(e.hand)) return { problem: prob(i, id, "adjustment_hand", `entry ${named} ruling on an earlier hand of this match`, `a ruling on hand ${e.hand}`) };
      if (done.has(e.dispute)) return { problem: prob(i, id, "adjustment_twice", `dispute ${e.dispute}'s award carried into the match once`, `entry ${e.seq} of it carried again`) };
      if (b.decision !== "penalty" || !jsonEqual(b.award, a.award)) {
        return { problem: prob(i, id, "adjustment_award", "a penalty ruling whose award is the one carried", `${JSON.stringify(b.award ?? null)} in the entry, ${JSON.stringify(a.award)} in the hand`) };
      }
      const after = m.game === "hokm" ? hokmApply(rules, now, a.award) : void 0;
      if (after === void 0) return { problem: prob(i, id, "adjustment_award", `an award the rules of ${m.game} carry into the match`, "the rules of this game give no penalty") };
      done.add(e.dispute);
      carried.push({ applied_by: i < m.hands.length ? id : null, ruled_hand: e.hand, dispute: e.dispute, seq: e.seq, hash: a.hash, award: a.award, official: b.official.name, reason: b.reason });
      now = after;
    }
    return { state: now };
  }
  function links(m, verdicts, quarantined, keys = [], carried = []) {
    const done = /* @__PURE__ */ new Set();
    const ids = m.hands.map((h2) => isObj3(h2) ? h2.hand : null);
    const qNos = /* @__PURE__ */ new Set();
    const qIds = /* @__PURE__ */ new Set();
    for (const q of quarantined) {
      if (q.hand_no < 1 || qNos.has(q.hand_no) || qIds.has(q.hand) || ids.includes(q.hand)) {
        return prob(null, q.hand, "quarantined", "each quarantined hand listed once, with a number of its own, not among the hands", `hand ${JSON.stringify(q.hand)} (number ${q.hand_no})`);
      }
      qNos.add(q.hand_no);
      qIds.add(q.hand);
    }
    let prevNo = 0;
    for (let i = 0; i < m.hands.length; i++) {
      const h2 = m.hands[i];
      const v = verdicts[i];
      const id = ids[i];
      if (!v.ok) return prob(i, id, "hand", "a hand that verifies", v.first_problem ? v.first_problem.message : "a hand that does not", { in_hand: v.first_problem, seq: v.first_problem ? v.first_problem.seq : null });
      if (v.status !== "completed" && v.status !== "abandoned") return prob(i, id, "hand", "a finished hand", `status ${v.status}`);
      const b = startBody(h2);
      if (b.club !== m.club || b.table !== m.table || b.game !== m.game) {
        return prob(i, id, "match_header", `club ${m.club}, table ${m.table}, game ${m.game}`, `club ${b.club}, table ${b.table}, game ${b.game}`);
      }
      let want = prevNo + 1;
      while (qNos.has(want)) want++;
      if (b.hand_no !== want) return prob(i, id, "hand_no", `hand_no ${want}`, `hand_no ${b.hand_no}`);
      if (i === 0) {
        if (has3(b, "prev_hand")) return prob(i, id, "prev_hand", "no prev_hand in the first hand", JSON.stringify(b.prev_hand));
        if (has3(b, "adjustments")) return prob(i, id, "adjustment_hand", "no penalty ruling carried before the match's first hand", `dispute ${b.adjustments[0].dispute} entry ${b.adjustments[0].seq}`);
      } else {
        const ph = m.hands[i - 1];
        const lastHash = toHex(eventHash(ph.records[ph.records.length - 1].event));
        const want4 = { hand: ids[i - 1], hash: lastHash };
        if (!has3(b, "prev_hand") || !jsonEqual(b.prev_hand, want4)) return prob(i, id, "prev_hand", JSON.stringify(want4), has3(b, "prev_hand") ? JSON.stringify(b.prev_hand) : "none");
        const pb = startBody(ph);
        if (!jsonEqual(b.rules, pb.rules) || !jsonEqual(b.seats, pb.seats)) return prob(i, id, "same_match", "the rules and seats of the hand before", "others");
        let left = leftOf(ph);
        if (has3(b, "adjustments")) {
          const c = carryInto(m, i, id, b.adjustments, ids.slice(0, i), b.rules, left, keys, done, carried);
          if (c.problem) return c.problem;
          left = c.state;
        }
        if (left !== null && !jsonEqual(b.match_state, left)) return prob(i, id, "match_state", JSON.stringify(left), JSON.stringify(b.match_state));
      }
      const c8 = chainLink(m, i, b, prevNo);
      if (c8) return c8;
      prevNo = b.hand_no;
    }
    for (const q of quarantined) {
      if (q.hand_no > prevNo) return prob(null, q.hand, "hand_no", `a quarantined hand numbered at most ${prevNo}`, `number ${q.hand_no}`);
    }
    const trailing = m.version === 3 ? m.trailing_adjustments ?? [] : [];
    if (trailing.length) {
      const last = m.hands[m.hands.length - 1];
      const c = carryInto(m, m.hands.length, "(after the last hand)", trailing, ids, startBody(last).rules, leftOf(last), keys, done, carried);
      if (c.problem) return c.problem;
    }
    return null;
  }
  function chainLink(m, i, b, prevNo) {
    const id = m.hands[i].hand;
    const sc = has3(b, "seed_chain") ? b.seed_chain : null;
    const pb = i > 0 ? startBody(m.hands[i - 1]) : null;
    const psc = pb && has3(pb, "seed_chain") ? pb.seed_chain : null;
    if (i > 0 && sc === null !== (psc === null)) return prob(i, id, "seed_chain", psc ? "a chained hand after a chained one" : "no chain after a hand without one", sc ? "a chained hand" : "a hand without a chain");
    if (!sc) return null;
    const seed = fromHex(lastBody(m.hands[i], "seeds_revealed").chain_seed);
    const d = b.hand_no - prevNo;
    const walkToAnchor = () => {
      const a = toHex(chainWalk(seed, sc.position, sc.position));
      return a === sc.anchor ? null : prob(i, id, "seed_chain_anchor", `anchor ${sc.anchor}`, `the chain seed walks down to ${a}`);
    };
    if (i === 0) {
      if (sc.position !== b.hand_no) return prob(i, id, "seed_chain", `position ${b.hand_no} (the hand's number)`, `position ${sc.position}`);
      return walkToAnchor();
    }
    if (sc.anchor === psc.anchor && sc.length === psc.length) {
      if (sc.position !== psc.position + d) return prob(i, id, "seed_chain", `position ${psc.position + d}`, `position ${sc.position}`);
      const prevSeed = lastBody(m.hands[i - 1], "seeds_revealed").chain_seed;
      const w = toHex(chainWalk(seed, sc.position, d));
      if (w !== prevSeed) return prob(i, id, "seed_chain_link", `the previous hand's chain seed ${prevSeed}`, w);
      return null;
    }
    if (psc.length - psc.position + sc.position !== d) {
      return prob(i, id, "seed_chain", `a new chain after the old one is used up (old length - old position + new position = ${d})`, `${psc.length} - ${psc.position} + ${sc.position}`);
    }
    return walkToAnchor();
  }

  // src/games/bist-o-yek.js
  var bist_o_yek_exports = {};
  __export(bist_o_yek_exports, {
    actionText: () => actionText,
    endText: () => endText,
    evolve: () => evolve,
    init: () => init,
    points: () => points,
    shuffleText: () => shuffleText,
    total: () => total,
    view: () => view
  });

  // src/games/zones.js
  var NOBODY = Object.freeze({ everyone: false, seats: 0 });
  var EVERYONE = Object.freeze({ everyone: true, seats: 0 });
  var seenBy = (seat2) => ({ everyone: false, seats: 2 ** seat2 });
  var seenAnd = (s, seat2) => ({ everyone: s.everyone, seats: s.seats | 2 ** seat2 });
  var seenByViewer = (s, viewer) => viewer === "all" || s.everyone || typeof viewer === "object" && viewer !== null && (s.seats & 2 ** viewer.seat) !== 0;
  var KIND_ORDER = { stock: 0, hand: 1, pile: 2, table: 3, trick: 4, won: 5, discard: 6, out: 7 };
  var Z = {
    stock: "stock",
    hand: (s) => `hand:${s}`,
    pile: (n2) => `pile:${n2}`,
    table: "table",
    trick: "trick",
    won: (s) => `won:${s}`,
    discard: "discard",
    out: "out"
  };
  var zoneKey = (z) => {
    const [k, n2] = z.split(":");
    return [KIND_ORDER[k], n2 === void 0 ? -1 : Number(n2)];
  };
  var cmpZone = (a, b) => {
    const [ka, na] = zoneKey(a);
    const [kb, nb] = zoneKey(b);
    return ka - kb || na - nb;
  };
  var sameRef = (a, b) => a.shuffle === b.shuffle && a.pos === b.pos;
  var Zones = class {
    constructor() {
      this.z = /* @__PURE__ */ new Map();
    }
    list(zone) {
      if (!this.z.has(zone)) this.z.set(zone, []);
      return this.z.get(zone);
    }
    cards(zone) {
      return this.z.get(zone) ?? [];
    }
    len(zone) {
      return this.cards(zone).length;
    }
    zoneIds() {
      return [...this.z.keys()].sort(cmpZone);
    }
    install(zone, shuffle, order, seen) {
      const l = this.list(zone);
      order.forEach((face, pos) => l.push({ r: { shuffle, pos }, face, seen }));
    }
    find(r) {
      for (const z of this.zoneIds()) {
        const p = this.cards(z).find((c) => sameRef(c.r, r));
        if (p) return { zone: z, card: p };
      }
      return null;
    }
    get(zone, r) {
      return this.cards(zone).find((c) => sameRef(c.r, r)) ?? null;
    }
    moveCard(from, r, to, seen) {
      const l = this.cards(from);
      const i = l.findIndex((c2) => sameRef(c2.r, r));
      if (i < 0) return null;
      const [c] = l.splice(i, 1);
      c.seen = seen;
      this.list(to).push(c);
      return c;
    }
    moveTop(from, n2, to, seen) {
      const l = this.cards(from);
      if (l.length < n2) return null;
      const taken = l.splice(0, n2);
      for (const c of taken) c.seen = seen;
      this.list(to).push(...taken);
      return taken;
    }
    moveAll(from, to, seen) {
      return this.moveTop(from, this.len(from), to, seen) ?? [];
    }
    setSeenWith(r, f) {
      for (const z of this.zoneIds()) {
        const c = this.cards(z).find((x) => sameRef(x.r, r));
        if (c) {
          c.seen = f(c.seen);
          return true;
        }
      }
      return false;
    }
    reveal(r) {
      return this.setSeenWith(r, () => EVERYONE);
    }
    showTo(r, seat2) {
      return this.setSeenWith(r, (s) => seenAnd(s, seat2));
    }
    setSeenAll(zone, seen) {
      for (const c of this.cards(zone)) c.seen = seen;
    }
    relabel(zone, shuffle, order, seen) {
      const l = this.list(zone);
      l.length = 0;
      order.forEach((face, pos) => l.push({ r: { shuffle, pos }, face, seen }));
    }
    reshuffleAll(zone, shuffle, order, seen) {
      this.z.clear();
      this.install(zone, shuffle, order, seen);
    }
    /** The core's generic view: every zone with a card, each card with its face where the viewer may see it. */
    view(viewer) {
      return this.zoneIds().filter((z) => this.len(z) > 0).map((z) => ({ ...zoneJson(z), cards: this.zoneView(z, viewer) }));
    }
    zoneView(zone, viewer) {
      return this.cards(zone).map((p) => cardViewCore(p, viewer));
    }
  };
  function zoneJson(z) {
    const [k, n2] = z.split(":");
    return n2 === void 0 ? { zone: k } : { zone: k, of: Number(n2) };
  }
  function cardViewCore(p, viewer) {
    const v = { ref: { shuffle: p.r.shuffle, pos: p.r.pos } };
    if (seenByViewer(p.seen, viewer)) v.face = p.face;
    return v;
  }
  var viewerJson = (v) => typeof v === "object" ? { seat: v.seat } : v;

  // src/games/text.js
  var FA_DIGITS = "۰۱۲۳۴۵۶۷۸۹";
  var faNum = (n2) => String(n2).replace(/[0-9]/g, (d) => FA_DIGITS[d]);
  var RANK_EN = { J: "jack", Q: "queen", K: "king", A: "ace" };
  var SUIT_EN = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  var RANK_FA = { J: "سرباز", Q: "بی‌بی", K: "شاه", A: "تک" };
  var SUIT_FA = { S: "پیک", H: "دل", D: "خشت", C: "خاج" };
  function cardEn(c) {
    if (c === "BJ") return "black joker";
    if (c === "CJ") return "coloured joker";
    const r = c.slice(0, -1);
    return `${RANK_EN[r] ?? r} of ${SUIT_EN[c.slice(-1)]} (${c})`;
  }
  function cardFa(c) {
    if (c === "BJ") return "ژوکر سیاه";
    if (c === "CJ") return "ژوکر رنگی";
    const r = c.slice(0, -1);
    return `${RANK_FA[r] ?? faNum(r)} ${SUIT_FA[c.slice(-1)]}`;
  }
  var suitEn = (s) => SUIT_EN[s] ?? s;
  var suitFa = (s) => SUIT_FA[s] ?? s;
  function seatName(seats, seat2) {
    const p = seats?.[seat2]?.player ? `⁨${seats[seat2].player}⁩` : null;
    return {
      en: p ? `${p} (seat ${seat2})` : `seat ${seat2}`,
      fa: p ? `${p} (صندلی ${faNum(seat2)})` : `صندلی ${faNum(seat2)}`
    };
  }
  var GAME_FA = { "bist-o-yek": "بیست و یک", hokm: "حکم", bluff: "بلوف", shelem: "شلم", ghahve: "قهوه", pasur: "پاسور", "haft-khabis": "هفت خبیث", sheytoonak: "شیطونک" };
  function dealerText(body, seats, actionText7, shuffleText7, endText7) {
    switch (body.type) {
      case "hand_started":
        return {
          en: `Hand ${body.hand_no} of ${body.game} starts at ${body.table} (${body.seats.length} seats); the dealer commits to shuffle 0`,
          fa: `دست ${faNum(body.hand_no)} ${GAME_FA[body.game] ?? body.game} با ${faNum(body.seats.length)} بازیکن شروع شد؛ تعهد بُر ۰ منتشر شد`
        };
      case "client_seed": {
        const w = seatName(seats, body.seat);
        return { en: `${w.en} adds a seed to shuffle ${body.shuffle}`, fa: `${w.fa} دانه‌ای به بُر ${faNum(body.shuffle)} افزود` };
      }
      case "shuffled":
        if (shuffleText7) {
          const t2 = shuffleText7(body, seats);
          if (t2) return t2;
        }
        return {
          en: `Shuffle ${body.shuffle} is used (${body.reason}, ${body.cards} cards)`,
          fa: `بُر ${faNum(body.shuffle)} زده شد (${faNum(body.cards)} برگ)`
        };
      case "shuffle_committed":
        return { en: `The dealer commits to shuffle ${body.shuffle}`, fa: `تعهد بُر ${faNum(body.shuffle)} منتشر شد` };
      case "action":
        return actionText7(body, seats);
      case "private_action": {
        const w = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
        return { en: `${w.en} makes a secret choice`, fa: `${w.fa} انتخابی پنهان کرد` };
      }
      case "hand_ended": {
        const t2 = endText7 ? endText7(body.outcome, seats) : null;
        return t2 ? { en: `The hand is over: ${t2.en}`, fa: `دست تمام شد: ${t2.fa}` } : { en: "The hand is over", fa: "دست تمام شد" };
      }
      case "abandoned":
        return { en: `The hand is abandoned: ${body.reason}`, fa: `دست رها شد: ${body.reason}` };
      case "seeds_revealed":
        return { en: `The dealer reveals the seeds of ${body.seeds.length} shuffle(s): every deck can be checked`, fa: `دانه‌های ${faNum(body.seeds.length)} بُر فاش شد: هر دسته قابل بررسی است` };
      default:
        return { en: body.type, fa: body.type };
    }
  }

  // src/games/bist-o-yek.js
  var DECK_SIZE = 36;
  var STOCK = Z.stock;
  var DISCARD = Z.discard;
  var BANKER_UP = Z.table;
  var hiddenZone = (b) => Z.hand(b);
  var waitingZone = (s) => Z.pile(s);
  var duelZone = (p) => Z.hand(p);
  function points(card) {
    const r = card.slice(0, -1);
    return { 6: 6, 7: 7, 8: 8, 9: 9, 10: 10, J: 2, Q: 3, K: 4, A: 11 }[r] ?? 0;
  }
  function total(cards) {
    const aces = cards.filter((c) => c.startsWith("A")).length;
    if (cards.length === 2 && aces === 2) return 21;
    return cards.reduce((a, c) => a + points(c), 0);
  }
  var sat = (x) => Math.max(0, x);
  function init(start2) {
    const m = start2.match_state;
    return {
      rules: start2.rules,
      seats: m.seats,
      turn: m.turn,
      balance: [...m.balances],
      bank: 0,
      stake: 0,
      escrow: [],
      banker: null,
      candidate: m.candidate,
      declines: m.declines,
      khabar: false,
      round: 0,
      shuffles: 0,
      zones: new Zones(),
      queue: [],
      carried: false,
      duel: null,
      phase: { name: "bank_offer" },
      taken: null,
      end: null
    };
  }
  var bal = (s, seat2) => s.balance[seat2] ?? 0;
  var betLimits = (s) => {
    const lo = Math.min(s.rules.min_bet, s.bank);
    const hi = s.rules.max_bet === "whole_bank" ? s.bank : Math.min(s.bank, s.rules.max_bet.fixed);
    return [lo, hi];
  };
  var stakeCap = (s) => s.rules.max_bet === "whole_bank" ? null : s.rules.max_bet.fixed;
  var threshold = (s) => s.rules.khabar_multiple * s.stake;
  var exposure = (s) => s.escrow.reduce((a, x) => a + x.amount, 0);
  var hidden = (s) => s.banker === null ? null : s.zones.cards(hiddenZone(s.banker))[0] ?? null;
  var duelCards = (s) => s.duel ? s.zones.cards(duelZone(s.duel.player)) : [];
  function draw(s, to, seen) {
    s.zones.moveTop(STOCK, 1, to, seen);
  }
  function discard(s, at) {
    const f = s.zones.find(at);
    if (!f || f.zone === STOCK || f.zone === DISCARD) return;
    if (s.banker !== null && f.zone === hiddenZone(s.banker)) s.carried = false;
    s.zones.moveCard(f.zone, at, DISCARD, f.card.seen);
  }
  function evolve(s, e, order) {
    switch (e.type) {
      case "bank_declined":
        s.declines = e.declines;
        break;
      case "bank_offered":
        s.candidate = e.candidate;
        s.declines = e.declines;
        break;
      case "bank_accepted":
        s.balance[e.banker] = sat(bal(s, e.banker) - e.stake);
        s.bank += e.stake;
        s.stake = e.stake;
        s.banker = e.banker;
        s.declines = 0;
        break;
      case "phase":
        s.phase = e.phase;
        break;
      case "shuffled":
        if (order) {
          if (e.reason !== "restock") {
            s.carried = false;
            if (s.shuffles === 0) s.zones.install(STOCK, e.shuffle, order, NOBODY);
            else s.zones.reshuffleAll(STOCK, e.shuffle, order, NOBODY);
          } else {
            s.zones.relabel(DISCARD, e.shuffle, order, NOBODY);
            s.zones.moveAll(DISCARD, STOCK, NOBODY);
          }
        }
        s.shuffles = e.shuffle + 1;
        break;
      case "khabar_announced":
        s.khabar = true;
        break;
      case "round_dealt":
        s.round = e.round;
        s.queue = [...e.queue];
        break;
      case "hidden_dealt":
        if (s.banker !== null) {
          draw(s, hiddenZone(s.banker), seenBy(s.banker));
          s.carried = false;
        }
        break;
      case "waiting_dealt":
        draw(s, waitingZone(e.seat), seenBy(e.seat));
        break;
      case "player_skipped": {
        const i = s.queue.indexOf(e.seat);
        if (i >= 0) s.queue.splice(i, 1);
        break;
      }
      case "duel_opened": {
        const i = s.queue.indexOf(e.player);
        if (i >= 0) s.queue.splice(i, 1);
        s.duel = { player: e.player, swap_offered: false, side_open: false };
        break;
      }
      case "swap_offered":
        if (s.duel) s.duel.swap_offered = true;
        break;
      case "swapped":
        discard(s, e.card);
        break;
      case "first_card":
        s.zones.moveCard(waitingZone(e.seat), e.card, duelZone(e.seat), seenBy(e.seat));
        break;
      case "player_card_dealt":
        draw(s, duelZone(e.seat), e.face !== void 0 ? EVERYONE : seenBy(e.seat));
        break;
      case "card_exposed":
        if (s.zones.get(duelZone(e.seat), e.card)) s.zones.reveal(e.card);
        break;
      case "bet_placed":
        s.balance[e.seat] = sat(bal(s, e.seat) - e.amount);
        s.escrow.push({ seat: e.seat, amount: e.amount, main: true });
        break;
      case "side_bets_opened":
        if (s.duel) s.duel.side_open = true;
        break;
      case "side_bets_closed":
        if (s.duel) s.duel.side_open = false;
        break;
      case "side_bet_placed":
        s.balance[e.seat] = sat(bal(s, e.seat) - e.amount);
        s.escrow.push({ seat: e.seat, amount: e.amount, main: false });
        break;
      case "hidden_revealed":
        if (s.banker !== null) {
          s.zones.moveAll(hiddenZone(s.banker), BANKER_UP, EVERYONE);
          s.carried = false;
        }
        break;
      case "banker_drew":
        draw(s, BANKER_UP, EVERYONE);
        break;
      case "hand_shown":
        s.zones.setSeenAll(duelZone(e.seat), EVERYONE);
        break;
      case "settled": {
        const i = s.escrow.findIndex((x) => x.seat === e.seat);
        if (i >= 0) s.escrow.splice(i, 1);
        if (e.seat < s.balance.length) s.balance[e.seat] += e.escrow_to_owner + e.bank_to_owner;
        s.bank = sat(s.bank + e.escrow_to_bank - e.bank_to_owner);
        break;
      }
      case "banker_card_carried":
        if (hidden(s)) s.carried = true;
        break;
      case "discarded":
        for (const c of e.cards) discard(s, c);
        break;
      case "duel_closed":
        s.duel = null;
        break;
      case "bank_taken":
        s.bank = sat(s.bank - e.amount);
        if (e.banker < s.balance.length) s.balance[e.banker] += e.amount;
        s.taken = e.amount;
        break;
      case "turn_ended":
        s.end = e.reason;
        s.khabar = false;
        s.queue = [];
        s.phase = { name: "turn_over" };
        break;
      case "match_ended":
        s.end = e.reason;
        s.queue = [];
        s.phase = { name: "match_over" };
        break;
      default:
        break;
    }
  }
  function sideBetOk(s, seat2) {
    const d = s.duel;
    if (!d || !s.rules.side_bets || !d.side_open || seat2 >= s.seats || seat2 === s.banker || seat2 === d.player || s.escrow.some((x) => x.seat === seat2)) return false;
    const min = s.rules.min_bet;
    let max = Math.min(bal(s, seat2), sat(s.bank - exposure(s)));
    const cap = stakeCap(s);
    if (cap !== null) max = Math.min(max, cap);
    return min <= max;
  }
  function canAct(s, actor2) {
    const seat2 = actor2 !== "service" && actor2 < s.seats ? actor2 : null;
    const is = (who2) => seat2 !== null && who2 !== null && seat2 === who2;
    const p = s.duel ? s.duel.player : null;
    switch (s.phase.name) {
      case "bank_offer":
        return actor2 === "service" || is(s.candidate);
      case "round_start":
        return actor2 === "service" || is(s.banker);
      case "swap_decision":
      case "face_choice":
      case "banker_turn":
        return is(s.banker);
      case "await_bet": {
        if (!is(p)) return false;
        const [lo, hi] = betLimits(s);
        return lo <= Math.min(hi, bal(s, seat2));
      }
      case "player_turn":
        if (is(p)) return true;
        return seat2 !== null && sideBetOk(s, seat2);
      case "await_suz":
        return is(p);
      default:
        return false;
    }
  }
  function toAct(s) {
    if (s.phase.name === "await_shuffle") return [];
    const n2 = s.phase.name;
    const main = n2 === "bank_offer" ? s.candidate : ["round_start", "swap_decision", "face_choice", "banker_turn"].includes(n2) ? s.banker : ["await_bet", "player_turn", "await_suz"].includes(n2) ? s.duel ? s.duel.player : null : null;
    const out = [];
    if (main !== null && canAct(s, main)) out.push({ seat: main });
    for (let i = 0; i < s.seats; i++) if (i !== main && canAct(s, i)) out.push({ seat: i });
    if (canAct(s, "service")) out.push("service");
    return out;
  }
  var cardView = (p, viewer) => {
    const v = { card: { ...p.r }, face_up: p.seen.everyone };
    if (seenByViewer(p.seen, viewer)) v.face = p.face;
    return v;
  };
  function view(s, viewer = "all") {
    const waiting = [];
    for (let seat2 = 0; seat2 < s.seats; seat2++) {
      const p = s.zones.cards(waitingZone(seat2))[0];
      if (p) waiting.push({ seat: seat2, card: cardView(p, viewer) });
    }
    const v = {
      viewer: viewerJson(viewer),
      turn: s.turn,
      round: s.round,
      phase: s.phase,
      to_act: toAct(s),
      balances: [...s.balance],
      bank: s.bank,
      stake: s.stake,
      banker: s.banker,
      candidate: s.candidate,
      declines: s.declines,
      khabar: s.khabar
    };
    if (s.banker !== null) {
      v.khabar_threshold = threshold(s);
      const [lo, hi] = betLimits(s);
      v.bet_limits = { lo, hi };
    }
    v.escrow = s.escrow.map((x) => ({ ...x }));
    v.queue = [...s.queue];
    v.waiting = waiting;
    const h2 = hidden(s);
    if (h2) v.hidden = { card: cardView(h2, viewer), carried: s.carried };
    if (s.duel) {
      const hand = duelCards(s);
      const whole = hand.every((p) => seenByViewer(p.seen, viewer));
      v.duel = { player: s.duel.player, cards: hand.map((p) => cardView(p, viewer)) };
      if (whole && hand.length > 0) v.duel.total = total(hand.map((p) => p.face));
      v.duel.side_open = s.duel.side_open;
      v.duel.swap_offered = s.duel.swap_offered;
    }
    const up = s.zones.cards(BANKER_UP);
    v.banker_cards = up.map((p) => cardView(p, viewer));
    if (up.length > 0 && up.every((p) => seenByViewer(p.seen, viewer))) v.banker_total = total(up.map((p) => p.face));
    v.stock = s.zones.len(STOCK);
    v.discard = s.shuffles === 0 ? DECK_SIZE : s.zones.len(DISCARD);
    v.discard_seen = s.zones.cards(DISCARD).filter((p) => p.seen.everyone).map((p) => p.face);
    return v;
  }
  var money = (n2) => n2.toLocaleString("en-US");
  var moneyFa = (n2) => n2.toLocaleString("fa-IR");
  function actionText(body, seats) {
    const a = body.action;
    const who2 = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
    const eff = (t2) => body.effects.filter((e) => e.type === t2);
    const shown = (e) => ({ en: cardEn(e.face), fa: cardFa(e.face) });
    switch (a.type) {
      case "accept_bank": {
        const st = eff("bank_accepted")[0]?.stake ?? 0;
        return { en: `${who2.en} takes the bank, posting ${money(st)} toman`, fa: `${who2.fa} بانکدار شد و ${moneyFa(st)} تومان بانک گذاشت` };
      }
      case "decline_bank":
        return { en: `${who2.en} declines the bank`, fa: `${who2.fa} بانک را قبول نکرد` };
      case "announce_khabar":
        return { en: `${who2.en} announces bank khabar: one more round`, fa: `${who2.fa} بانک خبر داد: یک دور دیگر` };
      case "deal":
        return { en: `${who2.en} deals the round`, fa: `${who2.fa} دست را پخش کرد` };
      case "swap":
        return { en: `${who2.en} swaps his face-down card`, fa: `${who2.fa} برگ زیرش را عوض کرد` };
      case "keep":
        return { en: `${who2.en} keeps his face-down card`, fa: `${who2.fa} برگ زیرش را نگه داشت` };
      case "bet":
        return { en: `${who2.en} bets ${money(a.amount)} toman`, fa: `${who2.fa} ${moneyFa(a.amount)} تومان خواند` };
      case "side_bet":
        return { en: `${who2.en} side-bets ${money(a.amount)} toman`, fa: `${who2.fa} ${moneyFa(a.amount)} تومان کنار گذاشت` };
      case "hit": {
        const up = eff("player_card_dealt").find((e) => e.face);
        if (up) return { en: `${who2.en} hits: ${shown(up).en}, face up`, fa: `${who2.fa} برگ خواست: ${shown(up).fa}، رو` };
        return { en: `${who2.en} hits`, fa: `${who2.fa} برگ خواست` };
      }
      case "stand":
        return { en: `${who2.en} stands`, fa: `${who2.fa} ایستاد` };
      case "deal_face_up":
        return { en: `${who2.en} deals the next card face up`, fa: `${who2.fa} برگ بعدی را رو داد` };
      case "deal_face_down":
        return { en: `${who2.en} deals the next card face down`, fa: `${who2.fa} برگ بعدی را به پشت داد` };
      case "announce_suz":
        return { en: `${who2.en} says suz: over 21`, fa: `${who2.fa} گفت سوختم` };
      case "banker_hit": {
        const d = eff("banker_drew")[0];
        return d ? { en: `${who2.en} draws ${shown(d).en}`, fa: `${who2.fa} برگ کشید: ${shown(d).fa}` } : { en: `${who2.en} draws`, fa: `${who2.fa} برگ کشید` };
      }
      case "banker_stand": {
        const t2 = eff("banker_stood")[0]?.total;
        return { en: `${who2.en} stands${t2 !== void 0 ? ` at ${t2}` : ""}`, fa: `${who2.fa} ایستاد${t2 !== void 0 ? ` با ${t2.toLocaleString("fa-IR")}` : ""}` };
      }
      case "end_match":
        return { en: `${who2.en} ends the match`, fa: `${who2.fa} بازی را تمام کرد` };
      default:
        return { en: `${who2.en}: ${a.type}`, fa: `${who2.fa}: ${a.type}` };
    }
  }
  function shuffleText(body) {
    const k = body.shuffle;
    if (body.reason === "restock") {
      return { en: `The stock ran out: the ${body.cards} discards are shuffled into a new stock (shuffle ${k})`, fa: `دسته تمام شد: ${faNumLocal(body.cards)} برگ سوخته بُر خورد و دسته تازه شد (بُر ${faNumLocal(k)})` };
    }
    const why = { new_turn: ["a new banker's turn", "دست تازه بانکدار"], khabar: ["after bank khabar", "پس از بانک خبر"], round: ["a new round", "دور تازه"] }[body.reason] ?? [body.reason, body.reason];
    return { en: `All ${body.cards} cards are shuffled for ${why[0]} (shuffle ${k})`, fa: `هر ${faNumLocal(body.cards)} برگ برای ${why[1]} بُر خورد (بُر ${faNumLocal(k)})` };
  }
  var faNumLocal = (n2) => String(n2).replace(/[0-9]/g, (d) => "۰۱۲۳۴۵۶۷۸۹"[d]);
  function endText(o, seats) {
    if (!o || !Array.isArray(o.net)) return null;
    const sign = (n2) => n2 > 0 ? `+${n2}` : `${n2}`;
    const en = o.net.map((n2, i) => `${seatName(seats, i).en} ${sign(n2)}`).join(", ");
    const fa2 = o.net.map((n2, i) => `${seatName(seats, i).fa} ${n2 > 0 ? "+" : n2 < 0 ? "−" : ""}${Math.abs(n2).toLocaleString("fa-IR")}`).join("، ");
    return { en: `${en} toman`, fa: `${fa2} تومان` };
  }

  // src/games/hokm.js
  var hokm_exports = {};
  __export(hokm_exports, {
    actionText: () => actionText2,
    endText: () => endText2,
    evolve: () => evolve2,
    init: () => init2,
    shuffleText: () => shuffleText2,
    view: () => view2
  });
  var DRAW_PILE = Z.pile(0);
  var WITHHELD = Z.pile(1);
  var DRAWN = Z.table;
  var MAX_SCORE = 1e4;
  var clone = (v) => JSON.parse(JSON.stringify(v));
  var place = (s, t2) => Math.max(0, t2.indexOf(s));
  var plus = (s, k, t2) => t2.length ? t2[(place(s, t2) + k) % Math.max(1, t2.length)] : s;
  var right = (s, t2) => plus(s, 1, t2);
  var dealerOf = (h2, t2) => plus(h2, Math.max(0, t2.length - 1), t2);
  var cutterOf = (h2, t2) => plus(h2, Math.max(0, t2.length - 2), t2);
  var sides = (n2) => n2 === 4 ? 2 : n2;
  var sideOf = (seat2, t2) => t2.length === 4 ? place(seat2, t2) % 2 === 1 ? 1 : 0 : seat2;
  function init2(start2) {
    const m = start2.match_state;
    const n2 = m.seats;
    return {
      rules: start2.rules,
      n: n2,
      now: clone(m),
      zones: new Zones(),
      shuffles: 0,
      phase: { name: "await_shuffle", reason: m.hakem !== null && m.hakem !== void 0 ? "deal" : "draw" },
      hakem: m.hakem ?? null,
      draw_seats: [],
      deal_shuffle: null,
      deck_len: 0,
      cut: 0,
      redeals: 0,
      trump: null,
      method: null,
      leader: m.hakem ?? 0,
      won: new Array(n2).fill(0),
      bam: null,
      peeked: false,
      result: null,
      gained: new Array(sides(n2)).fill(0)
    };
  }
  var table = (s) => s.now.seating;
  var add2 = (v, i, p) => {
    if (i < v.length) v[i] = Math.min(v[i] + p, MAX_SCORE);
  };
  function moveKeepingSeen(s, from, to) {
    for (const p of [...s.zones.cards(from)]) s.zones.moveCard(from, p.r, to, p.seen);
  }
  function evolve2(s, e, order) {
    switch (e.type) {
      case "shuffled":
        if (order) s.zones.install(e.reason === "draw" ? DRAW_PILE : Z.stock, e.shuffle, order, NOBODY);
        if (e.reason === "deal") {
          s.deal_shuffle = e.shuffle;
          s.deck_len = e.cards;
          s.cut = 0;
        }
        s.shuffles = e.shuffle + 1;
        break;
      case "draw_card":
        s.zones.moveCard(DRAW_PILE, e.card.card, DRAWN, EVERYONE);
        s.draw_seats.push(e.seat);
        break;
      case "reseated":
        s.now.seating = [...e.seating];
        break;
      case "method_called":
        s.method = e.method;
        break;
      case "hakem_set":
        s.hakem = e.seat;
        s.leader = e.seat;
        break;
      case "cut_applied":
        s.zones.moveTop(Z.stock, e.k, Z.stock, NOBODY);
        s.cut = e.k;
        break;
      case "dealt":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
        break;
      case "withheld":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, WITHHELD, NOBODY);
        break;
      case "released":
        for (const r of e.cards) s.zones.moveCard(WITHHELD, r, Z.hand(e.seat), seenBy(e.seat));
        break;
      case "revealed":
        for (const c of e.cards) {
          if (s.zones.get(Z.stock, c.card)) s.zones.moveCard(Z.stock, c.card, Z.hand(e.seat), EVERYONE);
          else s.zones.reveal(c.card);
        }
        break;
      case "trump_fixed":
        s.trump = e.suit;
        s.method = e.method;
        break;
      case "deal_annulled":
        s.redeals = e.redeals;
        for (let i = 0; i < s.n; i++) moveKeepingSeen(s, Z.hand(i), Z.out);
        moveKeepingSeen(s, WITHHELD, Z.out);
        moveKeepingSeen(s, Z.stock, Z.out);
        s.deal_shuffle = null;
        s.trump = null;
        s.method = null;
        break;
      case "discarded":
        for (const r of e.cards) s.zones.moveCard(Z.hand(e.seat), r, Z.discard, seenBy(e.seat));
        break;
      case "offered":
        for (const r of e.cards) s.zones.showTo(r, e.seat);
        break;
      case "drawn":
        s.zones.moveCard(Z.stock, e.kept, Z.hand(e.seat), seenBy(e.seat));
        s.zones.moveCard(Z.stock, e.burned, Z.out, e.burned_seen_by === void 0 ? NOBODY : seenBy(e.burned_seen_by));
        break;
      case "peeked":
        for (const r of e.cards) s.zones.showTo(r, e.seat);
        s.peeked = true;
        break;
      case "played":
        s.zones.moveCard(Z.hand(e.seat), e.card.card, Z.trick, EVERYONE);
        break;
      case "trick_won":
        s.zones.moveAll(Z.trick, Z.won(e.seat), EVERYONE);
        if (e.seat < s.won.length) s.won[e.seat] += 1;
        s.leader = e.seat;
        break;
      case "bam_chosen":
        if (e.play_on) s.bam = sideOf(e.seat, table(s));
        break;
      case "hand_won":
        add2(s.now.scores, e.side, e.points);
        add2(s.gained, e.side, e.points);
        s.result = [e.side, e.kind];
        break;
      case "penalty_awarded":
        for (const side of e.sides) {
          add2(s.now.scores, side, e.points);
          add2(s.gained, side, e.points);
        }
        break;
      case "deuce_started":
        s.now.deuce = true;
        break;
      case "round_won":
        if (e.side < s.now.rounds.length) s.now.rounds[e.side] = Math.min(s.now.rounds[e.side] + 1, 3);
        s.now.scores = s.now.scores.map(() => 0);
        s.now.deuce = false;
        break;
      case "match_won":
        s.now.over = true;
        s.now.winner = e.side;
        break;
      case "next_hakem":
        s.now.hakem = e.seat;
        break;
      case "phase":
        s.phase = e.phase;
        break;
      default:
        break;
    }
  }
  var drawer = (s, turn) => {
    const h2 = s.hakem ?? 0;
    return turn % 2 === 1 ? h2 : right(h2, table(s));
  };
  var toPlay = (s) => plus(s.leader, s.zones.len(Z.trick), table(s));
  function mainActor(s) {
    const h2 = s.hakem;
    if (h2 === null) return null;
    switch (s.phase.name) {
      case "awaiting_cut":
        return cutterOf(h2, table(s));
      case "awaiting_trump":
      case "fallback_trump":
        return h2;
      case "awaiting_discard":
      case "awaiting_bam":
        return s.phase.seat;
      case "draw_turn":
        return drawer(s, s.phase.turn);
      case "awaiting_dealer_peek":
        return dealerOf(h2, table(s));
      case "playing":
        return toPlay(s);
      default:
        return null;
    }
  }
  function toAct2(s) {
    if (s.phase.name === "await_shuffle") return [];
    const out = [];
    const m = mainActor(s);
    if (m !== null) out.push({ seat: m });
    if (!s.now.over && s.phase.name !== "hand_over") out.push("service");
    return out;
  }
  function sideTricks(s) {
    const v = new Array(sides(s.n)).fill(0);
    s.won.forEach((w, i) => {
      const k = sideOf(i, table(s));
      if (k < v.length) v[k] += w;
    });
    return v;
  }
  function view2(s, viewer = "all") {
    const drawnCards = s.zones.zoneView(DRAWN, viewer);
    return {
      viewer: viewerJson(viewer),
      seats: s.n,
      phase: s.phase,
      to_act: toAct2(s),
      awaiting_shuffle: s.phase.name === "await_shuffle",
      hakem: s.hakem,
      dealer: s.hakem === null ? null : dealerOf(s.hakem, table(s)),
      trump: s.trump,
      method: s.method,
      cut: s.cut,
      redeals: s.redeals,
      leader: s.leader,
      tricks_won: [...s.won],
      side_tricks: sideTricks(s),
      bam: s.bam,
      trick: s.zones.zoneView(Z.trick, viewer),
      drawn: s.draw_seats.slice(0, drawnCards.length).map((seat2, i) => ({ seat: seat2, card: drawnCards[i] })),
      match: clone(s.now),
      zones: s.zones.view(viewer)
    };
  }
  function actionText2(body, seats) {
    const a = body.action;
    const who2 = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
    const eff = (t2) => body.effects.filter((e) => e.type === t2);
    switch (a.type) {
      case "cut":
        return { en: `${who2.en} cuts the deck at ${a.k}`, fa: `${who2.fa} دسته را از ${faNum(a.k)} کپ کرد` };
      case "declare_trump":
        return { en: `${who2.en} declares ${suitEn(a.suit)} trump`, fa: `${who2.fa} ${suitFa(a.suit)} را حکم کرد` };
      case "request_ten_low_redeal":
        return { en: `${who2.en} asks for a redeal (ten low)`, fa: `${who2.fa} درخواست پخش دوباره کرد (۱۰ لو کم)` };
      case "call_sar_ghermez":
        return { en: `${who2.en} calls sar-e ghermez`, fa: `${who2.fa} سر قرمز خواند` };
      case "call_sar_siah":
        return { en: `${who2.en} calls sar-e siah`, fa: `${who2.fa} سر سیاه خواند` };
      case "call_barg_vasat":
        return { en: `${who2.en} calls barg-e vasat`, fa: `${who2.fa} برگ وسط خواند` };
      case "call_ya":
        return { en: `${who2.en} calls ${suitEn(a.x)} or ${suitEn(a.y)}`, fa: `${who2.fa} یا ${suitFa(a.x)} یا ${suitFa(a.y)} خواند` };
      case "discard":
        return { en: `${who2.en} lays away ${a.cards.length} cards`, fa: `${who2.fa} ${faNum(a.cards.length)} برگ کنار گذاشت` };
      case "keep_first":
        return { en: `${who2.en} keeps the first card`, fa: `${who2.fa} برگ اول را برداشت` };
      case "take_second":
        return { en: `${who2.en} takes the second card`, fa: `${who2.fa} برگ دوم را برداشت` };
      case "choose_final":
        return { en: `${who2.en} chooses a last card`, fa: `${who2.fa} برگ آخر را انتخاب کرد` };
      case "peek_partner_packet":
        return { en: `${who2.en} looks at the partner's packet ${a.round}`, fa: `${who2.fa} به دسته یارش نگاه کرد` };
      case "decline_peek":
        return { en: `${who2.en} does not look`, fa: `${who2.fa} نگاه نکرد` };
      case "play": {
        const p = eff("played")[0];
        const won = eff("trick_won")[0];
        let en = p ? `${who2.en} plays the ${cardEn(p.card.face)}` : `${who2.en} plays`;
        let fa2 = p ? `${who2.fa} ${cardFa(p.card.face)} بازی کرد` : `${who2.fa} بازی کرد`;
        if (won) {
          const w = seatName(seats, won.seat);
          en += `; ${w.en} takes the trick`;
          fa2 += `؛ دست را ${w.fa} برد`;
        }
        const hw = eff("hand_won")[0];
        if (hw) {
          const four = seats?.length === 4;
          const side = four ? { en: ["Team A", "Team B"][hw.side], fa: ["تیم الف", "تیم ب"][hw.side] } : seatName(seats, hw.side);
          en += `; ${side.en ?? `side ${hw.side}`} wins the hand (${hw.kind}, ${hw.points} points)`;
          fa2 += `؛ ${side.fa ?? `تیم ${faNum(hw.side)}`} دست را برد${hw.kind === "kot" ? " (کوت)" : ""}`;
        }
        return { en, fa: fa2 };
      }
      case "continue_for_bam":
        return { en: `${who2.en} plays on for bam`, fa: `${who2.fa} برای بام ادامه داد` };
      case "end_hand":
        return { en: `${who2.en} ends the hand`, fa: `${who2.fa} دست را تمام کرد` };
      case "award_cheating_penalty":
        return { en: `${who2.en} awards a cheating penalty against seat ${a.offender}`, fa: `${who2.fa} جریمه تقلب برای صندلی ${faNum(a.offender)} داد` };
      default:
        return { en: `${who2.en}: ${a.type}`, fa: `${who2.fa}: ${a.type}` };
    }
  }
  function shuffleText2(body, seats) {
    if (body.reason === "draw") {
      const draws = body.effects.filter((e) => e.type === "draw_card");
      const hakem = body.effects.find((e) => e.type === "hakem_set");
      const h2 = hakem ? seatName(seats, hakem.seat) : null;
      return {
        en: `Cards are drawn for hakem: ${draws.map((d) => `seat ${d.seat} ${d.card.face}`).join(", ")}${h2 ? `; ${h2.en} is hakem` : ""}`,
        fa: `برای حاکم برگ کشیدند: ${draws.map((d) => `صندلی ${faNum(d.seat)} ${cardFa(d.card.face)}`).join("، ")}${h2 ? `؛ ${h2.fa} حاکم شد` : ""}`
      };
    }
    return { en: `The deck is shuffled for the deal (${body.cards} cards, shuffle ${body.shuffle})`, fa: `دسته برای پخش بُر خورد (${faNum(body.cards)} برگ)` };
  }
  function endText2(o, seats) {
    if (!o || o.winner === void 0 || o.winner === null) return null;
    const kot = o.kind && o.kind !== "plain" ? ` (${o.kind})` : "";
    const kotFa = o.kind === "kot" ? " (کوت)" : o.kind === "por_kot" ? " (پر کوت)" : "";
    const tricks = Array.isArray(o.tricks) ? o.tricks.join("–") : "";
    if (o.seats === 4) {
      const team2 = { en: ["Team A", "Team B"][o.winner] ?? `side ${o.winner}`, fa: ["تیم الف", "تیم ب"][o.winner] ?? `تیم ${faNum(o.winner)}` };
      return { en: `${team2.en} wins, tricks ${tricks}${kot}`, fa: `${team2.fa} برد، دست‌ها ${faNum(tricks)}${kotFa}` };
    }
    const seat2 = (l) => seatName(seats, o.winner)[l];
    return { en: `${seat2("en")} wins, tricks ${tricks}${kot}`, fa: `${seat2("fa")} برد، دست‌ها ${faNum(tricks)}${kotFa}` };
  }

  // src/games/bluff.js
  var bluff_exports = {};
  __export(bluff_exports, {
    actionText: () => actionText3,
    endText: () => endText3,
    evolve: () => evolve3,
    init: () => init3,
    shuffleText: () => shuffleText3,
    view: () => view3
  });
  var PILE = Z.pile(0);
  var right2 = (seat2, n2) => (seat2 + 1) % n2;
  function init3(start2) {
    const m = start2.match_state;
    return {
      rules: start2.rules,
      seats: m.seats,
      dealer: m.dealer,
      zones: new Zones(),
      shuffles: 0,
      phase: { name: "deal" },
      pile: [],
      round_rank: null,
      ended_round_rank: null,
      lead_reason: "hand_start",
      lead_count: 0,
      played_this_round: [],
      window_open: false,
      requests: [],
      pending_out: null,
      out_order: [],
      turn: right2(m.dealer, m.seats),
      last_challenge: null,
      thief: null
    };
  }
  function evolve3(s, e, order) {
    switch (e.type) {
      case "shuffled":
        if (e.reason === "deal" && order) s.zones.install(Z.stock, e.shuffle, order, NOBODY);
        s.shuffles = e.shuffle + 1;
        break;
      case "dealt":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
        break;
      case "set_aside":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.out, NOBODY);
        break;
      case "play_started":
        s.phase = { name: "play" };
        s.turn = e.starter;
        s.lead_reason = "hand_start";
        break;
      case "played":
        for (const r of e.cards) s.zones.moveCard(Z.hand(e.seat), r, PILE, seenBy(e.seat));
        s.pile.push({ seat: e.seat, rank: e.rank, cards: e.cards.map((r) => ({ ...r })), lead: e.lead });
        if (e.lead) {
          s.round_rank = e.rank;
          s.ended_round_rank = null;
          s.lead_count = e.count;
          s.played_this_round = [e.seat];
        } else {
          s.played_this_round.push(e.seat);
        }
        s.window_open = true;
        s.requests = [];
        break;
      case "passed":
        s.window_open = false;
        s.requests = [];
        s.played_this_round.push(e.seat);
        break;
      case "out_pending":
        s.pending_out = e.seat;
        break;
      case "went_out":
        s.out_order.push(e.seat);
        s.pending_out = null;
        break;
      case "back_in":
        s.pending_out = null;
        break;
      case "turn":
        s.turn = e.seat;
        break;
      case "round_lapped":
        s.ended_round_rank = e.rank;
        s.round_rank = null;
        s.lead_reason = "after_lap";
        s.played_this_round = [];
        break;
      case "challenge_requested":
        s.requests.push(e.by);
        break;
      case "not_challenged":
        s.window_open = false;
        s.requests = [];
        break;
      case "challenged":
        for (const c of e.cards) s.zones.reveal(c.card);
        s.window_open = false;
        s.last_challenge = { challenger: e.challenger, challenged: e.seat, rank: e.rank, count: e.cards.length, truthful: e.truthful, taker: e.taker };
        break;
      case "pile_taken":
        s.zones.moveAll(PILE, Z.hand(e.seat), seenBy(e.seat));
        s.pile = [];
        s.round_rank = null;
        s.ended_round_rank = null;
        s.played_this_round = [];
        s.lead_reason = "after_challenge";
        s.window_open = false;
        s.requests = [];
        break;
      case "phase":
        s.phase = e.phase;
        break;
      case "relabelled":
        if (order) s.zones.relabel(Z.hand(e.seat), e.shuffle, order, seenBy(e.seat));
        s.shuffles = e.shuffle + 1;
        s.phase = { name: "play" };
        break;
      case "hand_ended":
        s.thief = e.thief;
        s.phase = { name: "over" };
        s.window_open = false;
        s.requests = [];
        break;
      default:
        break;
    }
  }
  var held = (s, seat2) => s.zones.len(Z.hand(seat2));
  var lastPlay = (s) => s.window_open ? s.pile[s.pile.length - 1] ?? null : null;
  var mayRequest = (s, seat2) => {
    const lp = lastPlay(s);
    return s.phase.name === "play" && seat2 < s.seats && seat2 !== s.turn && held(s, seat2) > 0 && !s.requests.includes(seat2) && lp !== null && lp.seat !== seat2;
  };
  function toAct3(s) {
    if (s.phase.name !== "play") return [];
    const out = [{ seat: s.turn }];
    for (let i = 0; i < s.seats; i++) if (mayRequest(s, i)) out.push({ seat: i });
    return out;
  }
  var sameRef2 = (a, b) => a.shuffle === b.shuffle && a.pos === b.pos;
  function view3(s, viewer = "all") {
    const pileCards = s.zones.zoneView(PILE, viewer);
    const v = {
      viewer: viewerJson(viewer),
      seats: s.seats,
      dealer: s.dealer,
      phase: s.phase,
      to_act: toAct3(s)
    };
    if (s.phase.name === "play" || s.phase.name === "relabel") v.turn = s.turn;
    Object.assign(v, {
      round_rank: s.round_rank,
      ended_round_rank: s.ended_round_rank,
      lead_reason: s.lead_reason,
      played_this_round: [...s.played_this_round],
      window_open: s.window_open,
      requests: [...s.requests]
    });
    if (s.pending_out !== null) v.pending_out = s.pending_out;
    v.out_order = [...s.out_order];
    if (s.last_challenge) v.last_challenge = { ...s.last_challenge };
    v.hands = [...Array(s.seats).keys()].map((seat2) => ({ seat: seat2, count: held(s, seat2), cards: s.zones.zoneView(Z.hand(seat2), viewer) }));
    v.pile_size = s.zones.len(PILE);
    v.pile = s.pile.map((p) => ({ seat: p.seat, rank: p.rank, count: p.cards.length, lead: p.lead, cards: pileCards.filter((c) => p.cards.some((r) => sameRef2(r, c.ref))) }));
    v.set_aside = s.zones.zoneView(Z.out, viewer);
    if (s.thief !== null) v.thief = s.thief;
    return v;
  }
  var RANK_FA2 = { J: "سرباز", Q: "بی‌بی", K: "شاه", A: "تک" };
  var rankFa = (r) => RANK_FA2[r] ?? faNum(r);
  var RANK_EN2 = { J: "jacks", Q: "queens", K: "kings", A: "aces" };
  var rankEn = (r) => RANK_EN2[r] ?? `${r}s`;
  function actionText3(body, seats) {
    const a = body.action;
    const who2 = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
    const eff = (t2) => body.effects.filter((e) => e.type === t2);
    const played = eff("played")[0];
    const ch = eff("challenged")[0];
    if (played) {
      return {
        en: `${who2.en} puts down ${played.count} card(s), saying "${played.count} ${rankEn(played.rank)}"`,
        fa: `${who2.fa} ${faNum(played.count)} برگ گذاشت و گفت «${faNum(played.count)} تا ${rankFa(played.rank)}»`
      };
    }
    if (ch) {
      const faces = ch.cards.map((c) => c.face);
      const taker = seatName(seats, ch.taker);
      return {
        en: `${who2.en} calls bluff: ${faces.map(cardEn).join(", ")}; ${ch.truthful ? "it was true" : "it was a bluff"}, ${taker.en} takes the pile`,
        fa: `${who2.fa} اعلام بلوف کرد: ${faces.map(cardFa).join("، ")}؛ ${ch.truthful ? "راست بود" : "بلوف بود"} و ${taker.fa} همه برگ‌ها را برداشت`
      };
    }
    switch (a.type) {
      case "no_challenge":
        return { en: `${who2.en} lets it pass`, fa: `${who2.fa} اعلام بلوف نکرد` };
      case "request_challenge":
        return { en: `${who2.en} asks the next player to call bluff`, fa: `${who2.fa} از نفر بعد خواست اعلام بلوف کند` };
      case "pass":
        return { en: `${who2.en} passes`, fa: `${who2.fa} رد کرد` };
      default:
        return { en: `${who2.en}: ${a.type}`, fa: `${who2.fa}: ${a.type}` };
    }
  }
  function shuffleText3(body, seats) {
    const rl = body.effects.find((e) => e.type === "relabelled");
    if (rl) {
      const w = seatName(seats, rl.seat);
      return { en: `${w.en}'s ${rl.cards} cards are shuffled anew, so no one can follow the cards seen in the pile`, fa: `${faNum(rl.cards)} برگ ${w.fa} دوباره بُر خورد تا برگ‌های دیده‌شده دنبال نشوند` };
    }
    return { en: `The cards are shuffled and dealt (${body.cards} cards)`, fa: `برگ‌ها بُر خورد و پخش شد (${faNum(body.cards)} برگ)` };
  }
  var TITLE_FA = { king: "شاه", vizier: "وزیر", executioner: "جلاد", thief: "دزد" };
  function endText3(o, seats) {
    if (!o || !Array.isArray(o.order) || !Array.isArray(o.titles)) return null;
    return {
      en: o.order.map((seat2) => `${seatName(seats, seat2).en} ${o.titles[seat2] ?? ""}`.trim()).join(", "),
      fa: o.order.map((seat2) => `${seatName(seats, seat2).fa} ${TITLE_FA[o.titles[seat2]] ?? o.titles[seat2] ?? ""}`.trim()).join("، ")
    };
  }

  // src/games/ghahve.js
  var ghahve_exports = {};
  __export(ghahve_exports, {
    actionText: () => actionText4,
    endText: () => endText4,
    evolve: () => evolve4,
    init: () => init4,
    shuffleText: () => shuffleText4,
    view: () => view4
  });
  var DRAW_PILE2 = Z.pile(0);
  var DRAWN2 = Z.table;
  var MAX_SCORE2 = 1e5;
  var SEATS = 4;
  var clone2 = (v) => JSON.parse(JSON.stringify(v));
  var place2 = (s, t2) => Math.max(0, t2.indexOf(s));
  var plus2 = (s, k, t2) => t2.length ? t2[(place2(s, t2) + k) % Math.max(1, t2.length)] : s;
  var right3 = (s, t2) => plus2(s, 1, t2);
  var teamOf = (seat2, t2) => place2(seat2, t2) % 2 === 1 ? 1 : 0;
  function init4(start2) {
    const m = start2.match_state;
    const dealer = m.dealer ?? null;
    return {
      rules: start2.rules,
      now: clone2(m),
      zones: new Zones(),
      shuffles: 0,
      phase: { name: "await_shuffle", reason: dealer !== null ? "deal" : "draw" },
      dealer,
      draw_seats: [],
      deck_len: 0,
      cut: 0,
      bids: new Array(SEATS).fill(null),
      contracts: null,
      commitment: null,
      buys: 0,
      declined: [],
      leader: dealer !== null ? right3(dealer, m.seating) : 0,
      won: new Array(SEATS).fill(0),
      bj_played: false,
      cj_released: false,
      failed: [],
      gained: [0, 0]
    };
  }
  var table2 = (s) => s.now.seating;
  var add3 = (v, i, p) => {
    if (i < v.length) v[i] = Math.max(-MAX_SCORE2, Math.min(v[i] + p, MAX_SCORE2));
  };
  function swapHands(s) {
    const t2 = [...table2(s)];
    for (let i = 0; i < SEATS; i++) {
      for (const p of [...s.zones.cards(Z.hand(i))]) s.zones.moveCard(Z.hand(i), p.r, Z.pile(1 + i), p.seen);
    }
    for (let i = 0; i < SEATS; i++) {
      const to = right3(i, t2);
      for (const p of [...s.zones.cards(Z.pile(1 + i))]) s.zones.moveCard(Z.pile(1 + i), p.r, Z.hand(to), seenAnd(p.seen, to));
    }
  }
  function evolve4(s, e, order) {
    switch (e.type) {
      case "shuffled":
        if (order) s.zones.install(e.reason === "draw" ? DRAW_PILE2 : Z.stock, e.shuffle, order, NOBODY);
        if (e.reason === "deal") {
          s.deck_len = e.cards;
          s.cut = 0;
        }
        s.shuffles = e.shuffle + 1;
        break;
      case "draw_card":
        s.zones.moveCard(DRAW_PILE2, e.card.card, DRAWN2, EVERYONE);
        s.draw_seats.push(e.seat);
        break;
      case "reseated":
        s.now.seating = [...e.seating];
        break;
      case "dealer_set":
        s.dealer = e.seat;
        s.now.dealer = e.seat;
        s.leader = right3(e.seat, table2(s));
        break;
      case "cut_applied":
        s.zones.moveTop(Z.stock, e.k, Z.stock, NOBODY);
        s.cut = e.k;
        break;
      case "dealt":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
        break;
      case "bid_made":
        if (e.seat < SEATS) s.bids[e.seat] = e.n;
        break;
      case "contracts_set":
        s.contracts = [e.team0, e.team1];
        s.commitment = null;
        s.declined = [];
        break;
      case "buy_declared":
        s.commitment = { team: teamOf(e.seat, table2(s)), required: e.required };
        s.buys += 1;
        break;
      case "buy_declined":
        s.declined.push(e.seat);
        break;
      case "hands_swapped":
        swapHands(s);
        s.bids = s.bids.map(() => null);
        s.declined = [];
        break;
      case "played":
        s.zones.moveCard(Z.hand(e.seat), e.card.card, Z.trick, EVERYONE);
        if (e.card.face === "BJ") s.bj_played = true;
        break;
      case "joker_released":
        s.cj_released = true;
        break;
      case "trick_won":
        s.zones.moveAll(Z.trick, Z.won(e.seat), EVERYONE);
        if (e.seat < s.won.length) s.won[e.seat] += 1;
        s.leader = e.seat;
        break;
      case "hand_scored":
        add3(s.now.scores, e.team, e.points);
        add3(s.gained, e.team, e.points);
        break;
      case "penalty_awarded":
        add3(s.now.scores, e.team, e.points);
        add3(s.gained, e.team, e.points);
        if (e.fails) {
          const off = teamOf(e.offender, table2(s));
          if (!s.failed.includes(off)) s.failed.push(off);
        }
        break;
      case "dealer_passed":
        s.now.dealer = e.to;
        break;
      case "dealer_stays":
        s.now.dealer = e.seat;
        break;
      case "match_won":
        s.now.over = true;
        s.now.winner = e.team;
        break;
      case "phase":
        s.phase = e.phase;
        break;
      default:
        break;
    }
  }
  var tricksPlayed = (s) => s.won.reduce((a, w) => a + w, 0);
  var toPlay2 = (s) => plus2(s.leader, s.zones.len(Z.trick), table2(s));
  var biddingOrder = (s) => [1, 2, 3, 4].map((o) => plus2(s.dealer ?? 0, o % SEATS, table2(s)));
  function mainActor2(s) {
    switch (s.phase.name) {
      case "awaiting_cut":
        return s.dealer === null ? null : plus2(s.dealer, 3, table2(s));
      case "bidding":
        return biddingOrder(s).find((x) => s.bids[x] === null) ?? null;
      case "buy_window":
        return biddingOrder(s).find((x) => teamOf(x, table2(s)) === s.phase.team && !s.declined.includes(x)) ?? null;
      case "playing":
        return toPlay2(s);
      default:
        return null;
    }
  }
  function toAct4(s) {
    if (s.phase.name === "await_shuffle") return [];
    const out = [];
    const m = mainActor2(s);
    if (m !== null) out.push({ seat: m });
    if (!s.now.over && s.phase.name !== "hand_over" && s.rules.cheating_penalty !== "none") out.push("service");
    return out;
  }
  function teamTricks(s) {
    const v = [0, 0];
    s.won.forEach((w, i) => {
      v[teamOf(i, table2(s))] += w;
    });
    return v;
  }
  function view4(s, viewer = "all") {
    const drawnCards = s.zones.zoneView(DRAWN2, viewer);
    return {
      viewer: viewerJson(viewer),
      seats: s.now.seats,
      phase: s.phase,
      to_act: toAct4(s),
      awaiting_shuffle: s.phase.name === "await_shuffle",
      dealer: s.dealer,
      trump: "S",
      cut: s.cut,
      bids: [...s.bids],
      contracts: s.contracts ? [...s.contracts] : null,
      commitment: s.commitment ? { ...s.commitment } : null,
      buys: s.buys,
      leader: s.leader,
      trick_no: tricksPlayed(s) + 1,
      tricks_won: [...s.won],
      team_tricks: teamTricks(s),
      bj_played: s.bj_played,
      cj_released: s.cj_released,
      trick: s.zones.zoneView(Z.trick, viewer),
      drawn: s.draw_seats.slice(0, drawnCards.length).map((seat2, i) => ({ seat: seat2, card: drawnCards[i] })),
      match: clone2(s.now),
      zones: s.zones.view(viewer)
    };
  }
  var TEAM_FA = (t2) => `تیم ${faNum(t2)}`;
  function actionText4(body, seats) {
    const a = body.action;
    const who2 = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
    const eff = (t2) => body.effects.filter((e) => e.type === t2);
    const contracts = () => {
      const c = eff("contracts_set")[0];
      if (!c) return { en: "", fa: "" };
      const offer = eff("buy_offered")[0];
      return {
        en: `; contracts: team 0 ${c.team0}, team 1 ${c.team1}${offer ? `; team ${offer.team} may buy (must then bid ${offer.required})` : ""}`,
        fa: `؛ تعهد تیم‌ها: ${TEAM_FA(0)} ${faNum(c.team0)}، ${TEAM_FA(1)} ${faNum(c.team1)}${offer ? `؛ ${TEAM_FA(offer.team)} می‌تواند دست را بخرد (با تعهد ${faNum(offer.required)})` : ""}`
      };
    };
    switch (a.type) {
      case "cut":
        return { en: `${who2.en} cuts the deck at ${a.k}`, fa: `${who2.fa} دسته را از ${faNum(a.k)} کپ کرد` };
      case "bid": {
        const c = contracts();
        return { en: `${who2.en} bids ${a.n} tricks${c.en}`, fa: `${who2.fa} ${faNum(a.n)} دست خواند${c.fa}` };
      }
      case "buy":
        return { en: `${who2.en} buys the other team's hands: everyone passes his hand to the right`, fa: `${who2.fa} دست حریف را خرید: هر کس دستش را به نفر سمت راست داد` };
      case "decline_buy":
        return { en: `${who2.en} does not buy`, fa: `${who2.fa} نخرید` };
      case "play": {
        const p = eff("played")[0];
        const won = eff("trick_won")[0];
        let en = p ? `${who2.en} plays the ${cardEn(p.card.face)}` : `${who2.en} plays`;
        let fa2 = p ? `${who2.fa} ${cardFa(p.card.face)} بازی کرد` : `${who2.fa} بازی کرد`;
        if (eff("joker_released").length) {
          en += "; the coloured joker may now be played";
          fa2 += "؛ ژوکر رنگی آزاد شد";
        }
        if (won) {
          const w = seatName(seats, won.seat);
          en += `; ${w.en} takes trick ${won.index}`;
          fa2 += `؛ دست ${faNum(won.index)} را ${w.fa} برد`;
        }
        for (const h2 of eff("hand_scored")) {
          en += `; team ${h2.team}: contract ${h2.contract}, ${h2.tricks} tricks, ${h2.points} points`;
          fa2 += `؛ ${TEAM_FA(h2.team)}: تعهد ${faNum(h2.contract)}، ${faNum(h2.tricks)} دست، ${faNum(h2.points)} امتیاز`;
        }
        const mw = eff("match_won")[0];
        if (mw) {
          en += `; team ${mw.team} wins the match`;
          fa2 += `؛ ${TEAM_FA(mw.team)} بازی را برد`;
        }
        return { en, fa: fa2 };
      }
      case "award_cheating_penalty":
        return { en: `${who2.en} awards a cheating penalty against seat ${a.offender}`, fa: `${who2.fa} جریمه تقلب برای صندلی ${faNum(a.offender)} داد` };
      default:
        return { en: `${who2.en}: ${a.type}`, fa: `${who2.fa}: ${a.type}` };
    }
  }
  function shuffleText4(body, seats) {
    if (body.reason === "draw") {
      const draws = body.effects.filter((e) => e.type === "draw_card");
      const d = body.effects.find((e) => e.type === "dealer_set");
      const w = d ? seatName(seats, d.seat) : null;
      return {
        en: `Cards are drawn for the first dealer: ${draws.map((x) => `seat ${x.seat} ${x.card.face}`).join(", ")}${w ? `; ${w.en} deals` : ""}`,
        fa: `برای پاسور برگ کشیدند: ${draws.map((x) => `صندلی ${faNum(x.seat)} ${cardFa(x.card.face)}`).join("، ")}${w ? `؛ ${w.fa} پاسور شد` : ""}`
      };
    }
    return { en: `The deck is shuffled for the deal (${body.cards} cards, shuffle ${body.shuffle})`, fa: `دسته برای پخش بُر خورد (${faNum(body.cards)} برگ)` };
  }
  function endText4(o) {
    if (!o || !Array.isArray(o.teams) || o.teams.length !== 2) return null;
    const [a, b] = o.teams;
    return {
      en: `team 0 ${a.points} (contract ${a.contract}, ${a.tricks} tricks), team 1 ${b.points} (contract ${b.contract}, ${b.tricks} tricks)`,
      fa: `${TEAM_FA(0)} ${faNum(a.points)} (تعهد ${faNum(a.contract)}، ${faNum(a.tricks)} دست)، ${TEAM_FA(1)} ${faNum(b.points)} (تعهد ${faNum(b.contract)}، ${faNum(b.tricks)} دست)`
    };
  }

  // src/games/shelem.js
  var shelem_exports = {};
  __export(shelem_exports, {
    actionText: () => actionText5,
    endText: () => endText5,
    evolve: () => evolve5,
    evolvePrivate: () => evolvePrivate,
    init: () => init5,
    shuffleText: () => shuffleText5,
    view: () => view5
  });
  var WIDOW = Z.pile(0);
  var pileZone = (seat2, pile) => Z.pile(seat2 * 3 + pile);
  var clone3 = (v) => JSON.parse(JSON.stringify(v));
  var team = (seat2, n2) => n2 === 4 ? seat2 % 2 : seat2 % 2;
  function init5(start2) {
    const m = start2.match_state;
    const n2 = m.seats;
    return {
      rules: start2.rules,
      n: n2,
      now: clone3(m),
      zones: new Zones(),
      phase: { name: "await_shuffle" },
      dealer: m.dealer,
      cut: 0,
      calls: [],
      hakem: null,
      contract: null,
      trump: null,
      leader: m.dealer,
      trick_seats: [],
      won: new Array(n2).fill(0),
      row: null
    };
  }
  function evolve5(s, e, order) {
    switch (e.type) {
      case "shuffled":
        if (order) s.zones.install(Z.stock, e.shuffle, order, NOBODY);
        break;
      case "cut_applied":
        s.zones.moveTop(Z.stock, e.k, Z.stock, NOBODY);
        s.cut = e.k;
        break;
      case "dealt":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
        break;
      case "widow_laid":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, WIDOW, NOBODY);
        break;
      case "pile_laid":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, pileZone(e.seat, e.pile), NOBODY);
        break;
      case "bid_made":
        s.calls.push({ seat: e.seat, bid: e.amount });
        break;
      case "passed":
        s.calls.push({ seat: e.seat, bid: null });
        break;
      case "auction_won":
        s.hakem = e.hakem;
        s.contract = e.contract;
        s.leader = e.hakem;
        break;
      case "widow_taken":
        for (const r of e.cards) s.zones.moveCard(WIDOW, r, Z.hand(e.seat), seenBy(e.seat));
        break;
      case "laid_away":
        for (const r of e.cards) s.zones.moveCard(Z.hand(e.seat), r, Z.discard, seenBy(e.seat));
        break;
      case "trump_set":
        s.trump = e.suit;
        break;
      case "played": {
        const from = e.pile === void 0 || e.pile === null ? Z.hand(e.seat) : pileZone(e.seat, e.pile);
        s.zones.moveCard(from, e.card.card, Z.trick, EVERYONE);
        s.trick_seats.push(e.seat);
        break;
      }
      case "pile_top_turned":
        s.zones.reveal(e.card.card);
        break;
      case "trick_won":
        s.zones.moveAll(Z.trick, Z.won(e.seat), EVERYONE);
        if (e.seat < s.won.length) s.won[e.seat] += 1;
        s.trick_seats = [];
        s.leader = e.seat;
        break;
      case "discards_revealed":
        s.zones.setSeenAll(Z.discard, EVERYONE);
        break;
      case "hand_scored":
        s.now.totals = [...e.row.total];
        s.now.sheet.push(clone3(e.row));
        s.row = clone3(e.row);
        break;
      case "match_won":
        s.now.over = true;
        s.now.winner = e.team;
        break;
      case "next_dealer":
        s.now.dealer = e.seat;
        break;
      case "phase":
        s.phase = e.phase;
        break;
      default:
        break;
    }
  }
  function evolvePrivate(s, body, opening) {
    if (!opening || opening.action?.type !== "lay_away" || body.actor === "service") return;
    const seat2 = body.actor.seat;
    evolve5(s, { type: "laid_away", seat: seat2, cards: opening.action.cards }, null);
    evolve5(s, { type: "phase", phase: { name: "playing" } }, null);
  }
  function mainActor3(s) {
    switch (s.phase.name) {
      case "awaiting_cut":
        return (s.dealer + s.n - 1) % s.n;
      case "bidding":
      case "exchange":
        return s.phase.seat;
      case "playing":
        return (s.leader + s.trick_seats.length) % s.n;
      default:
        return null;
    }
  }
  function high(s) {
    for (let i = s.calls.length - 1; i >= 0; i--) if (s.calls[i].bid !== null) return [s.calls[i].seat, s.calls[i].bid];
    return null;
  }
  function view5(s, viewer = "all") {
    const m = s.phase.name === "await_shuffle" ? null : mainActor3(s);
    const teamTricks2 = [0, 0];
    s.won.forEach((w, i) => {
      teamTricks2[team(i, s.n)] += w;
    });
    const piles = s.n === 2 ? [0, 1].map((seat2) => [1, 2, 3].map((p) => {
      const v = s.zones.zoneView(pileZone(seat2, p), viewer);
      return s.rules?.pile_top === "last_dealt" ? v.reverse() : v;
    })) : [];
    return {
      viewer: viewerJson(viewer),
      seats: s.n,
      phase: s.phase,
      to_act: m === null ? [] : [{ seat: m }],
      awaiting_shuffle: s.phase.name === "await_shuffle",
      dealer: s.dealer,
      cut: s.cut,
      calls: clone3(s.calls),
      high: high(s),
      hakem: s.hakem,
      contract: s.contract,
      trump: s.trump,
      leader: s.leader,
      trick: s.zones.zoneView(Z.trick, viewer),
      trick_seats: [...s.trick_seats],
      tricks_won: [...s.won],
      team_tricks: teamTricks2,
      widow: s.zones.zoneView(WIDOW, viewer),
      laid_away: s.zones.zoneView(Z.discard, viewer),
      piles,
      row: s.row === null ? null : clone3(s.row),
      match: clone3(s.now),
      zones: s.zones.view(viewer)
    };
  }
  var OUTCOME = {
    made: { en: "made", fa: "ساخت" },
    failed: { en: "failed", fa: "نساخت" },
    yasa: { en: "yasa", fa: "یاسا" },
    shelem: { en: "shelem", fa: "شلم" },
    passed_out: { en: "passed out", fa: "همه پاس" }
  };
  function actionText5(body, seats) {
    const a = body.action;
    const who2 = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
    const eff = (t2) => body.effects.filter((e) => e.type === t2);
    let out;
    switch (a.type) {
      case "cut":
        out = { en: `${who2.en} cuts the deck at ${a.k}`, fa: `${who2.fa} دسته را از ${faNum(a.k)} کپ کرد` };
        break;
      case "bid":
        out = { en: `${who2.en} bids ${a.amount}`, fa: `${who2.fa} ${faNum(a.amount)} خواند` };
        break;
      case "pass":
        out = { en: `${who2.en} passes`, fa: `${who2.fa} پاس داد` };
        break;
      case "play": {
        const p = eff("played")[0];
        const t2 = eff("trump_set")[0];
        out = p ? { en: `${who2.en} plays the ${cardEn(p.card.face)}${p.pile ? ` from pile ${p.pile}` : ""}`, fa: `${who2.fa} ${cardFa(p.card.face)} بازی کرد${p.pile ? ` (از دسته ${faNum(p.pile)})` : ""}` } : { en: `${who2.en} plays`, fa: `${who2.fa} بازی کرد` };
        if (t2) {
          out.en += `; ${suitEn(t2.suit)} are trump`;
          out.fa += `؛ حکم ${suitFa(t2.suit)} شد`;
        }
        const won = eff("trick_won")[0];
        if (won) {
          const w = seatName(seats, won.seat);
          out.en += `; ${w.en} takes the trick`;
          out.fa += `؛ دست را ${w.fa} برد`;
        }
        break;
      }
      default:
        out = { en: `${who2.en}: ${a.type}`, fa: `${who2.fa}: ${a.type}` };
    }
    const aw = eff("auction_won")[0];
    if (aw) {
      const h2 = seatName(seats, aw.hakem);
      out.en += `; ${h2.en} is hakem at ${aw.contract} and takes the widow`;
      out.fa += `؛ ${h2.fa} با ${faNum(aw.contract)} حاکم شد و ۴ برگ زمین را برداشت`;
    }
    if (eff("passed_out").length) {
      out.en += "; every player passed: the deal is void";
      out.fa += "؛ همه پاس دادند: دست باطل شد";
    }
    const sc = eff("hand_scored")[0];
    if (sc && sc.row.outcome !== "passed_out") {
      const o = OUTCOME[sc.row.outcome] ?? { en: sc.row.outcome, fa: sc.row.outcome };
      out.en += `; the hakem team took ${sc.row.h}, the others ${sc.row.o} (${o.en}): ${sc.row.delta.join(" / ")}`;
      out.fa += `؛ تیم حاکم ${faNum(sc.row.h)} و حریف ${faNum(sc.row.o)} گرفت (${o.fa})`;
    }
    return out;
  }
  function shuffleText5(body) {
    return { en: `The deck is shuffled for the deal (${body.cards} cards)`, fa: `دسته برای پخش بُر خورد (${faNum(body.cards)} برگ)` };
  }
  function endText5(o) {
    const row = o?.row;
    if (!row) return null;
    const k = OUTCOME[row.outcome] ?? { en: row.outcome, fa: row.outcome };
    const bid = row.bid === null || row.bid === void 0 ? "—" : row.bid;
    return {
      en: `bid ${bid}, ${k.en}; totals ${row.total[0]} | ${row.total[1]}`,
      fa: `قرارداد ${bid === "—" ? "—" : faNum(bid)}، ${k.fa}؛ جمع ${faNum(row.total[0])} | ${faNum(row.total[1])}`
    };
  }

  // src/games/pasur.js
  var pasur_exports = {};
  __export(pasur_exports, {
    actionText: () => actionText6,
    endText: () => endText6,
    evolve: () => evolve6,
    init: () => init6,
    shuffleText: () => shuffleText6,
    view: () => view6
  });
  var MAX_SCORE3 = 1e5;
  var clone4 = (v) => JSON.parse(JSON.stringify(v));
  var sideCount = (rules, n2) => n2 === 4 && (rules?.four_player_mode ?? "partnership") === "partnership" ? 2 : n2;
  var sideOf2 = (seat2, n2, sides2) => sides2 < n2 && sides2 > 0 ? seat2 % sides2 : seat2;
  var deals = (n2) => n2 === 2 ? 6 : n2 === 3 ? 4 : 3;
  function init6(start2) {
    const m = start2.match_state;
    const n2 = m.seats;
    const sides2 = sideCount(start2.rules, n2);
    return {
      rules: start2.rules,
      n: n2,
      sides: sides2,
      now: clone4(m),
      zones: new Zones(),
      shuffles: 0,
      phase: { name: "await_shuffle" },
      dealer: m.dealer,
      deal_no: 0,
      plays: 0,
      turn: (m.dealer + 1) % n2,
      last_capturer: null,
      surs: new Array(sides2).fill(0),
      sur_marks: [],
      scored: []
    };
  }
  function evolve6(s, e, order) {
    switch (e.type) {
      case "shuffled":
        if (order) s.zones.install(Z.stock, e.shuffle, order, NOBODY);
        s.shuffles = e.shuffle + 1;
        break;
      case "dealt":
        for (const r of e.cards) s.zones.moveCard(Z.stock, r, Z.hand(e.seat), seenBy(e.seat));
        s.deal_no = e.deal;
        break;
      case "table_dealt":
        for (const c of e.cards) s.zones.moveCard(Z.stock, c.card, Z.table, EVERYONE);
        break;
      case "table_jack_replaced": {
        const table3 = s.zones.list(Z.table);
        const slot = Math.max(0, table3.findIndex((p) => p.r.shuffle === e.jack.card.shuffle && p.r.pos === e.jack.card.pos));
        const stock = s.zones.list(Z.stock);
        const ri = stock.findIndex((p) => p.r.shuffle === e.replacement.card.shuffle && p.r.pos === e.replacement.card.pos);
        if (ri >= 0) {
          const [rep] = stock.splice(ri, 1);
          rep.seen = EVERYONE;
          table3.splice(slot, 0, rep);
        }
        const ji = table3.findIndex((p) => p.r.shuffle === e.jack.card.shuffle && p.r.pos === e.jack.card.pos);
        if (ji >= 0) {
          const [jack] = table3.splice(ji, 1);
          jack.seen = EVERYONE;
          stock.splice(Math.min(e.at, stock.length), 0, jack);
        }
        break;
      }
      case "played": {
        const capture = e.capture ?? [];
        const to = capture.length ? Z.won(e.seat) : Z.table;
        s.zones.moveCard(Z.hand(e.seat), e.card.card, to, EVERYONE);
        for (const c of capture) s.zones.moveCard(Z.table, c.card, Z.won(e.seat), EVERYONE);
        if (capture.length) s.last_capturer = e.seat;
        s.plays = e.play;
        s.turn = (e.seat + 1) % s.n;
        break;
      }
      case "sur":
        if (e.side < s.surs.length) s.surs[e.side] += 1;
        s.sur_marks.push({ seat: e.seat, play: e.play });
        break;
      case "leftovers_taken": {
        const to = e.seat === null || e.seat === void 0 ? Z.out : Z.won(e.seat);
        for (const c of e.cards) s.zones.moveCard(Z.table, c.card, to, EVERYONE);
        break;
      }
      case "hand_scored":
        for (const x of e.sides) {
          if (x.side < s.now.scores.length) s.now.scores[x.side] = Math.min(s.now.scores[x.side] + x.points, MAX_SCORE3);
        }
        s.scored = clone4(e.sides);
        break;
      case "tied_at_top":
        s.now.eligible = [...e.sides];
        break;
      case "match_won":
        s.now.over = true;
        s.now.winner = e.side;
        delete s.now.eligible;
        break;
      case "next_dealer":
        s.now.dealer = e.seat;
        break;
      case "phase":
        s.phase = e.phase;
        break;
      default:
        break;
    }
  }
  function toAct5(s) {
    if (s.phase.name === "playing" && !s.now.over) return [{ seat: s.turn }];
    return [];
  }
  function matchJson(m) {
    const out = clone4(m);
    if (!out.eligible || out.eligible.length === 0) delete out.eligible;
    return out;
  }
  function view6(s, viewer = "all") {
    const seats = [...Array(s.n).keys()];
    const v = {
      viewer: viewerJson(viewer),
      seats: s.n,
      sides: [...Array(s.sides).keys()].map((side) => seats.filter((x) => sideOf2(x, s.n, s.sides) === side)),
      phase: s.phase,
      to_act: toAct5(s),
      awaiting_shuffle: s.phase.name === "await_shuffle",
      dealer: s.dealer,
      turn: s.turn,
      deal: s.deal_no,
      deals: deals(s.n),
      plays: s.plays,
      stock: s.zones.len(Z.stock),
      table: s.zones.zoneView(Z.table, viewer),
      hand_sizes: seats.map((x) => s.zones.len(Z.hand(x))),
      captured: seats.map((x) => s.zones.len(Z.won(x))),
      surs: [...s.surs],
      sur_marks: s.sur_marks.map((m) => ({ ...m })),
      last_capturer: s.last_capturer
    };
    if (s.scored.length) v.scored = clone4(s.scored);
    v.match = matchJson(s.now);
    v.zones = s.zones.view(viewer);
    return v;
  }
  var listEn = (cs) => cs.map((c) => cardEn(c.face)).join(", ");
  var listFa = (cs) => cs.map((c) => cardFa(c.face)).join("، ");
  function actionText6(body, seats) {
    const who2 = body.actor === "service" ? { en: "The service", fa: "سرویس" } : seatName(seats, body.actor.seat);
    const p = body.effects.find((e) => e.type === "played");
    if (!p) return { en: `${who2.en}: ${body.action.type}`, fa: `${who2.fa}: ${body.action.type}` };
    const cap = p.capture ?? [];
    let en = `${who2.en} plays the ${cardEn(p.card.face)}`;
    let fa2 = `${who2.fa} ${cardFa(p.card.face)} بازی کرد`;
    if (cap.length) {
      en += ` and takes ${listEn(cap)}`;
      fa2 += ` و ${listFa(cap)} را برداشت`;
    } else {
      en += " onto the table";
      fa2 += " و روی زمین ماند";
    }
    if (body.effects.some((e) => e.type === "sur")) {
      en += ": sur!";
      fa2 += ": سور!";
    }
    const left = body.effects.find((e) => e.type === "leftovers_taken");
    if (left) {
      const w = left.seat === null || left.seat === void 0 ? null : seatName(seats, left.seat);
      en += w ? `; the cards left on the table go to ${w.en}` : "; the cards left on the table are set aside";
      fa2 += w ? `؛ برگ‌های مانده روی زمین به ${w.fa} رسید` : "؛ برگ‌های مانده کنار گذاشته شد";
    }
    const deal = body.effects.find((e) => e.type === "dealt");
    if (deal) {
      en += `; deal ${deal.deal}`;
      fa2 += `؛ دور ${faNum(deal.deal)} پخش شد`;
    }
    return { en, fa: fa2 };
  }
  function shuffleText6(body) {
    const t2 = body.effects.find((e) => e.type === "table_dealt");
    const jacks = body.effects.filter((e) => e.type === "table_jack_replaced");
    let en = `The deck is shuffled and dealt (${body.cards} cards)`;
    let fa2 = `دسته بُر خورد و پخش شد (${faNum(body.cards)} برگ)`;
    if (t2) {
      en += `; on the table: ${listEn(t2.cards)}`;
      fa2 += `؛ روی زمین: ${listFa(t2.cards)}`;
    }
    for (const j of jacks) {
      en += `; the ${cardEn(j.jack.face)} goes back into the stock, the ${cardEn(j.replacement.face)} takes its place`;
      fa2 += `؛ ${cardFa(j.jack.face)} به میان برگ‌ها برگشت و ${cardFa(j.replacement.face)} جایش آمد`;
    }
    return { en, fa: fa2 };
  }
  function endText6(o) {
    if (!o || !Array.isArray(o.sides)) return null;
    const en = o.sides.map((x) => `side ${x.side} ${x.points} points${x.surs ? ` (${x.surs} sur)` : ""}`).join(", ");
    const fa2 = o.sides.map((x) => `تیم ${faNum(x.side)} ${faNum(x.points)} امتیاز${x.surs ? ` (${faNum(x.surs)} سور)` : ""}`).join("، ");
    return { en, fa: fa2 };
  }

  // src/games/index.js
  var MODELS = {
    "bist-o-yek": bist_o_yek_exports,
    hokm: hokm_exports,
    bluff: bluff_exports,
    ghahve: ghahve_exports,
    shelem: shelem_exports,
    pasur: pasur_exports
  };
  var SUPPORTED_GAMES = Object.keys(MODELS);
  function stepViews(bundle, decks, viewer = "all") {
    const b = typeof bundle === "string" ? parseStrict(bundle) : bundle;
    const records = b?.records ?? [];
    const start2 = records[0]?.event?.body;
    const game = start2?.game ?? b?.game;
    const model = Object.prototype.hasOwnProperty.call(MODELS, game) ? MODELS[game] : null;
    if (!model) {
      const e = new Error(`no table model for the game ${JSON.stringify(game)}`);
      e.code = "unsupported_game";
      e.game = game;
      throw e;
    }
    const orders = decks ?? verifyBundleSync(b).decks;
    const seats = start2.seats;
    let s = null;
    const out = [];
    for (const r of records) {
      const e = r.event;
      const body = e.body;
      if (body.type === "hand_started") s = model.init(body, seats);
      else if (s && body.type === "shuffled") {
        const order = orders[body.shuffle];
        for (const x of body.effects) model.evolve(s, x, order ?? null);
      } else if (s && body.type === "action") {
        for (const x of body.effects) model.evolve(s, x, null);
      } else if (s && body.type === "private_action" && model.evolvePrivate) {
        const opened = records.at(-1)?.event?.body?.inputs?.find((o) => o.seq === e.seq);
        model.evolvePrivate(s, body, opened ?? null);
      }
      out.push({ seq: e.seq, view: s ? model.view(s, viewer) : null, text: dealerText(body, seats, model.actionText, model.shuffleText, model.endText) });
    }
    return out;
  }

  // src/ui/dom.js
  function h(tag2, attrs, ...children) {
    const m = /^([a-z0-9]+)((?:[.#][\w-]+)*)$/i.exec(tag2);
    const el = document.createElement(m ? m[1] : "div");
    if (m && m[2]) {
      for (const part of m[2].match(/[.#][\w-]+/g)) {
        if (part[0] === ".") el.classList.add(part.slice(1));
        else el.id = part.slice(1);
      }
    }
    if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
      children.unshift(attrs);
      attrs = null;
    }
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === void 0 || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "text") el.textContent = String(v);
      else if (k === "dataset") Object.assign(el.dataset, v);
      else el.setAttribute(k, v === true ? "" : String(v));
    }
    append(el, children);
    return el;
  }
  var ISO_RUN = /\u2068([^\u2068\u2069]*)\u2069/g;
  function textNodes(s) {
    const out = [];
    let at = 0;
    for (const m of s.matchAll(ISO_RUN)) {
      if (m.index > at) out.push(document.createTextNode(s.slice(at, m.index)));
      const b = document.createElement("bdi");
      b.setAttribute("dir", "auto");
      b.textContent = m[1];
      out.push(b);
      at = m.index + m[0].length;
    }
    if (at < s.length || out.length === 0) out.push(document.createTextNode(s.slice(at)));
    return out;
  }
  function append(el, children) {
    for (const c of children.flat(Infinity)) {
      if (c === null || c === void 0 || c === false) continue;
      if (c instanceof Node) el.append(c);
      else el.append(...textNodes(String(c)));
    }
  }
  function fill(el, ...children) {
    el.replaceChildren();
    append(el, children);
    return el;
  }

  // src/ui/i18n.js
  var STRINGS = {
    en: {
      title: "Hand replay",
      lang_other: "فارسی",
      first: "First step",
      prev: "Previous step",
      next: "Next step",
      last: "Last step",
      play: "Play",
      pause: "Pause",
      step_of: (i, n2) => `Step ${i} of ${n2}`,
      hand_of: (i, n2) => `Hand ${i} of ${n2}`,
      prev_hand: "Previous hand",
      next_hand: "Next hand",
      seat: (i) => `Seat ${i}`,
      bank: "Bank",
      stake: "Stake",
      banker: "Banker",
      hakem: "Hakem",
      dealer: "Dealer",
      trump: "Trump",
      total: "Total",
      balance: "Balance",
      bet: "Bet",
      side_bet: "Side bet",
      tricks: "Tricks",
      score: "Score",
      rounds: "Rounds",
      to_act: "To act",
      stock: "Stock",
      discard: "Discard",
      pile: "Pile",
      claimed: "claimed",
      phase: "Phase",
      verification: "Verification",
      checks: {
        format: "Format",
        commitments: "Commitments",
        decks: "Decks",
        chain: "Hash chain",
        signatures: "Signatures",
        player_signatures: "Player signatures",
        seed_chain: "Seed chain",
        private_inputs: "Private choices",
        log_proof: "Log proof",
        rules: "Rules",
        settlement: "Settlement"
      },
      passed: "passed",
      failed: "FAILED",
      not_checked: "not checked",
      pending: "checking…",
      go_to_step: (s) => `go to step ${s}`,
      at_step: (s) => `at step ${s}`,
      in_browser: "checked in this browser",
      source_server: "rules and settlement: the service's verdict (GET /v1/hands/{id}/verify)",
      source_native: "rules and settlement: re-run by the native replayer (replayer view)",
      source_none: "rules and settlement: not checked (open the hand on the service, or with replayer view)",
      source_running: "rules and settlement: checked when the hand is over",
      views_server: "table: the service's view for this credential",
      views_native: "table: views computed by the native replayer",
      views_browser: "table: views computed in this browser",
      views_none: "table: this page cannot draw this game without its rules engine; the steps are listed",
      viewer_seat: (s) => `You see seat ${s}'s cards only: the hand is still running`,
      viewer_public: "You see the public view: the hand is still running",
      viewer_all: "Everyone sees every card: the hand is over",
      credential: "Access",
      credential_help: "Paste an API key, seat token or share link token. It stays in this tab and is sent only to this service, in a header.",
      open: "Open",
      drop_title: "Open a hand bundle or match file",
      drop_help: "Drop a bundle or match file here, or choose one. It is read in this browser; nothing is sent anywhere.",
      choose_file: "Choose a file",
      error: "Error",
      loading: "Loading…",
      hand_status: { in_progress: "running", completed: "completed", abandoned: "abandoned", quarantined: "quarantined" },
      match_valid: "Every hand verified and linked",
      after_last_hand: "After the last hand:",
      // the verdict (issue 28, point 2)
      v_pending: "Checking this hand…",
      v_verified: "Verified",
      v_self: "Sound, but signed only by a key inside the file",
      v_partial: "Records and decks verified; the rules not checked here",
      v_failed: "NOT verified",
      v_running: "The hand is still running",
      v_signed_service: (k) => `Every record is signed by the service's published key ${k}, and checked in this browser.`,
      v_signed_self: (k) => `Every record is signed by ${k}, a key the file itself carries: anyone can sign a file with a key of their own. Compare it with the key your club publishes.`,
      v_decks: "Every deck follows from seeds committed before the deal.",
      v_rules_server: "The rules and the settlement: re-run by the service's rules engine.",
      v_rules_native: "The rules and the settlement: re-run by the native replayer (replayer view).",
      v_rules_none: "The rules and the settlement are not checked on this page: open the hand with replayer view, or on the service.",
      v_running_detail: "The records so far are checked (hash chain and signatures); the deal and the rules are checked when the hand is over.",
      v_where: (step, seat2) => `The first problem is at step ${step}${seat2 !== null && seat2 !== void 0 ? `, seat ${seat2}` : ""}:`,
      v_where_all: "The problem concerns the whole file:",
      v_after: (step) => `What this page shows from step ${step} on is what the file claims, not what was proven.`,
      v_after_all: "Nothing this page shows is proven.",
      v_goto: "Go to step",
      why: {
        format: "the file is not a readable hand bundle",
        chain: "this record was changed after it was signed, or records are missing or out of order",
        signatures: "a signature does not match its record, or the signer is not a trusted key",
        commitments: "a revealed seed is not the one committed to before the deal",
        seed_chain: "the hand's seed does not follow from the table's seed chain",
        decks: "a card shown is not the card the committed deck has at that place",
        player_signatures: "a player's signature on an action does not verify",
        private_inputs: "a secret choice opened at the end is not the one committed to",
        log_proof: "the club's public log does not hold this hand as it is in this file",
        rules: "an action breaks the rules of the game",
        settlement: "the result or the payments do not follow from the play"
      },
      unproven: "Unproven",
      unproven_step: "Unproven: this step is at or after the first problem.",
      unproven_table: (step) => `Unproven: this table follows records that fail verification (from step ${step}).`,
      unproven_table_all: "Unproven: the file fails verification.",
      no_table_unproven: (step) => `No table is drawn here: the records from step ${step} on fail verification, so no view of them can be trusted.`,
      status_claimed: (s) => `claims “${s}”, not verified`,
      no_faces: (step) => `The cards in the players' hands are not shown: their faces follow from the seeds revealed at the end, and the records fail verification from step ${step} on. Cards played face up are shown as recorded.`,
      // the table and the result (point 3)
      result: "Result",
      hide_result: "Hide the result",
      show_result: "Show the result",
      takes_trick: (who2) => `${who2} takes the trick`,
      trick_no: (n2) => `Trick ${n2}`,
      team: "Team",
      watch_as: "Watch from",
      watch_all: "every seat (all cards)",
      watch_seat: (s, name) => `${name ? `${name}, ` : ""}seat ${s}`,
      watch_note_seat: (s) => `You watch as seat ${s}: only the cards that seat could see at each step, until the reveal.`,
      watch_note_after: "The hand is over and its seeds revealed: every card is shown.",
      watch_unavailable: "A seat’s own view needs this game’s rules engine in the page; only the full view is available.",
      speed: "Speed",
      bookkeeping: (n2) => `${n2} bookkeeping step${n2 === 1 ? "" : "s"} (seeds, shuffles)`,
      all_steps: "All steps",
      played_by: "played",
      // errors and links (point 6)
      share_expired_title: "This share link has expired",
      share_expired_help: "Share links work for a limited time. Ask whoever sent it to you (the club) for a new link.",
      share_revoked_title: "This share link was revoked",
      share_revoked_help: "The club withdrew this link. If you still need to see the hand, ask the club for a new link.",
      share_bad_title: "This share link is not valid",
      share_bad_help: "The link may have been copied only in part. Open it again from the message it came in, or ask the club for a new one.",
      link_share: "This address holds the share link: you can pass it on, and it opens at this step.",
      link_private: "This address opens the hand only for someone who has access of their own: to pass the hand on, ask the club for a share link.",
      copy_link: "Copy link to this step",
      copied: "Copied",
      rtl: false
    },
    fa: {
      title: "بازپخش دست",
      lang_other: "English",
      first: "گام نخست",
      prev: "گام پیشین",
      next: "گام بعد",
      last: "گام آخر",
      play: "پخش",
      pause: "توقف",
      step_of: (i, n2) => `گام ${fa(i)} از ${fa(n2)}`,
      hand_of: (i, n2) => `دست ${fa(i)} از ${fa(n2)}`,
      prev_hand: "دست پیشین",
      next_hand: "دست بعد",
      seat: (i) => `جای ${fa(i)}`,
      bank: "بانک",
      stake: "سرمایه",
      banker: "بانکدار",
      hakem: "حاکم",
      dealer: "دست‌دهنده",
      trump: "حکم",
      total: "جمع",
      balance: "موجودی",
      bet: "شرط",
      side_bet: "شرط کناری",
      tricks: "دست‌ها",
      score: "امتیاز",
      rounds: "دورها",
      to_act: "نوبت",
      stock: "دسته",
      discard: "سوخته",
      pile: "کپه",
      claimed: "ادعا",
      phase: "مرحله",
      verification: "وارسی",
      checks: {
        format: "قالب",
        commitments: "تعهدها",
        decks: "ترتیب کارت‌ها",
        chain: "زنجیرهٔ هش",
        signatures: "امضاها",
        player_signatures: "امضای بازیکنان",
        seed_chain: "زنجیرهٔ بذر",
        private_inputs: "انتخاب‌های پنهان",
        log_proof: "اثبات دفتر",
        rules: "قوانین",
        settlement: "تسویه"
      },
      passed: "درست",
      failed: "نادرست",
      not_checked: "وارسی نشد",
      pending: "در حال وارسی…",
      go_to_step: (s) => `رفتن به گام ${fa(s)}`,
      at_step: (s) => `در گام ${fa(s)}`,
      in_browser: "در همین مرورگر وارسی شد",
      source_server: "قوانین و تسویه: رأی سرویس (GET /v1/hands/{id}/verify)",
      source_native: "قوانین و تسویه: دوباره اجرا شده با replayer بومی (replayer view)",
      source_none: "قوانین و تسویه: وارسی نشد (دست را روی سرویس یا با replayer view باز کنید)",
      source_running: "قوانین و تسویه: پس از پایان دست وارسی می‌شود",
      views_server: "میز: نمای سرویس برای این دسترسی",
      views_native: "میز: نماهای محاسبه‌شده با replayer بومی",
      views_browser: "میز: نماهای محاسبه‌شده در همین مرورگر",
      views_none: "میز: این صفحه بدون موتور قوانین این بازی نمی‌تواند میز را بکشد؛ گام‌ها فهرست شده‌اند",
      viewer_seat: (s) => `شما فقط کارت‌های جای ${fa(s)} را می‌بینید: دست هنوز در جریان است`,
      viewer_public: "شما نمای عمومی را می‌بینید: دست هنوز در جریان است",
      viewer_all: "همه همهٔ کارت‌ها را می‌بینند: دست تمام شده است",
      credential: "دسترسی",
      credential_help: "کلید API، ژتون جا یا ژتون پیوند اشتراک را وارد کنید. فقط در همین زبانه می‌ماند و فقط در سرآیند به همین سرویس فرستاده می‌شود.",
      open: "باز کن",
      drop_title: "باز کردن بستهٔ دست یا پروندهٔ مسابقه",
      drop_help: "پرونده را اینجا رها کنید یا برگزینید. در همین مرورگر خوانده می‌شود و به هیچ جا فرستاده نمی‌شود.",
      choose_file: "برگزیدن پرونده",
      error: "خطا",
      loading: "در حال بارگذاری…",
      hand_status: { in_progress: "در جریان", completed: "پایان‌یافته", abandoned: "رهاشده", quarantined: "قرنطینه" },
      match_valid: "همهٔ دست‌ها وارسی و به هم پیوسته‌اند",
      after_last_hand: "پس از آخرین دست:",
      v_pending: "در حال وارسی این دست…",
      v_verified: "وارسی‌شده",
      v_self: "درست، ولی فقط با کلیدی که در خود پرونده است امضا شده",
      v_partial: "رویدادها و دسته‌ها وارسی شد؛ قوانین اینجا وارسی نشد",
      v_failed: "وارسی نشد: نادرست",
      v_running: "دست هنوز در جریان است",
      v_signed_service: (k) => `همهٔ رویدادها با کلید منتشرشدهٔ سرویس ${k} امضا شده و در همین مرورگر وارسی شده است.`,
      v_signed_self: (k) => `همهٔ رویدادها با ${k} امضا شده، کلیدی که خود پرونده همراه دارد: هر کسی می‌تواند پرونده‌ای را با کلید خودش امضا کند. آن را با کلیدی که باشگاه شما منتشر می‌کند مقایسه کنید.`,
      v_decks: "هر دسته از بذرهایی می‌آید که پیش از دادن کارت تعهد شده بودند.",
      v_rules_server: "قوانین و تسویه: دوباره اجرا شده با موتور قوانین سرویس.",
      v_rules_native: "قوانین و تسویه: دوباره اجرا شده با replayer بومی (replayer view).",
      v_rules_none: "قوانین و تسویه در این صفحه وارسی نمی‌شوند: دست را با replayer view یا روی سرویس باز کنید.",
      v_running_detail: "رویدادهای تا اینجا وارسی شده‌اند (زنجیرهٔ هش و امضاها)؛ دادن کارت‌ها و قوانین پس از پایان دست وارسی می‌شوند.",
      v_where: (step, seat2) => `نخستین مشکل در گام ${fa(step)}${seat2 !== null && seat2 !== void 0 ? `، جای ${fa(seat2)}` : ""} است:`,
      v_where_all: "مشکل به کل پرونده مربوط است:",
      v_after: (step) => `آنچه این صفحه از گام ${fa(step)} به بعد نشان می‌دهد ادعای پرونده است، نه چیزی که ثابت شده.`,
      v_after_all: "هیچ‌چیزی که این صفحه نشان می‌دهد ثابت نشده است.",
      v_goto: "رفتن به گام",
      why: {
        format: "پرونده بستهٔ دستِ خواندنی نیست",
        chain: "این رویداد پس از امضا تغییر کرده، یا رویدادهایی گم شده یا جابه‌جا شده‌اند",
        signatures: "امضایی با رویدادش نمی‌خواند، یا امضاکننده کلید مورد اعتماد نیست",
        commitments: "بذری که آشکار شد همانی نیست که پیش از دادن کارت تعهد شده بود",
        seed_chain: "بذر این دست از زنجیرهٔ بذر میز نمی‌آید",
        decks: "کارتی که نشان داده شده همان کارتی نیست که دستهٔ تعهدشده در آن جا دارد",
        player_signatures: "امضای بازیکن بر یک حرکت درست نیست",
        private_inputs: "انتخاب پنهانی که در پایان گشوده شد همانی نیست که تعهد شده بود",
        log_proof: "دفتر عمومی باشگاه این دست را آن‌گونه که در این پرونده است در خود ندارد",
        rules: "حرکتی خلاف قوانین بازی است",
        settlement: "نتیجه یا پرداخت‌ها از بازی به دست نمی‌آیند"
      },
      unproven: "ثابت‌نشده",
      unproven_step: "ثابت‌نشده: این گام در نخستین مشکل یا پس از آن است.",
      unproven_table: (step) => `ثابت‌نشده: این میز از رویدادهایی می‌آید که وارسی نمی‌شوند (از گام ${fa(step)}).`,
      unproven_table_all: "ثابت‌نشده: پرونده وارسی نمی‌شود.",
      no_table_unproven: (step) => `اینجا میزی کشیده نمی‌شود: رویدادهای گام ${fa(step)} به بعد وارسی نمی‌شوند و هیچ نمایی از آن‌ها قابل اعتماد نیست.`,
      status_claimed: (s) => `ادعا: «${s}»، وارسی‌نشده`,
      no_faces: (step) => `کارت‌های دست بازیکنان نشان داده نمی‌شوند: رویِ آن‌ها از بذرهایی می‌آید که در پایان آشکار شد، و رویدادها از گام ${step} به بعد وارسی نمی‌شوند. کارت‌هایی که رو بازی شده‌اند همان‌گونه که ثبت شده‌اند نشان داده می‌شوند.`,
      result: "نتیجه",
      hide_result: "پنهان کردن نتیجه",
      show_result: "نمایش نتیجه",
      takes_trick: (who2) => `دست را ${who2} برد`,
      trick_no: (n2) => `دست ${fa(n2)}`,
      team: "تیم",
      watch_as: "تماشا از جای",
      watch_all: "همهٔ جاها (همهٔ کارت‌ها)",
      watch_seat: (s, name) => `${name ? `${name}، ` : ""}جای ${fa(s)}`,
      watch_note_seat: (s) => `شما از جای ${fa(s)} تماشا می‌کنید: در هر گام فقط کارت‌هایی که آن جا می‌توانست ببیند، تا آشکار شدن بذرها.`,
      watch_note_after: "دست تمام شده و بذرهایش آشکار شده است: همهٔ کارت‌ها نشان داده می‌شوند.",
      watch_unavailable: "نمای یک جا به موتور قوانین این بازی در صفحه نیاز دارد؛ فقط نمای کامل در دسترس است.",
      speed: "سرعت",
      bookkeeping: (n2) => `${fa(n2)} گام دفترداری (بذرها، بُرزدن‌ها)`,
      all_steps: "همهٔ گام‌ها",
      played_by: "بازی کرد",
      share_expired_title: "مهلت این پیوند اشتراک تمام شده است",
      share_expired_help: "پیوندهای اشتراک مدت محدودی کار می‌کنند. از کسی که آن را برایتان فرستاده (باشگاه) پیوند تازه بخواهید.",
      share_revoked_title: "این پیوند اشتراک لغو شده است",
      share_revoked_help: "باشگاه این پیوند را پس گرفته است. اگر هنوز باید دست را ببینید، از باشگاه پیوند تازه بخواهید.",
      share_bad_title: "این پیوند اشتراک معتبر نیست",
      share_bad_help: "شاید پیوند ناقص کپی شده باشد. آن را دوباره از پیامی که در آن آمده باز کنید، یا از باشگاه پیوند تازه بخواهید.",
      link_share: "این نشانی پیوند اشتراک را دارد: می‌توانید آن را به دیگران بدهید و در همین گام باز می‌شود.",
      link_private: "این نشانی دست را فقط برای کسی باز می‌کند که خودش دسترسی دارد: برای دادن دست به دیگران، از باشگاه پیوند اشتراک بخواهید.",
      copy_link: "کپی پیوند این گام",
      copied: "کپی شد",
      rtl: true
    }
  };
  var FA_NUM = new Intl.NumberFormat("fa-IR", { useGrouping: true });
  var EN_NUM = new Intl.NumberFormat("en-US", { useGrouping: true });
  function fa(n2) {
    return typeof n2 === "number" ? FA_NUM.format(n2) : String(n2);
  }
  function num(lang, n2) {
    if (typeof n2 !== "number") return String(n2 ?? "");
    return lang === "fa" ? FA_NUM.format(n2) : EN_NUM.format(n2);
  }
  var iso = (name) => `⁨${String(name).replace(/[\u2066-\u2069]/g, "")}⁩`;
  var PHASES = {
    await_shuffle: ["waiting for the shuffle", "در انتظار بُر"],
    bank_offer: ["the bank is offered", "پیشنهاد بانک"],
    round_start: ["a round starts", "آغاز دور"],
    swap_decision: ["the banker may swap the hidden card", "تصمیم عوض کردن کارت پنهان"],
    await_bet: ["bets", "شرط‌بندی"],
    face_choice: ["face up or down", "رو یا پشت"],
    player_turn: ["a player's turn", "نوبت بازیکن"],
    await_suz: ['waiting for "suz"', "در انتظار «سوز»"],
    banker_turn: ["the banker's turn", "نوبت بانکدار"],
    hand_over: ["the hand is over", "پایان دست"],
    awaiting_cut: ["the cut", "کپ کردن"],
    awaiting_trump: ["the hakem chooses trump", "حاکم حکم را می‌گزیند"],
    fallback_trump: ["trump by the fallback rule", "حکم به قاعدهٔ جایگزین"],
    awaiting_discard: ["laying away cards", "کنار گذاشتن کارت"],
    awaiting_bam: ["play on for bam?", "ادامه برای بام؟"],
    draw_turn: ["drawing from the stock", "برداشتن از دسته"],
    awaiting_dealer_peek: ["the dealer's peek", "نگاه دست‌دهنده"],
    playing: ["play", "بازی"],
    play: ["play", "بازی"],
    relabel: ["the pile goes back into a hand", "کپه به دست بازمی‌گردد"],
    out_pending: ["a player may be out", "بیرون رفتن بازیکن در انتظار"],
    abandoned: ["abandoned", "رهاشده"],
    over: ["over", "تمام"],
    match_over: ["the match is over", "پایان مسابقه"]
  };
  function phaseName(id, lang) {
    const p = PHASES[id];
    if (p) return lang === "fa" ? p[1] : p[0];
    return String(id ?? "").replace(/_/g, " ");
  }

  // src/ui/cards.js
  var SUITS2 = {
    S: { sym: "♠", red: false, en: "spades", fa: "پیک" },
    H: { sym: "♥", red: true, en: "hearts", fa: "دل" },
    D: { sym: "♦", red: true, en: "diamonds", fa: "خشت" },
    C: { sym: "♣", red: false, en: "clubs", fa: "گشنیز" }
  };
  var RANKS_EN = { A: "ace", K: "king", Q: "queen", J: "jack" };
  var RANKS_FA = { A: "آس", K: "شاه", Q: "بی‌بی", J: "سرباز" };
  function parseCard(code) {
    if (typeof code !== "string") return null;
    if (code === "BJ" || code === "CJ") return { rank: "Joker", suit: code };
    const suit = code.slice(-1);
    if (!SUITS2[suit]) return null;
    return { rank: code.slice(0, -1), suit };
  }
  function cardName(code, lang = "en") {
    const c = parseCard(code);
    if (!c) return String(code);
    if (c.rank === "Joker") return lang === "fa" ? "ژوکر" : code === "BJ" ? "black joker" : "coloured joker";
    const s = SUITS2[c.suit];
    if (lang === "fa") return `${RANKS_FA[c.rank] ?? c.rank} ${s.fa}`;
    return `${RANKS_EN[c.rank] ?? c.rank} of ${s.en}`;
  }
  function suitLabel(code, lang = "en") {
    const s = SUITS2[code];
    return s ? `${s.sym} ${lang === "fa" ? s.fa : s.en}` : String(code ?? "—");
  }
  function cardEl(face, { up = false, lang = "en", small = false } = {}) {
    const c = parseCard(face);
    if (!c) {
      return h("span.card.back" + (small ? ".small" : ""), {
        role: "img",
        "aria-label": lang === "fa" ? "کارت پشت‌ورو" : "face-down card",
        dataset: { card: "hidden" }
      });
    }
    const red = c.rank === "Joker" ? c.suit === "CJ" : SUITS2[c.suit].red;
    return h(
      "span.card" + (red ? ".red" : "") + (up ? ".up" : "") + (small ? ".small" : ""),
      { role: "img", "aria-label": cardName(face, lang), dataset: { card: face }, dir: "ltr" },
      h("span.rank", c.rank === "Joker" ? "J" : c.rank),
      h("span.suit", c.rank === "Joker" ? "★" : SUITS2[c.suit].sym)
    );
  }

  // src/ui/result.js
  var seatLabel = (players, s, lang) => {
    const p = players?.[s];
    if (p) return iso(p);
    return lang === "fa" ? `جای ${num("fa", s)}` : `seat ${s}`;
  };
  var TEAM_LETTERS = ["A", "B", "C", "D"];
  var TEAM_FA2 = ["الف", "ب", "ج", "د"];
  function hokmSides(n2, seating, players) {
    const order = Array.isArray(seating) && seating.length === n2 ? seating : [...Array(n2).keys()];
    if (n2 === 4) {
      return [0, 1].map((side) => {
        const seats = order.filter((_, place4) => place4 % 2 === side);
        return {
          side,
          seats,
          label: {
            en: `Team ${TEAM_LETTERS[side]} (${seats.map((s) => seatLabel(players, s, "en")).join(" & ")})`,
            fa: `تیم ${TEAM_FA2[side]} (${seats.map((s) => seatLabel(players, s, "fa")).join(" و ")})`
          },
          short: { en: `Team ${TEAM_LETTERS[side]}`, fa: `تیم ${TEAM_FA2[side]}` }
        };
      });
    }
    return [...Array(n2).keys()].map((s) => ({
      side: s,
      seats: [s],
      label: { en: seatLabel(players, s, "en"), fa: seatLabel(players, s, "fa") },
      short: { en: seatLabel(players, s, "en"), fa: seatLabel(players, s, "fa") }
    }));
  }
  var KIND = {
    plain: { en: "", fa: "" },
    kot: { en: "kot: the hakem's side took every one of the seven", fa: "کُت: طرف حاکم هفت دست را بی‌باخت برد" },
    por_kot: { en: "por kot: the hakem's opponents took seven, the hakem's side none", fa: "پر کُت: حریفان حاکم هفت دست بردند و طرف حاکم هیچ" },
    kot_at_six: { en: "kot at six, scored as one", fa: "کُت در شش، یک امتیاز" },
    six_six_five: { en: "nobody reached seven; five tricks win", fa: "کسی به هفت نرسید؛ پنج دست برنده است" },
    bam: { en: "bam: every trick", fa: "بام: همهٔ دست‌ها" }
  };
  var BLUFF_TITLES = {
    king: { en: "King", fa: "شاه" },
    vizier: { en: "Vizier", fa: "وزیر" },
    executioner: { en: "Executioner", fa: "جلاد" },
    thief: { en: "Thief", fa: "دزد" }
  };
  var place3 = (i, lang) => lang === "fa" ? `${num("fa", i)}.` : `${i}.`;
  function resultOf2(game, body, players, seating) {
    if (!body) return null;
    if (body.type === "abandoned") {
      return { title: { en: "The hand was abandoned", fa: "دست رها شد" }, lines: [{ en: `Reason: ${body.reason}`, fa: `دلیل: ${body.reason}` }], winners: [] };
    }
    if (body.type !== "hand_ended") return null;
    const o = body.outcome ?? {};
    const both = (f) => ({ en: f("en"), fa: f("fa") });
    if (game === "hokm" && Number.isInteger(o.winner)) {
      const n2 = o.seats ?? players?.length ?? 4;
      const sides2 = hokmSides(n2, seating ?? o.next?.seating, players);
      const w = sides2.find((x) => x.side === o.winner) ?? sides2[0];
      const kind = KIND[o.kind] ?? { en: String(o.kind ?? ""), fa: String(o.kind ?? "") };
      const points2 = Array.isArray(o.points) ? o.points[o.winner] : null;
      const lines = [];
      if (Array.isArray(o.tricks)) {
        lines.push(both((l) => `${l === "fa" ? "دست‌های برده" : "Tricks"}: ${sides2.map((s) => `${s.short[l]} ${num(l, o.tricks[s.side] ?? 0)}`).join(l === "fa" ? "، " : ", ")}`));
      }
      if (points2 !== null) lines.push(both((l) => l === "fa" ? `امتیاز این دست: ${num("fa", points2)} برای ${w.short.fa}` : `Points for this hand: ${points2} to ${w.short.en}`));
      const next = o.next;
      if (Array.isArray(next?.scores)) {
        lines.push(both((l) => `${l === "fa" ? "امتیاز مسابقه" : "Match score"}: ${sides2.map((s) => `${s.short[l]} ${num(l, next.scores[s.side] ?? 0)}`).join(l === "fa" ? "، " : ", ")}`));
      }
      if (next?.over && Number.isInteger(next.winner)) {
        const mw = sides2.find((x) => x.side === next.winner);
        if (mw) lines.push(both((l) => l === "fa" ? `${mw.label.fa} مسابقه را برد` : `${mw.label.en} wins the match`));
      }
      for (const s of sides2.filter((x) => sides2.length === 2 || x.side === o.winner)) lines.push(both((l) => s.label[l]));
      return {
        title: both((l) => l === "fa" ? `${w.label.fa} دست را برد${kind.fa ? ` (${kind.fa})` : ""}` : `${w.label.en} wins the hand${kind.en ? ` (${kind.en})` : ""}`),
        lines: dedupe(lines),
        winners: w.seats
      };
    }
    if (game === "bluff" && Array.isArray(o.order) && Array.isArray(o.titles)) {
      const king = o.order[0];
      const thief = o.order[o.order.length - 1];
      const title = (s, l) => BLUFF_TITLES[o.titles[s]]?.[l] ?? String(o.titles[s] ?? "");
      return {
        title: both((l) => l === "fa" ? `${seatLabel(players, king, "fa")} شاه شد؛ ${seatLabel(players, thief, "fa")} دزد است` : `${seatLabel(players, king, "en")} is King; ${seatLabel(players, thief, "en")} is the Thief`),
        lines: o.order.map((s, i) => both((l) => `${place3(i + 1, l)} ${seatLabel(players, s, l)}: ${title(s, l)}`)),
        winners: [king]
      };
    }
    if (game === "bist-o-yek" && Array.isArray(o.net)) {
      const best = Math.max(...o.net);
      const sign = (x, l) => `${x > 0 ? "+" : x < 0 ? "−" : ""}${num(l, Math.abs(x))}`;
      return {
        title: both((l) => l === "fa" ? "دست تمام و تسویه شد" : "The hand is over and settled"),
        lines: o.net.map((x, s) => both((l) => `${seatLabel(players, s, l)}: ${sign(x, l)}${Array.isArray(o.balances) ? l === "fa" ? ` (موجودی ${num("fa", o.balances[s])})` : ` (balance ${num("en", o.balances[s])})` : ""}`)),
        winners: best > 0 ? o.net.map((x, s) => x === best ? s : -1).filter((s) => s >= 0) : []
      };
    }
    return { title: both((l) => l === "fa" ? "دست تمام شد" : "The hand is over"), lines: [], winners: [] };
  }
  function dedupe(lines) {
    const seen = /* @__PURE__ */ new Set();
    return lines.filter((x) => seen.has(x.en) ? false : (seen.add(x.en), true));
  }

  // src/ui/describe.js
  var GAME_NAMES = {
    "bist-o-yek": { en: "Bist-o-yek (21)", fa: "بیست و یک" },
    hokm: { en: "Hokm", fa: "حکم" },
    shelem: { en: "Shelem", fa: "شلم" },
    ghahve: { en: "Ghahve", fa: "قهوه" },
    pasur: { en: "Pasur", fa: "پاسور" },
    "haft-khabis": { en: "Haft Khabis", fa: "هفت خبیث" },
    bluff: { en: "Bluff", fa: "بلوف" },
    sheytoonak: { en: "Sheytoonak", fa: "شیطونک" }
  };
  var SUIT_FA2 = { S: "پیک", H: "دل", D: "خشت", C: "گشنیز" };
  var SUIT_EN2 = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  function gameName(game, lang) {
    return GAME_NAMES[game]?.[lang] ?? String(game);
  }
  function who(actor2, players, lang) {
    if (actor2 === "service") return lang === "fa" ? "سرویس" : "The service";
    const s = actor2 && typeof actor2 === "object" ? actor2.seat : actor2;
    const name = players?.[s] ? iso(players[s]) : null;
    if (lang === "fa") return name ? `${name} (جای ${fa(s)})` : `جای ${fa(s)}`;
    return name ? `${name} (seat ${s})` : `Seat ${s}`;
  }
  function facesOf(view7) {
    const out = /* @__PURE__ */ new Map();
    const walk = (v) => {
      if (Array.isArray(v)) return v.forEach(walk);
      if (!v || typeof v !== "object") return;
      const ref2 = v.ref ?? v.card;
      if (ref2 && typeof ref2 === "object" && "shuffle" in ref2 && typeof v.face === "string") out.set(`${ref2.shuffle}:${ref2.pos}`, v.face);
      for (const x of Object.values(v)) if (x && typeof x === "object") walk(x);
    };
    walk(view7);
    return out;
  }
  function cardsNamed(refs, view7, lang) {
    const faces = facesOf(view7);
    const names = (refs || []).map((r) => {
      const f = r && faces.get(`${r.shuffle}:${r.pos}`);
      return f ? cardName(f, lang) : null;
    });
    if (names.some((n2) => n2 === null)) return null;
    return names.join(lang === "fa" ? "، " : ", ");
  }
  function n(lang, x) {
    return lang === "fa" ? fa(x) : String(x);
  }
  var PENALTY_NAMES = {
    cheating_penalty: { en: "the cheating penalty", fa: "جریمهٔ تقلب" }
  };
  function adjustmentText(a, players, lang) {
    const E = lang !== "fa";
    const aw = a?.award ?? {};
    const name = PENALTY_NAMES[aw.penalty]?.[E ? "en" : "fa"] ?? String(aw.penalty);
    const groups = (Array.isArray(aw.beneficiaries) ? aw.beneficiaries : []).map((g) => (Array.isArray(g) ? g : []).map((s) => who({ seat: s }, players, E ? "en" : "fa")).join(E ? " and " : " و "));
    const gainers = groups.join(E ? "; " : "؛ ");
    const offender = who({ seat: aw.offender }, players, E ? "en" : "fa");
    return E ? `A club official's penalty ruling counts in the match before this hand (dispute ${a.dispute}, ruling entry ${a.seq}): ${name} (${aw.section}) against ${offender}, ${aw.points} point(s) to ${gainers}; the hand starts from the score with it added.` : `پیش از این دست، رأی جریمهٔ داور باشگاه در مسابقه به حساب می‌آید (اختلاف ${a.dispute}، ثبت ${fa(a.seq)}): ${name} (${aw.section}) برای ${offender}، ${fa(aw.points)} امتیاز به ${gainers}؛ دست از امتیازی آغاز می‌شود که این به آن افزوده شده است.`;
  }
  function action(game, a, view7, lang) {
    const t2 = a?.type;
    const E = lang === "en";
    switch (t2) {
      // bist-o-yek
      case "accept_bank":
        return E ? "accepts the bank" : "بانک را می‌پذیرد";
      case "decline_bank":
        return E ? "declines the bank" : "بانک را نمی‌پذیرد";
      case "announce_khabar":
        return E ? "announces bank khabar (the bank is high)" : "خبرِ بانک می‌دهد";
      case "deal":
        return E ? "deals" : "کارت می‌دهد";
      case "swap":
        return E ? "swaps the hidden card" : "کارت پنهان را عوض می‌کند";
      case "keep":
        return E ? "keeps the hidden card" : "کارت پنهان را نگه می‌دارد";
      case "bet":
        return E ? `bets ${a.amount}` : `${fa(a.amount)} شرط می‌بندد`;
      case "side_bet":
        return E ? `places a side bet of ${a.amount}` : `${fa(a.amount)} شرط کناری می‌بندد`;
      case "hit":
        return a.expose ? E ? `asks for a card and shows ${cardName(a.expose, "en")}` : `کارت می‌خواهد و ${cardName(a.expose, "fa")} را رو می‌کند` : E ? "asks for a card (hit)" : "کارت می‌خواهد";
      case "stand":
        return E ? "stands" : "می‌ایستد";
      case "deal_face_up":
        return E ? "deals the next card face up" : "کارت بعد را رو می‌دهد";
      case "deal_face_down":
        return E ? "deals the next card face down" : "کارت بعد را پشت‌ورو می‌دهد";
      case "announce_suz":
        return E ? 'says "suz" (went over 21)' : "می‌گوید «سوز» (بیش از ۲۱)";
      case "banker_hit":
        return E ? "the banker draws a card" : "بانکدار کارت می‌کشد";
      case "banker_stand":
        return E ? "the banker stands" : "بانکدار می‌ایستد";
      case "end_match":
        return E ? "ends the match" : "مسابقه را پایان می‌دهد";
      // hokm
      case "cut":
        return E ? `cuts the deck at ${a.k}` : `دسته را از ${fa(a.k)} می‌بُرد`;
      case "declare_trump":
        return E ? `declares trump (hokm): ${SUIT_EN2[a.suit] ?? a.suit}` : `حکم را ${SUIT_FA2[a.suit] ?? a.suit} می‌کند`;
      case "request_ten_low_redeal":
        return E ? "asks for a redeal (ten low)" : "درخواست دوباره دادن می‌کند";
      case "call_sar_ghermez":
        return E ? "calls sar ghermez" : "سرِ قرمز می‌خواند";
      case "call_sar_siah":
        return E ? "calls sar siah" : "سرِ سیاه می‌خواند";
      case "call_barg_vasat":
        return E ? "calls barg vasat" : "برگِ وسط می‌خواند";
      case "call_ya":
        return E ? `calls ya: ${SUIT_EN2[a.x] ?? a.x} or ${SUIT_EN2[a.y] ?? a.y}` : `یا می‌خواند: ${SUIT_FA2[a.x] ?? a.x} یا ${SUIT_FA2[a.y] ?? a.y}`;
      case "discard":
        return E ? `discards ${a.cards?.length ?? 0} card(s)` : `${fa(a.cards?.length ?? 0)} کارت می‌سوزاند`;
      case "keep_first":
        return E ? "keeps the first card" : "کارت نخست را نگه می‌دارد";
      case "take_second":
        return E ? "takes the second card" : "کارت دوم را برمی‌دارد";
      case "choose_final":
        return E ? "chooses the final card" : "کارت آخر را برمی‌گزیند";
      case "peek_partner_packet":
        return E ? "peeks at the partner's packet" : "به بستهٔ یار نگاه می‌کند";
      case "decline_peek":
        return E ? "declines to peek" : "نگاه نمی‌کند";
      case "play": {
        const c = cardsNamed([a.card], view7, lang);
        return E ? `plays ${c ?? "a card"}` : `${c ?? "یک کارت"} بازی می‌کند`;
      }
      case "continue_for_bam":
        return E ? "plays on for bam (every trick)" : "برای بام (کُت) ادامه می‌دهد";
      case "end_hand":
        return E ? "ends the hand" : "دست را پایان می‌دهد";
      case "award_cheating_penalty":
        return E ? `penalises seat ${a.offender} for cheating` : `جای ${fa(a.offender)} را برای تقلب جریمه می‌کند`;
      // bluff
      case "lead": {
        const c = a.cards?.length ?? 0;
        return E ? `leads ${c} card(s), claiming ${a.rank}` : `${fa(c)} کارت می‌گذارد و ادعا می‌کند ${a.rank}`;
      }
      case "follow": {
        const c = a.cards?.length ?? 0;
        return E ? `follows with ${c} card(s)` : `${fa(c)} کارت دنبال می‌گذارد`;
      }
      case "pass":
        return E ? "passes" : "رد می‌کند";
      case "challenge":
        return E ? "calls bluff" : "بلوف می‌گیرد";
      case "no_challenge":
        return E ? "does not challenge" : "بلوف نمی‌گیرد";
      case "request_challenge":
        return E ? "asks the next player to challenge" : "از نفر بعد می‌خواهد بلوف بگیرد";
      default:
        return E ? `${t2 ?? "acts"}` : `${t2 ?? "کنشی انجام می‌دهد"}`;
    }
  }
  function outcomeText(outcome, players, lang) {
    const net = Array.isArray(outcome?.net) ? outcome.net : null;
    if (!net) return "";
    const parts = net.map((x, s) => {
      const name = players?.[s] ? iso(players[s]) : lang === "fa" ? `جای ${fa(s)}` : `seat ${s}`;
      const sign = x > 0 ? "+" : "";
      return `${name} ${sign}${n(lang, x)}`;
    });
    return lang === "fa" ? ` نتیجه: ${parts.join("، ")}` : ` Result: ${parts.join(", ")}.`;
  }
  function describe(record, { game, players, view: view7 } = {}) {
    const out = {};
    for (const lang of ["en", "fa"]) out[lang] = describeIn(record, { game, players, view: view7 }, lang);
    return out;
  }
  function describeIn(record, { game, players, view: view7 }, lang) {
    const ev = record?.event ?? record;
    const b = ev?.body ?? {};
    const E = lang === "en";
    switch (b.type) {
      case "hand_started": {
        const start2 = E ? `Hand ${b.hand_no} of ${gameName(b.game ?? game, "en")} starts with ${b.seats?.length ?? "?"} seats; the commitment to shuffle 0 is published before any card is dealt.` : `دست ${fa(b.hand_no)} از ${gameName(b.game ?? game, "fa")} با ${fa(b.seats?.length ?? 0)} بازیکن آغاز می‌شود؛ تعهد به بُرزدن ۰ پیش از دادن هر کارت منتشر می‌شود.`;
        const carried = (Array.isArray(b.adjustments) ? b.adjustments : []).map((a) => adjustmentText(a, players, lang));
        return [start2, ...carried].join(" ");
      }
      case "shuffle_committed":
        return E ? `The commitment to shuffle ${b.shuffle} is published.` : `تعهد به بُرزدن ${fa(b.shuffle)} منتشر می‌شود.`;
      case "client_seed":
        return E ? `${who({ seat: b.seat }, players, "en")} adds a client seed to shuffle ${b.shuffle}.` : `${who({ seat: b.seat }, players, "fa")} بذر خود را به بُرزدن ${fa(b.shuffle)} می‌افزاید.`;
      case "shuffled": {
        const missing = Array.isArray(b.missing) && b.missing.length ? b.missing : null;
        const m = missing ? E ? ` (without the seed of seat ${missing.join(", ")})` : ` (بی بذرِ جای ${missing.map(fa).join("، ")})` : "";
        return E ? `Shuffle ${b.shuffle} is used: ${b.cards} cards in a committed order${m}.` : `بُرزدن ${fa(b.shuffle)} به کار می‌رود: ${fa(b.cards)} کارت به ترتیبی که از پیش تعهد شده${m}.`;
      }
      case "action":
        return `${who(b.actor, players, lang)} ${action(game, b.action, view7, lang)}.`.replace(/^(.)/, (c) => c);
      case "private_action":
        return E ? `${who(b.actor, players, "en")} makes a private choice (${b.public?.type ?? "hidden"}), committed now and opened at the end.` : `${who(b.actor, players, "fa")} انتخابی پنهان می‌کند که اکنون تعهد و در پایان گشوده می‌شود.`;
      case "hand_ended": {
        const r = game === "hokm" || game === "bluff" ? resultOf2(game, b, players, b.outcome?.next?.seating) : null;
        if (r && (r.winners.length || game === "bluff")) return E ? `The hand is over: ${r.title.en}.` : `دست تمام شد: ${r.title.fa}.`;
        return (E ? "The hand is over and settled." : "دست تمام و تسویه شد.") + outcomeText(b.outcome, players, lang);
      }
      case "abandoned":
        return E ? `The hand is abandoned: ${b.reason}` : `دست رها شد: ${b.reason}`;
      case "seeds_revealed":
        return E ? `Every server seed is revealed (${b.seeds?.length ?? 0}): anyone can now re-derive every deck.` : `همهٔ بذرهای سرور آشکار شد (${fa(b.seeds?.length ?? 0)}): اکنون هر کس می‌تواند همهٔ دسته‌ها را دوباره بسازد.`;
      default:
        return E ? `Event ${ev?.seq}: ${b.type ?? "unknown"}` : `رویداد ${fa(ev?.seq)}: ${b.type ?? "ناشناخته"}`;
    }
  }

  // src/ui/table.js
  var isSeat = (a, s) => a && typeof a === "object" && a.seat === s;
  function viewerSeat(viewer) {
    return viewer && typeof viewer === "object" && Number.isInteger(viewer.seat) ? viewer.seat : null;
  }
  function cardOf(c) {
    return { face: typeof c?.face === "string" ? c.face : null, up: !!c?.face_up };
  }
  function bistModel(v, t2) {
    const n2 = Array.isArray(v.balances) ? v.balances.length : 0;
    const seats = [];
    for (let s = 0; s < n2; s++) {
      const cards = [];
      let total2 = null;
      const roles = [];
      if (v.banker === s) roles.push(t2.banker);
      else if (v.banker === null && v.candidate === s) roles.push(`${t2.banker}?`);
      for (const w of v.waiting ?? []) if (w.seat === s) cards.push(cardOf(w.card));
      if (v.duel && v.duel.player === s) {
        for (const c of v.duel.cards ?? []) cards.push(cardOf(c));
        if (Number.isInteger(v.duel.total)) total2 = v.duel.total;
      }
      if (v.banker === s) {
        if (v.hidden) cards.push(cardOf(v.hidden.card));
        for (const c of v.banker_cards ?? []) cards.push(cardOf(c));
        if (Number.isInteger(v.banker_total)) total2 = v.banker_total;
      }
      const lines = [[t2.balance, v.balances[s]]];
      for (const e of v.escrow ?? []) if (e.seat === s) lines.push([e.main ? t2.bet : t2.side_bet, e.amount]);
      seats.push({ seat: s, cards, total: total2, roles, lines, active: (v.to_act ?? []).some((a) => isSeat(a, s)) });
    }
    const center = [
      [t2.bank, v.bank],
      [t2.stake, v.stake],
      [t2.stock, v.stock],
      [t2.discard, v.discard]
    ];
    if (v.khabar) center.push(["khabar", "✓"]);
    return { seats, center, centerCards: (v.discard_seen ?? []).map((f) => ({ face: f, up: true, small: true })), phase: v.phase?.name ?? null };
  }
  function zoneCards(zones, name, of) {
    for (const z of zones ?? []) if (z.zone === name && (of === void 0 || z.of === of)) return z.cards ?? [];
    return [];
  }
  function hokmModel(v, t2, { trick, players, lang }) {
    const n2 = v.seats ?? 0;
    const order = Array.isArray(v.match?.seating) && v.match.seating.length === n2 ? v.match.seating : [...Array(n2).keys()];
    const sides2 = hokmSides(n2, order, players);
    const seats = [];
    const dealt = (v.zones ?? []).some((z) => z.zone === "hand" && (z.cards ?? []).length);
    const played = /* @__PURE__ */ new Map();
    if (trick) for (const c of trick.cards) played.set(c.seat, c.face);
    else {
      const start2 = order.indexOf(v.leader);
      (v.trick ?? []).forEach((c, i) => played.set(start2 < 0 ? i : order[(start2 + i) % n2], cardOf(c).face));
    }
    for (let s = 0; s < n2; s++) {
      const roles = [];
      if (v.hakem === s) roles.push(t2.hakem);
      if (v.dealer === s) roles.push(t2.dealer);
      if (n2 === 4) roles.push(sides2.find((x) => x.seats.includes(s))?.short[lang] ?? "");
      const cards = zoneCards(v.zones, "hand", s).map(cardOf);
      const drawn = dealt ? [] : (v.drawn ?? []).filter((d) => d.seat === s).map((d) => ({ ...cardOf(d.card), up: true }));
      seats.push({
        seat: s,
        cards: [...drawn, ...cards],
        roles,
        lines: [[t2.tricks, v.tricks_won?.[s] ?? 0]],
        active: !trick?.done && (v.to_act ?? []).some((a) => isSeat(a, s)),
        played: played.has(s) ? { face: played.get(s), winner: trick?.done && trick.winner === s } : null
      });
    }
    const center = [];
    if (v.trump) center.push([t2.trump, suitLabel(v.trump, lang)]);
    const bySide = (arr2) => sides2.map((x) => `${x.short[lang]} ${num(lang, arr2[x.side] ?? 0)}`).join(lang === "fa" ? "، " : ", ");
    if (Array.isArray(v.match?.scores)) center.push([t2.score, bySide(v.match.scores)]);
    if (Array.isArray(v.match?.rounds) && v.match.rounds.some((r) => r > 0)) center.push([t2.rounds, bySide(v.match.rounds)]);
    if (Array.isArray(v.side_tricks) && n2 === 4) center.push([t2.tricks, bySide(v.side_tricks)]);
    const banner = trick?.done ? t2.takes_trick(players[trick.winner] ? iso(players[trick.winner]) : t2.seat(trick.winner)) : null;
    return { seats, order, center, centerCards: [], banner, winner: trick?.done ? trick.winner : null, phase: typeof v.phase === "string" ? v.phase : v.phase?.name ?? null };
  }
  function bluffModel(v, t2, { lang }) {
    const n2 = v.seats ?? 0;
    const seats = [];
    const last = (v.pile ?? [])[(v.pile ?? []).length - 1] ?? null;
    for (let s = 0; s < n2; s++) {
      const hand = (v.hands ?? []).find((x) => x.seat === s);
      const roles = [];
      if (v.dealer === s) roles.push(t2.dealer);
      seats.push({
        seat: s,
        cards: (hand?.cards ?? []).map(cardOf),
        roles,
        lines: [["#", hand?.count ?? 0]],
        active: (v.to_act ?? []).some((a) => isSeat(a, s)) || v.turn === s,
        played: last && last.seat === s ? { faces: (last.cards ?? []).map((c) => cardOf(c).face), claim: claimText(last.count, last.rank, lang) } : null
      });
    }
    const center = [[t2.pile, v.pile_size ?? 0]];
    if (v.round_rank) center.push([t2.claimed, rankText(v.round_rank, lang)]);
    return { seats, center, centerCards: [], pile: v.pile_size ?? 0, phase: v.phase?.name ?? v.phase ?? null };
  }
  var RANK_FA3 = { J: "سرباز", Q: "بی‌بی", K: "شاه", A: "تک" };
  var rankText = (r, lang) => lang === "fa" ? RANK_FA3[r] ?? num("fa", Number(r)) : String(r);
  var claimText = (count, rank, lang) => lang === "fa" ? `${num("fa", count)} تا ${rankText(rank, "fa")}` : `${count} × ${rank}`;
  function zonesModel(v) {
    const hands = (v.zones ?? []).filter((z) => z.zone === "hand");
    const n2 = v.seats ?? hands.reduce((m, z) => Math.max(m, (z.of ?? 0) + 1), 0);
    const seats = [];
    for (let s = 0; s < n2; s++) seats.push({ seat: s, cards: zoneCards(v.zones, "hand", s).map(cardOf), roles: [], lines: [], active: (v.to_act ?? []).some((a) => isSeat(a, s)) });
    const centerCards = [...zoneCards(v.zones, "table"), ...zoneCards(v.zones, "trick")].map((c) => ({ ...cardOf(c), up: true }));
    return { seats, center: [], centerCards, phase: v.phase?.name ?? (typeof v.phase === "string" ? v.phase : null) };
  }
  function modelOf(game, view7, t2, ctx = {}) {
    if (!view7 || typeof view7 !== "object") return null;
    const c = { players: [], lang: t2.rtl ? "fa" : "en", trick: null, ...ctx };
    if (game === "bist-o-yek") return bistModel(view7, t2);
    if (game === "hokm") return hokmModel(view7, t2, c);
    if (game === "bluff") return bluffModel(view7, t2, c);
    return zonesModel(view7);
  }
  function drawTable({ game, view: view7, players = [], lang = "en", me = null, trick = null, unproven = null, result = null, onHideResult = null }) {
    const t2 = STRINGS[lang];
    const m = modelOf(game, view7, t2, { trick, players, lang });
    if (!m) return h("div.table.empty", t2.views_none);
    const n2 = m.seats.length;
    const order = m.order ?? [...Array(n2).keys()];
    const bottom = me !== null && order.includes(me) ? order.indexOf(me) : 0;
    const table3 = h("div.table" + (unproven ? ".unproven" : ""), { role: "group", "aria-label": lang === "fa" ? "میز" : "the table", dataset: { game, seats: String(n2), unproven: unproven ? "true" : "false" } });
    const felt = h("div.felt");
    table3.append(felt);
    const name = (s) => players[s] ? iso(players[s]) : t2.seat(s);
    for (const s of m.seats) {
      const p = (order.indexOf(s.seat) - bottom + n2) % n2;
      const a = 2 * Math.PI * p / Math.max(n2, 1);
      const faces = s.cards.filter((c) => c.face).map((c) => c.face);
      let slot = null;
      if (s.played) {
        const list = s.played.faces ?? [s.played.face];
        slot = h(
          "div.played-slot" + (s.played.winner ? ".winner" : ""),
          { dataset: { seat: String(s.seat), cards: list.filter(Boolean).join(","), winner: s.played.winner ? "true" : "false" } },
          h("span.stack", list.map((f) => cardEl(f, { up: true, lang, small: list.length > 1 }))),
          s.played.claim ? h("small.claim", s.played.claim) : null,
          s.played.winner ? h("small.win", "★") : null
        );
        slot.style.setProperty("--dx", `${(-Math.sin(a) * 8.5).toFixed(2)}rem`);
        slot.style.setProperty("--dy", `${(-Math.cos(a) * 6.2).toFixed(2)}rem`);
      }
      const el = h(
        "section.seat" + (s.active ? ".active" : "") + (m.winner === s.seat ? ".won-trick" : ""),
        {
          "aria-label": `${t2.seat(s.seat)}${players[s.seat] ? " " + players[s.seat] : ""}`,
          dataset: {
            seat: String(s.seat),
            pos: String(p),
            cards: faces.join(","),
            hidden: String(s.cards.filter((c) => !c.face).length),
            total: s.total === null || s.total === void 0 ? "" : String(s.total)
          }
        },
        h(
          "header.who",
          h("span.name", name(s.seat)),
          h("span.seatno", ` · ${t2.seat(s.seat)}`),
          s.roles.filter(Boolean).map((r) => h("span.role", r)),
          s.active ? h("span.turn", { title: t2.to_act }, "●") : null
        ),
        h("div.hand", s.cards.map((c) => cardEl(c.face, { up: c.up, lang }))),
        s.total !== null && s.total !== void 0 ? h("div.total", `${t2.total}: `, h("b", num(lang, s.total))) : null,
        h("dl.lines", s.lines.map(([k, v]) => [h("dt", k), h("dd", typeof v === "number" ? num(lang, v) : String(v))])),
        slot
      );
      el.style.left = `${50 + 40 * Math.sin(a)}%`;
      el.style.top = `${50 + 38 * Math.cos(a)}%`;
      felt.append(el);
    }
    const center = h(
      "div.center",
      m.banner ? h("p.trick-banner", { role: "status" }, m.banner) : null,
      h("dl.lines", m.center.map(([k, v]) => [h("dt", k), h("dd", { dataset: { key: k } }, typeof v === "number" ? num(lang, v) : String(v))])),
      m.pile !== void 0 ? h("div.pile", { dataset: { size: String(m.pile) }, "aria-hidden": "true" }, m.pile > 0 ? [cardEl(null, { lang, small: true }), m.pile > 1 ? cardEl(null, { lang, small: true }) : null] : null) : null,
      m.centerCards.length ? h("div.played", m.centerCards.map((c) => h("span.played-card", { dataset: { seat: c.seat ?? "" } }, cardEl(c.face, { up: true, lang, small: !!c.small }), c.seat !== void 0 && c.seat !== null ? h("small", name(c.seat)) : null, c.claim ? h("small", c.claim) : null))) : null,
      m.phase ? h("div.phase", { dataset: { phase: m.phase } }, `${t2.phase}: ${phaseName(m.phase, lang)}`) : null,
      h("div.direction", { "aria-hidden": "true", title: lang === "fa" ? "جهت بازی" : "direction of play" }, "↺")
    );
    felt.append(center);
    if (unproven) table3.prepend(h("p.unproven-note", { role: "note" }, "⚠ ", unproven));
    if (result) {
      felt.append(h(
        "section.result",
        { "aria-labelledby": "result-title", dataset: { winners: result.winners.join(",") } },
        h("h3#result-title", h("span.result-label", t2.result), " ", result.title[lang]),
        h("ul", result.lines.map((l) => h("li", l[lang]))),
        onHideResult ? h("button.hide-result", { type: "button", onclick: onHideResult }, t2.hide_result) : null
      ));
    }
    return table3;
  }

  // src/ui/panel.js
  var INTEGRITY_RULES = /* @__PURE__ */ new Set(["hash", "signer", "signature", "chain", "sequence", "record", "encoding", "header"]);
  function ruleChecks(verdict, records) {
    if (!verdict) return null;
    if (verdict.valid) {
      return [
        { id: "rules", ok: true, seq: null, message: `every action re-run through the rules engine (${verdict.events ?? records?.length ?? "?"} events)` },
        { id: "settlement", ok: true, seq: null, message: verdict.outcome ? "the outcome and the payments follow from the play" : "nothing to settle" }
      ];
    }
    const p = verdict.problem ?? {};
    const seq = Number.isInteger(p.event) ? p.event : null;
    const msg = `${seq === null ? "bundle" : `event ${seq}`}${p.seat !== null && p.seat !== void 0 ? `, seat ${p.seat}` : ""}: ${p.rule}: expected ${p.expected}, found ${p.found}`;
    const body = seq === null ? null : records?.[seq]?.event?.body;
    if (body?.type === "hand_ended") {
      return [
        { id: "rules", ok: true, seq: null, message: "every action up to the end follows the rules" },
        { id: "settlement", ok: false, seq, rule: p.rule, message: msg }
      ];
    }
    if (INTEGRITY_RULES.has(p.rule)) {
      const m = `not reached: the record fails before the rules (${msg})`;
      return [
        { id: "rules", ok: null, seq: null, message: m },
        { id: "settlement", ok: null, seq: null, message: m }
      ];
    }
    return [
      { id: "rules", ok: false, seq, rule: p.rule, message: msg },
      { id: "settlement", ok: null, seq: null, message: "not reached: the rules fail first" }
    ];
  }
  var SHOWN = ["commitments", "decks", "chain", "signatures"];
  function drawPanel({ crypto, rules, source, lang, onGoto, note }) {
    const t2 = STRINGS[lang];
    const rows = [];
    const list = crypto?.checks ?? [];
    for (const c of list) {
      const show = SHOWN.includes(c.id) || c.ok === false || c.ok === true && !/^not applicable/.test(c.message ?? "") || c.ok === null && !/^not applicable/.test(c.message ?? "") && c.id !== "log_proof" && c.id !== "format";
      if (show) rows.push({ ...c, where: t2.in_browser });
    }
    if (!crypto) for (const id of SHOWN) rows.push({ id, ok: void 0, message: t2.pending });
    for (const r of rules ?? [
      { id: "rules", ok: null, message: "" },
      { id: "settlement", ok: null, message: "" }
    ]) rows.push(r);
    const srcText = { server: t2.source_server, native: t2.source_native, none: t2.source_none, running: t2.source_running }[source] ?? "";
    return h(
      "section.panel",
      { "aria-labelledby": "panel-title" },
      h("h2#panel-title", t2.verification),
      h("ul.checks", rows.map((r) => {
        const state2 = r.ok === true ? "true" : r.ok === false ? "false" : r.ok === null ? "null" : "pending";
        const mark = r.ok === true ? "✓" : r.ok === false ? "✗" : r.ok === null ? "–" : "…";
        const label = r.ok === true ? t2.passed : r.ok === false ? t2.failed : r.ok === null ? t2.not_checked : t2.pending;
        return h(
          "li.check." + state2,
          { dataset: { check: r.id, ok: state2, seq: r.seq ?? "" } },
          h("span.mark", { "aria-hidden": "true" }, mark),
          h("span.name", t2.checks[r.id] ?? r.id),
          h("span.state", label),
          r.ok === false && r.seq !== null && r.seq !== void 0 ? h("button.goto", { type: "button", onclick: () => onGoto(r.seq), dataset: { goto: String(r.seq) } }, t2.go_to_step(lang === "fa" ? num("fa", r.seq) : r.seq)) : null,
          r.message ? detailEl(r, lang) : null
        );
      })),
      h("p.source", { dataset: { source } }, srcText),
      note ? h("p.note", note) : null
    );
  }
  var FA_DETAILS = [
    [/^(\d+) events linked by their hashes$/, (m) => `${fa(Number(m[1]))} رویداد با هش‌هایشان به هم پیوسته‌اند`],
    [/^(\d+) service signatures verify \(against the trusted key\(s\) given\)$/, (m) => `${fa(Number(m[1]))} امضای سرویس با کلید منتشرشدهٔ سرویس درست است`],
    [/^(\d+) service signatures verify \(ONLY against the keys the bundle itself carries\)$/, (m) => `${fa(Number(m[1]))} امضای سرویس درست است، ولی فقط با کلیدهایی که خود پرونده دارد`],
    [/^(\d+) server seed\(s\) match their commitments$/, (m) => `${fa(Number(m[1]))} بذر سرور با تعهدهایشان می‌خوانند`],
    [/^(\d+) shuffle\(s\) derived from their seeds; every face shown matches$/, (m) => `${fa(Number(m[1]))} بُر از بذرهایشان ساخته شد؛ هر کارتِ نشان‌داده‌شده با آن می‌خواند`],
    [/^every action re-run through the rules engine \((\d+) events\)$/, (m) => `هر حرکت دوباره با موتور قوانین اجرا شد (${fa(Number(m[1]))} رویداد)`],
    [/^every action up to the end follows the rules$/, () => "هر حرکت تا پایان دست طبق قوانین است"],
    [/^the outcome and the payments follow from the play$/, () => "نتیجه و پرداخت‌ها از بازی به دست می‌آیند"],
    [/^nothing to settle$/, () => "چیزی برای تسویه نیست"],
    [/^(\d+) player signature\(s\) verify$/, (m) => `${fa(Number(m[1]))} امضای بازیکن درست است`],
    [/^the hand's last event is leaf (\d+) of (\S+) at size (\d+)( \(the checkpoint checked ONLY against the keys the bundle itself carries\))?$/, (m) => `آخرین رویداد دست برگ ${fa(Number(m[1]))} از دفتر ${m[2]} در اندازهٔ ${fa(Number(m[3]))} است${m[4] ? " (نقطهٔ وارسی فقط با کلیدهای خود پرونده وارسی شد)" : ""}`],
    [/^not applicable/, () => "در این دست کاربرد ندارد"],
    [/^not reached/, () => "به اینجا نرسید: مشکلی پیش‌تر هست"],
    [/^not checked/, () => "وارسی نشد"],
    [/^passed$/, () => "درست"]
  ];
  function detailEl(r, lang) {
    const msg = String(r.message);
    if (lang !== "fa") return h("p.detail", { dir: "ltr" }, msg);
    const t2 = STRINGS.fa;
    if (r.ok !== false) {
      for (const [re, f] of FA_DETAILS) {
        const m = re.exec(msg);
        if (m) return h("p.detail", { dir: "rtl", lang: "fa" }, f(m));
      }
    }
    const plain = r.ok === false ? t2.why[r.id] ?? "این وارسی نادرست است" : "جزئیات فنی";
    return h("p.detail", { dir: "rtl", lang: "fa" }, plain, r.ok === false ? "." : ":", " ", h("bdi.tech", { dir: "ltr", lang: "en" }, msg));
  }

  // src/ui/api.js
  var KEY = (hand) => `persian-cards/credential/${hand}`;
  var TAB_KEY = "persian-cards/credential";
  var isShareToken = (c) => typeof c === "string" && c.startsWith("sh_");
  function takeCredential(hand) {
    const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
    const share = frag.get("share");
    const token = frag.get("token");
    const keep = (c) => {
      try {
        sessionStorage.setItem(KEY(hand), c);
        sessionStorage.setItem(TAB_KEY, c);
      } catch {
      }
    };
    if (token) {
      keep(token);
      frag.delete("token");
      const rest = frag.toString();
      history.replaceState(null, "", location.pathname + location.search + (rest ? `#${rest}` : ""));
      if (!share) return { cred: token, kind: "token", inUrl: false };
    }
    if (share) {
      keep(share);
      return { cred: share, kind: "share", inUrl: true };
    }
    try {
      const c = sessionStorage.getItem(KEY(hand)) ?? sessionStorage.getItem(TAB_KEY);
      return c ? { cred: c, kind: isShareToken(c) ? "share" : "token", inUrl: false } : null;
    } catch {
      return null;
    }
  }
  function keepCredential(hand, cred) {
    try {
      if (cred) {
        sessionStorage.setItem(KEY(hand), cred);
        sessionStorage.setItem(TAB_KEY, cred);
      } else {
        if (sessionStorage.getItem(TAB_KEY) === sessionStorage.getItem(KEY(hand))) sessionStorage.removeItem(TAB_KEY);
        sessionStorage.removeItem(KEY(hand));
      }
    } catch {
    }
  }
  var ApiError = class extends Error {
    constructor(status, body) {
      super(body?.detail ?? body?.title ?? `HTTP ${status}`);
      this.status = status;
      this.code = body?.code ?? null;
    }
  };
  async function get(path, cred, { text = false } = {}) {
    const headers = { Accept: "application/json" };
    if (cred) headers.Authorization = `Bearer ${cred}`;
    const r = await fetch(path, { headers, credentials: "omit", cache: "no-store", referrerPolicy: "no-referrer" });
    const body = await r.text();
    if (!r.ok) {
      let j = null;
      try {
        j = JSON.parse(body);
      } catch {
      }
      throw new ApiError(r.status, j);
    }
    return text ? body : JSON.parse(body);
  }

  // src/ui/verdict.js
  function verdictOf(hand) {
    const crypto = hand?.crypto ?? null;
    const rules = Array.isArray(hand?.rules) ? hand.rules : [];
    const steps = Array.isArray(hand?.steps) ? hand.steps : [];
    const failing = [...(crypto?.checks ?? []).filter((c) => c.ok === false), ...rules.filter((r) => r.ok === false)];
    let problem = null;
    for (const c of failing) {
      const seq = Number.isInteger(c.seq) ? c.seq : null;
      if (problem === null) problem = { ...c, seq };
      else if (problem.seq !== null && (seq === null || seq < problem.seq)) problem = { ...c, seq };
    }
    const keys = Array.isArray(crypto?.signers) ? crypto.signers : [];
    const base = { problem, keys, trust: crypto?.trust ?? null, ruleSource: hand?.ruleSource ?? "none", badFrom: null };
    if (problem) {
      let badFrom = 0;
      if (problem.seq !== null) {
        const i = steps.findIndex((s) => s.seq >= problem.seq);
        badFrom = i >= 0 ? i : steps.length;
      }
      return { ...base, state: "failed", badFrom };
    }
    if (!crypto) return { ...base, state: "pending" };
    if (hand.status === "in_progress" || hand.ruleSource === "running") return { ...base, state: "running" };
    const rulesOk = rules.length > 0 && rules.every((r) => r.ok === true);
    if (!rulesOk) return { ...base, state: "partial" };
    if (crypto.trust !== "trusted_key") return { ...base, state: "self" };
    return { ...base, state: "verified" };
  }
  var isUnproven = (v, i) => v?.badFrom !== null && v?.badFrom !== void 0 && i >= v.badFrom;

  // src/ui/steps.js
  var BOOKKEEPING = /* @__PURE__ */ new Set(["shuffle_committed", "client_seed", "seeds_revealed"]);
  var QUIET_SHUFFLE_EFFECTS = /* @__PURE__ */ new Set(["shuffled", "phase", "relabelled"]);
  var bodyOf = (record) => record?.event?.body ?? record?.body ?? null;
  function isBookkeeping(record) {
    const b = bodyOf(record);
    if (!b) return false;
    if (BOOKKEEPING.has(b.type)) return true;
    if (b.type === "shuffled") {
      const effects = Array.isArray(b.effects) ? b.effects : [];
      return effects.every((e) => QUIET_SHUFFLE_EFFECTS.has(e?.type));
    }
    return false;
  }
  function groupSteps(steps) {
    const out = [];
    steps.forEach((s, i) => {
      if (isBookkeeping(s.record)) {
        const last = out[out.length - 1];
        if (last && last.kind === "book" && last.to === i - 1) last.to = i;
        else out.push({ kind: "book", from: i, to: i });
      } else out.push({ kind: "play", i });
    });
    return out;
  }
  function nextPlay(steps, i, dir) {
    for (let j = i + dir; j >= 0 && j < steps.length; j += dir) if (!isBookkeeping(steps[j].record)) return j;
    return i;
  }
  function resultIndex(steps) {
    const i = steps.findIndex((s) => bodyOf(s.record)?.type === "hand_ended" || bodyOf(s.record)?.type === "abandoned");
    return i >= 0 ? i : Math.max(0, steps.length - 1);
  }
  function endedBy(steps, i) {
    for (let j = Math.min(i, steps.length - 1); j >= 0; j--) {
      const b = bodyOf(steps[j].record);
      if (b?.type === "hand_ended" || b?.type === "abandoned") return { index: j, body: b };
    }
    return null;
  }
  function trickAt(steps, i) {
    const cards = [];
    let winner = null;
    for (let j = 0; j <= i && j < steps.length; j++) {
      const b = bodyOf(steps[j].record);
      if (!b || !Array.isArray(b.effects)) continue;
      if (winner !== null) {
        cards.length = 0;
        winner = null;
      }
      for (const e of b.effects) {
        if (e?.type === "played") cards.push({ seat: e.seat, face: e.card?.face ?? null });
        else if (e?.type === "trick_won") winner = e.seat;
        else if (e?.type === "deal_annulled") cards.length = 0;
      }
    }
    return { cards, winner, done: winner !== null };
  }
  function trickNumber(steps, i) {
    let n2 = 1;
    for (let j = 0; j < i && j < steps.length; j++) {
      const b = bodyOf(steps[j].record);
      for (const e of b?.effects ?? []) if (e?.type === "trick_won") n2++;
    }
    return n2;
  }

  // src/embedded.js
  function readEmbedded(data) {
    if (data?.version !== 2 || !data.native) return data;
    const hands = (Array.isArray(data.native.hands) ? data.native.hands : []).map((h2) => ({
      ...h2,
      steps: expandViews(h2?.views)
    }));
    return { ...data, native: { ...data.native, hands } };
  }
  function expandViews(views) {
    if (!views || views.encoding !== "first+json-patch" || !views.count) return [];
    const steps = [{ step: 0, view: views.first }];
    let view7 = views.first;
    const patches = Array.isArray(views.patches) ? views.patches : [];
    for (let i = 1; i < views.count && i - 1 < patches.length; i++) {
      view7 = applyPatch(view7, patches[i - 1]);
      steps.push({ step: i, view: view7 });
    }
    return steps;
  }
  function applyPatch(doc, ops) {
    let root = structuredClone(doc);
    for (const op of ops) {
      const tokens = op.path === "" ? [] : op.path.slice(1).split("/").map((t2) => t2.replace(/~1/g, "/").replace(/~0/g, "~"));
      if (tokens.length === 0) {
        if (op.op === "remove") throw new Error("a patch removes the whole view");
        root = structuredClone(op.value);
        continue;
      }
      let parent = root;
      for (const t2 of tokens.slice(0, -1)) {
        parent = Array.isArray(parent) ? parent[Number(t2)] : parent?.[t2];
        if (parent === null || typeof parent !== "object") throw new Error(`a patch path that does not exist: ${op.path}`);
      }
      const last = tokens[tokens.length - 1];
      if (Array.isArray(parent)) {
        const i = last === "-" ? parent.length : Number(last);
        if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error(`a patch index out of range: ${op.path}`);
        if (op.op === "add") parent.splice(i, 0, structuredClone(op.value));
        else if (op.op === "remove") parent.splice(i, 1);
        else if (op.op === "replace") parent[i] = structuredClone(op.value);
        else throw new Error(`an unsupported patch operation: ${op.op}`);
      } else if (op.op === "add" || op.op === "replace") {
        parent[last] = structuredClone(op.value);
      } else if (op.op === "remove") {
        delete parent[last];
      } else {
        throw new Error(`an unsupported patch operation: ${op.op}`);
      }
    }
    return root;
  }

  // src/main.js
  var SPEEDS = [
    ["0.5×", 2400],
    ["1×", 1200],
    ["2×", 600],
    ["4×", 300]
  ];
  var state = {
    mode: "drop",
    lang: "en",
    hands: [],
    match: null,
    // the match-level verification, for a match file
    handIdx: 0,
    stepIdx: 0,
    timer: null,
    error: null,
    handId: null,
    loading: false,
    table: null,
    // a served hand's table: its hands, oldest first
    speed: 1,
    // index into SPEEDS
    watch: null,
    // the seat watched from (null: the view the source gives)
    resultHidden: false,
    share: null,
    // a share link's token, kept in the address so that it can be passed on
    credKind: null,
    // 'share' | 'token'
    shareError: null
    // share_expired | share_revoked | unauthorized, for a share link refused
  };
  var app = document.getElementById("app");
  function readPlace() {
    const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
    const query = new URLSearchParams(location.search);
    const step = frag.get("step") ?? query.get("step");
    const hand = frag.get("hand");
    const lang = frag.get("lang") ?? query.get("lang");
    const as = frag.get("as");
    return {
      step: step !== null && /^\d+$/.test(step) ? Number(step) : null,
      hand: hand !== null && /^\d+$/.test(hand) ? Number(hand) : null,
      lang: lang === "fa" || lang === "en" ? lang : null,
      as: as !== null && /^\d+$/.test(as) ? Number(as) : as === "all" ? "all" : null
    };
  }
  function writePlace() {
    const hand = state.hands[state.handIdx];
    const frag = new URLSearchParams();
    if (state.share) frag.set("share", state.share);
    if (state.hands.length > 1) frag.set("hand", String(state.handIdx + 1));
    if (hand?.steps.length) frag.set("step", String(hand.steps[state.stepIdx]?.seq ?? 0));
    if (state.watch !== null) frag.set("as", String(state.watch));
    if (state.lang !== "en") frag.set("lang", state.lang);
    const url = location.pathname + (location.protocol === "file:" ? "" : location.search.replace(/[?&]?step=\d+/, "")) + "#" + frag.toString();
    try {
      history.replaceState(null, "", url);
    } catch {
    }
  }
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
  function withCarried(text, record, players) {
    const b = record?.event?.body;
    const carried = b?.type === "hand_started" && Array.isArray(b.adjustments) ? b.adjustments : [];
    if (!text || !carried.length) return text;
    const words = (lang) => [text[lang], ...carried.map((a) => adjustmentText(a, players, lang))].join(" ");
    return { en: words("en"), fa: words("fa") };
  }
  function browserViews(bundle, decks) {
    try {
      const list = stepViews(bundle, decks ?? {});
      const bySeq = /* @__PURE__ */ new Map();
      for (const s of list) bySeq.set(s.seq, s);
      return bySeq;
    } catch {
      return null;
    }
  }
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
      const n2 = nativeSteps[i];
      if (n2 && n2.view) {
        fromNative++;
        return { seq, record, view: n2.view };
      }
      if (browser === null) browser = browserViews(bundle, crypto?.decks) ?? false;
      const b = browser ? browser.get(seq) : null;
      if (b) fromBrowser++;
      return { seq, record, view: b?.view ?? null, text: withCarried(b?.text, record, players) };
    });
    const viewsSource = fromNative ? "native" : fromBrowser ? "browser" : "none";
    return {
      id: bundle?.hand ?? records[0]?.event?.hand ?? "?",
      game,
      players,
      status: bundle?.status ?? null,
      viewer: "all",
      steps: withText(steps, game, players),
      viewsSource,
      partialViews: fromNative && fromNative < records.length,
      crypto,
      rules: native?.verdict ? ruleChecks(native.verdict, records) : null,
      ruleSource: native?.verdict ? "native" : "none",
      bundle
    };
  }
  async function openFile(value, native) {
    if (value?.format === "persian-cards/match") {
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
  async function openServed(handId, cred) {
    const hand = await get(`/v1/hands/${encodeURIComponent(handId)}`, cred);
    const steps = [];
    let from = 0;
    let viewer = "public";
    for (; ; ) {
      const page = await get(`/v1/hands/${encodeURIComponent(handId)}/replay/steps?from=${from}`, cred);
      viewer = page.viewer;
      for (const s of page.steps) steps.push({ seq: s.step, record: s.event, view: s.view });
      if (page.next_from === null || page.next_from === void 0) break;
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
      viewsSource: "server",
      crypto: null,
      rules: null,
      ruleSource: hand.status === "in_progress" ? "running" : "server"
    };
    state.hands = [h0];
    state.match = null;
    const place4 = readPlace();
    const at = place4.step === null ? -1 : h0.steps.findIndex((s) => s.seq === place4.step);
    state.stepIdx = at >= 0 ? at : resultIndex(h0.steps);
    if (Number.isInteger(place4.as)) state.watch = place4.as;
    state.loading = false;
    render();
    if (hand.table_id) {
      get(`/v1/hands?table_id=${encodeURIComponent(hand.table_id)}&limit=200`, cred).then((list) => {
        state.table = (list.hands ?? []).slice().sort((a, b) => a.hand_no - b.hand_no);
        render();
      }).catch(() => {
      });
    }
    const keys = await get("/v1/keys", null).catch(() => null);
    const trustedKeys = (keys?.keys ?? []).map((k) => k.public_key);
    if (hand.status === "in_progress") {
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
      if (!verdict) h0.ruleSource = "none";
    }
  }
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
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLElement && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const fwd = STRINGS[state.lang].rtl ? "ArrowLeft" : "ArrowRight";
    const back = STRINGS[state.lang].rtl ? "ArrowRight" : "ArrowLeft";
    const keys = {
      [fwd]: () => goPlay(1),
      ArrowDown: () => goPlay(1),
      [back]: () => goPlay(-1),
      ArrowUp: () => goPlay(-1),
      Home: () => goStep(0),
      End: () => goStep(Infinity),
      PageDown: () => goHand(state.handIdx + 1),
      PageUp: () => goHand(state.handIdx - 1)
    };
    if (e.target?.type === "range" && keys[e.key]) {
      e.preventDefault();
    }
    if (keys[e.key]) {
      e.preventDefault();
      stopPlay();
      keys[e.key]();
    } else if (e.key === " " && !(e.target instanceof HTMLButtonElement) && !(e.target instanceof HTMLElement && e.target.tagName === "SUMMARY")) {
      e.preventDefault();
      togglePlay();
    }
  });
  window.addEventListener("hashchange", () => {
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
  function t() {
    return STRINGS[state.lang];
  }
  function applyLang() {
    const T = t();
    document.documentElement.lang = state.lang;
    document.documentElement.dir = T.rtl ? "rtl" : "ltr";
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
    const s = T.hand_status[hand.status] ?? hand.status ?? "";
    return v.state === "failed" && s ? T.status_claimed(s) : s;
  }
  function header() {
    const hand = current();
    const T = t();
    const v = hand ? verdictOf(hand) : null;
    return h(
      "header.top",
      h("h1", T.title),
      hand ? h(
        "p.meta",
        { dataset: { hand: hand.id } },
        h("span.game", gameName(hand.game, state.lang)),
        " · ",
        h("code.hand-id", { dir: "ltr" }, hand.id),
        " · ",
        h("span.status", { dataset: { verdict: v.state } }, statusText(hand, v))
      ) : null,
      h("button.lang", { type: "button", onclick: () => setLang(state.lang === "en" ? "fa" : "en"), lang: state.lang === "en" ? "fa" : "en", "aria-label": state.lang === "en" ? "فارسی (Persian)" : "English" }, T.lang_other)
    );
  }
  function verdictEl(hand) {
    const T = t();
    const v = verdictOf(hand);
    const keys = v.keys.length ? v.keys.map((k) => iso(k)).join(", ") : "?";
    const rulesLine = { server: T.v_rules_server, native: T.v_rules_native }[v.ruleSource] ?? T.v_rules_none;
    const signedLine = v.trust === "trusted_key" ? T.v_signed_service(keys) : T.v_signed_self(keys);
    let title;
    let mark;
    let lines = [];
    let action2 = null;
    switch (v.state) {
      case "failed": {
        const p = v.problem;
        const at = p.seq !== null ? hand.steps[v.badFrom]?.seq ?? p.seq : null;
        mark = "✗";
        title = T.v_failed;
        lines = [
          h("span.where", p.seq !== null ? T.v_where(at, p.seat) : T.v_where_all),
          " ",
          h("strong.why", { dataset: { check: p.id } }, `${T.why[p.id] ?? T.checks[p.id] ?? p.id}.`),
          " ",
          h("span.after", p.seq !== null ? T.v_after(at) : T.v_after_all)
        ];
        if (p.seq !== null) action2 = h("button#verdict-goto", { type: "button", onclick: () => {
          stopPlay();
          goStep(v.badFrom);
        } }, T.v_goto, " ", num(state.lang, at));
        break;
      }
      case "verified":
        mark = "✓";
        title = T.v_verified;
        lines = [signedLine, " ", T.v_decks, " ", rulesLine];
        break;
      case "self":
        mark = "✓";
        title = T.v_self;
        lines = [signedLine, " ", T.v_decks, " ", rulesLine];
        break;
      case "partial":
        mark = "–";
        title = T.v_partial;
        lines = [signedLine, " ", T.v_decks, " ", rulesLine];
        break;
      case "running":
        mark = "…";
        title = T.v_running;
        lines = [T.v_running_detail];
        break;
      default:
        mark = "…";
        title = T.v_pending;
    }
    return h(
      "section#verdict.verdict." + v.state,
      { role: v.state === "failed" ? "alert" : "status", dataset: { state: v.state, badFrom: v.badFrom === null ? "" : String(hand.steps[v.badFrom]?.seq ?? "") } },
      h("p.verdict-title", h("span.mark", { "aria-hidden": "true" }, mark), " ", h("strong", title)),
      lines.length ? h("p.verdict-detail", lines) : null,
      action2,
      v.state === "failed" && v.problem.message ? h("p.verdict-tech", h("bdi", { dir: "ltr", lang: "en" }, v.problem.message)) : null
    );
  }
  function linkNote() {
    if (state.mode !== "served" || !state.credKind) return null;
    const T = t();
    if (state.credKind === "share") {
      const btn = h("button#copy-link", { type: "button" }, T.copy_link);
      btn.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(location.href);
          btn.textContent = T.copied;
        } catch {
        }
      });
      return h("p.link-note", { dataset: { link: "share" } }, T.link_share, " ", btn);
    }
    return h("p.link-note", { dataset: { link: "private" } }, T.link_private);
  }
  function tableBar() {
    const list = state.table;
    if (!list || list.length < 2) return null;
    const T = t();
    const i = list.findIndex((x) => x.hand_id === state.handId);
    const rtl = T.rtl;
    const link = (x, label, id) => x ? h("a", { href: `/hands/${encodeURIComponent(x.hand_id)}`, id }, label) : h("span", { id, "aria-disabled": "true" }, label);
    return h(
      "nav.match",
      { "aria-label": "hands of the table" },
      link(list[i - 1], `${rtl ? "›" : "‹"} ${T.prev_hand}`, "prev-hand"),
      h("span#hand-label", T.hand_of(i + 1, list.length)),
      link(list[i + 1], `${T.next_hand} ${rtl ? "‹" : "›"}`, "next-hand")
    );
  }
  function matchBar() {
    if (state.mode === "served") return tableBar();
    if (state.hands.length < 2 && !state.match) return null;
    const T = t();
    const m = state.match;
    const rtl = T.rtl;
    return h(
      "nav.match",
      { "aria-label": "hands of the match" },
      h("button#prev-hand", { type: "button", onclick: () => goHand(state.handIdx - 1), disabled: state.handIdx === 0 }, rtl ? "› " : "‹ ", T.prev_hand),
      h("span#hand-label", T.hand_of(state.handIdx + 1, state.hands.length)),
      h("button#next-hand", { type: "button", onclick: () => goHand(state.handIdx + 1), disabled: state.handIdx >= state.hands.length - 1 }, T.next_hand, rtl ? " ‹" : " ›"),
      h("ol.hand-list", state.hands.map((hd, i) => {
        const ok = hd.crypto ? hd.crypto.ok && (hd.rules?.every((r) => r.ok !== false) ?? true) : null;
        return h("li", h("button", { type: "button", "aria-current": i === state.handIdx ? "true" : null, onclick: () => goHand(i), dataset: { ok: String(ok) } }, `${num(state.lang, i + 1)}${ok === false ? " ✗" : ok ? " ✓" : ""}`));
      })),
      m ? h("p.match-verdict", { dataset: { ok: String(m.ok) } }, m.ok ? T.match_valid : `✗ ${m.first_problem?.message ?? ""}`) : null,
      ...(m?.adjustments ?? []).filter((a) => a.applied_by === null).map((a) => h("p.match-adjustment", T.after_last_hand, " ", adjustmentText(a, current()?.players, state.lang)))
    );
  }
  function revealIndex(hand) {
    return hand.steps.findIndex((s) => s.record?.event?.body?.type === "seeds_revealed");
  }
  function canWatch(hand) {
    return !!(hand && hand.bundle && hand.crypto?.decks && hand.status !== "in_progress" && Object.keys(hand.crypto.decks).length && revealIndex(hand) >= 0);
  }
  function seatViews(hand, seat2) {
    if (!hand.seatViews) hand.seatViews = /* @__PURE__ */ new Map();
    if (!hand.seatViews.has(seat2)) {
      let m = null;
      try {
        const list = stepViews(hand.bundle, hand.crypto.decks, { seat: seat2 });
        m = new Map(list.map((x) => [x.seq, x.view]));
      } catch {
        m = null;
      }
      hand.seatViews.set(seat2, m);
    }
    return hand.seatViews.get(seat2);
  }
  function viewAt(hand, i) {
    const step = hand.steps[i];
    if (state.watch === null) return { view: step?.view ?? null, watching: null };
    if (!canWatch(hand)) return { view: step?.view ?? null, watching: "unavailable" };
    if (i >= revealIndex(hand)) return { view: step?.view ?? null, watching: "after" };
    const m = seatViews(hand, state.watch);
    if (!m) return { view: step?.view ?? null, watching: "unavailable" };
    return { view: m.get(step.seq) ?? null, watching: "seat" };
  }
  function watchSelect(hand) {
    const T = t();
    const n2 = hand.players.length;
    if (!n2) return null;
    const sel = h(
      "select#watch",
      { "aria-label": T.watch_as },
      h("option", { value: "" }, T.watch_all),
      [...Array(n2).keys()].map((s) => h("option", { value: String(s), selected: state.watch === s ? "selected" : null }, T.watch_seat(num(state.lang, s), hand.players[s] ? hand.players[s] : null)))
    );
    sel.value = state.watch === null ? "" : String(state.watch);
    sel.disabled = !canWatch(hand);
    sel.addEventListener("change", () => {
      state.watch = sel.value === "" ? null : Number(sel.value);
      writePlace();
      renderStep();
    });
    return h("label.watch", T.watch_as, " ", sel);
  }
  var stepEls = null;
  function errorPage() {
    const T = t();
    const code = state.shareError;
    const [title, help] = code === "share_expired" ? [T.share_expired_title, T.share_expired_help] : code === "share_revoked" ? [T.share_revoked_title, T.share_revoked_help] : [T.share_bad_title, T.share_bad_help];
    return h("section.gone", { role: "alert", dataset: { code } }, h("h2.error", title), h("p", help), h("p.code", h("code", { dir: "ltr" }, code)));
  }
  function render() {
    const T = t();
    applyLang();
    if (state.mode === "served" && state.shareError) {
      fill(app, header(), errorPage());
      return;
    }
    if (state.mode === "served" && state.needCredential) {
      fill(app, header(), credentialForm());
      return;
    }
    if (state.error) {
      fill(app, header(), h("p.error", { role: "alert" }, `${T.error}: ${state.error}`), state.mode === "served" ? credentialForm() : dropZone());
      return;
    }
    if (!state.hands.length) {
      fill(app, header(), state.loading ? h("p.loading", T.loading) : state.mode === "drop" ? dropZone() : h("p.loading", T.loading));
      return;
    }
    const hand = current();
    const rtl = T.rtl;
    const slider = h("input#slider", { type: "range", min: "0", max: String(Math.max(0, hand.steps.length - 1)), value: String(state.stepIdx), "aria-label": state.lang === "fa" ? "گام" : "Step" });
    slider.addEventListener("input", () => {
      stopPlay();
      goStep(Number(slider.value));
    });
    const speed = h("select#speed", { "aria-label": T.speed, title: T.speed }, SPEEDS.map(([label], i) => h("option", { value: String(i) }, label)));
    speed.value = String(state.speed);
    speed.addEventListener("change", () => {
      state.speed = Number(speed.value);
      if (state.timer) startTimer();
    });
    stepEls = {
      board: h("div.board"),
      text: h("p#step-text", { "aria-live": "polite" }),
      label: h("span#step-label"),
      slider,
      play: h("button#play", { type: "button", onclick: togglePlay }),
      panel: h("div.panel-wrap"),
      list: h("ol.step-list"),
      viewer: h("span.viewer-source"),
      watchNote: h("p.watch-note")
    };
    const glyph = rtl ? { first: "»", prev: "›", next: "‹", last: "«" } : { first: "«", prev: "‹", next: "›", last: "»" };
    const controls = h(
      "nav.controls",
      { "aria-label": "steps" },
      h("button#first", { type: "button", onclick: () => {
        stopPlay();
        goStep(0);
      }, "aria-label": T.first, title: T.first }, glyph.first),
      h("button#prev", { type: "button", onclick: () => {
        stopPlay();
        goPlay(-1);
      }, "aria-label": T.prev, title: T.prev }, glyph.prev),
      stepEls.play,
      h("button#next", { type: "button", onclick: () => {
        stopPlay();
        goPlay(1);
      }, "aria-label": T.next, title: T.next }, glyph.next),
      h("button#last", { type: "button", onclick: () => {
        stopPlay();
        goStep(Infinity);
      }, "aria-label": T.last, title: T.last }, glyph.last),
      speed,
      stepEls.slider,
      stepEls.label
    );
    const v = verdictOf(hand);
    const item = (i) => {
      const s = hand.steps[i];
      const bad = isUnproven(v, i);
      return h("li" + (bad ? ".unproven" : ""), h(
        "button",
        { type: "button", dataset: { step: String(s.seq), unproven: bad ? "true" : "false" }, onclick: () => {
          stopPlay();
          goStep(i);
        } },
        h("span.seq", num(state.lang, s.seq)),
        " ",
        bad ? h("span.unproven-tag", `⚠ ${T.unproven}`) : null,
        bad ? " " : null,
        s.text?.[state.lang] ?? ""
      ));
    };
    for (const g of groupSteps(hand.steps)) {
      if (g.kind === "play") stepEls.list.append(item(g.i));
      else {
        const n2 = g.to - g.from + 1;
        const open = state.stepIdx >= g.from && state.stepIdx <= g.to;
        stepEls.list.append(h("li.book", h(
          "details",
          { open: open ? "open" : null, dataset: { from: String(hand.steps[g.from].seq), to: String(hand.steps[g.to].seq) } },
          h("summary", T.bookkeeping(num(state.lang, n2))),
          h("ol", [...Array(n2).keys()].map((k) => item(g.from + k)))
        )));
      }
    }
    fill(
      app,
      header(),
      linkNote(),
      verdictEl(hand),
      matchBar(),
      h(
        "div.layout",
        h(
          "div.main",
          h("div.viewer-note", stepEls.viewer, " ", watchSelect(hand)),
          stepEls.watchNote,
          stepEls.board,
          // The step's words and its buttons, kept in sight together under the table.
          h("div.dock", stepEls.text, controls)
        ),
        h("aside.side", stepEls.panel, h("details.steps", { open: "open" }, h("summary", T.all_steps), stepEls.list))
      )
    );
    renderStep();
  }
  function viewsNote(hand) {
    const T = t();
    return { server: T.views_server, native: T.views_native, browser: T.views_browser, none: T.views_none }[hand.viewsSource] ?? "";
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
    const { view: view7, watching } = viewAt(hand, i);
    const me = watching === "seat" || watching === "after" ? state.watch : hand.viewer === "seat" ? viewerSeat(step?.view?.viewer) : null;
    const ended = endedBy(hand.steps, i);
    const result = ended && !state.resultHidden ? resultOf2(hand.game, ended.body, hand.players, view7?.match?.seating ?? hand.steps[ended.index]?.view?.match?.seating) : null;
    const unprovenText = bad ? v.badFrom === 0 && v.problem?.seq === null ? T.unproven_table_all : T.unproven_table(badSeq) : null;
    let board;
    if (view7) {
      board = drawTable({
        game: hand.game,
        view: view7,
        players: hand.players,
        lang: state.lang,
        me,
        trick: hand.game === "hokm" ? trickAt(hand.steps, i) : null,
        unproven: unprovenText,
        result,
        onHideResult: () => {
          state.resultHidden = true;
          renderStep();
        }
      });
    } else if (bad) {
      board = h("div.table.empty.unproven", { dataset: { unproven: "true" } }, "⚠ ", T.no_table_unproven(badSeq));
    } else {
      board = h("div.table.empty", T.views_none);
    }
    if (ended && state.resultHidden) board.append(h("button.show-result", { type: "button", onclick: () => {
      state.resultHidden = false;
      renderStep();
    } }, T.show_result));
    fill(stepEls.board, board);
    const words = step?.text?.[state.lang] ?? "";
    const plays = (step?.record?.event?.body?.effects ?? []).some((e) => e?.type === "played");
    const trickNo = hand.game === "hokm" && plays ? `${T.trick_no(num(state.lang, trickNumber(hand.steps, i)))}: ` : "";
    fill(stepEls.text, bad ? h("strong.unproven-tag", `⚠ ${T.unproven}: `) : null, isBookkeeping(step?.record) ? null : trickNo, words);
    stepEls.text.dataset.seq = String(step?.seq ?? "");
    stepEls.text.dataset.unproven = bad ? "true" : "false";
    stepEls.label.textContent = T.step_of(step?.seq ?? 0, last);
    stepEls.slider.value = String(i);
    if (v.badFrom !== null && hand.steps.length > 1) {
      const pct = 100 * v.badFrom / (hand.steps.length - 1);
      stepEls.slider.style.background = `linear-gradient(${T.rtl ? "to left" : "to right"}, #cfd8d3 0 ${pct}%, #b3261e ${pct}% 100%)`;
      stepEls.slider.dataset.unprovenFrom = String(badSeq);
      stepEls.slider.classList.add("marked");
    }
    stepEls.play.textContent = state.timer ? "||" : "▶";
    stepEls.play.setAttribute("aria-label", state.timer ? T.pause : T.play);
    stepEls.play.title = state.timer ? T.pause : T.play;
    const who2 = watching === "seat" ? T.watch_note_seat(num(state.lang, state.watch)) : hand.viewer === "seat" ? T.viewer_seat(num(state.lang, me)) : hand.viewer === "public" ? T.viewer_public : T.viewer_all;
    fill(stepEls.viewer, h("span", { dataset: { viewer: hand.viewer, watching: watching ?? "" } }, who2), " · ", h("span.views-source", { dataset: { source: hand.viewsSource } }, viewsNote(hand)));
    const noFaces = hand.viewsSource === "browser" && hand.crypto && !hand.crypto.ok && !Object.keys(hand.crypto.decks ?? {}).length;
    fill(stepEls.watchNote, watching === "after" ? T.watch_note_after : watching === "unavailable" ? T.watch_unavailable : noFaces ? T.no_faces(num(state.lang, badSeq ?? 0)) : null);
    fill(stepEls.panel, drawPanel({ crypto: hand.crypto, rules: hand.rules, source: hand.ruleSource, lang: state.lang, onGoto: (seq) => {
      stopPlay();
      goSeq(seq);
    } }));
    for (const b of stepEls.list.querySelectorAll("button[aria-current]")) b.removeAttribute("aria-current");
    const cur = stepEls.list.querySelector(`button[data-step="${step?.seq}"]`);
    if (cur) {
      cur.setAttribute("aria-current", "step");
      const det = cur.closest("details");
      if (det && !det.classList.contains("steps")) det.open = true;
    }
  }
  function credentialForm() {
    const T = t();
    const input = h("input#credential", { type: "password", autocomplete: "off", spellcheck: "false", "aria-describedby": "credential-help" });
    const form = h(
      "form.credential",
      h("label", { for: "credential" }, T.credential),
      input,
      h("button", { type: "submit" }, T.open),
      h("p#credential-help", T.credential_help)
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const cred = input.value.trim();
      if (!cred) return;
      keepCredential(state.handId, cred);
      state.needCredential = false;
      state.credKind = cred.startsWith("sh_") ? "share" : "token";
      state.share = state.credKind === "share" ? cred : null;
      loadServed(cred);
    });
    return form;
  }
  function dropZone() {
    const T = t();
    const input = h("input#file", { type: "file", accept: ".json,application/json" });
    input.addEventListener("change", () => input.files?.[0] && openLocalFile(input.files[0]));
    const zone = h(
      "section.drop",
      { "aria-labelledby": "drop-title" },
      h("h2#drop-title", T.drop_title),
      h("p", T.drop_help),
      h("label.file", { for: "file" }, T.choose_file),
      input
    );
    zone.addEventListener("dragover", (e) => {
      e.preventDefault();
      zone.classList.add("over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (e) => {
      e.preventDefault();
      zone.classList.remove("over");
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
        if (state.credKind === "share") {
          state.shareError = e.code === "share_expired" || e.code === "share_revoked" ? e.code : e.code ?? "unauthorized";
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
  async function start() {
    const place4 = readPlace();
    if (place4.lang) state.lang = place4.lang;
    if (Number.isInteger(place4.as)) state.watch = place4.as;
    applyLang();
    const embedded = document.getElementById("embedded-data");
    const served = /^https?:$/.test(location.protocol) && /^\/hands\/([^/]+)$/.exec(location.pathname);
    if (embedded) {
      state.mode = "file";
      state.loading = true;
      render();
      try {
        const data = readEmbedded(JSON.parse(embedded.textContent));
        await openFile(data.file, data.native);
        state.handIdx = place4.hand !== null ? Math.min(Math.max(place4.hand - 1, 0), state.hands.length - 1) : 0;
        const hand = current();
        const i = place4.step !== null ? hand.steps.findIndex((s) => s.seq === place4.step) : -1;
        state.stepIdx = i >= 0 ? i : resultIndex(hand.steps);
      } catch (e) {
        state.error = e.message;
      }
      state.loading = false;
      render();
    } else if (served) {
      state.mode = "served";
      state.handId = decodeURIComponent(served[1]);
      const got = takeCredential(state.handId);
      if (!got) {
        state.needCredential = true;
        render();
        return;
      }
      state.credKind = got.kind;
      if (got.kind === "share") state.share = got.cred;
      await loadServed(got.cred);
    } else {
      state.mode = "drop";
      render();
    }
  }
  start();
})();
