// The service's API, called with the caller's credential in the Authorization header only
// (never in a URL), and the credential's keeping: read once from the URL's fragment
// (`#token=…` or `#share=…`), then removed from the address bar and kept in this tab's
// session storage, for this hand.

const KEY = (hand) => `persian-cards/credential/${hand}`;
// The tab's last credential, for the other hands of a table opened from this page.
const TAB_KEY = 'persian-cards/credential';

/** The credential for `hand`: from the fragment (then kept and removed from the URL), else the tab's. */
export function takeCredential(hand) {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ''));
  const given = frag.get('token') || frag.get('share');
  if (given) {
    try {
      sessionStorage.setItem(KEY(hand), given);
      sessionStorage.setItem(TAB_KEY, given);
    } catch {
      /* storage refused: the credential lives in memory only */
    }
    frag.delete('token');
    frag.delete('share');
    const rest = frag.toString();
    history.replaceState(null, '', location.pathname + location.search + (rest ? `#${rest}` : ''));
    return given;
  }
  try {
    return sessionStorage.getItem(KEY(hand)) ?? sessionStorage.getItem(TAB_KEY);
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
