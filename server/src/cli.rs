//! The command line: `serve` (default), `migrate`, `user add`, `quotes`, `bench parse`,
//! `runs rejudge`, `tco`, `plan`, `audit verify`, `backup`.

use crate::{
    cli_args,
    config::{DbArgs, ServeConfig},
    router,
};
use app::{
    auth::{AppState, AuthConfig, password, setup_code::SetupCode},
    domain::{accounts, roles::TeamRole, runs},
    error::AppError,
    i18n::Msg,
    services::accounts::{NewUser, Origin, TeamChoice, create_user},
    store::{self, sessions::SqliteSessionStore},
};
use axum::serve::ListenerExt;
use clap::{Parser, Subcommand};
use std::{
    io::{BufRead, IsTerminal},
    process::ExitCode,
    time::Duration,
};
use tower_sessions::ExpiredDeletion;

mod serve;
use serve::serve;

/// NodeLedger: compare GPU node quotes by what they really cost.
#[derive(Parser, Debug)]
#[command(name = "nodeledger", version, about)]
pub struct Cli {
    #[command(flatten)]
    db: DbArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// `nodeledger` without a subcommand serves, with settings from the environment.
#[derive(Parser, Debug)]
struct ServeDefaults {
    #[command(flatten)]
    serve: ServeConfig,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the web application (the default).
    Serve(ServeConfig),
    /// Apply pending database migrations and exit.
    Migrate,
    /// Manage users.
    #[command(subcommand)]
    User(UserCommand),
    /// Import and export vendor quotes as CSV.
    #[command(subcommand)]
    Quotes(crate::quotes_cli::QuotesCommand),
    /// Benchmark results.
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Stored benchmark runs.
    #[command(subcommand)]
    Runs(crate::runs::cli::RunsCommand),
    /// The tamper-evident audit trail of orders.
    #[command(subcommand)]
    Audit(crate::audit_cli::AuditCommand),
    /// Total cost of ownership of a self-contained scenario (quotes' price sheets, workload,
    /// assumptions, measured throughput), ranked, as JSON on standard output.
    ///
    /// Reads a bare scenario or the cost page's JSON export (`{"scenario": …, "result": …}`,
    /// "Export JSON") as it is. For an export, standard error says whether the stored result
    /// equals the one computed now, quote by quote; exit code 1 when it differs.
    Tco {
        /// The scenario file (example: app/domain/src/tco/example-scenario.json), or a
        /// cost-comparison.json exported from the cost page.
        scenario: std::path::PathBuf,
    },
    /// Plan a rental: for every quote, node count (1 up to the vendor's capacity, at most 16
    /// unless `plan.max_nodes` says otherwise) and pricing (on demand, monthly commitment), the
    /// total and the finish; the Pareto front (no plan both cheaper and sooner), the
    /// recommendation (cheapest in time and within budget, not at risk when possible) and why
    /// every other plan lost, as JSON on standard output.
    ///
    /// The file is `{"scenario": <a tco scenario>, "plan": {deadline, budget, gpu use,
    /// capacity and lead time per quote}}`; schema: app/domain/src/plan/plan.schema.json.
    Plan {
        /// The plan file (example: app/domain/src/plan/example-plan.json).
        file: std::path::PathBuf,
    },
    // Backup and restore: `crate::backup`.
    /// Write an online, consistent copy of the database to FILE while the server runs (SQLite
    /// `VACUUM INTO`), check it and print its size and audit head. Refuses an existing FILE
    /// unless --force. Restore: README, "Backup and restore".
    Backup(crate::backup::BackupArgs),
    // `nodeledger probe`: `crate::probe`.
    /// Measure a rented node with your own workload in one command: check the token, quote and
    /// workload with the server, record the node, sample nvidia-smi while COMMAND runs, then
    /// upload result, telemetry and node facts and print the verdict and the run's URL. The
    /// token is read from NODELEDGER_TOKEN.
    Probe(crate::probe::ProbeArgs),
}

#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Read a benchmark result (vLLM, llama-bench, MLPerf, NodeLedger JSON) or nvidia-smi
    /// telemetry and print the canonical `nodeledger.run/v1` JSON, with `warmup_s` and the
    /// `verdict` (status and reasons) judged from the file alone.
    Parse {
        /// The file.
        file: std::path::PathBuf,
        /// Its format.
        #[arg(long, default_value = cli_args::AUTO,
              value_parser = cli_args::named_or(cli_args::AUTO, runs::Format::ALL, runs::Format::as_str))]
        format: cli_args::Choice<runs::Format>,
        /// nvidia-smi telemetry of the same run, merged with the result as an upload is.
        #[arg(long)]
        telemetry: Option<std::path::PathBuf>,
        /// The server reserved memory at start (vLLM, SGLang, TensorRT-LLM): judge the
        /// headroom on the workload's need, not on the memory seen.
        #[arg(long)]
        reserves_memory: bool,
        /// The GPUs the run used, as nvidia-smi numbers them (`0,1`); default: those that worked.
        #[arg(long, value_delimiter = ',')]
        gpus: Vec<u32>,
        /// When the run started, on the telemetry's clock (`YYYY-MM-DD HH:MM[:SS]`), for a result
        /// that states no time of its own (SGLang, llama-bench): the server's start-up before it
        /// is then not taken for the run's warm-up. A result with its own time keeps it.
        #[arg(long)]
        started_at: Option<String>,
    },
}

#[derive(Subcommand, Debug)]
enum UserCommand {
    /// Add a user. The password is read from standard input (asked twice on a terminal),
    /// never from the command line.
    Add {
        /// E-mail address (the sign-in name).
        #[arg(long)]
        email: String,
        /// Display name (defaults to the part of the e-mail before `@`).
        #[arg(long)]
        name: Option<String>,
        /// `admin` for a site administrator, or a team role (needs --team).
        #[arg(long, value_parser = cli_args::named_or(cli_args::ADMIN, &TeamRole::ALL, TeamRole::as_str))]
        role: cli_args::Choice<TeamRole>,
        /// Team for a team role (created if it does not exist).
        #[arg(long)]
        team: Option<String>,
    },
}

/// A failure of a command, printed on standard error.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Open(#[from] store::db::OpenError),
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Parses the command line and runs the command.
pub async fn run() -> ExitCode {
    let cli = Cli::parse();
    let serving = matches!(cli.command, None | Some(Command::Serve(_)));
    init_tracing(if serving { "info" } else { "warn" });
    let result = match cli.command {
        None => serve(&cli.db, ServeDefaults::parse_from(["nodeledger"]).serve).await,
        Some(Command::Serve(cfg)) => serve(&cli.db, cfg).await,
        Some(Command::Migrate) => migrate(&cli.db).await,
        Some(Command::User(UserCommand::Add {
            email,
            name,
            role,
            team,
        })) => add_user(&cli.db, email, name, role.0, team).await,
        Some(Command::Bench(BenchCommand::Parse {
            file,
            format,
            telemetry,
            reserves_memory,
            gpus,
            started_at,
        })) => {
            let args = crate::tools_cli::BenchParse {
                file,
                format: format.0,
                telemetry,
                reserves_memory,
                gpus,
                started_at,
            };
            let parsed = crate::tools_cli::bench_parse(&args).map(|p| {
                eprint!("{}", p.summary);
                p.json
            });
            return print_or_fail(parsed);
        }
        Some(Command::Tco { scenario }) => return tco(&scenario),
        Some(Command::Plan { file }) => return print_or_fail(crate::tools_cli::plan(&file)),
        Some(Command::Audit(command)) => return crate::audit_cli::run(&cli.db.path, command).await,
        Some(Command::Runs(command)) => return crate::runs::cli::run(&cli.db.path, command).await,
        // Backup and restore.
        Some(Command::Backup(args)) => return crate::backup::run(&cli.db.path, args).await,
        // `nodeledger probe`.
        Some(Command::Probe(args)) => return crate::probe::run(args).await,
        Some(Command::Quotes(command)) => {
            return match crate::quotes_cli::run(&cli.db.path, command).await {
                Ok(()) => ExitCode::SUCCESS,
                Err((code, msg)) => {
                    eprintln!("nodeledger: {msg}");
                    ExitCode::from(code)
                }
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            eprintln!("nodeledger: {msg}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("nodeledger: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `nodeledger tco`: the result on standard output; for an export, whether the stored result
/// still holds on standard error (exit 1 when it does not).
fn tco(path: &std::path::Path) -> ExitCode {
    let run = match crate::tools_cli::tco(path) {
        Ok(run) => run,
        Err(msg) => return print_or_fail(Err(msg)),
    };
    println!("{}", run.json);
    match run.stored {
        None => ExitCode::SUCCESS,
        Some(differences) if differences.is_empty() => {
            eprintln!("nodeledger: the stored result equals the recomputed one");
            ExitCode::SUCCESS
        }
        Some(differences) => {
            eprintln!("nodeledger: the stored result differs from the recomputed one:");
            for d in differences {
                eprintln!("  {d}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Prints a command's JSON (exit 0) or its error on standard error (exit 2: bad input).
fn print_or_fail(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("nodeledger: {msg}");
            ExitCode::from(2)
        }
    }
}

fn init_tracing(default_level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_env("NODELEDGER_LOG").unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(format!("{default_level},sqlx=warn,tower_sessions=warn"))
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

async fn migrate(db: &DbArgs) -> Result<(), CliError> {
    let pool = store::connect(&db.path).await?;
    if let Some(done) = rejudge_on_new_rules(&pool).await? {
        for (id, before, now) in &done.changed {
            println!(
                "run {id}: {} -> {}",
                crate::runs::cli::word(*before),
                crate::runs::cli::word(*now)
            );
        }
        println!(
            "run rules changed: re-judged {} runs, {} changed status",
            done.runs,
            done.changed.len()
        );
    }
    println!("database {} is up to date", db.path);
    pool.close().await;
    Ok(())
}

/// Judges every stored run again when the validity rules are newer than the verdicts (a run
/// judged valid before the sanity rules may be broken evidence), logging each verdict that
/// changed.
async fn rejudge_on_new_rules(pool: &store::Db) -> Result<Option<app::services::runs::Rejudged>, CliError> {
    let done = app::services::runs::rejudge_if_rules_changed(pool)
        .await
        .map_err(|e| CliError::Usage(format!("re-judging the stored runs failed, nothing changed: {e}")))?;
    if let Some(done) = &done {
        for (id, before, now) in &done.changed {
            tracing::warn!(
                run = id,
                before = crate::runs::cli::word(*before),
                now = crate::runs::cli::word(*now),
                "run verdict changed under the new rules"
            );
        }
        tracing::info!(
            runs = done.runs,
            changed = done.changed.len(),
            "stored runs judged with the new rules"
        );
    }
    Ok(done)
}

/// Reads the new password and its confirmation: asked twice on a terminal, else the first line
/// of standard input (taken as both). [`NewUser::check`] then holds it to the site's rules.
fn read_password() -> Result<(String, String), CliError> {
    let (first, second) = if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password: ")?;
        let second = rpassword::prompt_password("Repeat password: ")?;
        (first, second)
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line)?;
        let password = line.trim_end_matches(['\r', '\n']).to_string();
        (password.clone(), password)
    };
    Ok((first, second))
}

async fn add_user(
    db: &DbArgs,
    email: String,
    name: Option<String>,
    team_role: Option<TeamRole>,
    team: Option<String>,
) -> Result<(), CliError> {
    let en = |m| CliError::Usage(app::i18n::Locale::En.t(m).to_string());
    let email = accounts::normalize_email(&email).map_err(en)?;
    let name = accounts::normalize_display_name(
        name.as_deref()
            .unwrap_or_else(|| email.split('@').next().unwrap_or(&email)),
    )
    .map_err(en)?;
    let team = match (team_role, team) {
        (Some(r), Some(t)) => Some((r, accounts::normalize_team_name(&t).map_err(en)?)),
        (Some(_), None) => return Err(CliError::Usage("a team role needs --team NAME".into())),
        (None, Some(_)) => return Err(CliError::Usage("--team goes with a team role, not admin".into())),
        (None, None) => None,
    };
    let (password, confirmation) = read_password()?;
    let user = NewUser::check(&email, &name, password, &confirmation, team_role.is_none())
        .map_err(|e| CliError::Usage(e.localized(app::i18n::Locale::En)))?;
    let pool = store::connect(&db.path).await?;
    let choice = team.clone().map(|(role, name)| (TeamChoice::Named(name), role));
    let created = create_user(&pool, user, choice, Origin::CommandLine)
        .await
        .map_err(|e| match e {
            AppError::Conflict(Msg::EmailTaken) => {
                CliError::Usage(format!("a user with e-mail {email} already exists"))
            }
            e => CliError::Usage(e.localized(app::i18n::Locale::En)),
        })?;
    let id = created.user_id;
    match team {
        Some((role, t)) => println!("added user {email} (id {id}) as {} in team {t}", role.as_str()),
        None => println!("added administrator {email} (id {id})"),
    }
    pool.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{BenchCommand, Cli, Command, UserCommand};
    use clap::{CommandFactory, Parser};

    #[test]
    fn the_command_line_is_well_formed_and_reads_formats_and_roles_by_their_domain_names() {
        Cli::command().debug_assert();
        let cli =
            Cli::try_parse_from(["nodeledger", "bench", "parse", "r.json", "--format", "vllm-legacy"]).expect("parses");
        let Some(Command::Bench(BenchCommand::Parse { format, .. })) = cli.command else {
            panic!("bench parse")
        };
        assert_eq!(format.0, Some(app::domain::runs::Format::VllmLegacy));
        let cli =
            Cli::try_parse_from(["nodeledger", "user", "add", "--email", "a@b.c", "--role", "admin"]).expect("parses");
        let Some(Command::User(UserCommand::Add { role, .. })) = cli.command else {
            panic!("user add")
        };
        assert_eq!(role.0, None);
    }
}
