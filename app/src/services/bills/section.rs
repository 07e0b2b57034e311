//! What the order page shows of the bills (load with the store, then build: the reconciliation
//! table and chart, the bills imported, the unmatched lines), and the import preview.

use super::{basis, reconciliation, texts};
use crate::{
    charts::{BillBars, BillLegend, estimate_vs_billed_svg},
    domain::{
        bills::{
            BillLine,
            matching::{self, Unmatched},
            reconcile::Reconciliation,
            timestamp,
        },
        money::format_money,
        tco::Currency,
    },
    error::AppError,
    i18n::{Locale, Msg},
    store::{self, Db},
    views::bills::{BillSection, BillSummary, LineView, ReconRow, ReconView},
};
use rust_decimal::{Decimal, prelude::ToPrimitive};

/// Lines listed (unmatched on the page, all in the preview); the rest are counted.
pub const LISTED_LINES: usize = 50;

/// "2026-12-01 08:00" of Unix seconds (UTC).
fn moment(secs: i64) -> String {
    let text = timestamp::format(secs);
    format!("{} {}", &text[..10], &text[11..16])
}

/// One line as listed; amounts in the bill's currency (as written when not one NodeLedger knows).
#[must_use]
pub fn line_view(locale: Locale, line: &BillLine, unmatched: Option<Unmatched>) -> LineView {
    let cost = Currency::parse(&line.currency).map_or_else(
        |_| format!("{} {}", line.cost, line.currency),
        |c| format_money(line.cost, c),
    );
    LineView {
        line: line.line,
        resource_id: line.resource_id.clone(),
        period: format!("{} – {} UTC", moment(line.period_start), moment(line.period_end)),
        component: texts::component(locale, line.component).to_string(),
        kind: texts::kind(locale, line.kind).to_string(),
        description: line.description.clone(),
        cost,
        unmatched: unmatched
            .map(|u| texts::unmatched(locale, u).to_string())
            .unwrap_or_default(),
    }
}

/// A variance as shown: "+6.1 %", "-2 %", empty when nothing was estimated.
fn percent(pct: Option<Decimal>) -> String {
    pct.map(|v| format!("{}{v} %", if v > Decimal::ZERO { "+" } else { "" }))
        .unwrap_or_default()
}

/// The verdict: the variance against the threshold, then what the figures hide — the tax and
/// the variance before it, commitments spread over usage, charges after release.
fn verdict(locale: Locale, r: &Reconciliation, variance: &str) -> String {
    let money = |d: Decimal| format_money(d, r.currency);
    let threshold = r.threshold_pct.normalize().to_string();
    // The variance against the threshold, before tax (a charge after release is said below).
    let over = crate::domain::bills::reconcile::flagged(r.estimated, r.billed - r.tax, r.threshold_pct);
    let msg = if over {
        Msg::BillsVerdictFlagged
    } else {
        Msg::BillsVerdictOk
    };
    let mut verdict = locale.fmt(msg, &[("variance", variance), ("threshold", &threshold)]);
    let mut add = |text: String| {
        verdict.push(' ');
        verdict.push_str(&text);
    };
    if !r.tax.is_zero() {
        let difference = texts::signed(r.difference_before_tax, r.currency);
        let pct = percent(r.variance_before_tax_pct);
        let args = [("tax", money(r.tax)), ("difference", difference), ("variance", pct)];
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        add(locale.fmt(Msg::BillsVerdictTax, &args));
    }
    if r.invoiced != r.billed {
        let args = [("invoiced", money(r.invoiced)), ("billed", money(r.billed))];
        let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (*k, v.as_str())).collect();
        add(locale.fmt(Msg::BillsVerdictEffective, &args));
    }
    if r.after_release > Decimal::ZERO {
        add(locale.fmt(Msg::BillsVerdictAfterRelease, &[("amount", &money(r.after_release))]));
    }
    verdict
}

/// The reconciliation as the page shows it, with its chart.
#[must_use]
pub fn recon_view(locale: Locale, r: &Reconciliation, rate_note: Option<String>) -> ReconView {
    let money = |d: Decimal| format_money(d, r.currency);
    let rows: Vec<ReconRow> = r
        .rows
        .iter()
        .map(|row| ReconRow {
            component: row.component.as_str().to_string(),
            name: texts::component(locale, row.component).to_string(),
            estimated: money(row.estimated),
            billed: money(row.billed),
            difference: texts::signed(row.difference, r.currency),
            reasons: texts::reasons(locale, row, r.currency, texts::Figures::Shown),
            reasons_exact: texts::reasons(locale, row, r.currency, texts::Figures::Exact),
        })
        .collect();
    let variance = percent(r.variance_pct);
    let verdict = verdict(locale, r, &variance);
    let groups: Vec<BillBars> = r
        .rows
        .iter()
        .map(|row| BillBars {
            label: texts::component(locale, row.component).to_string(),
            estimated: row.estimated.to_f64().unwrap_or(0.0),
            billed: row.billed.to_f64().unwrap_or(0.0),
            estimated_text: money(row.estimated),
            billed_text: money(row.billed),
        })
        .collect();
    let chart_svg = estimate_vs_billed_svg(
        locale.t(Msg::BillsChartTitle),
        BillLegend {
            estimated: locale.t(Msg::BillsChartEstimated),
            billed: locale.t(Msg::BillsChartBilled),
            over: locale.t(Msg::BillsChartOver),
        },
        &groups,
    );
    ReconView {
        currency: r.currency.code().to_string(),
        rate_note,
        rows,
        estimated: money(r.estimated),
        billed: money(r.billed),
        difference: texts::signed(r.difference, r.currency),
        variance,
        flagged: r.flagged,
        verdict,
        chart_src: data_url(&chart_svg),
        chart_alt: locale.t(Msg::BillsChartTitle).to_string(),
    }
}

/// An SVG as a `data:` URL (percent-encoded UTF-8).
fn data_url(svg: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("data:image/svg+xml;charset=utf-8,");
    for b in svg.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/:=;,()!*".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The rate note when a bill's currency is not the estimate's: the rate each bill kept (one
/// sentence when every bill kept the same), or for bills imported before rates were kept, the
/// team's latest.
async fn rate_note(
    db: &Db,
    team_id: i64,
    bills: &[store::bills::BillRow],
    estimate: Currency,
    locale: Locale,
) -> Result<Option<String>, AppError> {
    let mut kept: Vec<(&str, Currency, String, &str)> = Vec::new();
    let mut unkept = None;
    for b in bills {
        let Ok(bill) = Currency::parse(&b.currency) else {
            continue;
        };
        match b.rate.as_deref().and_then(|k| k.split_once(' ')) {
            Some((rate, date)) => kept.push((&b.file_name, bill, shown_rate(rate), date)),
            None if bill != estimate => unkept = Some(bill),
            None => {}
        }
    }
    let same = kept
        .windows(2)
        .all(|w| (w[0].1, &w[0].2, w[0].3) == (w[1].1, &w[1].2, w[1].3));
    if let (Some((_, bill, rate, date)), true) = (kept.first(), same && unkept.is_none()) {
        let args = [
            ("from", bill.code()),
            ("rate", rate.as_str()),
            ("to", estimate.code()),
            ("date", *date),
        ];
        return Ok(Some(locale.fmt(Msg::BillsRateNoteKept, &args)));
    }
    if !kept.is_empty() {
        let list: Vec<String> = kept
            .iter()
            .map(|(file, bill, rate, date)| {
                let args = [
                    ("file", *file),
                    ("from", bill.code()),
                    ("rate", rate.as_str()),
                    ("to", estimate.code()),
                    ("date", *date),
                ];
                locale.fmt(Msg::BillsRateNoteItem, &args)
            })
            .collect();
        let list = list.join(locale.t(Msg::BillsRateNoteSeparator));
        return Ok(Some(locale.fmt(Msg::BillsRateNotesKept, &[("list", &list)])));
    }
    let Some(bill) = unkept else {
        return Ok(None);
    };
    let rates = store::exchange_rates::records(db, team_id).await?;
    Ok(crate::domain::tco::latest_rate(&rates, bill, estimate).map(|r| {
        locale.fmt(
            Msg::BillsRateNote,
            &[
                ("from", r.from.code()),
                ("rate", &crate::domain::money::rate_text(r.rate)),
                ("to", r.to.code()),
                ("date", &r.date),
            ],
        )
    }))
}

/// A kept rate as the note shows it: at most 6 decimals, padded to two only (as the rates page).
fn shown_rate(rate: &str) -> String {
    Decimal::from_str_exact(rate).map_or_else(|_| rate.to_owned(), |r| crate::domain::money::rate_text(r.round_dp(6)))
}

/// The bill section of one of the team's orders; `may_import` and `may_set_threshold` are the
/// caller's rights.
///
/// # Errors
/// [`AppError::NotFound`] for an order not in the team; database failures.
pub async fn load(
    db: &Db,
    team_id: i64,
    order_id: i64,
    locale: Locale,
    may_import: bool,
    may_set_threshold: bool,
) -> Result<BillSection, AppError> {
    let threshold = store::bills::threshold(db, team_id).await?;
    let mut section = BillSection {
        order_id,
        blocked: None,
        can_import: may_import,
        can_set_threshold: may_set_threshold,
        threshold_pct: threshold.normalize().to_string(),
        reconciliation: None,
        bills: Vec::new(),
        unmatched: Vec::new(),
        unmatched_count: 0,
    };
    let basis = match basis(db, team_id, order_id).await? {
        Ok(b) => b,
        Err(r) => {
            section.blocked = Some(texts::refusal(locale, &r));
            return Ok(section);
        }
    };
    let bills = store::bills::of_order(db, team_id, order_id).await?;
    if !bills.is_empty()
        && let Ok(r) = reconciliation(db, team_id, order_id, &basis, &[], None).await?
    {
        let note = rate_note(db, team_id, &bills, basis.estimate.currency, locale).await?;
        section.reconciliation = Some(recon_view(locale, &r, note));
    }
    for b in &bills {
        let tie = tie_of(db, team_id, b).await?;
        section.bills.push(summary(locale, b, tie));
    }
    let limit = i64::try_from(LISTED_LINES).unwrap_or(50);
    section.unmatched = store::bills::lines_of_order(db, team_id, order_id, false, limit)
        .await?
        .iter()
        .map(|s| line_view(locale, &s.line, s.unmatched))
        .collect();
    section.unmatched_count = store::bills::unmatched_count(db, team_id, order_id).await?;
    Ok(section)
}

/// A stored bill's lines tied back to its total: from the matched total kept with the bill, or
/// from its lines for a bill imported before that total was kept.
async fn tie_of(db: &Db, team_id: i64, b: &store::bills::BillRow) -> Result<Option<matching::Tie>, AppError> {
    let total = Decimal::from_str_exact(&b.billed_total).ok();
    let matched = b.matched_total.as_deref().and_then(|m| Decimal::from_str_exact(m).ok());
    if let (Some(total), Some(matched)) = (total, matched) {
        return Ok(matching::tie_of_total(total, matched));
    }
    Ok(matching::tie_costs(store::bills::line_costs(db, team_id, b.id).await?))
}

fn summary(locale: Locale, b: &store::bills::BillRow, tie: Option<matching::Tie>) -> BillSummary {
    let layout = match b.layout.as_str() {
        "focus" => Msg::BillsLayoutFocus,
        _ => Msg::BillsLayoutNodeledger,
    };
    let total = Decimal::from_str_exact(&b.billed_total).unwrap_or_default();
    let total =
        Currency::parse(&b.currency).map_or_else(|_| format!("{total} {}", b.currency), |c| format_money(total, c));
    BillSummary {
        id: b.id,
        title: locale.fmt(
            Msg::BillsBillTitle,
            &[
                ("file", &b.file_name),
                ("layout", locale.t(layout)),
                ("start", b.period_start.get(..10).unwrap_or_default()),
                ("end", b.period_end.get(..10).unwrap_or_default()),
            ],
        ),
        detail: locale.fmt(
            Msg::BillsBillDetail,
            &[
                ("lines", &b.line_count.to_string()),
                ("matched", &b.matched_count.to_string()),
                ("total", &total),
                ("by", &b.imported_by),
                ("at", &b.imported_at.replace('T', " ").replace('Z', " UTC")),
            ],
        ),
        tie: tie.map_or_else(String::new, |t| tie_text(locale, t, &b.currency)),
    }
}

/// "Matched ¥966.67 + not matched ¥4.20 = bill total ¥970.87", in the bill's currency.
pub(super) fn tie_text(locale: Locale, t: matching::Tie, currency: &str) -> String {
    let money =
        |d: Decimal| Currency::parse(currency).map_or_else(|_| format!("{d} {currency}"), |cur| format_money(d, cur));
    locale.fmt(
        Msg::BillsTie,
        &[
            ("matched", &money(t.matched)),
            ("unmatched", &money(t.unmatched)),
            ("total", &money(t.total)),
        ],
    )
}

/// Adds the order's bills to its export (`bills`: each bill, the reconciliation with exact
/// figures, every unmatched line); nothing when the order has no bill.
///
/// # Errors
/// Database failures.
pub async fn add_to_export(
    db: &Db,
    team_id: i64,
    order_id: i64,
    value: &mut serde_json::Value,
) -> Result<(), AppError> {
    let bills = store::bills::of_order(db, team_id, order_id).await?;
    if bills.is_empty() {
        return Ok(());
    }
    let recon = match basis(db, team_id, order_id).await? {
        Ok(b) => reconciliation(db, team_id, order_id, &b, &[], None).await?.ok(),
        Err(_) => None,
    };
    let unmatched: Vec<serde_json::Value> = store::bills::lines_of_order(db, team_id, order_id, false, i64::MAX)
        .await?
        .into_iter()
        .map(|s| {
            let l = &s.line;
            serde_json::json!({
                "bill_id": s.bill_id, "line": l.line, "resource_id": l.resource_id,
                "period_start": timestamp::format(l.period_start), "period_end": timestamp::format(l.period_end),
                "component": l.component, "kind": l.kind, "description": l.description, "sku": l.sku,
                "quantity": l.quantity, "unit": l.unit, "unit_price": l.unit_price, "cost": l.cost,
                "effective_cost": l.effective_cost,
                "currency": l.currency, "unmatched": s.unmatched.map(Unmatched::as_str),
            })
        })
        .collect();
    let bills: Vec<serde_json::Value> = bills
        .iter()
        .map(|b| {
            serde_json::json!({
                "id": b.id, "file_name": b.file_name, "file_sha256": b.file_sha256, "layout": b.layout,
                "currency": b.currency, "period_start": b.period_start, "period_end": b.period_end,
                "lines": b.line_count, "matched": b.matched_count, "billed_total": b.billed_total,
                "variance_pct": b.variance_pct, "flagged": b.flagged, "imported_at": b.imported_at,
                "rate": b.rate,
            })
        })
        .collect();
    if let Some(map) = value.as_object_mut() {
        map.insert(
            "bills".into(),
            serde_json::json!({ "bills": bills, "reconciliation": recon, "unmatched_lines": unmatched }),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::bills::{
        Component,
        reconcile::{PlannedUnit, Reason, Row},
    };
    use rust_decimal_macros::dec;

    /// A charge after release under the threshold: the verdict says the variance is within it,
    /// and still that the order is flagged for what was charged after release, in both languages.
    #[test]
    fn the_verdict_names_a_charge_after_release_in_both_languages() {
        let r = Reconciliation {
            currency: Currency::CNY,
            rows: vec![Row {
                component: Component::Disk,
                estimated: dec!(13.15),
                billed: dec!(13.95),
                invoiced: dec!(13.95),
                difference: dec!(0.80),
                reasons: vec![Reason::AfterRelease { effect: dec!(0.80) }],
                unit: PlannedUnit::GbMonth,
                per_gpu: None,
            }],
            estimated: dec!(13.15),
            billed: dec!(13.95),
            invoiced: dec!(13.95),
            difference: dec!(0.80),
            variance_pct: Some(dec!(6.1)),
            tax: Decimal::ZERO,
            difference_before_tax: dec!(0.80),
            variance_before_tax_pct: Some(dec!(6.1)),
            threshold_pct: dec!(10),
            after_release: dec!(0.80),
            flagged: true,
        };
        let en = recon_view(Locale::En, &r, None);
        assert!(en.flagged);
        assert!(
            en.verdict.contains("within the team's threshold") && en.verdict.contains("¥0.80 was charged"),
            "{}",
            en.verdict
        );
        let zh = recon_view(Locale::ZhCn, &r, None);
        assert!(zh.verdict.contains("租用释放后仍对其资源计费 ¥0.80"), "{}", zh.verdict);
        assert!(
            zh.rows[0].reasons[0].starts_with("释放后计费"),
            "{:?}",
            zh.rows[0].reasons
        );
    }
}
