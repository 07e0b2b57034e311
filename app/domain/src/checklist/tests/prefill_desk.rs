//! Suggestions from the quote beyond the GPU, the vendor's record, the comparison and the runs;
//! and how much of a well-filled order the data answers.

use rust_decimal_macros::dec;

use super::super::prefill::transfer_hours;
use super::super::{
    AnswerCode as C, Evidence, EvidenceSources, OrderKind, Prefill, PrefillFacts, RunVerdict, Suggested as S,
    acceptable, applicable_items, prefill,
};
use super::prefill::{full, get, suggestion};

#[test]
fn disks_that_hold_the_data_and_checkpoints_are_confirmed_smaller_ones_are_a_problem() {
    let f = full();
    assert!(matches!(
        suggestion("store.disks", &f),
        (S::Confirmed, C::DisksStated { .. })
    ));
    let small = PrefillFacts {
        storage_need_gb: Some(dec!(2500)),
        ..full()
    };
    assert_eq!(
        suggestion("store.disks", &small),
        (
            S::Problem,
            C::DisksTooSmall {
                total_gb: dec!(2100),
                need_gb: dec!(2500)
            }
        )
    );
}

#[test]
fn access_refused_or_no_fault_help_leaves_the_item_open() {
    let f = PrefillFacts {
        root_ssh: Some(false),
        vendor_fault_help: Some(false),
        temp_disk_wiped_on_release: Some(false),
        ..full()
    };
    assert_eq!(suggestion("env.access", &f).0, S::Open);
    assert_eq!(suggestion("sec.fault_handling", &f).0, S::Open);
    assert_eq!(suggestion("sec.cleanup_after_release", &f).0, S::Open);
    assert_eq!(suggestion("env.access", &full()).0, S::Confirmed);
}

#[test]
fn a_fact_the_quote_does_not_state_is_missing_never_no() {
    let f = PrefillFacts {
        docker_allowed: None,
        listed_fees: None,
        vendor_contact: None,
        ..full()
    };
    for id in ["env.access", "bill.image_management_fees", "sec.support_contact"] {
        assert!(matches!(prefill(get(id), &f), Prefill::Missing(_)), "{id}");
    }
}

#[test]
fn the_comparison_answers_the_plan_choice_and_the_total_cost_and_cites_itself() {
    let sources = EvidenceSources {
        quote_revision_id: Some(90),
        valid_run: Some(5),
        comparison: Some(12),
    };
    let a = acceptable(get("bill.plan_choice"), &full(), &sources, &|_| true).expect("acceptable");
    assert_eq!(a.evidence, vec![Evidence::TcoComparison { id: 12 }]);
    assert!(matches!(a.suggestion.code, C::Compared { rank: 1, of: 3, .. }));
    let a = acceptable(get("sec.support_contact"), &full(), &sources, &|_| true).expect("acceptable");
    assert_eq!(
        a.evidence,
        vec![Evidence::Note {
            text: "ops@vendor.example".into()
        }]
    );
    let mut over = full();
    if let Some(c) = over.compared.as_mut() {
        c.over_budget = true;
    }
    assert_eq!(suggestion("bill.plan_choice", &over).0, S::Problem);
    let no_comparison = EvidenceSources {
        comparison: None,
        ..sources
    };
    assert_eq!(
        acceptable(get("bill.total_cost"), &full(), &no_comparison, &|_| true),
        None
    );
}

#[test]
fn run_items_wait_for_a_valid_run_and_two_specs_need_two_measured_quotes() {
    let failed = PrefillFacts {
        run_verdict: Some(RunVerdict::Fail),
        ..full()
    };
    assert_eq!(suggestion("bill.trial_rental", &failed), (S::Problem, C::RunFailed));
    assert_eq!(suggestion("perf.metrics", &full()), (S::Confirmed, C::MetricsRecorded));
    assert_eq!(
        suggestion("perf.total_time", &full()),
        (S::Confirmed, C::TimeToFinish { time: "20.8 h".into() })
    );
    assert_eq!(
        suggestion("perf.bottleneck", &full()),
        (S::Confirmed, C::GpuBusy { pct: 93 })
    );
    let idle = PrefillFacts {
        gpu_util_pct: Some(41),
        ..full()
    };
    assert_eq!(
        suggestion("perf.bottleneck", &idle),
        (S::Open, C::GpuUnderused { pct: 41 })
    );
    let mut vague = full();
    vague.software_image = Some("supports CUDA".into());
    vague.snapshots_offered = Some(false);
    assert_eq!(
        suggestion("env.clean_system_disk", &vague),
        (
            S::Open,
            C::KnownStateImage {
                image: None,
                snapshots: Some(false)
            }
        )
    );
    assert_eq!(suggestion("env.clean_system_disk", &full()).0, S::Confirmed);
    let mut one = full();
    if let Some(c) = one.compared.as_mut() {
        c.measured_quotes = 1;
    }
    assert_eq!(
        suggestion("perf.two_spec_comparison", &one),
        (S::Open, C::OneSpecMeasured { quotes: 1 })
    );
}

/// On a well-filled quote with a valid run and a comparison, the data answers at least four
/// items in five of a batch order's checklist (the goal the desk set for the pre-fill).
#[test]
fn the_data_answers_four_items_in_five_of_a_well_filled_batch_order() {
    let f = PrefillFacts {
        workload: Some(OrderKind::Batch),
        multi_gpu: Some(false),
        ..full()
    };
    let items = applicable_items(OrderKind::Batch, false);
    let suggested: Vec<&str> = items
        .iter()
        .filter(|i| matches!(prefill(i, &f), Prefill::Suggest(_)))
        .map(|i| i.id)
        .collect();
    let share = suggested.len() * 100 / items.len();
    assert!(
        share >= 80,
        "{} of {} suggested: {suggested:?}",
        suggested.len(),
        items.len()
    );
}

#[test]
fn moving_data_takes_gigabytes_times_eight_thousand_over_the_bandwidth() {
    // 500 GB at 200 Mbit/s: 500 × 8,000 / 200 = 20,000 s = 5.55… h, shown rounded up.
    assert_eq!(transfer_hours(dec!(500), dec!(200)), dec!(5.6));
    assert_eq!(
        transfer_hours(dec!(1), dec!(1000)),
        dec!(0.1),
        "a few seconds still read as a tenth"
    );
    assert_eq!(transfer_hours(dec!(0), dec!(100)), dec!(0));
}
