//! `nodeledger bench parse`, `nodeledger tco` and `nodeledger plan`: the parsers, the cost
//! engine and the planner for scripts, the same code the pages use.

use app::domain::{plan, runs, tco};
use std::{
    fs::File,
    io::BufReader,
    path::{Path, PathBuf},
};

/// Largest input file read whole (telemetry in `nvidia_smi` format is streamed instead).
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

fn read(path: &Path) -> Result<Vec<u8>, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .len();
    if size > MAX_FILE_BYTES {
        return Err(format!(
            "{}: {size} bytes is over the {MAX_FILE_BYTES}-byte limit",
            path.display()
        ));
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// What `bench parse` is asked to read and what the engineer says of the run.
#[derive(Clone, Debug)]
pub struct BenchParse {
    /// The result (or telemetry) file.
    pub file: PathBuf,
    /// Its format (`None`: detect from the content).
    pub format: Option<runs::Format>,
    /// An nvidia-smi telemetry file of the same run, merged as an upload merges it.
    pub telemetry: Option<PathBuf>,
    /// The server reserved memory up front.
    pub reserves_memory: bool,
    /// The GPUs (nvidia-smi indices) the run used.
    pub gpus: Vec<u32>,
    /// When the run started on the telemetry's clock, for a result without a time of its own.
    pub started_at: Option<String>,
}

/// What `bench parse` prints: the judged canonical run as JSON (standard output) and a summary
/// a person reads (standard error): the verdict, the GPUs used, whether memory is reserved.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// Canonical JSON.
    pub json: String,
    /// Summary lines.
    pub summary: String,
}

/// Telemetry in `nvidia_smi` format is streamed; everything else is read whole.
fn parse_file(path: &Path, format: Option<runs::Format>) -> Result<runs::CanonicalRun, String> {
    let fail = |e: runs::ParseError| format!("{}: {e}", path.display());
    if format.is_some_and(runs::Format::is_telemetry) {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        return runs::parse_nvidia_smi(BufReader::new(file)).map_err(fail);
    }
    runs::parse(&read(path)?, format).map_err(fail)
}

/// Parses a benchmark result or telemetry file (with its telemetry, when given), judges it on
/// its own (duration, warm-up, throttling, the GPUs used, a reservation, MLPerf validity; no
/// quote, the default 20 % headroom) and returns the canonical run as JSON with its `verdict`
/// and `warmup_s` (`null` when the file cannot tell), and a summary for people.
pub fn bench_parse(args: &BenchParse) -> Result<Parsed, String> {
    let mut run = parse_file(&args.file, args.format)?;
    if let Some(path) = &args.telemetry {
        run = runs::merge(run, parse_file(path, Some(runs::Format::NvidiaSmi))?);
    }
    let started_at = match args.started_at.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(text) => Some(runs::stated_start(text).ok_or_else(|| {
            format!("--started-at {text}: not a time; write YYYY-MM-DD HH:MM[:SS] on the telemetry's clock")
        })?),
    };
    let stated = app::services::runs::Stated {
        started_at,
        reserves_memory: args.reserves_memory,
        gpus: args.gpus.clone(),
        stands_for_workload: false,
    };
    stated.apply(&mut run);
    let run = runs::assess(run, &runs::VerdictContext::default());
    let summary = summary(&run);
    let mut value = serde_json::to_value(&run).map_err(|e| e.to_string())?;
    if let Some(obj) = value.as_object_mut() {
        obj.entry("warmup_s").or_insert(serde_json::Value::Null);
    }
    let json = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
    Ok(Parsed { json, summary })
}

/// The verdict, the GPUs used and the memory reading, in English, one per line, then each reason.
fn summary(run: &runs::CanonicalRun) -> String {
    use app::{i18n::Locale, texts::runs::reason_text};
    let list = |g: &[u32]| g.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let verdict = run.verdict.as_ref();
    let status = verdict.map_or("not judged", |v| match v.status {
        runs::RunStatus::Valid => "valid",
        runs::RunStatus::Warn => "warn",
        runs::RunStatus::Invalid => "invalid",
    });
    let reasons = verdict.map(|v| v.reasons.as_slice()).unwrap_or_default();
    let idle: Vec<u32> = reasons
        .iter()
        .find_map(|r| match &r.reason {
            runs::Reason::GpusUsed { idle, .. } => Some(idle.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let gpus = match (run.gpus_used.is_empty(), idle.is_empty()) {
        (true, _) => "not in the file".to_string(),
        (false, true) => list(&run.gpus_used),
        (false, false) => format!("{} (idle, left out: {})", list(&run.gpus_used), list(&idle)),
    };
    let reserved = reasons.iter().find_map(|r| match &r.reason {
        runs::Reason::VramReserved { source, .. } => Some(match source {
            runs::ReserveSource::Stated => "reserved by the server (stated)",
            runs::ReserveSource::Telemetry => "reserved by the server (seen in the telemetry)",
        }),
        _ => None,
    });
    let mut out = format!(
        "verdict: {status}\nGPUs used: {gpus}\nmemory: {}\n",
        reserved.unwrap_or("as used by the workload (no reservation)")
    );
    for r in reasons {
        let severity = match r.severity {
            runs::Severity::Info => "info",
            runs::Severity::Warn => "warn",
            runs::Severity::Invalid => "invalid",
        };
        out.push_str(&format!("  {severity}: {}\n", reason_text(Locale::En, &r.reason)));
    }
    out
}

/// What a cost file holds: a bare scenario, or the cost page's export (`GET /tco/export.json`,
/// `{ "scenario": …, "result": … }`) with the result computed when it was exported. The
/// export's rental plan is `nodeledger plan`'s to read, and passed over here.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportedComparison {
    scenario: Option<tco::Scenario>,
    #[serde(default)]
    result: Option<tco::ScenarioResult>,
    #[serde(default, rename = "plan_file")]
    _plan_file: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "plan_result")]
    _plan_result: Option<serde::de::IgnoredAny>,
    #[serde(default, rename = "plan_error")]
    _plan_error: Option<serde::de::IgnoredAny>,
}

/// What `nodeledger tco` found: the recomputed result, and whether it equals the one stored in
/// an exported file.
#[derive(Debug)]
pub struct TcoRun {
    /// The result computed now, as JSON for standard output.
    pub json: String,
    /// `None` for a bare scenario; else the differences from the stored result (empty: same).
    pub stored: Option<Vec<String>>,
}

/// Reads a cost file: an exported comparison (it has a `scenario` key) or a bare scenario.
fn read_cost_file(path: &Path, bytes: &[u8]) -> Result<(tco::Scenario, Option<tco::ScenarioResult>), String> {
    let at = |e: &serde_json::Error| format!("{}: line {}, column {}: {e}", path.display(), e.line(), e.column());
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| at(&e))?;
    let keys = value
        .as_object()
        .map(|o| (o.contains_key("scenario"), o.contains_key("workload")));
    match keys {
        Some((true, _)) => {
            let file: ExportedComparison = serde_json::from_slice(bytes).map_err(|e| at(&e))?;
            let scenario = file.scenario.ok_or_else(|| {
                format!(
                    "{}: the exported file holds no scenario (the cost page had no quote to compare)",
                    path.display()
                )
            })?;
            Ok((scenario, file.result))
        }
        Some((false, true)) => Ok((serde_json::from_slice(bytes).map_err(|e| at(&e))?, None)),
        _ => Err(format!(
            "{}: expected a scenario (an object with workload, assumptions and quotes) or the cost \
             page's JSON export (an object with scenario and result)",
            path.display()
        )),
    }
}

/// How the recomputed result differs from the stored one, quote by quote; empty when equal.
fn differences(stored: &tco::ScenarioResult, now: &tco::ScenarioResult) -> Vec<String> {
    if stored == now {
        return Vec::new();
    }
    let mut found = Vec::new();
    if stored.compare_currency != now.compare_currency {
        found.push(format!(
            "compared in {} (stored: {})",
            now.compare_currency, stored.compare_currency
        ));
    }
    for q in &now.quotes {
        match stored.quotes.iter().find(|s| s.id == q.id) {
            None => found.push(format!("quote {}: not in the stored result", q.id)),
            Some(s) if s.compared_total != q.compared_total || s.rank != q.rank => found.push(format!(
                "quote {}: rank {} total {} (stored: rank {} total {})",
                q.id, q.rank, q.compared_total, s.rank, s.compared_total
            )),
            Some(s) if s != q => found.push(format!("quote {}: same total, the breakdown differs", q.id)),
            Some(_) => {}
        }
    }
    for s in stored
        .quotes
        .iter()
        .filter(|s| !now.quotes.iter().any(|q| q.id == s.id))
    {
        found.push(format!("quote {}: in the stored result only", s.id));
    }
    if found.is_empty() {
        found.push("the title differs".to_owned());
    }
    found
}

/// Runs a cost file (a bare scenario or the cost page's `{scenario, result}` export) and
/// returns the ranked breakdown as JSON; for an export, also whether the stored result is the
/// one the engine computes now.
pub fn tco(path: &Path) -> Result<TcoRun, String> {
    let bytes = read(path)?;
    let (scenario, stored) = read_cost_file(path, &bytes)?;
    let result = tco::run_scenario(&scenario).map_err(|e| format!("{}: {e}", path.display()))?;
    let json = serde_json::to_string_pretty(&result).map_err(|e| e.to_string())?;
    Ok(TcoRun {
        json,
        stored: stored.map(|stored| differences(&stored, &result)),
    })
}

/// Runs a plan file (`{"scenario": …, "plan": …}`, or the cost page's JSON export, whose
/// `plan_file` is one) and returns the [`plan::PlanResult`] as JSON. A file that does not read names the line, column and field; a plan the planner
/// rejects names the field (and quote) and what to change.
pub fn plan(path: &Path) -> Result<String, String> {
    let bytes = read(path)?;
    let input = read_plan_file(path, &bytes)?;
    planned(path, &input)
}

/// Reads a plan file, or the cost page's export, whose `plan_file` is one.
fn read_plan_file(path: &Path, bytes: &[u8]) -> Result<plan::PlanScenario, String> {
    let schema = "schema: app/domain/src/plan/plan.schema.json";
    let at = |e: &serde_json::Error| {
        format!(
            "{}: line {}, column {}: {e} ({schema})",
            path.display(),
            e.line(),
            e.column()
        )
    };
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| at(&e))?;
    if let Some(file) = value.get("plan_file") {
        return serde_json::from_value(file.clone())
            .map_err(|e| format!("{}: plan_file: {e} ({schema})", path.display()));
    }
    serde_json::from_slice(bytes).map_err(|e| at(&e))
}

/// The planner's result for `input` (read from `path`) as JSON, or what to fix.
fn planned(path: &Path, input: &plan::PlanScenario) -> Result<String, String> {
    let result = plan::plan(input).map_err(|e| match plan_hint(&e) {
        Some(hint) => format!("{}: {e} — {hint}", path.display()),
        None => format!("{}: {e}", path.display()),
    })?;
    serde_json::to_string_pretty(&result).map_err(|e| e.to_string())
}

/// What to change for the planner's own rules (the cost engine's errors speak for themselves).
fn plan_hint(e: &tco::TcoError) -> Option<&'static str> {
    Some(match e.field {
        "plan.deadline_at" if e.reason.code() == "out_of_range" && plan_has_both(e) => {
            "give either plan.deadline_h or plan.deadline_at, not both"
        }
        "plan.deadline_at" => "set plan.deadline_at after plan.earliest_start",
        "plan.earliest_start" => "plan.deadline_at needs plan.earliest_start (or give plan.deadline_h instead)",
        "plan.quotes.id" => "each entry of plan.quotes names a quote of scenario.quotes, once",
        "plan.quotes.lead_time_days" => "give either lead_time_h or lead_time_days, not both",
        "plan.quotes.capacity_nodes" => "capacity_nodes is at least 1; leave it out when the vendor did not state it",
        "plan.max_nodes" => "plan.max_nodes is 1 to 64; leave it out for 16",
        _ => return None,
    })
}

/// Whether a `plan.deadline_at` error is the "both deadlines" one.
fn plan_has_both(e: &tco::TcoError) -> bool {
    matches!(&e.reason, tco::ErrorReason::OutOfRange { allowed } if allowed.contains("deadline_h"))
}
