//! A hand's secrets at rest: the server seeds of its shuffles and the openings of its
//! private actions, sealed under the service's seal key while the hand runs (each with
//! associated data naming what it is: [`seed_aad`], [`input_aad`]) and written with the
//! events that commit to them; read back unsealed to restore a running hand, and taken
//! from the reveal of a finished one. Nothing here is ever logged or returned.

use replayer::dealer::LiveHand;
use replayer::log::{Body, OpenedInput, Record};
use replayer::shuffle::ServerSeed;

use super::damage::{commit_seq, Check, Damage};
use crate::api::errors::{ApiError, ApiResult};
use crate::keys::{input_aad, seed_aad};
use crate::store::{HandRow, HandStatus, InputRow, SecretRow};
use crate::Service;

/// Whether a hand's secrets are read sealed from the store: while it runs; for a hand
/// quarantined, unless its log ends in its reveal.
pub(super) fn kept_sealed(row: &HandRow, all: &[Record]) -> bool {
    match row.status {
        HandStatus::InProgress => true,
        HandStatus::Quarantined => !matches!(
            all.last().map(|r| &r.event.body),
            Some(Body::SeedsRevealed { .. })
        ),
        HandStatus::Completed | HandStatus::Abandoned => false,
    }
}

/// The seeds and openings a hand restores with (see `LiveHand::restore`): unsealed from
/// the store while it runs, from the reveal in its last record (`all`) once it is over.
/// A sealed secret that does not unseal as this hand's is `hand_damaged`, at the event
/// that commits to it.
pub(super) async fn secrets_of(
    svc: &Service,
    row: &HandRow,
    all: &[Record],
) -> ApiResult<(Vec<Option<ServerSeed>>, Vec<OpenedInput>)> {
    if kept_sealed(row, all) {
        Ok((
            unsealed_seeds(svc, &row.club_id, &row.hand_id, all).await?,
            unsealed_inputs(svc, &row.club_id, &row.hand_id).await?,
        ))
    } else {
        Ok((revealed_seeds(all), revealed_inputs(all)))
    }
}

/// The server seeds of `hand`'s shuffles from `from` on, each sealed under [`seed_aad`].
pub(super) fn seal_seeds(
    svc: &Service,
    club: &str,
    hand: &LiveHand,
    from: usize,
) -> ApiResult<Vec<SecretRow>> {
    let mut out = Vec::new();
    for (k, seed) in hand.server_seeds().iter().enumerate().skip(from) {
        let Some(seed) = seed else { continue };
        let shuffle = u32::try_from(k).map_err(ApiError::internal)?;
        out.push(SecretRow {
            club_id: club.to_string(),
            hand_id: hand.hand_id().to_string(),
            shuffle: i32::try_from(shuffle).map_err(ApiError::internal)?,
            sealed: svc
                .seal
                .seal(&seed_aad(club, hand.hand_id(), shuffle), seed.as_bytes())?,
        });
    }
    Ok(out)
}

/// The openings of `hand`'s private actions from seq `from` on, each sealed (its canonical
/// JSON) under [`input_aad`]: secret until the hand's reveal, kept like server seeds.
pub(super) fn seal_inputs(
    svc: &Service,
    club: &str,
    hand: &LiveHand,
    from: u64,
) -> ApiResult<Vec<InputRow>> {
    let mut out = Vec::new();
    for o in hand.openings().into_iter().filter(|o| o.seq >= from) {
        let json = serde_json::to_value(&o).map_err(ApiError::internal)?;
        let plain = replayer::log::canonical_bytes(&json).map_err(ApiError::internal)?;
        out.push(InputRow {
            club_id: club.to_string(),
            hand_id: hand.hand_id().to_string(),
            seq: i64::try_from(o.seq).map_err(ApiError::internal)?,
            sealed: svc
                .seal
                .seal(&input_aad(club, hand.hand_id(), o.seq), &plain)?,
        });
    }
    Ok(out)
}

/// The seeds revealed by a finished hand's last record.
fn revealed_seeds(records: &[Record]) -> Vec<Option<ServerSeed>> {
    match records.last().map(|r| &r.event.body) {
        Some(Body::SeedsRevealed { seeds, .. }) => seeds
            .iter()
            .map(|s| ServerSeed::from_hex(&s.server_seed).ok())
            .collect(),
        _ => Vec::new(),
    }
}

/// The openings of private actions revealed by a finished hand's last record.
fn revealed_inputs(records: &[Record]) -> Vec<OpenedInput> {
    match records.last().map(|r| &r.event.body) {
        Some(Body::SeedsRevealed { inputs, .. }) => inputs.clone(),
        _ => Vec::new(),
    }
}

/// The server seeds of a running hand (whose records are `all`), unsealed.
pub(super) async fn unsealed_seeds(
    svc: &Service,
    club: &str,
    hand: &str,
    all: &[Record],
) -> ApiResult<Vec<Option<ServerSeed>>> {
    let mut seeds: Vec<Option<ServerSeed>> = Vec::new();
    for s in svc.store.get_secrets(club, hand).await? {
        let k = usize::try_from(s.shuffle).map_err(ApiError::internal)?;
        let shuffle = u32::try_from(s.shuffle).map_err(ApiError::internal)?;
        let damaged = || ApiError::from(Damage::at(commit_seq(all, shuffle), Check::SealedSeed));
        let plain = svc
            .seal
            .unseal(&seed_aad(club, hand, shuffle), &s.sealed)
            .map_err(|_| damaged())?;
        let bytes: [u8; 32] = plain.try_into().map_err(|_| damaged())?;
        if seeds.len() <= k {
            seeds.resize(k + 1, None);
        }
        if let Some(slot) = seeds.get_mut(k) {
            *slot = Some(ServerSeed::from_bytes(bytes));
        }
    }
    Ok(seeds)
}

/// The openings of a running hand's private actions, unsealed. Each must be the opening
/// of the seq it is stored at (its associated data says so too): otherwise the hand is
/// damaged at that seq.
pub(super) async fn unsealed_inputs(
    svc: &Service,
    club: &str,
    hand: &str,
) -> ApiResult<Vec<OpenedInput>> {
    let mut out = Vec::new();
    for i in svc.store.get_inputs(club, hand).await? {
        let seq = u64::try_from(i.seq).map_err(ApiError::internal)?;
        let damaged = || ApiError::from(Damage::at(seq, Check::SealedInput));
        let plain = svc
            .seal
            .unseal(&input_aad(club, hand, seq), &i.sealed)
            .map_err(|_| damaged())?;
        // Never the parse error: it could quote the plaintext.
        let opening: OpenedInput = serde_json::from_slice(&plain).map_err(|_| damaged())?;
        if opening.seq != seq {
            return Err(damaged());
        }
        out.push(opening);
    }
    Ok(out)
}
