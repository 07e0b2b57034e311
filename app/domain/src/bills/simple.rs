//! NodeLedger's simple bill CSV, for vendors who send a PDF: the team copies the bill's lines
//! into this layout (the template is served at `/bills/template.csv`). Columns by name, any
//! case and order; other columns are ignored.
//!
//! | column          | required | meaning                                                            |
//! |-----------------|----------|--------------------------------------------------------------------|
//! | `resource_id`   | yes      | the instance, disk or address id as the vendor names it (may be empty for a fee) |
//! | `period_start`  | yes      | start of the period charged (`2026-12-01T00:00:00Z` or `2026-12-01`) |
//! | `period_end`    | yes      | end of the period charged                                          |
//! | `amount`        | yes      | what the line costs (exact decimal, `.` as the decimal point)       |
//! | `currency`      | yes      | ISO 4217 code; one per bill                                         |
//! | `description`   | no       | the vendor's wording                                               |
//! | `component`     | no       | `compute`, `stopped_compute`, `disk`, `ip`, `traffic`, `snapshots`, `fees`, `tax`; empty: classified from the description and unit |
//! | `quantity`      | no       | how much was used, in `unit`                                       |
//! | `unit`          | no       | `hours`, `GB-month`, `GB`…                                         |
//! | `unit_price`    | no       | the price per unit charged                                         |
//! | `kind`          | no       | `usage` (default), `credit` or `correction` (these may be negative) |

use super::cells::{Cells, Header};
use super::{BillLine, ChargeKind, Component, FileError, LineErrorCode, classify};

/// The columns a simple bill must have.
pub const REQUIRED: &[&str] = &["resource_id", "period_start", "period_end", "amount", "currency"];

/// The template served for download: the header and two example lines.
pub const TEMPLATE: &str = "resource_id,period_start,period_end,description,component,quantity,unit,unit_price,amount,currency,kind\n\
ins-8f2a,2026-12-01T08:00:00Z,2026-12-03T08:00:00Z,GPU node 8x H100 on demand,compute,48,hours,28.50,1368.00,CNY,usage\n\
disk-8f2a,2026-12-01T08:00:00Z,2026-12-05T08:00:00Z,Data disk 2 TB while stopped,disk,2000,GB-month,0.0035,7.00,CNY,usage\n";

/// Where each column is in the header.
pub(super) struct Columns {
    resource: usize,
    start: usize,
    end: usize,
    amount: usize,
    currency: usize,
    description: Option<usize>,
    component: Option<usize>,
    quantity: Option<usize>,
    unit: Option<usize>,
    unit_price: Option<usize>,
    kind: Option<usize>,
}

impl Columns {
    /// Finds the columns; the caller has checked the required ones are present.
    pub(super) fn resolve(h: &Header) -> Result<Columns, FileError> {
        let need = |name: &'static str| {
            h.position(name).ok_or_else(|| FileError::MissingColumns {
                layout: super::Layout::NodeLedger,
                columns: vec![name],
            })
        };
        Ok(Columns {
            resource: need("resource_id")?,
            start: need("period_start")?,
            end: need("period_end")?,
            amount: need("amount")?,
            currency: need("currency")?,
            description: h.position("description"),
            component: h.position("component"),
            quantity: h.position("quantity"),
            unit: h.position("unit"),
            unit_price: h.position("unit_price"),
            kind: h.position("kind"),
        })
    }

    fn kind(&self, cells: &mut Cells<'_>) -> ChargeKind {
        let text = cells.text(self.kind).to_ascii_lowercase();
        if text.is_empty() {
            return ChargeKind::Usage;
        }
        ChargeKind::parse(&text).unwrap_or_else(|| {
            if let Some(i) = self.kind {
                let value = cells.text(Some(i)).to_owned();
                cells.fail(i, LineErrorCode::UnknownKind { value });
            }
            ChargeKind::Usage
        })
    }

    /// Reads one line; with it, the column of its currency. `None` when a cell could not be
    /// read (the errors are in `cells`).
    pub(super) fn line(&self, cells: &mut Cells<'_>) -> Option<(BillLine, usize)> {
        let before = cells.errors.len();
        let kind = self.kind(cells);
        let gives_back = kind != ChargeKind::Usage;
        let cost = cells.required_decimal(self.amount);
        cells.not_negative(Some(self.amount), cost, gives_back);
        let quantity = cells.decimal(self.quantity).unwrap_or_default();
        cells.not_negative(self.quantity, quantity, gives_back);
        let unit_price = cells.decimal(self.unit_price);
        cells.not_negative(self.unit_price, unit_price.unwrap_or_default(), false);
        let currency = cells.required(self.currency).to_ascii_uppercase();
        let (period_start, period_end) = cells.period(self.start, self.end);
        let description = cells.text(self.description).to_owned();
        let unit = cells.text(self.unit).to_owned();
        let written = cells.text(self.component).to_ascii_lowercase();
        let component = if written.is_empty() {
            classify::component(&classify::Facts {
                description: &description,
                unit: &unit,
                ..classify::Facts::default()
            })
        } else {
            Component::parse(&written).unwrap_or_else(|| {
                if let Some(i) = self.component {
                    let value = cells.text(Some(i)).to_owned();
                    cells.fail(i, LineErrorCode::UnknownComponent { value });
                }
                Component::Fees
            })
        };
        let line = BillLine {
            line: cells.line,
            resource_id: cells.text(Some(self.resource)).to_owned(),
            period_start,
            period_end,
            component,
            kind,
            description,
            sku: String::new(),
            quantity,
            unit,
            unit_price,
            cost,
            effective_cost: cost,
            currency,
        };
        (cells.errors.len() == before).then_some((line, self.currency))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ChargeKind, Component, Layout, LineErrorCode, open};
    use super::TEMPLATE;
    use rust_decimal_macros::dec;

    #[test]
    fn the_template_reads_as_two_clean_lines() {
        let reader = open(TEMPLATE.as_bytes()).expect("the template's header");
        assert_eq!(reader.layout(), Layout::NodeLedger);
        let lines: Vec<_> = reader.map(|l| l.expect("clean")).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            (
                lines[0].component,
                lines[0].quantity,
                lines[0].unit_price,
                lines[0].cost
            ),
            (Component::Compute, dec!(48), Some(dec!(28.50)), dec!(1368.00))
        );
        assert_eq!((lines[1].component, lines[1].line), (Component::Disk, 3));
    }

    #[test]
    fn columns_in_any_order_and_case_and_the_component_classified_when_empty() {
        let text = "Amount,Currency,Resource_ID,Period_Start,Period_End,Description,Unit,Extra\n\
                    12.5,cny,eip-1,2026-12-01,2026-12-02,公网IP,小时,ignored\n";
        let line = open(text.as_bytes())
            .expect("header")
            .next()
            .expect("a line")
            .expect("clean");
        assert_eq!(
            (line.component, line.currency.as_str(), line.cost),
            (Component::Ip, "CNY", dec!(12.5))
        );
    }

    #[test]
    fn an_unknown_component_or_kind_and_a_negative_charge_are_named() {
        let text = "resource_id,period_start,period_end,amount,currency,component,kind\n\
                    i-1,2026-12-01,2026-12-02,5,CNY,gpu,usage\n\
                    i-1,2026-12-01,2026-12-02,5,CNY,compute,refund\n\
                    i-1,2026-12-01,2026-12-02,-5,CNY,compute,\n\
                    i-1,2026-12-01,2026-12-02,-5,CNY,compute,credit\n";
        let lines: Vec<_> = open(text.as_bytes()).expect("header").collect();
        let first = |i: usize| lines[i].as_ref().expect_err("an error")[0].clone();
        assert_eq!((first(0).line, first(0).column.as_str()), (2, "component"));
        assert_eq!(first(0).code, LineErrorCode::UnknownComponent { value: "gpu".into() });
        assert_eq!((first(1).line, first(1).column.as_str()), (3, "kind"));
        assert_eq!((first(2).line, first(2).column.as_str()), (4, "amount"));
        assert_eq!(first(2).code, LineErrorCode::Negative { value: "-5".into() });
        assert_eq!(lines[3].as_ref().map(|l| l.kind), Ok(ChargeKind::Credit));
    }
}
