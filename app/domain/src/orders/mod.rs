//! Orders: the lifecycle rules in one place (pure: no I/O, no clock).
//!
//! [`transition`] is the order state machine — which action is allowed in which state, by whom,
//! and why it is refused otherwise; `lifecycle.rs` draws the state diagram. What the order page
//! offers the person looking at a revision ([`is_editable`], [`can_decide`], [`can_reopen`],
//! [`answers_item`]) is derived from it. The audit chain (`domain::audit`) records every
//! transition as an event. What a revision records — the content a manager signs — is
//! [`record`]: a versioned format of plain values with one decoder for every version written.

mod lifecycle;
pub mod record;
#[cfg(test)]
mod tests;

pub use lifecycle::{
    OrderState, Outcome, Refusal, TransitionCtx, Viewing, answers_item, can_decide, can_reopen, is_editable, transition,
};
