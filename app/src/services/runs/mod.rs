//! Building a run from stored files: merge the result with the telemetry, judge it against the
//! quote revision and the workload, and save it. The browser's preview and save and the API's
//! upload all go through here, so they judge alike.

pub mod placement;
pub mod script;
pub mod staged;

use crate::{
    domain::{
        quotes::{NodeSpec, Workload},
        run_checks::verdict_context,
        runs::{CanonicalRun, assess, merge},
    },
    error::AppError,
    i18n::Msg,
    store::{
        self, Db, Tx,
        runs::{RunForCreate, RunJudged},
    },
    views::RunFileInfo,
};
use placement::Placement;

mod rejudge;
pub use rejudge::{Rejudged, rejudge_all, rejudge_if_rules_changed, rejudge_workload};

/// Longest node label, in characters.
pub const MAX_LABEL_CHARS: usize = 120;
/// Longest note, in characters.
pub const MAX_NOTE_CHARS: usize = 2000;
/// Most nodes a run may have used.
pub const MAX_NODES: i64 = 1024;
/// Most files one run takes: one result and one telemetry file.
pub const MAX_RUN_FILES: usize = 2;
/// Most GPUs a request may name (nvidia-smi telemetry holds at most this many).
pub const MAX_NAMED_GPUS: usize = crate::domain::runs::MAX_GPUS;

pub use crate::views::RunRequest;

/// A run ready to save: the judged canonical record and where it points.
#[derive(Clone, Debug, PartialEq)]
pub struct Assembled {
    /// The merged and judged run.
    pub run: CanonicalRun,
    /// The quote revision (row id), if any.
    pub quote_revision_id: Option<i64>,
    /// Result file id.
    pub result_file: Option<i64>,
    /// Telemetry file id.
    pub telemetry_file: Option<i64>,
    /// The files, as stored.
    pub files: Vec<RunFileInfo>,
}

fn field(name: &str, code: &str) -> AppError {
    AppError::InvalidFields(vec![crate::error::FieldIssue::new(name, code)])
}

/// `field` refused with `code`, naming the `limit` the message quotes.
fn field_with_limit(name: &str, code: &str, limit: String) -> AppError {
    AppError::InvalidFields(vec![crate::error::FieldIssue {
        field: name.to_string(),
        code: code.to_string(),
        limit: Some(limit),
    }])
}

/// The refusal of a run sent with more than `max` files (`files`, `too_many_files`).
pub fn too_many_files(max: usize) -> AppError {
    field_with_limit("files", "too_many_files", max.to_string())
}

/// The refusal of a run naming one file twice (`field`, `duplicate_file`).
pub fn duplicate_file(name: &str) -> AppError {
    field(name, "duplicate_file")
}

/// Checks the file ids of a request before anything is loaded: at most [`MAX_RUN_FILES`], none
/// named twice. One request can therefore never make the server read more than two files.
pub fn check_file_ids(ids: &[i64]) -> Result<(), AppError> {
    if ids.len() > MAX_RUN_FILES {
        return Err(too_many_files(MAX_RUN_FILES));
    }
    if ids.iter().enumerate().any(|(i, id)| ids[..i].contains(id)) {
        return Err(duplicate_file("files"));
    }
    Ok(())
}

/// Checks the request's own fields before anything is loaded: at most two distinct files, a
/// node, sane counts and lengths.
pub fn check_request(req: &RunRequest) -> Result<(), AppError> {
    if req.quote_id.is_none() && req.node_label.trim().is_empty() {
        check_bounds(req)?;
        return Err(field("node_label", "node_required"));
    }
    check_bounds(req)
}

/// Checks what bounds a request's cost before anything is loaded (at most two distinct files,
/// sane counts and lengths), without asking for a node yet: the browser's preview.
pub fn check_bounds(req: &RunRequest) -> Result<(), AppError> {
    check_file_ids(&req.files)?;
    if req.node_label.chars().count() > MAX_LABEL_CHARS {
        return Err(field("node_label", "too_long"));
    }
    if req.note.chars().count() > MAX_NOTE_CHARS {
        return Err(field("note", "too_long"));
    }
    if req.nodes.is_some_and(|n| !(1..=MAX_NODES).contains(&n)) {
        return Err(field_with_limit("nodes", "out_of_range", format!("[1, {MAX_NODES}]")));
    }
    if req.gpus.len() > MAX_NAMED_GPUS
        || req
            .gpus
            .iter()
            .any(|g| usize::try_from(*g).is_ok_and(|g| g >= MAX_NAMED_GPUS))
    {
        return Err(field_with_limit(
            "gpus",
            "gpu_index_invalid",
            MAX_NAMED_GPUS.to_string(),
        ));
    }
    stated_start(req)?;
    Ok(())
}

/// The request's start time in canonical form; 422 when it is not a time.
fn stated_start(req: &RunRequest) -> Result<Option<String>, AppError> {
    let Some(text) = req.started_at.as_deref().map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    crate::domain::runs::stated_start(text)
        .map(Some)
        .ok_or_else(|| field("started_at", "run_start_invalid"))
}

/// What the uploader says of the run itself: its start, a reservation, the GPUs it used, that
/// it stands for the workload.
/// Applied to the merged run before it is judged; what the files say is kept where they say it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stated {
    /// Start on the telemetry's clock, canonical form.
    pub started_at: Option<String>,
    /// The server reserves memory.
    pub reserves_memory: bool,
    /// GPU indices named.
    pub gpus: Vec<u32>,
    /// The run stands for the workload.
    pub stands_for_workload: bool,
}

impl Stated {
    /// The request's statements (checked by [`check_bounds`]).
    ///
    /// # Errors
    /// 422 when the start is not a time.
    pub fn of(req: &RunRequest) -> Result<Self, AppError> {
        Ok(Self {
            started_at: stated_start(req)?,
            reserves_memory: req.reserves_memory,
            gpus: req.gpus.clone(),
            stands_for_workload: req.stands_for_workload,
        })
    }

    /// Applies the statements to `run`: a start only where the result has no clock of its own
    /// (the end follows from the duration), a reservation, the GPUs. The one way an upload, the
    /// scripts' API, the probe and `nodeledger bench parse` place a run.
    pub fn apply(&self, run: &mut CanonicalRun) {
        if run.started_at.is_none()
            && run.ended_at.is_none()
            && let Some(start) = &self.started_at
        {
            run.started_at = Some(start.clone());
        }
        if self.reserves_memory {
            run.vram_reserved = Some(true);
        }
        if !self.gpus.is_empty() {
            run.gpus_named.clone_from(&self.gpus);
        }
        if self.stands_for_workload {
            run.stands_for_workload = true;
        }
    }
}

/// What a run is judged against: the quote revision's node and the workload.
#[derive(Clone, Debug, Default)]
pub struct Against {
    /// The quoted node.
    pub spec: Option<NodeSpec>,
    /// The quote revision's row id.
    pub quote_revision_id: Option<i64>,
    /// The workload.
    pub workload: Option<Workload>,
    /// What the uploader says of the run.
    pub stated: Stated,
}

/// Loads the request's quote revision (the latest when no revision number is given) and
/// workload; 404 when either is not the team's.
pub async fn against(db: &Db, team_id: i64, req: &RunRequest) -> Result<Against, AppError> {
    let (spec, quote_revision_id) = match req.quote_id {
        Some(quote_id) => {
            let history = store::quotes::revisions(db, team_id, quote_id).await?;
            let chosen = match req.revision {
                Some(n) => history.iter().find(|r| r.revision == n),
                None => history.iter().max_by_key(|r| r.revision),
            }
            .ok_or(AppError::NotFound)?;
            let quote = store::quotes::revision(db, team_id, chosen.id)
                .await?
                .ok_or(AppError::NotFound)?;
            (Some(quote.draft.spec), Some(chosen.id))
        }
        None => (None, None),
    };
    let workload = match req.workload_id {
        Some(id) => Some(
            store::workloads::by_id(db, team_id, id)
                .await?
                .ok_or(AppError::NotFound)?
                .record,
        ),
        None => None,
    };
    Ok(Against {
        spec,
        quote_revision_id,
        workload,
        stated: Stated::of(req)?,
    })
}

/// The team's stored files of the request with their parsed runs; 422 for more than
/// [`MAX_RUN_FILES`] or a repeated id (before any is loaded), 404 when one is not the team's.
/// Files that already belong to a run are loaded too: whether they may make this run is
/// [`placement`]'s to say.
pub async fn load_files(db: &Db, team_id: i64, ids: &[i64]) -> Result<Vec<(RunFileInfo, CanonicalRun)>, AppError> {
    check_file_ids(ids)?;
    let mut out = Vec::with_capacity(ids.len());
    for &id in ids {
        let (info, parsed) = store::runs::file_parsed(db, team_id, id)
            .await?
            .ok_or(AppError::NotFound)?;
        let run: CanonicalRun = serde_json::from_str(&parsed).map_err(|e| {
            tracing::error!(error = %e, file = id, "stored parsed run does not decode");
            AppError::Internal
        })?;
        out.push((info, run));
    }
    Ok(out)
}

/// Merges the files (an nvidia-smi file is the telemetry, anything else the result) and judges
/// the run; 422 without a file or with two of one kind.
pub fn build(files: Vec<(RunFileInfo, CanonicalRun)>, against: &Against) -> Result<Assembled, AppError> {
    let mut result: Option<(i64, CanonicalRun)> = None;
    let mut telemetry: Option<(i64, CanonicalRun)> = None;
    let mut infos = Vec::with_capacity(files.len());
    for (info, run) in files {
        let slot = if run.source_format.is_telemetry() {
            &mut telemetry
        } else {
            &mut result
        };
        let link_test = run.source_format == crate::domain::runs::Format::NcclTests;
        if let Some((_, other)) = slot.replace((info.id, run)) {
            // An interconnect test is an execution of its own: a run of the same quote.
            let nccl = link_test || other.source_format == crate::domain::runs::Format::NcclTests;
            return Err(AppError::Invalid(if nccl {
                Msg::RunErrorNcclOwnRun
            } else {
                Msg::RunErrorTwoResults
            }));
        }
        infos.push(info);
    }
    let result_file = result.as_ref().map(|(id, _)| *id);
    let telemetry_file = telemetry.as_ref().map(|(id, _)| *id);
    let mut merged = match (result, telemetry) {
        (Some((_, r)), Some((_, t))) => merge(r, t),
        (Some((_, only)), None) | (None, Some((_, only))) => only,
        (None, None) => return Err(AppError::Invalid(Msg::RunErrorNoFile)),
    };
    against.stated.apply(&mut merged);
    let run = assess(
        merged,
        &verdict_context(against.spec.as_ref(), against.workload.as_ref()),
    );
    Ok(Assembled {
        run,
        quote_revision_id: against.quote_revision_id,
        result_file,
        telemetry_file,
        files: infos,
    })
}

/// Loads the request's stored files, places them ([`placement`]: a new run, or files a
/// stored run lacks), loads what the run is judged against (the request's quote revision and
/// workload for a new run, the stored run's own otherwise; all the team's), then merges and
/// judges: the browser's preview and save. The caller checks the request first.
///
/// # Errors
/// [`AppError::DuplicateRun`] for exactly a stored run's files, [`AppError::PartOfRun`], and
/// those of [`load_files`], [`against`] and [`build`].
pub async fn assemble(db: &Db, team_id: i64, req: &RunRequest) -> Result<(Assembled, Placement), AppError> {
    let mut files = load_files(db, team_id, &req.files).await?;
    let uploaded: Vec<_> = files.iter().map(|(info, _)| placement::uploaded(info)).collect();
    let placement = placement::place(db, team_id, &uploaded).await?;
    let judged_against = match placement {
        Placement::Duplicate(id) => return Err(AppError::DuplicateRun(id)),
        Placement::Add(id) => {
            let (run, judged_against) = placement::target(db, team_id, id, req).await?;
            placement::carry_over(&run, &mut files);
            judged_against
        }
        Placement::New => against(db, team_id, req).await?,
    };
    Ok((build(files, &judged_against)?, placement))
}

/// What is stored of a judged run besides its files: its canonical JSON, its status (valid when
/// it was not judged) and the unit of its throughput.
pub(crate) fn record_of(
    built: &Assembled,
) -> Result<(String, crate::domain::runs::RunStatus, Option<String>), AppError> {
    let canonical = serde_json::to_string(&built.run).map_err(|e| {
        tracing::error!(error = %e, "cannot encode run");
        AppError::Internal
    })?;
    let status = built
        .run
        .verdict
        .as_ref()
        .map_or(crate::domain::runs::RunStatus::Valid, |v| v.status);
    let unit = built.run.throughput.as_ref().map(|t| t.unit.as_str().to_string());
    Ok((canonical, status, unit))
}

/// The files of `built` and what judging them gave, as stored: `canonical`, `status` and `unit`
/// are [`record_of`] it.
pub(crate) fn judged_of<'a>(
    built: &'a Assembled,
    canonical: &'a str,
    status: crate::domain::runs::RunStatus,
    unit: Option<&'a str>,
) -> RunJudged<'a> {
    RunJudged {
        result_file_id: built.result_file,
        telemetry_file_id: built.telemetry_file,
        canonical,
        status,
        source_format: built.run.source_format.as_str(),
        gpu_name: built.run.node.gpu_name.as_deref(),
        throughput_value: built.run.throughput.as_ref().map(|t| t.value),
        throughput_unit: unit,
    }
}

/// Saves an assembled run in `tx`; returns its id.
pub async fn save(
    tx: &mut Tx,
    team_id: i64,
    user_id: i64,
    req: &RunRequest,
    built: &Assembled,
) -> Result<i64, AppError> {
    let (canonical, status, unit) = record_of(built)?;
    let row = RunForCreate {
        quote_revision_id: built.quote_revision_id,
        node_label: req.node_label.trim(),
        workload_id: req.workload_id,
        nodes: req.nodes.unwrap_or(1),
        judged: judged_of(built, &canonical, status, unit.as_deref()),
        note: req.note.trim(),
        created_by: user_id,
    };
    match store::runs::insert(tx, team_id, &row).await {
        Ok(Some(id)) => Ok(id),
        Ok(None) => Err(AppError::NotFound),
        Err(e) if store::db::is_unique_violation(&e) => Err(AppError::Conflict(Msg::RunsFileTaken)),
        Err(e) => Err(e.into()),
    }
}

/// Steady-state throughput per node of the team's trusted runs (valid or warn), best run per
/// quote (or node label), grouped by workload and unit, with a bottleneck warning where much
/// more compute on paper measured barely more throughput ([`crate::views::BottleneckNote`]).
pub async fn comparison(db: &Db, team_id: i64) -> Result<Vec<crate::views::CompareGroup>, AppError> {
    use crate::views::{BottleneckNote, CompareBar, CompareGroup};
    use std::collections::BTreeMap;
    /// Workload name and the best bar per label, by (workload, unit).
    type Groups = BTreeMap<(Option<i64>, String), (Option<String>, BTreeMap<String, CompareBar>)>;
    let runs = store::runs::list(db, team_id, store::runs::RunFilter::default(), 2000).await?;
    let mut groups = Groups::new();
    for r in runs
        .into_iter()
        .filter(|r| r.status != crate::domain::runs::RunStatus::Invalid)
    {
        let (Some(value), Some(unit)) = (r.throughput_value, r.throughput_unit.clone()) else {
            continue;
        };
        #[expect(clippy::cast_precision_loss, reason = "node counts are small")]
        let per_node = value / r.nodes.max(1) as f64;
        let label = r.quote_label.clone().unwrap_or_else(|| r.node_label.clone());
        let entry = groups
            .entry((r.workload_id, unit))
            .or_insert_with(|| (r.workload_name.clone(), BTreeMap::new()));
        let bar = CompareBar {
            label: label.clone(),
            quote_id: r.quote_id,
            run_id: r.id,
            per_node,
            gpu_name: r.gpu_name.clone(),
            gpus: r.gpu_count.and_then(|n| u32::try_from(n).ok()),
        };
        match entry.1.get(&label) {
            Some(best) if best.per_node >= per_node => {}
            _ => {
                entry.1.insert(label, bar);
            }
        }
    }
    Ok(groups
        .into_iter()
        .map(|((workload_id, unit), (workload_name, bars))| {
            let mut bars: Vec<CompareBar> = bars.into_values().collect();
            bars.sort_by(|a, b| b.per_node.total_cmp(&a.per_node));
            let measured: Vec<crate::domain::gpus::Measured> = bars
                .iter()
                .enumerate()
                .filter_map(|(i, b)| {
                    Some(crate::domain::gpus::Measured {
                        key: i64::try_from(i).ok()?,
                        gpu_name: b.gpu_name.clone()?,
                        gpus: b.gpus.unwrap_or(1),
                        throughput: b.per_node,
                    })
                })
                .collect();
            let label = |key: i64| {
                usize::try_from(key)
                    .ok()
                    .and_then(|i| bars.get(i))
                    .map(|b| b.label.clone())
                    .unwrap_or_default()
            };
            let bottlenecks = crate::domain::gpus::bottleneck_pairs(&measured)
                .into_iter()
                .map(|p| BottleneckNote {
                    stronger: label(p.faster_on_paper),
                    weaker: label(p.slower_on_paper),
                    compute_ratio: p.compute_ratio,
                    measured_ratio: p.measured_ratio,
                })
                .collect();
            CompareGroup {
                workload_id,
                workload_name,
                unit,
                bars,
                bottlenecks,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Locale;

    fn only_issue(e: AppError) -> crate::error::FieldIssue {
        match e {
            AppError::InvalidFields(mut issues) if issues.len() == 1 => issues.remove(0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn more_than_two_files_or_one_twice_is_refused_in_both_languages() {
        assert_eq!(check_file_ids(&[]), Ok(()));
        assert_eq!(check_file_ids(&[4, 5]), Ok(()));
        let many: Vec<i64> = (0..10_000).map(|i| i % 3).collect();
        let issue = only_issue(check_file_ids(&many).unwrap_err());
        assert_eq!((issue.field.as_str(), issue.code.as_str()), ("files", "too_many_files"));
        assert!(
            issue
                .text(Locale::En)
                .starts_with("Too many files: at most 2 at a time")
        );
        assert!(issue.text(Locale::ZhCn).starts_with("文件过多：每次最多 2 个"));
        let issue = only_issue(check_file_ids(&[4, 4]).unwrap_err());
        assert_eq!(issue.code, "duplicate_file");
        assert_eq!(
            issue.text(Locale::En),
            "The same file was sent twice: send each file once."
        );
        assert_eq!(issue.text(Locale::ZhCn), "同一文件提交了两次：每个文件只需提交一次。");
    }

    #[test]
    fn what_the_uploader_says_reaches_the_run_but_never_overrides_the_files_own_clock() {
        use crate::domain::runs::{CanonicalRun, Format};
        let req = RunRequest {
            started_at: Some("2026-12-01 10:00".into()),
            reserves_memory: true,
            gpus: vec![0],
            ..RunRequest::default()
        };
        let stated = Stated::of(&req).unwrap();
        let mut summary = CanonicalRun::new(Format::Mlperf);
        stated.apply(&mut summary);
        assert_eq!(summary.started_at.as_deref(), Some("2026-12-01T10:00:00"));
        assert_eq!(
            (summary.vram_reserved, summary.gpus_named.as_slice()),
            (Some(true), &[0][..])
        );
        let mut vllm = CanonicalRun::new(Format::Vllm);
        vllm.ended_at = Some("2026-12-01T10:20:05".into());
        stated.apply(&mut vllm);
        assert_eq!(vllm.started_at, None, "a result with its own clock keeps it");
        let bad = RunRequest {
            started_at: Some("yesterday".into()),
            ..RunRequest::default()
        };
        assert_eq!(only_issue(check_bounds(&bad).unwrap_err()).code, "run_start_invalid");
        let many = RunRequest {
            gpus: vec![64],
            ..RunRequest::default()
        };
        assert_eq!(only_issue(check_bounds(&many).unwrap_err()).code, "gpu_index_invalid");
    }

    #[test]
    fn the_preview_checks_bounds_without_asking_for_a_node() {
        let req = RunRequest {
            files: vec![1, 2, 3],
            ..RunRequest::default()
        };
        assert_eq!(only_issue(check_bounds(&req).unwrap_err()).code, "too_many_files");
        assert_eq!(only_issue(check_request(&req).unwrap_err()).code, "too_many_files");
        let req = RunRequest {
            files: vec![1],
            nodes: Some(i64::MAX),
            ..RunRequest::default()
        };
        let issue = only_issue(check_bounds(&req).unwrap_err());
        assert_eq!(issue.limit.as_deref(), Some("[1, 1024]"));
        assert_eq!(check_bounds(&RunRequest::default()), Ok(()), "no node needed yet");
    }
}
