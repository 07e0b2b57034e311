//! Checking a bill before it is imported: read its lines, convert them at the rates of the bill's
//! day, and find what was already imported.

use super::*;

/// Units of `to` per unit of the line's currency, by the rate `rate_of` finds for it; `None`
/// when there is none (or the line is already in `to`, which needs none).
pub(super) fn factor_for<'a>(
    line: &BillLine,
    to: Currency,
    rate_of: impl Fn(Currency) -> Option<&'a ExchangeRate>,
) -> Option<Decimal> {
    let from = Currency::parse(&line.currency).ok()?;
    if from == to {
        return None;
    }
    rate_of(from).and_then(|r| conversion_factor(r, from, to))
}

/// Adds a matched line, converted × `factor` when its currency is not the estimate's.
pub(super) fn add_line(
    billed: &mut Billed,
    line: &BillLine,
    factor: Option<Decimal>,
    to: Currency,
    span: &RentalSpan,
) -> Result<(), Refusal> {
    let at = placement(line, span);
    match (Currency::parse(&line.currency), factor) {
        (Ok(c), _) if c == to => billed.add(line, at),
        (Ok(_), Some(f)) => billed.add_converted(line, at, f),
        _ => return Err(no_rate(&line.currency, to, line.line)),
    }
    Ok(())
}

/// The refusal of a bill whose currency `code` has no rate to `to`.
pub(super) fn no_rate(code: &str, to: Currency, line: u64) -> Refusal {
    Refusal::NoRate {
        code: code.to_owned(),
        to,
        line,
        column: "",
    }
}

/// Reads `content` line by line, matching each to the rental; line errors are collected. A
/// file past [`MAX_LINES`] is refused as soon as its next line is reached, so what is held stays
/// bounded whatever the file's size.
pub(super) fn read_lines(content: &[u8], span: &RentalSpan) -> Result<Read, Refusal> {
    let mut reader = open(content).map_err(Refusal::File)?;
    let layout = reader.layout();
    let (mut lines, mut keys, mut errors, mut error_count) = (Vec::new(), Vec::new(), Vec::new(), 0);
    let mut seen: HashMap<String, u64> = HashMap::new();
    for (count, read) in (1..).zip(reader.by_ref()) {
        if count > MAX_LINES {
            return Err(Refusal::TooManyLines { limit: MAX_LINES });
        }
        match read {
            Ok(line) => {
                let key = line.key();
                if let Some(first) = seen.get(&key) {
                    error_count += 1;
                    if errors.len() < MAX_ERRORS {
                        errors.push(LineError {
                            line: line.line,
                            column: String::new(),
                            code: crate::domain::bills::LineErrorCode::Repeated { first_line: *first },
                        });
                    }
                    continue;
                }
                seen.insert(key.clone(), line.line);
                keys.push(key);
                let unmatched = crate::domain::bills::matching::match_line(&line, span).err();
                lines.push((line, unmatched));
            }
            Err(errs) => {
                error_count += errs.len();
                errors.extend(errs.into_iter().take(MAX_ERRORS.saturating_sub(errors.len())));
            }
        }
    }
    if lines.is_empty() && error_count == 0 {
        return Err(Refusal::NoLines);
    }
    crate::domain::bills::matching::match_taxes(&mut lines);
    Ok(Read {
        layout,
        lines,
        keys,
        errors,
        error_count,
        billing_period_end: reader.billing_period_end(),
    })
}

/// What [`read_lines`] read.
pub(super) struct Read {
    pub(super) layout: Layout,
    pub(super) billing_period_end: Option<i64>,
    pub(super) lines: Vec<(BillLine, Option<Unmatched>)>,
    pub(super) keys: Vec<String>,
    pub(super) errors: Vec<LineError>,
    pub(super) error_count: usize,
}

/// Reads and judges a bill for the order; nothing is written (steps in the module docs).
///
/// # Errors
/// [`AppError::NotFound`] for an order not in the team; database failures.
pub async fn check(db: &Db, team_id: i64, order_id: i64, content: &[u8]) -> Result<Result<Checked, Refusal>, AppError> {
    let basis = match basis(db, team_id, order_id).await? {
        Ok(b) => b,
        Err(r) => return Ok(Err(r)),
    };
    let sha256 = hex::encode(Sha256::digest(content));
    if let Some((_, order_id)) = store::bills::with_file(db, team_id, &sha256).await? {
        return Ok(Err(Refusal::DuplicateFile { order_id }));
    }
    let Read {
        layout,
        lines,
        keys,
        errors,
        error_count,
        billing_period_end,
    } = match read_lines(content, &span_of(&basis.rental)) {
        Ok(read) => read,
        Err(r) => return Ok(Err(r)),
    };
    let currency = lines.first().map(|(l, _)| l.currency.clone()).unwrap_or_default();
    let mut checked = Checked {
        layout,
        sha256,
        lines,
        keys,
        errors,
        error_count,
        reconciliation: None,
        currency,
        rental_id: basis.rental.id,
        rate: None,
        billing_period_end,
    };
    if checked.error_count > 0 {
        return Ok(Ok(checked));
    }
    checked.rate = invoice_rate(db, team_id, &checked, basis.estimate.currency).await?;
    if let Some(refusal) = already_imported(db, team_id, order_id, &checked).await? {
        return Ok(Err(refusal));
    }
    let column = match layout {
        Layout::Focus => "BillingCurrency",
        Layout::NodeLedger => "currency",
    };
    match reconciliation(db, team_id, order_id, &basis, &checked.lines, checked.rate.as_ref()).await? {
        Ok(r) => checked.reconciliation = Some(r),
        Err(Refusal::NoRate { code, to, line, .. }) => {
            let line = if line == 0 {
                checked.lines.first().map_or(2, |(l, _)| l.line)
            } else {
                line
            };
            return Ok(Err(Refusal::NoRate { code, to, line, column }));
        }
        Err(other) => return Ok(Err(other)),
    }
    Ok(Ok(checked))
}

/// The team's rate from the bill's currency to `to` on the bill's invoice date: the day its
/// billing period ends when the file states it (FOCUS `BillingPeriodEnd`, so that a bill of
/// corrections of earlier periods is converted on its own invoice's day), else the day its
/// charges end; `None` in the same currency, an unknown one, or with no rate of the pair.
pub(super) async fn invoice_rate(
    db: &Db,
    team_id: i64,
    checked: &Checked,
    to: Currency,
) -> Result<Option<ExchangeRate>, AppError> {
    let Ok(from) = Currency::parse(&checked.currency) else {
        return Ok(None);
    };
    if from == to {
        return Ok(None);
    }
    let rates = store::exchange_rates::records(db, team_id).await?;
    let invoice_date = timestamp::format(checked.billing_period_end.unwrap_or(checked.period().1));
    Ok(rate_on(&rates, from, to, &invoice_date[..10]).cloned())
}

/// A line already imported in the team, or a period overlapping a bill of the order.
pub(super) async fn already_imported(
    db: &Db,
    team_id: i64,
    order_id: i64,
    checked: &Checked,
) -> Result<Option<Refusal>, AppError> {
    let keys = &checked.keys;
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let mut conn = db.acquire().await?;
    if let Some((key, bill_id)) = store::bills::first_imported_key(&mut conn, team_id, &refs).await? {
        let line = keys
            .iter()
            .position(|k| *k == key)
            .map_or(0, |i| checked.lines[i].0.line);
        return Ok(Some(Refusal::DuplicateLine { line, bill_id }));
    }
    let Some((start, end)) = checked.own_period() else {
        return Ok(None);
    };
    let (s, e) = (timestamp::format(start), timestamp::format(end));
    let Some((bill_id, start, end)) = store::bills::overlapping(&mut *conn, team_id, order_id, &s, &e).await? else {
        return Ok(None);
    };
    let (other_start, other_end) = (
        timestamp::parse(&start).unwrap_or_default(),
        timestamp::parse(&end).unwrap_or_default(),
    );
    let line = checked
        .lines
        .iter()
        .filter(|(l, _)| l.kind != ChargeKind::Correction)
        .filter(|(_, u)| u.is_none() || checked.matched() == 0)
        .find(|(l, _)| l.period_start < other_end && other_start < l.period_end.max(l.period_start + 1))
        .map_or(0, |(l, _)| l.line);
    let column = match checked.layout {
        Layout::Focus => "ChargePeriodStart",
        Layout::NodeLedger => "period_start",
    };
    Ok(Some(Refusal::Overlap {
        line,
        column,
        bill_id,
        start,
        end,
    }))
}
