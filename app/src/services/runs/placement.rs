//! Which run an upload's files make, when some of them were uploaded before: the browser's
//! preview and save and the API's upload decide alike here.
//!
//! A run is one benchmark execution: its result and, when it was captured, the nvidia-smi
//! telemetry of the same time. A duplicate is therefore the same *set* of files, not any file
//! seen before:
//!
//! | the upload's files | what happens |
//! |---|---|
//! | none belongs to a run | a new run ([`Placement::New`]) |
//! | exactly the files of run R | a duplicate of R ([`Placement::Duplicate`]: 409 in the browser, the API's `"duplicate": true`) |
//! | all of R's files and a file of a kind R lacks (its telemetry, or its result) | R gains the file and is judged again ([`Placement::Add`]) |
//! | anything else: some of R's files only, files of two runs, other telemetry for R that has one | 409 naming R ([`AppError::PartOfRun`]) |
//!
//! Why R gains the file rather than a second run being made of the same result: the cost page
//! takes the median throughput of a quote's valid runs, and the run list compares them, so one
//! execution stored twice would count twice. R keeps its quote revision, workload, nodes and
//! note and is judged again against them with both files; an upload naming another quote or
//! workload than R's is refused (409 naming R), as the telemetry belongs to the run as it was
//! judged.

use super::{Against, Assembled, RunRequest, against};
use crate::{
    domain::runs::{CanonicalRun, EXTRA_COMMAND_EXIT_CODE, Format},
    error::AppError,
    store::{self, Db, Tx, runs::RunHolding},
    views::RunFileInfo,
};

/// Where an upload's files go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// No file belongs to a run: a new run.
    New,
    /// The files are exactly this run's.
    Duplicate(i64),
    /// This run holds the others and lacks these kinds: it gains them and is judged again.
    Add(i64),
}

impl Placement {
    /// The run the files go to, when it exists already and gains files.
    #[must_use]
    pub const fn adds_to(self) -> Option<i64> {
        match self {
            Placement::Add(id) => Some(id),
            Placement::New | Placement::Duplicate(_) => None,
        }
    }
}

/// One file of an upload, as placing it needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UploadedFile {
    /// An nvidia-smi file (else a result).
    pub telemetry: bool,
    /// The run holding the same bytes, if any.
    pub run_id: Option<i64>,
}

/// The files a stored run holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeldFiles {
    /// The run.
    pub id: i64,
    /// It has a result file.
    pub result: bool,
    /// It has a telemetry file.
    pub telemetry: bool,
}

/// Places `files` (the rules in the module docs); `holder` is the run the first held file
/// belongs to.
///
/// # Errors
/// [`AppError::PartOfRun`] naming the run that holds some of the files.
pub fn placement(files: &[UploadedFile], holder: Option<HeldFiles>) -> Result<Placement, AppError> {
    let Some(first) = files.iter().find_map(|f| f.run_id) else {
        return Ok(Placement::New);
    };
    let refused = Err(AppError::PartOfRun(first));
    let Some(run) = holder.filter(|h| h.id == first) else {
        return refused;
    };
    if files.iter().any(|f| f.run_id.is_some_and(|r| r != first)) {
        return refused;
    }
    let held = files.iter().filter(|f| f.run_id.is_some()).count();
    if held != usize::from(run.result) + usize::from(run.telemetry) {
        return refused;
    }
    let lacks = |f: &UploadedFile| if f.telemetry { !run.telemetry } else { !run.result };
    let new: Vec<&UploadedFile> = files.iter().filter(|f| f.run_id.is_none()).collect();
    match new.as_slice() {
        [] => Ok(Placement::Duplicate(first)),
        _ if new.iter().all(|f| lacks(f)) => Ok(Placement::Add(first)),
        _ => refused,
    }
}

/// Places the upload's `files` (each with the run its bytes belong to, if any) for the team.
///
/// # Errors
/// [`AppError::PartOfRun`]; database failures.
pub async fn place(db: &Db, team_id: i64, files: &[UploadedFile]) -> Result<Placement, AppError> {
    let holder = match files.iter().find_map(|f| f.run_id) {
        Some(id) => store::runs::holding(db, team_id, id).await?.map(|h| HeldFiles {
            id: h.id,
            result: h.result_file_id.is_some(),
            telemetry: h.telemetry_file_id.is_some(),
        }),
        None => None,
    };
    placement(files, holder)
}

/// The file of a stored file's information: telemetry when read as a telemetry format.
#[must_use]
pub fn uploaded(info: &RunFileInfo) -> UploadedFile {
    UploadedFile {
        telemetry: Format::named(&info.format).is_some_and(Format::is_telemetry),
        run_id: info.run_id,
    }
}

/// The stored run `id` files are added to, and what it is judged against: its own quote
/// revision and workload. 409 naming it when `req` names another quote or workload.
///
/// # Errors
/// [`AppError::NotFound`] for a run not the team's; [`AppError::PartOfRun`]; database failures.
pub async fn target(db: &Db, team_id: i64, id: i64, req: &RunRequest) -> Result<(RunHolding, Against), AppError> {
    let run = store::runs::holding(db, team_id, id).await?.ok_or(AppError::NotFound)?;
    let same_quote = req.quote_id.is_none_or(|q| run.quote_id == Some(q));
    if !same_quote || req.workload_id != run.workload_id {
        return Err(AppError::PartOfRun(id));
    }
    let own = RunRequest {
        quote_id: run.quote_id,
        revision: None,
        workload_id: run.workload_id,
        ..RunRequest::default()
    };
    let mut judged_against = against(db, team_id, &own).await?;
    // The revision the run was judged against, not the quote's latest.
    if let Some(rev) = run.quote_revision_id {
        judged_against.spec = store::quotes::revision(db, team_id, rev).await?.map(|q| q.draft.spec);
        judged_against.quote_revision_id = Some(rev);
    }
    Ok((run, judged_against))
}

/// Carries what the stored run recorded beside its files into them before they are judged
/// again: the exit code of the command `nodeledger probe` ran (a failed command's run stays
/// invalid).
pub fn carry_over(run: &RunHolding, files: &mut [(RunFileInfo, CanonicalRun)]) {
    let Ok(stored) = serde_json::from_str::<CanonicalRun>(&run.canonical) else {
        return;
    };
    if let Some(code) = stored.extra.get(EXTRA_COMMAND_EXIT_CODE) {
        mark_exit_code(files, code.clone());
    }
}

/// Records the exit `code` of the command `nodeledger probe` ran in the `extra` of the result (the
/// telemetry's when there is no result), where the judge reads it, so a failed command's run is
/// invalid and stays so when it is judged again.
pub fn mark_exit_code(files: &mut [(RunFileInfo, CanonicalRun)], code: serde_json::Value) {
    let target = files
        .iter()
        .position(|(_, r)| !r.source_format.is_telemetry())
        .or(if files.is_empty() { None } else { Some(0) });
    if let Some((_, r)) = target.and_then(|i| files.get_mut(i)) {
        r.extra.insert(EXTRA_COMMAND_EXIT_CODE.into(), code);
    }
}

/// Stores `built` as run `id`'s new files and verdict; returns the id.
///
/// # Errors
/// [`AppError::PartOfRun`] when the run took other files meanwhile, or a file another run;
/// database failures.
pub async fn add(tx: &mut Tx, team_id: i64, id: i64, built: &Assembled) -> Result<i64, AppError> {
    let (canonical, status, unit) = super::record_of(built)?;
    let added = super::judged_of(built, &canonical, status, unit.as_deref());
    match store::runs::add_files(tx, team_id, id, &added).await {
        Ok(true) => Ok(id),
        Ok(false) => Err(AppError::PartOfRun(id)),
        Err(e) if store::db::is_unique_violation(&e) => Err(AppError::PartOfRun(id)),
        Err(e) => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::{HeldFiles, Placement, UploadedFile, placement};
    use crate::error::AppError;

    const fn file(telemetry: bool, run_id: Option<i64>) -> UploadedFile {
        UploadedFile { telemetry, run_id }
    }

    const fn run(result: bool, telemetry: bool) -> Option<HeldFiles> {
        Some(HeldFiles {
            id: 7,
            result,
            telemetry,
        })
    }

    #[test]
    fn a_duplicate_is_the_same_set_of_files() {
        let (result, telemetry) = (file(false, Some(7)), file(true, Some(7)));
        assert_eq!(placement(&[file(false, None)], None), Ok(Placement::New));
        assert_eq!(
            placement(&[file(false, None), file(true, None)], None),
            Ok(Placement::New)
        );
        assert_eq!(placement(&[result], run(true, false)), Ok(Placement::Duplicate(7)));
        assert_eq!(
            placement(&[result, telemetry], run(true, true)),
            Ok(Placement::Duplicate(7))
        );
    }

    #[test]
    fn a_run_gains_the_kind_of_file_it_lacks() {
        let new_telemetry = file(true, None);
        assert_eq!(
            placement(&[file(false, Some(7)), new_telemetry], run(true, false)),
            Ok(Placement::Add(7))
        );
        assert_eq!(
            placement(&[new_telemetry, file(false, Some(7))], run(true, false)),
            Ok(Placement::Add(7)),
            "in any order"
        );
        assert_eq!(
            placement(&[file(true, Some(7)), file(false, None)], run(false, true)),
            Ok(Placement::Add(7)),
            "a result for a telemetry-only run"
        );
    }

    #[test]
    fn anything_else_names_the_run() {
        let refused = Err(AppError::PartOfRun(7));
        // Other telemetry for a run that has telemetry.
        assert_eq!(
            placement(&[file(false, Some(7)), file(true, None)], run(true, true)),
            refused
        );
        // Only some of the run's files.
        assert_eq!(placement(&[file(false, Some(7))], run(true, true)), refused);
        // Files of two runs.
        assert_eq!(
            placement(&[file(false, Some(7)), file(true, Some(8))], run(true, false)),
            refused
        );
        // The holder could not be read.
        assert_eq!(placement(&[file(false, Some(7))], None), refused);
    }
}
