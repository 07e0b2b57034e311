//! What a run is judged against: the quote revision it was rented under and the workload it
//! ran (pure; see [`crate::runs`] for the rules).

use crate::{
    quotes::{FormFactor, Interconnect, NodeSpec, Sharing, Workload},
    runs::{QuotedNode, Slicing, VerdictContext},
};
use rust_decimal::Decimal;

/// The quoted node as the validity gate checks it: GPU model and count, usable VRAM per GPU
/// ([`NodeSpec::effective_vram_gib`], the one usable-memory figure the requirement check, the
/// checklist and the cost use too: the stated usable amount, a MIG profile's or a fractional
/// share's memory, never the parent GPU's; unknown for a vGPU whose usable memory is not
/// stated), driver (when stated), the kind of slicing and the form factor (PCIe or SXM).
#[must_use]
pub fn quoted_node(spec: &NodeSpec) -> QuotedNode {
    QuotedNode {
        gpu_name: Some(spec.gpu_model.clone()).filter(|s| !s.trim().is_empty()),
        gpu_count: Some(spec.gpus_per_node),
        vram_per_gpu_mib: spec
            .effective_vram_gib()
            .map(crate::vram::gib_to_mib)
            .filter(|m| *m > Decimal::ZERO),
        driver: Some(spec.nvidia_driver.trim().to_string()).filter(|s| !s.is_empty()),
        slicing: Some(slicing(&spec.sharing)),
        form_factor: spec.form_factor.and_then(FormFactor::mount),
        nvlink: spec
            .interconnect
            .map(|link| matches!(link, Interconnect::Nvlink | Interconnect::Nvswitch)),
        network_gbps: spec.network_gbps,
    }
}

/// The verdict's kind of slicing for a quoted sharing mode.
#[must_use]
pub const fn slicing(sharing: &Sharing) -> Slicing {
    match sharing {
        Sharing::Exclusive => Slicing::Whole,
        Sharing::Mig { .. } => Slicing::Mig,
        Sharing::Vgpu => Slicing::Vgpu,
        Sharing::Fractional { .. } => Slicing::Fractional,
    }
}

/// The verdict context for a run: the workload's VRAM headroom in percent (20 % when no
/// workload is chosen, the middle of the 15–25 % of [`crate::vram`]), how it uses a
/// node's GPUs, the GPUs one job needs, its stated peak (judged beneath a reservation) and the
/// quoted node, if any.
#[must_use]
pub fn verdict_context(spec: Option<&NodeSpec>, workload: Option<&Workload>) -> VerdictContext {
    let headroom_pct = workload.map_or(Decimal::from(20), |w| w.headroom_pct);
    VerdictContext {
        headroom_pct,
        quote: spec.map(quoted_node),
        gpu_use: workload.map(|w| w.gpu_use).unwrap_or_default(),
        job_gpus: workload.map(|w| w.gpus_needed).filter(|n| *n > 0),
        workload_peak_mib: workload
            .map(|w| crate::vram::gib_to_mib(w.vram_peak_gib))
            .filter(|m| *m > Decimal::ZERO),
        workload_model: workload.map(|w| w.model.trim().to_owned()).filter(|m| !m.is_empty()),
        workload_precision: workload
            .map(|w| w.precision.trim().to_owned())
            .filter(|p| !p.is_empty()),
        response_target: workload.and_then(|w| w.response_target),
        ..VerdictContext::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{gpus::GpuMount, quotes::Sharing};
    use rust_decimal_macros::dec;

    #[test]
    fn usable_vram_and_slicing_reach_the_gate() {
        let mut spec = NodeSpec::new("A100 80GB", 4, dec!(80), Sharing::Exclusive);
        let q = quoted_node(&spec);
        assert_eq!(
            (q.gpu_count, q.vram_per_gpu_mib, q.slicing, q.driver, q.form_factor),
            (Some(4), Some(dec!(81920)), Some(Slicing::Whole), None, None)
        );
        spec.usable_vram_gib = Some(dec!(79.5));
        spec.nvidia_driver = " 550 ".into();
        spec.sharing = Sharing::Vgpu;
        spec.form_factor = Some(FormFactor::Pcie);
        let q = quoted_node(&spec);
        assert_eq!(
            (q.vram_per_gpu_mib, q.slicing, q.driver.as_deref(), q.form_factor),
            (
                Some(dec!(81408.0)),
                Some(Slicing::Vgpu),
                Some("550"),
                Some(GpuMount::Pcie)
            )
        );
        spec.form_factor = Some(FormFactor::Other);
        assert_eq!(quoted_node(&spec).form_factor, None);
    }

    #[test]
    fn a_slice_is_judged_on_its_own_memory_never_the_parent_cards() {
        // A 1g.10gb MIG profile of an 80 GB A100: 10 GiB, not 80.
        let mig = NodeSpec::new(
            "A100 80GB",
            1,
            dec!(80),
            Sharing::Mig {
                profile: "1g.10gb".into(),
            },
        );
        assert_eq!(quoted_node(&mig).vram_per_gpu_mib, Some(dec!(10240)));
        // Half of a 24 GiB card.
        let half = NodeSpec::new("A10", 1, dec!(24), Sharing::Fractional { share: dec!(0.5) });
        let q = quoted_node(&half);
        assert_eq!(
            (q.vram_per_gpu_mib, q.slicing),
            (Some(dec!(12288.0)), Some(Slicing::Fractional))
        );
        // A vGPU without a stated usable amount: unknown (its guest reports the profile's memory).
        let vgpu = NodeSpec::new("A100 80GB", 1, dec!(80), Sharing::Vgpu);
        assert_eq!(quoted_node(&vgpu).vram_per_gpu_mib, None);
    }

    #[test]
    fn headroom_comes_from_the_workload() {
        assert_eq!(verdict_context(None, None).headroom_pct, dec!(20));
        let w = Workload {
            name: "chat".into(),
            kind: crate::quotes::WorkloadKind::InferenceService,
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
            gpu_use: crate::runs::GpuUse::TaskPerGpu,
            deadline: None,
            earliest_start: None,
            response_target: None,
        };
        let ctx = verdict_context(None, Some(&w));
        assert_eq!(ctx.headroom_pct, dec!(15));
        assert!(ctx.quote.is_none());
        assert_eq!(ctx.gpu_use, crate::runs::GpuUse::TaskPerGpu);
        assert_eq!((ctx.job_gpus, ctx.workload_peak_mib), (Some(1), Some(dec!(20480))));
    }
}
