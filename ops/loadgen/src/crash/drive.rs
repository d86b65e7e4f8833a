//! `crash drive`: tables, then hands at all of them at once until the service goes away.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::engine::GameId;
use serde_json::{json, Value};

use super::api::Api;
use super::play::{Counts, Player, Stop};
use super::{
    admin_key, read_lines, Common, DriverReport, LineLog, TableInfo, ACKED_FILE, DRIVER_FILE,
    INFLIGHT_FILE, READY_FILE, TABLES_FILE,
};
use crate::common::random_seed;

#[derive(clap::Args, Debug)]
pub(super) struct DriveArgs {
    #[command(flatten)]
    common: Common,
    /// Tables played at once.
    #[arg(long, default_value_t = 16)]
    tables: usize,
    /// How many of them play Hokm (4 seats); the others play Bist-o-yek (2 to 4 seats).
    #[arg(long, default_value_t = 4)]
    hokm_tables: usize,
    /// Stop after this many seconds even if the service is still there.
    #[arg(long, default_value_t = 120)]
    max_secs: u64,
}

async fn create_table(
    api: &Api,
    admin: &str,
    game: GameId,
    seats: usize,
    keyed: bool,
    client_entropy: bool,
) -> anyhow::Result<TableInfo> {
    let names = ["Dariush", "Shirin", "Babak", "Roya"];
    let seats: Vec<Value> = (0..seats)
        .map(|i| json!({"player": names[i % names.len()]}))
        .collect();
    let body = json!({"game": game.as_str(), "seats": seats, "client_entropy": client_entropy});
    let r = api
        .call(
            reqwest::Method::POST,
            "/v1/tables",
            Some(admin),
            Some(&body),
            None,
        )
        .await
        .map_err(|e| anyhow::anyhow!("create table: {e}"))?;
    if r.status != 201 {
        bail!("create table: {}", r.brief());
    }
    let tokens = r.body["seats"]
        .as_array()
        .context("seats")?
        .iter()
        .map(|s| s["token"].as_str().map(str::to_owned).context("token"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(TableInfo {
        table_id: r.body["table_id"].as_str().context("table_id")?.to_owned(),
        game: game.as_str().to_owned(),
        tokens,
        keyed,
        client_entropy,
    })
}

/// One table's loop: hands back to back until the service goes away or time is up; a
/// table whose match is over is replaced by a new one.
async fn drive_table(mut p: Player, tables: Arc<LineLog>, until: Instant) -> Result<(), Stop> {
    while Instant::now() < until {
        let h = match p.start_hand().await? {
            Some(h) => h,
            None => {
                let seats = p.table.tokens.len();
                let (keyed, entropy) = (p.table.keyed, p.table.client_entropy);
                let t = match create_table(&p.api, &p.admin, p.game, seats, keyed, entropy).await {
                    Ok(t) => t,
                    Err(_) if !p.api.alive().await => return Err(Stop::Gone),
                    Err(e) => return Err(e.into()),
                };
                tables.line(&serde_json::to_string(&t).map_err(anyhow::Error::from)?)?;
                p.table = t;
                continue;
            }
        };
        p.play_out(h).await?;
    }
    Ok(())
}

pub(super) async fn drive(a: DriveArgs) -> anyhow::Result<()> {
    let admin = admin_key(&a.common.club_file)?;
    let api = Api::new(&a.common.url)?;
    std::fs::create_dir_all(&a.common.state)?;
    let tables_log = Arc::new(LineLog::create(&a.common.state.join(TABLES_FILE))?);
    let acked = Arc::new(LineLog::create(&a.common.state.join(ACKED_FILE))?);
    let inflight = Arc::new(LineLog::create(&a.common.state.join(INFLIGHT_FILE))?);
    let counts = Arc::new(Counts::default());
    let mut rng = ChaCha8Rng::from_seed(random_seed());

    let mut players = Vec::new();
    for i in 0..a.tables {
        let (game, seats) = if i < a.hokm_tables {
            (GameId::Hokm, 4)
        } else {
            (GameId::BistOYek, 2 + i % 3)
        };
        // Every four tables of a game: with and without idempotency keys, with and
        // without client entropy.
        let j = if i < a.hokm_tables {
            i
        } else {
            i - a.hokm_tables
        };
        let table = create_table(&api, &admin, game, seats, j % 2 == 1, j % 4 < 2).await?;
        tables_log.line(&serde_json::to_string(&table)?)?;
        players.push(Player {
            api: api.clone(),
            admin: admin.clone(),
            table,
            game,
            rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
            counts: counts.clone(),
            acked: Some(acked.clone()),
            inflight: Some(inflight.clone()),
            key_no: 0,
            errors: 0,
        });
    }
    std::fs::write(a.common.state.join(READY_FILE), b"")?;
    eprintln!(
        "[crash] drive: {} tables ({} hokm), playing",
        a.tables,
        a.hokm_tables.min(a.tables)
    );

    let t0 = Instant::now();
    let until = t0 + Duration::from_secs(a.max_secs);
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(drive_table(p, tables_log.clone(), until)))
        .collect();
    let mut gone = false;
    let mut failed = Vec::new();
    for t in tasks {
        match t.await? {
            Ok(()) => {}
            Err(Stop::Gone) => gone = true,
            Err(Stop::Failed(why)) => failed.push(why),
        }
    }
    let report = DriverReport {
        tables: u64::try_from(read_lines(&a.common.state.join(TABLES_FILE))?.len())?,
        hands_started: Counts::get(&counts.hands_started),
        hands_finished: Counts::get(&counts.hands_finished),
        acked_writes: Counts::get(&counts.acked_writes),
        acked_events: Counts::get(&counts.acked_events),
        in_flight: Counts::get(&counts.in_flight),
        unexpected: Counts::get(&counts.unexpected) + failed.len() as u64,
        secs: t0.elapsed().as_secs_f64(),
        service_gone: gone,
    };
    std::fs::write(
        a.common.state.join(DRIVER_FILE),
        serde_json::to_vec_pretty(&report)?,
    )?;
    for f in &failed {
        eprintln!("[crash] drive: a table stopped: {f}");
    }
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}
