//! House rules (spec §7). Every field may be omitted (the default is the source's reading)
//! and unknown fields are rejected. `player_count` and `packs` are not fields: the spec
//! allows them no alternative (4, 6 or 8 players; one pack for 4, two for 6 or 8), so they
//! follow from the match's seat count.

use serde::{Deserialize, Serialize};

use crate::engine::{HouseRules, SetupError};

/// What happens to the 2 cards that do not divide among 6 players (§4, D1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnevenDeal {
    /// Deal them all: the first two recipients get 18 (D1).
    #[default]
    DealAll,
    /// The last 2 stock cards are set aside face down, out of play; everyone gets 17.
    SetAsideRemainder,
}

/// How many cards a follower places (§5.3 A2, D2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FollowCount {
    /// Each player chooses his own count (D2).
    #[default]
    Free,
    /// The lead's count (all remaining cards when the hand is smaller).
    SameAsLead,
}

/// The most cards in one play (§5.3, D4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MaxCardsPerPlay {
    /// 4 per pack: 4 with one pack, 8 with two.
    #[default]
    FourPerDeck,
    /// Up to the hand size.
    Unlimited,
}

/// The rank of a lead after a round lapped without a challenge (§5.3 A1, D10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NewRankAfterLap {
    /// Another rank than the round's (000 «کارت دیگری», "another card").
    #[default]
    MustDiffer,
    /// Any rank.
    Any,
}

/// Who leads after a challenge (§5.4 step 8, D9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeaderAfterChallenge {
    /// The challenger, who was due to act anyway.
    #[default]
    Challenger,
    /// Whoever took the pile.
    PileTaker,
    /// The side that was right: the challenger if the play was a bluff, the challenged
    /// player if it was true.
    ChallengeWinner,
}

/// Who takes the pile when a challenge finds a true play (§5.4 step 3, D8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailedChallengeLiability {
    /// The one who declared the bluff (000 «خود شخص», «جریمه شامل خودش می شود»).
    #[default]
    Challenger,
    /// The first seat that asked for the challenge, if any; else the challenger.
    Requester,
}

/// The titles given by finishing order (§6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Titles {
    /// King (shah), viziers, thief (dozd) (000).
    #[default]
    KingViziersThief,
    /// As in Haft Khabis: the next-to-last is the executioner (jallad).
    WithExecutioner,
}

/// The house rules of a Bluff hand (spec §7), fixed before the deal and recorded in the
/// hand's first event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// `deal_all` (default) or `set_aside_remainder` (6 players only).
    pub uneven_deal: UnevenDeal,
    /// `free` (default) or `same_as_lead`.
    pub follow_count: FollowCount,
    /// `four_per_deck` (default) or `unlimited`.
    pub max_cards_per_play: MaxCardsPerPlay,
    /// Whether a follower may pass; default `false` (000 «ملزم», "obliged").
    pub allow_pass: bool,
    /// `must_differ` (default) or `any`.
    pub new_rank_after_lap: NewRankAfterLap,
    /// `challenger` (default), `pile_taker` or `challenge_winner`.
    pub leader_after_challenge: LeaderAfterChallenge,
    /// `challenger` (default) or `requester`.
    pub failed_challenge_liability: FailedChallengeLiability,
    /// `king_viziers_thief` (default) or `with_executioner`.
    pub titles: Titles,
}

impl HouseRules for Rules {
    /// The defaults, and every option away from its default at least once.
    fn samples() -> Vec<Self> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules {
                uneven_deal: UnevenDeal::SetAsideRemainder,
                follow_count: FollowCount::SameAsLead,
                max_cards_per_play: MaxCardsPerPlay::Unlimited,
                allow_pass: true,
                ..d.clone()
            },
            Rules {
                new_rank_after_lap: NewRankAfterLap::Any,
                leader_after_challenge: LeaderAfterChallenge::PileTaker,
                failed_challenge_liability: FailedChallengeLiability::Requester,
                titles: Titles::WithExecutioner,
                ..d.clone()
            },
            Rules {
                leader_after_challenge: LeaderAfterChallenge::ChallengeWinner,
                ..d
            },
        ]
    }

    fn validate(&self) -> Result<(), SetupError> {
        // Every combination of the options is playable.
        Ok(())
    }
}
