//! GPU model suggestions.

use crate::domain::quotes::{GPU_MODEL_SUGGESTIONS, suggested_vram_gib};
use rust_decimal_macros::dec;

#[test]
fn suggests_vram_from_an_unambiguous_name() {
    assert_eq!(suggested_vram_gib("L4"), Some(dec!(24)));
    assert_eq!(suggested_vram_gib("NVIDIA GeForce RTX 4090"), Some(dec!(24)));
    assert_eq!(suggested_vram_gib("h200"), Some(dec!(141)));
    assert_eq!(suggested_vram_gib("MI300X"), Some(dec!(192)));
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
    assert_eq!(suggested_vram_gib("Ascend 910B"), None);
    assert_eq!(suggested_vram_gib(""), None);
}

#[test]
fn every_suggestion_label_implies_its_vram() {
    for s in GPU_MODEL_SUGGESTIONS {
        assert_eq!(suggested_vram_gib(s.label), Some(s.vram_gib.into()), "{}", s.label);
    }
}
