//! The order page's bill section: the reconciliation of the bills imported with the
//! frozen estimate (table, reasons, chart, the flag when the variance is above the team's
//! threshold), the bills, the unmatched lines; the import form (check, then save all or
//! nothing) and, for managers, the team's threshold. The section prints with the order; its
//! forms do not.

use super::bill_view::{bills_list, lines_table, preview_view, recon_view};
use crate::{
    components::forms::last_error,
    error::AppError,
    i18n::{Locale, Msg, t, use_locale},
    views::bills::{BillPreview, BillSection},
};
use leptos::prelude::*;
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

/// Sets the team's variance threshold, percent (managers).
#[server(endpoint = "orders/bills/threshold")]
pub async fn set_bill_threshold(threshold: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, error::FieldIssue, services::bills};
    let (caller, team) = auth::require_team(Capability::SignOffOrders)?;
    let pct = crate::domain::numbers::parse_decimal(threshold.trim().trim_end_matches('%'))
        .map_err(|e| AppError::InvalidFields(vec![FieldIssue::from_number("threshold", e)]))?;
    bills::set_threshold(&auth::db()?, team.team_id, caller.user_id, pct).await
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
    action: Action<(BillRequest, bool), Result<BillPreview, AppError>>,
}

impl ImportForm {
    fn new(order_id: i64) -> Self {
        ImportForm {
            order_id,
            file_input: NodeRef::new(),
            status: RwSignal::new(None),
            problem: RwSignal::new(None),
            checked: RwSignal::new(None),
            action: Action::new(|(req, save): &(BillRequest, bool)| import_bill(req.clone(), *save)),
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
            Some(Ok(p)) if p.ready => Some(p.matched + p.unmatched),
            _ => None,
        }
    }
}

fn import_form(form: ImportForm, refresh: RwSignal<u32>) -> impl IntoView {
    let locale = use_locale();
    let pending = form.action.pending();
    Effect::new(move |_| {
        if !pending.get() {
            form.status.set(None);
        }
        if matches!(form.action.value().get(), Some(Ok(BillPreview { saved: Some(_), .. }))) {
            refresh.update(|n| *n += 1);
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
                Some(Ok(p)) => Some(preview_view(p).into_any()),
                Some(Err(e)) => Some(view! { <p class="form-error" role="alert">{e.localized(locale)}</p> }.into_any()),
                None => None,
            }}
        </div>
    }
}

fn threshold_form(current: String, refresh: RwSignal<u32>) -> impl IntoView {
    let action = ServerAction::<SetBillThreshold>::new();
    Effect::new(move |_| {
        if matches!(action.value().get(), Some(Ok(()))) {
            refresh.update(|n| *n += 1);
        }
    });
    let locale = use_locale();
    view! {
        <ActionForm action attr:class="form-inline no-print" attr:data-testid="bill-threshold-form">
            <label>{t(Msg::BillsThreshold)}<input type="text" inputmode="decimal" name="threshold" value=current size="6" /></label>
            <button type="submit">{t(Msg::BillsThresholdSave)}</button>
            {move || match (action.value().get(), last_error(action)) {
                (Some(Ok(())), _) => Some(view! { <span role="status">{t(Msg::BillsThresholdSaved)}</span> }.into_any()),
                (_, Some(e)) => Some(view! { <span class="form-error" role="alert">{e.localized(locale)}</span> }.into_any()),
                _ => None,
            }}
        </ActionForm>
    }
}

fn section_view(s: BillSection, refresh: RwSignal<u32>) -> impl IntoView {
    let locale = use_locale();
    let flagged = s.reconciliation.as_ref().is_some_and(|r| r.flagged);
    let more = s.unmatched_count - i64::try_from(s.unmatched.len()).unwrap_or(0);
    view! {
        <section class="card" id="bill" data-testid="order-bill">
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
            {s.can_set_threshold.then(|| threshold_form(s.threshold_pct.clone(), refresh))}
            {s.can_import.then(|| import_form(ImportForm::new(s.order_id), refresh))}
        </section>
    }
}

/// The bill section of an approved order (mounted by the order page), read on the server: plain
/// HTML for a reader who may neither import a bill nor set the threshold (the reconciliation
/// needs no script), else [`BillWork`].
#[component]
pub fn BillCard(order_id: i64) -> impl IntoView {
    let data = Resource::new(move || order_id, load_bills);
    view! {
        <crate::components::loaded::Loaded resource=data let:s>
            {if s.can_import || s.can_set_threshold {
                view! { <BillWork order_id /> }.into_any()
            } else {
                section_view(s, RwSignal::new(0)).into_any()
            }}
        </crate::components::loaded::Loaded>
    }
}

/// The bill section with its forms, an island: loaded in the browser once hydrated (a
/// `LocalResource`), and again after each import or threshold change.
#[island(lazy)]
fn BillWork(order_id: i64) -> impl IntoView {
    // Server and browser both render nothing here at first (an effect never runs on the
    // server), so hydration finds the same markup; the section is built once hydrated.
    let hydrated = RwSignal::new(false);
    Effect::new(move |_| hydrated.set(true));
    move || hydrated.get().then(|| bill_section(order_id))
}

/// The section itself, loaded in the browser.
fn bill_section(order_id: i64) -> impl IntoView {
    let refresh = RwSignal::new(0_u32);
    let data = LocalResource::new(move || {
        refresh.track();
        load_bills(order_id)
    });
    view! {
        <Suspense fallback=|| view! { <p class="loading no-print">{t(Msg::Loading)}</p> }>
            {move || data.get().map(|loaded| match loaded {
                Ok(s) => section_view(s, refresh).into_any(),
                Err(error) => view! { <crate::components::forms::ErrorBox error /> }.into_any(),
            })}
        </Suspense>
    }
}
