//! Answering one checklist item of a draft: who may answer it, the status, the evidence cited.

use super::{content_of, edit_draft};
use crate::{
    domain::{
        audit::Action,
        checklist::{self, Evidence, Expert, ItemAnswer, ItemStatus},
        orders::answers_item,
        quotes::is_quote_field,
        roles::TeamRole,
        runs::RunStatus,
    },
    error::{AppError, FieldIssue},
    i18n::Msg,
    store::{self, Db, documents::DocumentInfo},
    views::{Caller, Membership},
};
use serde::{Deserialize, Serialize};

/// An answer to one checklist item, as submitted by the form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerForm {
    /// The checklist item answered (`checklist::item` id).
    pub item_id: String,
    /// `open`, `confirmed`, `not_applicable`, `problem`.
    pub status: String,
    /// Reason (not applicable) or note (problem).
    pub status_note: String,
    /// The answer in the expert's words.
    pub answer: String,
    /// A run as evidence.
    pub evidence_run: Option<i64>,
    /// A note as evidence.
    pub evidence_note: String,
    /// A field of the chosen quote revision as evidence (its column name, e.g. `spec.cuda`).
    pub evidence_quote_field: String,
    /// A document of the chosen quote revision as evidence (its id).
    pub evidence_file: Option<i64>,
    /// Cite the order's cost comparison.
    pub evidence_tco: bool,
    /// Cite the vendor's written answer to this item, from the bid the chosen quote revision was
    /// made from.
    #[serde(default)]
    pub evidence_vendor_answer: bool,
}

/// Answers one item of a draft; engineers answer the engineers' items, procurement the rest.
pub async fn answer(
    db: &Db,
    caller: &Caller,
    team: &Membership,
    order_id: i64,
    form: &AnswerForm,
) -> Result<(), AppError> {
    let item = checklist::item(&form.item_id).ok_or(AppError::NotFound)?;
    may_answer(team.role, item.expert)?;
    let status = status_of(form)?;
    let current = store::orders::latest(db, team.team_id, order_id)
        .await?
        .ok_or(AppError::NotFound)?;
    let quote_revision_id = content_of(&current)?.quote_revision_id;
    if let Some(run) = form.evidence_run {
        evidence_run(db, team.team_id, run, quote_revision_id).await?;
    }
    let field = quote_field(&form.evidence_quote_field, quote_revision_id)?;
    let file = match form.evidence_file {
        Some(doc) => Some(document(db, team.team_id, quote_revision_id, doc).await?),
        None => None,
    };
    let mut evidence = evidence_of(form, field, file, order_id);
    if form.evidence_vendor_answer {
        evidence.push(vendor_answer(db, team.team_id, quote_revision_id, item.id).await?);
    }
    let item_id = item.id.to_string();
    let answer_text = form.answer.trim().to_string();
    let user = caller.user_id;
    edit_draft(db, team.team_id, user, order_id, Action::ItemAnswered, move |c, at| {
        let a = ItemAnswer {
            item_id: item_id.clone(),
            status,
            answer: answer_text,
            evidence,
            answered_by: user,
            answered_at: at.to_string(),
        };
        let data =
            serde_json::json!({ "item_id": item_id, "status": a.status, "answer": a.answer, "evidence": a.evidence });
        c.answers.insert(item_id, a);
        Ok(data)
    })
    .await
}

/// The vendor's written answer to `item` as evidence: read from the bid the chosen quote revision
/// was made from (never from the form), refused at `evidence_vendor_answer` when there is none.
async fn vendor_answer(
    db: &Db,
    team_id: i64,
    quote_revision_id: Option<i64>,
    item: &str,
) -> Result<Evidence, AppError> {
    let none = || AppError::InvalidFields(vec![FieldIssue::new("evidence_vendor_answer", "no_vendor_answer")]);
    let id = quote_revision_id.ok_or_else(none)?;
    let bid = super::chosen_bid::chosen_bid(db, team_id, Some(id))
        .await?
        .ok_or_else(none)?;
    let written = bid.answer_to(item).ok_or_else(none)?;
    Ok(Evidence::VendorAnswer {
        quote_revision_id: id,
        question: written.question.clone(),
        answer: written.answer.clone(),
    })
}

/// A run cited as evidence must be a valid run of the order's chosen quote revision, or of a
/// revision with the same node ([`crate::services::tco::same_node`]): a run of another node, a
/// run that is not valid, or any run before a quote is chosen is refused at `evidence_run` with
/// the reason; 404 when the run is not the team's.
pub(super) async fn evidence_run(db: &Db, team_id: i64, run: i64, order_revision: Option<i64>) -> Result<(), AppError> {
    let refused = |code: &str| AppError::InvalidFields(vec![FieldIssue::new("evidence_run", code)]);
    let (status, run_revision) = store::runs::status_and_revision(db, team_id, run)
        .await?
        .ok_or(AppError::NotFound)?;
    let order_revision = order_revision.ok_or_else(|| refused("run_before_quote"))?;
    // The node first: a run of another node says nothing of this one, however it was judged.
    let run_revision = run_revision.ok_or_else(|| refused("run_other_node"))?;
    if run_revision != order_revision {
        let spec = |rev: i64| async move {
            store::quotes::revision(db, team_id, rev)
                .await
                .map(|q| q.map(|q| q.draft.spec))
        };
        let same = match (spec(run_revision).await?, spec(order_revision).await?) {
            (Some(ran_on), Some(chosen)) => crate::services::tco::same_node(&ran_on, &chosen),
            _ => false,
        };
        if !same {
            return Err(refused("run_other_node"));
        }
    }
    match status {
        RunStatus::Valid => Ok(()),
        RunStatus::Warn => Err(refused("run_warns")),
        RunStatus::Invalid => Err(refused("run_invalid")),
    }
}

/// Refuses someone whose role does not answer items meant for `expert`
/// ([`answers_item`]), naming who does.
pub(super) fn may_answer(role: TeamRole, expert: Expert) -> Result<(), AppError> {
    if answers_item(role, expert) {
        return Ok(());
    }
    Err(AppError::Refused(match expert {
        Expert::Engineer => Msg::OrdersRNotYourItemEngineer,
        Expert::Procurement => Msg::OrdersRNotYourItemProcurement,
    }))
}

/// The status the form chose, with its reason or note trimmed; a blank reason or explanation is
/// refused at its field (`status_note`, [`ItemStatus::check`]) before anything is saved.
fn status_of(form: &AnswerForm) -> Result<ItemStatus, AppError> {
    let note = form.status_note.trim().to_string();
    let status = match form.status.as_str() {
        "open" => ItemStatus::Open,
        "confirmed" => ItemStatus::Confirmed,
        "not_applicable" => ItemStatus::NotApplicable { reason: note },
        "problem" => ItemStatus::Problem { note },
        _ => return Err(AppError::InvalidFields(vec![FieldIssue::new("status", "invalid")])),
    };
    status
        .check()
        .map_err(|issue| AppError::InvalidFields(vec![FieldIssue::new("status_note", issue.code())]))?;
    Ok(status)
}

/// The quote field cited (none when the form left it blank): a field of the quote revision the
/// order chose, so none can be cited before a quote is.
fn quote_field(field: &str, quote_revision_id: Option<i64>) -> Result<Option<Evidence>, AppError> {
    let field = field.trim();
    if field.is_empty() {
        return Ok(None);
    }
    let quote_revision_id = quote_revision_id
        .filter(|_| is_quote_field(field))
        .ok_or_else(|| AppError::InvalidFields(vec![FieldIssue::new("evidence_quote_field", "invalid")]))?;
    Ok(Some(Evidence::QuoteField {
        quote_revision_id,
        field: field.to_string(),
    }))
}

/// The document `doc` of the chosen quote revision.
async fn document(db: &Db, team_id: i64, quote_revision_id: Option<i64>, doc: i64) -> Result<DocumentInfo, AppError> {
    let rev = quote_revision_id.ok_or(AppError::NotFound)?;
    let docs = store::documents::of_revision(db, team_id, rev).await?;
    docs.into_iter().find(|d| d.id == doc).ok_or(AppError::NotFound)
}

/// The evidence an answer cites, in a fixed order: run, quote field, document, cost
/// comparison, note.
fn evidence_of(form: &AnswerForm, field: Option<Evidence>, file: Option<DocumentInfo>, order_id: i64) -> Vec<Evidence> {
    let mut evidence = Vec::new();
    if let Some(run_id) = form.evidence_run {
        evidence.push(Evidence::Run { run_id });
    }
    evidence.extend(field);
    if let Some(d) = file {
        evidence.push(Evidence::File {
            sha256: d.sha256,
            name: d.file_name,
        });
    }
    if form.evidence_tco {
        evidence.push(Evidence::TcoComparison { id: order_id });
    }
    let note = form.evidence_note.trim();
    if !note.is_empty() {
        evidence.push(Evidence::Note { text: note.to_string() });
    }
    evidence
}

#[cfg(test)]
mod tests {
    use super::{AnswerForm, evidence_of, may_answer, quote_field, status_of};
    use crate::{
        domain::{
            checklist::{Evidence, Expert, ItemStatus},
            roles::TeamRole,
        },
        error::{AppError, FieldIssue},
        i18n::Msg,
        store::documents::DocumentInfo,
    };

    fn form(status: &str) -> AnswerForm {
        AnswerForm {
            status: status.into(),
            status_note: "  no GPU link on this node  ".into(),
            ..AnswerForm::default()
        }
    }

    #[test]
    fn the_status_takes_its_trimmed_reason_or_note() {
        assert_eq!(status_of(&form("open")), Ok(ItemStatus::Open));
        assert_eq!(status_of(&form("confirmed")), Ok(ItemStatus::Confirmed));
        assert_eq!(
            status_of(&form("not_applicable")),
            Ok(ItemStatus::NotApplicable {
                reason: "no GPU link on this node".into()
            })
        );
        assert_eq!(
            status_of(&form("problem")),
            Ok(ItemStatus::Problem {
                note: "no GPU link on this node".into()
            })
        );
        assert_eq!(
            status_of(&form("done")),
            Err(AppError::InvalidFields(vec![FieldIssue::new("status", "invalid")]))
        );
    }

    #[test]
    fn a_blank_reason_or_explanation_is_refused_at_the_reason_field() {
        let blank = |status: &str| AnswerForm {
            status: status.into(),
            status_note: "   ".into(),
            ..AnswerForm::default()
        };
        assert_eq!(
            status_of(&blank("not_applicable")),
            Err(AppError::InvalidFields(vec![FieldIssue::new(
                "status_note",
                "reason_required"
            )]))
        );
        assert_eq!(
            status_of(&blank("problem")),
            Err(AppError::InvalidFields(vec![FieldIssue::new(
                "status_note",
                "explanation_required"
            )]))
        );
        assert_eq!(status_of(&blank("confirmed")), Ok(ItemStatus::Confirmed));
    }

    #[test]
    fn each_expert_answers_their_own_items() {
        assert_eq!(may_answer(TeamRole::Engineer, Expert::Engineer), Ok(()));
        assert_eq!(
            may_answer(TeamRole::Procurement, Expert::Engineer),
            Err(AppError::Refused(Msg::OrdersRNotYourItemEngineer))
        );
        assert_eq!(
            may_answer(TeamRole::Manager, Expert::Procurement),
            Err(AppError::Refused(Msg::OrdersRNotYourItemProcurement))
        );
    }

    #[test]
    fn a_quote_field_is_cited_only_when_named_and_a_quote_is_chosen() {
        let invalid = Err(AppError::InvalidFields(vec![FieldIssue::new(
            "evidence_quote_field",
            "invalid",
        )]));
        assert_eq!(quote_field("  ", None), Ok(None));
        assert_eq!(
            quote_field(" spec.cuda ", Some(12)),
            Ok(Some(Evidence::QuoteField {
                quote_revision_id: 12,
                field: "spec.cuda".into()
            }))
        );
        assert_eq!(quote_field("spec.cuda", None), invalid);
        assert_eq!(quote_field("spec.password", Some(12)), invalid);
    }

    #[test]
    fn evidence_is_listed_run_field_document_comparison_note() {
        let form = AnswerForm {
            evidence_run: Some(5),
            evidence_note: "  vendor confirmed by mail ".into(),
            evidence_tco: true,
            ..AnswerForm::default()
        };
        let field = Evidence::QuoteField {
            quote_revision_id: 12,
            field: "spec.cuda".into(),
        };
        let file = DocumentInfo {
            id: 3,
            file_name: "quote.pdf".into(),
            content_type: "application/pdf".into(),
            size: 1024,
            sha256: "ab".repeat(32),
            created_at: "2026-05-01T10:00:00Z".into(),
        };
        let got = evidence_of(&form, Some(field.clone()), Some(file), 42);
        assert_eq!(
            got,
            vec![
                Evidence::Run { run_id: 5 },
                field,
                Evidence::File {
                    sha256: "ab".repeat(32),
                    name: "quote.pdf".into()
                },
                Evidence::TcoComparison { id: 42 },
                Evidence::Note {
                    text: "vendor confirmed by mail".into()
                },
            ]
        );
        assert_eq!(evidence_of(&AnswerForm::default(), None, None, 42), Vec::new());
    }
}
