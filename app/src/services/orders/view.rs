//! The order page built from the loaded rows ([`super::load::view`] loads them): pure, so the
//! page is tested without a database.

use super::{
    OrderRecord, comparison,
    items::{Checklist, section_lines},
    items::{acknowledged_line, problem_lines},
    loaded::{ChainCheck, Loaded},
    submit::Readiness,
    texts::{action_name, blocker_reason, localized, quote_field_label},
};
use crate::{
    domain::{
        audit::{Action, AuditEvent},
        checklist,
        orders::{OrderState, Viewing, can_decide, can_reopen, is_editable},
        quotes::QUOTE_FIELDS,
        roles::TeamRole,
    },
    i18n::{Locale, Msg},
    store::orders::OrderRow,
    views::orders::{EventLine, OrderView},
};

/// The label of `id` in an (id, label) list, else `#id`.
fn label_of(list: &[(i64, String)], id: i64) -> String {
    list.iter()
        .find(|(i, _)| *i == id)
        .map_or_else(|| format!("#{id}"), |(_, l)| l.clone())
}

/// Who looks at which revision.
fn viewing_of(row: &OrderRow, is_latest: bool, viewer_id: i64, viewer_role: TeamRole) -> Viewing {
    Viewing {
        state: row.state,
        is_latest,
        submitted_by: row.submitted_by,
        viewer_id,
        viewer_role,
    }
}

/// The order page as `viewer_id` (in `role`) sees the loaded revision.
pub(super) fn build(l: &Loaded, viewer_id: i64, role: TeamRole, locale: Locale) -> OrderView {
    let row = &l.revisions[l.shown];
    let content = &l.content;
    let pinned = l.quote_revisions.map(|r| r.pinned);
    let name = |id: i64| label_of(&l.names, id);
    let viewing = viewing_of(row, l.shown == 0, viewer_id, role);
    let editable = is_editable(&viewing);
    let checklist = Checklist {
        content,
        bid: l.bid.as_ref(),
        workload: &l.workload,
        facts: &l.facts,
        documents: &l.documents,
        name: &name,
        editable,
        role,
        locale,
        blockers: &l.ready.blockers,
        pinned,
        suggest: &l.suggest,
    };
    let procurement = role == TeamRole::Procurement;
    let (chain_ok, chain_message) = chain_line(&l.chain, locale);
    OrderView {
        id: row.id,
        title: row.title.clone(),
        revision: row.revision,
        state: row.state,
        revisions: l.revisions.iter().map(|r| (r.revision, r.state)).collect(),
        workload: (l.workload_id, l.workload.name.clone()),
        chosen: chosen_of(content, &l.quote_labels),
        vendor_contact: l.facts.vendor_contact.clone(),
        from_bid: l.bid.as_ref().map(|b| super::items::bid_source_text(locale, b)),
        chosen_nodes: chosen_nodes(content, &l.tco.0),
        considered: content
            .considered
            .iter()
            .map(|q| (*q, label_of(&l.quote_labels, *q)))
            .collect(),
        quote_choices: l.quote_labels.clone(),
        runs: l.runs.clone(),
        run_choices: l.run_choices.clone(),
        waiver: content.waiver.clone(),
        quote_fields: quote_fields(content, locale),
        documents: l.documents.iter().map(|d| (d.id, d.file_name.clone())).collect(),
        sections: section_lines(&checklist),
        blockers: blocker_lines(&l.ready, locale),
        problems: problem_lines(&checklist, &l.ready.problems),
        problems_acknowledged: acknowledged_line(content, &name, locale),
        acknowledge_key: super::submit::acknowledgement_key(&l.ready.problems),
        tco: l.tco.0.clone(),
        tco_query: comparison::comparison_query(content, pinned),
        comparison_custom: content.frozen.as_ref().map_or(content.comparison.is_some(), |f| {
            f.query != comparison::default_query(content, pinned)
        }),
        newer_quote_revision: l
            .quote_revisions
            .filter(|r| r.newer_exists())
            .map(|r| (r.pinned, r.latest)),
        plan: content.plan.as_ref().map(|p| {
            let label = label_of(&l.quote_labels, p.quote_id);
            super::plan_line::plan_line(p, &label, content.comparison.as_deref(), locale)
        }),
        has_scenario: content.frozen.is_some(),
        tco_frozen: l.tco.1,
        history: l.events.iter().map(|e| event_line(e, &name, locale)).collect(),
        chain_ok,
        chain_message,
        head_hash: l.chain.head_hash.clone(),
        content_hash: row.content_hash.clone(),
        decisions: decision_lines(row, &name, locale),
        can_edit: editable && procurement,
        can_submit: editable && procurement,
        can_decide: can_decide(&viewing),
        sign_off_code: false,
        can_reopen: can_reopen(&viewing),
    }
}

/// The chosen quote, with its label.
fn chosen_of(content: &OrderRecord, labels: &[(i64, String)]) -> Option<(i64, String)> {
    content
        .chosen_quote()
        .map(|c| (c.quote_id, label_of(labels, c.quote_id)))
}

/// The nodes the chosen quote is costed on in the order's comparison rows.
fn chosen_nodes(content: &OrderRecord, rows: &[crate::views::tco::CostRow]) -> Option<u32> {
    let chosen = content.chosen_quote()?;
    rows.iter().find(|r| r.quote_id == chosen.quote_id).map(|r| r.nodes)
}

/// The fields of the chosen quote an answer may cite: column and label (none before a quote is
/// chosen).
fn quote_fields(content: &OrderRecord, locale: Locale) -> Vec<(String, String)> {
    if content.chosen_quote().and_then(|c| c.revision_id).is_none() {
        return Vec::new();
    }
    QUOTE_FIELDS
        .iter()
        .map(|c| (c.to_string(), quote_field_label(locale, c)))
        .collect()
}

/// What blocks submission, in the reader's language: the quote first, then each item (with its
/// id, to link to it), then the run.
pub(super) fn blocker_lines(ready: &Readiness, locale: Locale) -> Vec<(String, String)> {
    let mut blockers: Vec<(String, String)> = ready
        .blockers
        .iter()
        .map(|b| {
            let item = checklist::item(b.item_id);
            let text = item.map_or_else(|| b.item_id.to_string(), |i| localized(locale, &i.text));
            (b.item_id.to_string(), format!("{text} — {}", blocker_reason(locale, b)))
        })
        .collect();
    if ready.quote_missing {
        blockers.insert(0, (String::new(), locale.t(Msg::OrdersBQuoteMissing).to_string()));
    }
    if ready.quote_expired {
        blockers.insert(0, (String::new(), locale.t(Msg::OrdersBQuoteExpired).to_string()));
    }
    if !ready.run_or_waiver {
        blockers.push((String::new(), locale.t(Msg::OrdersBNoRun).to_string()));
    }
    blockers
}

/// One event of the order's history: what, who, when, and for answers the item and status,
/// for decisions the comment.
fn event_line(e: &AuditEvent, name: &dyn Fn(i64) -> String, locale: Locale) -> EventLine {
    let text = |key: &str| e.data.get(key).and_then(|v| v.as_str()).unwrap_or_default();
    let detail = match e.action {
        Action::ItemAnswered => {
            let status = e
                .data
                .get("status")
                .and_then(|v| v.get("kind"))
                .and_then(|v| v.as_str());
            let detail = format!("{} · {}", text("item_id"), status.unwrap_or_default());
            // An accepted suggestion says so: the answer is the data's words, taken as read.
            if e.data.get("suggestion").is_some() {
                format!("{detail} · {}", locale.t(Msg::ChecklistHistoryAccepted))
            } else {
                detail
            }
        }
        Action::Approve | Action::Reject => text("comment").to_string(),
        _ => String::new(),
    };
    EventLine {
        seq: e.seq,
        at: e.at.clone(),
        actor: name(e.actor_id),
        action: action_name(locale, e.action).to_string(),
        detail,
        hash: e.hash.clone(),
    }
}

/// The chain status line: whether the order's events check, and the sentence saying so.
fn chain_line(chain: &ChainCheck, locale: Locale) -> (bool, String) {
    match &chain.fault {
        None => (
            true,
            locale.fmt(Msg::OrdersChainOk, &[("events", &chain.events.to_string())]),
        ),
        Some(fault) => (false, locale.fmt(Msg::OrdersChainBroken, &[("fault", fault)])),
    }
}

/// "Submitted by … on …", then "Approved/Rejected by … on …: comment" once decided.
fn decision_lines(row: &OrderRow, name: &dyn Fn(i64) -> String, locale: Locale) -> Vec<String> {
    let mut decisions = Vec::new();
    if let (Some(by), Some(at)) = (row.submitted_by, &row.submitted_at) {
        decisions.push(locale.fmt(
            Msg::OrdersSubmittedBy,
            &[("who", &name(by)), ("at", &crate::texts::moment(at))],
        ));
    }
    if let (Some(by), Some(at)) = (row.decided_by, &row.decided_at) {
        let m = if row.state == OrderState::Approved {
            Msg::OrdersApprovedBy
        } else {
            Msg::OrdersRejectedBy
        };
        decisions.push(locale.fmt(
            m,
            &[
                ("who", &name(by)),
                ("at", &crate::texts::moment(at)),
                ("comment", &row.decision_comment),
            ],
        ));
    }
    decisions
}

#[cfg(test)]
mod tests {
    use super::{blocker_lines, build, event_line};
    use crate::{
        domain::{
            audit::{Action, AuditEvent},
            checklist::{self, Evidence, Expert, ItemAnswer, ItemStatus, PrefillFacts},
            orders::OrderState,
            quotes::Date,
            roles::TeamRole,
            runs::RunStatus,
        },
        i18n::Locale,
        services::orders::{
            OrderRecord,
            fixtures::{order_row, quote, run, workload},
            loaded::{ChainCheck, Loaded},
            submit::Readiness,
        },
    };

    const PROCUREMENT: i64 = 1;
    const MANAGER: i64 = 2;

    /// The first applicable item `expert` answers for the fixture workload.
    fn item_of(expert: Expert) -> &'static checklist::Item {
        let kind = checklist::workload_kind(workload().kind);
        let items = checklist::applicable_items(kind, true);
        items.into_iter().find(|i| i.expert == expert).expect("an item")
    }

    /// A draft choosing quote 9 over 11, with run 5 attached and one procurement item confirmed.
    fn draft_content() -> OrderRecord {
        let item = item_of(Expert::Procurement);
        let answer = ItemAnswer {
            item_id: item.id.into(),
            status: ItemStatus::Confirmed,
            answer: "billed per minute".into(),
            evidence: vec![Evidence::Run { run_id: 5 }],
            answered_by: PROCUREMENT,
            answered_at: "2026-11-02T10:00:00Z".into(),
        };
        OrderRecord {
            workload_id: 3,
            quote_id: Some(9),
            quote_revision_id: Some(90),
            considered: vec![9, 11],
            runs: vec![5],
            answers: [(item.id.to_string(), answer)].into(),
            ..OrderRecord::default()
        }
    }

    fn loaded(revisions: Vec<crate::store::orders::OrderRow>, shown: usize, content: OrderRecord) -> Loaded {
        let runs = vec![run(5, Some(9), RunStatus::Valid)];
        let q = quote("2099-12-31");
        let today = Date::parse("2026-12-01").expect("date");
        let ready = Readiness::of(&content, &workload(), Some(&q), &runs, today);
        Loaded {
            revisions,
            shown,
            content,
            workload_id: 3,
            workload: workload(),
            quote_labels: vec![(9, "Acme · Q-9".into())],
            run_choices: runs.clone(),
            runs,
            documents: Vec::new(),
            facts: PrefillFacts::default(),
            suggest: Default::default(),
            names: vec![(PROCUREMENT, "Pat".into()), (MANAGER, "Mia".into())],
            ready,
            tco: (Vec::new(), false),
            quote_revisions: None,
            events: Vec::new(),
            chain: ChainCheck {
                fault: None,
                events: 3,
                head_hash: "h".repeat(64),
            },
            bid: None,
        }
    }

    #[test]
    fn procurement_sees_its_draft_editable_with_its_answer_and_what_still_blocks() {
        let l = loaded(vec![order_row(1, OrderState::Draft)], 0, draft_content());
        let v = build(&l, PROCUREMENT, TeamRole::Procurement, Locale::En);
        assert!(v.can_edit && v.can_submit && !v.can_decide && !v.can_reopen);
        assert_eq!(v.chosen, Some((9, "Acme · Q-9".to_string())));
        assert_eq!(
            v.considered,
            vec![(9, "Acme · Q-9".to_string()), (11, "#11".to_string())]
        );
        // Every field of the chosen quote may be cited, the price sheet's v3 fields too (65).
        assert_eq!(v.quote_fields.len(), crate::domain::quotes::QUOTE_FIELDS.len());
        assert_eq!(v.quote_fields[0].0, "vendor");
        let labelled = |column: &str| v.quote_fields.iter().any(|(c, label)| c == column && label != column);
        assert!(labelled("price.package_period") && labelled("price.egress_tiers"));
        assert_eq!(v.tco_query, "workload=3&picked=1&q=9&q=11");
        assert!(!v.comparison_custom && !v.has_scenario && !v.tco_frozen);
        assert!(v.decisions.is_empty());
        assert!(v.chain_ok);
        assert!(
            v.chain_message.contains("this order's 3 events hold"),
            "{}",
            v.chain_message
        );
        let items: Vec<_> = v.sections.iter().flat_map(|s| s.items.iter()).collect();
        let kind = checklist::workload_kind(workload().kind);
        assert_eq!(items.len(), checklist::applicable_items(kind, true).len());
        let mine = item_of(Expert::Procurement);
        let answered = items.iter().find(|i| i.id == mine.id).expect("the answered item");
        assert_eq!(
            (answered.status.as_str(), answered.answer.as_str()),
            ("confirmed", "billed per minute")
        );
        assert_eq!(answered.evidence.len(), 1);
        assert_eq!(answered.evidence[0].label, "Run #5");
        assert_eq!(answered.evidence[0].href.as_deref(), Some("/runs/5"));
        assert_eq!(answered.answered.as_deref(), Some("Pat, 2026-11-02 10:00 UTC"));
        for i in &items {
            assert_eq!(i.can_answer, i.expert == "procurement", "{}", i.id);
        }
        let unsettled = l.ready.blockers.len();
        assert!(unsettled > 0);
        assert_eq!(
            v.blockers.len(),
            unsettled,
            "quote chosen and a valid run: only items block"
        );
        assert!(
            v.blockers
                .iter()
                .all(|(id, text)| !id.is_empty() && text.contains(" — "))
        );
    }

    #[test]
    fn a_problem_found_is_listed_for_the_manager_with_the_acknowledgement_and_a_blank_one_blocks_at_its_item() {
        let mut content = draft_content();
        let item = item_of(Expert::Procurement);
        let answer = content.answers.get_mut(item.id).expect("answered");
        answer.status = ItemStatus::Problem {
            note: "minimum 30 days".into(),
        };
        content.problems_acknowledged = Some(crate::services::orders::Acknowledgement {
            by: PROCUREMENT,
            at: "2026-11-03T10:00:00Z".into(),
            problems: Vec::new(),
        });
        let l = loaded(vec![order_row(1, OrderState::Submitted)], 0, content.clone());
        let v = build(&l, MANAGER, TeamRole::Manager, Locale::En);
        assert_eq!(v.problems.len(), 1);
        assert_eq!(
            (v.problems[0].item_id.as_str(), v.problems[0].note.as_str()),
            (item.id, "minimum 30 days")
        );
        assert_eq!(v.problems[0].answered.as_deref(), Some("Pat, 2026-11-02 10:00 UTC"));
        assert_eq!(
            v.problems_acknowledged.as_deref(),
            Some("Acknowledged by Pat on 2026-11-03 10:00 UTC.")
        );
        assert_eq!(v.acknowledge_key, item.id);
        let line = |v: &crate::views::orders::OrderView| {
            v.sections
                .iter()
                .flat_map(|s| s.items.clone())
                .find(|i| i.id == item.id)
                .expect("item")
        };
        assert_eq!(line(&v).blocker, None);
        content.answers.get_mut(item.id).expect("answered").status = ItemStatus::Problem { note: " ".into() };
        let l = loaded(vec![order_row(1, OrderState::Draft)], 0, content);
        let v = build(&l, PROCUREMENT, TeamRole::Procurement, Locale::En);
        assert!(v.problems.is_empty() && v.acknowledge_key.is_empty());
        if item.required {
            assert_eq!(
                line(&v).blocker.as_deref(),
                Some("a problem is recorded without an explanation")
            );
        }
    }

    #[test]
    fn an_older_approved_revision_is_the_record_and_offers_nothing() {
        let revisions = vec![order_row(2, OrderState::Draft), order_row(1, OrderState::Approved)];
        let l = loaded(revisions, 1, draft_content());
        let v = build(&l, MANAGER, TeamRole::Manager, Locale::En);
        assert_eq!(v.revision, 1);
        assert_eq!(v.revisions, vec![(2, OrderState::Draft), (1, OrderState::Approved)]);
        assert!(!v.can_edit && !v.can_submit && !v.can_decide && !v.can_reopen);
        assert!(v.sections.iter().flat_map(|s| s.items.iter()).all(|i| !i.can_answer));
        assert_eq!(
            v.decisions,
            vec![
                "Submitted by Pat on 2026-11-03 10:00 UTC.".to_string(),
                "Approved by Mia on 2026-11-04 11:00 UTC: within budget".to_string(),
            ]
        );
        assert_eq!(v.content_hash, Some("c".repeat(64)));
    }

    #[test]
    fn a_manager_signs_off_the_latest_submitted_revision_and_the_submitter_reopens_a_decided_one() {
        let submitted = loaded(vec![order_row(1, OrderState::Submitted)], 0, draft_content());
        let v = build(&submitted, MANAGER, TeamRole::Manager, Locale::En);
        assert!(v.can_decide && !v.can_reopen && !v.can_edit);
        let v = build(&submitted, PROCUREMENT, TeamRole::Procurement, Locale::En);
        assert!(!v.can_decide && !v.can_edit);
        let rejected = loaded(vec![order_row(1, OrderState::Rejected)], 0, draft_content());
        let v = build(&rejected, PROCUREMENT, TeamRole::Procurement, Locale::En);
        assert!(v.can_reopen && !v.can_decide);
        assert_eq!(v.decisions[1], "Rejected by Mia on 2026-11-04 11:00 UTC: within budget");
        let v = build(&rejected, 3, TeamRole::Engineer, Locale::En);
        assert!(!v.can_reopen);
    }

    #[test]
    fn a_broken_chain_says_so() {
        let mut l = loaded(vec![order_row(1, OrderState::Draft)], 0, draft_content());
        l.chain.fault = Some("event 4 does not link".into());
        let v = build(&l, PROCUREMENT, TeamRole::Procurement, Locale::En);
        assert!(!v.chain_ok);
        assert_eq!(v.chain_message, "Audit chain BROKEN: event 4 does not link");
        assert_eq!(v.head_hash, "h".repeat(64));
    }

    #[test]
    fn the_quote_blockers_come_first_and_the_missing_run_last() {
        let ready = Readiness {
            blockers: Vec::new(),
            problems: Vec::new(),
            quote_missing: true,
            quote_expired: true,
            run_or_waiver: false,
        };
        let lines = blocker_lines(&ready, Locale::En);
        let texts: Vec<&str> = lines.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts[0], "The chosen quote has expired.");
        assert_eq!(texts[1], "Choose the quote to rent.");
        assert!(texts[2].starts_with("No valid run backs the chosen quote"));
        assert!(lines.iter().all(|(id, _)| id.is_empty()));
    }

    #[test]
    fn history_lines_name_the_actor_and_the_item_status_or_the_comment() {
        let name = |id: i64| {
            if id == MANAGER {
                "Mia".to_string()
            } else {
                format!("#{id}")
            }
        };
        let event = |action, data| AuditEvent {
            seq: 4,
            order_id: 42,
            actor_id: MANAGER,
            at: "2026-11-04T11:00:00Z".into(),
            action,
            data,
            prev_hash: "0".repeat(64),
            hash: "a".repeat(64),
        };
        let answered = serde_json::json!({ "item_id": "billing.minimum", "status": { "kind": "confirmed" } });
        let line = event_line(&event(Action::ItemAnswered, answered), &name, Locale::En);
        assert_eq!(line.action, "Item answered");
        assert_eq!(line.detail, "billing.minimum · confirmed");
        assert_eq!((line.actor.as_str(), line.seq), ("Mia", 4));
        let rejected = event(Action::Reject, serde_json::json!({ "comment": "too dear" }));
        assert_eq!(event_line(&rejected, &name, Locale::En).detail, "too dear");
        let created = AuditEvent {
            actor_id: 7,
            ..event(Action::Create, serde_json::json!({ "title": "x" }))
        };
        let line = event_line(&created, &name, Locale::En);
        assert_eq!(
            (line.action.as_str(), line.detail.as_str(), line.actor.as_str()),
            ("Created", "", "#7")
        );
    }
}
