//! Export → import gives back equal drafts (property test over generated valid drafts).

use super::fixtures::{date, defaults, draft};
use crate::quotes::field_text;
use crate::quotes::{Date, FormFactor, Interconnect, NodeSpec, QuoteDraft, Sharing, export, import, validate};
use crate::tco::{
    BillingIncrement, Currency, EarlyReleaseRefund, Fee, MAX_INCREMENT_SECONDS, PriceBasis, PriceSheet, TrafficPeriod,
    TrafficTier,
};
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

/// A billing step or package period: a named length, or any whole number of seconds.
fn length() -> impl Strategy<Value = BillingIncrement> {
    prop_oneof![
        Just(BillingIncrement::SECOND),
        Just(BillingIncrement::MINUTE),
        Just(BillingIncrement::HOUR),
        Just(BillingIncrement::DAY),
        Just(BillingIncrement::MONTH),
        (1..=MAX_INCREMENT_SECONDS).prop_filter_map("a length", BillingIncrement::from_seconds),
    ]
}

/// Tiers with rising bounds, the last band open or not.
fn tiers() -> impl Strategy<Value = Vec<TrafficTier>> {
    (
        proptest::collection::vec((1i64..100_000, amount()), 0..4),
        any::<bool>(),
    )
        .prop_map(|(bands, open)| {
            let mut bound = Decimal::ZERO;
            let mut tiers: Vec<TrafficTier> = bands
                .into_iter()
                .map(|(step, price_gb)| {
                    bound += Decimal::new(step, 1);
                    TrafficTier {
                        up_to_gb: Some(bound),
                        price_gb,
                    }
                })
                .collect();
            if open {
                tiers.push(TrafficTier {
                    up_to_gb: None,
                    price_gb: Decimal::new(85, 3),
                });
            }
            tiers
        })
}

/// The parts of a price sheet v3: the billing step, a package period and refund rule, how a
/// stopped node bills (0: in full, 1: a share, 2: a rate of its own), disks and IP while
/// stopped, tiered traffic and its period, and whether the on-demand price is left out.
type SheetV3 = (
    BillingIncrement,
    Option<BillingIncrement>,
    Option<EarlyReleaseRefund>,
    (u8, Decimal, Decimal),
    (bool, bool),
    (Vec<TrafficTier>, Vec<TrafficTier>),
    Option<TrafficPeriod>,
    bool,
);

fn sheet_v3() -> impl Strategy<Value = SheetV3> {
    (
        length(),
        proptest::option::of(length()),
        proptest::option::of(prop_oneof![
            Just(EarlyReleaseRefund::None),
            Just(EarlyReleaseRefund::ProratedDay),
            Just(EarlyReleaseRefund::ProratedHour)
        ]),
        (0u8..3, (1i64..100).prop_map(|n| Decimal::new(n, 2)), amount()),
        (any::<bool>(), any::<bool>()),
        (tiers(), tiers()),
        proptest::option::of(prop_oneof![Just(TrafficPeriod::Rental), Just(TrafficPeriod::Month)]),
        any::<bool>(),
    )
}

/// Lays the v3 parts on `p`, keeping the sheet valid: a partial stopped price only where stopped
/// nodes bill compute, a flat traffic price of 0 beside tiers, the on-demand price left out only
/// beside a package price.
fn apply_v3(p: &mut PriceSheet, v3: SheetV3) {
    let (increment, period, refund, (stopped, share, rate), (disk, ip), (egress, ingress), traffic, packages_only) = v3;
    p.billing_increment = increment;
    if p.monthly_price.is_some() {
        (p.package_period, p.early_release_refund) = (period, refund);
        if packages_only {
            p.on_demand_hourly = None;
        }
    }
    if p.stopped_bills_compute {
        match stopped {
            1 => p.stopped_compute_share = Some(share),
            2 => p.stopped_hourly = Some(rate),
            _ => {}
        }
    }
    (p.stopped_bills_disk, p.stopped_bills_ip) = (disk, ip);
    if !egress.is_empty() {
        p.egress_price_gb = Decimal::ZERO;
    }
    if !ingress.is_empty() {
        p.ingress_price_gb = Decimal::ZERO;
    }
    (p.egress_tiers, p.ingress_tiers, p.traffic_period) = (egress, ingress, traffic);
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
        v3 in sheet_v3(),
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
        (p.basis, p.currency) = (basis, currency);
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
        apply_v3(p, v3);
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

/// A minimum billable time is written as people read it where that is exact (`0.5`, `10 min`,
/// `90.5 s`), else with every digit of its hours, so that it reads back unchanged.
#[test]
fn a_minimum_billable_time_is_written_readably_and_exactly() {
    let cases = [
        (Decimal::new(5, 1), "0.5"),
        (Decimal::from(10) / Decimal::from(60), "10 min"),
        (Decimal::new(905, 1) / Decimal::from(3_600), "90.5 s"),
        (Decimal::new(227_896, 6), "0.227896"),
        (Decimal::ONE / Decimal::from(7), "0.1428571428571428571428571429"),
    ];
    for (hours, written) in cases {
        let mut d = draft();
        d.price.minimum_billable_hours = hours;
        assert_eq!(field_text(&d, "price.minimum_billable_hours"), written, "{hours}");
        let preview = import(export(&[d.clone()]).as_bytes(), None, &defaults("ignored")).expect("import");
        let back = preview.rows[0].draft.as_ref().expect("a draft");
        assert_eq!(back.price.minimum_billable_hours, hours, "{written}");
    }
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
