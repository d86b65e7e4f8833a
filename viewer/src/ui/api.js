// The service's API, called with the caller's credential in the Authorization header only
// (never in a URL), and the credential's keeping: read once from the URL's fragment
// (`#token=…` or `#share=…`), then removed from the address bar and kept in this tab's
// session storage, for this hand.

const KEY = (hand) => `persian-cards/credential/${hand}`;
// The tab's last credential, for the other hands of a table opened from this page.
const TAB_KEY = 'persian-cards/credential';

/** Whether a credential is a share link's token (`sh_<club>_<share id>_<secret>`). */
export const isShareToken = (c) => typeof c === 'string' && c.startsWith('sh_');

/**
 * The credential for `hand`: `{cred, kind: 'share' | 'token', inUrl}` or null. A share
 * link's token stays in the fragment: a share link is made to be passed on, so the address
 * in the bar (with `#step=…` after it) still opens the hand for whoever gets it; the
 * fragment is never sent to a server. An API key or seat token (`#token=…`) is taken out
 * of the address bar at once and kept in this tab's session storage.
 */
export function takeCredential(hand) {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ''));
  const share = frag.get('share');
  const token = frag.get('token');
  const keep = (c) => {
    try {
      sessionStorage.setItem(KEY(hand), c);
      sessionStorage.setItem(TAB_KEY, c);
    } catch {
      /* storage refused: the credential lives in memory only */
    }
  };
  if (token) {
    keep(token);
    frag.delete('token');
    const rest = frag.toString();
    history.replaceState(null, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    if (!share) return { cred: token, kind: 'token', inUrl: false };
  }
  if (share) {
    keep(share);
    return { cred: share, kind: 'share', inUrl: true };
  }
  try {
    const c = sessionStorage.getItem(KEY(hand)) ?? sessionStorage.getItem(TAB_KEY);
    return c ? { cred: c, kind: isShareToken(c) ? 'share' : 'token', inUrl: false } : null;
  } catch {
    return null;
  }
}

export function keepCredential(hand, cred) {
  try {
    if (cred) {
      sessionStorage.setItem(KEY(hand), cred);
      sessionStorage.setItem(TAB_KEY, cred);
    } else {
      if (sessionStorage.getItem(TAB_KEY) === sessionStorage.getItem(KEY(hand))) sessionStorage.removeItem(TAB_KEY);
      sessionStorage.removeItem(KEY(hand));
    }
  } catch {
    /* ignore */
  }
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail ?? body?.title ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? null;
  }
}

/** GET a path of this service: JSON (or text with `{text: true}`). */
export async function get(path, cred, { text = false } = {}) {
  const headers = { Accept: 'application/json' };
  if (cred) headers.Authorization = `Bearer ${cred}`;
  const r = await fetch(path, { headers, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
  const body = await r.text();
  if (!r.ok) {
    let j = null;
    try {
      j = JSON.parse(body);
    } catch {
      /* not JSON */
    }
    throw new ApiError(r.status, j);
  }
  return text ? body : JSON.parse(body);
}
