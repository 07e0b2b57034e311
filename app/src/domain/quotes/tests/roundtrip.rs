//! Export → import gives back equal drafts (property test over generated valid drafts).

use super::fixtures::{date, defaults, draft};
use crate::domain::quotes::{Date, FormFactor, Interconnect, NodeSpec, QuoteDraft, Sharing, export, import, validate};
use crate::domain::tco::{BillingIncrement, Currency, Fee, PriceBasis};
use proptest::prelude::*;
use rust_decimal::Decimal;

/// Text without surrounding whitespace (import trims cells), with CSV-hostile characters.
fn text() -> impl Strategy<Value = String> {
    "[A-Za-z0-9中文,\"'.-]([A-Za-z0-9 中文,\"'\n.-]{0,10}[A-Za-z0-9中文\"])?"
}

fn opt_text() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), text()]
}

/// A decimal in [0, 1,000,000) with 0–4 decimal places.
fn amount() -> impl Strategy<Value = Decimal> {
    (0i64..1_000_000, 0u32..=4).prop_map(|(m, s)| Decimal::new(m, s))
}

fn opt_amount() -> impl Strategy<Value = Option<Decimal>> {
    proptest::option::of(amount())
}

fn day() -> impl Strategy<Value = Date> {
    (2000u16..2100, 1u8..=12, 1u8..=28).prop_filter_map("date", |(y, m, d)| Date::new(y, m, d))
}

fn sharing() -> impl Strategy<Value = Sharing> {
    prop_oneof![
        Just(Sharing::Exclusive),
        Just(Sharing::Vgpu),
        "[1-7]g\\.[0-9]{1,2}gb".prop_map(|profile| Sharing::Mig { profile }),
        (1i64..100).prop_map(|n| Sharing::Fractional {
            share: Decimal::new(n, 2)
        }),
    ]
}

fn spec() -> impl Strategy<Value = NodeSpec> {
    (
        (text(), 1u32..=64, (1i64..=1024, 0u32..=1), any::<bool>(), sharing()),
        (
            proptest::option::of(prop_oneof![
                Just(FormFactor::Pcie),
                Just(FormFactor::Sxm),
                Just(FormFactor::Other)
            ]),
            proptest::option::of(prop_oneof![
                Just(Interconnect::None),
                Just(Interconnect::Pcie),
                Just(Interconnect::Nvlink),
                Just(Interconnect::Nvswitch)
            ]),
            opt_amount(),
            (proptest::option::of(any::<bool>()), proptest::option::of(any::<bool>())),
        ),
        (
            opt_text(),
            proptest::option::of(1u32..=256),
            opt_amount(),
            opt_amount(),
            opt_amount(),
        ),
        (
            proptest::collection::vec(proptest::option::of(any::<bool>()), 6),
            opt_text(),
            proptest::option::of(text()),
        ),
    )
        .prop_map(|(core, link, host, rest)| {
            let (model, gpus, (vram_m, vram_s), usable, sharing) = core;
            let vram = Decimal::new(vram_m, vram_s);
            let mut s = NodeSpec::new(&model, gpus, vram, sharing);
            s.usable_vram_gib = usable.then_some(vram);
            (
                s.form_factor,
                s.interconnect,
                s.network_gbps,
                (s.rdma, s.memory_pooling),
            ) = link;
            (s.cpu_model, s.vcpus, s.ram_gib, s.system_disk_gb, s.data_disk_gb) = host;
            s.ram_gib = s.ram_gib.filter(|r| !r.is_zero() && *r <= Decimal::from(65_536));
            s.network_gbps = s.network_gbps.filter(|g| *g <= Decimal::from(100_000));
            let (flags, region, rocm) = rest;
            s.data_disk_survives_release = flags[0];
            s.temp_disk_wiped = flags[1];
            s.docker_allowed = flags[2];
            s.root_ssh = flags[3];
            s.snapshots = flags[4];
            s.object_storage = flags[5];
            s.region = region.clone();
            s.cuda = region;
            s.rocm = rocm;
            s
        })
}

fn fee() -> impl Strategy<Value = Fee> {
    ("[A-Za-z中文][A-Za-z0-9 中文]{0,8}[A-Za-z中文]", amount()).prop_map(|(label, amount)| Fee { label, amount })
}

prop_compose! {
    fn quote()(
        ids in (text(), text()),
        dates in (day(), 0u32..400),
        spec in spec(),
        basis in prop_oneof![Just(PriceBasis::PerNode), Just(PriceBasis::PerGpu)],
        currency in proptest::sample::select(Currency::ALL.to_vec()),
        increment in prop_oneof![Just(BillingIncrement::SECOND), Just(BillingIncrement::MINUTE), Just(BillingIncrement::HOUR)],
        prices in proptest::collection::vec(amount(), 8),
        commitment in proptest::option::of((amount(), 1u32..=120)),
        flags in (any::<bool>(), proptest::option::of(any::<bool>())),
        fees in proptest::collection::vec(fee(), 0..4),
        words in (opt_text(), opt_text()),
    ) -> QuoteDraft {
        let mut d = draft();
        (d.vendor, d.reference) = ids;
        d.received_on = dates.0;
        d.valid_until = dates.0.add_days(dates.1).unwrap_or(dates.0);
        d.spec = spec;
        let p = &mut d.price;
        (p.basis, p.currency, p.billing_increment) = (basis, currency, increment);
        p.on_demand_hourly = Some(prices[0]);
        p.minimum_billable_hours = prices[1] / Decimal::from(1000);
        p.disk_price_gb_month = prices[2];
        p.snapshot_price_gb_month = prices[3];
        p.egress_price_gb = prices[4];
        p.free_egress_gb = prices[5];
        p.ingress_price_gb = prices[6];
        p.public_ip_hourly = prices[7];
        (p.monthly_price, p.commitment_months) = commitment.map_or((None, None), |(m, t)| (Some(m), Some(t)));
        // A monthly price is on a stated basis: the price basis, or per node on odd terms (as a
        // quote stored before the monthly basis existed reads).
        p.monthly_basis = commitment.map(|(_, t)| if t % 2 == 0 { basis } else { PriceBasis::PerNode });
        (p.stopped_bills_compute, d.auto_renewal) = flags;
        p.other_fees = fees;
        p.not_stated = Vec::new();
        (d.early_release, d.notes) = words;
        d
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn export_then_import_gives_equal_drafts(drafts in proptest::collection::vec(quote(), 1..6)) {
        let mut drafts = drafts;
        for (i, d) in drafts.iter_mut().enumerate() {
            d.reference = format!("{}-{i}", d.reference);
        }
        for d in &drafts {
            prop_assert_eq!(validate(d), Ok(()));
        }
        let csv = export(&drafts);
        let preview = import(csv.as_bytes(), None, &defaults("ignored")).expect("import");
        prop_assert!(preview.is_clean(), "{:?}", preview.rows);
        let back: Vec<QuoteDraft> = preview.rows.into_iter().filter_map(|r| r.draft).collect();
        prop_assert_eq!(back, drafts);
    }
}

#[test]
fn export_writes_the_documented_header_and_quotes_cells() {
    let mut d = draft();
    d.notes = "含\"引号\", 逗号\n和换行".into();
    d.received_on = date("2025-04-01");
    let csv = export(&[d]);
    let header = csv.lines().next().expect("header");
    assert!(header.starts_with("vendor,reference,received_on,valid_until,"));
    assert!(header.ends_with(",price.public_ip_hourly,price.other_fees"));
    assert!(csv.contains("\"含\"\"引号\"\", 逗号\n和换行\""));
    assert!(csv.contains(",220.00,hour,"));
}

/// The store keeps a draft as JSON: "not stated" is `null` and comes back as not stated; a
/// body written before yes/no facts were three-state (`false`, or no key at all) still reads.
#[test]
fn stored_json_keeps_not_stated_and_reads_older_bodies() {
    let mut d = draft();
    assert_eq!((d.spec.rdma, d.spec.memory_pooling), (None, None));
    let body = serde_json::to_string(&d).expect("json");
    let stored: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(stored["spec"]["rdma"], serde_json::Value::Null);
    assert_eq!(serde_json::from_str::<QuoteDraft>(&body).expect("read"), d);
    d.spec.rdma = Some(false);
    d.spec.memory_pooling = Some(true);
    let body = serde_json::to_string(&d).expect("json");
    assert_eq!(serde_json::from_str::<QuoteDraft>(&body).expect("read"), d);
    // An older body: `"rdma": false` is read as the "no" it says; a missing key as not stated.
    let mut old: serde_json::Value = serde_json::from_str(&body).expect("json");
    let spec = old["spec"].as_object_mut().expect("spec");
    spec.insert("rdma".into(), serde_json::Value::Bool(false));
    spec.remove("memory_pooling");
    let read: QuoteDraft = serde_json::from_value(old).expect("old body");
    assert_eq!((read.spec.rdma, read.spec.memory_pooling), (Some(false), None));
}
