//! What waits for each role in a team: the to-do entries of the dashboard, the header's
//! notifications and the optional e-mail, built from loaded rows and today's date (pure: no I/O,
//! no clock).
//!
//! | role        | to-do                                                                 |
//! |-------------|-----------------------------------------------------------------------|
//! | procurement | rejected orders to address, drafts with what blocks them, quotes expiring within [`EXPIRY_WINDOW_DAYS`] |
//! | engineer    | drafts with checklist items for engineers still unanswered; unexpired quotes without a valid run that an open order weighs and that pass its workload ([`quotes_to_measure`]) |
//! | manager     | submitted orders waiting for their sign-off, oldest first; then orders whose latest bill departs from the estimate by more than the team's threshold, newest bill first |
//! | admin       | users without a team (site-wide, besides their team role)             |
//!
//! Each [`Todo`] links to its place ([`Todo::href`]) and has a stable [`Todo::key`], so a mail
//! never repeats an entry it already sent.

mod board;
mod measure;
#[cfg(test)]
mod tests;

pub use board::{Count, Counted, Dashboard, Decision, order_counts};
pub use measure::{RunCandidate, Weighed, quotes_to_measure};

use crate::{
    checklist::{self, Expert, ItemAnswer, ItemStatus, OrderKind},
    orders::OrderState,
    quotes::Date,
    roles::TeamRole,
};
use serde::{Deserialize, Serialize};

/// Procurement hears of a quote this many days before its last valid day (and on that day).
pub const EXPIRY_WINDOW_DAYS: u32 = 14;

/// The first and last `valid_until` of a quote that counts as expiring on `today`: today itself
/// (last valid day) up to [`EXPIRY_WINDOW_DAYS`] later. `None` past year 9999.
#[must_use]
pub fn expiry_window(today: Date) -> Option<(Date, Date)> {
    Some((today, today.add_days(EXPIRY_WINDOW_DAYS)?))
}

/// A current quote as the dashboard shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteFact {
    pub quote_id: i64,
    /// The vendor's name.
    pub vendor: String,
    /// E.g. "8× H100 SXM".
    pub gpus: String,
    /// Its last valid day.
    pub valid_until: Date,
}

/// The latest revision of an order, with what its checklist and evidence say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderFact {
    pub order_id: i64,
    pub title: String,
    pub revision: i64,
    pub state: OrderState,
    /// Who submitted it, and the day (`None` while never submitted).
    pub submitted: Option<(i64, Date)>,
    /// The day of the decision, for rejected revisions.
    pub decided_on: Option<Date>,
    /// The manager's comment on a rejection.
    pub comment: String,
    /// The checklist answers recorded.
    pub answers: Vec<ItemAnswer>,
    /// What the checklist applies to: the workload's kind, and whether it needs several GPUs.
    pub kind: OrderKind,
    pub multi_gpu: bool,
    /// The chosen quote revision's last valid day (`None`: no quote chosen).
    pub quote_valid_until: Option<Date>,
    /// Whether an attached run of the chosen quote is valid, or a waiver is written.
    pub run_or_waiver: bool,
}

/// What keeps a draft from being submitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "n", rename_all = "snake_case")]
pub enum Block {
    /// This many required checklist items are not settled.
    Items(u32),
    /// No quote chosen.
    NoQuote,
    /// The chosen quote has expired.
    QuoteExpired,
    /// Neither a valid run of the chosen quote nor a waiver.
    NoRun,
}

/// One thing that waits for someone, with what the entry shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Todo {
    /// A manager rejected the order: procurement reopens and addresses the comment.
    OrderRejected {
        order_id: i64,
        title: String,
        revision: i64,
        comment: String,
        /// Days since the decision.
        days: i64,
    },
    /// A draft and what keeps it from being submitted (empty: ready to submit).
    OrderDraft {
        order_id: i64,
        title: String,
        revision: i64,
        blocks: Vec<Block>,
    },
    /// A quote whose last valid day is near.
    QuoteExpiring {
        quote: QuoteFact,
        /// 0 on the last valid day.
        days_left: i64,
    },
    /// Checklist items meant for engineers that nobody answered yet, on a draft.
    ItemsToAnswer {
        order_id: i64,
        title: String,
        revision: i64,
        /// How many.
        items: u32,
        /// The first of them, to jump to.
        first_item: String,
    },
    /// An unexpired quote no valid run backs yet.
    QuoteWithoutRun { quote: QuoteFact },
    /// An order waiting for a manager's sign-off.
    AwaitingSignOff {
        order_id: i64,
        title: String,
        revision: i64,
        /// Days since submission.
        days: i64,
    },
    /// An order whose latest bill departs from its estimate by more than the team's threshold:
    /// the manager reviews the reconciliation.
    BillOverThreshold {
        order_id: i64,
        title: String,
        bill_id: i64,
        /// Billed against estimated, in percent of the estimate ("12.5", "-20"); `None` when
        /// the estimate was zero.
        variance_pct: Option<String>,
    },
    /// A user in no team (administrators add them to one).
    UserWithoutTeam { user_id: i64, name: String, email: String },
}

impl Todo {
    /// The entry's kind in snake case, as it is serialized (for styles and tests).
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Todo::OrderRejected { .. } => "order_rejected",
            Todo::OrderDraft { .. } => "order_draft",
            Todo::QuoteExpiring { .. } => "quote_expiring",
            Todo::ItemsToAnswer { .. } => "items_to_answer",
            Todo::QuoteWithoutRun { .. } => "quote_without_run",
            Todo::AwaitingSignOff { .. } => "awaiting_sign_off",
            Todo::BillOverThreshold { .. } => "bill_over_threshold",
            Todo::UserWithoutTeam { .. } => "user_without_team",
        }
    }

    /// Where the entry leads.
    #[must_use]
    pub fn href(&self) -> String {
        match self {
            Todo::OrderRejected { order_id, .. }
            | Todo::OrderDraft { order_id, .. }
            | Todo::AwaitingSignOff { order_id, .. } => format!("/orders/{order_id}"),
            Todo::ItemsToAnswer {
                order_id, first_item, ..
            } => format!("/orders/{order_id}#item-{first_item}"),
            Todo::QuoteExpiring { quote, .. } | Todo::QuoteWithoutRun { quote } => {
                format!("/quotes/{}", quote.quote_id)
            }
            Todo::BillOverThreshold { order_id, .. } => format!("/orders/{order_id}#bill"),
            Todo::UserWithoutTeam { .. } => "/admin/users".to_string(),
        }
    }

    /// What identifies the entry across passes (the revision or date that makes it news), within
    /// one team.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            Todo::OrderRejected { order_id, revision, .. } => format!("order_rejected:{order_id}:{revision}"),
            Todo::OrderDraft { order_id, revision, .. } => format!("order_draft:{order_id}:{revision}"),
            Todo::QuoteExpiring { quote, .. } => format!("quote_expiring:{}:{}", quote.quote_id, quote.valid_until),
            Todo::ItemsToAnswer { order_id, revision, .. } => format!("items_to_answer:{order_id}:{revision}"),
            Todo::QuoteWithoutRun { quote } => format!("quote_without_run:{}", quote.quote_id),
            Todo::AwaitingSignOff { order_id, revision, .. } => format!("awaiting_sign_off:{order_id}:{revision}"),
            Todo::BillOverThreshold { order_id, bill_id, .. } => format!("bill_over_threshold:{order_id}:{bill_id}"),
            Todo::UserWithoutTeam { user_id, .. } => format!("user_without_team:{user_id}"),
        }
    }
}

/// What a team's to-do is built from; each role reads the parts it needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamFacts {
    /// Orders whose latest revision is a draft, submitted or rejected.
    pub open_orders: Vec<OrderFact>,
    /// Current quotes whose last valid day is in [`expiry_window`] (procurement).
    pub expiring: Vec<QuoteFact>,
    /// The quotes engineers are asked to benchmark ([`quotes_to_measure`]).
    pub without_run: Vec<QuoteFact>,
    /// Orders whose latest bill is flagged, newest bill first (managers).
    pub flagged_bills: Vec<FlaggedBill>,
}

/// An order whose latest bill departs from its estimate by more than the team's threshold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlaggedBill {
    pub order_id: i64,
    pub title: String,
    pub bill_id: i64,
    /// As stored with the bill: percent of the estimate, `None` for a zero estimate.
    pub variance_pct: Option<String>,
}

/// What waits for `viewer` in `role`, most pressing first.
#[must_use]
pub fn todo(role: TeamRole, viewer: i64, facts: &TeamFacts, today: Date) -> Vec<Todo> {
    match role {
        TeamRole::Procurement => procurement(facts, today),
        TeamRole::Engineer => engineer(facts),
        TeamRole::Manager => manager(viewer, facts, today),
    }
}

/// Rejections first (oldest decision first), then drafts (newest first), then quotes by days
/// left (soonest first, then vendor).
fn procurement(facts: &TeamFacts, today: Date) -> Vec<Todo> {
    let mut rejected: Vec<&OrderFact> = facts
        .open_orders
        .iter()
        .filter(|o| o.state == OrderState::Rejected)
        .collect();
    rejected.sort_by_key(|o| (o.decided_on, o.order_id));
    let mut drafts: Vec<&OrderFact> = facts
        .open_orders
        .iter()
        .filter(|o| o.state == OrderState::Draft)
        .collect();
    drafts.sort_by_key(|o| std::cmp::Reverse(o.order_id));
    let mut quotes: Vec<(i64, &QuoteFact)> = facts
        .expiring
        .iter()
        .map(|q| (today.days_until(q.valid_until), q))
        .filter(|(days, _)| (0..=i64::from(EXPIRY_WINDOW_DAYS)).contains(days))
        .collect();
    quotes.sort_by(|a, b| (a.0, &a.1.vendor, a.1.quote_id).cmp(&(b.0, &b.1.vendor, b.1.quote_id)));
    let rejected = rejected.into_iter().map(|o| Todo::OrderRejected {
        order_id: o.order_id,
        title: o.title.clone(),
        revision: o.revision,
        comment: o.comment.clone(),
        days: o.decided_on.map_or(0, |d| d.days_until(today).max(0)),
    });
    let drafts = drafts.into_iter().map(|o| Todo::OrderDraft {
        order_id: o.order_id,
        title: o.title.clone(),
        revision: o.revision,
        blocks: blocks(o, today),
    });
    let quotes = quotes.into_iter().map(|(days_left, q)| Todo::QuoteExpiring {
        quote: q.clone(),
        days_left,
    });
    rejected.chain(drafts).chain(quotes).collect()
}

/// What keeps a draft from being submitted, in the order the order page checks them.
#[must_use]
pub fn blocks(order: &OrderFact, today: Date) -> Vec<Block> {
    let items = checklist::submission_blockers(&order.answers, order.kind, order.multi_gpu).len();
    let mut blocks = Vec::new();
    if items > 0 {
        blocks.push(Block::Items(u32::try_from(items).unwrap_or(u32::MAX)));
    }
    match order.quote_valid_until {
        None => blocks.push(Block::NoQuote),
        Some(until) if today > until => blocks.push(Block::QuoteExpired),
        Some(_) => {}
    }
    if !order.run_or_waiver {
        blocks.push(Block::NoRun);
    }
    blocks
}

/// The engineers' applicable items of a draft that have no answer yet (or one still open), in
/// checklist order.
#[must_use]
pub fn engineer_items_open(order: &OrderFact) -> Vec<&'static str> {
    checklist::applicable_items(order.kind, order.multi_gpu)
        .into_iter()
        .filter(|i| i.expert == Expert::Engineer)
        .filter(|i| {
            let answer = order.answers.iter().rev().find(|a| a.item_id == i.id);
            answer.is_none_or(|a| a.status == ItemStatus::Open)
        })
        .map(|i| i.id)
        .collect()
}

/// Drafts with items for engineers (oldest order first: it has waited longest), then quotes
/// without a valid run (by vendor).
fn engineer(facts: &TeamFacts) -> Vec<Todo> {
    let mut drafts: Vec<&OrderFact> = facts
        .open_orders
        .iter()
        .filter(|o| o.state == OrderState::Draft)
        .collect();
    drafts.sort_by_key(|o| o.order_id);
    let items = drafts.into_iter().filter_map(|o| {
        let open = engineer_items_open(o);
        let first = open.first()?;
        Some(Todo::ItemsToAnswer {
            order_id: o.order_id,
            title: o.title.clone(),
            revision: o.revision,
            items: u32::try_from(open.len()).unwrap_or(u32::MAX),
            first_item: (*first).to_string(),
        })
    });
    let mut quotes: Vec<&QuoteFact> = facts.without_run.iter().collect();
    quotes.sort_by(|a, b| (&a.vendor, a.quote_id).cmp(&(&b.vendor, b.quote_id)));
    let quotes = quotes.into_iter().map(|q| Todo::QuoteWithoutRun { quote: q.clone() });
    items.chain(quotes).collect()
}

/// Submitted orders the viewer may sign off (not their own submission), longest waiting first;
/// then the flagged bills as loaded (newest first).
fn manager(viewer: i64, facts: &TeamFacts, today: Date) -> Vec<Todo> {
    let mut waiting: Vec<(i64, &OrderFact)> = facts
        .open_orders
        .iter()
        .filter(|o| o.state == OrderState::Submitted)
        .filter_map(|o| {
            let (by, on) = o.submitted?;
            (by != viewer).then(|| (on.days_until(today).max(0), o))
        })
        .collect();
    waiting.sort_by_key(|(days, o)| (std::cmp::Reverse(*days), o.order_id));
    waiting
        .into_iter()
        .map(|(days, o)| Todo::AwaitingSignOff {
            order_id: o.order_id,
            title: o.title.clone(),
            revision: o.revision,
            days,
        })
        .chain(facts.flagged_bills.iter().map(|b| Todo::BillOverThreshold {
            order_id: b.order_id,
            title: b.title.clone(),
            bill_id: b.bill_id,
            variance_pct: b.variance_pct.clone(),
        }))
        .collect()
}

/// A user in no team, as the store lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoneUser {
    pub user_id: i64,
    pub name: String,
    pub email: String,
}

/// Users without a team, by name (what a site administrator does next).
#[must_use]
pub fn admin_todo(users: &[LoneUser]) -> Vec<Todo> {
    let mut users: Vec<&LoneUser> = users.iter().collect();
    users.sort_by_key(|u| (u.name.to_lowercase(), u.user_id));
    users
        .into_iter()
        .map(|u| Todo::UserWithoutTeam {
            user_id: u.user_id,
            name: u.name.clone(),
            email: u.email.clone(),
        })
        .collect()
}

/// The calendar day of a stored timestamp (`YYYY-MM-DDTHH:MM:SSZ`), if it reads.
#[must_use]
pub fn day_of(timestamp: &str) -> Option<Date> {
    Date::parse(timestamp.get(..10)?).ok()
}
