//! Importing quotes from a CSV file: a preview of the rows the file would create, each problem
//! in its cell (line, column, reason), before anything is saved; saving is all-or-nothing. A
//! SkyPilot catalog states no validity date: the page asks for one before saving.

mod preview;

pub use preview::{CellView, RowView};

#[cfg(feature = "hydrate")]
use crate::components::text_file::{self, TextFile, TextFileError};
use crate::{
    components::guard::member_page,
    domain::quotes::CsvFormat,
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
};
use leptos::prelude::*;
use leptos_meta::Title;
use serde::{Deserialize, Serialize};

/// Largest file the browser sends (larger files: the command line).
pub const BROWSER_LIMIT_BYTES: usize = 12 * 1024 * 1024;

/// A file to check or import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportRequest {
    /// The file's text.
    pub content: String,
    /// `auto`, `csv` or `skypilot`.
    pub format: String,
    /// Vendor for SkyPilot catalogs.
    pub vendor: String,
    /// Currency of SkyPilot catalog prices.
    pub currency: String,
    /// The last day a SkyPilot catalog's prices hold (`YYYY-MM-DD`), required before saving one;
    /// empty until given.
    #[serde(default)]
    pub valid_until: String,
}

/// One problem in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Line (header = 1).
    pub line: u64,
    /// Column label, when the problem is in one cell.
    pub column: String,
    /// What is wrong, in the user's language.
    pub message: String,
}

/// What the check found, and what was saved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportOutcome {
    /// The whole file was refused, and why.
    pub file_error: Option<String>,
    /// Summary line.
    pub summary: String,
    /// Rows ready to import.
    pub ready: usize,
    /// Rows with errors.
    pub bad: usize,
    /// Problems (at most 500 listed).
    pub problems: Vec<Problem>,
    /// The first rows of the file as they would be saved (at most `PREVIEW_ROWS`).
    pub rows: Vec<RowView>,
    /// Rows of the file beyond those in `rows`.
    pub more_rows: usize,
    /// The file is a catalog without validity date: `valid_until` is asked for.
    pub asks_valid_until: bool,
    /// Why the `valid_until` given (or missing) does not allow saving yet.
    pub valid_until_problem: Option<String>,
    /// Quotes saved (only when asked to save and the file was clean).
    pub saved: Option<usize>,
}

/// Checks a CSV file and, with `save`, imports it all-or-nothing into the active team.
#[server(endpoint = "quotes/import", input = server_fn::codec::Json)]
pub async fn import_quotes(request: ImportRequest, save: bool) -> Result<ImportOutcome, AppError> {
    server::run(request, save).await
}

#[cfg(feature = "ssr")]
mod server {
    use super::*;
    use crate::{
        auth,
        domain::{quotes::Date, roles::Capability, tco::Currency},
        i18n::request_locale,
        services::quote_import::{self, CatalogValidity, CheckedFile, ImportSettings, PREVIEW_ROWS, Refusal},
        store::{self, quotes::SaveImportError},
        texts::quotes as text,
    };

    /// The problems the preview lists: in line order, at most 500.
    const MAX_PROBLEMS: usize = 500;

    pub async fn run(req: ImportRequest, save: bool) -> Result<ImportOutcome, AppError> {
        let (caller, team) = auth::require_team(Capability::EditProcurement)?;
        let locale = request_locale();
        let format = CsvFormat::parse(&req.format);
        let currency = Currency::parse(req.currency.trim()).map_err(|_| AppError::Invalid(Msg::QerrUnknownCurrency))?;
        let vendor = req.vendor.trim();
        let date_text = req.valid_until.trim();
        let valid_until = Date::parse(date_text).ok();
        let settings = ImportSettings {
            format,
            vendor: (!vendor.is_empty()).then(|| vendor.to_owned()),
            currency,
            valid_until,
            max_bytes: BROWSER_LIMIT_BYTES,
        };
        let file = match quote_import::check(req.content.as_bytes(), &settings, store::today()) {
            Ok(file) => file,
            Err(refusal) => {
                let message = match refusal {
                    Refusal::File(e) => text::import_error(locale, &e),
                    Refusal::VendorRequired => locale.t(Msg::QimpVendorRequired).to_string(),
                };
                return Ok(ImportOutcome {
                    file_error: Some(message),
                    ..ImportOutcome::default()
                });
            }
        };
        let mut outcome = preview(locale, &file);
        outcome.valid_until_problem = match file.validity() {
            CatalogValidity::Missing if !date_text.is_empty() => {
                Some(locale.t(Msg::ImportsValidUntilUnreadable).to_string())
            }
            CatalogValidity::Missing if save => Some(locale.t(Msg::ImportsValidUntilRequired).to_string()),
            CatalogValidity::BeforeToday(d) => {
                Some(locale.fmt(Msg::ImportsValidUntilPast, &[("date", &d.to_string())]))
            }
            _ => None,
        };
        let Some(rows) = file.ready_to_save().filter(|rows| save && !rows.is_empty()) else {
            return Ok(outcome);
        };
        match quote_import::save(&auth::db()?, team.team_id, &rows, Some(caller.user_id)).await {
            Ok(n) => outcome.saved = Some(n),
            Err(SaveImportError::DuplicateReference { line }) => {
                outcome.file_error = Some(locale.fmt(Msg::QimpDuplicateInDb, &[("line", &line.to_string())]));
            }
            Err(SaveImportError::PriceOutOfRange { line }) => {
                outcome.file_error = Some(locale.fmt(Msg::QimpPriceOutOfRange, &[("line", &line.to_string())]));
            }
            Err(SaveImportError::Sql(e)) => return Err(e.into()),
        }
        Ok(outcome)
    }

    /// The preview of a checked file in the reader's language: the summary line and the problems.
    fn preview(locale: Locale, file: &CheckedFile) -> ImportOutcome {
        let mut problems: Vec<Problem> = file
            .problems()
            .into_iter()
            .map(|p| Problem {
                line: p.line,
                column: p
                    .column
                    .as_deref()
                    .map(|c| text::column_label(locale, c))
                    .unwrap_or_default(),
                message: p.message(locale),
            })
            .collect();
        problems.sort_by_key(|p| p.line);
        problems.truncate(MAX_PROBLEMS);
        let format_name = locale.t(match file.format() {
            CsvFormat::NodeLedger => Msg::ImportFormatCsv,
            CsvFormat::SkyPilot => Msg::ImportFormatSkypilot,
        });
        let summary = locale.fmt(
            Msg::ImportSummary,
            &[
                ("rows", &file.rows().to_string()),
                ("format", format_name),
                ("ok", &file.ready().to_string()),
                ("bad", &file.bad_rows().to_string()),
                ("skipped", &file.skipped().to_string()),
            ],
        );
        ImportOutcome {
            file_error: None,
            summary,
            ready: file.ready(),
            bad: file.bad_rows(),
            problems,
            rows: quote_import::preview::rows(file, locale, PREVIEW_ROWS)
                .into_iter()
                .map(|row| super::preview::build::row_view(locale, row))
                .collect(),
            more_rows: quote_import::preview::rows_not_shown(file, PREVIEW_ROWS),
            asks_valid_until: file.validity() != CatalogValidity::InFile,
            valid_until_problem: None,
            saved: None,
        }
    }
}

/// What the page holds between checking a file and importing it.
#[derive(Clone, Copy)]
struct ImportForm {
    file_input: NodeRef<leptos::html::Input>,
    /// `auto`, `csv` or `skypilot`.
    format: RwSignal<String>,
    vendor: RwSignal<String>,
    currency: RwSignal<String>,
    /// The validity date given for a SkyPilot catalog (`YYYY-MM-DD`), empty until entered.
    valid_until: RwSignal<String>,
    /// What is going on (reading, checking, saving), while it does.
    status: RwSignal<Option<String>>,
    /// Why the browser could not read the chosen file.
    problem: RwSignal<Option<String>>,
    /// The file last checked: the one "import" saves.
    checked: RwSignal<Option<ImportRequest>>,
    /// Checks (`false`) or imports (`true`) a file.
    action: Action<(ImportRequest, bool), Result<ImportOutcome, AppError>>,
}

impl ImportForm {
    fn new() -> Self {
        ImportForm {
            file_input: NodeRef::new(),
            format: RwSignal::new("auto".to_string()),
            vendor: RwSignal::new(String::new()),
            currency: RwSignal::new("USD".to_string()),
            valid_until: RwSignal::new(String::new()),
            status: RwSignal::new(None),
            problem: RwSignal::new(None),
            checked: RwSignal::new(None),
            action: Action::new(|(req, save): &(ImportRequest, bool)| import_quotes(req.clone(), *save)),
        }
    }

    /// Reads the chosen file in the browser and sends it for a check (nothing is saved).
    fn check(self, locale: Locale) {
        self.problem.set(None);
        self.checked.set(None);
        #[cfg(feature = "hydrate")]
        if let Some(input) = self.file_input.get() {
            self.status.set(Some(locale.t(Msg::ImportReading).to_string()));
            leptos::task::spawn_local(async move {
                match text_file::read(input, BROWSER_LIMIT_BYTES).await {
                    Ok(TextFile {
                        text: content, size, ..
                    }) => {
                        self.status.set(Some(
                            locale.fmt(Msg::ImportChecking, &[("n", &size.div_ceil(1024).to_string())]),
                        ));
                        let req = ImportRequest {
                            content,
                            format: self.format.get_untracked(),
                            vendor: self.vendor.get_untracked(),
                            currency: self.currency.get_untracked(),
                            valid_until: self.valid_until.get_untracked(),
                        };
                        self.checked.set(Some(req.clone()));
                        self.action.dispatch((req, false));
                    }
                    Err(e) => {
                        self.status.set(None);
                        self.problem.set(Some(unreadable(e, locale)));
                    }
                }
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = locale;
    }

    /// Imports the file last checked, with the validity date as now entered.
    fn import_all(self, locale: Locale) {
        if let Some(mut req) = self.checked.get_untracked() {
            req.valid_until = self.valid_until.get_untracked();
            self.status.set(Some(locale.t(Msg::ImportSaving).to_string()));
            self.action.dispatch((req, true));
        }
    }

    /// The last check's answer about the validity date: `Some(problem)` when the file is a
    /// catalog that needs one (`problem` says why the date given does not do yet).
    fn asks_valid_until(self) -> Option<Option<String>> {
        match self.action.value().get() {
            Some(Ok(o)) if o.asks_valid_until && o.saved.is_none() && o.file_error.is_none() => {
                Some(o.valid_until_problem)
            }
            _ => None,
        }
    }

    /// How many rows the import button would save: only after a clean check, before saving.
    fn ready(self) -> Option<usize> {
        match self.action.value().get() {
            Some(Ok(o)) if o.file_error.is_none() && o.saved.is_none() && o.bad == 0 && o.ready > 0 => Some(o.ready),
            _ => None,
        }
    }
}

/// Why the file could not be read, in the user's language.
#[cfg(feature = "hydrate")]
fn unreadable(e: TextFileError, locale: Locale) -> String {
    match e {
        TextFileError::NoFile => locale.t(Msg::ImportChooseFile).to_string(),
        TextFileError::TooBig => locale.fmt(
            Msg::ImportTooBigForBrowser,
            &[("limit", &format!("{} MB", BROWSER_LIMIT_BYTES / (1024 * 1024)))],
        ),
        TextFileError::BadUtf8(offset) => locale.fmt(Msg::QimpBadUtf8, &[("offset", &offset.to_string())]),
    }
}

/// The validity date a SkyPilot catalog does not state: required before saving, empty at first.
fn valid_until_field(valid_until: RwSignal<String>, problem: Option<String>) -> impl IntoView {
    let invalid = problem.is_some();
    view! {
        <div class="callout callout-warn" data-testid="import-valid-until">
            <p>{t(Msg::ImportsNoValidity)}</p>
            <label class="required">
                {t(Msg::ImportsValidUntil)}
                <input type="date" name="valid_until" required prop:value=move || valid_until.get()
                    aria-invalid=invalid.then_some("true") aria-describedby=invalid.then_some("valid-until-problem")
                    on:input=move |ev| valid_until.set(event_target_value(&ev)) />
            </label>
            {problem.map(|p| view! { <p class="field-error" id="valid-until-problem" role="alert">{p}</p> })}
        </div>
    }
}

/// The file, how to read it, and the check and import buttons.
fn import_form(form: ImportForm) -> impl IntoView {
    let locale = use_locale();
    let ImportForm {
        file_input,
        format,
        vendor,
        currency,
        status,
        problem,
        action,
        ..
    } = form;
    let pending = action.pending();
    view! {
        <section class="card">
            <div class="form" data-testid="import-form">
                <label>{t(Msg::ImportFile)}<input type="file" accept=".csv,text/csv" node_ref=file_input name="file" /></label>
                <div class="form-row">
                    <label>
                        {t(Msg::ImportFormat)}
                        <select name="format" on:change=move |ev| format.set(event_target_value(&ev))>
                            <option value="auto">{t(Msg::ImportFormatAuto)}</option>
                            <option value=CsvFormat::NodeLedger.as_str()>{t(Msg::ImportFormatCsv)}</option>
                            <option value=CsvFormat::SkyPilot.as_str()>{t(Msg::ImportFormatSkypilot)}</option>
                        </select>
                    </label>
                    <label>{t(Msg::ImportVendor)}<input type="text" name="vendor" on:input=move |ev| vendor.set(event_target_value(&ev)) /></label>
                    <label>{t(Msg::ImportCurrency)}<input type="text" name="currency" value="USD" maxlength="3" on:input=move |ev| currency.set(event_target_value(&ev)) /></label>
                </div>
                {move || form.asks_valid_until().map(|problem| valid_until_field(form.valid_until, problem))}
                <p class="actions">
                    <button type="button" on:click=move |_| form.check(locale) disabled=move || pending.get()>{t(Msg::ImportPreview)}</button>
                    {move || form.ready().map(|n| view! {
                        <button type="button" class="primary" data-testid="import-save" on:click=move |_| form.import_all(locale)
                            disabled=move || pending.get() || (form.asks_valid_until().is_some() && form.valid_until.get().trim().is_empty())>
                            {locale.count(Msg::ImportSaveOne, Msg::ImportSave, n as u64)}
                        </button>
                    })}
                </p>
                {move || status.get().map(|s| view! { <p class="progress" role="status"><span class="spinner" aria-hidden="true"></span>{s}</p> })}
                {move || problem.get().map(|p| view! { <p class="form-error" role="alert" data-testid="import-file-problem">{p}</p> })}
            </div>
        </section>
    }
}

/// `/quotes/import`.
#[component]
pub fn QuoteImportPage() -> impl IntoView {
    member_page(|_| {
        view! {
            <Title text=t(Msg::ImportTitle) />
            <p class="breadcrumb"><a href="/quotes">{t(Msg::QuotesBack)}</a></p>
            <h1>{t(Msg::ImportTitle)}</h1>
            <p class="lead">{t(Msg::ImportLead)}</p>
            <ImportWork />
        }
        .into_any()
    })
}

/// The file, the check and the import, and what they found: the page's island (the file is
/// read in the browser).
#[island(lazy)]
fn ImportWork() -> impl IntoView {
    let locale = use_locale();
    let form = ImportForm::new();
    let pending = form.action.pending();
    Effect::new(move |_| {
        if !pending.get() {
            form.status.set(None);
        }
    });
    view! {
        {import_form(form)}
        {move || match form.action.value().get() {
            Some(Ok(o)) => Some(preview::outcome_view(o).into_any()),
            Some(Err(e)) => Some(view! { <p class="form-error" role="alert">{e.localized(locale)}</p> }.into_any()),
            None => None,
        }}
    }
}
