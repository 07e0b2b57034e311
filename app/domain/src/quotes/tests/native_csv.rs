//! NodeLedger CSV import: good file, bad rows, file-level errors.

use super::fixtures::{defaults, draft};
use crate::quotes::{
    CsvFormat, ErrorCode, FormFactor, ImportError, ImportPreview, Interconnect, RowError, Sharing, detect_format,
    export, import,
};
use crate::tco::{BillingIncrement, Currency, Fee, PriceBasis};
use rust_decimal_macros::dec;

const QUOTES: &[u8] = include_bytes!("../fixtures/nodeledger_quotes.csv");
const ONE_BAD_ROW: &[u8] = include_bytes!("../fixtures/nodeledger_one_bad_row.csv");
const SEMICOLON: &[u8] = include_bytes!("../fixtures/semicolon.csv");
const MISSING: &[u8] = include_bytes!("../fixtures/missing_columns.csv");
const GBK: &[u8] = include_bytes!("../fixtures/gbk_encoded.csv");

fn read(bytes: &[u8]) -> Result<ImportPreview, ImportError> {
    import(bytes, None, &defaults("ignored"))
}

fn row_errors(p: &ImportPreview) -> Vec<RowError> {
    p.rows.iter().flat_map(|r| r.errors.clone()).collect()
}

#[test]
fn reads_a_realistic_file() {
    assert_eq!(detect_format(QUOTES), Ok(CsvFormat::NodeLedger));
    let p = read(QUOTES).expect("import");
    assert!(p.is_clean(), "{:?}", row_errors(&p));
    assert_eq!(p.rows.iter().map(|r| r.line).collect::<Vec<_>>(), [2, 3, 4]);
    let d = p.rows[0].draft.as_ref().expect("draft");
    assert_eq!(d.vendor, "德讯电讯");
    assert_eq!(d.spec.usable_vram_gib, Some(dec!(79.2)));
    assert_eq!(d.spec.form_factor, Some(FormFactor::Sxm));
    assert_eq!(d.spec.interconnect, Some(Interconnect::Nvswitch));
    assert_eq!(d.spec.rdma, Some(true));
    assert_eq!(d.spec.docker_allowed, Some(true));
    assert_eq!(d.price.billing_increment, BillingIncrement::MINUTE);
    assert_eq!(d.price.monthly_price, Some(dec!(118000.00)));
    assert_eq!(d.price.commitment_months, Some(3));
    // No `price.monthly_basis` column: the monthly price is on the price basis.
    assert_eq!(d.price.monthly_basis, Some(d.price.basis));
    assert_eq!(
        d.price.other_fees,
        vec![
            Fee {
                label: "安装费".into(),
                amount: dec!(500)
            },
            Fee {
                label: "运维支持".into(),
                amount: dec!(1200.50)
            },
        ]
    );
    assert_eq!(d.auto_renewal, Some(false));
    assert_eq!(d.notes, "含远程环境部署, 实例开通和资源回收");
    let l40s = p.rows[1].draft.as_ref().expect("draft");
    assert_eq!(l40s.price.basis, PriceBasis::PerGpu);
    assert_eq!(l40s.spec.usable_vram_gib, None);
    assert_eq!(l40s.price.monthly_price, None);
    let mig = p.rows[2].draft.as_ref().expect("draft");
    assert_eq!(
        mig.spec.sharing,
        Sharing::Mig {
            profile: "3g.20gb".into()
        }
    );
    assert_eq!(mig.notes, "按小时计费\n关机不收费");
    assert!(p.ignored_columns.is_empty());
}

#[test]
fn one_bad_row_reports_line_and_column() {
    let p = read(ONE_BAD_ROW).expect("import");
    assert!(!p.is_clean());
    assert_eq!(p.rows.len(), 3);
    assert_eq!(
        row_errors(&p),
        vec![RowError {
            line: 3,
            column: Some("spec.vram_gib".into()),
            field: Some("spec.vram_gib"),
            code: ErrorCode::InvalidNumber,
        }]
    );
    assert!(p.rows[1].draft.is_none());
    assert_eq!(p.valid_drafts().count(), 2);
    // What a preview shows of the bad row: the cell's own text and the rest as read.
    assert_eq!(
        p.rows[1].bad_cells,
        vec![("spec.vram_gib".to_owned(), "20GB".to_owned())]
    );
    let as_read = p.rows[1].as_read.as_ref().expect("the rest was read");
    assert_eq!(
        (as_read.reference.as_str(), as_read.spec.gpu_model.as_str()),
        ("SLG-A100-MIG", "A100 40GB")
    );
    assert!(p.rows[0].bad_cells.is_empty() && p.rows[0].as_read.is_none());
}

#[test]
fn reports_every_problem_of_a_row() {
    let csv = "vendor,reference,received_on,valid_until,currency,spec.gpu_model,spec.gpus_per_node,\
spec.vram_gib,spec.usable_vram_gib,spec.sharing,price.basis,price.on_demand_hourly,\
price.billing_increment,price.stopped_bills_compute\n\
算力港,R1,2025-03-01,2025-02-01,XYZ,,0,24,30,fractional:1.5,per_hour,-1,daily,maybe\n";
    let p = read(csv.as_bytes()).expect("import");
    let got: Vec<(Option<String>, ErrorCode)> = row_errors(&p).into_iter().map(|e| (e.column, e.code)).collect();
    let col = |c: &str| Some(c.to_owned());
    assert_eq!(
        got,
        vec![
            (col("currency"), ErrorCode::UnknownCurrency),
            (col("price.basis"), ErrorCode::InvalidChoice),
            // Any length with a unit is an increment ("10 min", "1 day"); "daily" is none.
            (col("price.billing_increment"), ErrorCode::InvalidDuration),
            (col("price.stopped_bills_compute"), ErrorCode::InvalidBool),
            (col("valid_until"), ErrorCode::EndBeforeStart),
            (col("spec.gpu_model"), ErrorCode::Required),
            (col("spec.gpus_per_node"), ErrorCode::NotPositive),
            (col("spec.usable_vram_gib"), ErrorCode::ExceedsVram),
            (col("spec.sharing"), ErrorCode::OutOfRange { allowed: "(0, 1)" }),
            (col("price.on_demand_hourly"), ErrorCode::Negative),
        ]
    );
    assert!(p.rows.iter().all(|r| r.line == 2));
}

#[test]
fn validation_errors_alone_keep_the_draft() {
    let mut d = draft();
    d.valid_until = d.received_on.add_days(0).expect("date");
    d.spec.usable_vram_gib = Some(dec!(81));
    let p = read(export(&[d]).as_bytes()).expect("import");
    assert!(p.rows[0].draft.is_some());
    assert_eq!(
        row_errors(&p),
        vec![RowError {
            line: 2,
            column: Some("spec.usable_vram_gib".into()),
            field: Some("spec.usable_vram_gib"),
            code: ErrorCode::ExceedsVram,
        }]
    );
}

#[test]
fn a_semicolon_file_is_a_wrong_delimiter() {
    assert_eq!(read(SEMICOLON), Err(ImportError::WrongDelimiter { found: ';' }));
    assert_eq!(
        detect_format(SEMICOLON),
        Err(ImportError::WrongDelimiter { found: ';' })
    );
    let tabbed = String::from_utf8_lossy(SEMICOLON).replace(';', "\t");
    assert_eq!(
        read(tabbed.as_bytes()),
        Err(ImportError::WrongDelimiter { found: '\t' })
    );
}

#[test]
fn missing_required_columns_are_listed() {
    assert_eq!(
        read(MISSING),
        Err(ImportError::MissingColumns {
            columns: vec!["currency", "price.basis"]
        })
    );
}

#[test]
fn a_gbk_file_is_bad_utf8_at_the_first_chinese_byte() {
    let first_non_ascii = GBK.iter().position(|b| !b.is_ascii()).expect("non-ascii");
    assert_eq!(
        read(GBK),
        Err(ImportError::BadUtf8 {
            byte_offset: first_non_ascii
        })
    );
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(GBK);
    assert_eq!(
        read(&bom),
        Err(ImportError::BadUtf8 {
            byte_offset: first_non_ascii + 3
        })
    );
}

#[test]
fn a_byte_order_mark_is_accepted() {
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(ONE_BAD_ROW);
    assert_eq!(read(&bom).expect("import").rows.len(), 3);
}

#[test]
fn empty_and_oversized_files_are_refused() {
    assert_eq!(read(b""), Err(ImportError::Empty));
    assert_eq!(read(b" \r\n\n"), Err(ImportError::Empty));
    assert_eq!(detect_format(b""), Err(ImportError::Empty));
    let mut small = defaults("x");
    small.max_bytes = 100;
    assert_eq!(
        import(QUOTES, None, &small),
        Err(ImportError::TooLarge { limit_bytes: 100 })
    );
}

#[test]
fn unknown_headers_are_an_unknown_format() {
    assert_eq!(read(b"name,price\nfoo,1\n"), Err(ImportError::UnknownFormat));
    assert_eq!(detect_format(b"name,price\n"), Err(ImportError::UnknownFormat));
}

#[test]
fn a_forced_format_still_needs_its_columns() {
    let err = import(ONE_BAD_ROW, Some(CsvFormat::SkyPilot), &defaults("x"));
    assert!(matches!(err, Err(ImportError::MissingColumns { columns }) if columns.contains(&"InstanceType")));
}

#[test]
fn duplicate_references_are_an_error_on_the_later_line() {
    let text = String::from_utf8_lossy(ONE_BAD_ROW).replace("SLG-4090-2X", "SLG-A10-1X");
    let p = read(text.as_bytes()).expect("import");
    let dup = &p.rows[2];
    assert_eq!(dup.line, 4);
    assert_eq!(
        dup.errors,
        vec![RowError {
            line: 4,
            column: Some("reference".into()),
            field: Some("reference"),
            code: ErrorCode::Duplicate { first_line: 2 },
        }]
    );
    assert!(p.rows[0].errors.is_empty());
}

#[test]
fn duplicate_header_columns_are_refused() {
    let text = String::from_utf8_lossy(ONE_BAD_ROW).replacen("vendor", "Reference", 1);
    assert_eq!(
        read(text.as_bytes()),
        Err(ImportError::DuplicateColumn {
            column: "Reference".into()
        })
    );
}

#[test]
fn short_rows_blank_lines_and_extra_columns() {
    let mut text = String::from_utf8_lossy(ONE_BAD_ROW).replace("20GB", "20");
    text = text.replacen("valid_until\n", "valid_until,spec.vram_gb\n", 1);
    text = text.replace("2025-03-31\n", "2025-03-31,\n");
    text.push_str("\n,,,,,,,,,,,,,\nSLG-X,算力港,CNY\n");
    let p = read(text.as_bytes()).expect("import");
    assert_eq!(p.ignored_columns, vec!["spec.vram_gb".to_owned()]);
    assert_eq!(p.skipped.len(), 1);
    let short = p.rows.last().expect("row");
    assert_eq!(short.errors[0].code, ErrorCode::FieldCount { expected: 14, found: 3 });
    assert_eq!(short.line, 7);
}

#[test]
fn currency_and_choices_ignore_case() {
    let text = String::from_utf8_lossy(ONE_BAD_ROW)
        .replace("20GB", "20")
        .replace(",CNY,per_node,", ",cny,PER_NODE,");
    let p = read(text.as_bytes()).expect("import");
    assert!(p.is_clean(), "{:?}", row_errors(&p));
    assert_eq!(p.rows[0].draft.as_ref().map(|d| d.price.currency), Some(Currency::CNY));
}

#[test]
fn an_empty_yes_no_cell_is_not_stated_and_round_trips_as_empty() {
    let csv = "vendor,reference,received_on,valid_until,currency,spec.gpu_model,spec.gpus_per_node,\
spec.vram_gib,spec.sharing,spec.rdma,spec.memory_pooling,spec.snapshots,price.basis,\
price.on_demand_hourly,price.billing_increment,price.stopped_bills_compute\n\
V,R1,2025-03-01,2025-04-01,CNY,A10,1,24,exclusive,,,,per_node,5,hour,yes\n\
V,R2,2025-03-01,2025-04-01,CNY,A10,1,24,exclusive,yes,no,1,per_node,5,hour,no\n\
V,R3,2025-03-01,2025-04-01,CNY,A10,1,24,exclusive,TRUE,false,0,per_node,5,hour,1\n\
V,R4,2025-03-01,2025-04-01,CNY,A10,1,24,exclusive,1,0,,per_node,5,hour,0\n";
    let p = read(csv.as_bytes()).expect("import");
    assert!(p.is_clean(), "{:?}", row_errors(&p));
    let drafts: Vec<_> = p.valid_drafts().cloned().collect();
    let flags: Vec<_> = drafts
        .iter()
        .map(|d| (d.spec.rdma, d.spec.memory_pooling, d.spec.snapshots))
        .collect();
    assert_eq!(
        flags,
        vec![
            (None, None, None),
            (Some(true), Some(false), Some(true)),
            (Some(true), Some(false), Some(false)),
            (Some(true), Some(false), None),
        ]
    );
    let text = export(&drafts);
    let header: Vec<&str> = text.lines().next().expect("header").split(',').collect();
    let at = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let first: Vec<&str> = text.lines().nth(1).expect("row").split(',').collect();
    assert_eq!(first[at("spec.rdma")], "", "not stated is written empty");
    assert_eq!(first[at("spec.memory_pooling")], "");
    let second: Vec<&str> = text.lines().nth(2).expect("row").split(',').collect();
    assert_eq!(
        (second[at("spec.rdma")], second[at("spec.memory_pooling")]),
        ("true", "false")
    );
    let again = read(text.as_bytes()).expect("reimport");
    assert_eq!(again.valid_drafts().cloned().collect::<Vec<_>>(), drafts);
}

#[test]
fn a_yes_no_cell_that_is_neither_is_refused() {
    let csv = "vendor,reference,received_on,valid_until,currency,spec.gpu_model,spec.gpus_per_node,\
spec.vram_gib,spec.sharing,spec.rdma,price.basis,price.on_demand_hourly,\
price.billing_increment,price.stopped_bills_compute\n\
V,R1,2025-03-01,2025-04-01,CNY,A10,1,24,exclusive,maybe,per_node,5,hour,yes\n";
    let p = read(csv.as_bytes()).expect("import");
    let got: Vec<_> = row_errors(&p).into_iter().map(|e| (e.column, e.code)).collect();
    assert_eq!(got, vec![(Some("spec.rdma".to_owned()), ErrorCode::InvalidBool)]);
}

/// Every quote file reads alike as LF, CRLF, with a byte-order mark (Excel's "CSV UTF-8" writes
/// one, with CRLF) and without a final line break: same rows, same line numbers, same errors.
#[test]
fn quote_files_read_alike_in_every_shape() {
    let lambda = include_bytes!("../fixtures/lambda_vms.csv");
    for (name, fixture) in [
        ("nodeledger_quotes.csv", QUOTES),
        ("nodeledger_one_bad_row.csv", ONE_BAD_ROW),
        ("lambda_vms.csv", &lambda[..]),
    ] {
        let lf = std::str::from_utf8(fixture).expect("utf-8");
        let want = import(fixture, None, &defaults("Lambda")).expect(name);
        assert!(want.rows.iter().all(|r| r.line >= 2), "{name}");
        for (shape, bytes) in crate::line_endings::shapes::four(lf) {
            assert_eq!(
                import(&bytes, None, &defaults("Lambda")).as_ref(),
                Ok(&want),
                "{name}, {shape}"
            );
        }
    }
}

/// A quote stored before the monthly price followed the basis (no `monthly_basis`: per node)
/// exports its monthly basis, so that it reads back per node on a per-GPU price basis; an
/// empty cell follows the price basis.
#[test]
fn the_monthly_basis_is_exported_with_every_monthly_price_and_an_empty_cell_follows_the_basis() {
    let mut old = draft();
    old.spec.gpus_per_node = 8;
    old.price.basis = PriceBasis::PerGpu;
    (old.price.monthly_price, old.price.commitment_months) = (Some(dec!(9600)), Some(1));
    old.price.monthly_basis = None;
    let text = export(std::slice::from_ref(&old));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().expect("header").clone();
    let mut row = reader.records().next().expect("row").expect("record");
    let column = header.iter().position(|c| c == "price.monthly_basis").expect("column");
    assert_eq!(row.get(column), Some("per_node"), "{row:?}");
    let back = read(text.as_bytes()).expect("import");
    let back = back.rows[0].draft.clone().expect("draft");
    assert_eq!(back.price.monthly_basis, Some(PriceBasis::PerNode));
    assert_eq!(
        back.price.monthly_per_node(8),
        Some(dec!(9600)),
        "the same price per node-month"
    );

    // Emptied, the cell follows the price basis: 1,200 per GPU-month on 8 GPUs = 9,600.
    let price = header.iter().position(|c| c == "price.monthly_price").expect("column");
    row = row
        .iter()
        .enumerate()
        .map(|(i, v)| match i {
            i if i == column => "",
            i if i == price => "1200",
            _ => v,
        })
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).expect("header");
    w.write_record(&row).expect("row");
    let edited = w.into_inner().expect("csv");
    let new = read(&edited).expect("import").rows[0].draft.clone().expect("draft");
    assert_eq!(new.price.monthly_basis, Some(PriceBasis::PerGpu));
    assert_eq!(new.price.monthly_per_node(8), Some(dec!(9600)));
}

/// A disk, snapshot or traffic price left blank is not stated (0 stands in, flagged), stays
/// blank when exported, and is a question for the vendor; a price written 0 is stated. So is a
/// blank "stopped node bills compute" (neither yes nor no).
#[test]
fn a_blank_usage_price_is_not_stated_and_stays_blank() {
    use crate::quotes::{Unstated, price_questions};
    use crate::tco::UnstatedPrice as P;
    let mut d = draft();
    (d.price.disk_price_gb_month, d.price.not_stated) = (dec!(0), Vec::new());
    let text = export(std::slice::from_ref(&d));
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().expect("header").clone();
    let row = reader.records().next().expect("row").expect("record");
    let blank = [
        "price.snapshot_price_gb_month",
        "price.egress_price_gb",
        "price.stopped_bills_compute",
    ];
    let edited: csv::StringRecord = row
        .iter()
        .zip(header.iter())
        .map(|(v, h)| if blank.contains(&h) { "" } else { v })
        .collect();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&header).expect("header");
    w.write_record(&edited).expect("row");
    let bytes = w.into_inner().expect("csv");
    let back = read(&bytes).expect("import").rows[0].draft.clone().expect("draft");
    assert_eq!(back.price.not_stated, [P::Snapshot, P::Egress, P::StoppedCompute]);
    assert!(!back.price.stopped_bills_compute, "false stands in for not stated");
    assert_eq!(back.price.disk_price_gb_month, dec!(0), "0 written is stated");
    assert_eq!(
        price_questions(&back.price),
        [Unstated::SnapshotPrice, Unstated::EgressPrice, Unstated::StoppedCompute]
    );
    let again = export(std::slice::from_ref(&back));
    let mut reader = csv::Reader::from_reader(again.as_bytes());
    let row = reader.records().next().expect("row").expect("record");
    for (h, v) in header.iter().zip(row.iter()) {
        if blank.contains(&h) {
            assert_eq!(v, "", "{h} stays blank");
        }
    }
}

/// What the vendor can supply — nodes at once and lead time — round-trips through the CSV; a
/// lead time in days reads as hours; a blank cell is not stated and a question for the vendor,
/// and a figure outside its bounds is refused at its column.
#[test]
fn supply_round_trips_days_read_as_hours_and_blank_is_asked() {
    use crate::quotes::{Unstated, supply_questions};
    let edit = |cells: &[(&str, &str)]| {
        let text = export(std::slice::from_ref(&draft()));
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().expect("header").clone();
        let row = reader.records().next().expect("row").expect("record");
        let edited: csv::StringRecord = row
            .iter()
            .zip(header.iter())
            .map(|(v, h)| cells.iter().find(|(c, _)| *c == h).map_or(v, |(_, new)| new))
            .collect();
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&header).expect("header");
        w.write_record(&edited).expect("row");
        read(&w.into_inner().expect("csv")).expect("import")
    };
    let stated = edit(&[("nodes_available", "4"), ("lead_time_hours", "3 天")]);
    let back = stated.rows[0].draft.clone().expect("draft");
    assert_eq!((back.nodes_available, back.lead_time_hours), (Some(4), Some(dec!(72))));
    assert!(supply_questions(&back).is_empty());
    let again = export(std::slice::from_ref(&back));
    assert!(again.contains(",4,72,"), "{again}");
    let blank = edit(&[("nodes_available", ""), ("lead_time_hours", "")]);
    let back = blank.rows[0].draft.clone().expect("draft");
    assert_eq!((back.nodes_available, back.lead_time_hours), (None, None));
    assert_eq!(supply_questions(&back), [Unstated::NodesAvailable, Unstated::LeadTime]);
    let wrong = edit(&[("nodes_available", "0"), ("lead_time_hours", "2 weeks")]);
    let fields: Vec<&str> = row_errors(&wrong).iter().filter_map(|e| e.field).collect();
    assert!(
        fields.contains(&"nodes_available") && fields.contains(&"lead_time_hours"),
        "{fields:?}"
    );
}
