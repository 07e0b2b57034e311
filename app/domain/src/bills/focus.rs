//! FinOps FOCUS 1.x cost-and-usage exports (the layout the large clouds export and FinOps tools
//! read; <https://focus.finops.org>). Columns are read by name, in any case and any order; other
//! columns (FOCUS has about fifty) are ignored.
//!
//! | column                               | use                                                      |
//! |--------------------------------------|----------------------------------------------------------|
//! | `BilledCost` (required)              | what the line invoices                                   |
//! | `EffectiveCost`                      | what its usage costs with commitments spread over it (reconciled; `BilledCost` when absent) |
//! | `BillingCurrency` (required)         | its currency; one per bill                               |
//! | `ChargePeriodStart`/`End` (required) | the period charged, matched with the rental's            |
//! | `BillingPeriodEnd`                   | the end of the invoice's period: the bill's exchange rate is the one of that day (else the end of its charges) |
//! | `ChargeCategory` (required)          | `Usage`, `Purchase`, `Tax`, `Credit`, `Adjustment`       |
//! | `ResourceId` (required, may be empty)| matched with the rental's resource ids                   |
//! | `ChargeClass`                        | `Correction` marks a correction of an earlier charge     |
//! | `ServiceCategory`, `ResourceType`, `SkuId`/`SkuPriceId`, `ChargeDescription`, `ServiceName` | classification (see `classify`) |
//! | `PricingQuantity`/`PricingUnit`      | the quantity priced, in the unit the prices are per (else `ConsumedQuantity`/`ConsumedUnit`) |
//! | `ContractedUnitPrice`/`ListUnitPrice`| the price charged per `PricingUnit`, compared with the quote's |
//!
//! Prices go with `PricingQuantity`, never with `ConsumedQuantity`: FOCUS defines the unit
//! prices per `PricingUnit` ("GB-Months"), which may differ from the `ConsumedUnit` ("GB-Hours")
//! of the same line (FOCUS 1.2, columns PricingUnit and ContractedUnitPrice). `ConsumedQuantity`
//! stands in only where the line has no `PricingQuantity` (FOCUS lets it be null on corrections,
//! credits and taxes).
//!
//! Negative `BilledCost`, `ConsumedQuantity` or `PricingQuantity` are refused (line and column
//! named) unless the line is a credit or a correction.

use super::cells::{Cells, Header};
use super::{BillLine, FileError, classify};

/// The columns a FOCUS file must have.
pub const REQUIRED: &[&str] = &[
    "BilledCost",
    "BillingCurrency",
    "ChargePeriodStart",
    "ChargePeriodEnd",
    "ChargeCategory",
    "ResourceId",
];

/// Where each column FOCUS defines and NodeLedger reads is in the header.
pub(super) struct Columns {
    billed_cost: usize,
    effective_cost: Option<usize>,
    currency: usize,
    start: usize,
    end: usize,
    category: usize,
    resource: usize,
    class: Option<usize>,
    description: Option<usize>,
    service: Option<usize>,
    service_category: Option<usize>,
    resource_type: Option<usize>,
    sku: Option<usize>,
    sku_price: Option<usize>,
    consumed_quantity: Option<usize>,
    consumed_unit: Option<usize>,
    pricing_quantity: Option<usize>,
    pricing_unit: Option<usize>,
    contracted_price: Option<usize>,
    list_price: Option<usize>,
    billing_end: Option<usize>,
}

impl Columns {
    /// Finds the columns; the caller has checked the required ones are present.
    pub(super) fn resolve(h: &Header) -> Result<Columns, FileError> {
        let need = |name: &'static str| {
            h.position(name).ok_or_else(|| FileError::MissingColumns {
                layout: super::Layout::Focus,
                columns: vec![name],
            })
        };
        Ok(Columns {
            billed_cost: need("BilledCost")?,
            effective_cost: h.position("EffectiveCost"),
            currency: need("BillingCurrency")?,
            start: need("ChargePeriodStart")?,
            end: need("ChargePeriodEnd")?,
            category: need("ChargeCategory")?,
            resource: need("ResourceId")?,
            class: h.position("ChargeClass"),
            description: h.position("ChargeDescription"),
            service: h.position("ServiceName"),
            service_category: h.position("ServiceCategory"),
            resource_type: h.position("ResourceType"),
            sku: h.position("SkuId"),
            sku_price: h.position("SkuPriceId"),
            consumed_quantity: h.position("ConsumedQuantity"),
            consumed_unit: h.position("ConsumedUnit"),
            pricing_quantity: h.position("PricingQuantity"),
            pricing_unit: h.position("PricingUnit"),
            contracted_price: h.position("ContractedUnitPrice"),
            list_price: h.position("ListUnitPrice"),
            billing_end: h.position("BillingPeriodEnd"),
        })
    }

    /// The line's `BillingPeriodEnd`, if the file has the column and the cell a time.
    pub(super) fn billing_end(&self, cells: &mut Cells<'_>) -> Option<i64> {
        cells.optional_time(self.billing_end)
    }

    /// Reads one line; with it, the column of its currency. `None` when a cell could not be
    /// read (the errors are in `cells`).
    pub(super) fn line(&self, cells: &mut Cells<'_>) -> Option<(BillLine, usize)> {
        let before = cells.errors.len();
        let category = cells.required(self.category);
        let class = cells.text(self.class).to_owned();
        let kind = classify::charge_kind(&category, &class);
        let gives_back = kind != super::ChargeKind::Usage;
        let cost = cells.required_decimal(self.billed_cost);
        cells.not_negative(Some(self.billed_cost), cost, gives_back);
        let effective_cost = cells.decimal(self.effective_cost).unwrap_or(cost);
        cells.not_negative(self.effective_cost, effective_cost, gives_back);
        let currency = cells.required(self.currency).to_ascii_uppercase();
        let (period_start, period_end) = cells.period(self.start, self.end);
        let consumed = cells.decimal(self.consumed_quantity);
        let pricing = cells.decimal(self.pricing_quantity);
        cells.not_negative(self.consumed_quantity, consumed.unwrap_or_default(), gives_back);
        cells.not_negative(self.pricing_quantity, pricing.unwrap_or_default(), gives_back);
        let (quantity, unit) = match pricing {
            Some(q) => (q, cells.text(self.pricing_unit).to_owned()),
            None => (consumed.unwrap_or_default(), cells.text(self.consumed_unit).to_owned()),
        };
        let contracted = cells.decimal(self.contracted_price);
        let unit_price = contracted.or(cells.decimal(self.list_price));
        let sku = Some(cells.text(self.sku))
            .filter(|s| !s.is_empty())
            .unwrap_or(cells.text(self.sku_price))
            .to_owned();
        let description = cells.text(self.description).to_owned();
        let component = classify::component(&classify::Facts {
            category: &category,
            service_category: cells.text(self.service_category),
            resource_type: cells.text(self.resource_type),
            service: cells.text(self.service),
            sku: &sku,
            description: &description,
            unit: &unit,
        });
        let line = BillLine {
            line: cells.line,
            resource_id: cells.text(Some(self.resource)).to_owned(),
            period_start,
            period_end,
            component,
            kind,
            description,
            sku,
            quantity,
            unit,
            unit_price,
            cost,
            effective_cost,
            currency,
        };
        (cells.errors.len() == before).then_some((line, self.currency))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ChargeKind, Component, FileError, Layout, LineErrorCode, open, timestamp};
    use rust_decimal_macros::dec;

    const HEADER: &str = "BillingAccountId,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,BilledCost,BillingCurrency,ConsumedQuantity,ConsumedUnit,ListUnitPrice,ContractedUnitPrice,PricingQuantity,PricingUnit,ResourceId,ServiceName,SkuId,Tags";

    fn read(rows: &[&str]) -> Vec<Result<super::BillLine, Vec<super::super::LineError>>> {
        let text = format!("{HEADER}\n{}\n", rows.join("\n"));
        let reader = open(text.as_bytes()).expect("a FOCUS header");
        assert_eq!(reader.layout(), Layout::Focus);
        reader.collect()
    }

    #[test]
    fn a_usage_line_reads_exactly_by_column_name() {
        let lines = read(&[
            "acct-1,Usage,,GPU instance gpu.h100x8 on demand,2026-12-01T00:00:00Z,2026-12-02T00:00:00Z,2079.36,USD,24,Hours,86.64,86.64,24,Hours,i-0abc,Compute,sku-h100,\"{\"\"team\"\":\"\"ml\"\"}\"",
        ]);
        let line = lines[0].as_ref().expect("clean");
        assert_eq!(line.line, 2);
        assert_eq!(line.resource_id, "i-0abc");
        assert_eq!(line.component, Component::Compute);
        assert_eq!(line.kind, ChargeKind::Usage);
        assert_eq!((line.quantity, line.unit.as_str()), (dec!(24), "Hours"));
        assert_eq!((line.unit_price, line.cost), (Some(dec!(86.64)), dec!(2079.36)));
        assert_eq!(line.currency, "USD");
        assert_eq!(timestamp::format(line.period_start), "2026-12-01T00:00:00Z");
        assert_eq!(line.period_end - line.period_start, 86_400);
    }

    #[test]
    fn contracted_price_wins_over_list_and_pricing_quantity_stands_in() {
        let lines = read(&["a,Usage,,disk,2026-12-01,2026-12-02,3.50,USD,,,0.12,0.10,35,GB-Mo,vol-1,Storage,,"]);
        let line = lines[0].as_ref().expect("clean");
        assert_eq!((line.quantity, line.unit.as_str()), (dec!(35), "GB-Mo"));
        assert_eq!(line.unit_price, Some(dec!(0.10)));
        assert_eq!(line.component, Component::Disk);
    }

    #[test]
    fn credits_and_corrections_may_be_negative_other_lines_not() {
        let lines = read(&[
            "a,Credit,,Promotional credit,2026-12-01,2026-12-02,-50.00,USD,,,,,,,i-0abc,Compute,,",
            "a,Usage,Correction,Rebill of Dec 1,2026-12-01,2026-12-02,-10.00,USD,-2,Hours,5,5,,,i-0abc,Compute,,",
            "a,Usage,,GPU instance,2026-12-01,2026-12-02,10.00,USD,-2,Hours,5,5,,,i-0abc,Compute,,",
        ]);
        assert_eq!(lines[0].as_ref().map(|l| l.kind), Ok(ChargeKind::Credit));
        assert_eq!(lines[1].as_ref().map(|l| l.kind), Ok(ChargeKind::Correction));
        let errors = lines[2].as_ref().expect_err("a negative quantity");
        assert_eq!(errors.len(), 1);
        assert_eq!((errors[0].line, errors[0].column.as_str()), (4, "ConsumedQuantity"));
        assert_eq!(errors[0].code, LineErrorCode::Negative { value: "-2".into() });
    }

    #[test]
    fn bad_cells_are_named_by_line_and_column() {
        let lines = read(&[
            "a,Usage,,x,2026-12-02,2026-12-01,ten,USD,,,,,,,i-1,,,",
            "a,Usage,,x,2026-12-01,2026-12-02,1,EUR,,,,,,,i-1,,,",
        ]);
        let errors = lines[0].as_ref().expect_err("bad cells");
        let at: Vec<(&str, &LineErrorCode)> = errors.iter().map(|e| (e.column.as_str(), &e.code)).collect();
        assert_eq!(
            at,
            [
                ("BilledCost", &LineErrorCode::NotANumber { value: "ten".into() }),
                ("ChargePeriodEnd", &LineErrorCode::EndBeforeStart)
            ]
        );
        // The first line that could be read sets the bill's currency; a line failing earlier does not.
        assert!(lines[1].is_ok());
    }

    /// Decimal's largest value as a cost once overflowed the bill's total (a panic); numbers
    /// beyond a trillion, or with more than 10 decimals, are refused at their cell.
    #[test]
    fn numbers_beyond_any_bill_are_refused_at_their_cell() {
        let lines = read(&[
            "a,Usage,,x,2026-12-01,2026-12-02,79228162514264337593543950335,USD,,,,,,,i-1,,,",
            "a,Usage,,x,2026-12-01,2026-12-02,1000000000000.5,USD,,,,,,,i-1,,,",
            "a,Usage,,x,2026-12-01,2026-12-02,0.12345678901,USD,,,,,,,i-1,,,",
            "a,Usage,,x,2026-12-01,2026-12-02,1e13,USD,,,,,,,i-1,,,",
            "a,Usage,,x,2026-12-01,2026-12-02,1000000000000,USD,,,,,,,i-1,,,",
        ]);
        for (i, line) in lines.iter().enumerate().take(4) {
            let errors = line.as_ref().expect_err("out of range");
            assert_eq!(errors[0].column, "BilledCost", "line {i}");
            assert!(
                matches!(errors[0].code, LineErrorCode::OutOfRange { .. }),
                "line {i}: {errors:?}"
            );
        }
        assert!(lines[4].is_ok(), "a trillion itself is a number a bill may hold");
    }

    #[test]
    fn one_bill_one_currency() {
        let lines = read(&[
            "a,Usage,,x,2026-12-01,2026-12-02,1,USD,,,,,,,i-1,,,",
            "a,Usage,,x,2026-12-01,2026-12-02,1,EUR,,,,,,,i-1,,,",
        ]);
        let errors = lines[1].as_ref().expect_err("another currency");
        assert_eq!((errors[0].line, errors[0].column.as_str()), (3, "BillingCurrency"));
    }

    #[test]
    fn a_header_missing_focus_columns_names_them() {
        let text = "BilledCost,BillingCurrency,ChargePeriodStart,ResourceId\n1,USD,2026-12-01,i-1\n";
        assert_eq!(
            open(text.as_bytes()).err(),
            Some(FileError::MissingColumns {
                layout: Layout::Focus,
                columns: vec!["ChargePeriodEnd", "ChargeCategory"]
            })
        );
        let text = "date,amount_due\n2026-12-01,5\n";
        match open(text.as_bytes()).err() {
            Some(FileError::UnknownLayout {
                focus_missing,
                simple_missing,
            }) => {
                assert_eq!(focus_missing, super::REQUIRED);
                assert_eq!(simple_missing, super::super::simple::REQUIRED);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_short_line_and_a_broken_quote_are_line_errors() {
        let lines = read(&[
            "a,Usage,x",
            "a,Usage,,\"unclosed,2026-12-01,2026-12-02,1,USD,,,,,,,i-1,,,",
        ]);
        assert!(matches!(
            lines[0].as_ref().expect_err("short")[0].code,
            LineErrorCode::FieldCount { expected: 18, found: 3 }
        ));
        assert_eq!(lines.len(), 2);
    }

    /// FOCUS `BillingPeriodEnd` (the end of the invoice's period, FOCUS 1.0 "Billing Period End")
    /// is the bill's invoice day, read as the latest over the lines: a February invoice that
    /// only corrects December charges is dated by February, not by the periods it corrects. An
    /// unreadable one is an error of its column; an empty one says nothing.
    #[test]
    fn the_billing_period_end_dates_the_invoice() {
        let header = "BilledCost,BillingCurrency,BillingPeriodStart,BillingPeriodEnd,ChargeCategory,ChargeClass,ChargePeriodStart,ChargePeriodEnd,ResourceId";
        let text = format!(
            "{header}\n\
             -2.00,USD,2027-02-01T00:00:00Z,2027-03-01T00:00:00Z,Usage,Correction,2026-12-01T08:00:00Z,2026-12-01T18:00:00Z,i-l4\n\
             -1.00,USD,2027-02-01T00:00:00Z,,Usage,Correction,2026-12-02T08:00:00Z,2026-12-02T18:00:00Z,i-l4\n"
        );
        let mut reader = open(text.as_bytes()).expect("a FOCUS header");
        assert!(reader.by_ref().all(|l| l.is_ok()));
        assert_eq!(reader.billing_period_end(), timestamp::parse("2027-03-01T00:00:00Z"));
        let broken = text.replace("2027-03-01T00:00:00Z", "March");
        let mut reader = open(broken.as_bytes()).expect("a FOCUS header");
        let first = reader.next().expect("a line").expect_err("an unreadable end");
        assert_eq!(first[0].column, "BillingPeriodEnd");
        assert_eq!(reader.billing_period_end(), None);
    }

    /// A FOCUS 1.2 export as the specification writes its columns: usage covered by a
    /// commitment (`BilledCost` 0, `EffectiveCost` its share, `CommitmentDiscountStatus` Used),
    /// a disk priced per `PricingUnit` GB-Months whose `ConsumedUnit` is GB-Hours, an Elastic IP
    /// kept by a stopped instance, and a tax line (`PricingUnit` null, as FOCUS requires for tax).
    #[test]
    fn a_focus_1_2_export_reads_effective_cost_pricing_units_and_service_categories() {
        let header = "BilledCost,BillingCurrency,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodStart,ChargePeriodEnd,CommitmentDiscountStatus,ConsumedQuantity,ConsumedUnit,ContractedUnitPrice,EffectiveCost,ListUnitPrice,PricingQuantity,PricingUnit,ResourceId,ResourceType,ServiceCategory,ServiceName,SkuId";
        let text = format!(
            "{header}\n\
             0,USD,Usage,,p5.48xlarge reserved,2026-12-01T00:00:00Z,2026-12-02T00:00:00Z,Used,24,Hours,98.32,2359.68,98.32,24,Hours,i-0abc,Virtual Machine,Compute,Amazon Elastic Compute Cloud,p5\n\
             8.00,USD,Usage,,gp3 volume 100 GB for December,2026-12-01T00:00:00Z,2027-01-01T00:00:00Z,,74400,GB-Hours,0.08,8.00,0.08,100,GB-Months,vol-1,Volume,Storage,Amazon Elastic Block Store,gp3\n\
             0.12,USD,Usage,,\"Elastic IP address, instance stopped\",2026-12-01T00:00:00Z,2026-12-02T00:00:00Z,,24,Hours,0.005,0.12,0.005,24,Hours,eipalloc-1,Elastic IP,Compute,Amazon Elastic Compute Cloud,eip\n\
             236.80,USD,Tax,,VAT,2026-12-01T00:00:00Z,2026-12-02T00:00:00Z,,,,,236.80,,,,,,Other,Tax,\n"
        );
        let reader = open(text.as_bytes()).expect("a FOCUS header");
        let lines: Vec<super::BillLine> = reader.map(|l| l.expect("clean")).collect();
        let [reserved, disk, ip, tax] = lines.as_slice() else {
            panic!("four lines: {lines:?}")
        };
        assert_eq!((reserved.cost, reserved.effective_cost), (dec!(0), dec!(2359.68)));
        assert_eq!(reserved.component, Component::Compute);
        assert_eq!(
            (disk.quantity, disk.unit.as_str(), disk.unit_price),
            (dec!(100), "GB-Months", Some(dec!(0.08)))
        );
        assert_eq!(
            disk.quantity * disk.unit_price.unwrap_or_default(),
            disk.cost,
            "quantity × price = cost"
        );
        assert_eq!(disk.component, Component::Disk);
        assert_eq!(
            ip.component,
            Component::Ip,
            "the address a stopped node keeps is the IP"
        );
        assert_eq!((tax.component, tax.effective_cost), (Component::Tax, dec!(236.80)));
    }

    #[test]
    fn a_negative_effective_cost_on_a_usage_line_is_refused_at_its_column() {
        let text = "BilledCost,BillingCurrency,ChargeCategory,ChargePeriodStart,ChargePeriodEnd,EffectiveCost,ResourceId\n\
                    1,USD,Usage,2026-12-01,2026-12-02,-1,i-1\n";
        let errors: Vec<_> = open(text.as_bytes()).expect("header").collect();
        let errors = errors[0].as_ref().expect_err("negative");
        assert_eq!(errors[0].column, "EffectiveCost");
    }
}
