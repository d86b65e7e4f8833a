// The data `replayer view` embeds in the page (`<script type="application/json"
// id="embedded-data">`, written by replayer/src/viewer.rs; viewer/README.md, "Embedded
// data"). Version 2 holds each hand's views as the first step's view and, for every later
// step, an RFC 6902 JSON Patch from the step before; `readEmbedded` gives back the shape
// the page reads: `native.hands[i].steps[s] = { step, view }` (version 1's shape, which
// is read as it is).

/** The embedded data with every hand's views whole, whatever its version. */
export function readEmbedded(data) {
  if (data?.version !== 2 || !data.native) return data;
  const hands = (Array.isArray(data.native.hands) ? data.native.hands : []).map((h) => ({
    ...h,
    steps: expandViews(h?.views),
  }));
  return { ...data, native: { ...data.native, hands } };
}

/** `{count, first, patches}` → `[{step: 0, view}, {step: 1, view}, …]` (`count` entries). */
export function expandViews(views) {
  if (!views || views.encoding !== 'first+json-patch' || !views.count) return [];
  const steps = [{ step: 0, view: views.first }];
  let view = views.first;
  const patches = Array.isArray(views.patches) ? views.patches : [];
  for (let i = 1; i < views.count && i - 1 < patches.length; i++) {
    view = applyPatch(view, patches[i - 1]);
    steps.push({ step: i, view });
  }
  return steps;
}

/** A copy of `doc` with the RFC 6902 patch `ops` applied (`add`, `remove`, `replace`). */
export function applyPatch(doc, ops) {
  let root = structuredClone(doc);
  for (const op of ops) {
    const tokens = op.path === '' ? [] : op.path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.length === 0) {
      if (op.op === 'remove') throw new Error('a patch removes the whole view');
      root = structuredClone(op.value);
      continue;
    }
    let parent = root;
    for (const t of tokens.slice(0, -1)) {
      parent = Array.isArray(parent) ? parent[Number(t)] : parent?.[t];
      if (parent === null || typeof parent !== 'object') throw new Error(`a patch path that does not exist: ${op.path}`);
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (!Number.isInteger(i) || i < 0 || i > parent.length) throw new Error(`a patch index out of range: ${op.path}`);
      if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
      else if (op.op === 'remove') parent.splice(i, 1);
      else if (op.op === 'replace') parent[i] = structuredClone(op.value);
      else throw new Error(`an unsupported patch operation: ${op.op}`);
    } else if (op.op === 'add' || op.op === 'replace') {
      parent[last] = structuredClone(op.value);
    } else if (op.op === 'remove') {
      delete parent[last];
    } else {
      throw new Error(`an unsupported patch operation: ${op.op}`);
    }
  }
  return root;
}
