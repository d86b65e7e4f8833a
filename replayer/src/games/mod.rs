//! One rules engine per game, all behind [`crate::engine::Game`].

use crate::engine::{DynGame, GameId, SetupError};

/// The engine for a game, or [`SetupError::NoEngine`] for a game whose engine is not built
/// yet.
pub fn registry(game: GameId) -> Result<&'static dyn DynGame, SetupError> {
    Err(SetupError::NoEngine(game))
}
