//! Quotes side by side, every field in one row with differences highlighted.

use crate::{
    components::{guard::member_page, loaded::Loaded},
    error::AppError,
    i18n::{Msg, t},
    pages::quotes::form::{SECTIONS, display_value, label},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Most quotes compared at once.
pub const MAX_COMPARED: usize = 8;

/// A compared quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparedQuote {
    /// Quote id.
    pub quote_id: i64,
    /// "Vendor · reference".
    pub title: String,
    /// Revision shown.
    pub revision: i64,
    /// Validity has ended.
    pub expired: bool,
    /// Node price per hour, formatted.
    pub node_hour: String,
    /// GPU price per hour, formatted.
    pub gpu_hour: String,
    /// Field values by column.
    pub values: BTreeMap<String, String>,
    /// The node-hour price in the team's base currency, with the rate and its date, when the
    /// quote is in another currency and the team has a rate for the pair.
    pub converted: Option<String>,
}

/// One checked requirement of a workload against one quote, worded for the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckLine {
    /// What is checked.
    pub label: String,
    /// `pass`, `warning`, `fail` or `unknown`.
    pub status: String,
    /// "needs …", "offers …" and explanations.
    pub detail: String,
}

/// A comparison: the quotes, the team's workloads, and the chosen workload's check per quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The compared quotes.
    pub quotes: Vec<ComparedQuote>,
    /// The team's workloads `(id, name)`, to choose from.
    pub workloads: Vec<(i64, String)>,
    /// The chosen workload's name and, per quote (same order), its requirements.
    pub check: Option<(String, Vec<Vec<CheckLine>>)>,
    /// Per quote (same order), the questions for the vendor the check raised ("Ask the
    /// vendor: does the node support RDMA?"); empty without a workload.
    pub questions: Vec<Vec<String>>,
}

/// The compared quotes (latest revisions of the active team's quotes), checked against one of
/// the team's workloads when `workload_id` is given.
#[server(endpoint = "quotes/compare", input = server_fn::codec::Json)]
pub async fn compare_quotes(ids: Vec<i64>, workload_id: Option<i64>) -> Result<Comparison, AppError> {
    server::compare(ids, workload_id).await
}

#[cfg(feature = "ssr")]
mod server {
    use super::*;
    use crate::{
        auth,
        domain::{
            money::format_money,
            quotes::{self, Figure, Note, Requirement, RequirementStatus, Unstated},
            roles::Capability,
            tco::{Currency, ExchangeRate},
        },
        i18n::Locale,
        i18n::request_locale,
        pages::quotes::form::{Input, display_value},
        store,
    };
    use rust_decimal::Decimal;

    fn figure(locale: Locale, f: &Figure) -> String {
        match f {
            Figure::Gib(v) => format!("{} GiB", v.normalize()),
            Figure::Gb(v) => format!("{} GB", v.normalize()),
            Figure::Gpus(n) => format!("{n} × GPU"),
            Figure::Gbps(v) => format!("{} Gbit/s", v.normalize()),
            Figure::Sharing(s) => display_value(Input::Sharing, &sharing_code(s)),
            Figure::Interconnect(i) => locale
                .t(match i {
                    quotes::Interconnect::None => Msg::QcNone,
                    quotes::Interconnect::Pcie => Msg::QcPcie,
                    quotes::Interconnect::Nvlink => Msg::QcNvlink,
                    quotes::Interconnect::Nvswitch => Msg::QcNvswitch,
                })
                .to_string(),
            Figure::Flag(b) => locale.t(if *b { Msg::QcYes } else { Msg::QcNo }).to_string(),
        }
    }

    fn sharing_code(s: &quotes::Sharing) -> String {
        serde_json::to_value(s)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_else(|| format!("{s:?}").to_lowercase())
    }

    fn note(locale: Locale, n: &Note) -> String {
        match n {
            Note::NeedsNodes { nodes } => locale.fmt(Msg::ReqNoteNeedsNodes, &[("nodes", &nodes.to_string())]),
            Note::UsableVramNotStated => locale.t(Msg::ReqNoteUsableVramNotStated).to_string(),
            Note::PeakNotMeasured => locale.t(Msg::ReqNotePeakNotMeasured).to_string(),
            Note::PooledAcrossGpus => locale.t(Msg::ReqNotePooledAcrossGpus).to_string(),
            Note::PcieOnly => locale.t(Msg::ReqNotePcieOnly).to_string(),
            Note::NoRdma => locale.t(Msg::ReqNoteNoRdma).to_string(),
            Note::PartialDiskInfo => locale.t(Msg::ReqNotePartialDiskInfo).to_string(),
            Note::VramFromMigProfile { profile } => locale.fmt(Msg::ReqNoteVramFromMigProfile, &[("profile", profile)]),
            Note::VramFromShare { share } => {
                locale.fmt(Msg::ReqNoteVramFromShare, &[("share", &share.normalize().to_string())])
            }
            Note::FitsOnlyIfPooled => locale.t(Msg::ReqNoteFitsOnlyIfPooled).to_string(),
            Note::SliceForLowConcurrency { max } => {
                locale.fmt(Msg::ReqNoteSliceLowConcurrency, &[("max", &max.to_string())])
            }
            Note::BetterSuitedExclusive => locale.t(Msg::ReqNoteBetterSuitedExclusive).to_string(),
            Note::AskVendor { about } => question(locale, *about),
        }
    }

    /// "Ask the vendor: does the node support RDMA?"
    fn question(locale: Locale, about: Unstated) -> String {
        let q = locale.t(match about {
            Unstated::Rdma => Msg::ReqQuestionRdma,
            Unstated::MemoryPooling => Msg::ReqQuestionMemoryPooling,
            Unstated::SliceVram => Msg::ReqQuestionSliceVram,
            Unstated::NetworkBandwidth => Msg::ReqQuestionNetworkBandwidth,
            Unstated::Interconnect => Msg::ReqQuestionInterconnect,
            Unstated::DiskSizes => Msg::ReqQuestionDiskSizes,
            Unstated::GpusPerNode => Msg::ReqQuestionGpusPerNode,
            Unstated::DiskPrice => Msg::ReqQuestionDiskPrice,
            Unstated::SnapshotPrice => Msg::ReqQuestionSnapshotPrice,
            Unstated::EgressPrice => Msg::ReqQuestionEgressPrice,
            Unstated::IngressPrice => Msg::ReqQuestionIngressPrice,
            Unstated::StoppedCompute => Msg::ReqQuestionStoppedCompute,
            Unstated::NodesAvailable => Msg::ReqQuestionNodesAvailable,
            Unstated::LeadTime => Msg::ReqQuestionLeadTime,
        });
        locale.fmt(Msg::ReqAskVendor, &[("question", q)])
    }

    fn line(locale: Locale, r: &Requirement) -> CheckLine {
        let label = locale.t(crate::pages::quotes::compare::requirement_msg(r.kind));
        let mut parts = Vec::new();
        if let Some(f) = &r.required {
            parts.push(locale.fmt(Msg::ReqNeeds, &[("required", &figure(locale, f))]));
        }
        parts.push(match &r.offered {
            Some(f) => locale.fmt(Msg::ReqOffers, &[("offered", &figure(locale, f))]),
            None => locale.t(Msg::CompareUnknown).to_string(),
        });
        parts.extend(r.notes.iter().map(|n| note(locale, n)));
        let status = match r.status {
            RequirementStatus::Pass => "pass",
            RequirementStatus::Warning => "warning",
            RequirementStatus::Fail => "fail",
            RequirementStatus::Unknown => "unknown",
        };
        CheckLine {
            label: label.to_string(),
            status: status.to_string(),
            detail: parts.join(" · "),
        }
    }

    pub async fn compare(ids: Vec<i64>, workload_id: Option<i64>) -> Result<Comparison, AppError> {
        let (_, team) = auth::require_team(Capability::ReadTeamData)?;
        if ids.len() > MAX_COMPARED {
            return Err(AppError::Invalid(Msg::CompareNeedTwo));
        }
        let locale = request_locale();
        let db = auth::db()?;
        let today = store::today();
        let workload = match workload_id {
            Some(id) => Some(
                store::workloads::by_id(&db, team.team_id, id)
                    .await?
                    .ok_or(AppError::NotFound)?
                    .record,
            ),
            None => None,
        };
        let mut quotes_out = Vec::with_capacity(ids.len());
        let mut checks = Vec::with_capacity(ids.len());
        let mut questions = Vec::with_capacity(ids.len());
        let mut exact = Vec::with_capacity(ids.len());
        for id in ids {
            let q = store::quotes::latest(&db, team.team_id, id)
                .await?
                .ok_or(AppError::NotFound)?;
            if let Some(w) = &workload {
                let checked = quotes::check(w, &q.draft.spec);
                questions.push(
                    quotes::vendor_questions(&checked)
                        .into_iter()
                        .chain(quotes::price_questions(&q.draft.price))
                        .chain(quotes::supply_questions(&q.draft))
                        .map(|about| question(locale, about))
                        .collect(),
                );
                checks.push(checked.iter().map(|r| line(locale, r)).collect());
            }
            exact.push(q.draft.hourly_per_node().map(|p| (p, q.draft.price.currency)));
            quotes_out.push(compared(q, today, locale));
        }
        let base = store::teams::base_currency(&db, team.team_id).await?;
        let rates: Vec<ExchangeRate> = store::exchange_rates::list(&db, team.team_id)
            .await?
            .into_iter()
            .map(|r| r.record)
            .collect();
        if let Some(base) = base {
            for q in quotes_out.iter_mut().zip(exact.iter().copied()) {
                q.0.converted =
                    q.1.and_then(|(amount, currency)| convert(locale, amount, currency, base, &rates));
            }
        }
        let workloads = store::workloads::list(&db, team.team_id)
            .await?
            .into_iter()
            .map(|w| (w.id, w.record.name))
            .collect();
        Ok(Comparison {
            quotes: quotes_out,
            workloads,
            check: workload.map(|w| (w.name, checks)),
            questions,
        })
    }

    /// `amount` of `currency` in `base` with the latest rate for the pair (either direction):
    /// "≈ ¥9.34 (1 USD = 7.21 CNY, 2026-11-20)".
    fn convert(
        locale: Locale,
        amount: Decimal,
        currency: Currency,
        base: Currency,
        rates: &[ExchangeRate],
    ) -> Option<String> {
        if currency == base {
            return None;
        }
        let rate = crate::domain::tco::latest_rate(rates, currency, base)?;
        let converted = rate.convert(amount, currency).ok()?;
        Some(locale.fmt(
            Msg::CompareConverted,
            &[
                ("amount", &format_money(converted, base)),
                ("from", rate.from.code()),
                ("rate", &crate::domain::money::rate_text(rate.rate)),
                ("to", rate.to.code()),
                ("date", &rate.date),
            ],
        ))
    }

    fn compared(q: store::quotes::QuoteSummary, today: quotes::Date, locale: Locale) -> ComparedQuote {
        let d = &q.draft;
        let (node_hour, gpu_hour) = crate::pages::quotes::detail::hourly_prices(&d.price, d.spec.gpus_per_node, locale);
        ComparedQuote {
            quote_id: q.quote_id,
            title: format!("{} · {}", d.vendor, d.reference),
            revision: q.revision,
            expired: d.is_expired(today),
            node_hour,
            gpu_hour,
            values: quotes::QuoteInput::from_draft(d).into_cells(),
            converted: None,
        }
    }
}

fn workload_form(c: &Comparison, chosen: Option<i64>) -> impl IntoView + use<> {
    let ids: Vec<i64> = c.quotes.iter().map(|q| q.quote_id).collect();
    let workloads = c.workloads.clone();
    view! {
        <form method="get" action="/quotes/compare" class="form-inline" data-testid="workload-form">
            {ids.into_iter().map(|id| view! { <input type="hidden" name="id" value=id.to_string() /> }).collect_view()}
            <label>
                {t(Msg::CompareWorkload)}
                <select name="workload">
                    <option value="">{t(Msg::CompareNoWorkload)}</option>
                    {workloads.into_iter().map(|(id, name)| view! {
                        <option value=id.to_string() selected=Some(id) == chosen>{name}</option>
                    }).collect_view()}
                </select>
            </label>
            <button type="submit" class="small">{t(Msg::CompareCheck)}</button>
        </form>
    }
}

fn check_rows(c: &Comparison) -> impl IntoView + use<> {
    let locale = crate::i18n::use_locale();
    let Some((name, per_quote)) = c.check.clone() else {
        return ().into_any();
    };
    let questions = c.questions.clone();
    let width = (per_quote.len() + 1).to_string();
    let kinds: Vec<String> = per_quote
        .first()
        .map(|lines| lines.iter().map(|l| l.label.clone()).collect())
        .unwrap_or_default();
    view! {
        <tr class="section-row"><th colspan=width>{locale.fmt(Msg::CompareRequirements, &[("workload", &name)])}</th></tr>
        {kinds.into_iter().map(|kind| {
            let cells: Vec<Option<CheckLine>> = per_quote.iter().map(|lines| lines.iter().find(|l| l.label == kind).cloned()).collect();
            view! {
                <tr class="check-row">
                    <th scope="row">{kind.clone()}</th>
                    {cells.into_iter().map(|cell| match cell {
                        Some(l) => {
                            let verdict = t(match l.status.as_str() {
                                "pass" => Msg::ComparePass,
                                "warning" => Msg::CompareWarning,
                                "fail" => Msg::CompareFail,
                                _ => Msg::CompareUnknown,
                            });
                            view! {
                                <td class=format!("check {}", l.status) data-status=l.status.clone()>
                                    <strong>{verdict}</strong> <small>{l.detail}</small>
                                </td>
                            }.into_any()
                        }
                        None => view! { <td></td> }.into_any(),
                    }).collect_view()}
                </tr>
            }
        }).collect_view()}
        {questions.iter().any(|q| !q.is_empty()).then(|| view! {
            <tr class="check-row questions" data-testid="vendor-questions">
                <th scope="row">{t(Msg::CompareQuestions)}</th>
                {questions.into_iter().map(|qs| view! {
                    <td><ul class="warnings">{qs.into_iter().map(|q| view! { <li>{q}</li> }).collect_view()}</ul></td>
                }).collect_view()}
            </tr>
        })}
    }
    .into_any()
}

fn compare_table(c: Comparison) -> impl IntoView {
    let checks = check_rows(&c);
    let quotes = c.quotes;
    let header = quotes.clone();
    let prices = quotes.clone();
    view! {
        <div class="table-scroll">
            <table class="table compare" data-testid="compare-table">
                <thead>
                    <tr>
                        <th>{t(Msg::CompareField)}</th>
                        {header.into_iter().map(|q| view! {
                            <th>
                                <a href=format!("/quotes/{}", q.quote_id)>{q.title}</a>
                                {q.expired.then(|| view! { <span class="tag danger">{t(Msg::QuotesExpired)}</span> })}
                            </th>
                        }).collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {checks}
                    <tr class:differs=prices.windows(2).any(|w| w[0].node_hour != w[1].node_hour)>
                        <th scope="row">{t(Msg::QuotesColNodeHour)}</th>
                        {prices.iter().map(|q| view! {
                            <td class="num">
                                {q.node_hour.clone()}
                                {q.converted.clone().map(|c| view! { <small class="converted">{c}</small> })}
                            </td>
                        }).collect_view()}
                    </tr>
                    <tr class:differs=prices.windows(2).any(|w| w[0].gpu_hour != w[1].gpu_hour)>
                        <th scope="row">{t(Msg::QuotesColGpuHour)}</th>
                        {prices.iter().map(|q| view! { <td class="num">{q.gpu_hour.clone()}</td> }).collect_view()}
                    </tr>
                    {SECTIONS.iter().map(|(title, fields)| {
                        let quotes = quotes.clone();
                        view! {
                            <tr class="section-row"><th colspan=(quotes.len() + 1).to_string()>{t(*title)}</th></tr>
                            {fields.iter().map(|(column, input, _)| {
                                let values: Vec<String> = quotes.iter().map(|q| q.values.get(*column).cloned().unwrap_or_default()).collect();
                                let differs = values.windows(2).any(|w| w[0] != w[1]);
                                view! {
                                    <tr class:differs=differs>
                                        <th scope="row">
                                            {label(column)}
                                            {differs.then(|| view! { <span class="visually-hidden">{t(Msg::CompareDiffers)}</span> })}
                                        </th>
                                        {values.iter().map(|v| view! { <td>{display_value(*input, v)}</td> }).collect_view()}
                                    </tr>
                                }
                            }).collect_view()}
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The workload choice and the table, once at least two quotes are chosen; `chosen` is the
/// workload checked against.
fn comparison_view(c: Comparison, chosen: Option<i64>) -> AnyView {
    if c.quotes.len() < 2 {
        view! { <p class="empty-state">{t(Msg::CompareNeedTwo)}</p> }.into_any()
    } else {
        view! { {workload_form(&c, chosen)} {compare_table(c)} }.into_any()
    }
}

/// `/quotes/compare?id=…&id=…`.
#[component]
pub fn QuoteComparePage() -> impl IntoView {
    member_page(|_| {
        let query = use_query_map();
        let key = Memo::new(move |_| {
            let q = query.read();
            let ids = q
                .get_all("id")
                .unwrap_or_default()
                .iter()
                .filter_map(|s| s.parse::<i64>().ok())
                .collect::<Vec<_>>();
            (ids, q.get("workload").and_then(|w| w.parse::<i64>().ok()))
        });
        let comparison = Resource::new(move || key.get(), |(ids, workload)| compare_quotes(ids, workload));
        view! {
            <Title text=t(Msg::CompareTitle) />
            <p class="breadcrumb"><a href="/quotes">{t(Msg::QuotesBack)}</a></p>
            <h1>{t(Msg::CompareTitle)}</h1>
            <Loaded resource=comparison keep_while_reloading=true let:c>
                {comparison_view(c, key.get_untracked().1)}
            </Loaded>
        }
        .into_any()
    })
}

/// The name of a requirement of the workload.
#[must_use]
pub const fn requirement_msg(kind: crate::domain::quotes::RequirementKind) -> Msg {
    use crate::domain::quotes::RequirementKind;
    match kind {
        RequirementKind::Vram => Msg::ReqVram,
        RequirementKind::GpuCount => Msg::ReqGpuCount,
        RequirementKind::Network => Msg::ReqNetwork,
        RequirementKind::Disk => Msg::ReqDisk,
        RequirementKind::Exclusive => Msg::ReqExclusive,
        RequirementKind::Interconnect => Msg::ReqInterconnect,
        RequirementKind::MemoryPooling => Msg::ReqMemoryPooling,
        RequirementKind::Rdma => Msg::ReqRdma,
    }
}
