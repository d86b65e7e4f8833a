//! A toy engine that drives the dealer through what real games need and no single one of
//! them exercises alone (feature `testkit`): several shuffles in one hand, a private input
//! from several seats acting at once, public reveals, and a relabel of each hand after its
//! seen card went back into it.
//!
//! Two seats. A 52-card deck is dealt 3 cards each. Both seats then choose, at the same
//! time and in secret, one of their cards (a private input: the log holds a salted
//! commitment). Once both have chosen, the two cards are turned face up; the higher rank wins
//! (ties: seat 0). Each card goes back into its owner's hand, and each hand is relabelled by a
//! committed shuffle of exactly its cards, so later plays (in a real game) could not be linked
//! to the face everyone saw.
//!
//! It borrows the id of a game that has no engine (`sheytoonak`): the registry refuses that
//! id, so a toy hand can never pass for a real one; it runs only through
//! [`crate::dealer::LiveHand::start_with_engine`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, CardRef, Game, GameId, HouseRules, Judged, LegalAction, ScoreUnit, SeatIndex,
    SeatResult, SetupError, ShuffleRequest, Standings, ToAct, Viewer, Violation,
};
use crate::zones::{Seen, ZoneId, Zones, ZonesView};

/// The toy engine.
#[derive(Clone, Copy, Debug, Default)]
pub struct Toy;

/// No house rules.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {}

impl HouseRules for Rules {
    fn validate(&self) -> Result<(), SetupError> {
        Ok(())
    }
}

/// `{"seats": 2}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Always 2.
    pub seats: u8,
}

/// One hand per match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Always 2.
    pub seats: u8,
    /// Whether the one hand was played.
    pub over: bool,
}

/// Where the hand is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for the deal.
    Deal,
    /// Both seats choose in secret.
    Choose,
    /// Waiting for seat `0`'s, then seat `1`'s relabel.
    Relabel(u8),
    /// Over.
    Over,
}

/// The state: every card in zones.
#[derive(Clone, Debug)]
pub struct State {
    zones: Zones,
    phase: Phase,
    chose: [bool; 2],
    winner: Option<SeatIndex>,
}

/// `{"type": "choose", "card": {"shuffle": 0, "pos": 4}}`: private.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Choose one of one's own cards, in secret.
    Choose {
        /// The card.
        card: CardRef,
    },
}

/// The legal family: choose one of these cards.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Legal {
    /// The actor's own cards.
    pub cards: Vec<CardRef>,
}

impl LegalAction<Action> for Legal {
    fn sample(&self, rng: &mut dyn rand_core::RngCore) -> Action {
        let n = u32::try_from(self.cards.len()).unwrap_or(1).max(1);
        let i = usize::try_from(rng.next_u32() % n).unwrap_or(0);
        Action::Choose {
            card: self
                .cards
                .get(i)
                .copied()
                .unwrap_or(CardRef { shuffle: 0, pos: 0 }),
        }
    }

    fn allows(&self, action: &Action) -> bool {
        let Action::Choose { card } = action;
        self.cards.contains(card)
    }
}

/// Effects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// Three cards from the top to each seat.
    Dealt,
    /// A seat chose (the card stays secret).
    Chose {
        /// The seat.
        seat: SeatIndex,
        /// The card (in the opening only: this effect is never logged).
        card: CardRef,
    },
    /// Both chosen cards turned face up, and the winner.
    Revealed {
        /// Seat 0's and seat 1's faces.
        faces: [Card; 2],
        /// Who won.
        winner: SeatIndex,
    },
    /// A hand relabelled by committed shuffle `shuffle`.
    Relabelled {
        /// The seat.
        seat: SeatIndex,
        /// The shuffle.
        shuffle: u32,
    },
}

/// `{"winner": n}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Who won.
    pub winner: SeatIndex,
}

/// What a viewer sees.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The phase.
    pub phase: Phase,
    /// Who has chosen.
    pub chose: [bool; 2],
    /// The cards.
    pub zones: ZonesView,
}

fn v(rule: &str, detail: &str) -> Violation {
    Violation::new(rule, "toy", detail)
}

fn seat_of(actor: Actor) -> Option<SeatIndex> {
    match actor {
        Actor::Seat(s) if s.0 < 2 => Some(s),
        _ => None,
    }
}

impl Game for Toy {
    const ID: GameId = GameId::Sheytoonak;
    const MIN_SEATS: u8 = 2;
    const MAX_SEATS: u8 = 2;
    type Rules = Rules;
    type Setup = Setup;
    type Match = Match;
    type State = State;
    type Action = Action;
    type Legal = Legal;
    type Effect = Effect;
    type View = View;
    type Outcome = Outcome;

    fn deck(_: &Rules, _: &Match) -> DeckKind {
        DeckKind::Standard52
    }

    fn new_match(_: &Rules, setup: &Setup) -> Result<Match, SetupError> {
        if setup.seats != 2 {
            return Err(SetupError::Match("the toy is for 2 seats".into()));
        }
        Ok(Match {
            seats: 2,
            over: false,
        })
    }

    fn new_hand(_: &Rules, _: &Match) -> Result<State, SetupError> {
        Ok(State {
            zones: Zones::new(),
            phase: Phase::Deal,
            chose: [false; 2],
            winner: None,
        })
    }

    fn to_act(s: &State) -> ToAct {
        match s.phase {
            Phase::Deal => ToAct {
                actors: Vec::new(),
                shuffle: Some(ShuffleRequest::deck("deal", DeckKind::Standard52)),
            },
            Phase::Choose => ToAct {
                actors: (0u8..2)
                    .filter(|i| !s.chose[usize::from(*i)])
                    .map(|i| Actor::Seat(SeatIndex(i)))
                    .collect(),
                shuffle: None,
            },
            Phase::Relabel(i) => {
                let z = ZoneId::Hand(SeatIndex(i));
                ToAct {
                    actors: Vec::new(),
                    shuffle: Some(ShuffleRequest::gather(
                        "relabel",
                        s.zones.refs_in(z),
                        s.zones.faces(z),
                    )),
                }
            }
            Phase::Over => ToAct::default(),
        }
    }

    fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
        match (s.phase, seat_of(actor)) {
            (Phase::Choose, Some(seat)) if !s.chose[seat.index()] => vec![Legal {
                cards: s.zones.refs_in(ZoneId::Hand(seat)),
            }],
            _ => Vec::new(),
        }
    }

    fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
        let Action::Choose { card } = action;
        let seat = seat_of(actor).ok_or_else(|| v("NotASeat", "only the two seats choose"))?;
        if s.phase != Phase::Choose || s.chose[seat.index()] {
            return Err(v("WrongPhase", "nothing to choose now"));
        }
        if s.zones.get(ZoneId::Hand(seat), *card).is_none() {
            return Err(v("CardNotInHand", "choose one of your own cards"));
        }
        let mut out = vec![Effect::Chose { seat, card: *card }];
        let other = SeatIndex(1 - seat.0);
        if s.chose[other.index()] {
            let mine = s.zones.face_in(ZoneId::Hand(seat), *card);
            let theirs = s.zones.cards(ZoneId::Pile(other.0)).first().map(|p| p.face);
            let (Some(mine), Some(theirs)) = (mine, theirs) else {
                return Err(v("Corrupt", "a chosen card is missing"));
            };
            let faces = if seat.0 == 0 {
                [mine, theirs]
            } else {
                [theirs, mine]
            };
            let winner = if faces[1].rank() > faces[0].rank() {
                SeatIndex(1)
            } else {
                SeatIndex(0)
            };
            out.push(Effect::Revealed { faces, winner });
        }
        Ok(out)
    }

    fn decide_shuffle(s: &State, shuffle: u32, _order: &[Card]) -> Result<Vec<Effect>, Violation> {
        match s.phase {
            Phase::Deal => Ok(vec![Effect::Dealt]),
            Phase::Relabel(i) => Ok(vec![Effect::Relabelled {
                seat: SeatIndex(i),
                shuffle,
            }]),
            _ => Err(v("NoShuffle", "no shuffle is asked for")),
        }
    }

    fn evolve(s: &mut State, effect: &Effect, order: Option<&[Card]>) {
        match effect {
            Effect::Dealt => {
                if let Some(order) = order {
                    s.zones.install(ZoneId::Stock, 0, order, Seen::NOBODY);
                    for i in 0u8..2 {
                        let seat = SeatIndex(i);
                        let _ = s.zones.move_top(
                            ZoneId::Stock,
                            3,
                            ZoneId::Hand(seat),
                            Seen::seat(seat),
                        );
                    }
                }
                s.phase = Phase::Choose;
            }
            Effect::Chose { seat, card } => {
                let _ = s.zones.move_card(
                    ZoneId::Hand(*seat),
                    *card,
                    ZoneId::Pile(seat.0),
                    Seen::seat(*seat),
                );
                if let Some(c) = s.chose.get_mut(seat.index()) {
                    *c = true;
                }
            }
            Effect::Revealed { winner, .. } => {
                for i in 0u8..2 {
                    let seat = SeatIndex(i);
                    for r in s.zones.refs_in(ZoneId::Pile(i)) {
                        let _ = s.zones.reveal(r);
                        let _ = s.zones.move_card(
                            ZoneId::Pile(i),
                            r,
                            ZoneId::Hand(seat),
                            Seen::EVERYONE,
                        );
                    }
                }
                s.winner = Some(*winner);
                s.phase = Phase::Relabel(0);
            }
            Effect::Relabelled { seat, shuffle } => {
                if let Some(order) = order {
                    let _ =
                        s.zones
                            .relabel(ZoneId::Hand(*seat), *shuffle, order, Seen::seat(*seat));
                }
                s.phase = if seat.0 == 0 {
                    Phase::Relabel(1)
                } else {
                    Phase::Over
                };
            }
        }
    }

    fn view(s: &State, viewer: Viewer) -> View {
        View {
            phase: s.phase,
            chose: s.chose,
            zones: s.zones.view(viewer),
        }
    }

    fn outcome(s: &State) -> Option<Outcome> {
        (s.phase == Phase::Over)
            .then_some(s.winner)
            .flatten()
            .map(|winner| Outcome { winner })
    }

    fn next_match(s: &State) -> Option<Match> {
        (s.phase == Phase::Over).then_some(Match {
            seats: 2,
            over: true,
        })
    }

    fn results(o: &Outcome) -> Vec<SeatResult> {
        (0u8..2)
            .map(|i| SeatResult {
                seat: SeatIndex(i),
                delta: 0,
                judged: if o.winner.0 == i {
                    Judged::Won
                } else {
                    Judged::Lost
                },
                title: None,
            })
            .collect()
    }

    fn standings(m: &Match) -> Standings {
        Standings {
            unit: ScoreUnit::None,
            per_seat: vec![0, 0],
            sides: Vec::new(),
            next: None,
            over: m.over,
        }
    }

    fn match_over(m: &Match) -> bool {
        m.over
    }

    fn seat_count(m: &Match) -> u8 {
        m.seats
    }

    fn zones(s: &State) -> &Zones {
        &s.zones
    }

    fn zones_mut(s: &mut State) -> &mut Zones {
        &mut s.zones
    }

    fn public_part(action: &Action) -> Option<Value> {
        match action {
            Action::Choose { .. } => Some(serde_json::json!({"type": "choose"})),
        }
    }
}
