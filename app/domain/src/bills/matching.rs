//! Which bill lines belong to the rental.
//!
//! A line is the rental's when both hold:
//! - its `ResourceId` is one of the rental's resource ids — exactly, or ending in `/` and the
//!   id (`arn:aws:ec2:…:instance/i-0abc` matches `i-0abc`); compared without surrounding spaces;
//! - its charge period ends after the rental started. A zero-length period counts as the instant
//!   it names.
//!
//! A matched line is placed ([`Placement`]): a period starting at or after the release
//! (`released_at`) is charged **after release** — a disk, snapshot or address left behind, because
//! stopping a node (停止) is not releasing it (释放). It is still the rental's cost: reconciliation
//! counts it inside the variance and flags it. A period that straddles the release is an
//! ordinary charge of the rental.
//!
//! A tax line names no resource (FOCUS taxes are account-level). It is the rental's when every
//! other line of the bill that names a resource is the rental's: a bill the vendor wrote for this
//! rental alone ([`match_taxes`]). On a bill shared with other resources it stays unmatched and
//! listed, since which part of it the rental bears is the vendor's to say.
//!
//! Every other line is kept and listed as unmatched, with the reason ([`Unmatched`]).

use super::{BillLine, ChargeKind};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// What a bill is matched against: the rental's resources and period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RentalSpan {
    /// The vendor's ids of what the rental holds.
    pub resources: Vec<String>,
    /// When the nodes started, Unix seconds.
    pub started_at: i64,
    /// When every resource was released, Unix seconds; `None` while still held.
    pub released_at: Option<i64>,
}

/// Where a matched line falls in the rental's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placement {
    /// Charged while the rental held the resource.
    Rental,
    /// Charged for a period starting at or after the rental's release.
    AfterRelease,
}

/// Why a line is not the rental's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unmatched {
    /// The line names no resource (a tax or account-level fee).
    NoResource,
    /// The resource is not one the rental holds.
    OtherResource,
    /// The resource is the rental's, but the period ends before the rental started.
    OutsidePeriod,
}

impl Unmatched {
    /// The stable code (stored).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Unmatched::NoResource => "no_resource",
            Unmatched::OtherResource => "other_resource",
            Unmatched::OutsidePeriod => "outside_period",
        }
    }

    /// The reason of a stable code.
    #[must_use]
    pub fn parse(code: &str) -> Option<Unmatched> {
        [
            Unmatched::NoResource,
            Unmatched::OtherResource,
            Unmatched::OutsidePeriod,
        ]
        .into_iter()
        .find(|u| u.as_str() == code)
    }
}

fn same_resource(billed: &str, held: &str) -> bool {
    let (billed, held) = (billed.trim(), held.trim());
    !held.is_empty() && (billed == held || billed.strip_suffix(held).is_some_and(|head| head.ends_with('/')))
}

/// Where `line` falls when it is the rental's, else why it is not (rules in the module docs).
///
/// # Errors
/// [`Unmatched`] with the reason the line is not the rental's.
pub fn match_line(line: &BillLine, rental: &RentalSpan) -> Result<Placement, Unmatched> {
    if line.resource_id.trim().is_empty() {
        return Err(Unmatched::NoResource);
    }
    if !rental.resources.iter().any(|r| same_resource(&line.resource_id, r)) {
        return Err(Unmatched::OtherResource);
    }
    let end = line.period_end.max(line.period_start.saturating_add(1));
    if end <= rental.started_at {
        return Err(Unmatched::OutsidePeriod);
    }
    Ok(placement(line, rental))
}

/// Matches the resource-less tax lines of a bill to the rental when every line naming a resource
/// is the rental's, and at least one is (rules in the module docs).
pub fn match_taxes(lines: &mut [(BillLine, Option<Unmatched>)]) {
    let named = || lines.iter().filter(|(l, _)| !l.resource_id.trim().is_empty());
    let all_ours = named().next().is_some() && named().all(|(_, u)| u.is_none());
    if !all_ours {
        return;
    }
    for (line, unmatched) in lines.iter_mut() {
        if line.component == super::Component::Tax && *unmatched == Some(Unmatched::NoResource) {
            *unmatched = None;
        }
    }
}

/// Where a line of the rental falls: after release when its period starts at or after it.
#[must_use]
pub fn placement(line: &BillLine, rental: &RentalSpan) -> Placement {
    match rental.released_at {
        Some(released) if line.period_start >= released => Placement::AfterRelease,
        _ => Placement::Rental,
    }
}

/// A bill's total tied back to what was reconciled: the lines matched to the rental plus the
/// lines not matched make the bill's total, every line counted once (in the bill's currency).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tie {
    /// Σ cost of the matched lines (what the reconciliation counts).
    pub matched: Decimal,
    /// Σ cost of the unmatched lines.
    pub unmatched: Decimal,
    /// Σ cost of every line: `matched + unmatched`.
    pub total: Decimal,
}

/// The [`Tie`] of a bill's lines, each with why it is not the rental's (`None`: matched); `None`
/// when a sum leaves the range of exact decimals.
#[must_use]
pub fn tie(lines: &[(BillLine, Option<Unmatched>)]) -> Option<Tie> {
    tie_costs(lines.iter().map(|(line, why)| (line.cost, why.is_none())))
}

/// The [`Tie`] of line costs, each with whether it matched the rental; `None` when a sum leaves
/// the range of exact decimals.
#[must_use]
pub fn tie_costs(costs: impl IntoIterator<Item = (Decimal, bool)>) -> Option<Tie> {
    let (mut matched, mut unmatched) = (Decimal::ZERO, Decimal::ZERO);
    for (cost, is_matched) in costs {
        let sum = if is_matched { &mut matched } else { &mut unmatched };
        *sum = sum.checked_add(cost)?;
    }
    Some(Tie {
        matched,
        unmatched,
        total: matched.checked_add(unmatched)?,
    })
}

/// The [`Tie`] of a stored bill from its total and what its matched lines cost; `None` when the
/// difference leaves the range of exact decimals.
#[must_use]
pub fn tie_of_total(total: Decimal, matched: Decimal) -> Option<Tie> {
    Some(Tie {
        matched,
        unmatched: total.checked_sub(matched)?,
        total,
    })
}

/// The order a bill's preview lists its lines in (indexes into `lines`): what a reader must see
/// before importing first — credits and corrections, then the lines not matched to the rental —
/// then the matched charges; each group in file order.
#[must_use]
pub fn preview_order(lines: &[(BillLine, Option<Unmatched>)]) -> Vec<usize> {
    let rank = |(line, why): &(BillLine, Option<Unmatched>)| match (line.kind, why) {
        (ChargeKind::Credit | ChargeKind::Correction, _) => 0,
        (ChargeKind::Usage, Some(_)) => 1,
        (ChargeKind::Usage, None) => 2,
    };
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|i| rank(&lines[*i]));
    order
}

#[cfg(test)]
mod tests {
    use super::super::{ChargeKind, Component, timestamp};
    use super::*;
    use rust_decimal::Decimal;

    fn at(text: &str) -> i64 {
        timestamp::parse(text).expect("a time")
    }

    fn line(resource: &str, start: &str, end: &str) -> BillLine {
        BillLine {
            line: 2,
            resource_id: resource.into(),
            period_start: at(start),
            period_end: at(end),
            component: Component::Compute,
            kind: ChargeKind::Usage,
            description: String::new(),
            sku: String::new(),
            quantity: Decimal::ONE,
            unit: "Hours".into(),
            unit_price: None,
            cost: Decimal::ONE,
            effective_cost: Decimal::ONE,
            currency: "USD".into(),
        }
    }

    fn rental(released: Option<&str>) -> RentalSpan {
        RentalSpan {
            resources: vec!["i-0abc".into(), "vol-9".into()],
            started_at: at("2026-12-01T08:00:00Z"),
            released_at: released.map(at),
        }
    }

    #[test]
    fn a_line_of_a_held_resource_within_the_period_matches() {
        let r = rental(Some("2026-12-03T08:00:00Z"));
        assert_eq!(
            match_line(&line("i-0abc", "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), &r),
            Ok(Placement::Rental)
        );
        let arn = line(
            "arn:aws:ec2:us-east-1:1:instance/i-0abc",
            "2026-12-02T00:00:00Z",
            "2026-12-03T00:00:00Z",
        );
        assert_eq!(match_line(&arn, &r), Ok(Placement::Rental), "an ARN ending in the id");
        assert_eq!(
            match_line(&line("xi-0abc", "2026-12-02T00:00:00Z", "2026-12-03T00:00:00Z"), &r),
            Err(Unmatched::OtherResource),
            "a longer id is another resource"
        );
    }

    #[test]
    fn periods_before_the_start_do_not_match_and_after_the_release_are_placed_after_it() {
        let r = rental(Some("2026-12-03T08:00:00Z"));
        let before = line("i-0abc", "2026-11-30T00:00:00Z", "2026-12-01T08:00:00Z");
        assert_eq!(
            match_line(&before, &r),
            Err(Unmatched::OutsidePeriod),
            "ends as the rental starts"
        );
        let after = line("vol-9", "2026-12-03T08:00:00Z", "2026-12-04T00:00:00Z");
        assert_eq!(
            match_line(&after, &r),
            Ok(Placement::AfterRelease),
            "the disk left behind, from the release on"
        );
        let straddles = line("vol-9", "2026-12-03T00:00:00Z", "2026-12-04T00:00:00Z");
        assert_eq!(
            match_line(&straddles, &r),
            Ok(Placement::Rental),
            "the last day of the rental"
        );
        let open = rental(None);
        assert_eq!(
            match_line(&after, &open),
            Ok(Placement::Rental),
            "an unreleased rental is open-ended"
        );
        let instant = line("vol-9", "2026-12-01T08:00:00Z", "2026-12-01T08:00:00Z");
        assert_eq!(
            match_line(&instant, &r),
            Ok(Placement::Rental),
            "a zero-length period at the start"
        );
    }

    #[test]
    fn a_line_without_resource_is_unmatched_for_that_reason() {
        let r = rental(None);
        assert_eq!(
            match_line(&line(" ", "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), &r),
            Err(Unmatched::NoResource)
        );
        assert_eq!(
            match_line(&line("i-other", "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), &r),
            Err(Unmatched::OtherResource)
        );
    }

    #[test]
    fn matched_and_unmatched_lines_tie_back_to_the_bills_total() {
        use rust_decimal_macros::dec;
        let cost = |c: Decimal, why| {
            let mut l = line("i-0abc", "2026-12-01T09:00:00Z", "2026-12-01T10:00:00Z");
            l.cost = c;
            (l, why)
        };
        let lines = [
            cost(dec!(900.00), None),
            cost(dec!(66.67), None),
            cost(dec!(4.20), Some(Unmatched::OtherResource)),
        ];
        assert_eq!(
            tie(&lines),
            Some(Tie {
                matched: dec!(966.67),
                unmatched: dec!(4.20),
                total: dec!(970.87),
            })
        );
        assert_eq!(tie(&[cost(Decimal::MAX, None), cost(Decimal::MAX, None)]), None);
    }

    #[test]
    fn a_preview_lists_credits_then_unmatched_lines_then_the_charges_each_in_file_order() {
        let l = |n: u64, kind, why| {
            let mut x = line("i-0abc", "2026-12-01T09:00:00Z", "2026-12-01T10:00:00Z");
            x.line = n;
            x.kind = kind;
            (x, why)
        };
        let lines = [
            l(2, ChargeKind::Usage, None),
            l(3, ChargeKind::Usage, Some(Unmatched::OtherResource)),
            l(4, ChargeKind::Usage, None),
            l(5, ChargeKind::Credit, None),
            l(6, ChargeKind::Correction, Some(Unmatched::NoResource)),
        ];
        let order: Vec<u64> = preview_order(&lines).into_iter().map(|i| lines[i].0.line).collect();
        assert_eq!(order, [5, 6, 3, 2, 4]);
    }

    #[test]
    fn a_tax_line_is_the_rentals_only_on_a_bill_written_for_the_rental_alone() {
        let tax = || BillLine {
            component: super::super::Component::Tax,
            ..line("", "2026-12-01", "2026-12-02")
        };
        let ours = line("i-0abc", "2026-12-01", "2026-12-02");
        let theirs = line("i-other", "2026-12-01", "2026-12-02");
        let fee = BillLine {
            component: super::super::Component::Fees,
            ..line("", "2026-12-01", "2026-12-02")
        };
        let mut alone = vec![
            (ours.clone(), None),
            (tax(), Some(Unmatched::NoResource)),
            (fee.clone(), Some(Unmatched::NoResource)),
        ];
        match_taxes(&mut alone);
        assert_eq!(alone[1].1, None, "the tax of a bill of this rental alone");
        assert_eq!(
            alone[2].1,
            Some(Unmatched::NoResource),
            "a fee without resource stays listed"
        );
        let mut shared = vec![
            (ours, None),
            (theirs, Some(Unmatched::OtherResource)),
            (tax(), Some(Unmatched::NoResource)),
        ];
        match_taxes(&mut shared);
        assert_eq!(
            shared[2].1,
            Some(Unmatched::NoResource),
            "a shared bill's tax is the vendor's to split"
        );
        let mut only_tax = vec![(tax(), Some(Unmatched::NoResource))];
        match_taxes(&mut only_tax);
        assert_eq!(only_tax[0].1, Some(Unmatched::NoResource));
    }
}
