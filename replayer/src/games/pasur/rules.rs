//! House rules (spec §8). Every option the spec lists is a field of [`Rules`], with the
//! spec's default; the whole value is recorded in the hand's first event.

use serde::{Deserialize, Serialize};

use crate::engine::{HouseRules, SetupError};

/// How four players play (§3, D18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FourPlayerMode {
    /// Two partnerships, opposite seats {0, 2} and {1, 3} (003).
    #[default]
    Partnership,
    /// Every player for himself: four sides. Refused for fewer than 4 seats.
    Individual,
}

/// Where a jack dealt to the table on deal 1 goes back (§4.3, D11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TableJackReturn {
    /// Into the middle of the stock, at index ⌊len / 2⌋ after the replacement is drawn (003
    /// «به میان برگهای بازی نشده»).
    #[default]
    MiddleOfStock,
    /// To the bottom of the stock.
    BottomOfStock,
}

/// Whether a card that can capture must (§5.3 P5, D1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaptureCompulsion {
    /// A played card that can capture must capture; any card may be chosen (P5).
    #[default]
    PlayedCardMustCapture,
    /// No compulsion for numerals, K or Q (P5″); a jack with something to take still takes.
    Optional,
    /// A card may be left on the table only if no card in the hand can capture (P5′).
    MustCaptureIfAble,
}

/// When a capture that empties the table scores no sur (§5.5, D10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SurForbidden {
    /// Play #48, the last card of the hand (003 «در برگ آخر نمی توان سور زد»).
    #[default]
    LastCard,
    /// Plays #45–#48 (003, by agreement).
    LastFourCards,
    /// Anywhere in the final deal.
    LastDeal,
    /// Never (000/004 name no window).
    Never,
}

/// Whether a jack may be played onto an empty table (§5.3 P3, D6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JackOnEmptyTable {
    /// Only when every card in the hand is a jack (000/004).
    #[default]
    OnlyIfAllJacks,
    /// Always.
    Allowed,
}

/// Who gets the 7 points for clubs (§6.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClubsBonus {
    /// Strictly the most clubs; a tie for most gives it to the fewest (003).
    #[default]
    MostClubs,
    /// Seven clubs or more (000/004).
    SevenOrMore,
    /// Strictly the most clubs; a tie for most gives it to nobody.
    MostClubsNoneOnTie,
}

/// Who may win after a tie at the top at or above the target (§7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreakEligibility {
    /// Any unique maximum at or above the target wins.
    #[default]
    Anyone,
    /// Once sides tied at the top, only they can win.
    TiedOnly,
}

/// Largest `target_score` accepted.
pub const MAX_TARGET: u32 = 1000;

/// The house rules of a Pasur match (spec §8). Every field may be omitted (the defaults
/// below); unknown fields are refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// 4 players: `partnership` (default) or `individual` (4 seats only).
    pub four_player_mode: FourPlayerMode,
    /// The match score that wins, 1 to 1000. Default 62 (003 «62 یا 100»).
    pub target_score: u32,
    /// Cards per packet in a deal: 4 (default) or 1.
    pub deal_packet: u8,
    /// A table jack goes back `middle_of_stock` (default) or `bottom_of_stock`.
    pub table_jack_return: TableJackReturn,
    /// `played_card_must_capture` (default), `optional`, `must_capture_if_able`.
    pub capture_compulsion: CaptureCompulsion,
    /// Several disjoint sets in one play. Default `false`.
    pub multi_set_capture: bool,
    /// `last_card` (default), `last_four_cards`, `last_deal`, `never`.
    pub sur_forbidden: SurForbidden,
    /// `only_if_all_jacks` (default) or `allowed`.
    pub jack_on_empty_table: JackOnEmptyTable,
    /// `most_clubs` (default), `seven_or_more`, `most_clubs_none_on_tie`.
    pub clubs_bonus: ClubsBonus,
    /// `anyone` (default) or `tied_only`.
    pub tie_break_eligibility: TieBreakEligibility,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            four_player_mode: FourPlayerMode::Partnership,
            target_score: 62,
            deal_packet: 4,
            table_jack_return: TableJackReturn::MiddleOfStock,
            capture_compulsion: CaptureCompulsion::PlayedCardMustCapture,
            multi_set_capture: false,
            sur_forbidden: SurForbidden::LastCard,
            jack_on_empty_table: JackOnEmptyTable::OnlyIfAllJacks,
            clubs_bonus: ClubsBonus::MostClubs,
            tie_break_eligibility: TieBreakEligibility::Anyone,
        }
    }
}

impl Rules {
    /// The checks that need the seat count.
    pub fn validate_for(&self, seats: u8) -> Result<(), SetupError> {
        if self.four_player_mode == FourPlayerMode::Individual && seats != 4 {
            return Err(SetupError::Rules(format!(
                "four_player_mode = individual is for 4 players, not {seats}"
            )));
        }
        Ok(())
    }

    /// Whether `seats` players play in two partnerships (4 seats, `partnership`).
    pub fn partnership(&self, seats: u8) -> bool {
        seats == 4 && self.four_player_mode == FourPlayerMode::Partnership
    }
}

impl HouseRules for Rules {
    fn validate(&self) -> Result<(), SetupError> {
        if !(1..=MAX_TARGET).contains(&self.target_score) {
            return Err(SetupError::Rules(format!(
                "target_score must be 1 to {MAX_TARGET}, not {}",
                self.target_score
            )));
        }
        if !matches!(self.deal_packet, 1 | 4) {
            return Err(SetupError::Rules(format!(
                "deal_packet must be 4 or 1, not {}",
                self.deal_packet
            )));
        }
        Ok(())
    }

    fn for_seats(&self, seats: u8) -> Result<Self, SetupError> {
        self.validate()?;
        self.validate_for(seats)?;
        Ok(self.clone())
    }

    /// The defaults and every option away from its default at least once (`individual`
    /// only in a sample of its own, which 2 and 3 seats skip).
    fn samples() -> Vec<Self> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules {
                target_score: 100,
                deal_packet: 1,
                table_jack_return: TableJackReturn::BottomOfStock,
                capture_compulsion: CaptureCompulsion::Optional,
                multi_set_capture: true,
                sur_forbidden: SurForbidden::LastFourCards,
                jack_on_empty_table: JackOnEmptyTable::Allowed,
                clubs_bonus: ClubsBonus::SevenOrMore,
                tie_break_eligibility: TieBreakEligibility::TiedOnly,
                ..d.clone()
            },
            Rules {
                capture_compulsion: CaptureCompulsion::MustCaptureIfAble,
                sur_forbidden: SurForbidden::LastDeal,
                clubs_bonus: ClubsBonus::MostClubsNoneOnTie,
                target_score: 20,
                ..d.clone()
            },
            Rules {
                four_player_mode: FourPlayerMode::Individual,
                sur_forbidden: SurForbidden::Never,
                multi_set_capture: true,
                ..d
            },
        ]
    }
}
