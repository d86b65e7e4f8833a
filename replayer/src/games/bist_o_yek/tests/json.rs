//! The JSON shapes other people read and write.

use super::*;
use crate::engine::CardRef;
use serde_json::json;

#[test]
fn action_json() {
    let cases = [
        (Action::AcceptBank, json!({"type": "accept_bank"})),
        (Action::DeclineBank, json!({"type": "decline_bank"})),
        (Action::AnnounceKhabar, json!({"type": "announce_khabar"})),
        (Action::Deal, json!({"type": "deal"})),
        (Action::Swap, json!({"type": "swap"})),
        (Action::Keep, json!({"type": "keep"})),
        (bet(200), json!({"type": "bet", "amount": 200})),
        (side(300), json!({"type": "side_bet", "amount": 300})),
        (hit(), json!({"type": "hit"})),
        (hit_exposing("JS"), json!({"type": "hit", "expose": "JS"})),
        (Action::Stand, json!({"type": "stand"})),
        (Action::DealFaceUp, json!({"type": "deal_face_up"})),
        (Action::DealFaceDown, json!({"type": "deal_face_down"})),
        (Action::AnnounceSuz, json!({"type": "announce_suz"})),
        (Action::BankerHit, json!({"type": "banker_hit"})),
        (Action::BankerStand, json!({"type": "banker_stand"})),
        (Action::EndMatch, json!({"type": "end_match"})),
    ];
    for (a, j) in cases {
        assert_eq!(serde_json::to_value(&a).unwrap(), j);
        assert_eq!(serde_json::from_value::<Action>(j).unwrap(), a);
    }
    assert_eq!(
        serde_json::from_value::<Action>(json!({"type": "hit", "expose": null})).unwrap(),
        hit()
    );
    assert!(serde_json::from_value::<Action>(json!({"type": "bet"})).is_err());
    assert!(serde_json::from_value::<Action>(json!({"type": "bet", "amount": -1})).is_err());
}

#[test]
fn rules_json() {
    assert_eq!(
        serde_json::to_value(Rules::default()).unwrap(),
        json!({
            "bank_stake": 1000,
            "min_bet": 50,
            "max_bet": "whole_bank",
            "khabar_multiple": 3,
            "side_bets": false,
            "tie_rule": "banker_wins",
            "banker_swap": "after_suz",
            "deal_mode": "all_first",
            "shuffle_every_round": false
        })
    );
    let r: Rules = serde_json::from_value(json!({
        "max_bet": {"fixed": 500},
        "tie_rule": "push",
        "banker_swap": "every_duel",
        "deal_mode": "one_at_a_time"
    }))
    .unwrap();
    assert_eq!(r.max_bet, MaxBet::Fixed(500));
    assert_eq!(r.tie_rule, TieRule::Push);
    assert_eq!(r.banker_swap, BankerSwap::EveryDuel);
    assert_eq!(r.deal_mode, DealMode::OneAtATime);
    assert_eq!(r.bank_stake, 1000);
    assert!(serde_json::from_value::<Rules>(json!({"bankstake": 1})).is_err());
    assert_eq!(
        serde_json::from_value::<Rules>(json!({})).unwrap(),
        Rules::default()
    );
}

#[test]
fn setup_and_match_json() {
    let m = BistOYek::new_match(
        &Rules::default(),
        &serde_json::from_value(json!({"seats": 2})).unwrap(),
    )
    .unwrap();
    assert_eq!(
        serde_json::to_value(&m).unwrap(),
        json!({
            "seats": 2,
            "balances": [10000, 10000],
            "candidate": 0,
            "declines": 0,
            "over": false,
            "turn": 1
        })
    );
    assert!(serde_json::from_value::<Setup>(json!({"seats": 2, "extra": 1})).is_err());
    let s: Setup =
        serde_json::from_value(json!({"seats": 3, "first_banker": 2, "balances": [1, 2, 3]}))
            .unwrap();
    assert_eq!(s.first_banker, SeatIndex(2));
}

#[test]
fn effect_json() {
    let cases = [
        (
            Effect::Phase {
                phase: Phase::AwaitShuffle {
                    reason: ShuffleReason::NewTurn,
                    resume: Resume::RoundStart,
                },
            },
            json!({"type": "phase", "phase": {"name": "await_shuffle", "reason": "new_turn", "resume": "round_start"}}),
        ),
        (
            Effect::Phase {
                phase: Phase::AwaitBet,
            },
            json!({"type": "phase", "phase": {"name": "await_bet"}}),
        ),
        (
            Effect::HiddenDealt {
                card: CardRef { shuffle: 0, pos: 0 },
            },
            json!({"type": "hidden_dealt", "card": {"shuffle": 0, "pos": 0}}),
        ),
        (
            Effect::PlayerCardDealt {
                seat: SeatIndex(1),
                card: CardRef { shuffle: 0, pos: 2 },
                face: None,
            },
            json!({"type": "player_card_dealt", "seat": 1, "card": {"shuffle": 0, "pos": 2}}),
        ),
        (
            Effect::BankerDrew {
                card: CardRef { shuffle: 0, pos: 3 },
                face: c("8S"),
            },
            json!({"type": "banker_drew", "card": {"shuffle": 0, "pos": 3}, "face": "8S"}),
        ),
        (
            Effect::Settled {
                seat: SeatIndex(1),
                amount: 200,
                main: true,
                case: Case::S4,
                escrow_to_owner: 0,
                escrow_to_bank: 200,
                bank_to_owner: 0,
            },
            json!({"type": "settled", "seat": 1, "amount": 200, "main": true, "case": "S4",
                   "escrow_to_owner": 0, "escrow_to_bank": 200, "bank_to_owner": 0}),
        ),
        (
            Effect::TurnEnded {
                banker: SeatIndex(0),
                reason: EndReason::BankEmpty,
                next_candidate: SeatIndex(1),
            },
            json!({"type": "turn_ended", "banker": 0, "reason": "bank_empty", "next_candidate": 1}),
        ),
        (Effect::SideBetsOpened, json!({"type": "side_bets_opened"})),
    ];
    for (e, j) in cases {
        assert_eq!(serde_json::to_value(&e).unwrap(), j);
        assert_eq!(serde_json::from_value::<Effect>(j).unwrap(), e);
    }
}

#[test]
fn legal_and_outcome_json() {
    assert_eq!(
        serde_json::to_value(Legal::Bet { min: 50, max: 1000 }).unwrap(),
        json!({"type": "bet", "min": 50, "max": 1000})
    );
    assert_eq!(
        serde_json::to_value(Legal::Hit {
            expose: vec![c("JS")]
        })
        .unwrap(),
        json!({"type": "hit", "expose": ["JS"]})
    );
    let o = Outcome {
        turn: 1,
        banker: Some(SeatIndex(0)),
        stake: 1000,
        taken: 0,
        net: vec![-1000, 400, 600],
        balances: vec![1000, 2400, 2600],
        reason: EndReason::BankEmpty,
        match_over: false,
    };
    let j = json!({
        "turn": 1, "banker": 0, "stake": 1000, "taken": 0, "net": [-1000, 400, 600],
        "balances": [1000, 2400, 2600], "reason": "bank_empty", "match_over": false
    });
    assert_eq!(serde_json::to_value(&o).unwrap(), j);
    assert_eq!(serde_json::from_value::<Outcome>(j).unwrap(), o);
}

/// Regression (issue 9): 60 kB of junk inside an action was signed into the log. An action
/// with a member it does not have is refused (`BadAction`) by the engine interface, for
/// every game; `null` for a member left out still means "none".
#[test]
fn an_action_with_an_unknown_member_is_refused() {
    use crate::engine::{DynGame, Engine};
    let def: Engine<BistOYek> = Engine::new();
    let rules = def.default_rules();
    let m = def
        .new_match(&rules, &serde_json::json!({"seats": 2}))
        .unwrap();
    let hand = def.new_hand(&rules, &m).unwrap();
    for bad in [
        serde_json::json!({"type": "accept_bank", "junk": "x".repeat(60_000)}),
        serde_json::json!({"type": "accept_bank", "note": {"deep": 1}}),
    ] {
        let mut h = hand.clone_box();
        let v = h.apply(Actor::Seat(SeatIndex(0)), &bad).unwrap_err();
        assert_eq!(v.rule, "BadAction", "{v}");
        assert!(v.detail.contains("unknown member"), "{v}");
        assert!(v.detail.len() < 200, "the refusal does not echo the junk");
    }
    let mut h = hand.clone_box();
    assert!(h
        .apply(
            Actor::Seat(SeatIndex(0)),
            &serde_json::json!({"type": "accept_bank"})
        )
        .is_ok());
}
