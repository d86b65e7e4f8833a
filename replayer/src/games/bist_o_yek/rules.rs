//! House rules (spec §9) and card points (spec §2).
//!
//! Every point the source text calls "agreed" (قرار، قرارداد، قراردادی) is a field of
//! [`Rules`]; the defaults are the text's examples. "L*n*" cites line *n* of the source text
//! (`000_b8483bbf6b91d88b.txt`, section «اموزش بازی 21»).

use serde::{Deserialize, Serialize};

use crate::cards::{Card, Rank};
use crate::engine::{HouseRules, SetupError, Toman};

/// The largest main bet or side bet (spec §5.3, §9 `max_bet`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum MaxBet {
    /// "The most is the whole bank" (kol-e bank, L20): JSON `"whole_bank"`.
    #[default]
    WholeBank,
    /// A fixed cap on every stake (totals on one hand still at most the bank): JSON
    /// `{"fixed": x}`.
    Fixed(Toman),
}

/// Who wins equal totals (spec §7 case S4, §9 `tie_rule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// "By the agreement the banker's number counts one higher" (L26); 21–21 too (L34).
    #[default]
    BankerWins,
    /// Not in the text: every tie returns the stakes.
    Push,
}

/// When the banker may swap his face-down card for the top of the stock (spec §6.5 rule 4,
/// D-16, §9 `banker_swap`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BankerSwap {
    /// Never.
    Off,
    /// At the opening of a duel whose banker card was carried over unrevealed from a suz
    /// (L33).
    #[default]
    AfterSuz,
    /// At the opening of every duel.
    EveryDuel,
}

/// How the players' first cards are dealt (spec §6.4 A, D-26, §9 `deal_mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum DealMode {
    /// One face-down card to every player first, to the right (L15, first method).
    #[default]
    AllFirst,
    /// "He can also first give to the player on his right, play with him, then the next"
    /// (L15).
    OneAtATime,
}

/// The house rules of a Bist-o-yek match (spec §9), fixed at match start and recorded in the
/// hand's first event. JSON field names are the spec's option names; every field may be
/// omitted (defaults below) and unknown fields are rejected.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// What a new banker puts in the middle as the bank, the same for every banker. L11: "by
    /// the agreement made he puts some money in the middle as the bank, say 1000 toman".
    /// Integer > 0; default 1000.
    pub bank_stake: Toman,
    /// The smallest bet. L19: "betting is by agreement ... the smallest bet starts at e.g. 50
    /// toman". Integer > 0; default 50.
    pub min_bet: Toman,
    /// The largest stake. L20: "and the most is the whole bank". `whole_bank` or `fixed(x)`
    /// with `x ≥ min_bet`; default `whole_bank`.
    pub max_bet: MaxBet,
    /// Bank khabar threshold as a multiple of the stake. L20: "another agreement: when the
    /// bank has become some multiple"; L36: 1000 → 3000. Integer ≥ 2; default 3.
    pub khabar_multiple: u64,
    /// Whether seats may bet on another player's hand. L41: "it must be stated at the start
    /// of the game whether this rule applies". Default `false`.
    pub side_bets: bool,
    /// Equal totals. L26: "by the agreement, in these cases the banker's number is one
    /// higher". `banker_wins` (default) or `push` (not in the text).
    pub tie_rule: TieRule,
    /// The banker's swap of his unrevealed card. L33: "if he sees it is bad he can put it
    /// down and take another, only one other". `off`, `after_suz` (default), `every_duel`.
    pub banker_swap: BankerSwap,
    /// Dealing method. L15: "he can also first give to the player on his right, play with
    /// him, then the next". `all_first` (default) or `one_at_a_time`.
    pub deal_mode: DealMode,
    /// A full shuffle before every round. Not in the text (D-24: the text shuffles only for
    /// bank khabar, L39, and advises tracking the cards gone, L52). Default `false`.
    pub shuffle_every_round: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            bank_stake: 1000,
            min_bet: 50,
            max_bet: MaxBet::WholeBank,
            khabar_multiple: 3,
            side_bets: false,
            tie_rule: TieRule::BankerWins,
            banker_swap: BankerSwap::AfterSuz,
            deal_mode: DealMode::AllFirst,
            shuffle_every_round: false,
        }
    }
}

impl HouseRules for Rules {
    /// The defaults, and every option away from its default at least once.
    fn samples() -> Vec<Self> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules {
                max_bet: MaxBet::Fixed(200),
                khabar_multiple: 2,
                side_bets: true,
                tie_rule: TieRule::Push,
                banker_swap: BankerSwap::EveryDuel,
                deal_mode: DealMode::OneAtATime,
                shuffle_every_round: true,
                ..d.clone()
            },
            Rules {
                bank_stake: 500,
                min_bet: 100,
                banker_swap: BankerSwap::Off,
                side_bets: true,
                ..d
            },
        ]
    }

    fn validate(&self) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Rules(m));
        if self.bank_stake == 0 {
            return bad("bank_stake must be greater than 0".into());
        }
        if self.min_bet == 0 {
            return bad("min_bet must be greater than 0".into());
        }
        let most = super::state::MAX_TOTAL;
        if self.bank_stake > most / 10 || self.min_bet > most {
            return bad(format!(
                "bank_stake must be at most {} and min_bet at most {most} toman",
                most / 10
            ));
        }
        if let MaxBet::Fixed(x) = self.max_bet {
            if x < self.min_bet {
                return bad(format!(
                    "max_bet fixed({x}) must be at least min_bet ({})",
                    self.min_bet
                ));
            }
        }
        if self.khabar_multiple < 2 {
            return bad(format!(
                "khabar_multiple must be at least 2, not {}",
                self.khabar_multiple
            ));
        }
        if self.khabar_multiple.checked_mul(self.bank_stake).is_none() {
            return bad("khabar_multiple × bank_stake does not fit in a toman amount".into());
        }
        Ok(())
    }
}

impl Rules {
    /// The bank khabar threshold `khabar_multiple × stake` (§5.6).
    pub fn khabar_threshold(&self, stake: Toman) -> Toman {
        self.khabar_multiple.saturating_mul(stake)
    }

    /// The main-bet limits `(lo, hi)` with `bank` in the middle (§5.3): `lo = min(min_bet,
    /// bank)`, `hi = bank` or `min(bank, x)` under `fixed(x)`.
    pub fn bet_limits(&self, bank: Toman) -> (Toman, Toman) {
        let lo = self.min_bet.min(bank);
        let hi = match self.max_bet {
            MaxBet::WholeBank => bank,
            MaxBet::Fixed(x) => bank.min(x),
        };
        (lo, hi)
    }

    /// The cap on one stake under `fixed(x)`, if any.
    pub fn stake_cap(&self) -> Option<Toman> {
        match self.max_bet {
            MaxBet::WholeBank => None,
            MaxBet::Fixed(x) => Some(x),
        }
    }
}

/// The points of one card (§2.2, L6): 6–10 at face value, sarbaz (jack) 2, bibi (queen) 3,
/// shah (king) 4, tak (ace) always 11. Cards outside the 36-card deck count 0.
pub fn points(card: Card) -> u32 {
    match card.rank() {
        Some(Rank::Six) => 6,
        Some(Rank::Seven) => 7,
        Some(Rank::Eight) => 8,
        Some(Rank::Nine) => 9,
        Some(Rank::Ten) => 10,
        Some(Rank::Jack) => 2,
        Some(Rank::Queen) => 3,
        Some(Rank::King) => 4,
        Some(Rank::Ace) => 11,
        _ => 0,
    }
}

/// A hand's total (§2.3): 21 for exactly two aces (L6), otherwise the sum of the points.
pub fn total<I: IntoIterator<Item = Card>>(cards: I) -> u32 {
    let mut sum: u32 = 0;
    let mut count: usize = 0;
    let mut aces: usize = 0;
    for c in cards {
        sum = sum.saturating_add(points(c));
        count = count.saturating_add(1);
        if c.rank() == Some(Rank::Ace) {
            aces = aces.saturating_add(1);
        }
    }
    if count == 2 && aces == 2 {
        21
    } else {
        sum
    }
}
