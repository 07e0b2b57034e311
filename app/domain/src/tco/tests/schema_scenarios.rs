//! Scenarios the schema tests validate: the fullest one and representative ones.

use super::fixtures::{assumptions, hours, shape, sheet, with_disks, work};
use crate::tco::{
    AssumptionOverrides, Assumptions, BillingIncrement, Currency, Demand, EarlyReleaseRefund, ExchangeRate, Fee,
    NodeShape, PriceBasis, PriceSheet, Quote, Scenario, TotalWork, TrafficPeriod, TrafficTier, UnstatedPrice,
    throughput::EfficiencyPoint,
};
use rust_decimal_macros::dec;

fn scenario(title: &str, workload: Demand, a: Assumptions, quotes: Vec<Quote>) -> Scenario {
    Scenario {
        title: Some(title.into()),
        workload,
        assumptions: a,
        quotes,
        compare_currency: None,
        exchange_rates: Vec::new(),
    }
}

fn quote(id: &str, price_sheet: PriceSheet, node_shape: NodeShape) -> Quote {
    Quote {
        id: id.into(),
        label: format!("Vendor {id}"),
        price_sheet,
        node_shape,
        measured_throughput_per_s: None,
        n_run: None,
        throughput_stated: false,
        assumption_overrides: None,
    }
}

/// Every optional field set, every list non-empty: two currencies, overrides, fees, a weekly
/// package with an early-release refund, a sheet of packages only (of 10 hours), partial stopped
/// billing, disks and IP free while stopped, tiered traffic by month and snapshots.
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
pub(super) fn full() -> Scenario {
    let a = Assumptions {
        setup_h: dec!(1),
        data_prep_h: dec!(0.5),
        download_h: dec!(0.25),
        export_h: dec!(0.25),
        idle_h: dec!(1),
        stopped_h: dec!(2),
        rerun_share: dec!(0.1),
        egress_gb: dec!(100),
        ingress_gb: dec!(50),
        snapshot_gb: dec!(200),
        snapshot_months: dec!(1.5),
        nodes: Some(2),
        efficiency: dec!(0.9),
        measured_throughput_per_s: Some(dec!(10)),
        n_run: Some(2),
        efficiency_by_nodes: vec![
            EfficiencyPoint {
                nodes: 2,
                efficiency: dec!(0.95),
            },
            EfficiencyPoint {
                nodes: 4,
                efficiency: dec!(0.85),
            },
        ],
    };
    let tier = |up_to_gb, price_gb| TrafficTier { up_to_gb, price_gb };
    let gpu_sheet = PriceSheet {
        basis: PriceBasis::PerGpu,
        billing_increment: BillingIncrement::MINUTE,
        monthly_price: Some(dec!(100000)),
        monthly_basis: Some(PriceBasis::PerNode),
        commitment_months: Some(1),
        package_period: Some(BillingIncrement::WEEK),
        early_release_refund: Some(EarlyReleaseRefund::ProratedDay),
        stopped_bills_compute: true,
        stopped_compute_share: Some(dec!(0.3)),
        stopped_bills_disk: false,
        stopped_bills_ip: false,
        disk_price_gb_month: dec!(0.5),
        snapshot_price_gb_month: dec!(0.2),
        egress_price_gb: dec!(0),
        free_egress_gb: dec!(10),
        egress_tiers: vec![tier(Some(dec!(50)), dec!(0.8)), tier(None, dec!(0.6))],
        ingress_tiers: vec![tier(None, dec!(0.1))],
        traffic_period: Some(TrafficPeriod::Month),
        ingress_price_gb: dec!(0),
        public_ip_hourly: dec!(0.05),
        other_fees: vec![Fee {
            label: "setup fee".into(),
            amount: dec!(100),
        }],
        not_stated: vec![UnstatedPrice::Snapshot],
        ..sheet(dec!(20.00))
    };
    let disks = with_disks(8, dec!(100), dec!(500));
    let overrides = AssumptionOverrides {
        setup_h: Some(dec!(2)),
        data_prep_h: Some(dec!(1)),
        download_h: Some(dec!(0.5)),
        export_h: Some(dec!(0.5)),
        idle_h: Some(dec!(0)),
        stopped_h: Some(dec!(4)),
        rerun_share: Some(dec!(0.05)),
        egress_gb: Some(dec!(20)),
        ingress_gb: Some(dec!(0)),
        snapshot_gb: Some(dec!(0)),
        snapshot_months: Some(dec!(0)),
        nodes: Some(1),
        efficiency: Some(dec!(1)),
    };
    let usd_sheet = PriceSheet {
        currency: Currency::USD,
        on_demand_hourly: None,
        billing_increment: BillingIncrement::from_seconds(600).expect("10 minutes"),
        minimum_billable_hours: dec!(1000),
        monthly_price: Some(dec!(60)),
        monthly_basis: Some(PriceBasis::PerNode),
        commitment_months: Some(1),
        package_period: BillingIncrement::from_seconds(36_000),
        early_release_refund: Some(EarlyReleaseRefund::ProratedHour),
        stopped_bills_compute: true,
        stopped_hourly: Some(dec!(0.5)),
        ..sheet(dec!(10))
    };
    let mut a_quote = quote("a", gpu_sheet, disks);
    a_quote.measured_throughput_per_s = Some(dec!(50));
    a_quote.n_run = Some(1);
    a_quote.throughput_stated = true;
    a_quote.assumption_overrides = Some(overrides);
    let workload = Demand {
        gpu_use: Some(crate::runs::GpuUse::TaskPerGpu),
        gpus_needed: 16,
        total_work: Some(TotalWork {
            amount: dec!(1000000),
            unit: "tokens".into(),
        }),
        run_hours: Some(dec!(10)),
    };
    Scenario {
        compare_currency: Some(Currency::CNY),
        exchange_rates: vec![ExchangeRate {
            from: Currency::USD,
            to: Currency::CNY,
            rate: dec!(7.2),
            date: "2024-06-30".into(),
        }],
        ..scenario(
            "every field",
            workload,
            a,
            vec![a_quote, quote("b", usd_sheet, shape(4))],
        )
    }
}

/// Representative scenarios: per-GPU pricing, a monthly commitment that wins, other fees with
/// stopped billing, traffic both ways, yen, exchange rates and overrides.
#[expect(clippy::too_many_lines, reason = "one test story, read top to bottom")]
pub(super) fn representative() -> Vec<(&'static str, Scenario)> {
    let per_gpu = PriceSheet {
        basis: PriceBasis::PerGpu,
        ..sheet(dec!(2.50))
    };
    let monthly = PriceSheet {
        monthly_price: Some(dec!(5000)),
        commitment_months: Some(1),
        ..sheet(dec!(10.00))
    };
    let fees_and_stopped = PriceSheet {
        stopped_bills_compute: true,
        snapshot_price_gb_month: dec!(0.1),
        egress_price_gb: dec!(0.80),
        free_egress_gb: dec!(100),
        ingress_price_gb: dec!(0.5),
        public_ip_hourly: dec!(0.02),
        other_fees: vec![
            Fee {
                label: "setup".into(),
                amount: dec!(99),
            },
            Fee {
                label: "support".into(),
                amount: dec!(1.5),
            },
        ],
        ..sheet(dec!(3))
    };
    let usage = Assumptions {
        stopped_h: dec!(5),
        idle_h: dec!(2),
        egress_gb: dec!(150),
        ingress_gb: dec!(10),
        snapshot_gb: dec!(200),
        snapshot_months: dec!(3),
        ..assumptions()
    };
    let yen = PriceSheet {
        currency: Currency::JPY,
        ..sheet(dec!(1500))
    };
    let mut mixed = scenario(
        "yen and yuan",
        hours(dec!(10), 1),
        assumptions(),
        vec![quote("jpy", yen, shape(1)), quote("cny", sheet(dec!(70)), shape(1))],
    );
    mixed.compare_currency = Some(Currency::CNY);
    mixed.exchange_rates = vec![ExchangeRate {
        from: Currency::CNY,
        to: Currency::JPY,
        rate: dec!(21.5),
        date: "2024-01-31".into(),
    }];
    mixed.quotes[0].assumption_overrides = Some(AssumptionOverrides {
        setup_h: Some(dec!(1)),
        ..AssumptionOverrides::default()
    });
    let mut untitled = scenario(
        "",
        work(dec!(2592000), 1),
        assumptions(),
        vec![quote("tput", sheet(dec!(10)), shape(1))],
    );
    untitled.title = None;
    untitled.quotes[0].measured_throughput_per_s = Some(dec!(10));
    vec![
        (
            "per-GPU pricing",
            scenario(
                "per GPU",
                hours(dec!(24), 16),
                assumptions(),
                vec![quote("gpu", per_gpu, shape(8))],
            ),
        ),
        (
            "monthly commitment",
            scenario(
                "monthly",
                hours(dec!(600), 1),
                assumptions(),
                vec![quote("m", monthly, shape(1))],
            ),
        ),
        (
            "other fees and stopped billing",
            scenario(
                "fees",
                hours(dec!(7), 1),
                usage,
                vec![quote("fees", fees_and_stopped, shape(1))],
            ),
        ),
        ("exchange rates and overrides", mixed),
        ("no title, measured throughput", untitled),
        ("every field", full()),
    ]
}
