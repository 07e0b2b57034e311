//! The order lifecycle as a pure state machine.
//!
//! ```text
//! Draft ──Submit──▶ Submitted ──Approve──▶ Approved ──Reopen──▶ new Draft revision
//!   ▲ edits                    └─Reject───▶ Rejected ──Reopen──▶ new Draft revision
//! ```
//! Edits (`ItemAnswered`, `EvidenceAttached`) are allowed only in `Draft`. A draft with problems
//! found (explained) is submitted only with the submitter's acknowledgement of them. `Create`
//! starts an order in `Draft` ([`OrderState::INITIAL`]) and is never a transition.
//!
//! What the order page offers the person looking at a revision ([`is_editable`], [`can_decide`],
//! [`can_reopen`], [`answers_item`]) is derived from the same rules, so the page never offers
//! an action the server refuses for who the viewer is.

use serde::{Deserialize, Serialize};

pub use crate::order_state::OrderState;
use crate::{audit::Action, checklist::Expert, roles::TeamRole};

/// What the caller knows when an action is attempted. Gathering it (sessions, team
/// membership, password check, quote expiry, runs) is the caller's job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransitionCtx<'a> {
    /// The acting user.
    pub actor_id: i64,
    /// Whether the actor manages the order's team.
    pub actor_is_manager_of_team: bool,
    /// Who submitted the revision (for `Draft`: who would submit it).
    pub submitter_id: i64,
    /// Whether [`crate::checklist::submission_blockers`] is empty.
    pub blockers_empty: bool,
    /// Whether explained problems ([`crate::checklist::open_problems`]) remain that the
    /// submitter did not acknowledge.
    pub problems_unacknowledged: bool,
    /// Whether the quote has not expired.
    pub quote_unexpired: bool,
    /// Whether a valid run, or a waiver for it, is attached.
    pub has_valid_run_or_waiver: bool,
    /// The actor's comment (blank counts as none).
    pub comment: &'a str,
    /// Whether the actor re-entered their password correctly.
    pub password_ok: bool,
}

impl<'a> TransitionCtx<'a> {
    /// An edit of a draft (`ItemAnswered`, `EvidenceAttached`) by `actor_id`: only the state counts.
    #[must_use]
    pub fn edit(actor_id: i64) -> Self {
        Self::submission(actor_id, false, false, false)
    }

    /// `actor_id` submitting a draft, with what the server found: no checklist blocker (and a
    /// quote chosen), the quote unexpired, a valid run or a waiver.
    #[must_use]
    pub fn submission(
        actor_id: i64,
        blockers_empty: bool,
        quote_unexpired: bool,
        has_valid_run_or_waiver: bool,
    ) -> Self {
        TransitionCtx {
            actor_id,
            actor_is_manager_of_team: false,
            submitter_id: actor_id,
            blockers_empty,
            problems_unacknowledged: false,
            quote_unexpired,
            has_valid_run_or_waiver,
            comment: "",
            password_ok: false,
        }
    }

    /// `actor_id` approving, rejecting or reopening a revision `submitted_by` someone (`None`
    /// counts as user 0, which no user id is), with their comment and password check.
    #[must_use]
    pub fn review(
        actor_id: i64,
        actor_is_manager_of_team: bool,
        submitted_by: Option<i64>,
        comment: &'a str,
        password_ok: bool,
    ) -> Self {
        TransitionCtx {
            actor_id,
            actor_is_manager_of_team,
            submitter_id: submitted_by.unwrap_or_default(),
            blockers_empty: true,
            problems_unacknowledged: false,
            quote_unexpired: true,
            has_valid_run_or_waiver: true,
            comment,
            password_ok,
        }
    }
}

/// Result of an allowed action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "state", rename_all = "snake_case")]
pub enum Outcome {
    /// The revision is now (or still) in this state.
    State(OrderState),
    /// The revision stays as it was; a new revision starts in `Draft`.
    NewDraftRevision,
}

/// Why an action is refused. Codes for the UI to translate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Refusal {
    /// The submitter may not approve or reject their own order.
    #[error("self approval")]
    SelfApproval,
    /// Only a manager of the team may approve or reject.
    #[error("not a manager of the team")]
    NotManager,
    /// Reopening needs the submitter or a manager of the team.
    #[error("neither submitter nor manager")]
    NotSubmitterOrManager,
    /// Password re-entry failed.
    #[error("wrong password")]
    WrongPassword,
    /// Rejection needs a comment.
    #[error("comment required")]
    CommentRequired,
    /// Checklist blockers remain.
    #[error("checklist incomplete")]
    Incomplete,
    /// Problems were found and the submitter has not acknowledged them.
    #[error("problems not acknowledged")]
    ProblemsUnacknowledged,
    /// The quote has expired.
    #[error("quote expired")]
    QuoteExpired,
    /// No valid run and no waiver.
    #[error("no valid run or waiver")]
    NoValidRun,
    /// The revision is not a draft and cannot be edited.
    #[error("locked")]
    Locked,
    /// The action does not apply in this state.
    #[error("{action:?} not allowed from {from:?}")]
    InvalidTransition {
        /// Current state.
        from: OrderState,
        /// Attempted action.
        action: Action,
    },
}

/// Applies `action` to a revision in `state`.
///
/// Checks, first failure wins:
/// - edits: `Draft` only, else `Locked`;
/// - `Submit` (Draft): `Incomplete`, `ProblemsUnacknowledged`, `QuoteExpired`, `NoValidRun`;
/// - `Approve`/`Reject` (Submitted): `NotManager`, `SelfApproval`, `WrongPassword`,
///   then for `Reject` `CommentRequired`;
/// - `Reopen` (Approved/Rejected): `NotSubmitterOrManager`; gives `NewDraftRevision`;
/// - anything else: `InvalidTransition`.
///
/// # Errors
/// The [`Refusal`] above.
pub fn transition(state: OrderState, action: Action, ctx: &TransitionCtx<'_>) -> Result<Outcome, Refusal> {
    use Action as A;
    use OrderState as S;
    let check = |ok: bool, refusal: Refusal| if ok { Ok(()) } else { Err(refusal) };
    match (state, action) {
        (S::Draft, A::ItemAnswered | A::EvidenceAttached) => Ok(Outcome::State(S::Draft)),
        (_, A::ItemAnswered | A::EvidenceAttached) => Err(Refusal::Locked),
        (S::Draft, A::Submit) => {
            check(ctx.blockers_empty, Refusal::Incomplete)?;
            check(!ctx.problems_unacknowledged, Refusal::ProblemsUnacknowledged)?;
            check(ctx.quote_unexpired, Refusal::QuoteExpired)?;
            check(ctx.has_valid_run_or_waiver, Refusal::NoValidRun)?;
            Ok(Outcome::State(S::Submitted))
        }
        (S::Submitted, A::Approve | A::Reject) => {
            check(ctx.actor_is_manager_of_team, Refusal::NotManager)?;
            check(ctx.actor_id != ctx.submitter_id, Refusal::SelfApproval)?;
            check(ctx.password_ok, Refusal::WrongPassword)?;
            if action == A::Approve {
                return Ok(Outcome::State(S::Approved));
            }
            check(!ctx.comment.trim().is_empty(), Refusal::CommentRequired)?;
            Ok(Outcome::State(S::Rejected))
        }
        (S::Approved | S::Rejected, A::Reopen) => {
            let allowed = ctx.actor_id == ctx.submitter_id || ctx.actor_is_manager_of_team;
            check(allowed, Refusal::NotSubmitterOrManager)?;
            Ok(Outcome::NewDraftRevision)
        }
        (from, action) => Err(Refusal::InvalidTransition { from, action }),
    }
}

/// One revision and the person looking at it: what decides which actions the page offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Viewing {
    /// The revision's state.
    pub state: OrderState,
    /// Whether it is the order's latest revision; older ones are the record and offer nothing.
    pub is_latest: bool,
    /// Who submitted the revision (`None` while it has never been submitted).
    pub submitted_by: Option<i64>,
    /// The person looking.
    pub viewer_id: i64,
    /// Their role in the order's team.
    pub viewer_role: TeamRole,
}

/// Whether the revision still takes edits (answers, quote, runs, comparison): the latest one, in
/// a state where [`transition`] accepts `EvidenceAttached`.
#[must_use]
pub fn is_editable(v: &Viewing) -> bool {
    v.is_latest && allows(v, Action::EvidenceAttached)
}

/// Whether the page offers approve/reject: the latest revision, and [`transition`] accepts the
/// decision from the viewer once they re-enter their password (a manager of the team who did not
/// submit it).
#[must_use]
pub fn can_decide(v: &Viewing) -> bool {
    v.is_latest && allows(v, Action::Approve)
}

/// Whether the page offers reopening: the latest revision, decided, and the viewer submitted it
/// or manages the team (what [`transition`] accepts for `Reopen`).
#[must_use]
pub fn can_reopen(v: &Viewing) -> bool {
    v.is_latest && allows(v, Action::Reopen)
}

/// Whether someone in `role` answers a checklist item meant for `expert`: engineers answer the
/// engineers' items, procurement the rest, managers none (they sign off).
#[must_use]
pub fn answers_item(role: TeamRole, expert: Expert) -> bool {
    matches!(
        (expert, role),
        (Expert::Engineer, TeamRole::Engineer) | (Expert::Procurement, TeamRole::Procurement)
    )
}

/// Whether [`transition`] accepts `action` from the viewer on who they are and the state alone:
/// what the form supplies itself (password, comment) and what submission checks are taken as given.
fn allows(v: &Viewing, action: Action) -> bool {
    let manager = v.viewer_role == TeamRole::Manager;
    let ctx = TransitionCtx::review(v.viewer_id, manager, v.submitted_by, "given", true);
    transition(v.state, action, &ctx).is_ok()
}
