//! Orders: the lifecycle rules in one place (pure: no I/O, no clock).
//!
//! [`transition`] is the order state machine — which action is allowed in which state, by whom,
//! and why it is refused otherwise; `lifecycle.rs` draws the state diagram. What the order page
//! offers the person looking at a revision ([`is_editable`], [`can_decide`], [`can_reopen`],
//! [`answers_item`]) is derived from it. The audit chain (`domain::audit`) records every
//! transition as an event.

mod lifecycle;
#[cfg(test)]
mod tests;

pub use lifecycle::{
    OrderState, Outcome, Refusal, TransitionCtx, Viewing, answers_item, can_decide, can_reopen, is_editable, transition,
};
