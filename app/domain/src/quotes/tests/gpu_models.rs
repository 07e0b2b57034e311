//! GPU model suggestions.

use crate::quotes::{gpu_model_suggestions, suggested_vram_gib};
use rust_decimal_macros::dec;

#[test]
fn suggests_vram_from_an_unambiguous_name() {
    assert_eq!(suggested_vram_gib("L4"), Some(dec!(24)));
    assert_eq!(suggested_vram_gib("NVIDIA GeForce RTX 4090"), Some(dec!(24)));
    assert_eq!(suggested_vram_gib("h200"), Some(dec!(141)));
    assert_eq!(suggested_vram_gib("MI300X"), Some(dec!(192)));
    // Vendors' spellings of catalogue models.
    assert_eq!(suggested_vram_gib("RTX 4090D"), Some(dec!(24)));
    assert_eq!(suggested_vram_gib("H100 SXM5"), Some(dec!(80)));
    assert_eq!(suggested_vram_gib("NVIDIA H100 NVL"), Some(dec!(94)));
    assert_eq!(suggested_vram_gib("NVIDIA L20"), Some(dec!(48)));
}

#[test]
fn a_size_in_the_name_wins() {
    assert_eq!(suggested_vram_gib("A100-SXM4-80GB"), Some(dec!(80)));
    assert_eq!(suggested_vram_gib("A100 40G"), Some(dec!(40)));
}

#[test]
fn ambiguous_or_unknown_names_suggest_nothing() {
    assert_eq!(suggested_vram_gib("A100"), None);
    assert_eq!(suggested_vram_gib("V100"), None);
    // PCIe and SXM H100s have 80 GB, the NVL 94 GB.
    assert_eq!(suggested_vram_gib("H100"), None);
    assert_eq!(suggested_vram_gib("Ascend 910B"), None);
    assert_eq!(suggested_vram_gib(""), None);
}

#[test]
fn every_suggestion_label_implies_its_vram() {
    for s in gpu_model_suggestions() {
        assert_eq!(suggested_vram_gib(s.label), Some(s.vram_gib.into()), "{}", s.label);
    }
    // The catalogue's rows, not a second table: the models the run verdict knows.
    let labels: Vec<&str> = gpu_model_suggestions().map(|s| s.label).collect();
    for label in [
        "A100 PCIe 40GB",
        "H100 SXM5 80GB",
        "H800 PCIe 80GB",
        "L20 48GB",
        "RTX 4090 D 24GB",
        "RTX 6000 Ada 48GB",
        "MI210 64GB",
    ] {
        assert!(labels.contains(&label), "{label}");
    }
}
