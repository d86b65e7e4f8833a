//! The replay page (`viewer/` at the repository root, built into `viewer/dist/`), embedded:
//! the service serves it at `/hands/{hand_id}`, and `replayer view` writes it as one
//! self-contained HTML file with a bundle or match file, the native verdict and every
//! step's view inside it.
//!
//! The page itself is JavaScript and CSS built by esbuild (`npm run build` in `viewer/`);
//! the built files are committed, so that this crate builds with no Node at all.

use base64::Engine as _;
use serde::Serialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::engine::Viewer;
use crate::verify::{self, Options, ReplayStep};

/// The page's HTML (`viewer/dist/index.html`).
pub const INDEX_HTML: &str = include_str!("../../viewer/dist/index.html");
/// The page's script, bundled (`viewer/dist/viewer.js`).
pub const VIEWER_JS: &str = include_str!("../../viewer/dist/viewer.js");
/// The page's style sheet (`viewer/dist/viewer.css`).
pub const VIEWER_CSS: &str = include_str!("../../viewer/dist/viewer.css");

/// The Content-Security-Policy line of `index.html`: the policy of the page opened from
/// disk as built (no request may leave it).
pub const CSP_META: &str = r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'none'; base-uri 'none'; form-action 'none'">"#;
/// The style sheet's tag in `index.html`.
pub const CSS_TAG: &str = r#"<link rel="stylesheet" href="viewer.css">"#;
/// The script's tag in `index.html`.
pub const JS_TAG: &str = r#"<script src="viewer.js"></script>"#;
/// Where `replayer view` puts the embedded data, in `index.html`.
pub const EMBED_MARK: &str = "<!--embedded-->";

/// The policy the service sends with the page: scripts and styles from itself only, and
/// requests to itself only (the API).
pub const SERVED_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

/// The format of the data `replayer view` embeds.
pub const EMBED_FORMAT: &str = "persian-cards/replay-page";

/// The page as the service serves it: the script and style sheet from `/viewer/`, the
/// policy sent as a header ([`SERVED_CSP`]) instead of the meta line.
pub fn served_shell() -> String {
    INDEX_HTML
        .replace(CSP_META, "")
        .replace(
            CSS_TAG,
            r#"<link rel="stylesheet" href="/viewer/viewer.css">"#,
        )
        .replace(JS_TAG, r#"<script src="/viewer/viewer.js"></script>"#)
}

fn sha256_b64(text: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text.as_bytes()))
}

/// JSON that may sit inside `<script type="application/json">`: no `<` (so no
/// `</script>`), and no U+2028/U+2029.
fn embeddable_json(v: &Value) -> String {
    v.to_string()
        .replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// The page as one file, script and style sheet inline (allowed by their hashes), with
/// `embedded` (see [`embed`]) inside it, or none: the page then offers to open a file
/// by drag and drop. No request may leave it (`connect-src 'none'`).
pub fn standalone(embedded: Option<&Value>) -> String {
    // A script element ends at the first `</script`: escape it inside the script's
    // strings (where `<\/` reads as `</`).
    let js = VIEWER_JS.replace("</script", "<\\/script");
    let css = VIEWER_CSS.replace("</style", "<\\/style");
    let csp = format!(
        r#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'">"#,
        sha256_b64(&js),
        sha256_b64(&css)
    );
    let data = embedded.map_or_else(String::new, |v| {
        format!(
            r#"<script type="application/json" id="embedded-data">{}</script>"#,
            embeddable_json(v)
        )
    });
    // One pass per marker, each replaced once; what is put in is never searched again.
    let mut out = INDEX_HTML.to_string();
    for (mark, with) in [
        (CSP_META, csp),
        (CSS_TAG, format!("<style>{css}</style>")),
        (EMBED_MARK, data),
    ] {
        out = out.replacen(mark, &with, 1);
    }
    match out.find(JS_TAG) {
        Some(i) => {
            let mut s = String::with_capacity(out.len() + js.len());
            s.push_str(&out[..i]);
            s.push_str("<script>");
            s.push_str(&js);
            s.push_str("</script>");
            s.push_str(&out[i + JS_TAG.len()..]);
            s
        }
        None => out,
    }
}

/// One step's view, as the service's `replay?step=N` shows it to a viewer who sees all.
#[derive(Clone, Debug, Serialize)]
pub struct StepView {
    /// The event.
    pub step: u64,
    /// The table after it.
    pub view: Value,
    /// The hand's status after it.
    pub status: String,
    /// Who the hand waited for after it.
    pub to_act: Value,
    /// The last action up to it.
    pub last_action: Option<Value>,
}

/// The native replayer's view of every step of a bundle, everything shown (the seeds are
/// revealed), as far as the bundle verifies: a step at or after its first problem has
/// none (`None`), the page then draws it from the file itself and says so.
pub fn step_views(bundle: &[u8]) -> Vec<Option<StepView>> {
    let Ok(last) = verify::replay_as(bundle, None, &Options::default(), Viewer::All) else {
        return Vec::new();
    };
    let n = u64::try_from(last.events).unwrap_or(0);
    (0..n)
        .map(|step| {
            let r: ReplayStep =
                verify::replay_as(bundle, Some(step), &Options::default(), Viewer::All).ok()?;
            let clean = r
                .problem
                .as_ref()
                .is_none_or(|p| p.event.is_some_and(|e| e > step));
            clean.then(|| StepView {
                step,
                view: r.table,
                status: r.status.as_str().to_string(),
                to_act: serde_json::to_value(r.to_act).unwrap_or(Value::Null),
                last_action: r.last_action,
            })
        })
        .collect()
}

/// What `replayer view` embeds for a bundle or match file: the file, the native
/// replayer's verdict (for a match file, the match's and each hand's) and every step's
/// view. An error for a file that is neither.
pub fn embed(bytes: &[u8], generator: &str) -> Result<Value, verify::BundleError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| verify::BundleError::Json(e.to_string()))?;
    let opts = Options::default();
    if crate::matches::is_match_file(&value) {
        let verdict = crate::matches::verify_match_bytes(bytes, &opts)?;
        let hands: Vec<Value> = value
            .get("hands")
            .and_then(Value::as_array)
            .map(|hs| {
                hs.iter()
                    .map(|h| {
                        let b = serde_json::to_vec(h).unwrap_or_default();
                        let verdict = verify::verify_bytes(&b, &opts)
                            .ok()
                            .and_then(|v| serde_json::to_value(v).ok());
                        json!({"verdict": verdict, "steps": step_views(&b)})
                    })
                    .collect()
            })
            .unwrap_or_default();
        return Ok(json!({
            "format": EMBED_FORMAT, "version": 1, "kind": "match", "generator": generator,
            "file": value, "native": {"verdict": verdict, "hands": hands},
        }));
    }
    let verdict = verify::verify_bytes(bytes, &opts)?;
    Ok(json!({
        "format": EMBED_FORMAT, "version": 1, "kind": "bundle", "generator": generator,
        "file": value,
        "native": {"verdict": verdict, "hands": [{"verdict": verdict, "steps": step_views(bytes)}]},
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_page_has_every_marker() {
        for m in [CSP_META, CSS_TAG, JS_TAG, EMBED_MARK] {
            assert_eq!(INDEX_HTML.matches(m).count(), 1, "{m}");
        }
    }

    #[test]
    fn the_standalone_page_inlines_everything_and_allows_no_request() {
        let page = standalone(Some(&json!({"x": "</script><b>"})));
        assert!(!page.contains(JS_TAG) && !page.contains(CSS_TAG));
        assert!(page.contains("connect-src 'none'"));
        assert!(page.contains(r#"id="embedded-data""#));
        assert!(
            !page.contains("</script><b>"),
            "the data cannot end its element"
        );
        assert!(!page.contains("src=\"http"), "no external script");
    }

    fn simulated() -> (Vec<u8>, usize) {
        let spec = crate::sim::SimSpec {
            game: crate::engine::GameId::BistOYek,
            players: 3,
            rules: json!({}),
            setup: None,
            seed: [7; 32],
        };
        let key = crate::log::SigningKeyPair::from_secret([1; 32]);
        let bundle = crate::sim::simulate_with(&spec, &key, 1_700_000_000_000).unwrap();
        (serde_json::to_vec(&bundle).unwrap(), bundle.records.len())
    }

    #[test]
    fn every_step_of_a_sound_bundle_has_its_native_view() {
        let (bytes, n) = simulated();
        let views = step_views(&bytes);
        assert_eq!(views.len(), n);
        for (i, v) in views.iter().enumerate() {
            let v = v.as_ref().unwrap();
            assert_eq!(v.step, i as u64);
            assert_eq!(v.view["viewer"], "all");
        }
        let e = embed(&bytes, "test").unwrap();
        assert_eq!(e["kind"], "bundle");
        assert_eq!(e["native"]["verdict"]["valid"], true);
        assert_eq!(
            e["native"]["hands"][0]["steps"].as_array().unwrap().len(),
            n
        );
    }

    #[test]
    fn a_tampered_bundle_has_native_views_up_to_its_first_problem_only() {
        let (bytes, n) = simulated();
        let mut v: Value = serde_json::from_slice(&bytes).unwrap();
        let k = 6;
        v["records"][k]["hash"] = json!("00".repeat(32));
        let bad = serde_json::to_vec(&v).unwrap();
        let views = step_views(&bad);
        assert_eq!(views.len(), n);
        assert!(views[..k].iter().all(Option::is_some));
        assert!(views[k..].iter().all(Option::is_none));
        let e = embed(&bad, "test").unwrap();
        assert_eq!(e["native"]["verdict"]["valid"], false);
        assert_eq!(e["native"]["verdict"]["problem"]["event"], k);
    }

    #[test]
    fn not_a_bundle_is_an_error() {
        assert!(embed(b"[1, 2]", "test").is_err());
        assert!(embed(b"not json", "test").is_err());
    }

    #[test]
    fn the_served_shell_loads_its_assets_from_the_service() {
        let page = served_shell();
        assert!(page.contains("/viewer/viewer.js") && page.contains("/viewer/viewer.css"));
        assert!(
            !page.contains("Content-Security-Policy"),
            "sent as a header"
        );
    }
}
