//! House rules (spec §13). Every point the sources call "agreed" (توافقی) is a field of
//! [`Rules`]; the defaults are the spec's.

use serde::{Deserialize, Serialize};

use crate::cards::Suit;
use crate::engine::{HouseRules, SetupError};

pub use crate::games::tricks::SuitCode;

/// How the first hakem (حاکم, the player who declares trump) is chosen (§5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HakemDraw {
    /// Cards are turned to the seats in turn; the first ace is hakem (002).
    #[default]
    FirstAce,
    /// One card each; the highest rank is hakem, tied seats draw again (000/004).
    HighestCard,
}

/// How the 4-player partnerships are formed (§5.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Partnerships {
    /// Seats 0 and 2 against 1 and 3, fixed before the match.
    #[default]
    Fixed,
    /// The match's first draw also picks the hakem's partner, who then sits opposite him.
    ByDraw,
}

/// Who deals in 4-player Hokm (§5.1); it never changes which positions go to whom.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealerSeat {
    /// The hakem's left, `h + 3`.
    #[default]
    HakemLeft,
    /// 002 also lets the hakem's right deal if he wishes. Cosmetic in digital play: recorded
    /// with the rules, it changes neither the deal positions nor the dealer's peek.
    HakemRightAllowed,
}

/// The cut (کپ کردن, kap kardan) before each deal (§6.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// The spec's default: the hakem's partner cuts in 4-player Hokm, no cut with 2 or 3.
    #[default]
    Standard,
    /// 4 players: the hakem's partner cuts.
    PartnerCuts,
    /// 2 and 3 players: the dealer's left cuts (2p the hakem, 3p `h + 1`).
    DealersLeftCuts,
    /// No cut (pure digital dealing).
    None,
}

/// A way of fixing trump (§7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrumpMethod {
    /// The hakem names the suit (§7.3).
    Direct,
    /// Sar-e ghermez (سر قرمز, "red head"): the partner's higher red top card (§7.4).
    SarGhermez,
    /// Sar-e siah (سر سیاه, "black head"): the same with the black suits (§7.4, D6).
    SarSiah,
    /// Barg-e vasat (برگ وسط, "middle card"): the partner's deck position 12 (§7.5).
    BargVasat,
    /// Ya X ya Y (یا … یا …, "either X or Y"): the partner's first card of X or Y (§7.6).
    YaXYaY,
}

/// The hakem's choice after a colour method found no decision (§7.4 step 4, D5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColourFallback {
    /// One of the colour's two suits if any card of the colour appeared; any suit otherwise.
    #[default]
    ColourSuits,
    /// Any suit.
    AnySuit,
}

/// Ten-low redeal (ده لو کم, "ten-low, short": a hakem's five with no A, K, Q, J, §7.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TenLow {
    /// Not played.
    #[default]
    Off,
    /// At most this many redeals per hand (JSON `{"max_redeals_per_hand": n}`).
    MaxRedealsPerHand(u32),
    /// No limit.
    Unlimited,
}

/// Whether bam (بام: after 7-0, going on to win every trick) is played (§10.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bam {
    /// The spec's default: on with 4 players, off with 2 or 3.
    #[default]
    Standard,
    /// On.
    On,
    /// Off.
    Off,
}

/// How a failed bam attempt scores (§10.5, D9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BamFail {
    /// As the 7-0 result already achieved (kot / por kot).
    #[default]
    AsAtSeven,
    /// One point.
    PlainWin,
}

/// Kot at six (کوت دست ۶, §10.6, D7): a team on `T − 1` points is kotted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KotAtSix {
    /// Normal scoring.
    #[default]
    Off,
    /// Only when the kotting team had 0: it scores 1; the kotted team holds the hakem.
    OnZero,
    /// Whatever the kotting team had: it scores 1; the kotted team holds the hakem.
    OnAny,
}

/// Who is hakem when a new round starts (§5.4, D22).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewRoundHakem {
    /// The normal rotation goes on.
    #[default]
    ContinueRotation,
    /// A fresh hakem draw.
    Redraw,
}

/// Deuce in 2-player Hokm (§11.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deuce2p {
    /// First to the target wins.
    #[default]
    Off,
    /// From `(T − 1, T − 1)` on, a round needs `≥ T + 1` and a lead of 2, or `≥ cap`.
    WinByTwo {
        /// The score that wins outright, if any.
        cap: Option<u32>,
    },
}

/// Largest `target_points` and `cheating_penalty_points` accepted.
pub const MAX_TARGET: u32 = 99;

/// The house rules of a Hokm match (spec §13), fixed at match start and recorded in the
/// hand's first event. Every field may be omitted (defaults below); unknown fields are
/// rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// First hakem: `first_ace` (default) or `highest_card`.
    pub hakem_draw: HakemDraw,
    /// 4p partnerships: `fixed` (default) or `by_draw`.
    pub partnerships: Partnerships,
    /// 4p dealer: `hakem_left` (default) or `hakem_right_allowed`.
    pub dealer_seat: DealerSeat,
    /// The cut: `standard` (default), `partner_cuts` (4p), `dealers_left_cuts` (2p/3p),
    /// `none`.
    pub cut: Cut,
    /// 3p: the suit of the removed 2 (default `"C"`).
    pub removed_two: SuitCode,
    /// Allowed trump methods (4p; 2p/3p only `direct`). Default `["direct"]`.
    pub trump_methods: Vec<TrumpMethod>,
    /// Colour methods' fallback: `colour_suits` (default) or `any_suit`.
    pub colour_fallback: ColourFallback,
    /// Ten-low redeal: `off` (default), `{"max_redeals_per_hand": n}`, `unlimited`.
    pub ten_low: TenLow,
    /// 2p: whether the drawer may look at the card he burns unseen. Default `false`.
    pub peek_burned: bool,
    /// 2p: kot and por kot score 2 and 3. Default `true` (D8).
    pub kot_2p: bool,
    /// 3p: kot and por kot score 2 and 3. Default `false` (D8).
    pub kot_3p: bool,
    /// Bam: `standard` (default: 4p on, 2p/3p off), `on`, `off`.
    pub bam: Bam,
    /// Failed bam: `as_at_seven` (default) or `plain_win`.
    pub bam_fail: BamFail,
    /// 4p kot at six: `off` (default), `on_zero`, `on_any`.
    pub kot_at_six: KotAtSix,
    /// Points that win a round, 1 to 99. Default 7.
    pub target_points: u32,
    /// Rounds that win the match, 1 to 3. Default 1.
    pub rounds_to_win: u8,
    /// Hakem at a new round: `continue_rotation` (default) or `redraw`.
    pub new_round_hakem: NewRoundHakem,
    /// 2p deuce: `off` (default) or `{"win_by_two": {"cap": null | C}}`.
    pub deuce_2p: Deuce2p,
    /// 4p: the dealer may look at one of his partner's 4-card packets. Default `false`.
    pub dealer_peek: bool,
    /// Points for the side that caught a cheat, 0 to 99. Default 1.
    pub cheating_penalty_points: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            hakem_draw: HakemDraw::FirstAce,
            partnerships: Partnerships::Fixed,
            dealer_seat: DealerSeat::HakemLeft,
            cut: Cut::Standard,
            removed_two: SuitCode(Suit::Clubs),
            trump_methods: vec![TrumpMethod::Direct],
            colour_fallback: ColourFallback::ColourSuits,
            ten_low: TenLow::Off,
            peek_burned: false,
            kot_2p: true,
            kot_3p: false,
            bam: Bam::Standard,
            bam_fail: BamFail::AsAtSeven,
            kot_at_six: KotAtSix::Off,
            target_points: 7,
            rounds_to_win: 1,
            new_round_hakem: NewRoundHakem::ContinueRotation,
            deuce_2p: Deuce2p::Off,
            dealer_peek: false,
            cheating_penalty_points: 1,
        }
    }
}

impl HouseRules for Rules {
    /// Checked against the seat count, with `cut` and `bam` made explicit (their `standard`
    /// defaults depend on it: a cut and bam with 4 players, neither with 2 or 3).
    fn for_seats(&self, seats: u8) -> Result<Self, SetupError> {
        self.validate()?;
        self.validate_for(seats)?;
        let mut r = self.clone();
        if r.cut == Cut::Standard {
            r.cut = if seats == 4 {
                Cut::PartnerCuts
            } else {
                Cut::None
            };
        }
        if r.bam == Bam::Standard {
            r.bam = if seats == 4 { Bam::On } else { Bam::Off };
        }
        Ok(r)
    }

    /// The defaults, and every option away from its default at least once, for each player
    /// count (some options are for 4 players only, `deuce_2p` for 2: a sample invalid for a
    /// count is skipped for it).
    fn samples() -> Vec<Self> {
        let d = Rules::default();
        let few = Rules {
            hakem_draw: HakemDraw::HighestCard,
            cut: Cut::DealersLeftCuts,
            removed_two: SuitCode(crate::cards::Suit::Hearts),
            ten_low: TenLow::Unlimited,
            peek_burned: true,
            kot_2p: false,
            kot_3p: true,
            bam: Bam::On,
            bam_fail: BamFail::PlainWin,
            new_round_hakem: NewRoundHakem::Redraw,
            target_points: 3,
            rounds_to_win: 2,
            cheating_penalty_points: 2,
            ..d.clone()
        };
        vec![
            d.clone(),
            few.clone(),
            Rules {
                deuce_2p: Deuce2p::WinByTwo { cap: None },
                ..few.clone()
            },
            Rules {
                deuce_2p: Deuce2p::WinByTwo { cap: Some(4) },
                ten_low: TenLow::MaxRedealsPerHand(1),
                ..few
            },
            Rules {
                hakem_draw: HakemDraw::HighestCard,
                partnerships: Partnerships::ByDraw,
                dealer_seat: DealerSeat::HakemRightAllowed,
                cut: Cut::None,
                trump_methods: vec![
                    TrumpMethod::Direct,
                    TrumpMethod::SarGhermez,
                    TrumpMethod::SarSiah,
                    TrumpMethod::BargVasat,
                    TrumpMethod::YaXYaY,
                ],
                ten_low: TenLow::Unlimited,
                kot_at_six: KotAtSix::OnAny,
                dealer_peek: true,
                target_points: 3,
                rounds_to_win: 2,
                ..d.clone()
            },
            Rules {
                trump_methods: vec![TrumpMethod::SarGhermez, TrumpMethod::YaXYaY],
                colour_fallback: ColourFallback::AnySuit,
                bam: Bam::Off,
                kot_at_six: KotAtSix::OnZero,
                new_round_hakem: NewRoundHakem::Redraw,
                target_points: 3,
                ..d
            },
        ]
    }

    fn validate(&self) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Rules(m));
        if !(1..=MAX_TARGET).contains(&self.target_points) {
            return bad(format!(
                "target_points must be 1 to {MAX_TARGET}, not {}",
                self.target_points
            ));
        }
        if !(1..=3).contains(&self.rounds_to_win) {
            return bad(format!(
                "rounds_to_win must be 1, 2 or 3, not {}",
                self.rounds_to_win
            ));
        }
        if self.cheating_penalty_points > MAX_TARGET {
            return bad(format!(
                "cheating_penalty_points must be 0 to {MAX_TARGET}, not {}",
                self.cheating_penalty_points
            ));
        }
        if self.trump_methods.is_empty() || self.trump_methods.len() > 5 {
            return bad("trump_methods must name 1 to 5 methods".into());
        }
        let mut m = self.trump_methods.clone();
        m.sort();
        m.dedup();
        if m.len() != self.trump_methods.len() {
            return bad("trump_methods names a method twice".into());
        }
        if let TenLow::MaxRedealsPerHand(0) = self.ten_low {
            return bad("ten_low max_redeals_per_hand must be at least 1 (or use off)".into());
        }
        if let Deuce2p::WinByTwo { cap: Some(c) } = self.deuce_2p {
            if c <= self.target_points || c > MAX_TARGET.saturating_mul(2) {
                return bad(format!(
                    "deuce_2p cap must be above target_points ({}) and at most {}, not {c}",
                    self.target_points,
                    MAX_TARGET.saturating_mul(2)
                ));
            }
        }
        Ok(())
    }
}

impl Rules {
    /// Whether bam is played with `n` seats.
    pub fn bam_on(&self, n: u8) -> bool {
        match self.bam {
            Bam::Standard => n == 4,
            Bam::On => true,
            Bam::Off => false,
        }
    }

    /// Whether a cut is made with `n` seats.
    pub fn cut_on(&self, n: u8) -> bool {
        match self.cut {
            Cut::Standard => n == 4,
            Cut::PartnerCuts | Cut::DealersLeftCuts => true,
            Cut::None => false,
        }
    }

    /// Whether `method` may be used with `n` seats (§7.1: partner methods need 4).
    pub fn method_allowed(&self, method: TrumpMethod, n: u8) -> bool {
        self.trump_methods.contains(&method) && (method == TrumpMethod::Direct || n == 4)
    }

    /// Check the rules against a seat count (done when a match starts).
    pub fn validate_for(&self, n: u8) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Rules(m));
        match (self.cut, n) {
            (Cut::PartnerCuts, 2 | 3) => {
                return bad("cut partner_cuts needs 4 players (use dealers_left_cuts)".into())
            }
            (Cut::DealersLeftCuts, 4) => {
                return bad("cut dealers_left_cuts is for 2 or 3 players (use partner_cuts)".into())
            }
            _ => {}
        }
        if n != 4 && self.partnerships == Partnerships::ByDraw {
            return bad("partnerships by_draw needs 4 players".into());
        }
        if n != 4 && self.dealer_peek {
            return bad("dealer_peek needs 4 players".into());
        }
        if n != 4 && self.kot_at_six != KotAtSix::Off {
            return bad("kot_at_six needs 4 players".into());
        }
        if n != 2 && self.deuce_2p != Deuce2p::Off {
            return bad("deuce_2p needs 2 players".into());
        }
        if n != 4 && !self.trump_methods.contains(&TrumpMethod::Direct) {
            return bad("with fewer than 4 players trump_methods must include direct".into());
        }
        Ok(())
    }
}
