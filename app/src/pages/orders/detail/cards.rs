//! The cards of the order page: the selection, the comparison, the next actions, the record.

use super::{DecideOrder, ReopenOrder, RepinOrder, SelectForOrder, SetOrderComparison, SubmitOrder};
use crate::{
    components::{forms::ActionError, local_time::Moment},
    i18n::{Msg, t, use_locale},
    pages::orders::fields::{FieldNote, FormError, invalid, issues_of, message_id},
    texts::runs::{status_class as run_class, status_msg as run_msg},
    views::orders::OrderView,
};
use leptos::prelude::*;

/// The chosen quote, the alternatives, the runs (with their telemetry charts) and the waiver;
/// for procurement on a draft, the form to change them.
pub(super) fn selection(v: &OrderView) -> impl IntoView + use<> {
    let action = ServerAction::<SelectForOrder>::new();
    let chosen = v.chosen.as_ref().map(|(id, _)| *id);
    let considered: Vec<i64> = v.considered.iter().map(|(id, _)| *id).collect();
    let attached: Vec<i64> = v.runs.iter().map(|r| r.id).collect();
    let editable = v.can_edit;
    let order_id = v.id.to_string();
    let quote_choices = v.quote_choices.clone();
    let run_choices = v.run_choices.clone();
    let waiver = v.waiver.clone();
    view! {
        <section class="card" id="order-selection" data-testid="order-selection">
            <h2>{t(Msg::OrdersSelection)}</h2>
            <dl class="facts">
                <dt>{t(Msg::OrdersChosen)}</dt>
                <dd data-testid="order-chosen">{v.chosen.as_ref().map_or_else(|| t(Msg::OrdersNone).to_string(), |(_, l)| l.clone())}
                    {v.from_bid.clone().map(|b| view! { <br /><small class="hint" data-testid="order-from-bid">{b}</small> })}</dd>
                <dt>{t(Msg::OrdersConsidered)}</dt>
                <dd data-testid="order-considered">{v.considered.iter().map(|(_, l)| l.clone()).collect::<Vec<_>>().join(" · ")}</dd>
                <dt>{t(Msg::OrdersRuns)}</dt>
                <dd>
                    {v.runs.iter().map(|r| view! {
                        <a href=format!("/runs/{}", r.id)>{format!("#{}", r.id)}</a> " " <span class=run_class(r.status)>{t(run_msg(r.status))}</span> " "
                    }).collect_view()}
                </dd>
                {(!v.waiver.is_empty()).then(|| view! { <dt>{t(Msg::OrdersWaiver)}</dt><dd>{v.waiver.clone()}</dd> })}
            </dl>
            {newer_revision(v)}
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

/// The comparison the manager signs: the rows (frozen at submission, else as they compute
/// now), where they come from, and for procurement on a draft the link to use instead.
pub(super) fn comparison(v: &OrderView) -> impl IntoView + use<> {
    let action = ServerAction::<SetOrderComparison>::new();
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
    // The cost-per-unit column's one scale, named once (as on the cost page).
    let unit_column = v
        .tco
        .iter()
        .find_map(|r| r.unit_cost_column.clone())
        .unwrap_or_else(|| t(Msg::TcoColUnitCost).to_string());
    view! {
        <section class="card" id="order-comparison" data-testid="order-comparison">
            <h2>{t(Msg::OrdersTco)}</h2>
            <p class="hint">
                {t(if v.tco_frozen { Msg::OrdersTcoFrozen } else { Msg::OrdersTcoLive })} " · "
                {t(if v.comparison_custom { Msg::OrdersComparisonCustom } else { Msg::OrdersComparisonDefault })} " · "
                <a href=format!("/tco?{query}") rel="external" data-testid="order-comparison-open">{t(Msg::OrdersComparisonOpen)}</a>
                {scenario.map(|href| view! { " · " <a href=href rel="external" data-testid="order-scenario">{t(Msg::OrdersScenarioJson)}</a> })}
            </p>
            <table class="table cards" data-testid="order-tco">
                <thead><tr>
                    <th class="num">{t(Msg::TcoColRank)}</th><th>{t(Msg::TcoColQuote)}</th><th class="num">{t(Msg::TcoColTotal)}</th>
                    <th class="num">{t(Msg::OrdersColOwnTotal)}</th><th>{t(Msg::OrdersColRate)}</th>
                    <th class="num">{unit_column.clone()}</th><th class="num"><abbr title=t(Msg::TcoColTimeTitle)>{t(Msg::TcoColTime)}</abbr></th>
                </tr></thead>
                <tbody>
                    {v.tco.iter().map(|r| view! {
                        <tr class=if chosen == Some(r.quote_id) { "cheapest" } else { "" } data-testid="order-tco-row" data-quote=r.quote_id.to_string()>
                            <td class="num" data-label=t(Msg::TcoColRank)>{r.rank}</td><td data-label=t(Msg::TcoColQuote)>{r.label.clone()}
                                {r.stated.then(|| view! { <span class="tag" data-testid="order-tco-stated">{t(Msg::TcoStated)}</span> })}
                                {r.estimated.then(|| view! { <span class="tag">{t(Msg::TcoEstimated)}</span> })}
                                {r.throughput.clone().map(|tp| view! { <br /><small class="hint" data-testid="order-tco-throughput">{tp}</small> })}
                                {r.token_costs.clone().map(|c| view! { <br /><small class="hint" data-testid="order-tco-token-costs">{c}</small> })}
                            </td>
                            <td class="num" data-label=t(Msg::TcoColTotal)><strong data-testid="order-tco-total">{r.compared_total.clone()}</strong></td>
                            <td class="num" data-label=t(Msg::OrdersColOwnTotal)>{r.total.clone()}</td><td data-label=t(Msg::OrdersColRate)>{r.rate_note.clone().unwrap_or_default()}</td>
                            <td class="num" data-label=unit_column.clone()>{r.cost_per_unit.clone().unwrap_or_default()}</td><td class="num" data-label=t(Msg::TcoColTime)>{r.time_to_finish.clone()}</td>
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

/// The notice that the chosen quote has a revision newer than the one the order is priced at,
/// with the action to re-pin (procurement, draft); submitting keeps the pinned revision.
fn newer_revision(v: &OrderView) -> Option<impl IntoView + use<>> {
    let (pinned, latest) = v.newer_quote_revision?;
    let repin = ServerAction::<RepinOrder>::new();
    let locale = use_locale();
    let (p, l) = (pinned.to_string(), latest.to_string());
    let notice = locale.fmt(Msg::OrdersNewerRevision, &[("latest", &l), ("pinned", &p)]);
    let button = locale.fmt(Msg::OrdersRepin, &[("latest", &l)]);
    let order_id = v.id.to_string();
    let editable = v.can_edit;
    Some(view! {
        <div class="form-error" role="status" data-testid="order-newer-revision">
            <p>{notice}</p>
            {editable.then(|| view! {
                <p>{t(Msg::OrdersRepinHint)}</p>
                <ActionForm action=repin attr:class="no-print" attr:data-testid="repin-form">
                    <input type="hidden" name="order_id" value=order_id />
                    <button type="submit" class="secondary">{button}</button>
                </ActionForm>
                <ActionError action=repin />
            })}
        </div>
    })
}

/// What the viewer may do next: submit (acknowledging the problems found, when there are any),
/// approve or reject with the password (and the authenticator's code when the manager has a
/// second factor), reopen. Each rejected field's message is at the field. Nothing is decided
/// for the manager: neither approve nor reject is chosen until they choose. The forms save in
/// place through the page's script (`data-in-place`), or as plain posts without one.
///
/// Whether the code is asked comes with the order (`sign_off_code`).
pub(super) fn actions(v: &OrderView) -> impl IntoView + use<> {
    let decide = ServerAction::<DecideOrder>::new();
    let reopen = ServerAction::<ReopenOrder>::new();
    let id = v.id.to_string();
    let (id2, id3) = (id.clone(), id.clone());
    let code = v.sign_off_code;
    let (can_submit, can_decide, can_reopen) = (v.can_submit, v.can_decide, v.can_reopen);
    let problems = v.problems.len();
    let acknowledge_key = v.acknowledge_key.clone();
    let issues = issues_of(decide, Some((Msg::OrdersRWrongPassword, "password")));
    (can_submit || can_decide || can_reopen).then(move || view! {
        <section class="card no-print" id="order-actions" data-testid="order-actions">
            {can_submit.then(|| submit_form(id, problems, acknowledge_key))}
            {can_decide.then(|| view! {
                <h2>{t(Msg::OrdersDecide)}</h2>
                <ActionForm action=decide attr:class="form" attr:data-testid="decide-form" attr:data-in-place="">
                    <input type="hidden" name="order_id" value=id2 />
                    <div class="form-inline" role="radiogroup" aria-label=t(Msg::OrdersDecide) aria-invalid=invalid(issues, "decision") aria-describedby=message_id("decision", "decide")>
                        <label class="check"><input type="radio" name="decision" value="approve" />{t(Msg::OrdersApprove)}</label>
                        <label class="check"><input type="radio" name="decision" value="reject" />{t(Msg::OrdersReject)}</label>
                    </div>
                    <FieldNote issues field="decision" scope="decide" />
                    <label>{t(Msg::OrdersComment)}
                        <textarea name="comment" rows="2" aria-invalid=invalid(issues, "comment") aria-describedby=message_id("comment", "decide")></textarea>
                    </label>
                    <FieldNote issues field="comment" scope="decide" />
                    <label>{t(Msg::OrdersPassword)}
                        <input type="password" name="password" autocomplete="current-password" required aria-invalid=invalid(issues, "password") aria-describedby=message_id("password", "decide") />
                    </label>
                    <FieldNote issues field="password" scope="decide" refused=Msg::OrdersRWrongPassword />
                    {code.then(|| view! {
                        <label>
                            {t(Msg::SecondFactorSignOffCode)}
                            <input type="text" name="code" required autocomplete="one-time-code" spellcheck="false"
                                maxlength="20" data-testid="sign-off-code" />
                        </label>
                    })}
                    <button type="submit">{t(Msg::OrdersDecide)}</button>
                </ActionForm>
                <FormError action=decide at_field=Msg::OrdersRWrongPassword />
            })}
            {can_reopen.then(|| view! {
                <ActionForm action=reopen attr:data-testid="reopen-form" attr:data-in-place="">
                    <input type="hidden" name="order_id" value=id3 />
                    <button type="submit" class="secondary">{t(Msg::OrdersReopen)}</button>
                </ActionForm>
                <ActionError action=reopen />
            })}
        </section>
    })
}

/// The submit form; with problems found, the acknowledgement the submitter ticks (it sends the
/// problems as listed, so one found meanwhile is not acknowledged unseen).
fn submit_form(order_id: String, problems: usize, acknowledge_key: String) -> impl IntoView {
    let submit = ServerAction::<SubmitOrder>::new();
    let issues = issues_of(submit, None);
    let locale = use_locale();
    let acknowledgement = (problems > 0).then(|| {
        view! {
            <label class="check">
                <input type="checkbox" name="acknowledge_problems" value=acknowledge_key data-testid="acknowledge-problems"
                    aria-invalid=invalid(issues, "acknowledge_problems") aria-describedby=message_id("acknowledge_problems", "submit") />
                {locale.fmt(Msg::OrdersAcknowledgeProblems, &[("n", &problems.to_string())])}
            </label>
            <FieldNote issues field="acknowledge_problems" scope="submit" />
        }
    });
    view! {
        <ActionForm action=submit attr:class="form" attr:data-testid="submit-form" attr:data-in-place="">
            <input type="hidden" name="order_id" value=order_id />
            {acknowledgement}
            <button type="submit">{t(Msg::OrdersSubmit)}</button>
        </ActionForm>
        <FormError action=submit />
    }
}

/// Whether the audit chain holds and its hashes, then the history, collapsed: the page's last
/// section, whose events (dozens on a real order) are opened on demand and not printed.
pub(super) fn record(v: &OrderView) -> impl IntoView + use<> {
    let locale = use_locale();
    let count = locale.fmt(Msg::OrderPageHistoryEvents, &[("n", &v.history.len().to_string())]);
    view! {
        <section class="card" id="order-history" data-testid="order-history">
            <h2>{t(Msg::OrdersHistory)}</h2>
            <p class=if v.chain_ok { "callout callout-ok" } else { "callout callout-danger" } data-testid="chain-status">{v.chain_message.clone()}</p>
            <dl class="facts">
                <dt>{t(Msg::OrdersHeadHash)}</dt><dd><code class="hash" data-testid="head-hash">{v.head_hash.clone()}</code></dd>
                {v.content_hash.clone().map(|h| view! { <dt>{t(Msg::OrdersContentHash)}</dt><dd><code class="hash" data-testid="content-hash">{h}</code></dd> })}
            </dl>
            <details class="history" data-testid="order-history-events">
                <summary>{count}</summary>
                <ol class="timeline">
                    {v.history.iter().map(|e| view! {
                        <li>
                            <strong>{e.action.clone()}</strong> " · " {e.actor.clone()} " · " <Moment at=e.at.clone() />
                            {(!e.detail.is_empty()).then(|| view! { " · " {e.detail.clone()} })}
                            <br /><small class="hint">{format!("#{} ", e.seq)}<code class="hash">{e.hash.clone()}</code></small>
                        </li>
                    }).collect_view()}
                </ol>
            </details>
        </section>
    }
}
