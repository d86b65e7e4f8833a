//! `audit-service`: the dealer and referee service and its administration commands.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand, ValueEnum};
use services::config::{ServeArgs, StoreArgs};
use services::keys::Keyring;
use services::store::KeyRole;
use tracing_subscriber::EnvFilter;

/// mimalloc rather than glibc malloc: under many threads, glibc's malloc and free took
/// about 15% of the CPU of the append workload (ops/README.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The provably fair dealer and referee for Persian card games.
#[derive(Parser)]
#[command(name = "audit-service", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the HTTP service.
    Serve(ServeArgs),
    /// Apply pending database migrations and exit.
    Migrate(StoreArgs),
    /// Clubs and their API keys.
    Club {
        #[command(subcommand)]
        command: ClubCommand,
    },
    /// The service's signing keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Re-verify a club from the store: every hand and match against the signed log, and
    /// every stored projection against it. Exit 0: all is well; 1: problems (one line
    /// each); 2: the audit could not run. Quarantined hands are listed (one QUARANTINED
    /// line each) and are not problems by themselves.
    Audit {
        /// The club's id.
        #[arg(long)]
        club: String,
        /// Print one JSON document: {"club", "tables", "hands", "problems": [{"table",
        /// "hand", "kind", "detail"}], "quarantined": [{"table", "hand", "hand_no",
        /// "reason", "quarantined_ms", "by", "seq", "rule"}]}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Subcommand)]
enum ClubCommand {
    /// Create a club; prints its id and its admin key (shown only once).
    Create {
        /// The club's name.
        #[arg(long)]
        name: String,
        /// Print JSON: {"club_id", "name", "key_id", "admin_key"}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// Add an API key to a club; prints it (shown only once).
    AddKey {
        /// The club's id.
        #[arg(long)]
        club: String,
        /// What the key may do.
        #[arg(long, value_enum, default_value = "auditor")]
        role: Role,
        /// Print JSON: {"club_id", "key_id", "role", "api_key"}.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum Role {
    Admin,
    Auditor,
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Make a new signing key current; older keys stay listed so old hands keep
    /// verifying. Restart the service to sign with the new key.
    Rotate {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
    /// List the signing keys, current first.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: StoreArgs,
    },
}

/// Logs go to stderr (stdout carries the `listening on` line and command output);
/// `RUST_LOG` filters them (default: `info` for `serve`, `warn` for the other commands).
fn init_tracing(serve: bool, json: bool) {
    let default = if serve { "info" } else { "warn" };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    // actix-http's one ERROR line per malformed request is counted, not logged
    // (`server::StreamErrors`).
    let registry = tracing_subscriber::registry()
        .with(filter)
        .with(services::server::StreamErrors);
    let fmt = tracing_subscriber::fmt::layer()
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr);
    if json {
        registry.with(fmt.json()).init();
    } else {
        registry.with(fmt).init();
    }
}

fn print_keys(keys: &Keyring, json: bool) -> anyhow::Result<()> {
    let list = keys.list();
    if json {
        println!("{}", serde_json::to_string_pretty(&list)?);
    } else {
        for k in list {
            println!(
                "{}  {}{}",
                k.key_id,
                k.public_key.to_hex(),
                if k.current { "  (current)" } else { "" }
            );
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = actix_web::rt::System::new().block_on(run(cli));
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `audit`: 0 when every check passes, 1 on any problem, 2 when it cannot run. Quarantined
/// hands are listed (`QUARANTINED …` lines) without making the exit code 1: each is a
/// known, recorded decision, and the checks around it (the match without it, its log
/// still failing) are made.
async fn audit(club: &str, json: bool, store: &StoreArgs) -> anyhow::Result<ExitCode> {
    let svc = match services::Service::open(store).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot audit: opening the store and keys: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let report = match services::audit::audit_club(&svc, club).await {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot audit: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for p in &report.problems {
            println!("{p}");
        }
        for q in &report.quarantined {
            println!("{q}");
        }
        println!("{}", report.summary());
    }
    Ok(if report.problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Command::Serve(a) => init_tracing(true, a.log_json),
        _ => init_tracing(false, false),
    }
    match cli.command {
        Command::Serve(args) => services::server::serve(args)
            .await
            .context("the service stopped with an error")?,
        Command::Migrate(store) => {
            store.open_store().await.context("migrating the store")?;
            println!("migrations applied ({})", store.describe());
        }
        Command::Club { command } => match command {
            ClubCommand::Create { name, json, store } => {
                let s = store.open_store().await.context("opening the store")?;
                let club = services::clubs::create_club(s.as_ref(), &name)
                    .await
                    .map_err(|e| anyhow::anyhow!("{}", e.detail))?;
                if json {
                    println!("{}", serde_json::to_string(&club)?);
                } else {
                    println!("club_id:   {}", club.club_id);
                    println!("admin_key: {}", club.admin_key);
                    println!("(the admin key is shown only now: store it safely)");
                }
            }
            ClubCommand::AddKey {
                club,
                role,
                json,
                store,
            } => {
                let s = store.open_store().await.context("opening the store")?;
                let role = match role {
                    Role::Admin => KeyRole::Admin,
                    Role::Auditor => KeyRole::Auditor,
                };
                let key = services::clubs::add_key(s.as_ref(), &club, role)
                    .await
                    .map_err(|e| anyhow::anyhow!("{}", e.detail))?;
                if json {
                    println!("{}", serde_json::to_string(&key)?);
                } else {
                    println!("key_id:  {}", key.key_id);
                    println!("role:    {}", key.role);
                    println!("api_key: {}", key.api_key);
                    println!("(the key is shown only now: store it safely)");
                }
            }
        },
        Command::Keys { command } => match command {
            KeysCommand::Rotate { json, store } => {
                let keys = Keyring::rotate(&store.data_dir, store.key_file.as_deref())?;
                print_keys(&keys, json)?;
            }
            KeysCommand::List { json, store } => {
                let keys = Keyring::load_or_create(&store.data_dir, store.key_file.as_deref())?;
                print_keys(&keys, json)?;
            }
        },
        Command::Audit { club, json, store } => return audit(&club, json, &store).await,
    }
    Ok(ExitCode::SUCCESS)
}
