//! The rules an action or a shuffle can break, typed, each with a stable string form (the
//! `rule` of a [`Violation`]) and the spec section it cites.

use crate::engine::Violation;

/// A Bluff rule that an action or a shuffle broke. The string forms (`as_str`) are stable:
/// clients and auditors match on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// The hand waits for a committed shuffle, or is over (§5).
    WrongPhase,
    /// The actor is not a seat of this hand (§3).
    NotASeat,
    /// Only the seat whose turn it is may do this (§5.2).
    NotYourTurn,
    /// A lead is required: the round has no rank, or the turn lapped (§5.2).
    MustLead,
    /// A follow is required: the round's rank stands (§5.2).
    MustFollow,
    /// Two-player finish: the last seat holding cards may only challenge or not (§5.6).
    MustAnswer,
    /// A play of no cards (§5.3).
    NoCards,
    /// The same card named twice in one play (§5.3).
    DuplicateCard,
    /// A card that is not in the player's hand (§5.3).
    NotInHand,
    /// More cards than `max_cards_per_play` allows (§5.3, §7).
    TooManyCards,
    /// Under `follow_count = same_as_lead`, a follow of another count than the lead's (§5.3).
    WrongCount,
    /// Under `new_rank_after_lap = must_differ`, a lead after a lap of the rank that lapped
    /// (§5.3, D10).
    SameRankAfterLap,
    /// A pass, with `allow_pass = false` (§5.3, D5).
    PassNotAllowed,
    /// No play is open to a challenge, a "no challenge" or a request (§5.3).
    NoWindow,
    /// Only the next player may challenge, before he plays (§5.3 A3, D6).
    NotNextPlayer,
    /// A seat may not challenge its own play (§5.3 A3).
    OwnPlay,
    /// The player who made the play, the next player and seats without cards may not ask for
    /// a challenge (§5.3 A5).
    CannotRequest,
    /// A seat asked for a challenge of this play already (§5.3 A5).
    AlreadyRequested,
    /// A committed shuffle that is not the one asked for (§4, §5.4).
    BadShuffle,
    /// A player count other than 4, 6 or 8 (§3).
    OddPlayerCount,
}

impl Rule {
    /// The stable identifier.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::WrongPhase => "WrongPhase",
            Rule::NotASeat => "NotASeat",
            Rule::NotYourTurn => "NotYourTurn",
            Rule::MustLead => "MustLead",
            Rule::MustFollow => "MustFollow",
            Rule::MustAnswer => "MustAnswer",
            Rule::NoCards => "NoCards",
            Rule::DuplicateCard => "DuplicateCard",
            Rule::NotInHand => "NotInHand",
            Rule::TooManyCards => "TooManyCards",
            Rule::WrongCount => "WrongCount",
            Rule::SameRankAfterLap => "SameRankAfterLap",
            Rule::PassNotAllowed => "PassNotAllowed",
            Rule::NoWindow => "NoWindow",
            Rule::NotNextPlayer => "NotNextPlayer",
            Rule::OwnPlay => "OwnPlay",
            Rule::CannotRequest => "CannotRequest",
            Rule::AlreadyRequested => "AlreadyRequested",
            Rule::BadShuffle => "BadShuffle",
            Rule::OddPlayerCount => "OddPlayerCount",
        }
    }

    /// The spec section that states the rule.
    pub fn section(self) -> &'static str {
        match self {
            Rule::WrongPhase => "bluff §5",
            Rule::NotASeat | Rule::OddPlayerCount => "bluff §3",
            Rule::NotYourTurn | Rule::MustLead | Rule::MustFollow => "bluff §5.2",
            Rule::MustAnswer => "bluff §5.6",
            Rule::NoCards
            | Rule::DuplicateCard
            | Rule::NotInHand
            | Rule::TooManyCards
            | Rule::WrongCount
            | Rule::SameRankAfterLap
            | Rule::PassNotAllowed
            | Rule::NoWindow
            | Rule::NotNextPlayer
            | Rule::OwnPlay
            | Rule::CannotRequest
            | Rule::AlreadyRequested => "bluff §5.3",
            Rule::BadShuffle => "bluff §4",
        }
    }

    /// A violation of this rule, explained by `detail`.
    pub fn violation(self, detail: impl Into<String>) -> Violation {
        Violation::new(self.as_str(), self.section(), detail)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
