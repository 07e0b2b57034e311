//! Uploading a run from the browser: choose the node (a quote, or a label when the quote is not
//! entered yet) and the workload, drop the files (each uploads with a progress bar), see what was
//! recognised and the verdict, then save.

use crate::{
    components::{
        forms::{ErrorBox, last_error},
        guard::member_page,
        loaded::Loaded,
    },
    domain::{roles::Capability, runs::CanonicalRun},
    error::AppError,
    i18n::{Msg, t, use_locale},
    texts::runs::format_label,
    views::{RunFileInfo, RunRequest},
};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

mod files;
pub use files::Uploaded;
#[cfg(feature = "hydrate")]
use files::start_upload;
use files::{FileState, Item, PickedFile, dropped_files, file_line, picked_files};

/// What the upload form offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFormChoices {
    /// The team's quotes: id and label.
    pub quotes: Vec<(i64, String)>,
    /// The team's workloads: id and name.
    pub workloads: Vec<(i64, String)>,
    /// Largest file, MB.
    pub file_limit_mb: u64,
}

/// The quotes and workloads a run can point at.
#[server(endpoint = "runs/options")]
pub async fn load_run_form() -> Result<RunFormChoices, AppError> {
    use crate::auth;
    // Every context is read before the first await: a resource whose page is re-rendered
    // meanwhile loses its owner, and with it the contexts.
    let (_, team) = auth::require_team(Capability::UploadRuns)?;
    let file_limit_mb = use_context::<RunFileLimit>().map_or(64, |l| l.0 / 1_000_000);
    let (quotes, workloads) = super::choices(&auth::db()?, team.team_id).await?;
    Ok(RunFormChoices {
        quotes,
        workloads,
        file_limit_mb,
    })
}

/// The largest run file in bytes, provided as context by the server.
#[derive(Clone, Copy, Debug)]
pub struct RunFileLimit(pub u64);

/// What the preview shows: the judged run, and the stored run it completes, if any.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunPreview {
    /// The merged and judged run (without its telemetry series).
    pub run: CanonicalRun,
    /// The stored run that gains the files and is judged again
    /// ([`crate::services::runs::placement`]); `None` for a new run.
    pub adds_to: Option<i64>,
}

/// Merges and judges the uploaded files against the chosen quote and workload (or, for files a
/// stored run lacks, against that run's), saving nothing. The telemetry series is left out of
/// the answer (the saved run's page charts it). The request is checked (at most two distinct
/// files, sane fields) before anything is loaded; the files of a saved run are answered 409
/// naming it.
#[server(endpoint = "runs/preview", input = server_fn::codec::Json)]
pub async fn preview_run(request: RunRequest) -> Result<RunPreview, AppError> {
    use crate::{auth, services::runs as service};
    let (_, team) = auth::require_team(Capability::UploadRuns)?;
    service::check_bounds(&request)?;
    let db = auth::db()?;
    let (built, placement) = service::assemble(&db, team.team_id, &request).await?;
    let mut run = built.run;
    run.telemetry.clear();
    Ok(RunPreview {
        run,
        adds_to: placement.adds_to(),
    })
}

/// The preview as the upload form shows it: [`preview_run`] rendered on the server in the
/// reader's language (the verdict, the figures, the run it completes), so the browser's island
/// carries neither the run's record nor its views.
#[server(endpoint = "runs/preview_shown", input = server_fn::codec::Json)]
pub async fn show_run_preview(request: RunRequest) -> Result<String, AppError> {
    let locale = crate::i18n::request_locale();
    let preview = preview_run(request).await?;
    Ok(crate::i18n::markup_in(locale, || preview_markup(preview)))
}

/// The preview's markup: the stored run it completes, if any, then the verdict and figures.
#[cfg(feature = "ssr")]
fn preview_markup(RunPreview { run, adds_to }: RunPreview) -> impl IntoView {
    use super::detail::{figures, verdict_view};
    let locale = use_locale();
    let adds = adds_to.map(|id| {
        view! {
            <p class="hint" role="status" data-testid="run-adds-to">
                <a href=format!("/runs/{id}")>{locale.fmt(Msg::RunsAddsTo, &[("id", &id.to_string())])}</a>
            </p>
        }
    });
    view! {
        <h2>{t(Msg::RunsPreview)}</h2>
        {adds}
        <div data-testid="run-preview">{verdict_view(&run)} {figures(&run)}</div>
    }
}

/// Saves the run (a new one, or the stored run the files complete); returns its id.
#[server(endpoint = "runs/save", input = server_fn::codec::Json)]
pub async fn save_run(request: RunRequest) -> Result<i64, AppError> {
    use crate::{auth, services::runs as service, services::runs::placement, store};
    let (caller, team) = auth::require_team(Capability::UploadRuns)?;
    service::check_request(&request)?;
    let db = auth::db()?;
    let (built, placement) = service::assemble(&db, team.team_id, &request).await?;
    let mut tx = store::begin_write(&db).await?;
    let id = match placement.adds_to() {
        Some(run_id) => placement::add(&mut tx, team.team_id, run_id, &built).await?,
        None => service::save(&mut tx, team.team_id, caller.user_id, &request, &built).await?,
    };
    tx.commit().await?;
    Ok(id)
}

fn optional_id(value: &str) -> Option<i64> {
    value.parse().ok()
}

/// The upload page.
#[component]
pub fn RunUploadPage() -> impl IntoView {
    member_page(|caller| {
        if !caller.may(Capability::UploadRuns) {
            return view! { <ErrorBox error=AppError::Forbidden /> }.into_any();
        }
        let options = Resource::new(|| (), |()| load_run_form());
        view! {
            <Title text=t(Msg::RunsNewTitle) />
            <p class="breadcrumb"><a href="/runs">{t(Msg::RunsTitle)}</a></p>
            <h1>{t(Msg::RunsNewTitle)}</h1>
            <p class="lead">{t(Msg::RunsNewLead)}</p>
            <Loaded resource=options let:opts>
                <RunUploadForm opts />
            </Loaded>
        }
        .into_any()
    })
}

/// What the user chose in the form, besides the files.
#[derive(Clone, Copy)]
struct RunFields {
    quote: RwSignal<Option<i64>>,
    node_label: RwSignal<String>,
    workload: RwSignal<Option<i64>>,
    nodes: RwSignal<i64>,
    note: RwSignal<String>,
    /// The format the result files are read as (`auto`: detected).
    format: RwSignal<String>,
    /// The server reserved memory up front.
    reserves_memory: RwSignal<bool>,
    /// The run's start on the telemetry's clock, as typed (`datetime-local`).
    started_at: RwSignal<String>,
    /// The GPUs used, as typed (`0,1`).
    gpus: RwSignal<String>,
    /// The run stands for the workload although its model or precision differs.
    stands_for_workload: RwSignal<bool>,
}

/// GPU numbers typed as `0,1` or `0 1`: the numbers read, and whether every part was one.
fn typed_gpus(text: &str) -> (Vec<u32>, bool) {
    let mut gpus = Vec::new();
    let mut readable = true;
    for part in text.split([',', ' ', ';']).filter(|p| !p.trim().is_empty()) {
        match part.trim().parse::<u32>() {
            Ok(g) if !gpus.contains(&g) && gpus.len() < crate::domain::runs::MAX_GPUS => gpus.push(g),
            _ => readable = false,
        }
    }
    (gpus, readable)
}

impl RunFields {
    fn new() -> Self {
        RunFields {
            quote: RwSignal::new(None),
            node_label: RwSignal::new(String::new()),
            workload: RwSignal::new(None),
            nodes: RwSignal::new(1),
            note: RwSignal::new(String::new()),
            format: RwSignal::new("auto".to_string()),
            reserves_memory: RwSignal::new(false),
            started_at: RwSignal::new(String::new()),
            gpus: RwSignal::new(String::new()),
            stands_for_workload: RwSignal::new(false),
        }
    }

    /// The run as the form stands: every file received (one a saved run holds too: the
    /// preview says what becomes of it, nothing is left out silently), and the choices (the
    /// note is added only when saving, so typing it does not judge the run again).
    fn request(self, items: &[Item]) -> RunRequest {
        RunRequest {
            files: items
                .iter()
                .filter_map(|i| match i.state.get() {
                    FileState::Done(u) => Some(u.file.id),
                    _ => None,
                })
                .collect(),
            quote_id: self.quote.get(),
            revision: None,
            node_label: self.node_label.get(),
            workload_id: self.workload.get(),
            nodes: Some(self.nodes.get()),
            note: String::new(),
            started_at: Some(self.started_at.get()).filter(|s| !s.trim().is_empty()),
            reserves_memory: self.reserves_memory.get(),
            gpus: typed_gpus(&self.gpus.get()).0,
            stands_for_workload: self.stands_for_workload.get(),
        }
    }
}

/// The form, the files, the preview and the save button: the page's island. Uploading needs
/// the browser (each file's progress, the preview), so the form is drawn once the island has
/// hydrated: server and browser both render nothing here first.
#[island(lazy)]
fn RunUploadForm(opts: RunFormChoices) -> impl IntoView {
    let ready = RwSignal::new(false);
    Effect::new(move |_| ready.set(true));
    move || ready.get().then(|| upload_form(opts.clone()))
}

fn upload_form(opts: RunFormChoices) -> impl IntoView {
    let fields = RunFields::new();
    let items = RwSignal::new(Vec::<Item>::new());
    let request = Memo::new(move |_| fields.request(&items.get()));
    // Judged in the browser's island only (nothing to judge before a file is dropped).
    let preview = LocalResource::new(move || {
        let r = RunRequest {
            node_label: String::new(),
            note: String::new(),
            ..request.get()
        };
        async move {
            if r.files.is_empty() {
                Ok(None)
            } else {
                show_run_preview(r).await.map(Some)
            }
        }
    });
    let limit_mb = opts.file_limit_mb;
    let add_files = file_adder(items, fields.format, limit_mb);
    view! {
        <form class="card form" on:submit=|ev| ev.prevent_default() data-testid="run-upload-form">
            {run_fields(opts, fields)}
            {file_drop(limit_mb, items, add_files)}
        </form>
        {preview_view(preview)}
        {save_actions(request, fields.note)}
    }
}

/// Adds picked or dropped files to the list, each starting its own upload.
fn file_adder(
    items: RwSignal<Vec<Item>>,
    format: RwSignal<String>,
    limit_mb: u64,
) -> impl Fn(Vec<(String, PickedFile)>) + Copy + Send + Sync + 'static {
    let next_key = StoredValue::new(0_u32);
    move |files: Vec<(String, PickedFile)>| {
        for (name, _file) in files {
            let key = next_key.get_value();
            next_key.set_value(key + 1);
            let state = RwSignal::new(FileState::Sending(0.0));
            items.update(|list| {
                list.push(Item {
                    key,
                    name: StoredValue::new(name),
                    state,
                });
            });
            #[cfg(feature = "hydrate")]
            start_upload(_file, format.get_untracked(), limit_mb, state);
            #[cfg(not(feature = "hydrate"))]
            let _ = (format, limit_mb);
        }
    }
}

/// The node, workload, format and note.
fn run_fields(opts: RunFormChoices, fields: RunFields) -> impl IntoView {
    let locale = use_locale();
    let RunFields {
        quote,
        node_label,
        workload,
        nodes,
        note,
        format,
        reserves_memory,
        started_at,
        gpus,
        stands_for_workload,
    } = fields;
    let gpus_unreadable = move || !typed_gpus(&gpus.get()).1;
    view! {
        <div class="detail-grid">
            <label>{t(Msg::RunsNode)}
                <select name="quote" data-testid="run-quote" on:change=move |ev| quote.set(optional_id(&event_target_value(&ev)))>
                    <option value="">{t(Msg::RunsNoQuote)}</option>
                    {opts.quotes.iter().map(|(id, label)| view! { <option value=id.to_string()>{label.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>{t(Msg::RunsNodeLabel)}
                <input type="text" name="node_label" maxlength="120" data-testid="run-node-label"
                    prop:value=node_label on:input=move |ev| node_label.set(event_target_value(&ev)) />
                <small class="hint">{t(Msg::RunsNodeLabelHint)}</small>
            </label>
            <label>{t(Msg::RunsWorkload)}
                <select name="workload" data-testid="run-workload" on:change=move |ev| workload.set(optional_id(&event_target_value(&ev)))>
                    <option value="">{t(Msg::RunsNoWorkload)}</option>
                    {opts.workloads.iter().map(|(id, name)| view! { <option value=id.to_string()>{name.clone()}</option> }).collect_view()}
                </select>
            </label>
            <label>{t(Msg::RunsNodes)}
                <input type="number" name="nodes" min="1" max="1024" prop:value=move || nodes.get().to_string()
                    on:input=move |ev| nodes.set(crate::domain::numbers::parse_integer(&event_target_value(&ev)).unwrap_or(1)) />
            </label>
            <label>{t(Msg::RunsFormat)}
                <select name="format" on:change=move |ev| format.set(event_target_value(&ev))>
                    <option value="auto">{t(Msg::RunsFormatAuto)}</option>
                    {crate::domain::runs::Format::ALL.iter().map(|f| view! { <option value=f.as_str()>{format_label(locale, f.as_str())}</option> }).collect_view()}
                </select>
            </label>
            <label>{t(Msg::RunsStartedAt)}
                <input type="datetime-local" step="1" name="started_at" data-testid="run-started-at"
                    prop:value=started_at on:input=move |ev| started_at.set(event_target_value(&ev)) />
                <small class="hint">{t(Msg::RunsStartedAtHint)}</small>
            </label>
            <label>{t(Msg::RunsGpusUsedField)}
                <input type="text" name="gpus" inputmode="numeric" maxlength="200" data-testid="run-gpus"
                    aria-invalid=move || gpus_unreadable().to_string()
                    prop:value=gpus on:input=move |ev| gpus.set(event_target_value(&ev)) />
                <small class="hint">{t(Msg::RunsGpusHint)}</small>
            </label>
            <label class="check">
                <input type="checkbox" name="reserves_memory" data-testid="run-reserves-memory"
                    prop:checked=reserves_memory on:change=move |ev| reserves_memory.set(event_target_checked(&ev)) />
                {t(Msg::RunsReservesMemory)}
                <small class="hint">{t(Msg::RunsReservesMemoryHint)}</small>
            </label>
            <label class="check">
                <input type="checkbox" name="stands_for_workload" data-testid="run-stands-for-workload"
                    prop:checked=stands_for_workload on:change=move |ev| stands_for_workload.set(event_target_checked(&ev)) />
                {t(Msg::RunsStandsForWorkload)}
            </label>
            <label>{t(Msg::RunsNote)}
                <textarea name="note" rows="2" maxlength="2000" on:input=move |ev| note.set(event_target_value(&ev))></textarea>
            </label>
        </div>
    }
}

/// The drop zone and the list of files with their progress.
fn file_drop(
    limit_mb: u64,
    items: RwSignal<Vec<Item>>,
    add_files: impl Fn(Vec<(String, PickedFile)>) + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let on_pick = move |ev: leptos::ev::Event| add_files(picked_files(&ev));
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        add_files(dropped_files(&ev));
    };
    view! {
        <fieldset>
            <legend>{t(Msg::RunsFiles)}</legend>
            <label class="dropzone" data-testid="dropzone" on:dragover=|ev: leptos::ev::DragEvent| ev.prevent_default() on:drop=on_drop>
                <span>{t(Msg::RunsDrop)} " " <u>{t(Msg::RunsPick)}</u> {format!(" (≤ {limit_mb} MB)")}</span>
                <input type="file" multiple class="visually-hidden" data-testid="run-files" on:change=on_pick />
            </label>
            <ul class="upload-list">
                <For each=move || items.get() key=|i| i.key children=move |item| file_line(item, items) />
            </ul>
        </fieldset>
    }
}

/// An error of the preview or the save: a refused field says why in the reader's language (too
/// many files, a file twice, a node count out of range), anything else as usual.
fn run_error(error: AppError) -> AnyView {
    match &error {
        AppError::InvalidFields(issues) => {
            let locale = use_locale();
            let text = issues.iter().map(|i| i.text(locale)).collect::<Vec<_>>().join(" ");
            view! { <p class="form-error" role="alert" data-testid="run-error">{text}</p> }.into_any()
        }
        _ => view! { <ErrorBox error /> }.into_any(),
    }
}

/// The verdict and figures of the files so far, judged without saving (the server's markup).
fn preview_view(preview: LocalResource<Result<Option<String>, AppError>>) -> impl IntoView {
    view! {
        <Transition fallback=|| view! { <p class="loading">{t(Msg::RunsPreviewWait)}</p> }>
            {move || Suspend::new(async move {
                match preview.await {
                    Ok(None) => ().into_any(),
                    Err(error) => run_error(error),
                    Ok(Some(markup)) => view! { <div inner_html=markup></div> }.into_any(),
                }
            })}
        </Transition>
    }
}

/// The save button: saves the run with its note, then opens it.
fn save_actions(request: Memo<RunRequest>, note: RwSignal<String>) -> impl IntoView {
    let save = ServerAction::<SaveRun>::new();
    Effect::new(move |_| {
        if let Some(Ok(id)) = save.value().get() {
            let _ = window().location().set_href(&format!("/runs/{id}"));
        }
    });
    let on_save = move |_| {
        save.dispatch(SaveRun {
            request: RunRequest {
                note: note.get_untracked(),
                ..request.get_untracked()
            },
        });
    };
    view! {
        <div class="form-actions">
            <button type="button" data-testid="save-run" on:click=on_save
                disabled=move || request.get().files.is_empty() || save.pending().get()>
                {move || if save.pending().get() { t(Msg::RunsSaving) } else { t(Msg::RunsSave) }}
            </button>
            {move || last_error(save).map(run_error)}
        </div>
    }
}
