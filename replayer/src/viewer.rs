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
use crate::verify::{self, Options};

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

/// Where the page's icon goes in `index.html` (the end of its head).
const HEAD_END: &str = "</head>";

/// The page's icon as a `data:` URL (a card with a spade; the service serves the same
/// drawing as `/favicon.ico`), for the page opened from a file.
pub const ICON_DATA_URL: &str = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect x='4' y='1' width='24' height='30' rx='4' fill='%23fff' stroke='%231b5e20' stroke-width='2'/%3E%3Cpath d='M16 6C13 11 8 13 8 18a4 4 0 0 0 7 2.5L13.5 26h5L17 20.5A4 4 0 0 0 24 18c0-5-5-7-8-12z' fill='%231b1b1b'/%3E%3C/svg%3E";

/// The page as the service serves it: the script and style sheet from `/viewer/`, the
/// policy sent as a header ([`SERVED_CSP`]) instead of the meta line, the service's icon
/// (`/favicon.ico`).
pub fn served_shell() -> String {
    INDEX_HTML
        .replace(CSP_META, "")
        .replace(
            CSS_TAG,
            r#"<link rel="stylesheet" href="/viewer/viewer.css">"#,
        )
        .replace(JS_TAG, r#"<script src="/viewer/viewer.js"></script>"#)
        .replacen(
            HEAD_END,
            concat!(r#"<link rel="icon" href="/favicon.ico">"#, "</head>"),
            1,
        )
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
        (
            HEAD_END,
            format!(r#"<link rel="icon" href="{ICON_DATA_URL}">{HEAD_END}"#),
        ),
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
/// none (`None`), the page then draws it from the file itself and says so. One fold over
/// the bundle ([`verify::fold_steps`]).
pub fn step_views(bundle: &[u8]) -> Vec<Option<StepView>> {
    let mut out: Vec<Option<StepView>> = Vec::new();
    let Ok(n) = verify::fold_steps(bundle, &Options::default(), |step, hand| {
        out.push(Some(StepView {
            step,
            view: hand.view(Viewer::All),
            status: hand.status().as_str().to_string(),
            to_act: serde_json::to_value(hand.to_act()).unwrap_or(Value::Null),
            last_action: hand.last_action().cloned(),
        }));
    }) else {
        return Vec::new();
    };
    out.resize(n, None);
    out
}

/// Every step's view, compactly (`docs/…` in `viewer/README.md`, "Embedded data"):
/// `{"count": k, "first": view0, "patches": [p1, …]}` where steps `0..k` have native views
/// (the steps from the first problem on have none), `first` is step 0's and `patches[i-1]`
/// is the RFC 6902 JSON Patch that turns step `i-1`'s view into step `i`'s. A long hand's
/// views differ from one step to the next by a card or two: the page gets each one whole
/// for a few bytes a step.
pub fn compact_views(bundle: &[u8]) -> Value {
    let mut first: Option<Value> = None;
    let mut prev: Option<Value> = None;
    let mut patches: Vec<Value> = Vec::new();
    let mut count = 0usize;
    // A bundle that does not read has no views: its verdict says why.
    let _ = verify::fold_steps(bundle, &Options::default(), |_, hand| {
        let view = hand.view(Viewer::All);
        match &prev {
            None => first = Some(view.clone()),
            Some(p) => patches.push(Value::Array(json_patch(p, &view))),
        }
        prev = Some(view);
        count += 1;
    });
    json!({"encoding": VIEWS_ENCODING, "count": count, "first": first, "patches": patches})
}

/// The encoding of [`compact_views`].
pub const VIEWS_ENCODING: &str = "first+json-patch";

/// An RFC 6902 JSON Patch (`add`, `remove` and `replace` only) that turns `from` into
/// `to`. Objects are compared member by member; an array's common head and tail are kept
/// and only the part between them is patched (a card played from a hand is one `remove`,
/// a card laid on a pile one `add`).
pub fn json_patch(from: &Value, to: &Value) -> Vec<Value> {
    let mut ops = Vec::new();
    diff_into(from, to, &mut String::new(), &mut ops);
    ops
}

fn pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

fn diff_into(from: &Value, to: &Value, path: &mut String, ops: &mut Vec<Value>) {
    if from == to {
        return;
    }
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            let base = path.len();
            for k in a.keys().filter(|k| !b.contains_key(*k)) {
                path.push('/');
                path.push_str(&pointer_token(k));
                ops.push(json!({"op": "remove", "path": path.as_str()}));
                path.truncate(base);
            }
            for (k, vb) in b {
                path.push('/');
                path.push_str(&pointer_token(k));
                match a.get(k) {
                    Some(va) => diff_into(va, vb, path, ops),
                    None => ops.push(json!({"op": "add", "path": path.as_str(), "value": vb})),
                }
                path.truncate(base);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            let tail = a[head..]
                .iter()
                .rev()
                .zip(b[head..].iter().rev())
                .take_while(|(x, y)| x == y)
                .count();
            let (mid_a, mid_b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
            let base = path.len();
            if mid_a.len() == mid_b.len() {
                for (i, (x, y)) in mid_a.iter().zip(mid_b).enumerate() {
                    path.push('/');
                    path.push_str(&(head + i).to_string());
                    diff_into(x, y, path, ops);
                    path.truncate(base);
                }
                return;
            }
            path.push('/');
            path.push_str(&head.to_string());
            for _ in mid_a {
                ops.push(json!({"op": "remove", "path": path.as_str()}));
            }
            path.truncate(base);
            for (i, y) in mid_b.iter().enumerate() {
                path.push('/');
                path.push_str(&(head + i).to_string());
                ops.push(json!({"op": "add", "path": path.as_str(), "value": y}));
                path.truncate(base);
            }
        }
        _ => ops.push(json!({"op": "replace", "path": path.as_str(), "value": to})),
    }
}

/// The version of the data `replayer view` embeds: 2 holds every step's view as
/// [`compact_views`] (version 1 held each whole, 5.4 MB for an 800-event hand).
pub const EMBED_VERSION: u64 = 2;

/// What `replayer view` embeds for a bundle or match file: the file, the native
/// replayer's verdict (for a match file, the match's and each hand's) and every step's
/// view ([`compact_views`]). An error for a file that is neither.
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
                        json!({"verdict": verdict, "views": compact_views(&b)})
                    })
                    .collect()
            })
            .unwrap_or_default();
        return Ok(json!({
            "format": EMBED_FORMAT, "version": EMBED_VERSION, "kind": "match",
            "generator": generator, "file": value,
            "native": {"verdict": verdict, "hands": hands},
        }));
    }
    let verdict = verify::verify_bytes(bytes, &opts)?;
    Ok(json!({
        "format": EMBED_FORMAT, "version": EMBED_VERSION, "kind": "bundle",
        "generator": generator, "file": value,
        "native": {"verdict": verdict, "hands": [{"verdict": verdict, "views": compact_views(bytes)}]},
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_page_has_every_marker() {
        for m in [CSP_META, CSS_TAG, JS_TAG, EMBED_MARK, HEAD_END] {
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
        simulated_game(crate::engine::GameId::BistOYek, 3, 7)
    }

    fn simulated_game(game: crate::engine::GameId, players: u8, seed: u8) -> (Vec<u8>, usize) {
        let spec = crate::sim::SimSpec {
            game,
            players,
            rules: json!({}),
            setup: None,
            seed: [seed; 32],
        };
        let key = crate::log::SigningKeyPair::from_secret([seed.wrapping_add(1); 32]);
        let bundle = crate::sim::simulate_with(&spec, &key, 1_700_000_000_000).unwrap();
        (serde_json::to_vec(&bundle).unwrap(), bundle.records.len())
    }

    /// The views as `replayer view` made them before it folded once: one replay per step,
    /// a step's view kept where its replay met no problem up to it (`None` for a step not
    /// in `sample`, to keep the test quick: each replay starts from the first event).
    fn views_one_replay_per_step(bytes: &[u8], sample: usize) -> Vec<Option<Value>> {
        let Ok(last) = verify::replay_as(bytes, None, &Options::default(), Viewer::All) else {
            return Vec::new();
        };
        let n = last.events as u64;
        (0..n)
            .map(|step| {
                if step % sample as u64 != 0 && step + 1 != n && step != 1 {
                    return None;
                }
                let r =
                    verify::replay_as(bytes, Some(step), &Options::default(), Viewer::All).ok()?;
                let clean = r
                    .problem
                    .as_ref()
                    .is_none_or(|p| p.event.is_some_and(|e| e > step));
                clean.then_some(r.table)
            })
            .collect()
    }

    /// A test-only RFC 6902 applier for `add`, `remove` and `replace`.
    fn apply(doc: &Value, ops: &[Value]) -> Value {
        let mut doc = doc.clone();
        for op in ops {
            let path = op["path"].as_str().unwrap();
            let (parent, last) = match path.rfind('/') {
                Some(i) => (&path[..i], &path[i + 1..]),
                None => {
                    doc = op["value"].clone();
                    continue;
                }
            };
            let last = last.replace("~1", "/").replace("~0", "~");
            let target = doc.pointer_mut(parent).unwrap();
            match (op["op"].as_str().unwrap(), target) {
                ("add", Value::Array(a)) => a.insert(last.parse().unwrap(), op["value"].clone()),
                ("remove", Value::Array(a)) => {
                    a.remove(last.parse().unwrap());
                }
                ("replace", Value::Array(a)) => {
                    a[last.parse::<usize>().unwrap()] = op["value"].clone()
                }
                ("add" | "replace", Value::Object(o)) => {
                    o.insert(last, op["value"].clone());
                }
                ("remove", Value::Object(o)) => {
                    o.remove(&last).unwrap();
                }
                other => panic!("{other:?}"),
            }
        }
        doc
    }

    fn expand(views: &Value) -> Vec<Value> {
        let count = views["count"].as_u64().unwrap() as usize;
        let mut out = Vec::new();
        if count == 0 {
            return out;
        }
        out.push(views["first"].clone());
        for p in views["patches"].as_array().unwrap() {
            let next = apply(out.last().unwrap(), p.as_array().unwrap());
            out.push(next);
        }
        assert_eq!(out.len(), count);
        out
    }

    #[test]
    fn one_fold_gives_the_views_of_one_replay_per_step() {
        use crate::engine::GameId;
        for (game, players) in [
            (GameId::BistOYek, 3),
            (GameId::BistOYek, 5),
            (GameId::Hokm, 4),
            (GameId::Bluff, 4),
        ] {
            for seed in [3u8, 200] {
                let (bytes, n) = simulated_game(game, players, seed);
                let sample = 1 + n / 12;
                let old = views_one_replay_per_step(&bytes, sample);
                let new: Vec<Option<Value>> = step_views(&bytes)
                    .into_iter()
                    .map(|v| v.map(|v| v.view))
                    .collect();
                assert_eq!(new.len(), n);
                assert!(new.iter().all(Option::is_some), "{game:?} {seed}");
                for (i, o) in old.iter().enumerate() {
                    if let Some(o) = o {
                        assert_eq!(
                            new[i].as_ref(),
                            Some(o),
                            "{game:?} {players} seats, seed {seed}, step {i}"
                        );
                    }
                }
                let compact = compact_views(&bytes);
                let whole: Vec<Value> = new.into_iter().flatten().collect();
                assert_eq!(expand(&compact), whole, "{game:?} {seed}");
            }
        }
    }

    #[test]
    fn tampered_bundles_have_the_same_views_as_one_replay_per_step() {
        use crate::engine::GameId;
        for (game, players, seed) in [(GameId::Hokm, 4, 9u8), (GameId::Bluff, 4, 77)] {
            let (bytes, n) = simulated_game(game, players, seed);
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            let mut bad_files = Vec::new();
            for k in [1, n / 3, n / 2, n - 1] {
                // A hash, a signature, an action's amount or card changed behind the
                // signer's back, and the revealed seed replaced.
                let mut b = v.clone();
                b["records"][k]["hash"] = json!("11".repeat(32));
                bad_files.push(b);
                let mut b = v.clone();
                b["records"][k]["sig"] = json!("22".repeat(64));
                bad_files.push(b);
            }
            let mut b = v.clone();
            let last = &mut b["records"][n - 1]["event"]["body"]["seeds"][0]["server_seed"];
            if last.is_string() {
                *last = json!("ab".repeat(32));
                bad_files.push(b);
            }
            let mut b = v.clone();
            b["keys"][0]["key_id"] = json!("ed25519:0000000000000000");
            bad_files.push(b);
            for b in bad_files {
                let bytes = serde_json::to_vec(&b).unwrap();
                let new: Vec<Option<Value>> = step_views(&bytes)
                    .into_iter()
                    .map(|v| v.map(|v| v.view))
                    .collect();
                assert_eq!(new.len(), n);
                // A sample of the steps, each replayed on its own (every replay starts from
                // the first event: all of them would take minutes).
                let old = views_one_replay_per_step(&bytes, 1 + n / 10);
                for (i, o) in old.iter().enumerate() {
                    if let Some(o) = o {
                        assert_eq!(new[i].as_ref(), Some(o), "{game:?} step {i}");
                    }
                }
                // A step with no view is one whose replay met a problem up to it.
                for (i, _) in new.iter().enumerate().filter(|(_, v)| v.is_none()).take(3) {
                    let r =
                        verify::replay_as(&bytes, Some(i as u64), &Options::default(), Viewer::All);
                    assert!(
                        r.map_or(true, |r| r
                            .problem
                            .is_some_and(|p| p.event.is_none_or(|e| e <= i as u64))),
                        "{game:?} step {i}"
                    );
                }
                let clean = new.iter().take_while(|v| v.is_some()).count();
                assert!(
                    new[clean..].iter().all(Option::is_none),
                    "clean steps come first"
                );
                let compact = compact_views(&bytes);
                assert_eq!(compact["count"], clean);
                let whole: Vec<Value> = new.into_iter().flatten().collect();
                assert_eq!(expand(&compact), whole);
            }
        }
    }

    #[test]
    fn a_json_patch_turns_one_value_into_the_other() {
        let cases = [
            (
                json!({"a": 1, "b": [1, 2, 3]}),
                json!({"a": 2, "b": [1, 3], "c/d~": null}),
            ),
            (json!([1, 2, 3, 4, 5]), json!([1, 9, 8, 7, 5])),
            (json!([1, 2, 3]), json!([0, 1, 2, 3, 4])),
            (
                json!({"x": {"y": [{"z": 1}, {"z": 2}]}}),
                json!({"x": {"y": [{"z": 2}]}}),
            ),
            (json!({"x": [1, 2]}), json!({"x": "now a string"})),
            (json!({"k": null}), json!({})),
            (json!({"سارا!": [1]}), json!({"سارا!": [1, 1]})),
            (json!([[1, 2], [3]]), json!([[1], [3, 4], []])),
            (json!({"a": 1}), json!([1])),
        ];
        for (a, b) in cases {
            let ops = json_patch(&a, &b);
            assert_eq!(apply(&a, &ops), b, "{a} -> {b}: {ops:?}");
            assert!(json_patch(&b, &b).is_empty());
        }
        // A card played from the middle of a hand is one operation.
        let ops = json_patch(&json!(["7H", "9D", "KS", "2C"]), &json!(["7H", "9D", "2C"]));
        assert_eq!(ops, vec![json!({"op": "remove", "path": "/2"})]);
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
        assert_eq!(e["version"], EMBED_VERSION);
        assert_eq!(e["native"]["verdict"]["valid"], true);
        assert_eq!(e["native"]["hands"][0]["views"]["count"], n);
        let whole: Vec<Value> = views.into_iter().flatten().map(|v| v.view).collect();
        assert_eq!(expand(&e["native"]["hands"][0]["views"]), whole);
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
