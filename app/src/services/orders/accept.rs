//! Accepting pre-fill suggestions as one's own answers: one item ("Accept"), or every suggestion
//! of a section the person read ("Accept the N suggestions in this section").
//!
//! 1. Every item must be one the caller's role answers (the manual answer's check,
//!    [`super::answer`]), or nothing is accepted.
//! 2. Each suggestion and its evidence are computed again from the data as it is now, as the
//!    page computes them ([`super::load::suggestions`]), and the key of what the person read
//!    ([`checklist::suggestion_key`]) compared with the one the page sent. A changed suggestion,
//!    or an item answered meanwhile, refuses the whole request (409): nothing is recorded that
//!    was not read.
//! 3. In one transaction each answer is stored as the caller's own, and each appends the same
//!    `item_answered` event as a manual answer, with `suggestion`: the code it accepted.

use super::{
    OrderRecord, comparison, content_of,
    load::{Beyond, suggestions, vendor_of},
    loaded::Suggestions,
    now, record, refusal,
    texts::describe,
};
use crate::{
    domain::{
        audit::Action,
        checklist::{self, Acceptable, Item, ItemAnswer, ItemStatus, PrefillFacts},
        orders::{TransitionCtx, transition},
    },
    error::{AppError, FieldIssue},
    i18n::{Locale, Msg},
    store::{self, Db, runs::RunFilter},
    views::{Caller, Membership},
};

/// The most suggestions one request accepts: every item of the checklist.
pub const MAX_ACCEPTED: usize = checklist::ITEMS.len();

/// A suggestion as the page offers it: the item and the key of what the person read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    pub item_id: String,
    pub key: String,
}

impl Accepted {
    /// Reads `item_id=key`, as the page's forms send it.
    ///
    /// # Errors
    /// 422 at `suggestions` when the text is not of that shape.
    pub fn parse(text: &str) -> Result<Self, AppError> {
        let invalid = || AppError::InvalidFields(vec![FieldIssue::new("suggestions", "invalid")]);
        let (item_id, key) = text.trim().split_once('=').ok_or_else(invalid)?;
        if item_id.is_empty() || key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(invalid());
        }
        Ok(Self {
            item_id: item_id.to_string(),
            key: key.to_ascii_lowercase(),
        })
    }
}

/// What accepting `a` records for `item`, in `locale`: the answer (the suggestion's words), with
/// the evidence it rests on; `None` for a suggestion that leaves the item open.
fn answer_of(item: &Item, a: &Acceptable, by: i64, at: &str, locale: Locale) -> Option<ItemAnswer> {
    let text = describe(locale, &a.suggestion.code);
    let status = checklist::accepted_status(a.suggestion.status, &text)?;
    // The words go where the status keeps them: a reason or an explanation, else the answer.
    let answer = if status == ItemStatus::Confirmed {
        text
    } else {
        String::new()
    };
    Some(ItemAnswer {
        item_id: item.id.to_string(),
        status,
        answer,
        evidence: a.evidence.clone(),
        answered_by: by,
        answered_at: at.to_string(),
    })
}

/// The suggestions of the order as it is now, for the items to accept.
async fn load(
    db: &Db,
    team_id: i64,
    order_id: i64,
    content: &OrderRecord,
    locale: Locale,
) -> Result<(PrefillFacts, Suggestions), AppError> {
    let workload = store::workloads::by_id(db, team_id, content.workload_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let quote = match content.quote_revision_id {
        Some(rev) => store::quotes::revision(db, team_id, rev).await?,
        None => None,
    };
    let team_runs = store::runs::list(db, team_id, RunFilter::default(), 2000).await?;
    let runs: Vec<_> = team_runs.into_iter().filter(|r| content.runs.contains(&r.id)).collect();
    let quote = quote.as_ref().map(|q| &q.draft);
    let mut conn = db.acquire().await?;
    let pinned = comparison::quote_revisions(&mut conn, team_id, content)
        .await?
        .map(|r| r.pinned);
    drop(conn);
    let (rows, base) = comparison::live_rows(db, team_id, content, pinned, locale).await?;
    let beyond = Beyond {
        order_id,
        vendor: vendor_of(db, team_id, quote).await?,
        compared: comparison::chosen_in(&rows, &base, content.quote_id),
    };
    suggestions(db, team_id, &workload.record, content, quote, &runs, beyond).await
}

/// Accepts the suggestions the caller read, each as their own answer (see the module docs).
/// Returns the ids of the items answered.
///
/// # Errors
/// 422 when none or too many are sent; 404 for an unknown item or order; 403 for an item of the
/// other role (naming who answers it); 409 when a suggestion changed, an item was answered
/// meanwhile, or the order is no longer a draft.
pub async fn accept(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    accepted: &[Accepted],
    locale: Locale,
) -> Result<Vec<String>, AppError> {
    if accepted.is_empty() {
        return Err(AppError::InvalidFields(vec![FieldIssue::new(
            "suggestions",
            "required",
        )]));
    }
    if accepted.len() > MAX_ACCEPTED {
        return Err(AppError::InvalidFields(vec![FieldIssue {
            field: "suggestions".to_string(),
            code: "too_many_items".to_string(),
            limit: Some(MAX_ACCEPTED.to_string()),
        }]));
    }
    let mut items: Vec<(&'static Item, &str)> = Vec::new();
    for a in accepted {
        let item = checklist::item(&a.item_id).ok_or(AppError::NotFound)?;
        super::answer::may_answer(team.role, item.expert)?;
        if !items.iter().any(|(i, _)| i.id == item.id) {
            items.push((item, &a.key));
        }
    }
    let row = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let read = content_of(&row)?;
    let (facts, offered) = load(db, team.team_id, order_id, &read, locale).await?;
    let changed = || AppError::Conflict(Msg::ChecklistRSuggestionChanged);
    let planned: Vec<(&Item, Acceptable, &str)> = items
        .into_iter()
        .map(|(item, key)| Ok((item, offered.acceptable(item, &facts).ok_or_else(changed)?, key)))
        .collect::<Result<_, AppError>>()?;
    let user = caller.user_id;
    let at = now();
    let mut tx = store::begin_write(db).await?;
    let row = store::orders::latest(&mut *tx, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    transition(row.state, Action::ItemAnswered, &TransitionCtx::edit(user)).map_err(refusal)?;
    let mut content = content_of(&row)?;
    // The suggestions were computed from what the order cited when loaded: another quote or
    // other runs since then change them.
    if (content.workload_id, content.quote_revision_id, &content.runs)
        != (read.workload_id, read.quote_revision_id, &read.runs)
    {
        return Err(changed());
    }
    let mut events = Vec::with_capacity(planned.len());
    for (item, a, key) in &planned {
        let current = content.answers.get(item.id);
        if !checklist::takes_suggestion(current) {
            return Err(AppError::Conflict(Msg::ChecklistRAnsweredMeanwhile));
        }
        if checklist::suggestion_key(item.id, a, current) != *key {
            return Err(changed());
        }
        let answer = answer_of(item, a, user, &at, locale).ok_or_else(changed)?;
        events.push(serde_json::json!({
            "item_id": item.id,
            "status": answer.status,
            "answer": answer.answer,
            "evidence": answer.evidence,
            "suggestion": a.suggestion.code,
            "revision": row.revision,
        }));
        content.answers.insert(item.id.to_string(), answer);
    }
    if !store::orders::set_content(&mut tx, row.revision_id, &content.canonical()?).await? {
        return Err(refusal(crate::domain::orders::Refusal::Locked));
    }
    for data in events {
        record(&mut tx, order_id, user, &at, Action::ItemAnswered, data).await?;
    }
    tx.commit().await?;
    Ok(planned.iter().map(|(i, _, _)| i.id.to_string()).collect())
}
