//! The dispute report: the claim, the findings, the rulings and the hand step by step, in
//! English or Persian, as JSON or as an HTML page (`GET /v1/disputes/{id}/report`).
//!
//! The HTML is written with `maud`, whose templates escape every value they interpolate:
//! claims, reasons, names and the hand's own JSON are user-supplied text, and nothing of
//! theirs is ever written as markup. The Persian page is `<html lang="fa" dir="rtl">`;
//! ids, hashes, keys and JSON stay left-to-right inside it (`dir="ltr"` on their
//! elements), as they are read character by character.

use maud::{html, Markup, DOCTYPE};
use replayer::log::{Body, Record};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::{DisputeView, RecordCheck, RulingView};
use crate::api::errors::{ApiError, ApiResult, Code};
use crate::store::HandRow;
use crate::Service;

/// The report's format name and version.
pub const REPORT_FORMAT: &str = "persian-cards/dispute-report";
/// The report's version.
pub const REPORT_VERSION: u32 = 1;

/// `GET /v1/disputes/{dispute_id}/report` query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReportQuery {
    /// `json` or `html`; without it, `html` when the `Accept` header asks for
    /// `text/html`, else `json`.
    pub format: Option<String>,
    /// `en` (default) or `fa`.
    pub lang: Option<String>,
}

/// The report's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Persian (فارسی), right to left.
    Fa,
}

impl Lang {
    /// Reads `en` or `fa` (default `en`).
    pub fn parse(s: Option<&str>) -> ApiResult<Lang> {
        match s {
            None | Some("en") => Ok(Lang::En),
            Some("fa") => Ok(Lang::Fa),
            Some(_) => Err(ApiError::new(Code::InvalidQuery, "lang must be en or fa")
                .with("parameter", "lang")),
        }
    }

    fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fa => "fa",
        }
    }

    fn dir(self) -> &'static str {
        match self {
            Lang::En => "ltr",
            Lang::Fa => "rtl",
        }
    }

    /// `en` or `fa` text.
    fn pick<'a>(self, en: &'a str, fa: &'a str) -> &'a str {
        match self {
            Lang::En => en,
            Lang::Fa => fa,
        }
    }
}

/// The report as JSON.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Report {
    /// `persian-cards/dispute-report`.
    pub format: String,
    /// 1.
    pub version: u32,
    /// `en` or `fa`.
    pub lang: String,
    /// `ltr` or `rtl`.
    pub dir: String,
    /// The report's title.
    pub title: String,
    /// The dispute.
    pub dispute: ReportDispute,
    /// The findings, one sentence each, in the report's language.
    pub summary: Vec<ReportLine>,
    /// The findings in full, as attached when the dispute was opened.
    #[schema(value_type = Object)]
    pub findings: Value,
    /// The rulings, oldest first.
    pub rulings: Vec<ReportRuling>,
    /// The hand, event by event.
    pub steps: Vec<ReportStep>,
    /// The check of the dispute's stored record.
    pub record_check: RecordCheck,
}

/// The dispute, as the report shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportDispute {
    /// The dispute.
    pub dispute_id: String,
    /// The hand.
    pub hand_id: String,
    /// The table.
    pub table_id: String,
    /// The event disputed, if one.
    pub seq: Option<u64>,
    /// The kind's stable name.
    pub kind: String,
    /// The kind, in the report's language.
    pub kind_label: String,
    /// The claim, as the opener wrote it.
    pub claim: String,
    /// The status's stable name.
    pub status: String,
    /// The status, in the report's language.
    pub status_label: String,
    /// Who opened it: role and id.
    pub opened_by: String,
    /// When (unix ms).
    pub opened_ms: i64,
}

/// One finding in a sentence.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportLine {
    /// Which finding: `verdict`, `stored_log`, `match_link`, `log`, `claim`, `ruling`.
    pub finding: String,
    /// Whether it found nothing wrong (`None`: it says nothing either way).
    pub ok: Option<bool>,
    /// The sentence.
    pub text: String,
}

/// A ruling, as the report shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportRuling {
    /// Its entry in the dispute's record.
    pub seq: u64,
    /// The decision's stable name.
    pub decision: String,
    /// The decision, in the report's language.
    pub decision_label: String,
    /// Why.
    pub reason: String,
    /// The official's name.
    pub official: String,
    /// The official's key id.
    pub official_key: String,
    /// What the rules make of the penalty, if one.
    #[schema(value_type = Option<Object>)]
    pub award: Option<Value>,
    /// When (unix ms).
    pub time_ms: u64,
    /// Whether a later ruling supersedes it.
    pub superseded: bool,
    /// A penalty ruling only: whether and where its award counts in the table's match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried: Option<super::carry::CarryView>,
    /// The same, in the report's language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried_text: Option<String>,
}

/// Whether and where a penalty ruling's award counts in the match, in words.
fn carried_text(lang: Lang, c: &super::carry::CarryView) -> String {
    let hand = c.hand_no.map_or_else(String::new, |n| n.to_string());
    let id = c.hand_id.clone().unwrap_or_default();
    match (c.status.as_str(), c.reason.as_deref()) {
        ("applied", _) => match lang {
            Lang::En => format!("Counted in the match: hand {hand} ({id}) started with it."),
            Lang::Fa => format!("در مسابقه به حساب آمد: دست {hand} ({id}) با آن آغاز شد."),
        },
        ("pending", _) => lang
            .pick(
                "Counts in the match from the table's next hand.",
                "از دست بعدی میز در مسابقه به حساب می‌آید.",
            )
            .to_string(),
        (_, Some("match_over")) => lang
            .pick(
                "Not counted in the match: the match was over.",
                "در مسابقه به حساب نیامد: مسابقه تمام شده بود.",
            )
            .to_string(),
        (_, Some("superseded")) => lang
            .pick(
                "Not counted in the match: a later ruling came before a hand carried it.",
                "در مسابقه به حساب نیامد: رأی بعدی پیش از آنکه دستی آن را به حساب آورد رسید.",
            )
            .to_string(),
        (_, Some("dispute_carried")) => lang
            .pick(
                "Not counted in the match: this dispute's award counted already.",
                "در مسابقه به حساب نیامد: جریمهٔ این اختلاف پیش‌تر به حساب آمده بود.",
            )
            .to_string(),
        (_, Some("hand_quarantined")) => lang
            .pick(
                "Not counted in the match: the ruled hand was quarantined.",
                "در مسابقه به حساب نیامد: دستی که رأی درباره‌اش بود قرنطینه شد.",
            )
            .to_string(),
        (status, _) => status.to_string(),
    }
}

/// One event of the hand.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ReportStep {
    /// Its seq.
    pub seq: i64,
    /// Its kind (`action`, `shuffled` …).
    pub kind: String,
    /// What happened, in the report's language.
    pub text: String,
    /// The event's body as recorded.
    #[schema(value_type = Object)]
    pub body: Value,
    /// Its hash.
    pub hash: String,
    /// Whether it is the event disputed.
    pub disputed: bool,
}

fn kind_label(lang: Lang, kind: &str) -> String {
    let (en, fa) = match kind {
        "unfair_deal" => ("Unfair deal", "پخش ناعادلانه"),
        "action_not_mine" => ("Action not mine", "این حرکت را من نکردم"),
        "wrong_score" => ("Wrong score or payment", "امتیاز یا پرداخت نادرست"),
        "rule_broken" => ("Rule broken by another seat", "قانون‌شکنی بازیکنی دیگر"),
        "record_altered" => ("Record altered", "دست‌کاری در سابقه"),
        other => (other, other),
    };
    lang.pick(en, fa).to_string()
}

fn status_label(lang: Lang, status: &str) -> String {
    let (en, fa) = match status {
        "open" => ("Open", "باز"),
        "upheld" => ("Upheld", "پذیرفته شد"),
        "rejected" => ("Rejected", "رد شد"),
        "penalty" => ("Penalty awarded", "جریمه"),
        other => (other, other),
    };
    lang.pick(en, fa).to_string()
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

fn player(hand: &HandRow, seat: u64) -> String {
    usize::try_from(seat)
        .ok()
        .and_then(|i| hand.players.get(i))
        .cloned()
        .unwrap_or_default()
}

fn actor_text(lang: Lang, hand: &HandRow, actor: &replayer::engine::Actor) -> String {
    match actor {
        replayer::engine::Actor::Seat(s) => format!(
            "{} {} ({})",
            lang.pick("Seat", "صندلی"),
            s.0,
            player(hand, u64::from(s.0))
        ),
        replayer::engine::Actor::Service => lang.pick("The service", "سرویس").to_string(),
    }
}

fn step_text(lang: Lang, hand: &HandRow, r: &Record) -> String {
    match &r.event.body {
        Body::HandStarted {
            hand_no,
            game,
            table,
            ..
        } => match lang {
            Lang::En => format!("Hand {hand_no} of table {table} started ({game})"),
            Lang::Fa => format!("دست {hand_no} میز {table} آغاز شد ({game})"),
        },
        Body::ShuffleCommitted { shuffle, .. } => match lang {
            Lang::En => format!("The service committed to shuffle {shuffle}"),
            Lang::Fa => format!("سرویس به بُر {shuffle} متعهد شد"),
        },
        Body::ClientSeed { shuffle, seat, .. } => match lang {
            Lang::En => format!(
                "Seat {} ({}) added a client seed to shuffle {shuffle}",
                seat.0,
                player(hand, u64::from(seat.0))
            ),
            Lang::Fa => format!(
                "صندلی {} ({}) بذر خود را به بُر {shuffle} افزود",
                seat.0,
                player(hand, u64::from(seat.0))
            ),
        },
        Body::Shuffled {
            shuffle,
            reason,
            cards,
            ..
        } => match lang {
            Lang::En => format!("Shuffle {shuffle} was used: {reason}, {cards} cards"),
            Lang::Fa => format!("بُر {shuffle} به کار رفت: {reason}، {cards} برگ"),
        },
        Body::Action { actor, action, .. } => {
            format!("{}: {}", actor_text(lang, hand, actor), compact(action))
        }
        Body::PrivateAction { actor, .. } => format!(
            "{}: {}",
            actor_text(lang, hand, actor),
            lang.pick("a private choice (sealed)", "انتخابی پنهان (مهر شده)")
        ),
        Body::HandEnded { .. } => lang.pick("The hand ended", "دست پایان یافت").to_string(),
        Body::Abandoned { reason } => match lang {
            Lang::En => format!("The hand was abandoned: {reason}"),
            Lang::Fa => format!("دست رها شد: {reason}"),
        },
        Body::SeedsRevealed { .. } => lang
            .pick("Every server seed was revealed", "همهٔ بذرهای سرور آشکار شد")
            .to_string(),
    }
}

fn ok_of(v: &Value, key: &str) -> Option<bool> {
    v.get(key).and_then(Value::as_bool)
}

fn summary(lang: Lang, d: &DisputeView) -> Vec<ReportLine> {
    let f = &d.findings;
    let mut out = Vec::new();
    let mut line = |finding: &str, ok: Option<bool>, text: String| {
        out.push(ReportLine {
            finding: finding.to_string(),
            ok,
            text,
        })
    };
    let verdict = &f["verdict"];
    let valid = ok_of(verdict, "valid");
    let problem = &verdict["problem"];
    line(
        "verdict",
        valid,
        match (valid, lang) {
            (Some(true), Lang::En) => {
                "The hand's bundle verifies with the service's own keys: every hash, signature, shuffle and action holds.".into()
            }
            (Some(true), Lang::Fa) => {
                "بستهٔ این دست با کلیدهای خود سرویس تأیید می‌شود: همهٔ درهم‌سازها، امضاها، بُرها و حرکت‌ها درست‌اند.".into()
            }
            (_, Lang::En) => format!(
                "The hand's bundle does not verify: event {}, rule {}.",
                compact(&problem["event"]),
                problem["rule"].as_str().unwrap_or("?")
            ),
            (_, Lang::Fa) => format!(
                "بستهٔ این دست تأیید نمی‌شود: رویداد {}، قاعدهٔ {}.",
                compact(&problem["event"]),
                problem["rule"].as_str().unwrap_or("?")
            ),
        },
    );
    let stored = &f["stored_log"];
    let intact = ok_of(stored, "intact");
    line(
        "stored_log",
        intact,
        match (intact, lang) {
            (Some(true), Lang::En) => {
                "The stored log rebuilds as the service rebuilds a hand.".into()
            }
            (Some(true), Lang::Fa) => {
                "سابقهٔ ذخیره‌شده همان‌گونه که سرویس دست را می‌سازد، بازسازی می‌شود.".into()
            }
            (_, Lang::En) => format!(
                "The stored log fails at event {} (rule {}).",
                compact(&stored["seq"]),
                stored["rule"].as_str().unwrap_or("?")
            ),
            (_, Lang::Fa) => format!(
                "سابقهٔ ذخیره‌شده در رویداد {} شکست می‌خورد (قاعدهٔ {}).",
                compact(&stored["seq"]),
                stored["rule"].as_str().unwrap_or("?")
            ),
        },
    );
    let link = &f["match_link"];
    let link_ok = match (ok_of(link, "prev_ok"), ok_of(link, "state_ok")) {
        (Some(a), Some(b)) => Some(a && b),
        _ => None,
    };
    let match_ok = ok_of(&link["matches"], "valid");
    line(
        "match_link",
        link_ok.zip(match_ok).map(|(a, b)| a && b),
        match lang {
            Lang::En => format!(
                "Link to the previous hand: {}; the table's match file {}.",
                if link_ok == Some(true) {
                    "holds"
                } else {
                    "broken"
                },
                if match_ok == Some(true) {
                    "verifies"
                } else {
                    "does not verify"
                }
            ),
            Lang::Fa => format!(
                "پیوند با دست پیشین: {}؛ پروندهٔ مسابقهٔ میز {}.",
                if link_ok == Some(true) {
                    "برقرار است"
                } else {
                    "گسسته است"
                },
                if match_ok == Some(true) {
                    "تأیید می‌شود"
                } else {
                    "تأیید نمی‌شود"
                }
            ),
        },
    );
    let (log_ok, log_text) = log_line(lang, &f["log"], d.log_consistency.as_ref());
    line("log", log_ok, log_text);
    let claim = &f["claim"];
    let (ok, text) = claim_line(lang, claim);
    line("claim", ok, text);
    match &d.ruling {
        None => line(
            "ruling",
            None,
            lang.pick("No ruling yet.", "هنوز رأیی داده نشده است.")
                .to_string(),
        ),
        Some(r) => line(
            "ruling",
            None,
            match lang {
                Lang::En => format!(
                    "Ruling in force: {} by {} ({}).",
                    status_label(lang, &r.decision),
                    r.official.name,
                    r.official.key_id
                ),
                Lang::Fa => format!(
                    "رأی نافذ: {} از سوی {} ({}).",
                    status_label(lang, &r.decision),
                    r.official.name,
                    r.official.key_id
                ),
            },
        ),
    }
    out
}

fn claim_line(lang: Lang, c: &Value) -> (Option<bool>, String) {
    match c["kind"].as_str().unwrap_or("") {
        "unfair_deal" => {
            let ok = ok_of(c, "all_match")
                .zip(ok_of(c, "fold_ok"))
                .map(|(a, b)| a && b);
            let n = c["shuffles"].as_array().map_or(0, Vec::len);
            (
                ok,
                match (ok, lang) {
                    (Some(true), Lang::En) => format!("Each of the {n} shuffles used the seed committed before the deal, with the seats' client seeds; every deck re-derives."),
                    (Some(true), Lang::Fa) => format!("هر {n} بُر با بذری که پیش از پخش به آن تعهد داده شده بود و بذرهای بازیکنان انجام شد؛ هر دسته دوباره به دست می‌آید."),
                    (_, Lang::En) => format!("Not every one of the {n} shuffles checks out against its commitment and the fold."),
                    (_, Lang::Fa) => format!("همهٔ {n} بُر با تعهد خود و بازپخش جور درنمی‌آیند."),
                },
            )
        }
        "action_not_mine" => {
            let conclusion = c["conclusion"].as_str().unwrap_or("");
            let signer = c["service_signer"].as_str().unwrap_or("?");
            let seq = compact(&c["seq"]);
            let text = match (conclusion, lang) {
                ("signed_by_player", Lang::En) => format!("Event {seq} carries the player's own signature with their registered key; the service ({signer}) signed it too."),
                ("signed_by_player", Lang::Fa) => format!("رویداد {seq} امضای خود بازیکن را با کلید ثبت‌شده‌اش دارد؛ سرویس ({signer}) نیز آن را امضا کرده است."),
                ("player_signature_invalid", Lang::En) => format!("Event {seq} carries a player signature that does not verify with the seat's registered key."),
                ("player_signature_invalid", Lang::Fa) => format!("امضای بازیکن در رویداد {seq} با کلید ثبت‌شدهٔ صندلی تأیید نمی‌شود."),
                ("unsigned_key_registered", Lang::En) => format!("Event {seq} has no player signature although the seat's player registered a key; the service ({signer}) recorded it on the seat token's request."),
                ("unsigned_key_registered", Lang::Fa) => format!("رویداد {seq} امضای بازیکن ندارد، هرچند بازیکن کلید ثبت کرده بود؛ سرویس ({signer}) آن را به درخواست توکن صندلی ثبت کرد."),
                ("unsigned_no_key", Lang::En) => format!("Event {seq} has no player signature (the seat's player registered no key); the service ({signer}) recorded it on the seat token's request."),
                ("unsigned_no_key", Lang::Fa) => format!("رویداد {seq} امضای بازیکن ندارد (بازیکن کلیدی ثبت نکرده بود)؛ سرویس ({signer}) آن را به درخواست توکن صندلی ثبت کرد."),
                ("service_action", Lang::En) => format!("Event {seq} is an action of the service, not of a seat; signed by {signer}."),
                ("service_action", Lang::Fa) => format!("رویداد {seq} حرکت سرویس است، نه یک صندلی؛ امضا با {signer}."),
                (_, Lang::En) => format!("Event {seq} is not an action."),
                (_, Lang::Fa) => format!("رویداد {seq} یک حرکت نیست."),
            };
            (ok_of(c, "service_signature_ok"), text)
        }
        "wrong_score" => {
            let ok = ok_of(c, "matches_log")
                .zip(ok_of(c, "matches_row"))
                .map(|(a, b)| a && b);
            (
                ok,
                match (ok, lang) {
                    (Some(true), Lang::En) => "The settlement recomputed by replaying the hand equals the recorded outcome and the stored one.".into(),
                    (Some(true), Lang::Fa) => "تسویه‌ای که با بازپخش دست دوباره حساب شد با نتیجهٔ ثبت‌شده و ذخیره‌شده برابر است.".into(),
                    (_, Lang::En) => "The recomputed settlement differs from what is recorded or stored (see the lines below).".into(),
                    (_, Lang::Fa) => "تسویهٔ دوباره‌حساب‌شده با آنچه ثبت یا ذخیره شده فرق دارد (سطرهای زیر را ببینید).".into(),
                },
            )
        }
        "rule_broken" => {
            let accepted = ok_of(c, "accepted");
            let seq = compact(&c["seq"]);
            (
                accepted,
                match (accepted, lang) {
                    (Some(true), Lang::En) => format!("The rules allowed the action of event {seq} at that point (it is among the actor's legal actions then)."),
                    (Some(true), Lang::Fa) => format!("قوانین حرکت رویداد {seq} را در آن لحظه مجاز می‌دانستند (از حرکت‌های مجاز بازیکن در آن لحظه است)."),
                    (Some(false), Lang::En) => format!("The rules did not allow the action of event {seq}: {}.", c["violation"]["rule"].as_str().unwrap_or("?")),
                    (Some(false), Lang::Fa) => format!("قوانین حرکت رویداد {seq} را مجاز نمی‌دانستند: {}.", c["violation"]["rule"].as_str().unwrap_or("?")),
                    (None, Lang::En) => format!("Event {seq} could not be judged: {}.", c["problem"].as_str().unwrap_or("?")),
                    (None, Lang::Fa) => format!("دربارهٔ رویداد {seq} نمی‌توان داوری کرد: {}.", c["problem"].as_str().unwrap_or("?")),
                },
            )
        }
        "record_altered" => {
            let p = &c["first_problem"];
            let same = c["projections"]
                .as_array()
                .is_some_and(|a| a.iter().all(|x| x["equal"] == true));
            let ok = p.is_null() && same;
            (
                Some(ok),
                match (p.is_null(), same, lang) {
                    (true, true, Lang::En) => "Every event's hash, link and signature hold, and the stored projections equal the log.".into(),
                    (true, true, Lang::Fa) => "درهم‌ساز، پیوند و امضای همهٔ رویدادها درست است و داده‌های ذخیره‌شده با سابقه برابرند.".into(),
                    (true, false, Lang::En) => "Every event holds, but a stored projection differs from the log.".into(),
                    (true, false, Lang::Fa) => "همهٔ رویدادها درست‌اند، اما داده‌ای ذخیره‌شده با سابقه فرق دارد.".into(),
                    (false, _, Lang::En) => format!("The record was altered: event {} fails the {} check.", compact(&p["seq"]), p["rule"].as_str().unwrap_or("?")),
                    (false, _, Lang::Fa) => format!("سابقه دست‌کاری شده است: رویداد {} در بررسی {} رد می‌شود.", compact(&p["seq"]), p["rule"].as_str().unwrap_or("?")),
                },
            )
        }
        _ => (None, String::new()),
    }
}

/// Builds the report of a dispute of `club` the caller may read.
pub async fn build(svc: &Service, club: &str, d: &DisputeView, lang: Lang) -> ApiResult<Report> {
    let hand = svc
        .store
        .get_hand(club, &d.hand_id)
        .await?
        .ok_or_else(|| ApiError::internal("a disputed hand is missing"))?;
    let stored = super::findings::load(svc, &hand).await?;
    let steps = stored
        .rows
        .iter()
        .zip(&stored.records)
        .map(|(row, rec)| ReportStep {
            seq: row.seq,
            kind: row.kind.clone(),
            text: rec.as_ref().map_or_else(
                || {
                    lang.pick(
                        "(does not read as a signed record)",
                        "(به شکل رکورد امضاشده خوانده نمی‌شود)",
                    )
                    .to_string()
                },
                |r| step_text(lang, &hand, r),
            ),
            body: row
                .record
                .to_value()
                .ok()
                .and_then(|v| v.get("event").and_then(|e| e.get("body")).cloned())
                .unwrap_or(Value::Null),
            hash: row.hash.clone(),
            disputed: d.seq.and_then(|s| i64::try_from(s).ok()) == Some(row.seq),
        })
        .collect();
    Ok(Report {
        format: REPORT_FORMAT.to_string(),
        version: REPORT_VERSION,
        lang: lang.code().to_string(),
        dir: lang.dir().to_string(),
        title: format!(
            "{} {}",
            lang.pick("Dispute report", "گزارش اعتراض"),
            d.dispute_id
        ),
        dispute: ReportDispute {
            dispute_id: d.dispute_id.clone(),
            hand_id: d.hand_id.clone(),
            table_id: d.table_id.clone(),
            seq: d.seq,
            kind: d.kind.clone(),
            kind_label: kind_label(lang, &d.kind),
            claim: d.claim.clone(),
            status: d.status.clone(),
            status_label: status_label(lang, &d.status),
            opened_by: format!("{} {}", d.opened_by.role, d.opened_by.id),
            opened_ms: d.opened_ms,
        },
        summary: summary(lang, d),
        findings: d.findings.clone(),
        rulings: d.rulings.iter().map(|r| ruling(lang, r)).collect(),
        steps,
        record_check: d.record_check.clone(),
    })
}

/// One sentence on the club log: the hand's inclusion when the dispute was opened, and the
/// log's consistency since.
fn log_line(lang: Lang, log: &Value, consistency: Option<&Value>) -> (Option<bool>, String) {
    let size = log["checkpoint"]["size"].as_u64().unwrap_or(0);
    let leaf = log["leaf_index"].as_u64().unwrap_or(0);
    let (ok, first) = match log["status"].as_str() {
        Some("included") => (
            Some(true),
            match lang {
                Lang::En => format!(
                    "Transparency log: the hand's last event is leaf {leaf} of the club log at size {size}."
                ),
                Lang::Fa => format!(
                    "دفتر شفافیت: آخرین رویداد دست، برگ {leaf} دفتر باشگاه در اندازهٔ {size} است."
                ),
            },
        ),
        Some("not_included") => (
            Some(false),
            match lang {
                Lang::En => format!(
                    "Transparency log: the hand's last event as stored is NOT the club log's leaf {leaf} at size {size}: the record was changed after it was logged."
                ),
                Lang::Fa => format!(
                    "دفتر شفافیت: آخرین رویداد دست، آن‌گونه که ذخیره شده، برگ {leaf} دفتر باشگاه در اندازهٔ {size} نیست: سابقه پس از ثبت تغییر کرده است."
                ),
            },
        ),
        Some("not_in_log_yet") => (
            None,
            lang.pick(
                "Transparency log: the hand was not under a signed checkpoint yet when the dispute was opened.",
                "دفتر شفافیت: هنگام گشودن شکایت، دست هنوز زیر نقطهٔ بازرسی امضاشده نبود.",
            )
            .to_string(),
        ),
        _ => (
            None,
            lang.pick(
                "Transparency log: could not be checked when the dispute was opened.",
                "دفتر شفافیت: هنگام گشودن شکایت بررسی نشد.",
            )
            .to_string(),
        ),
    };
    let second = match consistency.and_then(|c| c["status"].as_str()) {
        Some("consistent") => Some((
            true,
            lang.pick(
                " The log's latest checkpoint extends that one.",
                " آخرین نقطهٔ بازرسی دفتر، همان را ادامه می‌دهد.",
            ),
        )),
        Some("inconsistent") => Some((
            false,
            lang.pick(
                " The log's latest checkpoint does NOT extend that one: the log was rewritten since.",
                " آخرین نقطهٔ بازرسی دفتر، آن را ادامه نمی‌دهد: دفتر از آن پس بازنویسی شده است.",
            ),
        )),
        _ => None,
    };
    match second {
        Some((false, s)) => (Some(false), first + s),
        Some((true, s)) => (ok, first + s),
        None => (ok, first),
    }
}

fn ruling(lang: Lang, r: &RulingView) -> ReportRuling {
    ReportRuling {
        seq: r.seq,
        decision: r.decision.clone(),
        decision_label: status_label(lang, &r.decision),
        reason: r.reason.clone(),
        official: r.official.name.clone(),
        official_key: r.official.key_id.clone(),
        award: r.award.clone(),
        time_ms: r.time_ms,
        superseded: r.superseded,
        carried: r.carried.clone(),
        carried_text: r.carried.as_ref().map(|c| carried_text(lang, c)),
    }
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;line-height:1.5}\
table{border-collapse:collapse}td,th{border:1px solid #999;padding:.25em .5em;vertical-align:top}\
.ok{color:#060}.bad{color:#a00}.disputed{background:#ffd}pre,code{white-space:pre-wrap;\
word-break:break-all}blockquote{border-inline-start:4px solid #999;margin:0;padding:.5em 1em}";

/// The report as an HTML page. Every value is escaped by the template.
pub fn html(r: &Report) -> String {
    let lang = if r.lang == "fa" { Lang::Fa } else { Lang::En };
    let t = |en: &'static str, fa: &'static str| lang.pick(en, fa);
    let mark = |ok: Option<bool>| -> Markup {
        match ok {
            Some(true) => html! { span class="ok" { "✔ " } },
            Some(false) => html! { span class="bad" { "✘ " } },
            None => html! { span { "• " } },
        }
    };
    let findings = serde_json::to_string_pretty(&r.findings).unwrap_or_default();
    let page = html! {
        (DOCTYPE)
        html lang=(r.lang) dir=(r.dir) {
            head {
                meta charset="utf-8";
                title { (r.title) }
                style { (STYLE) }
            }
            body {
                h1 { (r.title) }
                section id="claim" {
                    h2 { (t("The claim", "ادعا")) }
                    table {
                        tr { th { (t("Kind", "نوع")) } td { (r.dispute.kind_label) " " code dir="ltr" { (r.dispute.kind) } } }
                        tr { th { (t("Hand", "دست")) } td { code dir="ltr" { (r.dispute.hand_id) } } }
                        tr { th { (t("Table", "میز")) } td { code dir="ltr" { (r.dispute.table_id) } } }
                        @if let Some(seq) = r.dispute.seq {
                            tr { th { (t("Event", "رویداد")) } td { (seq) } }
                        }
                        tr { th { (t("Status", "وضعیت")) } td { (r.dispute.status_label) } }
                        tr { th { (t("Opened by", "گشوده به دست")) } td { code dir="ltr" { (r.dispute.opened_by) } } }
                    }
                    blockquote class="claim" { (r.dispute.claim) }
                }
                section id="findings" {
                    h2 { (t("Findings", "یافته‌ها")) }
                    ul {
                        @for l in &r.summary {
                            li { (mark(l.ok)) (l.text) }
                        }
                    }
                    p {
                        (mark(Some(r.record_check.valid)))
                        (t("The dispute's own record (entries, hashes, signatures):",
                           "سابقهٔ خود این اعتراض (ورودی‌ها، درهم‌سازها، امضاها):"))
                        " "
                        (if r.record_check.valid { t("intact", "سالم") } else { t("broken", "آسیب‌دیده") })
                    }
                    details {
                        summary { (t("All findings (JSON)", "همهٔ یافته‌ها (JSON)")) }
                        pre dir="ltr" { (findings) }
                    }
                }
                section id="rulings" {
                    h2 { (t("Rulings", "رأی‌ها")) }
                    @if r.rulings.is_empty() {
                        p { (t("No ruling yet.", "هنوز رأیی داده نشده است.")) }
                    } @else {
                        table {
                            tr {
                                th { "#" }
                                th { (t("Decision", "رأی")) }
                                th { (t("Reason", "دلیل")) }
                                th { (t("Official", "داور")) }
                                th { (t("In force", "نافذ")) }
                            }
                            @for ru in &r.rulings {
                                tr {
                                    td { (ru.seq) }
                                    td {
                                        (ru.decision_label)
                                        @if let Some(a) = &ru.award {
                                            br;
                                            code dir="ltr" { (compact(a)) }
                                        }
                                        @if let Some(c) = &ru.carried_text {
                                            br;
                                            span class="carried" { (c) }
                                        }
                                    }
                                    td { (ru.reason) }
                                    td { (ru.official) br; code dir="ltr" { (ru.official_key) } }
                                    td { (if ru.superseded { t("superseded", "جایگزین شده") } else { t("yes", "بله") }) }
                                }
                            }
                        }
                    }
                }
                section id="steps" {
                    h2 { (t("The hand, step by step", "دست، گام به گام")) }
                    table {
                        tr {
                            th { "#" }
                            th { (t("What happened", "چه شد")) }
                            th { (t("Recorded", "ثبت‌شده")) }
                        }
                        @for s in &r.steps {
                            tr class=[s.disputed.then_some("disputed")] {
                                td { (s.seq) }
                                td { (s.text) }
                                td { code dir="ltr" { (compact(&s.body)) } }
                            }
                        }
                    }
                }
            }
        }
    };
    page.into_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(claim: &str, lang: Lang) -> Report {
        Report {
            format: REPORT_FORMAT.into(),
            version: REPORT_VERSION,
            lang: lang.code().into(),
            dir: lang.dir().into(),
            title: "t".into(),
            dispute: ReportDispute {
                dispute_id: "d_1".into(),
                hand_id: "h_1".into(),
                table_id: "t_1".into(),
                seq: Some(3),
                kind: "wrong_score".into(),
                kind_label: kind_label(lang, "wrong_score"),
                claim: claim.into(),
                status: "open".into(),
                status_label: status_label(lang, "open"),
                opened_by: "seat st".into(),
                opened_ms: 1,
            },
            summary: vec![],
            findings: serde_json::json!({"x": "</pre><script>alert(1)</script>"}),
            rulings: vec![],
            steps: vec![],
            record_check: RecordCheck {
                valid: true,
                problem: None,
            },
        }
    }

    #[test]
    fn html_escapes_what_users_wrote() {
        let page = html(&report("<script>alert('x')</script> & \"q\"", Lang::En));
        assert!(!page.contains("<script>"), "{page}");
        assert!(page.contains("&lt;script&gt;alert('x')&lt;/script&gt; &amp; &quot;q&quot;"));
        assert!(page.contains("&lt;/pre&gt;&lt;script&gt;"), "{page}");
    }

    #[test]
    fn the_persian_page_is_right_to_left() {
        let page = html(&report("پول مرا کم داد", Lang::Fa));
        assert!(page.contains(r#"<html lang="fa" dir="rtl">"#), "{page}");
        assert!(page.contains("پول مرا کم داد"));
        assert!(page.contains("امتیاز یا پرداخت نادرست"));
        assert!(Lang::parse(Some("de")).is_err());
    }
}
