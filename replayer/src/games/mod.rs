//! One rules engine per game, all behind [`crate::engine::Game`].

pub mod bist_o_yek;
pub mod bluff;
pub mod ghahve;
pub mod hokm;
pub mod pasur;
pub mod shelem;
pub mod tricks;

use crate::engine::{DynGame, Engine, GameId, SetupError};

static BIST_O_YEK: Engine<bist_o_yek::BistOYek> = Engine::new();
static BLUFF: Engine<bluff::Bluff> = Engine::new();
static GHAHVE: Engine<ghahve::Ghahve> = Engine::new();
static HOKM: Engine<hokm::Hokm> = Engine::new();
static SHELEM: Engine<shelem::Shelem> = Engine::new();
static PASUR: Engine<pasur::Pasur> = Engine::new();

/// The engine for a game, or [`SetupError::NoEngine`] for a game whose engine is not built
/// yet.
pub fn registry(game: GameId) -> Result<&'static dyn DynGame, SetupError> {
    match game {
        GameId::BistOYek => Ok(&BIST_O_YEK),
        GameId::Bluff => Ok(&BLUFF),
        GameId::Ghahve => Ok(&GHAHVE),
        GameId::Hokm => Ok(&HOKM),
        GameId::Shelem => Ok(&SHELEM),
        GameId::Pasur => Ok(&PASUR),
        other => Err(SetupError::NoEngine(other)),
    }
}

/// The deck a game's deals use for `players` seats under its default house rules: asked of
/// the engine where there is one; for a game without an engine yet, the deck its spec
/// names. (Each shuffle's deck is named by the engine's shuffle request; this is for
/// `replayer deck`.)
pub fn playing_deck(
    game: GameId,
    players: Option<u8>,
) -> Result<crate::cards::DeckKind, SetupError> {
    use crate::cards::DeckKind;
    if let Ok(def) = registry(game) {
        let (min, max) = def.seats();
        let n = players.unwrap_or(max).clamp(min, max);
        let rules = def.default_rules();
        let m = def.new_match(&rules, &def.default_setup(n)?)?;
        return Ok(def.new_hand(&rules, &m)?.deck());
    }
    Ok(match game {
        GameId::Hokm if players == Some(3) => DeckKind::Hokm51 {
            removed_two: crate::cards::Suit::Clubs,
        },
        GameId::Ghahve => DeckKind::Ghahve52,
        GameId::Sheytoonak => DeckKind::Sheytoonak53,
        _ => DeckKind::Standard52,
    })
}
