//! The JSON shapes other people read and write.

use super::*;
use serde_json::json;

fn r(shuffle: u32, pos: u32) -> CardRef {
    CardRef { shuffle, pos }
}

#[test]
fn action_json() {
    let cases = [
        (
            Action::Lead {
                rank: Rank::Seven,
                cards: vec![r(0, 4), r(0, 8)],
            },
            json!({"type": "lead", "rank": "7", "cards": [{"shuffle": 0, "pos": 4}, {"shuffle": 0, "pos": 8}]}),
        ),
        (
            Action::Follow {
                cards: vec![r(1, 0)],
            },
            json!({"type": "follow", "cards": [{"shuffle": 1, "pos": 0}]}),
        ),
        (Action::Pass, json!({"type": "pass"})),
        (Action::Challenge, json!({"type": "challenge"})),
        (Action::NoChallenge, json!({"type": "no_challenge"})),
        (
            Action::RequestChallenge,
            json!({"type": "request_challenge"}),
        ),
    ];
    for (a, j) in cases {
        assert_eq!(serde_json::to_value(&a).unwrap(), j);
        assert_eq!(serde_json::from_value::<Action>(j).unwrap(), a);
    }
    for bad in [
        json!({"type": "lead", "rank": "1", "cards": []}),
        json!({"type": "lead", "cards": []}),
        json!({"type": "lead", "rank": "K", "cards": [], "count": 2}),
        json!({"type": "challenge", "seat": 1}),
        json!({"type": "follow", "cards": ["7H"]}),
    ] {
        assert!(
            serde_json::from_value::<Action>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    assert_eq!(
        serde_json::from_value::<Action>(json!({"type": "lead", "rank": "T", "cards": []}))
            .unwrap(),
        Action::Lead {
            rank: Rank::Ten,
            cards: Vec::new()
        }
    );
}

#[test]
fn rules_json() {
    assert_eq!(
        serde_json::to_value(Rules::default()).unwrap(),
        json!({
            "uneven_deal": "deal_all",
            "follow_count": "free",
            "max_cards_per_play": "four_per_deck",
            "allow_pass": false,
            "new_rank_after_lap": "must_differ",
            "leader_after_challenge": "challenger",
            "failed_challenge_liability": "challenger",
            "titles": "king_viziers_thief"
        })
    );
    let r: Rules = serde_json::from_value(json!({
        "uneven_deal": "set_aside_remainder",
        "follow_count": "same_as_lead",
        "max_cards_per_play": "unlimited",
        "allow_pass": true,
        "new_rank_after_lap": "any",
        "leader_after_challenge": "challenge_winner",
        "failed_challenge_liability": "requester",
        "titles": "with_executioner"
    }))
    .unwrap();
    assert_eq!(
        r.leader_after_challenge,
        LeaderAfterChallenge::ChallengeWinner
    );
    assert_eq!(r.titles, Titles::WithExecutioner);
    assert!(serde_json::from_value::<Rules>(json!({"packs": 2})).is_err());
    assert_eq!(
        serde_json::from_value::<Rules>(json!({})).unwrap(),
        Rules::default()
    );
}

#[test]
fn setup_match_and_registry_json() {
    use crate::engine::{GameId, ScoreUnit};
    let def = crate::games::registry(GameId::Bluff).unwrap();
    assert_eq!(def.seats(), (4, 8));
    let setup = def.default_setup(6).unwrap();
    assert_eq!(setup, json!({"seats": 6}));
    let m = def.new_match(&def.default_rules(), &setup).unwrap();
    assert_eq!(
        m,
        json!({"seats": 6, "dealer": 5, "hands_played": 0, "over": false})
    );
    assert!(def
        .new_match(&json!({}), &json!({"seats": 4, "dealer": 1, "x": 0}))
        .is_err());
    assert!(def.new_match(&json!({}), &json!({"seats": 5})).is_err());
    assert!(serde_json::from_value::<Match>(
        json!({"seats": 4, "dealer": 1, "hands_played": 0, "over": false, "x": 1})
    )
    .is_err());
    let st = def.standings(&m).unwrap();
    assert_eq!(st.unit, ScoreUnit::None);
    assert_eq!(st.per_seat, vec![0; 6]);
    assert_eq!(st.next, Some(("dealer".to_string(), seat(5))));
    assert!(!st.over);
    let o = json!({"hand": 1, "dealer": 3, "order": [2, 0, 3, 1], "titles": ["vizier", "thief", "king", "vizier"]});
    let res = def.results(&o).unwrap();
    assert_eq!(res[2].title.as_deref(), Some("king"));
    assert_eq!(res[1].judged, crate::engine::Judged::Lost);
    let hand = def.new_hand(&json!({}), &m).unwrap();
    assert_eq!(hand.deck(), crate::cards::DeckKind::Bluff104);
}

#[test]
fn effect_and_legal_json() {
    let e = Effect::Played {
        seat: seat(0),
        lead: true,
        rank: Rank::Seven,
        count: 2,
        cards: vec![r(0, 0), r(0, 4)],
    };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "played", "seat": 0, "lead": true, "rank": "7", "count": 2,
               "cards": [{"shuffle": 0, "pos": 0}, {"shuffle": 0, "pos": 4}]})
    );
    let e = Effect::Challenged {
        challenger: seat(1),
        seat: seat(0),
        rank: Rank::Seven,
        cards: vec![Revealed {
            card: r(0, 0),
            face: c("4C"),
        }],
        truthful: false,
        taker: seat(0),
    };
    let j = serde_json::to_value(&e).unwrap();
    assert_eq!(
        j,
        json!({"type": "challenged", "challenger": 1, "seat": 0, "rank": "7",
               "cards": [{"card": {"shuffle": 0, "pos": 0}, "face": "4C"}],
               "truthful": false, "taker": 0})
    );
    assert_eq!(serde_json::from_value::<Effect>(j).unwrap(), e);
    let e = Effect::Phase {
        phase: Phase::Relabel { seat: seat(2) },
    };
    assert_eq!(
        serde_json::to_value(&e).unwrap(),
        json!({"type": "phase", "phase": {"name": "relabel", "seat": 2}})
    );
    let l = Legal::Lead {
        cards: vec![r(0, 1)],
        max: 1,
        ranks: vec![Rank::Two, Rank::Ace],
    };
    assert_eq!(
        serde_json::to_value(&l).unwrap(),
        json!({"type": "lead", "cards": [{"shuffle": 0, "pos": 1}], "max": 1, "ranks": ["2", "A"]})
    );
}

/// No effect of a hand carries a face before a challenge makes it public.
#[test]
fn effects_name_cards_by_ref_only() {
    let mut t = Table::four(&deck_with(4, &[]));
    let one = t.refs(0)[..2].to_vec();
    t.lead(0, "K", one);
    let one = t.refs(1)[..1].to_vec();
    t.follow(1, one);
    for (e, _) in &t.log {
        let j = serde_json::to_string(e).unwrap();
        assert!(!j.contains("face"), "{j}");
    }
}
