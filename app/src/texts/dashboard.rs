//! The dashboard's to-do entries, counts and decisions in words: the page, the header's
//! notifications and the mail say them the same way.

use crate::{
    domain::{
        dashboard::{Block, Count, Counted, Decision, Todo},
        orders::OrderState,
    },
    i18n::{Locale, Msg},
};

/// "today", "1 day ago", "3 days ago".
#[must_use]
pub fn age(locale: Locale, days: i64) -> String {
    match days {
        ..=0 => locale.t(Msg::DashboardAgeToday).to_string(),
        1 => locale.t(Msg::DashboardAgeOne).to_string(),
        n => locale.fmt(Msg::DashboardAgeN, &[("n", &n.to_string())]),
    }
}

fn days_left(locale: Locale, days: i64) -> String {
    match days {
        ..=0 => locale.t(Msg::DashboardDaysLeftZero).to_string(),
        1 => locale.t(Msg::DashboardDaysLeftOne).to_string(),
        n => locale.fmt(Msg::DashboardDaysLeftN, &[("n", &n.to_string())]),
    }
}

fn block(locale: Locale, block: Block) -> String {
    match block {
        Block::Items(n) => locale.fmt(Msg::DashboardBlockItems, &[("n", &n.to_string())]),
        Block::NoQuote => locale.t(Msg::DashboardBlockNoQuote).to_string(),
        Block::QuoteExpired => locale.t(Msg::DashboardBlockQuoteExpired).to_string(),
        Block::NoRun => locale.t(Msg::DashboardBlockNoRun).to_string(),
    }
}

/// One to-do entry as a line of text.
#[must_use]
pub fn todo(locale: Locale, entry: &Todo) -> String {
    match entry {
        Todo::OrderRejected { title, days, .. } => locale.fmt(
            Msg::DashboardTodoOrderRejected,
            &[("title", title), ("age", &age(locale, *days))],
        ),
        Todo::OrderDraft { title, blocks, .. } if blocks.is_empty() => {
            locale.fmt(Msg::DashboardTodoOrderReady, &[("title", title)])
        }
        Todo::OrderDraft { title, blocks, .. } => {
            let sep = if locale == Locale::ZhCn { "；" } else { "; " };
            let blocks: Vec<String> = blocks.iter().map(|b| block(locale, *b)).collect();
            locale.fmt(
                Msg::DashboardTodoOrderDraft,
                &[("title", title), ("blocks", &blocks.join(sep))],
            )
        }
        Todo::QuoteExpiring { quote, days_left: left } => locale.fmt(
            Msg::DashboardTodoQuoteExpiring,
            &[
                ("vendor", &quote.vendor),
                ("gpus", &quote.gpus),
                ("date", &quote.valid_until.to_string()),
                ("left", &days_left(locale, *left)),
            ],
        ),
        Todo::ItemsToAnswer { title, items: 1, .. } => locale.fmt(Msg::DashboardTodoItemsOne, &[("title", title)]),
        Todo::ItemsToAnswer { title, items, .. } => {
            locale.fmt(Msg::DashboardTodoItems, &[("title", title), ("n", &items.to_string())])
        }
        Todo::QuoteWithoutRun { quote } => locale.fmt(
            Msg::DashboardTodoQuoteWithoutRun,
            &[("vendor", &quote.vendor), ("gpus", &quote.gpus)],
        ),
        Todo::AwaitingSignOff {
            title, revision, days, ..
        } => locale.fmt(
            Msg::DashboardTodoSignOff,
            &[
                ("title", title),
                ("revision", &revision.to_string()),
                ("age", &age(locale, *days)),
            ],
        ),
        Todo::BillOverThreshold {
            title,
            variance_pct: Some(pct),
            ..
        } => locale.fmt(
            Msg::DashboardTodoBillOverThreshold,
            &[("title", title), ("variance", &signed_percent(pct))],
        ),
        Todo::BillOverThreshold {
            title,
            variance_pct: None,
            ..
        } => locale.fmt(Msg::DashboardTodoBillWithoutEstimate, &[("title", title)]),
        Todo::UserWithoutTeam { name, email, .. } => {
            locale.fmt(Msg::DashboardTodoUserWithoutTeam, &[("name", name), ("email", email)])
        }
    }
}

/// A stored variance ("12.5", "-20") with its sign: "+12.5 %", "−20 %".
fn signed_percent(pct: &str) -> String {
    match pct.strip_prefix('-') {
        Some(magnitude) => format!("\u{2212}{magnitude} %"),
        None => format!("+{pct} %"),
    }
}

/// A further line under an entry: a rejection's comment.
#[must_use]
pub fn todo_detail(locale: Locale, entry: &Todo) -> Option<String> {
    match entry {
        Todo::OrderRejected { comment, .. } if !comment.trim().is_empty() => {
            Some(locale.fmt(Msg::DashboardComment, &[("comment", comment)]))
        }
        _ => None,
    }
}

/// What a count counts.
#[must_use]
pub fn count_label(count: &Count) -> Msg {
    match count.what {
        Counted::CurrentQuotes => Msg::DashboardCountCurrentQuotes,
        Counted::Orders(OrderState::Draft) => Msg::DashboardCountOrdersDraft,
        Counted::Orders(OrderState::Submitted) => Msg::DashboardCountOrdersSubmitted,
        Counted::Orders(OrderState::Approved) => Msg::DashboardCountOrdersApproved,
        Counted::Orders(OrderState::Rejected) => Msg::DashboardCountOrdersRejected,
        Counted::Runs => Msg::DashboardCountRuns,
        Counted::ValidRuns => Msg::DashboardCountValidRuns,
    }
}

/// A decision as a line of text.
#[must_use]
pub fn decision(locale: Locale, d: &Decision) -> String {
    let msg = if d.approved {
        Msg::DashboardDecisionApproved
    } else {
        Msg::DashboardDecisionRejected
    };
    locale.fmt(
        msg,
        &[
            ("title", &d.title),
            ("revision", &d.revision.to_string()),
            ("name", &d.by),
            ("age", &age(locale, d.days)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{dashboard::QuoteFact, quotes::Date};

    #[test]
    fn entries_read_as_sentences_in_both_languages() {
        let quote = QuoteFact {
            quote_id: 1,
            vendor: "Acme".into(),
            gpus: "8× H100".into(),
            valid_until: Date::parse("2026-12-03").expect("date"),
        };
        let entry = Todo::QuoteExpiring { quote, days_left: 2 };
        assert_eq!(
            todo(Locale::En, &entry),
            "Acme · 8× H100: valid until 2026-12-03, 2 days left"
        );
        assert_eq!(
            todo(Locale::ZhCn, &entry),
            "Acme · 8× H100：有效期至 2026-12-03，还剩 2 天"
        );
        let draft = Todo::OrderDraft {
            order_id: 1,
            title: "Train".into(),
            revision: 1,
            blocks: vec![Block::Items(3), Block::NoQuote],
        };
        assert_eq!(
            todo(Locale::En, &draft),
            "Train (draft): 3 required checklist items open; no quote chosen"
        );
        let waiting = Todo::AwaitingSignOff {
            order_id: 1,
            title: "Train".into(),
            revision: 2,
            days: 3,
        };
        assert_eq!(todo(Locale::En, &waiting), "Train (revision 2) submitted 3 days ago");
        let bill = |variance_pct: Option<&str>| Todo::BillOverThreshold {
            order_id: 1,
            title: "Train".into(),
            bill_id: 4,
            variance_pct: variance_pct.map(str::to_string),
        };
        assert_eq!(
            todo(Locale::En, &bill(Some("14.2"))),
            "Bill for Train: +14.2 % against the estimate, over the team's threshold: review the reconciliation"
        );
        assert_eq!(
            todo(Locale::ZhCn, &bill(Some("-20"))),
            "Train 的账单比估算 \u{2212}20 %，超出团队阈值：请复核对账"
        );
        assert!(todo(Locale::En, &bill(None)).contains("estimate put at zero"));
        assert_eq!(age(Locale::En, 0), "today");
        assert_eq!(age(Locale::En, 1), "1 day ago");
    }
}
