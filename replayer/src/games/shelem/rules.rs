//! House rules (spec §14). Every option "by agreement at the start of the game" (000) is a
//! field of [`Rules`]; the defaults are the spec's (preset `P000`).
//!
//! The scoring options come as a **preset** (`p000`, the default; `p000_text`; `p004`; or
//! `custom`). Under a named preset the four scoring fields may be omitted (they follow the
//! preset) or given with the preset's own value; a value that contradicts the named preset
//! is refused, so a hand's first event never says "p004" while scoring otherwise. Under
//! `custom` each omitted scoring field takes `P000`'s value. [`HouseRules::for_seats`]
//! writes every field out, so the first event records exactly what is played.

use serde::{Deserialize, Serialize};

use crate::engine::{HouseRules, SetupError};

/// A scoring preset (§14, "Presets").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Source 000, with its worked example: points taken, yasa, shelem 330, no doubling.
    #[default]
    P000,
    /// 000's rule text: as `P000` but a shelem wins the match.
    P000Text,
    /// Source 004: the bid, no yasa, shelem 165, a 165 contract doubled.
    P004,
    /// Each scoring field as given (omitted ones as in `P000`).
    Custom,
}

/// What a made contract (not a shelem) scores (§10, `made_score`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MadeScore {
    /// The points the hakem team took (000).
    PointsTaken,
    /// The bid (004).
    Bid,
}

/// What a shelem scores (§10, §11.4, `shelem_score`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShelemScore {
    /// 330 (000's worked example).
    Fixed330,
    /// 165 (004).
    Fixed165,
    /// The shelem wins the match at once (000's rule text); the row records +165.
    WinsMatch,
}

/// What happens when every player passes (§6.5, D8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllPass {
    /// The deal is void (a passed-out row); the next dealer deals a new committed deck.
    #[default]
    RedealNextDealer,
    /// The deal is void; the same dealer deals a new committed deck.
    RedealSameDealer,
    /// The last player to speak may not pass when all the others have, with no bid.
    LastSeatMustBid,
}

/// When the match ends (§11.3, D21).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// A team at or above the target with the higher total wins; equal totals play on.
    #[default]
    HigherTotalTieContinues,
    /// The last hand's hakem team wins if it reached the target, else a team that did.
    HakemTeamFirst,
}

/// 2 players: which card of a pile is its top (§13.2, D28).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PileTop {
    /// The first card dealt to the pile (a packet laid as a block).
    #[default]
    FirstDealt,
    /// The last card dealt to the pile (cards dealt one by one onto it).
    LastDealt,
}

/// The cut (§14, `cut`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cut {
    /// No cut (the Shelem text has none).
    #[default]
    None,
    /// The player on the dealer's left cuts at `k ∈ 1..=51`.
    LeftOfDealer,
}

/// What an irregularity established by an audit does (§14, `irregularity`, D24).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Irregularity {
    /// The engine refuses illegal actions; an audit only flags one.
    #[default]
    Reject,
    /// An irregularity an official establishes forfeits the hand (not from the sources):
    /// the service's `forfeit` ruling rescoring the offender's team's hand.
    Forfeit,
}

/// Where one packet of a deal goes (§5.4, §13.2), relative to the dealer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "snake_case")]
pub enum Dest {
    /// The hand of the seat `offset` places to the dealer's right (0 = the dealer).
    Hand {
        /// Places to the right of the dealer.
        offset: u8,
    },
    /// The widow.
    Widow,
    /// 2 players: pile `pile` (1, 2, 3) of the seat `offset` places right of the dealer.
    Pile {
        /// Places to the right of the dealer.
        offset: u8,
        /// 1, 2 or 3.
        pile: u8,
    },
}

/// One packet of a deal schedule (JSON `{"to": "hand", "offset": 1, "cards": 12}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Packet {
    /// Where it goes.
    #[serde(flatten)]
    pub dest: Dest,
    /// How many cards, from the top of the deck.
    pub cards: u8,
}

/// The packets of a deal in order (§14, `deal_schedule`): `text` (the default) is the
/// text's pattern, §5.4 with 4 players and §13.2 with 2.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DealSchedule {
    /// The text's pattern.
    #[default]
    Text,
    /// Any schedule giving 12 cards to each hand, 4 to the widow (2p: 4 to each pile) and
    /// ending with a packet of the dealer's.
    Packets(Vec<Packet>),
}

/// The text's deal pattern for `n` seats (§5.4, §13.2).
pub fn text_schedule(n: u8) -> Vec<Packet> {
    let hand = |offset: u8| Packet {
        dest: Dest::Hand { offset },
        cards: 12,
    };
    let pile = |offset: u8, pile: u8| Packet {
        dest: Dest::Pile { offset, pile },
        cards: 4,
    };
    let widow = Packet {
        dest: Dest::Widow,
        cards: 4,
    };
    if n == 2 {
        vec![
            hand(1),
            hand(0),
            pile(1, 1),
            pile(0, 1),
            pile(1, 2),
            pile(0, 2),
            pile(1, 3),
            widow,
            pile(0, 3),
        ]
    } else {
        vec![hand(1), hand(2), hand(3), widow, hand(0)]
    }
}

/// Largest `target` accepted.
pub const MAX_TARGET: u32 = 100_000;

/// The house rules of a Shelem match (spec §14), fixed at match start and recorded in the
/// hand's first event. Every field may be omitted (defaults below); unknown fields are
/// rejected. The seat count (`players`) is the match set-up's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// The points that end the match: a positive multiple of 5 up to 100000. Default 1200
    /// (660 and 330 are common).
    pub target: u32,
    /// The scoring preset: `p000` (default), `p000_text`, `p004`, `custom`.
    pub preset: Preset,
    /// A made contract scores `points_taken` (P000) or the `bid` (P004).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub made_score: Option<MadeScore>,
    /// Yasa: a hakem team below the opponents scores −165. On in P000.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yasa: Option<bool>,
    /// A shelem scores `fixed330` (P000), `fixed165` (P004) or `wins_match` (P000-text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shelem_score: Option<ShelemScore>,
    /// A 165 contract multiplies the hakem team's score by 1 (P000) or 2 (P004).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bid165_multiplier: Option<u8>,
    /// All pass: `redeal_next_dealer` (default), `redeal_same_dealer`, `last_seat_must_bid`.
    pub all_pass: AllPass,
    /// Match end: `higher_total_tie_continues` (default) or `hakem_team_first`.
    pub match_end: MatchEnd,
    /// The deal's packets: `"text"` (default) or `{"packets": [...]}`.
    pub deal_schedule: DealSchedule,
    /// 2 players: a pile's top is its `first_dealt` card (default) or `last_dealt`.
    pub pile_top: PileTop,
    /// The cut: `none` (default) or `left_of_dealer`.
    pub cut: Cut,
    /// Irregularities: `reject` (default) or `forfeit`.
    pub irregularity: Irregularity,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            target: 1200,
            preset: Preset::P000,
            made_score: None,
            yasa: None,
            shelem_score: None,
            bid165_multiplier: None,
            all_pass: AllPass::RedealNextDealer,
            match_end: MatchEnd::HigherTotalTieContinues,
            deal_schedule: DealSchedule::Text,
            pile_top: PileTop::FirstDealt,
            cut: Cut::None,
            irregularity: Irregularity::Reject,
        }
    }
}

/// The four scoring options as a preset fixes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// `made_score`.
    pub made: MadeScore,
    /// `yasa`.
    pub yasa: bool,
    /// `shelem_score`.
    pub shelem: ShelemScore,
    /// `bid165_multiplier`.
    pub bid165: u8,
}

impl Preset {
    /// The scoring the preset fixes (`custom`: P000's, for the omitted fields).
    pub fn scoring(self) -> Scoring {
        match self {
            Preset::P000 | Preset::Custom => Scoring {
                made: MadeScore::PointsTaken,
                yasa: true,
                shelem: ShelemScore::Fixed330,
                bid165: 1,
            },
            Preset::P000Text => Scoring {
                made: MadeScore::PointsTaken,
                yasa: true,
                shelem: ShelemScore::WinsMatch,
                bid165: 1,
            },
            Preset::P004 => Scoring {
                made: MadeScore::Bid,
                yasa: false,
                shelem: ShelemScore::Fixed165,
                bid165: 2,
            },
        }
    }
}

impl Rules {
    /// The scoring in force: the preset's, with `custom`'s fields as given.
    pub fn scoring(&self) -> Scoring {
        let p = self.preset.scoring();
        Scoring {
            made: self.made_score.unwrap_or(p.made),
            yasa: self.yasa.unwrap_or(p.yasa),
            shelem: self.shelem_score.unwrap_or(p.shelem),
            bid165: self.bid165_multiplier.unwrap_or(p.bid165),
        }
    }

    /// The deal's packets for `n` seats.
    pub fn schedule(&self, n: u8) -> Vec<Packet> {
        match &self.deal_schedule {
            DealSchedule::Text => text_schedule(n),
            DealSchedule::Packets(p) => p.clone(),
        }
    }

    /// Check the rules against a seat count (done when a match starts).
    pub fn validate_for(&self, n: u8) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Rules(m));
        if n != 2 && self.pile_top != PileTop::FirstDealt {
            return bad("pile_top is for 2 players (4 players have no piles)".into());
        }
        if let DealSchedule::Packets(p) = &self.deal_schedule {
            check_schedule(p, n).map_err(SetupError::Rules)?;
        }
        Ok(())
    }
}

/// A custom schedule gives 12 cards to each hand, 4 to the widow, 4 to each of a 2-player
/// table's six piles, and ends with a packet of the dealer's (§5.7).
fn check_schedule(p: &[Packet], n: u8) -> Result<(), String> {
    if p.is_empty() || p.len() > 64 {
        return Err("deal_schedule packets: 1 to 64 packets".into());
    }
    let mut hand = vec![0u32; usize::from(n)];
    let mut widow = 0u32;
    let mut piles = vec![0u32; usize::from(n) * 3];
    for x in p {
        if x.cards == 0 {
            return Err("deal_schedule: a packet of 0 cards".into());
        }
        let c = u32::from(x.cards);
        match x.dest {
            Dest::Hand { offset } if offset < n => hand[usize::from(offset)] += c,
            Dest::Widow => widow += c,
            Dest::Pile { offset, pile } if n == 2 && offset < n && (1..=3).contains(&pile) => {
                piles[usize::from(offset) * 3 + usize::from(pile - 1)] += c
            }
            Dest::Pile { .. } if n != 2 => {
                return Err("deal_schedule: piles are dealt with 2 players only".into())
            }
            _ => return Err(format!("deal_schedule: no such place for {n} players")),
        }
    }
    if hand.iter().any(|h| *h != 12) || widow != 4 || (n == 2 && piles.iter().any(|q| *q != 4)) {
        return Err(
            "deal_schedule must give 12 cards to each hand, 4 to the widow (and 4 to each pile)"
                .into(),
        );
    }
    match p.last().map(|x| x.dest) {
        Some(Dest::Hand { offset: 0 } | Dest::Pile { offset: 0, .. }) => Ok(()),
        _ => Err("deal_schedule must end with a packet of the dealer's (§5.5)".into()),
    }
}

impl HouseRules for Rules {
    fn validate(&self) -> Result<(), SetupError> {
        let bad = |m: String| Err(SetupError::Rules(m));
        if self.target == 0 || self.target % 5 != 0 || self.target > MAX_TARGET {
            return bad(format!(
                "target must be a positive multiple of 5 up to {MAX_TARGET}, not {}",
                self.target
            ));
        }
        if let Some(m) = self.bid165_multiplier {
            if !(1..=2).contains(&m) {
                return bad(format!("bid165_multiplier must be 1 or 2, not {m}"));
            }
        }
        if self.preset != Preset::Custom {
            let p = self.preset.scoring();
            let name = match self.preset {
                Preset::P000 => "p000",
                Preset::P000Text => "p000_text",
                _ => "p004",
            };
            let clash = self.made_score.is_some_and(|x| x != p.made)
                || self.yasa.is_some_and(|x| x != p.yasa)
                || self.shelem_score.is_some_and(|x| x != p.shelem)
                || self.bid165_multiplier.is_some_and(|x| x != p.bid165);
            if clash {
                return bad(format!(
                    "a scoring option contradicts preset {name} (use preset custom to mix)"
                ));
            }
        }
        if let DealSchedule::Packets(p) = &self.deal_schedule {
            // Valid for one of the seat counts; the count itself is checked at match start.
            if check_schedule(p, 4).is_err() && check_schedule(p, 2).is_err() {
                return check_schedule(p, 4).map_err(SetupError::Rules);
            }
        }
        Ok(())
    }

    /// Checked against the seat count, with every scoring field written out.
    fn for_seats(&self, seats: u8) -> Result<Self, SetupError> {
        self.validate()?;
        self.validate_for(seats)?;
        let s = self.scoring();
        Ok(Rules {
            made_score: Some(s.made),
            yasa: Some(s.yasa),
            shelem_score: Some(s.shelem),
            bid165_multiplier: Some(s.bid165),
            ..self.clone()
        })
    }

    /// The defaults, each preset, and every other option away from its default (a sample
    /// invalid for a seat count is skipped for it).
    fn samples() -> Vec<Self> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules {
                preset: Preset::P004,
                target: 330,
                all_pass: AllPass::RedealSameDealer,
                cut: Cut::LeftOfDealer,
                ..d.clone()
            },
            Rules {
                preset: Preset::P000Text,
                target: 660,
                all_pass: AllPass::LastSeatMustBid,
                match_end: MatchEnd::HakemTeamFirst,
                irregularity: Irregularity::Forfeit,
                ..d.clone()
            },
            Rules {
                preset: Preset::Custom,
                made_score: Some(MadeScore::Bid),
                yasa: Some(true),
                shelem_score: Some(ShelemScore::Fixed165),
                bid165_multiplier: Some(2),
                pile_top: PileTop::LastDealt,
                target: 330,
                ..d.clone()
            },
            Rules {
                deal_schedule: DealSchedule::Packets(vec![
                    Packet {
                        dest: Dest::Widow,
                        cards: 4,
                    },
                    Packet {
                        dest: Dest::Hand { offset: 1 },
                        cards: 12,
                    },
                    Packet {
                        dest: Dest::Hand { offset: 2 },
                        cards: 12,
                    },
                    Packet {
                        dest: Dest::Hand { offset: 3 },
                        cards: 12,
                    },
                    Packet {
                        dest: Dest::Hand { offset: 0 },
                        cards: 12,
                    },
                ]),
                ..d
            },
        ]
    }
}
