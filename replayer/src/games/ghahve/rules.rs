//! House rules (spec §13). Every option of the spec is a field of [`Rules`] with the spec's
//! default; the fixed points (deck, spades trump, joker ranks, minimum bid 2, bidding order,
//! the scoring formula, the dealer rotation, the first lead) are not options.

use serde::{Deserialize, Serialize};

use crate::engine::{HouseRules, SetupError};

/// How the first dealer (pasur, پاسور) is drawn by lot (§5.1, G14).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealerDraw {
    /// One face-up card each in seat order; the highest (`CJ` > `BJ` > A > … > 2) deals;
    /// the seats tied for the top draw again.
    #[default]
    HighestCard,
    /// Cards face up to seats 0, 1, 2, 3, 0, …; the first ace deals (jokers are not aces).
    FirstAce,
}

/// How the partnerships are formed (§4.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Partnerships {
    /// Seats 0 and 2 against 1 and 3, agreed before the match.
    #[default]
    Fixed,
    /// The two best draws are partners (the winner deals first); the partner moves to sit
    /// opposite the dealer.
    ByDraw,
}

/// The cut before every deal (§5.2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// The dealer's left cuts, `1 ≤ k ≤ 51` ("like Hokm").
    #[default]
    DealersLeftCuts,
    /// No cut.
    None,
}

/// Buying and selling hands (خرید و فروش دست, §8; 004 only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Buying {
    /// Not played.
    #[default]
    Off,
    /// Played.
    On,
}

/// What "above 10" in the buying rule refers to (§8.3, G8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuyIncrement {
    /// The seller's contract `S`: `S + 2` if `S ≤ 10`, else `S + 1`.
    #[default]
    #[serde(rename = "seller_above_10")]
    SellerAbove10,
    /// The result: `S + 2` if `S + 2 ≤ 10`, else `S + 1`.
    #[serde(rename = "result_above_10")]
    ResultAbove10,
}

/// How many purchases a hand allows (§8.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxBuys {
    /// No limit ("خرید و فروش میتواند چند بار انجام شود").
    #[default]
    Unlimited,
    /// At most this many (JSON `{"at_most": n}`).
    AtMost(u8),
}

/// What a joker lead asks of the others (§9.6, G1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JokerLead {
    /// A joker lead sets no suit: the others may play any card.
    #[default]
    Free,
    /// A joker lead counts as a spade lead.
    CallsSpades,
}

/// When the black joker releases the coloured one (§9.7, G2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CjRelease {
    /// As soon as `BJ` is on the table, in the same trick too.
    #[default]
    SameTrick,
    /// Only once the trick holding `BJ` is complete.
    NextTrick,
}

/// The cheating penalty (§12.3, G18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheatingPenalty {
    /// These points to the team that caught it (JSON `{"award_points": n}`).
    AwardPoints(u32),
    /// The offending team's score for the hand becomes `−10 × C`.
    OffenderFails,
    /// No penalty.
    None,
}

impl Default for CheatingPenalty {
    fn default() -> Self {
        CheatingPenalty::AwardPoints(10)
    }
}

/// Largest target score accepted.
pub const MAX_TARGET: u32 = 9_999;
/// Largest award of the cheating penalty.
pub const MAX_PENALTY: u32 = 1_000;

/// The house rules of a Ghahve match (spec §13), fixed at match start and recorded in the
/// hand's first event. Every field may be omitted (defaults below); unknown fields are
/// rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// First dealer: `highest_card` (default) or `first_ace`.
    pub dealer_draw: DealerDraw,
    /// Partnerships: `fixed` (default) or `by_draw`.
    pub partnerships: Partnerships,
    /// The cut: `dealers_left_cuts` (default) or `none`.
    pub cut: Cut,
    /// A team's bids may total at most 13 (default `13`); `null`: each bid 2 to 13 (G5).
    pub team_bid_cap: Option<u8>,
    /// Buying and selling hands: `off` (default) or `on`.
    pub buying: Buying,
    /// `seller_above_10` (default) or `result_above_10`.
    pub buy_increment: BuyIncrement,
    /// `unlimited` (default) or `{"at_most": n}`.
    pub max_buys_per_hand: MaxBuys,
    /// `free` (default) or `calls_spades`.
    pub joker_lead: JokerLead,
    /// `same_trick` (default) or `next_trick`.
    pub cj_release: CjRelease,
    /// The trick by which the black joker must be played: 10 (default) or 9.
    pub bj_deadline: u8,
    /// The score that ends the match: 501 (default), 1001 or any agreed number.
    pub target_score: u32,
    /// `{"award_points": 10}` (default), `{"award_points": n}`, `offender_fails`, `none`.
    pub cheating_penalty: CheatingPenalty,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            dealer_draw: DealerDraw::HighestCard,
            partnerships: Partnerships::Fixed,
            cut: Cut::DealersLeftCuts,
            team_bid_cap: Some(13),
            buying: Buying::Off,
            buy_increment: BuyIncrement::SellerAbove10,
            max_buys_per_hand: MaxBuys::Unlimited,
            joker_lead: JokerLead::Free,
            cj_release: CjRelease::SameTrick,
            bj_deadline: 10,
            target_score: 501,
            cheating_penalty: CheatingPenalty::default(),
        }
    }
}

impl HouseRules for Rules {
    fn validate(&self) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Rules(m));
        if let Some(cap) = self.team_bid_cap {
            if cap != 13 {
                return bad(format!(
                    "team_bid_cap must be 13 or null (no cap), not {cap}"
                ));
            }
        }
        if !(9..=10).contains(&self.bj_deadline) {
            return bad(format!(
                "bj_deadline must be 10 or 9, not {}",
                self.bj_deadline
            ));
        }
        if !(1..=MAX_TARGET).contains(&self.target_score) {
            return bad(format!(
                "target_score must be 1 to {MAX_TARGET}, not {}",
                self.target_score
            ));
        }
        if let MaxBuys::AtMost(0) = self.max_buys_per_hand {
            return bad("max_buys_per_hand at_most must be at least 1 (or buying off)".into());
        }
        if let CheatingPenalty::AwardPoints(p) = self.cheating_penalty {
            if !(1..=MAX_PENALTY).contains(&p) {
                return bad(format!(
                    "cheating_penalty award_points must be 1 to {MAX_PENALTY}, not {p}"
                ));
            }
        }
        Ok(())
    }

    /// Ghahve is played by exactly 4 (G17): any other count is refused with the rules.
    fn for_seats(&self, seats: u8) -> Result<Self, SetupError> {
        self.validate()?;
        self.validate_for(seats)?;
        Ok(self.clone())
    }

    /// The defaults and every option away from its default at least once.
    fn samples() -> Vec<Self> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules {
                dealer_draw: DealerDraw::FirstAce,
                partnerships: Partnerships::ByDraw,
                cut: Cut::None,
                buying: Buying::On,
                joker_lead: JokerLead::CallsSpades,
                cj_release: CjRelease::NextTrick,
                bj_deadline: 9,
                target_score: 60,
                cheating_penalty: CheatingPenalty::OffenderFails,
                ..d.clone()
            },
            Rules {
                team_bid_cap: None,
                buying: Buying::On,
                buy_increment: BuyIncrement::ResultAbove10,
                max_buys_per_hand: MaxBuys::AtMost(1),
                partnerships: Partnerships::ByDraw,
                target_score: 1001,
                cheating_penalty: CheatingPenalty::None,
                ..d.clone()
            },
            Rules {
                buying: Buying::On,
                cheating_penalty: CheatingPenalty::AwardPoints(25),
                target_score: 40,
                ..d
            },
        ]
    }
}

impl Rules {
    /// Check the rules against a seat count: Ghahve is for 4 players only (§4.1, G17).
    pub fn validate_for(&self, n: u8) -> Result<(), SetupError> {
        if n != 4 {
            return Err(SetupError::Rules(format!(
                "ghahve is played by exactly 4 players in two partnerships, not {n}"
            )));
        }
        Ok(())
    }

    /// The largest team contract (§8.3): 13 with the cap, 26 without.
    pub fn max_contract(&self) -> u8 {
        if self.team_bid_cap.is_some() {
            13
        } else {
            26
        }
    }

    /// `Req(S)`: the contract a buyer must reach against a seller's `s` (§8.3); `None`
    /// when it is above the largest possible contract (no buy).
    pub fn required(&self, s: u8) -> Option<u8> {
        let plus = match self.buy_increment {
            BuyIncrement::SellerAbove10 if s <= 10 => 2,
            BuyIncrement::ResultAbove10 if s.saturating_add(2) <= 10 => 2,
            _ => 1,
        };
        let req = s.saturating_add(plus);
        (req <= self.max_contract()).then_some(req)
    }
}
