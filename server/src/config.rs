//! Settings of the server, from flags or `NODELEDGER_*` environment variables.

use clap::Args;
use std::{net::SocketAddr, path::PathBuf, time::Duration};

/// Default database file.
pub const DEFAULT_DB: &str = "./data/nodeledger.db";

/// Where the database lives (shared by every subcommand).
#[derive(Args, Clone, Debug)]
pub struct DbArgs {
    /// SQLite database file (created on first start).
    #[arg(long = "db", env = "NODELEDGER_DB", default_value = DEFAULT_DB, global = true)]
    pub path: String,
}

/// Settings of `nodeledger serve`.
#[derive(Args, Clone, Debug)]
pub struct ServeConfig {
    /// Address to listen on.
    #[arg(long, env = "NODELEDGER_ADDR", default_value = "127.0.0.1:3000")]
    pub addr: SocketAddr,
    /// The URL people use to reach the site, e.g. `https://nodeledger.example.com`. Its origin
    /// is what cross-site checks compare with; with `https` the session cookie is `Secure`.
    /// Defaults to `http://<addr>` (plain http is meant for localhost only).
    #[arg(long, env = "NODELEDGER_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Folder with the built site (`pkg/` with the WASM bundle, CSS, and public files).
    #[arg(long, env = "LEPTOS_SITE_ROOT", default_value = "target/site")]
    pub site_root: PathBuf,
    /// Minutes without a request after which a session ends.
    #[arg(long, env = "NODELEDGER_IDLE_TIMEOUT_MIN", default_value_t = 30)]
    pub idle_timeout_min: u64,
    /// Hours after sign-in after which a session ends regardless of activity.
    #[arg(long, env = "NODELEDGER_ABSOLUTE_TIMEOUT_H", default_value_t = 12)]
    pub absolute_timeout_h: u64,
    /// Largest request body accepted, in bytes (uploads raise it per route).
    #[arg(long, env = "NODELEDGER_BODY_LIMIT", default_value_t = 2 * 1024 * 1024)]
    pub body_limit: usize,
    /// Largest benchmark result or telemetry file accepted, in MB (10^6 bytes).
    #[arg(long, env = "NODELEDGER_RUN_FILE_LIMIT_MB", default_value_t = 64)]
    pub run_file_limit_mb: u64,
    /// The optional to-do mail.
    #[command(flatten)]
    pub mail: MailConfig,
    // Run uploads: where files being received are kept until stored.
    /// Folder where uploaded run files are kept while they are received and read (deleted once
    /// stored or refused). Default: the system's temporary folder.
    #[arg(long, env = "NODELEDGER_UPLOAD_DIR")]
    pub upload_dir: Option<PathBuf>,
    /// Uploaded run files read at once, process-wide; another waits on disk up to 10 s for a
    /// slot, then is answered 503 with Retry-After. Each reading takes at most one result's
    /// memory (≈ 110 MB).
    #[arg(long, env = "NODELEDGER_PARSE_SLOTS", default_value_t = 2)]
    pub parse_slots: usize,
    // -- Password throttle --
    /// Header a reverse proxy in front of the server appends the client address to, e.g.
    /// `X-Forwarded-For`; its last entry is then taken as the client (for throttling and the log
    /// of failed sign-ins). Unset: the TCP peer is the client and the header is never trusted.
    /// Set it only when every request comes through that proxy.
    #[arg(long, env = "NODELEDGER_TRUSTED_PROXY_HEADER", value_parser = crate::client_addr::parse_header_name)]
    pub trusted_proxy_header: Option<http::HeaderName>,
    /// Time limits on requests.
    #[command(flatten)]
    pub time_limits: TimeLimitConfig,
    /// File holding the key that seals second-factor secrets in the database; created (mode
    /// 0600) at first start. Default: `nodeledger.key` in the database's folder. Keep it, and back
    /// it up, apart from the database: without it no authenticator code can be checked.
    #[arg(long, env = "NODELEDGER_KEY_FILE")]
    pub key_file: Option<PathBuf>,
}

/// Time limits on requests: a stuck handler gets 503, a stalled streaming page is cut.
#[derive(Args, Clone, Debug)]
pub struct TimeLimitConfig {
    /// Seconds a request may take until its answer starts (reading an upload included).
    #[arg(long, env = "NODELEDGER_REQUEST_TIMEOUT_S", default_value_t = 300)]
    pub request_timeout_s: u64,
    /// Seconds a streaming answer (a page that is still rendering) may go without sending more;
    /// then it is cut and logged with its route.
    #[arg(long, env = "NODELEDGER_STALL_TIMEOUT_S", default_value_t = 30)]
    pub stall_timeout_s: u64,
}

impl Default for TimeLimitConfig {
    fn default() -> Self {
        Self {
            request_timeout_s: 300,
            stall_timeout_s: 30,
        }
    }
}

impl TimeLimitConfig {
    /// The limits, each at least a second.
    pub fn limits(&self) -> crate::timeouts::TimeLimits {
        crate::timeouts::TimeLimits {
            answer: Duration::from_secs(self.request_timeout_s.max(1)),
            stall: Duration::from_secs(self.stall_timeout_s.max(1)),
        }
    }
}

/// The optional to-do mail (off unless an SMTP server is named): every few minutes each user is
/// mailed the to-do entries that are new since their last mail.
#[derive(Args, Clone, Debug, Default)]
pub struct MailConfig {
    /// SMTP server to send to-do mail through, e.g. `smtps://user:pass@mail.example.com:465`
    /// (implicit TLS) or `smtp://user:pass@mail.example.com:587?tls=required` (STARTTLS). Unset:
    /// no mail is sent.
    #[arg(long, env = "NODELEDGER_SMTP_URL")]
    pub smtp_url: Option<String>,
    /// Sender of the to-do mail, e.g. `NodeLedger <nodeledger@example.com>` (needed with
    /// `--smtp-url`).
    #[arg(long, env = "NODELEDGER_SMTP_FROM")]
    pub smtp_from: Option<String>,
    /// Minutes between two passes of the to-do mail.
    #[arg(long, env = "NODELEDGER_MAIL_INTERVAL_MIN", default_value_t = 5)]
    pub mail_interval_min: u64,
}

impl MailConfig {
    /// Time between two passes (at least a minute).
    pub fn interval(&self) -> Duration {
        Duration::from_secs(self.mail_interval_min.max(1) * 60)
    }
}

impl ServeConfig {
    /// The public URL, without a trailing slash.
    pub fn public_url(&self) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{}", self.addr))
            .trim_end_matches('/')
            .to_string()
    }

    /// Whether the session cookie must carry `Secure` (served over https). URL schemes are
    /// case-insensitive (RFC 3986): `HTTPS://…` is https too.
    pub fn secure_cookies(&self) -> bool {
        self.public_url()
            .get(..8)
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
    }

    /// Idle timeout.
    pub fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.idle_timeout_min.max(1) * 60)
    }

    /// Absolute timeout.
    pub fn absolute_timeout(&self) -> Duration {
        Duration::from_secs(self.absolute_timeout_h.max(1) * 3600)
    }

    /// The second-factor key file of the database at `db_path`.
    pub fn key_file(&self, db_path: &str) -> PathBuf {
        self.key_file
            .clone()
            .unwrap_or_else(|| app::store::secret_key::default_path(db_path))
    }

    /// Largest run file, bytes.
    pub fn run_file_limit(&self) -> u64 {
        self.run_file_limit_mb.max(1) * 1_000_000
    }

    /// Uploaded files read at once (at least one).
    pub fn parse_slots(&self) -> usize {
        self.parse_slots.max(1)
    }

    /// Where uploaded run files wait while received: `--upload-dir`, else the system's
    /// temporary folder.
    pub fn upload_staging_dir(&self) -> PathBuf {
        self.upload_dir.clone().unwrap_or_else(std::env::temp_dir)
    }

    /// Settings for tests: an unused address and the given site root.
    pub fn for_tests() -> Self {
        Self {
            addr: "127.0.0.1:3000".parse().expect("valid address"),
            public_url: None,
            site_root: PathBuf::from("target/site"),
            idle_timeout_min: 30,
            absolute_timeout_h: 12,
            body_limit: 2 * 1024 * 1024,
            run_file_limit_mb: 64,
            mail: MailConfig::default(),
            time_limits: TimeLimitConfig::default(),
            trusted_proxy_header: None,
            upload_dir: None,
            parse_slots: 2,
            key_file: None,
        }
    }
}
