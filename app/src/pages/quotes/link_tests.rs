//! The quote page's interconnect tests: the nccl-tests runs of the quote's node, each with its
//! bus bandwidth against what the quoted link should give. The seeds ask multi-GPU work to
//! "test communication bandwidth and sync time"; this is where a buyer sees it was done.

use crate::{
    domain::runs::RunStatus,
    i18n::{Msg, t},
    texts::runs::{status_class, status_msg},
};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// Most interconnect tests shown on a quote, newest first.
pub const MAX_SHOWN: i64 = 20;

/// One nccl-tests run of the quote.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkTestLine {
    /// The run.
    pub run_id: i64,
    /// Its verdict.
    pub status: RunStatus,
    /// Its bus bandwidth against the quoted link, in the reader's language.
    pub text: String,
}

/// The quote's nccl-tests runs (any revision), newest first.
///
/// # Errors
/// A database error.
#[cfg(feature = "ssr")]
pub async fn load(
    db: &crate::store::Db,
    team_id: i64,
    quote_id: i64,
    locale: crate::i18n::Locale,
) -> Result<Vec<LinkTestLine>, crate::error::AppError> {
    use crate::domain::runs::{CanonicalRun, Reason};
    let runs = crate::store::runs::link_tests(db, team_id, quote_id, MAX_SHOWN).await?;
    Ok(runs
        .into_iter()
        .filter_map(|(run_id, canonical)| {
            let run: CanonicalRun = serde_json::from_str(&canonical).ok()?;
            let verdict = run.verdict?;
            let text = verdict
                .reasons
                .iter()
                .find(|r| matches!(r.reason, Reason::BusBandwidth { .. }))
                .map(|r| crate::texts::runs::reason_text(locale, &r.reason))?;
            Some(LinkTestLine {
                run_id,
                status: verdict.status,
                text,
            })
        })
        .collect())
}

/// The card: each test with its verdict, or how to make one.
pub fn card(lines: Vec<LinkTestLine>) -> impl IntoView {
    view! {
        <section class="card" data-testid="quote-link-tests">
            <h2>{t(Msg::QuotesLinkTests)}</h2>
            {if lines.is_empty() {
                view! { <p class="empty-state">{t(Msg::QuotesLinkTestsNone)}</p> }.into_any()
            } else {
                view! {
                    <ul class="links">
                        {lines.into_iter().map(|l| view! {
                            <li data-testid="quote-link-test">
                                <span class=status_class(l.status)>{t(status_msg(l.status))}</span> " "
                                <a href=format!("/runs/{}", l.run_id)>{format!("#{}", l.run_id)}</a> " · " {l.text}
                            </li>
                        }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}
