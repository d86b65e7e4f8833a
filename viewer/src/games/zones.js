// Where every card of a hand lies and who may see its face, for the table models: the
// same zones the replayer's core keeps (`replayer/src/zones.rs`), so that the views drawn
// from a dropped file are the views the replayer gives.

/** Who may see a face: everyone, or a set of seats (empty = nobody). */
export const NOBODY = Object.freeze({ everyone: false, seats: 0 });
export const EVERYONE = Object.freeze({ everyone: true, seats: 0 });
export const seenBy = (seat) => ({ everyone: false, seats: 2 ** seat });
export const seenAnd = (s, seat) => ({ everyone: s.everyone, seats: s.seats | (2 ** seat) });
export const seenByViewer = (s, viewer) => viewer === 'all' || s.everyone || (typeof viewer === 'object' && viewer !== null && (s.seats & (2 ** viewer.seat)) !== 0);
/** Serialized as "everyone" or the list of seats. */
export const seenJson = (s) => (s.everyone ? 'everyone' : [...Array(32).keys()].filter((i) => (s.seats & (2 ** i)) !== 0));

// Zone ids, ordered as the Rust enum (Stock, Hand(s), Pile(n), Table, Trick, Won(s), Discard, Out).
const KIND_ORDER = { stock: 0, hand: 1, pile: 2, table: 3, trick: 4, won: 5, discard: 6, out: 7 };
export const Z = {
  stock: 'stock',
  hand: (s) => `hand:${s}`,
  pile: (n) => `pile:${n}`,
  table: 'table',
  trick: 'trick',
  won: (s) => `won:${s}`,
  discard: 'discard',
  out: 'out',
};
const zoneKey = (z) => {
  const [k, n] = z.split(':');
  return [KIND_ORDER[k], n === undefined ? -1 : Number(n)];
};
const cmpZone = (a, b) => {
  const [ka, na] = zoneKey(a);
  const [kb, nb] = zoneKey(b);
  return ka - kb || na - nb;
};
export const sameRef = (a, b) => a.shuffle === b.shuffle && a.pos === b.pos;

/** The zones of a hand: zone id → [{r: {shuffle, pos}, face, seen}]. */
export class Zones {
  constructor() {
    this.z = new Map();
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
    const i = l.findIndex((c) => sameRef(c.r, r));
    if (i < 0) return null;
    const [c] = l.splice(i, 1);
    c.seen = seen;
    this.list(to).push(c);
    return c;
  }
  moveTop(from, n, to, seen) {
    const l = this.cards(from);
    if (l.length < n) return null;
    const taken = l.splice(0, n);
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
  showTo(r, seat) {
    return this.setSeenWith(r, (s) => seenAnd(s, seat));
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
    return this.zoneIds()
      .filter((z) => this.len(z) > 0)
      .map((z) => ({ ...zoneJson(z), cards: this.zoneView(z, viewer) }));
  }
  zoneView(zone, viewer) {
    return this.cards(zone).map((p) => cardViewCore(p, viewer));
  }
}

/** A zone id as the Rust serializes it: {"zone": "stock"} or {"zone": "hand", "of": 2}. */
export function zoneJson(z) {
  const [k, n] = z.split(':');
  return n === undefined ? { zone: k } : { zone: k, of: Number(n) };
}

/** The core's card view: {ref, face?}. */
export function cardViewCore(p, viewer) {
  const v = { ref: { shuffle: p.r.shuffle, pos: p.r.pos } };
  if (seenByViewer(p.seen, viewer)) v.face = p.face;
  return v;
}

/** Serializes a viewer: "all", "public" or {"seat": n}. */
export const viewerJson = (v) => (typeof v === 'object' ? { seat: v.seat } : v);
