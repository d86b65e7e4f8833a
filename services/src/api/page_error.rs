//! What the service answers a person, not a program: an HTML page that says in English
//! and Persian what went wrong with the address they opened and what to do, for the page
//! routes (`/hands/{hand_id}`, `/viewer/`) and for a browser that opens an address with no
//! page. The API (`/v1/…`) keeps its `application/problem+json` answers.
//!
//! A page never repeats what the address held after `?` or `#` (it may be a credential
//! pasted in the wrong place): it names the problem by kind only. Its script
//! (`/viewer/page-error.js`) takes the query and the fragment out of the address bar at
//! once, and keeps the fragment in memory for the link that opens the page again, so a
//! share link whose address was only damaged after its `#share=…` still opens.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, DOCTYPE};

use crate::auth::{API_KEY_PREFIX, SEAT_TOKEN_PREFIX, SHARE_TOKEN_PREFIX};

/// What was wrong with the address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageProblem {
    /// `?step=` is not one whole number.
    BadStep,
    /// Something in the query looks like a credential (a name such as `token` or `share`,
    /// or a value with a token's prefix): it belongs in the fragment.
    CredentialInQuery,
    /// A query parameter the page does not take, or a query that does not read.
    UnknownQuery,
    /// No page at this path.
    NoSuchPage,
}

/// Which page the address was for: the link that opens it again differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    /// A hand's replay page, `/hands/{hand_id}`.
    Hand,
    /// The replay page with nothing opened, `/viewer/`.
    Viewer,
    /// No page.
    None,
}

/// The words of one problem in one language.
struct Words {
    title: &'static str,
    what: &'static str,
    todo: &'static str,
}

impl PageProblem {
    /// A stable name (`data-problem` on the page, for tests and scripts).
    pub fn as_str(self) -> &'static str {
        match self {
            PageProblem::BadStep => "bad_step",
            PageProblem::CredentialInQuery => "credential_in_query",
            PageProblem::UnknownQuery => "unknown_query",
            PageProblem::NoSuchPage => "no_such_page",
        }
    }

    /// The HTTP status.
    pub fn status(self) -> StatusCode {
        match self {
            PageProblem::NoSuchPage => StatusCode::NOT_FOUND,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    fn en(self) -> Words {
        match self {
            PageProblem::BadStep => Words {
                title: "This address asks for a step that does not exist",
                what: "The part of the address after “?step=” must be one whole number \
                       (steps are numbered 0, 1, 2, …). It is something else here, so the \
                       hand was not opened.",
                todo: "Open the hand from its first step with the link below and move \
                       with the buttons or the arrow keys, or correct the number after \
                       “step=”.",
            },
            PageProblem::CredentialInQuery => Words {
                title: "This link carries a key in the wrong place",
                what: "A key (a share link's, an API key or a seat token) goes after “#” \
                       in a link, where the browser keeps it to itself. This address had \
                       one after “?”, which is sent to the server: the server refused the \
                       address and did not use or keep the key, and this page does not \
                       show it.",
                todo: "Open the link exactly as you were given it (it looks like \
                       …/hands/h_…#share=…). If it was changed on the way, ask whoever \
                       shared the hand for a new link.",
            },
            PageProblem::UnknownQuery => Words {
                title: "This address has a part the replay page does not understand",
                what: "The replay page takes only “?step=N” after its address (N a whole \
                       number). This address has something else there, so the hand was not \
                       opened.",
                todo: "Open the hand from its first step with the link below, or ask \
                       whoever gave you the address for the link as it was made.",
            },
            PageProblem::NoSuchPage => Words {
                title: "There is no page at this address",
                what: "This service has no page here. A hand's replay page has an address \
                       like …/hands/h_0123456789abcdef.",
                todo: "Check the link you were given, or open the replay page below and \
                       drop a hand's file (a bundle or a match file) on it.",
            },
        }
    }

    fn fa(self) -> Words {
        match self {
            PageProblem::BadStep => Words {
                title: "این نشانی مرحله‌ای را می‌خواهد که وجود ندارد",
                what: "بخش پس از «\u{2066}?step=\u{2069}» در نشانی باید یک عدد صحیح باشد (مرحله‌ها از ۰، ۱، \
                       ۲، … شماره می‌خورند). اینجا چیز دیگری است، پس دست باز نشد.",
                todo: "با پیوند زیر دست را از نخستین مرحله باز کنید و با دکمه‌ها یا کلیدهای \
                       جهت جلو بروید، یا عدد پس از «\u{2066}step=\u{2069}» را درست کنید.",
            },
            PageProblem::CredentialInQuery => Words {
                title: "کلید این پیوند در جای نادرستی است",
                what: "کلید (کلید پیوند اشتراک، کلید API یا توکن صندلی) در پیوند پس از «\u{2066}#\u{2069}» \
                       می‌آید، جایی که مرورگر آن را نزد خود نگه می‌دارد. این نشانی کلیدی پس \
                       از «\u{2066}?\u{2069}» داشت که به سرور فرستاده می‌شود: سرور نشانی را نپذیرفت، کلید \
                       را به کار نبرد و نگه نداشت، و این صفحه آن را نشان نمی‌دهد.",
                todo: "پیوند را درست همان‌گونه که به شما داده شد باز کنید (شبیه \
                       \u{2066}…/hands/h_…#share=…\u{2069} است). اگر در راه تغییر کرده، از کسی که دست را \
                       به اشتراک گذاشته پیوند تازه‌ای بخواهید.",
            },
            PageProblem::UnknownQuery => Words {
                title: "این نشانی بخشی دارد که صفحهٔ بازپخش آن را نمی‌فهمد",
                what: "صفحهٔ بازپخش پس از نشانی خود فقط «\u{2066}?step=N\u{2069}» را می‌پذیرد (N یک عدد \
                       صحیح). این نشانی آنجا چیز دیگری دارد، پس دست باز نشد.",
                todo: "با پیوند زیر دست را از نخستین مرحله باز کنید، یا از کسی که نشانی را \
                       به شما داده پیوند را همان‌گونه که ساخته شد بخواهید.",
            },
            PageProblem::NoSuchPage => Words {
                title: "در این نشانی صفحه‌ای نیست",
                what: "این سرویس اینجا صفحه‌ای ندارد. نشانی صفحهٔ بازپخش یک دست شبیه \
                       \u{2066}…/hands/h_0123456789abcdef\u{2069} است.",
                todo: "پیوندی را که به شما داده شده بررسی کنید، یا صفحهٔ بازپخش را از پیوند \
                       زیر باز کنید و پروندهٔ یک دست (بسته یا پروندهٔ مسابقه) را روی آن \
                       بیندازید.",
            },
        }
    }
}

/// Query parameter names that mean a credential (compared without case).
const CREDENTIAL_NAMES: &[&str] = &[
    "token",
    "share",
    "key",
    "api_key",
    "apikey",
    "access_token",
    "auth",
    "authorization",
    "bearer",
];

/// Whether `s` reads as one of the service's tokens (`ak_…`, `st_…`, `sh_…`).
fn looks_like_token(s: &str) -> bool {
    [API_KEY_PREFIX, SEAT_TOKEN_PREFIX, SHARE_TOKEN_PREFIX]
        .iter()
        .any(|p| {
            s.strip_prefix(p)
                .is_some_and(|rest| rest.starts_with('_') && rest.len() > 8)
        })
}

/// What is wrong with a page's query string (`None`: nothing, the page opens). The page
/// takes `step`, one whole number, and nothing else.
pub fn check_page_query(query: &str) -> Option<PageProblem> {
    if query.is_empty() {
        return None;
    }
    let Ok(web::Query(pairs)) = web::Query::<Vec<(String, String)>>::from_query(query) else {
        // Not even name=value pairs (a bad percent escape): still, a token in it is named.
        let token = query.split(['&', '=', ';']).any(looks_like_token);
        return Some(if token {
            PageProblem::CredentialInQuery
        } else {
            PageProblem::UnknownQuery
        });
    };
    let credential = pairs.iter().any(|(k, v)| {
        CREDENTIAL_NAMES.iter().any(|n| k.eq_ignore_ascii_case(n))
            || looks_like_token(k)
            || looks_like_token(v)
    });
    if credential {
        return Some(PageProblem::CredentialInQuery);
    }
    if pairs.iter().any(|(k, _)| k != "step") {
        return Some(PageProblem::UnknownQuery);
    }
    match pairs.as_slice() {
        [] => None,
        [(_, v)] if v.parse::<u64>().is_ok() && v.bytes().all(|b| b.is_ascii_digit()) => None,
        _ => Some(PageProblem::BadStep),
    }
}

/// Whether the request is a browser's asking for a page (its `Accept` names `text/html`).
pub fn wants_html(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

fn section(lang: &str, dir: &str, w: &Words, link: Option<(&str, &str)>) -> Markup {
    html! {
        section lang=(lang) dir=(dir) {
            h1 { (w.title) }
            p.what { (w.what) }
            p.todo { (w.todo) }
            @if let Some((href, text)) = link {
                p { a.again href=(href) { (text) } }
            }
        }
    }
}

/// The page for `problem` on a page of `kind`, with its status and the page's headers.
pub fn page(problem: PageProblem, kind: PageKind) -> HttpResponse {
    let (link_en, link_fa) = match kind {
        PageKind::Hand => (
            Some(("?", "Open the hand from its first step")),
            Some(("?", "باز کردن دست از نخستین مرحله")),
        ),
        PageKind::Viewer => (
            Some(("?", "Open the replay page")),
            Some(("?", "باز کردن صفحهٔ بازپخش")),
        ),
        PageKind::None => (
            Some(("/viewer/", "Open the replay page")),
            Some(("/viewer/", "باز کردن صفحهٔ بازپخش")),
        ),
    };
    let en = problem.en();
    let fa = problem.fa();
    let status = problem.status();
    let body = html! {
        (DOCTYPE)
        html lang="en" dir="ltr" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (en.title) " · " (fa.title) }
                link rel="icon" href="/favicon.ico";
                link rel="stylesheet" href="/viewer/page-error.css";
                script src="/viewer/page-error.js" defer {}
            }
            body {
                main.page-error data-problem=(problem.as_str()) data-status=(status.as_u16()) {
                    (section("en", "ltr", &en, link_en))
                    (section("fa", "rtl", &fa, link_fa))
                    p.code { (status.as_u16()) " · " (problem.as_str()) }
                }
            }
        }
    };
    let mut res = HttpResponse::build(status);
    super::viewer::page_headers(&mut res)
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type("text/html; charset=utf-8")
        .body(body.into_string())
}

/// The error page's script: takes the query and fragment out of the address bar.
pub const SCRIPT: &str = include_str!("assets/page-error.js");
/// The error page's style sheet.
pub const STYLE: &str = include_str!("assets/page-error.css");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_query_is_a_step_or_nothing() {
        for q in ["", "step=0", "step=23", "step=18446744073709551615"] {
            assert_eq!(check_page_query(q), None, "{q}");
        }
        for q in [
            "step=abc",
            "step=",
            "step=-1",
            "step=1.5",
            "step=+3",
            "step=99999999999999999999",
            "step=1&step=2",
            "step=%D9%A3",
        ] {
            assert_eq!(check_page_query(q), Some(PageProblem::BadStep), "{q}");
        }
        for q in ["lang=fa", "step=2&hand=1", "x", "%ZZ=1", "s%74ep2=1"] {
            assert_eq!(check_page_query(q), Some(PageProblem::UnknownQuery), "{q}");
        }
    }

    #[test]
    fn a_credential_in_the_query_is_named_as_one() {
        for q in [
            "token=ak_c_0011223344556677_aa_bbbbbbbb",
            "share=anything",
            "TOKEN=x",
            "step=3&access_token=y",
            "sh_c_0011223344556677_0f3a_secretsecret",
            "step=2&x=st_c_0011223344556677_01_secretsecret",
        ] {
            assert_eq!(
                check_page_query(q),
                Some(PageProblem::CredentialInQuery),
                "{q}"
            );
        }
    }

    #[tokio::test]
    async fn the_page_repeats_nothing_of_the_address() {
        for p in [
            PageProblem::BadStep,
            PageProblem::CredentialInQuery,
            PageProblem::UnknownQuery,
            PageProblem::NoSuchPage,
        ] {
            let res = page(p, PageKind::Hand);
            assert_eq!(res.status(), p.status());
            let body = actix_web::body::to_bytes(res.into_body()).await.unwrap();
            let text = std::str::from_utf8(&body).unwrap();
            assert!(text.contains(p.as_str()));
            assert!(text.contains(r#"lang="fa""#) && text.contains(r#"dir="rtl""#));
            assert!(
                !text.contains("<script>"),
                "no inline script: the CSP allows none"
            );
        }
    }

    #[test]
    fn persian_words_isolate_every_latin_address_fragment() {
        // A fragment such as "?step=" inside right-to-left text is drawn reversed
        // ("=step?") unless it is isolated (LRI … PDI).
        for p in [
            PageProblem::BadStep,
            PageProblem::CredentialInQuery,
            PageProblem::UnknownQuery,
            PageProblem::NoSuchPage,
        ] {
            let w = p.fa();
            for text in [w.title, w.what, w.todo] {
                let mut depth = 0i32;
                for c in text.chars() {
                    match c {
                        '\u{2066}' => depth += 1,
                        '\u{2069}' => depth -= 1,
                        c if c.is_ascii_punctuation() && !"(),.:".contains(c) => {
                            assert!(depth > 0, "{p:?}: {c:?} outside an isolate in {text}");
                        }
                        _ => {}
                    }
                }
                assert_eq!(depth, 0, "{p:?}: unbalanced isolates in {text}");
            }
        }
    }
}
