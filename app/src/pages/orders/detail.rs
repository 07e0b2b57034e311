//! One order on one page: the chosen quote against the alternatives (cost table and chart), the
//! runs and their verdicts, the six-point checklist with evidence, the history with hashes and
//! the chain status; submit, approve or reject with the password, reopen. Prints as the record.

use super::{state_class, state_msg};
use crate::{
    components::{
        forms::{ActionError, ErrorBox, reload_on_success},
        guard::member_page,
    },
    error::AppError,
    i18n::{Msg, t, use_locale},
    pages::runs::text::{status_class as run_class, status_msg as run_msg},
    views::orders::{ItemLine, OrderView},
};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::{use_params_map, use_query_map};

/// One of the active team's orders, at `revision` (default: the latest).
#[server(endpoint = "orders/get")]
pub async fn load_order(id: i64, revision: Option<i64>) -> Result<OrderView, AppError> {
    use crate::{app::request_locale, auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    orders::view(&auth::db()?, &caller, &team, id, revision, request_locale()).await
}

/// Row ids from form values (empty values skipped).
#[cfg(feature = "ssr")]
fn ids(list: &[String]) -> Result<Vec<i64>, AppError> {
    list.iter()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().map_err(|_| AppError::Invalid(Msg::ErrorBadRequest)))
        .collect()
}

/// Chooses the quote, the alternatives, the runs and a waiver (procurement, draft only).
#[server(endpoint = "orders/select")]
pub async fn select_for_order(
    order_id: i64,
    quote_id: String,
    #[server(default)] considered: Vec<String>,
    #[server(default)] runs: Vec<String>,
    waiver: String,
) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    let selection = orders::Selection {
        quote_id: quote_id.trim().parse().ok(),
        considered: ids(&considered)?,
        runs: ids(&runs)?,
        waiver,
    };
    orders::select(&auth::db()?, &caller, &team, order_id, &selection).await
}

/// Sets the comparison the order is submitted with from a pasted cost page link (empty: the
/// default comparison of the quotes considered); procurement, draft only.
#[server(endpoint = "orders/comparison")]
pub async fn set_order_comparison(order_id: i64, link: String) -> Result<(), AppError> {
    use crate::{app::request_locale, auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    orders::set_comparison(&auth::db()?, &caller, &team, order_id, &link, request_locale()).await
}

/// The fields of an item's answer form.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AnswerFields {
    /// Order id.
    pub order_id: String,
    /// Item id.
    pub item_id: String,
    /// `open`, `confirmed`, `not_applicable`, `problem`.
    pub status: String,
    /// Reason or note.
    #[serde(default)]
    pub status_note: String,
    /// Answer.
    #[serde(default)]
    pub answer: String,
    /// Run id as evidence (empty: none).
    #[serde(default)]
    pub evidence_run: String,
    /// Note as evidence.
    #[serde(default)]
    pub evidence_note: String,
    /// Quote field as evidence (column name).
    #[serde(default)]
    pub evidence_quote_field: String,
    /// Vendor document id as evidence.
    #[serde(default)]
    pub evidence_file: String,
    /// `on` to cite the cost comparison.
    #[serde(default)]
    pub evidence_tco: String,
}

/// Answers one checklist item (engineers their items, procurement theirs; draft only).
#[server(endpoint = "orders/answer")]
pub async fn answer_item(#[server(flatten)] fields: AnswerFields) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::AnswerChecklist)?;
    let form = orders::AnswerForm {
        item_id: fields.item_id,
        status: fields.status,
        status_note: fields.status_note,
        answer: fields.answer,
        evidence_run: fields.evidence_run.trim().parse().ok(),
        evidence_note: fields.evidence_note,
        evidence_quote_field: fields.evidence_quote_field,
        evidence_file: fields.evidence_file.trim().parse().ok(),
        evidence_tco: !fields.evidence_tco.is_empty(),
    };
    let order_id = fields.order_id.trim().parse().map_err(|_| AppError::NotFound)?;
    orders::answer(&auth::db()?, &caller, &team, order_id, &form).await
}

/// Submits the draft for sign-off (procurement).
#[server(endpoint = "orders/submit")]
pub async fn submit_order(order_id: i64) -> Result<(), AppError> {
    use crate::{app::request_locale, auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::SubmitOrders)?;
    orders::submit(&auth::db()?, &caller, &team, order_id, request_locale()).await
}

/// Approves or rejects (`decision` = `approve` | `reject`) with the password re-entered.
#[server(endpoint = "orders/decide")]
pub async fn decide_order(order_id: i64, decision: String, password: String, comment: String) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    let approve = match decision.as_str() {
        "approve" => true,
        "reject" => false,
        _ => {
            return Err(AppError::InvalidFields(vec![crate::error::FieldIssue::new(
                "decision", "required",
            )]));
        }
    };
    orders::decide(&auth::db()?, &caller, &team, order_id, approve, password, &comment).await
}

/// Reopens a decided order as a new draft revision.
#[server(endpoint = "orders/reopen")]
pub async fn reopen_order(order_id: i64) -> Result<(), AppError> {
    use crate::{auth, domain::roles::Capability, services::orders};
    let (caller, team) = auth::require_team(Capability::ReadTeamData)?;
    orders::reopen(&auth::db()?, &caller, &team, order_id).await
}

fn selection(v: &OrderView) -> impl IntoView + use<> {
    let action = ServerAction::<SelectForOrder>::new();
    reload_on_success(action, "");
    let chosen = v.chosen.as_ref().map(|(id, _)| *id);
    let considered: Vec<i64> = v.considered.iter().map(|(id, _)| *id).collect();
    let attached: Vec<i64> = v.runs.iter().map(|r| r.id).collect();
    let editable = v.can_edit;
    let order_id = v.id.to_string();
    let quote_choices = v.quote_choices.clone();
    let run_choices = v.run_choices.clone();
    let waiver = v.waiver.clone();
    view! {
        <section class="card" data-testid="order-selection">
            <h2>{t(Msg::OrdersSelection)}</h2>
            <dl class="facts">
                <dt>{t(Msg::OrdersChosen)}</dt>
                <dd data-testid="order-chosen">{v.chosen.as_ref().map_or_else(|| t(Msg::OrdersNone).to_string(), |(_, l)| l.clone())}</dd>
                <dt>{t(Msg::OrdersConsidered)}</dt>
                <dd>{v.considered.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>().join(" · ")}</dd>
                <dt>{t(Msg::OrdersRuns)}</dt>
                <dd>
                    {v.runs.iter().map(|r| view! {
                        <a href=format!("/runs/{}", r.id)>{format!("#{}", r.id)}</a> " " <span class=run_class(r.status)>{t(run_msg(r.status))}</span> " "
                    }).collect_view()}
                </dd>
                {(!v.waiver.is_empty()).then(|| view! { <dt>{t(Msg::OrdersWaiver)}</dt><dd>{v.waiver.clone()}</dd> })}
            </dl>
            {v.runs.iter().filter(|r| r.has_telemetry).take(4).map(|r| view! {
                <figure class="run-chart">
                    <img class="chart" src=format!("/runs/{}/telemetry.svg", r.id) alt=t(Msg::RunsChartAlt) data-testid="order-run-chart" />
                    <figcaption><a href=format!("/runs/{}", r.id)>{format!("#{}", r.id)}</a></figcaption>
                </figure>
            }).collect_view()}
            {editable.then(|| view! {
                <ActionForm action attr:class="form no-print" attr:data-testid="selection-form">
                    <input type="hidden" name="order_id" value=order_id />
                    <label>{t(Msg::OrdersChosen)}
                        <select name="quote_id">
                            <option value="">{t(Msg::OrdersNone)}</option>
                            {quote_choices.iter().map(|(id, l)| view! { <option value=id.to_string() selected=Some(*id) == chosen>{l.clone()}</option> }).collect_view()}
                        </select>
                    </label>
                    <fieldset><legend>{t(Msg::OrdersConsidered)}</legend>
                        <div class="check-grid">
                            {quote_choices.iter().map(|(id, l)| view! {
                                <label class="check"><input type="checkbox" name="considered[]" value=id.to_string() checked=considered.contains(id) />{l.clone()}</label>
                            }).collect_view()}
                        </div>
                    </fieldset>
                    <fieldset><legend>{t(Msg::OrdersRuns)}</legend>
                        <div class="check-grid">
                            {run_choices.iter().map(|r| view! {
                                <label class="check">
                                    <input type="checkbox" name="runs[]" value=r.id.to_string() checked=attached.contains(&r.id) />
                                    {format!("#{} {}", r.id, r.quote_label.clone().unwrap_or_else(|| r.node_label.clone()))}
                                    " " <span class=run_class(r.status)>{t(run_msg(r.status))}</span>
                                </label>
                            }).collect_view()}
                        </div>
                    </fieldset>
                    <label>{t(Msg::OrdersWaiver)}<textarea name="waiver" rows="2">{waiver}</textarea></label>
                    <button type="submit" class="small">{t(Msg::OrdersSaveSelection)}</button>
                </ActionForm>
                <ActionError action />
            })}
        </section>
    }
}

/// What an item can cite: runs, fields and documents of the chosen quote.
#[derive(Clone)]
struct Citable {
    runs: Vec<(i64, String)>,
    fields: Vec<(String, String)>,
    documents: Vec<(i64, String)>,
}

fn item_view(order_id: i64, item: ItemLine, cite: Citable) -> impl IntoView {
    let runs = cite.runs.clone();
    let status_label = |s: &str| {
        t(match s {
            "confirmed" => Msg::OrdersStConfirmed,
            "not_applicable" => Msg::OrdersStNotApplicable,
            "problem" => Msg::OrdersStProblem,
            _ => Msg::OrdersStOpen,
        })
    };
    let class = format!("checklist-item status-{}", item.status);
    let expert = t(if item.expert == "engineer" {
        Msg::OrdersExpertEngineer
    } else {
        Msg::OrdersExpertProcurement
    });
    let (item_id, note, answer, current) = (
        item.id.clone(),
        item.status_note.clone(),
        item.answer.clone(),
        item.status.clone(),
    );
    let testid = format!("answer-{item_id}");
    let form = item.can_answer.then(move || {
        let action = ServerAction::<AnswerItem>::new();
        reload_on_success(action, "");
        view! {
            <ActionForm action attr:class="form-inline item-form no-print" attr:data-testid=testid>
                <input type="hidden" name="order_id" value=order_id.to_string() />
                <input type="hidden" name="item_id" value=item_id />
                <label>{t(Msg::OrdersStatus)}
                    <select name="status">
                        {["open", "confirmed", "not_applicable", "problem"].into_iter().map(|s| view! {
                            <option value=s selected=s == current>{status_label(s)}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>{t(Msg::OrdersStatusNote)}<input type="text" name="status_note" value=note /></label>
                <label>{t(Msg::OrdersAnswer)}<input type="text" name="answer" value=answer /></label>
                <label>{t(Msg::OrdersEvidenceRun)}
                    <select name="evidence_run">
                        <option value="">{t(Msg::OrdersNone)}</option>
                        {runs.iter().map(|(id, l)| view! { <option value=id.to_string()>{l.clone()}</option> }).collect_view()}
                    </select>
                </label>
                <label>{t(Msg::OrdersEvidenceNote)}<input type="text" name="evidence_note" /></label>
                {(!cite.fields.is_empty()).then(|| view! {
                    <label>{t(Msg::OrdersEvidenceQuoteField)}
                        <select name="evidence_quote_field">
                            <option value="">{t(Msg::OrdersNone)}</option>
                            {cite.fields.iter().map(|(c, l)| view! { <option value=c.clone()>{l.clone()}</option> }).collect_view()}
                        </select>
                    </label>
                })}
                {(!cite.documents.is_empty()).then(|| view! {
                    <label>{t(Msg::OrdersEvidenceFile)}
                        <select name="evidence_file">
                            <option value="">{t(Msg::OrdersNone)}</option>
                            {cite.documents.iter().map(|(id, n)| view! { <option value=id.to_string()>{n.clone()}</option> }).collect_view()}
                        </select>
                    </label>
                })}
                <label class="check"><input type="checkbox" name="evidence_tco" value="on" />{t(Msg::OrdersEvidenceTco)}</label>
                <button type="submit" class="small">{t(Msg::OrdersSaveItem)}</button>
            </ActionForm>
            <ActionError action />
        }
    });
    view! {
        <li class=class id=format!("item-{}", item.id) data-testid="checklist-item">
            <p>
                <strong>{item.text.clone()}</strong> " "
                <span class="tag">{expert}</span>
                {item.required.then(|| view! { <span class="tag warn">{t(Msg::OrdersRequired)}</span> })}
                " " <span class="item-status" data-testid="item-status">{status_label(&item.status)}</span>
            </p>
            <p class="hint">{item.why.clone()}</p>
            {item.suggestion.clone().map(|s| view! { <p class="hint suggestion" data-testid="item-suggestion">{s}</p> })}
            {item.evidence_hint.clone().map(|h| view! { <p class="hint" data-testid="item-evidence-needed">{h}</p> })}
            {(!item.answer.is_empty() || !item.status_note.is_empty()).then(|| view! {
                <p>{item.answer.clone()} {(!item.status_note.is_empty()).then(|| format!(" ({})", item.status_note))}</p>
            })}
            {(!item.evidence.is_empty()).then(|| view! {
                <ul class="links">{item.evidence.iter().map(|e| match &e.href {
                    Some(h) => view! { <li><a href=h.clone()>{e.label.clone()}</a></li> }.into_any(),
                    None => view! { <li>{e.label.clone()}</li> }.into_any(),
                }).collect_view()}</ul>
            })}
            {item.answered.clone().map(|a| view! { <p class="hint">{a}</p> })}
            {form}
        </li>
    }
}

/// The comparison the manager signs: the rows (frozen at submission, else as they compute
/// now), where they come from, and for procurement on a draft the link to use instead.
fn comparison(v: &OrderView) -> impl IntoView + use<> {
    let action = ServerAction::<SetOrderComparison>::new();
    reload_on_success(action, "");
    let query = v.tco_query.clone();
    let chosen = v.chosen.as_ref().map(|(q, _)| *q);
    let scenario = v
        .has_scenario
        .then(|| format!("/orders/{}/scenario.json?rev={}", v.id, v.revision));
    let link = if v.comparison_custom {
        format!("/tco?{query}")
    } else {
        String::new()
    };
    let order_id = v.id.to_string();
    view! {
        <section class="card" data-testid="order-comparison">
            <h2>{t(Msg::OrdersTco)}</h2>
            <p class="hint">
                {t(if v.tco_frozen { Msg::OrdersTcoFrozen } else { Msg::OrdersTcoLive })} " · "
                {t(if v.comparison_custom { Msg::OrdersComparisonCustom } else { Msg::OrdersComparisonDefault })} " · "
                <a href=format!("/tco?{query}") rel="external" data-testid="order-comparison-open">{t(Msg::OrdersComparisonOpen)}</a>
                {scenario.map(|href| view! { " · " <a href=href rel="external" data-testid="order-scenario">{t(Msg::OrdersScenarioJson)}</a> })}
            </p>
            <table class="table" data-testid="order-tco">
                <thead><tr>
                    <th class="num">{t(Msg::TcoColRank)}</th><th>{t(Msg::TcoColQuote)}</th><th class="num">{t(Msg::TcoColTotal)}</th>
                    <th class="num">{t(Msg::OrdersColOwnTotal)}</th><th>{t(Msg::OrdersColRate)}</th>
                    <th class="num">{t(Msg::TcoColUnitCost)}</th><th class="num">{t(Msg::TcoColTime)}</th>
                </tr></thead>
                <tbody>
                    {v.tco.iter().map(|r| view! {
                        <tr class=if chosen == Some(r.quote_id) { "cheapest" } else { "" } data-testid="order-tco-row" data-quote=r.quote_id.to_string()>
                            <td class="num">{r.rank}</td><td>{r.label.clone()}</td>
                            <td class="num"><strong data-testid="order-tco-total">{r.compared_total.clone()}</strong></td>
                            <td class="num">{r.total.clone()}</td><td>{r.rate_note.clone().unwrap_or_default()}</td>
                            <td class="num">{r.cost_per_unit.clone().unwrap_or_default()}</td><td class="num">{r.time_to_finish.clone()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            {(!v.tco.is_empty() && !v.tco_frozen).then(|| view! { <img class="chart" src=format!("/tco/stack.svg?{query}") alt=t(Msg::OrdersTco) /> })}
            {v.can_edit.then(|| view! {
                <ActionForm action attr:class="form no-print" attr:data-testid="comparison-form">
                    <input type="hidden" name="order_id" value=order_id />
                    <label>{t(Msg::OrdersComparisonLink)}<input type="text" name="link" value=link placeholder="/tco?workload=…" /></label>
                    <p class="hint">{t(Msg::OrdersComparisonHint)}</p>
                    <button type="submit" class="small">{t(Msg::OrdersComparisonSave)}</button>
                </ActionForm>
                <ActionError action />
            })}
        </section>
    }
}

fn actions(v: &OrderView) -> impl IntoView + use<> {
    let submit = ServerAction::<SubmitOrder>::new();
    let decide = ServerAction::<DecideOrder>::new();
    let reopen = ServerAction::<ReopenOrder>::new();
    reload_on_success(submit, "");
    reload_on_success(decide, "");
    reload_on_success(reopen, "");
    let id = v.id.to_string();
    let (id2, id3) = (id.clone(), id.clone());
    view! {
        <section class="card no-print" data-testid="order-actions">
            {v.can_submit.then(|| view! {
                <ActionForm action=submit attr:data-testid="submit-form">
                    <input type="hidden" name="order_id" value=id.clone() />
                    <button type="submit">{t(Msg::OrdersSubmit)}</button>
                </ActionForm>
                <ActionError action=submit />
            })}
            {v.can_decide.then(|| view! {
                <h2>{t(Msg::OrdersDecide)}</h2>
                <ActionForm action=decide attr:class="form" attr:data-testid="decide-form">
                    <input type="hidden" name="order_id" value=id2 />
                    <div class="form-inline">
                        <label class="check"><input type="radio" name="decision" value="approve" checked=true />{t(Msg::OrdersApprove)}</label>
                        <label class="check"><input type="radio" name="decision" value="reject" />{t(Msg::OrdersReject)}</label>
                    </div>
                    <label>{t(Msg::OrdersComment)}<textarea name="comment" rows="2"></textarea></label>
                    <label>{t(Msg::OrdersPassword)}<input type="password" name="password" autocomplete="current-password" required /></label>
                    <button type="submit">{t(Msg::OrdersDecide)}</button>
                </ActionForm>
                <ActionError action=decide />
            })}
            {v.can_reopen.then(|| view! {
                <ActionForm action=reopen attr:data-testid="reopen-form">
                    <input type="hidden" name="order_id" value=id3 />
                    <button type="submit" class="secondary">{t(Msg::OrdersReopen)}</button>
                </ActionForm>
                <ActionError action=reopen />
            })}
        </section>
    }
}

fn record(v: &OrderView) -> impl IntoView + use<> {
    view! {
        <section class="card" data-testid="order-history">
            <h2>{t(Msg::OrdersHistory)}</h2>
            <p class=if v.chain_ok { "callout callout-ok" } else { "callout callout-danger" } data-testid="chain-status">{v.chain_message.clone()}</p>
            <dl class="facts">
                <dt>{t(Msg::OrdersHeadHash)}</dt><dd><code class="hash" data-testid="head-hash">{v.head_hash.clone()}</code></dd>
                {v.content_hash.clone().map(|h| view! { <dt>{t(Msg::OrdersContentHash)}</dt><dd><code class="hash" data-testid="content-hash">{h}</code></dd> })}
            </dl>
            <ol class="timeline">
                {v.history.iter().map(|e| view! {
                    <li>
                        <strong>{e.action.clone()}</strong> " · " {e.actor.clone()} " · " {e.at.clone()}
                        {(!e.detail.is_empty()).then(|| view! { " · " {e.detail.clone()} })}
                        <br /><small class="hint">{format!("#{} ", e.seq)}<code class="hash">{e.hash.clone()}</code></small>
                    </li>
                }).collect_view()}
            </ol>
        </section>
    }
}

/// The order page.
#[component]
pub fn OrderPage() -> impl IntoView {
    member_page(|_caller| {
        let params = use_params_map();
        let query = use_query_map();
        let key = move || {
            (
                params.read().get("id").and_then(|v| v.parse::<i64>().ok()),
                query.read().get("rev").and_then(|v| v.parse::<i64>().ok()),
            )
        };
        let data = Resource::new(key, |(id, rev)| async move {
            match id {
                Some(id) => load_order(id, rev).await,
                None => Err(AppError::NotFound),
            }
        });
        view! {
            <Suspense fallback=|| view! { <p class="loading">{t(Msg::Loading)}</p> }>
                {move || Suspend::new(async move {
                    match data.await {
                        Err(error) => view! { <ErrorBox error /> }.into_any(),
                        Ok(v) => {
                            let locale = use_locale();
                            let cite = Citable {
                                runs: v.runs.iter().map(|r| (r.id, format!("#{}", r.id))).collect(),
                                fields: v.quote_fields.clone(),
                                documents: v.documents.clone(),
                            };
                            let order_id = v.id;
                            view! {
                                <Title text=v.title.clone() />
                                <p class="breadcrumb no-print"><a href="/orders">{t(Msg::OrdersTitle)}</a></p>
                                <h1>{v.title.clone()} " " <span class=state_class(v.state) data-testid="order-state">{t(state_msg(v.state))}</span></h1>
                                <p class="lead">
                                    {locale.fmt(Msg::OrdersRevision, &[("n", &v.revision.to_string())])} " · "
                                    <a href=format!("/workloads/{}", v.workload.0)>{v.workload.1.clone()}</a>
                                    {v.revisions.iter().filter(|(n, _)| *n != v.revision).map(|(n, s)| view! {
                                        " · " <a href=format!("/orders/{order_id}?rev={n}") rel="external">{locale.fmt(Msg::OrdersRevision, &[("n", &n.to_string())])} " (" {t(state_msg(*s))} ")"</a>
                                    }).collect_view()}
                                </p>
                                {v.decisions.iter().map(|d| view! { <p data-testid="order-decision">{d.clone()}</p> }).collect_view()}
                                <p class="actions no-print">
                                    <a class="button-link secondary" rel="external" href=format!("/orders/{order_id}/export.json")>{t(Msg::OrdersExportJson)}</a>
                                </p>
                                {selection(&v)}
                                {comparison(&v)}
                                {(!v.blockers.is_empty() && v.state == crate::domain::orders::OrderState::Draft).then(|| view! {
                                    <section class="callout callout-warn" data-testid="order-blockers">
                                        <strong>{t(Msg::OrdersBlockers)}</strong>
                                        <ul>{v.blockers.iter().map(|(id, text)| if id.is_empty() {
                                            view! { <li>{text.clone()}</li> }.into_any()
                                        } else {
                                            view! { <li><a href=format!("#item-{id}")>{text.clone()}</a></li> }.into_any()
                                        }).collect_view()}</ul>
                                    </section>
                                })}
                                {actions(&v)}
                                <section class="card" data-testid="order-checklist">
                                    <h2>{t(Msg::OrdersChecklist)}</h2>
                                    {v.sections.iter().map(|s| view! {
                                        <h3>{s.title.clone()}</h3>
                                        <ul class="checklist">{s.items.iter().cloned().map(|i| item_view(order_id, i, cite.clone())).collect_view()}</ul>
                                    }).collect_view()}
                                </section>
                                {record(&v)}
                            }
                            .into_any()
                        }
                    }
                })}
            </Suspense>
        }
        .into_any()
    })
}
