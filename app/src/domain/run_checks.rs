//! What a run is judged against: the quote revision it was rented under and the workload it
//! ran (pure; see [`crate::domain::runs`] for the rules).

use crate::domain::{
    quotes::{NodeSpec, Workload},
    runs::{QuotedNode, VerdictContext},
};
use rust_decimal::Decimal;

/// The quoted node as the validity gate checks it: GPU model and count, usable VRAM per GPU
/// (the usable amount when the vendor states less; a slice's memory for MIG/vGPU offers, never
/// the parent GPU's), driver (when stated) and slicing.
#[must_use]
pub fn quoted_node(spec: &NodeSpec) -> QuotedNode {
    let vram = spec.usable_vram_gib.unwrap_or(spec.vram_gib);
    QuotedNode {
        gpu_name: Some(spec.gpu_model.clone()).filter(|s| !s.trim().is_empty()),
        gpu_count: Some(spec.gpus_per_node),
        vram_per_gpu_mib: Some(crate::domain::vram::gib_to_mib(vram)).filter(|m| *m > Decimal::ZERO),
        driver: Some(spec.nvidia_driver.trim().to_string()).filter(|s| !s.is_empty()),
        mig: Some(spec.sharing.is_sliced()),
    }
}

/// The verdict context for a run: the workload's VRAM headroom in percent (20 % when no
/// workload is chosen, the middle of the 15–25 % of [`crate::domain::vram`]) and the quoted node, if any.
#[must_use]
pub fn verdict_context(spec: Option<&NodeSpec>, workload: Option<&Workload>) -> VerdictContext {
    let headroom_pct = workload.map_or(Decimal::from(20), |w| w.headroom_pct);
    VerdictContext {
        headroom_pct,
        quote: spec.map(quoted_node),
        ..VerdictContext::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::quotes::Sharing;
    use rust_decimal_macros::dec;

    #[test]
    fn usable_vram_and_slicing_reach_the_gate() {
        let mut spec = NodeSpec::new("A100 80GB", 4, dec!(80), Sharing::Exclusive);
        let q = quoted_node(&spec);
        assert_eq!(
            (q.gpu_count, q.vram_per_gpu_mib, q.mig, q.driver),
            (Some(4), Some(dec!(81920)), Some(false), None)
        );
        spec.usable_vram_gib = Some(dec!(79.5));
        spec.nvidia_driver = " 550 ".into();
        spec.sharing = Sharing::Vgpu;
        let q = quoted_node(&spec);
        assert_eq!(
            (q.vram_per_gpu_mib, q.mig, q.driver.as_deref()),
            (Some(dec!(81408.0)), Some(true), Some("550"))
        );
    }

    #[test]
    fn headroom_comes_from_the_workload() {
        assert_eq!(verdict_context(None, None).headroom_pct, dec!(20));
        let w = Workload {
            name: "chat".into(),
            kind: crate::domain::quotes::WorkloadKind::InferenceService,
            model: String::new(),
            precision: String::new(),
            vram_peak_gib: dec!(20),
            vram_peak_measured: true,
            concurrency: 8,
            gpus_needed: 1,
            run_hours: Some(dec!(10)),
            total_work: None,
            data_gb: dec!(0),
            checkpoint_gb: dec!(0),
            headroom_pct: dec!(15),
        };
        let ctx = verdict_context(None, Some(&w));
        assert_eq!(ctx.headroom_pct, dec!(15));
        assert!(ctx.quote.is_none());
    }
}
