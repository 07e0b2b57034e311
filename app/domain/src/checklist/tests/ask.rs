//! Questions for the vendor.

use super::super::{
    Fact, ITEMS, Item, OrderKind, PrefillFacts, VendorQuestion as Q, applicable_items, vendor_questions,
};
use super::prefill::{full, get};

fn ids(q: &[(&Item, Q)]) -> Vec<&'static str> {
    q.iter().map(|(i, _)| i.id).collect()
}

#[test]
fn a_bare_catalogue_line_asks_each_missing_fact_once_and_never_the_team_s_own_checks() {
    let items = applicable_items(OrderKind::Batch, false);
    let facts = catalogue_line();
    let asked = vendor_questions(&items, &facts, &|_| false);
    let ids = ids(&asked);
    // The vendor's to state.
    for id in [
        "store.disks",
        "bill.image_management_fees",
        "env.access",
        "sec.disk_encryption",
    ] {
        assert!(ids.contains(&id), "{id} not asked: {ids:?}");
    }
    // The team's own checks are not the vendor's questions.
    for id in [
        "env.project_requirements",
        "sec.credentials",
        "sec.logs_and_access",
        "net.transfer_test",
    ] {
        assert!(!ids.contains(&id), "{id} asked: {ids:?}");
    }
    // Every missing fact once: the public bandwidth at the bandwidth item only.
    let bandwidth = asked
        .iter()
        .filter(|(_, q)| matches!(q, Q::NotStated(f) if f.contains(&Fact::PublicBandwidthMbps)))
        .count();
    assert_eq!(bandwidth, 1);
}

#[test]
fn a_well_filled_quote_and_settled_items_ask_nothing_and_an_open_statement_is_asked() {
    let items: Vec<&Item> = ITEMS.iter().collect();
    let asked = vendor_questions(&items, &full(), &|_| false);
    // Every fact of the quote and the vendor is known: nothing is asked as not stated.
    assert!(asked.iter().all(|(_, q)| !matches!(q, Q::NotStated(_))), "{asked:?}");
    assert!(!ids(&asked).contains(&"store.disks"));
    assert!(vendor_questions(&items, &PrefillFacts::default(), &|_| true).is_empty());
    let mut open = full();
    open.egress = Some(super::super::EgressPricing::NotStated);
    let asked = vendor_questions(&[get("net.traffic_billing")], &open, &|_| false);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].1, Q::Open);
}

#[test]
fn a_fact_settled_at_one_item_is_not_asked_again_at_the_next_that_needs_it() {
    let items = applicable_items(OrderKind::Batch, false);
    let facts = catalogue_line();
    let before = vendor_questions(&items, &facts, &|_| false);
    let disks = |q: &[(&Item, Q)]| {
        q.iter()
            .filter(|(_, q)| matches!(q, Q::NotStated(f) if f.contains(&Fact::Disks)))
            .map(|(i, _)| i.id)
            .collect::<Vec<_>>()
    };
    assert_eq!(disks(&before), ["store.disks"], "asked once, at the disks item");
    // The disks item confirmed (the sizes noted from a phone call): nobody asks them again.
    let after = vendor_questions(&items, &facts, &|i| i.id == "store.disks");
    assert!(disks(&after).is_empty(), "{after:?}");
    assert_eq!(after.len(), before.len() - 1, "one question answered, one fewer");
}

/// What a bare catalogue line states: the GPU and its memory; the workload's storage need.
fn catalogue_line() -> PrefillFacts {
    PrefillFacts {
        workload: Some(OrderKind::Batch),
        multi_gpu: Some(false),
        gpu_model: Some("L40S".into()),
        quoted_vram_mib: Some(49_152),
        storage_need_gb: Some(dec(100)),
        data_gb: Some(dec(100)),
        ..PrefillFacts::default()
    }
}

fn dec(n: i64) -> rust_decimal::Decimal {
    rust_decimal::Decimal::from(n)
}
