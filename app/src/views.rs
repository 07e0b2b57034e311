//! Records shared by server and browser: what server functions return to pages.

pub mod audit;
/// The bill section of the order page and the bill import preview.
pub mod bills;
pub mod orders;
/// The rental plan page.
pub mod plan;
/// The rental after an approved order.
pub mod rentals;
pub mod rfq;
pub mod second_factor;
pub mod tco;

use crate::domain::{roles::TeamRole, second_factor::LoginStep};
use serde::{Deserialize, Serialize};

/// One team of a user, with the user's role there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Membership {
    pub team_id: i64,
    pub team_name: String,
    pub role: TeamRole,
}

/// One member of a team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub user_id: i64,
    pub email: String,
    pub display_name: String,
    pub role: TeamRole,
    /// Disabled users cannot sign in; their sessions have ended.
    pub disabled: bool,
}

/// A user as an administrator sees them in the list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
pub struct UserSummary {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
    pub disabled: bool,
}

/// A team with its member count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ssr", derive(sqlx::FromRow))]
pub struct TeamSummary {
    pub id: i64,
    /// Unique across the site.
    pub name: String,
    pub members: i64,
}

/// The signed-in user of a request, with their teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caller {
    pub user_id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
    /// Every team the user belongs to, with the role there.
    pub memberships: Vec<Membership>,
    /// The active team (one of `memberships`), if the user has any team.
    pub active_team: Option<i64>,
}

impl Caller {
    /// Whether the caller may use `capability` in the active team (their role there, plus what
    /// site administrators may do in a team they belong to).
    pub fn may(&self, capability: crate::domain::roles::Capability) -> bool {
        self.active_membership()
            .is_some_and(|m| crate::domain::roles::member_may(m.role, self.is_admin, capability))
    }

    /// The membership of the active team.
    pub fn active_membership(&self) -> Option<&Membership> {
        let id = self.active_team?;
        self.memberships.iter().find(|m| m.team_id == id)
    }
}

/// What every page needs to know about the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    /// The database has no user at all (and set-up never completed): the first-run page is open.
    pub setup_needed: bool,
    /// The signed-in user, if any.
    pub caller: Option<Caller>,
    /// Nobody is signed in although the request carried a session cookie: the session timed out,
    /// or was ended (user disabled, password changed elsewhere).
    pub session_ended: bool,
    /// The password matched and the sign-in waits for this second step (a code, or setting up
    /// the second factor the site requires): the sign-in page shows it.
    pub sign_in_step: Option<LoginStep>,
}

/// A team record as stored, with its row id (a vendor, a workload, an exchange rate).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored<T> {
    pub id: i64,
    pub record: T,
}

/// One benchmark run, as the run list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub id: i64,
    /// The quote the node was rented under, if entered.
    pub quote_id: Option<i64>,
    /// Revision number of that quote.
    pub revision: Option<i64>,
    /// Vendor and quote reference, e.g. "GPU Cloud · Q-17", when a quote is set.
    pub quote_label: Option<String>,
    /// The node as labelled by the uploader when no quote is set (may also accompany a quote).
    pub node_label: String,
    /// The workload run, if set.
    pub workload_id: Option<i64>,
    pub workload_name: Option<String>,
    /// Nodes the run used.
    pub nodes: i64,
    /// Verdict status: `valid`, `warn` or `invalid`.
    pub status: crate::domain::runs::RunStatus,
    /// The result's format (`vllm`, `nvidia_smi`, …).
    pub source_format: String,
    /// GPU seen in the run.
    pub gpu_name: Option<String>,
    /// GPUs seen per node.
    pub gpu_count: Option<i64>,
    /// GPUs the run used (named, or those that worked), when the telemetry tells.
    #[serde(default)]
    pub gpus_used: Option<i64>,
    /// The run has a telemetry series (so a telemetry chart).
    pub has_telemetry: bool,
    /// Primary throughput figure (steady state where telemetry allowed it).
    pub throughput_value: Option<f64>,
    /// Its unit (`tokens/s`, `samples/s`, …).
    pub throughput_unit: Option<String>,
    /// Concurrent requests the benchmark ran with, when the result says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    /// Latency statistics in milliseconds, keyed `"<metric>.<stat>"` (`tpot.p95`), when the
    /// result times requests.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub latencies: std::collections::BTreeMap<String, f64>,
    /// Input and output tokens per second together (vLLM's `total_token_throughput`), when the
    /// result says: with the output tokens it splits a cost per token into input and output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_tokens_per_s: Option<f64>,
    /// The run is sound apart from missing the workload's response-time target: a point on its
    /// node's curve of throughput against response time.
    #[serde(default)]
    pub on_curve: bool,
    /// Uploader's display name.
    pub created_by: String,
    /// Upload time (UTC, RFC 3339).
    pub created_at: String,
}

/// One uploaded file of a run, without its bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFileInfo {
    pub id: i64,
    /// File name as uploaded (made safe).
    pub file_name: String,
    /// Size in bytes.
    pub size: i64,
    /// SHA-256, hex.
    pub sha256: String,
    /// The format it was read as.
    pub format: String,
    /// The run that holds it, if saved.
    pub run_id: Option<i64>,
}

/// A user's API token, as listed (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiTokenInfo {
    pub id: i64,
    /// The name the user gave it.
    pub name: String,
    /// Its first characters.
    pub prefix: String,
    /// Team it is scoped to.
    pub team_name: String,
    /// Role it acts with.
    pub role: TeamRole,
    /// Creation time (UTC).
    pub created_at: String,
    /// Last use (UTC), if used.
    pub last_used_at: Option<String>,
    /// Revocation time (UTC), if revoked.
    pub revoked_at: Option<String>,
    /// When it expires (UTC).
    pub expires_at: Option<String>,
    /// Why it was revoked, if it was.
    pub revoked_reason: Option<crate::domain::tokens::RevokeReason>,
    /// Whether it had expired when the list was read.
    pub expired: bool,
}

/// One bar of the throughput comparison: the best trusted run of one quote (or node label).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareBar {
    /// Quote label, or the node label when no quote is set.
    pub label: String,
    /// The quote, if any.
    pub quote_id: Option<i64>,
    /// The run the figure comes from.
    pub run_id: i64,
    /// Steady-state throughput per node.
    pub per_node: f64,
    /// GPU seen.
    pub gpu_name: Option<String>,
    /// GPUs seen per node.
    pub gpus: Option<u32>,
}

/// A bottleneck: much more compute on paper, barely more measured throughput (the extra GPUs
/// wait on something else, so paying for them buys nothing).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BottleneckNote {
    /// The node with more theoretical compute.
    pub stronger: String,
    /// The node with less.
    pub weaker: String,
    /// Theoretical compute ratio.
    pub compute_ratio: f64,
    /// Measured throughput ratio.
    pub measured_ratio: f64,
}

/// Steady-state throughput of the quotes for one workload, in one unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareGroup {
    /// The workload, if runs name one.
    pub workload_id: Option<i64>,
    pub workload_name: Option<String>,
    /// The throughput unit.
    pub unit: String,
    /// Bars, highest first.
    pub bars: Vec<CompareBar>,
    pub bottlenecks: Vec<BottleneckNote>,
}

/// What a run is made of and what it ran on, as the uploader chose it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRequest {
    /// The uploaded files (one result and/or one telemetry file).
    pub files: Vec<i64>,
    /// The quote the node was rented under.
    pub quote_id: Option<i64>,
    /// Its revision number; the latest when not given.
    pub revision: Option<i64>,
    /// A label for the node when the quote is not entered yet.
    pub node_label: String,
    /// The workload that ran.
    pub workload_id: Option<i64>,
    /// Nodes used (1 when not given).
    pub nodes: Option<i64>,
    pub note: String,
    /// When the run started, on the telemetry's clock (`YYYY-MM-DDTHH:MM[:SS]`), for a result
    /// that records no time of its own (MLPerf's summary, a script's figures).
    #[serde(default)]
    pub started_at: Option<String>,
    /// The server reserves memory up front (vLLM, SGLang, TensorRT-LLM): the memory seen is
    /// not the workload's need.
    #[serde(default)]
    pub reserves_memory: bool,
    /// The GPUs (nvidia-smi indices) the run used, when the engineer names them.
    #[serde(default)]
    pub gpus: Vec<u32>,
    /// The run stands for the workload although its model or precision differs.
    #[serde(default)]
    pub stands_for_workload: bool,
}
