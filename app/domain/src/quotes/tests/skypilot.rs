//! SkyPilot catalog import: Lambda-style (no zone), Vast-style (reordered), AWS-style (zones).

use super::fixtures::{date, defaults};
use crate::quotes::{
    CsvFormat, ErrorCode, FormFactor, ImportError, ImportPreview, QuoteDraft, RowError, Sharing, SkipReason,
    detect_format, import,
};
use crate::tco::{BillingIncrement, Currency, PriceBasis};
use rust_decimal_macros::dec;

const LAMBDA: &[u8] = include_bytes!("../fixtures/lambda_vms.csv");
const VAST: &[u8] = include_bytes!("../fixtures/vast_vms.csv");
const AWS: &[u8] = include_bytes!("../fixtures/aws_vms.csv");

fn read(bytes: &[u8], vendor: &str) -> ImportPreview {
    import(bytes, None, &defaults(vendor)).expect("import")
}

fn by_ref<'a>(p: &'a ImportPreview, reference: &str) -> &'a QuoteDraft {
    p.valid_drafts()
        .find(|d| d.reference == reference)
        .unwrap_or_else(|| panic!("{reference} missing"))
}

#[test]
fn lambda_catalog_without_zone_column() {
    assert_eq!(detect_format(LAMBDA), Ok(CsvFormat::SkyPilot));
    let p = read(LAMBDA, "Lambda");
    assert!(p.is_clean(), "{:?}", p.rows);
    assert_eq!(p.rows.len(), 8);
    assert_eq!(
        p.skipped,
        vec![(6, SkipReason::NoAccelerator), (11, SkipReason::NoAccelerator)]
    );
    let a100 = by_ref(&p, "gpu_8x_a100_80gb_sxm4@us-west-2");
    assert_eq!(a100.vendor, "Lambda");
    assert_eq!(a100.spec.gpu_model, "A100-80GB");
    assert_eq!(a100.spec.gpus_per_node, 8);
    assert_eq!(a100.spec.vram_gib, dec!(80));
    assert_eq!(a100.spec.vcpus, Some(240));
    assert_eq!(a100.spec.ram_gib, Some(dec!(1800)));
    assert_eq!(a100.spec.form_factor, Some(FormFactor::Sxm));
    assert_eq!(a100.spec.sharing, Sharing::Exclusive);
    assert_eq!(a100.spec.interconnect, None);
    assert_eq!(a100.spec.region, "us-west-2");
    assert_eq!(a100.price.basis, PriceBasis::PerNode);
    assert_eq!(a100.price.on_demand_hourly, Some(dec!(14.32)));
    assert_eq!(a100.price.currency, Currency::USD);
    assert_eq!(a100.price.billing_increment, BillingIncrement::HOUR);
    assert!(a100.price.stopped_bills_compute);
    assert_eq!(a100.received_on, date("2025-05-01"));
    assert_eq!(a100.valid_until, date("2025-05-31"));
    assert_eq!(a100.hourly_per_gpu(), Some(dec!(1.79)));
    assert_eq!(a100.notes, "");
    let h100 = by_ref(&p, "gpu_1x_h100_pcie@us-west-3");
    assert_eq!(h100.spec.form_factor, Some(FormFactor::Pcie));
    assert_eq!(by_ref(&p, "gpu_8x_v100@us-south-1").spec.form_factor, None);
    assert!(p.valid_drafts().any(|d| d.reference == "gpu_1x_a10@us-west-1"));
}

#[test]
fn vast_catalog_with_reordered_columns() {
    let mut d = defaults("Vast.ai");
    d.currency = Currency::EUR;
    d.billing_increment = BillingIncrement::SECOND;
    d.valid_until = Some(date("2025-05-08"));
    let p = import(VAST, None, &d).expect("import");
    assert!(p.is_clean(), "{:?}", p.rows);
    assert_eq!(p.rows.len(), 6);
    assert!(p.skipped.is_empty());
    let rtx = by_ref(&p, "2x-RTX_4090-32@Texas, US");
    assert_eq!(rtx.spec.gpus_per_node, 2);
    assert_eq!(rtx.spec.vram_gib, dec!(23.98828125));
    assert_eq!(rtx.spec.vcpus, Some(32));
    assert_eq!(rtx.price.on_demand_hourly, Some(dec!(0.68)));
    assert_eq!(rtx.price.currency, Currency::EUR);
    assert_eq!(rtx.price.billing_increment, BillingIncrement::SECOND);
    assert_eq!(rtx.valid_until, date("2025-05-08"));
    assert_eq!(rtx.notes, "spot_price=0.41");
    let a6000 = by_ref(&p, "2x-RTX_A6000-32@Bavaria, DE");
    assert_eq!(a6000.spec.vram_gib, dec!(47.98828125));
    let a100 = by_ref(&p, "8x-A100_SXM4-128@Oregon, US");
    assert_eq!(a100.spec.form_factor, Some(FormFactor::Sxm));
    assert_eq!(a100.spec.vram_gib, dec!(80));
    assert_eq!(by_ref(&p, "1x-H100_SXM-26@Virginia, US").notes, "");
}

#[test]
fn aws_catalog_with_zones_skips_cpu_rows_and_flags_duplicates() {
    let p = read(AWS, "AWS");
    assert_eq!(p.skipped, vec![(7, SkipReason::NoAccelerator)]);
    assert_eq!(p.rows.len(), 6);
    let refs: Vec<_> = p
        .rows
        .iter()
        .filter_map(|r| r.draft.as_ref())
        .map(|d| d.reference.as_str())
        .collect();
    assert_eq!(
        refs[..2],
        ["g5.xlarge@us-east-1/us-east-1a", "g5.xlarge@us-east-1/us-east-1b"]
    );
    let errors: Vec<&RowError> = p.rows.iter().flat_map(|r| &r.errors).collect();
    assert_eq!(
        errors,
        [&RowError {
            line: 8,
            column: Some("InstanceType".into()),
            field: Some("reference"),
            code: ErrorCode::Duplicate { first_line: 2 },
        }]
    );
    assert_eq!(by_ref(&p, "p4d.24xlarge@us-east-1/us-east-1a").spec.vram_gib, dec!(40));
    assert_eq!(by_ref(&p, "g5.xlarge@us-east-1/us-east-1a").spec.vram_gib, dec!(24));
}

#[test]
fn bad_cells_name_the_catalog_column() {
    let csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n\
x1,A100,8,96,1152,\"{'Gpus': [{'Name': 'A100'\",32.77,,us-east-1\n\
x2,A100,8,96,1152,\"{'Gpus': [{'Name': 'A100', 'Count': 8}]}\",0,,us-east-1\n\
x3,A100,2.5,96.5,1152,\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 2097152}}]}\",-1,,us-east-1\n";
    let p = read(csv.as_bytes(), "x");
    let got: Vec<(u64, Option<String>, ErrorCode)> = p
        .rows
        .iter()
        .flat_map(|r| r.errors.iter().map(|e| (e.line, e.column.clone(), e.code.clone())))
        .collect();
    let col = |c: &str| Some(c.to_owned());
    assert_eq!(
        got,
        vec![
            (2, col("GpuInfo"), ErrorCode::InvalidGpuInfo { offset: 25 }),
            (3, col("GpuInfo"), ErrorCode::Required),
            (3, col("Price"), ErrorCode::ZeroNeedsFree),
            (4, col("AcceleratorCount"), ErrorCode::InvalidInteger),
            (4, col("vCPUs"), ErrorCode::InvalidInteger),
            (4, col("GpuInfo"), ErrorCode::TooLarge { max: dec!(1024) }),
            (4, col("Price"), ErrorCode::Negative),
        ]
    );
}

/// SkyPilot's catalog schema (skypilot-org/skypilot-catalog README, "Schema V5": `Price` and
/// `SpotPrice` are floats) is written by pandas, which leaves a missing price as an empty cell;
/// AWS rows for instances sold only as spot in a zone have an empty `Price` and a `SpotPrice`.
/// Such a row is "not offered on demand", never an instance that costs 0.00 and ranks first.
#[test]
fn a_blank_price_is_not_offered_never_free() {
    let csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n\
p5.48xlarge,H100,8,192,2048,\"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}\",,43.16,us-east-1,us-east-1f\n\
p5.48xlarge,H100,8,192,2048,\"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}\",98.32,43.16,us-east-1,us-east-1a\n\
p5.48xlarge,H100,8,192,2048,\"{'Gpus': [{'Name': 'H100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 81920}}], 'TotalGpuMemoryInMiB': 655360}\",0.0,,us-east-1,us-east-1b\n";
    let p = read(csv.as_bytes(), "AWS");
    assert_eq!(p.skipped, vec![(2, SkipReason::NotOfferedOnDemand)]);
    let offered = by_ref(&p, "p5.48xlarge@us-east-1/us-east-1a");
    assert_eq!(offered.price.on_demand_hourly, Some(dec!(98.32)));
    // An explicit 0 in a catalog is not "free" either: the price sheet needs the word for that.
    let zero = p.rows.iter().find(|r| r.line == 4).expect("line 4");
    assert!(!zero.errors.is_empty(), "{zero:?}");
    assert!(p.valid_drafts().all(|d| d.price.on_demand_hourly != Some(dec!(0))));
}

#[test]
fn a_fractional_gpu_is_one_shared_gpu() {
    let csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n\
Standard_NV6ads_A10_v5,A10,0.167,6,55,\"{'Gpus': [{'Name': 'A10', 'Count': 0.167, 'MemoryInfo': {'SizeInMiB': 4096}}]}\",0.454,,eastus,\n\
Standard_NC4as_T4_v3,T4,0,4,28,,0.526,,eastus,\n";
    let p = read(csv.as_bytes(), "Azure");
    assert!(p.is_clean(), "{:?}", p.rows);
    let d = by_ref(&p, "Standard_NV6ads_A10_v5@eastus");
    assert_eq!(d.spec.gpus_per_node, 1);
    assert_eq!(d.spec.sharing, Sharing::Fractional { share: dec!(0.167) });
    assert_eq!(d.spec.vram_gib, dec!(4));
    assert_eq!(p.skipped, vec![(3, SkipReason::NoAccelerator)]);
}

#[test]
fn a_catalog_needs_its_core_columns() {
    let csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region\nx,A10,1,4,16,1,r\n";
    assert_eq!(
        import(csv.as_bytes(), None, &defaults("x")),
        Err(ImportError::MissingColumns {
            columns: vec!["GpuInfo"]
        })
    );
}

#[test]
fn catalog_numbers_accept_python_floats_only() {
    let head = "InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Price,Region\n";
    let info = "\"{'Gpus': [{'MemoryInfo': {'SizeInMiB': 16384}}]}\"";
    let prices = [
        "1.1e-05",
        "2E+1",
        "nan",
        "1_000",
        "1,5",
        "1e400",
        "99999999999999999999999999999999",
    ];
    let rows: String = prices
        .iter()
        .enumerate()
        .map(|(i, p)| format!("t{i},T4,1.0,{info},\"{p}\",r\n"))
        .collect();
    let p = read(format!("{head}{rows}").as_bytes(), "x");
    let hourly: Vec<_> = p
        .rows
        .iter()
        .map(|r| r.draft.as_ref().and_then(|d| d.price.on_demand_hourly))
        .collect();
    assert_eq!(
        hourly,
        [Some(dec!(0.000011)), Some(dec!(20)), None, None, None, None, None]
    );
    assert!(p.rows[2..].iter().all(|r| r.errors[0].code == ErrorCode::InvalidNumber));
}

#[test]
fn a_row_without_instance_type_is_an_error() {
    let csv = "InstanceType,AcceleratorName,AcceleratorCount,GpuInfo,Price,Region,AvailabilityZone\n\
,A100,1.0,\"{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]}\",2.93,us-central1,us-central1-a\n";
    let p = read(csv.as_bytes(), "GCP");
    assert_eq!(p.rows[0].errors[0].column.as_deref(), Some("InstanceType"));
    assert_eq!(p.rows[0].errors[0].code, ErrorCode::Required);
}

#[test]
fn a_catalog_without_a_validity_date_is_read_but_not_clean_and_no_date_is_made_up() {
    let mut d = defaults("Lambda");
    d.valid_until = None;
    let p = import(LAMBDA, None, &d).expect("import");
    assert!(p.valid_until_missing);
    assert!(!p.is_clean(), "nothing may be saved without a date");
    assert!(
        p.rows.iter().all(|r| r.errors.is_empty()),
        "not a row error: {:?}",
        p.rows
    );
    assert_eq!(p.valid_drafts().count(), 8);
    // The placeholder is today (a quote received today), never a guessed end of validity.
    assert!(p.valid_drafts().all(|q| q.valid_until == q.received_on));
    assert!(import(LAMBDA, None, &defaults("Lambda")).expect("import").is_clean());
}

/// A catalog of `n` minimal GPU rows (`i,L4,1,1,r,`), and one CPU-only row after each when
/// `with_cpu_rows`.
fn minimal_catalog(n: usize, with_cpu_rows: bool) -> Vec<u8> {
    let mut text = String::from("InstanceType,AcceleratorName,AcceleratorCount,Price,Region,GpuInfo\n");
    for i in 0..n {
        text.push_str(&format!("{i},L4,1,1,r,\n"));
        if with_cpu_rows {
            text.push_str(&format!("c{i},,,1,r,\n"));
        }
    }
    text.into_bytes()
}

/// A 12 MB file of minimal rows holds ≈ 700,000: reading stops past the cap, which only counts
/// rows that become quotes (a catalog's CPU-only rows are skipped, not counted).
#[test]
fn a_catalog_past_the_row_cap_is_refused_naming_the_cap() {
    use crate::quotes::MAX_ROWS;
    let at_cap = import(&minimal_catalog(MAX_ROWS, true), None, &defaults("V")).map(|p| p.rows.len());
    assert_eq!(at_cap, Ok(MAX_ROWS));
    assert_eq!(
        import(&minimal_catalog(MAX_ROWS + 1, false), None, &defaults("V")).map(|p| p.rows.len()),
        Err(ImportError::TooManyRows { limit: MAX_ROWS })
    );
}
