//! Every transition and every refusal of the order state machine, and what the order page offers.

use super::{
    OrderState as S, Outcome, Refusal as R, TransitionCtx, Viewing, answers_item, can_decide, can_reopen, is_editable,
    transition,
};
use crate::{audit::Action, checklist::Expert, roles::TeamRole};

const SUBMITTER: i64 = 1;
const MANAGER: i64 = 2;

/// A context in which every check passes, acting as the manager.
fn ok() -> TransitionCtx<'static> {
    TransitionCtx {
        actor_id: MANAGER,
        actor_is_manager_of_team: true,
        submitter_id: SUBMITTER,
        blockers_empty: true,
        problems_unacknowledged: false,
        quote_unexpired: true,
        has_valid_run_or_waiver: true,
        comment: "budget cut",
        password_ok: true,
    }
}

const STATES: [S; 4] = [S::Draft, S::Submitted, S::Approved, S::Rejected];

#[test]
fn full_table_with_all_checks_passing() {
    use Action as A;
    for state in STATES {
        for action in A::ALL {
            let got = transition(state, action, &ok());
            let want = match (state, action) {
                (S::Draft, A::ItemAnswered | A::EvidenceAttached) => Ok(Outcome::State(S::Draft)),
                (_, A::ItemAnswered | A::EvidenceAttached) => Err(R::Locked),
                (S::Draft, A::Submit) => Ok(Outcome::State(S::Submitted)),
                (S::Submitted, A::Approve) => Ok(Outcome::State(S::Approved)),
                (S::Submitted, A::Reject) => Ok(Outcome::State(S::Rejected)),
                (S::Approved | S::Rejected, A::Reopen) => Ok(Outcome::NewDraftRevision),
                (from, action) => Err(R::InvalidTransition { from, action }),
            };
            assert_eq!(got, want, "{state:?} {action:?}");
        }
    }
    assert_eq!(S::INITIAL, S::Draft);
}

#[test]
fn edits_are_locked_outside_draft() {
    for state in [S::Submitted, S::Approved, S::Rejected] {
        assert_eq!(transition(state, Action::ItemAnswered, &ok()), Err(R::Locked));
        assert_eq!(transition(state, Action::EvidenceAttached, &ok()), Err(R::Locked));
    }
    assert_eq!(
        transition(S::Draft, Action::Create, &ok()),
        Err(R::InvalidTransition {
            from: S::Draft,
            action: Action::Create
        })
    );
}

#[test]
fn submit_refusals_in_order() {
    let submit = |c: TransitionCtx<'_>| transition(S::Draft, Action::Submit, &c);
    let base = TransitionCtx {
        actor_id: SUBMITTER,
        actor_is_manager_of_team: false,
        ..ok()
    };
    assert_eq!(submit(base), Ok(Outcome::State(S::Submitted)));
    assert_eq!(
        submit(TransitionCtx {
            blockers_empty: false,
            ..base
        }),
        Err(R::Incomplete)
    );
    assert_eq!(
        submit(TransitionCtx {
            problems_unacknowledged: true,
            ..base
        }),
        Err(R::ProblemsUnacknowledged)
    );
    assert_eq!(
        submit(TransitionCtx {
            problems_unacknowledged: true,
            quote_unexpired: false,
            ..base
        }),
        Err(R::ProblemsUnacknowledged),
        "the checklist is judged before the quote"
    );
    assert_eq!(
        submit(TransitionCtx {
            quote_unexpired: false,
            ..base
        }),
        Err(R::QuoteExpired)
    );
    assert_eq!(
        submit(TransitionCtx {
            has_valid_run_or_waiver: false,
            ..base
        }),
        Err(R::NoValidRun)
    );
    let nothing = TransitionCtx {
        blockers_empty: false,
        problems_unacknowledged: true,
        quote_unexpired: false,
        has_valid_run_or_waiver: false,
        ..base
    };
    assert_eq!(submit(nothing), Err(R::Incomplete));
}

#[test]
fn approve_and_reject_refusals() {
    for action in [Action::Approve, Action::Reject] {
        let go = |c: TransitionCtx<'_>| transition(S::Submitted, action, &c);
        assert_eq!(
            go(TransitionCtx {
                actor_is_manager_of_team: false,
                ..ok()
            }),
            Err(R::NotManager)
        );
        assert_eq!(
            go(TransitionCtx {
                actor_id: SUBMITTER,
                ..ok()
            }),
            Err(R::SelfApproval)
        );
        assert_eq!(
            go(TransitionCtx {
                password_ok: false,
                ..ok()
            }),
            Err(R::WrongPassword)
        );
        let self_non_manager = TransitionCtx {
            actor_id: SUBMITTER,
            actor_is_manager_of_team: false,
            ..ok()
        };
        assert_eq!(go(self_non_manager), Err(R::NotManager));
        let self_bad_pw = TransitionCtx {
            actor_id: SUBMITTER,
            password_ok: false,
            ..ok()
        };
        assert_eq!(go(self_bad_pw), Err(R::SelfApproval));
    }
    let reject = |comment| transition(S::Submitted, Action::Reject, &TransitionCtx { comment, ..ok() });
    assert_eq!(reject(""), Err(R::CommentRequired));
    assert_eq!(reject(" \n\t"), Err(R::CommentRequired));
    assert_eq!(reject("再议"), Ok(Outcome::State(S::Rejected)));
    // Approval needs no comment.
    let approve = TransitionCtx { comment: "", ..ok() };
    assert_eq!(
        transition(S::Submitted, Action::Approve, &approve),
        Ok(Outcome::State(S::Approved))
    );
}

#[test]
fn reopen_by_submitter_or_manager_only() {
    for state in [S::Approved, S::Rejected] {
        let go = |c: TransitionCtx<'_>| transition(state, Action::Reopen, &c);
        assert_eq!(go(ok()), Ok(Outcome::NewDraftRevision));
        let submitter = TransitionCtx {
            actor_id: SUBMITTER,
            actor_is_manager_of_team: false,
            ..ok()
        };
        assert_eq!(go(submitter), Ok(Outcome::NewDraftRevision));
        let stranger = TransitionCtx {
            actor_id: 3,
            actor_is_manager_of_team: false,
            ..ok()
        };
        assert_eq!(go(stranger), Err(R::NotSubmitterOrManager));
    }
    for state in [S::Draft, S::Submitted] {
        let want = Err(R::InvalidTransition {
            from: state,
            action: Action::Reopen,
        });
        assert_eq!(transition(state, Action::Reopen, &ok()), want);
    }
}

#[test]
fn refusals_and_outcomes_serialize_as_codes() {
    let r = R::InvalidTransition {
        from: S::Approved,
        action: Action::Submit,
    };
    let json = serde_json::to_string(&r).expect("serialize");
    assert_eq!(
        json,
        r#"{"kind":"invalid_transition","from":"approved","action":"submit"}"#
    );
    assert_eq!(
        serde_json::to_string(&R::SelfApproval).expect("s"),
        r#"{"kind":"self_approval"}"#
    );
    let o = serde_json::to_string(&Outcome::State(S::Submitted)).expect("s");
    assert_eq!(o, r#"{"kind":"state","state":"submitted"}"#);
}

/// Every viewer of every revision: the submitter, a manager, another member, in every role.
fn viewings() -> Vec<Viewing> {
    let mut all = Vec::new();
    for state in STATES {
        for is_latest in [true, false] {
            for submitted_by in [None, Some(SUBMITTER)] {
                for viewer_id in [SUBMITTER, MANAGER, 3] {
                    for viewer_role in TeamRole::ALL {
                        all.push(Viewing {
                            state,
                            is_latest,
                            submitted_by,
                            viewer_id,
                            viewer_role,
                        });
                    }
                }
            }
        }
    }
    all
}

#[test]
fn the_page_offers_sign_off_to_a_manager_who_did_not_submit_the_latest_submitted_revision() {
    for v in viewings() {
        let manager = v.viewer_role == TeamRole::Manager;
        let want = v.is_latest && v.state == S::Submitted && manager && v.submitted_by != Some(v.viewer_id);
        assert_eq!(can_decide(&v), want, "{v:?}");
    }
    let submitted = Viewing {
        state: S::Submitted,
        is_latest: true,
        submitted_by: Some(SUBMITTER),
        viewer_id: MANAGER,
        viewer_role: TeamRole::Manager,
    };
    assert!(can_decide(&submitted));
    assert!(!can_decide(&Viewing {
        viewer_id: SUBMITTER,
        ..submitted
    }));
    assert!(!can_decide(&Viewing {
        viewer_role: TeamRole::Procurement,
        ..submitted
    }));
    assert!(!can_decide(&Viewing {
        is_latest: false,
        ..submitted
    }));
}

#[test]
fn the_page_offers_reopening_a_decided_latest_revision_to_its_submitter_or_a_manager() {
    for v in viewings() {
        let manager = v.viewer_role == TeamRole::Manager;
        let decided = matches!(v.state, S::Approved | S::Rejected);
        let want = v.is_latest && decided && (manager || v.submitted_by == Some(v.viewer_id));
        assert_eq!(can_reopen(&v), want, "{v:?}");
    }
    let approved = Viewing {
        state: S::Approved,
        is_latest: true,
        submitted_by: Some(SUBMITTER),
        viewer_id: SUBMITTER,
        viewer_role: TeamRole::Procurement,
    };
    assert!(can_reopen(&approved));
    assert!(!can_reopen(&Viewing {
        viewer_id: 3,
        ..approved
    }));
    assert!(can_reopen(&Viewing {
        viewer_id: 3,
        viewer_role: TeamRole::Manager,
        ..approved
    }));
    assert!(!can_reopen(&Viewing {
        state: S::Submitted,
        ..approved
    }));
}

#[test]
fn only_the_latest_draft_takes_edits() {
    for v in viewings() {
        assert_eq!(is_editable(&v), v.is_latest && v.state == S::Draft, "{v:?}");
    }
}

#[test]
fn engineers_answer_the_engineers_items_procurement_the_rest_managers_none() {
    assert!(answers_item(TeamRole::Engineer, Expert::Engineer));
    assert!(answers_item(TeamRole::Procurement, Expert::Procurement));
    assert!(!answers_item(TeamRole::Engineer, Expert::Procurement));
    assert!(!answers_item(TeamRole::Procurement, Expert::Engineer));
    assert!(!answers_item(TeamRole::Manager, Expert::Engineer));
    assert!(!answers_item(TeamRole::Manager, Expert::Procurement));
}

#[test]
fn the_contexts_the_services_build_carry_what_each_action_checks() {
    let edit = TransitionCtx::edit(SUBMITTER);
    assert_eq!(
        transition(S::Draft, Action::ItemAnswered, &edit),
        Ok(Outcome::State(S::Draft))
    );
    assert_eq!(transition(S::Draft, Action::Submit, &edit), Err(R::Incomplete));
    let ready = TransitionCtx::submission(SUBMITTER, true, true, true);
    assert_eq!(
        transition(S::Draft, Action::Submit, &ready),
        Ok(Outcome::State(S::Submitted))
    );
    let expired = TransitionCtx::submission(SUBMITTER, true, false, true);
    assert_eq!(transition(S::Draft, Action::Submit, &expired), Err(R::QuoteExpired));
    let review = TransitionCtx::review(MANAGER, true, Some(SUBMITTER), "", true);
    assert_eq!(review.submitter_id, SUBMITTER);
    assert_eq!(
        transition(S::Submitted, Action::Approve, &review),
        Ok(Outcome::State(S::Approved))
    );
    assert_eq!(
        transition(S::Submitted, Action::Reject, &review),
        Err(R::CommentRequired)
    );
    let own = TransitionCtx::review(SUBMITTER, true, Some(SUBMITTER), "ok", true);
    assert_eq!(transition(S::Submitted, Action::Approve, &own), Err(R::SelfApproval));
    let never_submitted = TransitionCtx::review(MANAGER, false, None, "", false);
    assert_eq!(never_submitted.submitter_id, 0);
    assert_eq!(
        transition(S::Approved, Action::Reopen, &never_submitted),
        Err(R::NotSubmitterOrManager)
    );
}
