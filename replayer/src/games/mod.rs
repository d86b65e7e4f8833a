//! One rules engine per game, all behind [`crate::engine::Game`].

pub mod bist_o_yek;
pub mod hokm;

use crate::engine::{DynGame, Engine, GameId, SetupError};

static BIST_O_YEK: Engine<bist_o_yek::BistOYek> = Engine::new();
static HOKM: Engine<hokm::Hokm> = Engine::new();

/// The engine for a game, or [`SetupError::NoEngine`] for a game whose engine is not built
/// yet.
pub fn registry(game: GameId) -> Result<&'static dyn DynGame, SetupError> {
    match game {
        GameId::BistOYek => Ok(&BIST_O_YEK),
        GameId::Hokm => Ok(&HOKM),
        other => Err(SetupError::NoEngine(other)),
    }
}
