//! The checklist by section, and how far each role has come: "Procurement: 18 of 24".
//!
//! An item is **done** when its answer lets the order go to sign-off: confirmed with the evidence
//! it asks for, not applicable with a reason, or a problem with its explanation (the rule of
//! [`super::submission_blockers`], applied to optional items too). An open answer, or one that
//! blocks at the item, is not done.

use serde::{Deserialize, Serialize};

use super::answer::{ItemAnswer, ItemStatus};
use super::items::SECTIONS;
use super::model::{Expert, Item, Section};
use super::rules::has_evidence;

/// How many of a role's items are done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub done: u32,
    pub total: u32,
}

impl Progress {
    fn count(&mut self, done: bool) {
        self.total += 1;
        self.done += u32::from(done);
    }

    /// Adds another count.
    #[must_use]
    pub const fn plus(self, other: Progress) -> Progress {
        Progress {
            done: self.done + other.done,
            total: self.total + other.total,
        }
    }

    /// Whether every item counted is done (also when there is none).
    #[must_use]
    pub const fn complete(self) -> bool {
        self.done == self.total
    }
}

/// One section's progress, per role.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoleProgress {
    pub procurement: Progress,
    pub engineer: Progress,
}

impl RoleProgress {
    /// The progress of the role that answers `expert`'s items.
    #[must_use]
    pub const fn of(self, expert: Expert) -> Progress {
        match expert {
            Expert::Procurement => self.procurement,
            Expert::Engineer => self.engineer,
        }
    }

    /// Adds another section's counts.
    #[must_use]
    pub const fn plus(self, other: RoleProgress) -> RoleProgress {
        RoleProgress {
            procurement: self.procurement.plus(other.procurement),
            engineer: self.engineer.plus(other.engineer),
        }
    }
}

/// Whether `answer` settles `item` for sign-off (see the module docs).
#[must_use]
pub fn is_done(item: &Item, answer: Option<&ItemAnswer>) -> bool {
    answer.is_some_and(|a| match &a.status {
        ItemStatus::Confirmed => has_evidence(item, &a.evidence),
        s => s.is_settled() || s.is_explained_problem(),
    })
}

/// `items` grouped by section in checklist order; sections without an item are left out, and
/// items keep their order within a section.
#[must_use]
pub fn by_section<'a>(items: &[&'a Item]) -> Vec<(Section, Vec<&'a Item>)> {
    SECTIONS
        .iter()
        .map(|s| {
            let of: Vec<&Item> = items.iter().copied().filter(|i| i.section == s.section).collect();
            (s.section, of)
        })
        .filter(|(_, of)| !of.is_empty())
        .collect()
}

/// The progress of `items` (one section, or the whole checklist), per role; `answer_of` gives an
/// item's current answer.
#[must_use]
pub fn progress<'a>(items: &[&Item], answer_of: &dyn Fn(&str) -> Option<&'a ItemAnswer>) -> RoleProgress {
    let mut p = RoleProgress::default();
    for item in items {
        let done = is_done(item, answer_of(item.id));
        match item.expert {
            Expert::Procurement => p.procurement.count(done),
            Expert::Engineer => p.engineer.count(done),
        }
    }
    p
}
