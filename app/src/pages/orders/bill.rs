//! The order page's bill section: the reconciliation of the bills imported with the
//! frozen estimate (table, reasons, chart, the flag when the variance is above the team's
//! threshold), the bills, the unmatched lines — rendered on the server; for managers the team's
//! threshold (a form saved in place); and the import form (check, then save all or nothing), the
//! section's one island: the file is read in the browser, the server renders what it found. The
//! section prints with the order; its forms do not.

use super::bill_view::{bills_list, lines_table, recon_view};
use crate::{
    components::forms::{last_error, saved_in_url},
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
    views::bills::{BillPreview, BillSection},
};
use leptos::{prelude::*, server_fn::ServerFn};
use serde::{Deserialize, Serialize};

/// Largest bill the browser sends (about 100,000 FOCUS lines, which `.ci/bench-bills` imports);
/// the server's body limit for the import route follows it.
pub const BROWSER_LIMIT_BYTES: usize = 24 * 1024 * 1024;

/// A bill file to check or import onto an order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillRequest {
    /// The order.
    pub order_id: i64,
    /// The file's name as chosen.
    pub file_name: String,
    /// The file's text.
    pub content: String,
}

/// The bill section of one of the team's orders.
#[server(endpoint = "orders/bills")]
pub async fn load_bills(order_id: i64) -> Result<BillSection, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::bills};
    let (caller, _team) = auth::require_team(Capability::ReadTeamData)?;
    let (team_id, db) = (_team.team_id, auth::db()?);
    let may_import = caller.may(Capability::EditProcurement);
    let may_set = caller.may(Capability::SignOffOrders);
    bills::section::load(&db, team_id, order_id, request_locale(), may_import, may_set).await
}

/// Checks a bill for the order and, with `save`, imports it all-or-nothing.
#[server(endpoint = "orders/bills/import", input = server_fn::codec::Json)]
pub async fn import_bill(request: BillRequest, save: bool) -> Result<BillPreview, AppError> {
    use crate::{auth, domain::roles::Capability, i18n::request_locale, services::bills};
    let (caller, team) = auth::require_team(Capability::EditProcurement)?;
    let db = auth::db()?;
    let content = request.content.as_bytes();
    let outcome = bills::import(
        &db,
        team.team_id,
        caller.user_id,
        request.order_id,
        &request.file_name,
        content,
        save,
    )
    .await?;
    Ok(bills::preview::preview(
        request_locale(),
        &outcome.checked,
        outcome.saved,
    ))
}

/// What the import form shows after a check or a save, rendered on the server: the browser's
/// island carries neither the bill's lines nor their views.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BillImportShown {
    /// The preview's markup (what was found, the problems, the lines).
    pub markup: String,
    /// Lines the import button would save: after a clean check, before saving.
    pub ready: Option<usize>,
    /// After a save: the section's record as it now reads (the bills, the reconciliation).
    pub record: Option<String>,
}

/// [`import_bill`] as the order page's import form shows it, in the reader's language.
#[server(endpoint = "orders/bills/import_shown", input = server_fn::codec::Json)]
pub async fn import_bill_shown(request: BillRequest, save: bool) -> Result<BillImportShown, AppError> {
    let locale = crate::i18n::request_locale();
    let order_id = request.order_id;
    let preview = import_bill(request, save).await?;
    let ready = preview.ready.then_some(preview.matched + preview.unmatched);
    let record = match preview.saved {
        Some(_) => {
            let section = load_bills(order_id).await?;
            Some(crate::i18n::markup_in(locale, || record_view(section)))
        }
        None => None,
    };
    let markup = crate::i18n::markup_in(locale, || super::bill_view::preview_view(preview));
    Ok(BillImportShown { markup, ready, record })
}

/// Sets the team's variance threshold, percent (managers).
#[server(endpoint = "orders/bills/threshold")]
pub async fn set_bill_threshold(threshold: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, error::FieldIssue, services::bills};
    let (caller, team) = auth::require_team(Capability::SignOffOrders)?;
    let pct = crate::domain::numbers::parse_decimal(threshold.trim().trim_end_matches('%'))
        .map_err(|e| AppError::InvalidFields(vec![FieldIssue::from_number("threshold", e)]))?;
    bills::set_threshold(&auth::db()?, team.team_id, caller.user_id, pct).await?;
    crate::components::forms::saved_after_plain_post();
    Ok(())
}

/// Reads the chosen file in the browser, as UTF-8 (a GBK export would otherwise import as
/// mojibake): `(name, text)`, or why not in the reader's language.
#[cfg(feature = "hydrate")]
async fn read_file(input: web_sys::HtmlInputElement, locale: Locale) -> Result<(String, String), String> {
    use crate::components::text_file::{self, TextFileError};
    match text_file::read(input, BROWSER_LIMIT_BYTES).await {
        Ok(file) => Ok((file.name, file.text)),
        Err(TextFileError::NoFile) => Err(locale.t(Msg::BillsChooseFile).to_string()),
        Err(TextFileError::TooBig) => {
            let limit = format!("{} MB", BROWSER_LIMIT_BYTES / (1024 * 1024));
            Err(locale.fmt(Msg::BillsTooBig, &[("limit", &limit)]))
        }
        Err(TextFileError::BadUtf8(offset)) => Err(locale.fmt(Msg::BillsBadUtf8, &[("offset", &offset.to_string())])),
    }
}

/// The import form's state.
#[derive(Clone, Copy)]
struct ImportForm {
    #[cfg_attr(
        not(feature = "hydrate"),
        expect(dead_code, reason = "read where the browser sends the file")
    )]
    order_id: i64,
    file_input: NodeRef<leptos::html::Input>,
    status: RwSignal<Option<String>>,
    problem: RwSignal<Option<String>>,
    checked: RwSignal<Option<BillRequest>>,
    action: Action<(BillRequest, bool), Result<BillImportShown, AppError>>,
}

impl ImportForm {
    fn new(order_id: i64) -> Self {
        ImportForm {
            order_id,
            file_input: NodeRef::new(),
            status: RwSignal::new(None),
            problem: RwSignal::new(None),
            checked: RwSignal::new(None),
            action: Action::new(|(req, save): &(BillRequest, bool)| import_bill_shown(req.clone(), *save)),
        }
    }

    fn check(self, locale: Locale) {
        self.problem.set(None);
        self.checked.set(None);
        #[cfg(feature = "hydrate")]
        if let Some(input) = self.file_input.get() {
            self.status.set(Some(locale.t(Msg::BillsReading).to_string()));
            leptos::task::spawn_local(async move {
                match read_file(input, locale).await {
                    Ok((file_name, content)) => {
                        let kb = content.len().div_ceil(1024).to_string();
                        self.status.set(Some(locale.fmt(Msg::BillsChecking, &[("n", &kb)])));
                        let req = BillRequest {
                            order_id: self.order_id,
                            file_name,
                            content,
                        };
                        self.checked.set(Some(req.clone()));
                        self.action.dispatch((req, false));
                    }
                    Err(message) => {
                        self.status.set(None);
                        self.problem.set(Some(message));
                    }
                }
            });
        }
        #[cfg(not(feature = "hydrate"))]
        let _ = locale;
    }

    fn save(self, locale: Locale) {
        if let Some(req) = self.checked.get_untracked() {
            self.status.set(Some(locale.t(Msg::BillsSaving).to_string()));
            self.action.dispatch((req, true));
        }
    }

    /// Lines the import button would save: after a clean check, before saving.
    fn ready(self) -> Option<usize> {
        match self.action.value().get() {
            Some(Ok(shown)) => shown.ready,
            _ => None,
        }
    }
}

/// After a save, the section's record (`#bill-record`, rendered on the server) as it now reads.
fn show_record(_record: &str) {
    #[cfg(feature = "hydrate")]
    if let Some(element) = document().get_element_by_id(RECORD_ID) {
        element.set_inner_html(_record);
    }
}

/// The id of the section's record, which a save replaces.
const RECORD_ID: &str = "bill-record";

fn import_form(form: ImportForm) -> impl IntoView {
    let locale = use_locale();
    let pending = form.action.pending();
    Effect::new(move |_| {
        if !pending.get() {
            form.status.set(None);
        }
        if let Some(Ok(BillImportShown {
            record: Some(record), ..
        })) = form.action.value().get()
        {
            show_record(&record);
        }
    });
    view! {
        <div class="form no-print" data-testid="bill-import">
            <h3>{t(Msg::BillsImportTitle)}</h3>
            <label>{t(Msg::BillsImportFile)}<input type="file" accept=".csv,text/csv" node_ref=form.file_input name="bill" /></label>
            <p class="actions">
                <button type="button" data-testid="bill-check" on:click=move |_| form.check(locale) disabled=move || pending.get()>{t(Msg::BillsImportCheck)}</button>
                {move || form.ready().map(|n| view! {
                    <button type="button" class="primary" data-testid="bill-save" on:click=move |_| form.save(locale) disabled=move || pending.get()>
                        {locale.count(Msg::BillsImportSaveOne, Msg::BillsImportSave, n as u64)}
                    </button>
                })}
                <a class="button-link secondary" rel="external" href="/bills/template.csv" download="nodeledger-bill.csv">{t(Msg::BillsTemplate)}</a>
            </p>
            {move || form.status.get().map(|s| view! { <p class="progress" role="status"><span class="spinner" aria-hidden="true"></span>{s}</p> })}
            {move || form.problem.get().map(|p| view! { <p class="form-error" role="alert">{p}</p> })}
            {move || match form.action.value().get() {
                Some(Ok(shown)) => Some(view! { <div inner_html=shown.markup></div> }.into_any()),
                Some(Err(e)) => Some(view! { <p class="form-error" role="alert">{e.localized(locale)}</p> }.into_any()),
                None => None,
            }}
        </div>
    }
}

/// The team's threshold (managers): saved in place (`data-in-place`), or as a plain post.
fn threshold_form(current: String) -> impl IntoView {
    let action = ServerAction::<SetBillThreshold>::new();
    let locale = use_locale();
    let saved = saved_in_url(SetBillThreshold::PATH);
    view! {
        <ActionForm action attr:class="form-inline no-print" attr:data-testid="bill-threshold-form" attr:data-in-place="">
            <label>{t(Msg::BillsThreshold)}<input type="text" inputmode="decimal" name="threshold" value=current size="6" /></label>
            <button type="submit">{t(Msg::BillsThresholdSave)}</button>
            {saved.then(|| view! { <span role="status">{t(Msg::BillsThresholdSaved)}</span> })}
            {last_error(action).map(|e| view! { <span class="form-error" role="alert">{e.localized(locale)}</span> })}
        </ActionForm>
    }
}

/// The section's record: its title (flagged above the threshold), the reconciliation, the
/// unmatched lines, the bills and, for managers, the threshold.
fn record_view(s: BillSection) -> impl IntoView {
    let locale = use_locale();
    let flagged = s.reconciliation.as_ref().is_some_and(|r| r.flagged);
    let more = s.unmatched_count - i64::try_from(s.unmatched.len()).unwrap_or(0);
    view! {
        <h2>{t(Msg::BillsTitle)}
            {flagged.then(|| view! { " " <span class="verdict verdict-invalid" data-testid="bill-flag">{t(Msg::BillsFlag)}</span> })}
        </h2>
        <p class="lead no-print">{t(Msg::BillsLead)}</p>
        {s.blocked.map(|b| view! { <p class="callout" data-testid="bill-blocked">{b}</p> })}
        {s.reconciliation.map(recon_view)}
        {(!s.unmatched.is_empty()).then(|| view! {
            <h3>{t(Msg::BillsUnmatchedTitle)}</h3>
            {lines_table(s.unmatched, true, "bill-unmatched")}
            {(more > 0).then(|| view! { <p class="hint">{locale.fmt(Msg::BillsUnmatchedMore, &[("more", &crate::domain::money::grouped(more.into()))])}</p> })}
        })}
        {bills_list(s.bills)}
        {s.can_set_threshold.then(|| threshold_form(s.threshold_pct.clone()))}
    }
}

/// The bill section of an approved order (mounted by the order page), read on the server; the
/// import form, for those who may import, is [`BillImport`].
#[component]
pub fn BillCard(order_id: i64) -> impl IntoView {
    let data = Resource::new(move || order_id, load_bills);
    view! {
        <crate::components::loaded::Loaded resource=data let:s>
            {
                let can_import = s.can_import;
                view! {
                    <section class="card" id="bill" data-testid="order-bill">
                        <div id=RECORD_ID>{record_view(s)}</div>
                        {can_import.then(|| view! { <BillImport order_id /> })}
                    </section>
                }
            }
        </crate::components::loaded::Loaded>
    }
}

/// The import form: the page's island (the file is read in the browser). A save shows the
/// section's record as it now reads, without a new page.
#[island(lazy)]
fn BillImport(order_id: i64) -> impl IntoView {
    import_form(ImportForm::new(order_id))
}
