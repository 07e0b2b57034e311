//! The quoted GPU against the observed one through the GPU catalogue: vendors' names meet
//! `nvidia-smi`'s, the quoted form factor must be the observed variant's, and a name the
//! catalogue does not know is compared word by word and noted.

use super::super::{QuotedNode, Reason, RunStatus, Severity, VerdictContext, judge};
use super::verdict_edges::base;
use crate::{gpus::GpuMount, runs::CanonicalRun};

fn quoted(gpu_name: &str, form_factor: Option<GpuMount>) -> VerdictContext {
    VerdictContext {
        quote: Some(QuotedNode {
            gpu_name: Some(gpu_name.into()),
            form_factor,
            ..QuotedNode::default()
        }),
        ..VerdictContext::default()
    }
}

/// The clean base run on a GPU `nvidia-smi` names `observed`.
fn on(observed: &str) -> CanonicalRun {
    let mut run = base();
    run.node.gpu_name = Some(observed.into());
    run
}

#[test]
fn vendor_names_of_the_observed_gpu_are_valid() {
    // nvidia-smi names: NVIDIA/nccl issue #1264 (H100 SXM), NVIDIA/DCGM issue #120 (H800),
    // the NVIDIA driver's product table (NVIDIA/open-gpu-kernel-modules README) for the rest.
    for (quote, observed) in [
        ("A100 SXM 80GB", "NVIDIA A100-SXM4-80GB"),
        ("H100 SXM5 80GB", "NVIDIA H100 80GB HBM3"),
        ("H800 SXM", "NVIDIA H800"),
        ("RTX 4090D", "NVIDIA GeForce RTX 4090 D"),
    ] {
        let v = judge(&on(observed), &quoted(quote, None));
        assert_eq!(v.status, RunStatus::Valid, "{quote} on {observed}: {:?}", v.reasons);
        assert!(v.reasons.is_empty(), "{:?}", v.reasons);
    }
}

#[test]
fn another_variant_than_quoted_is_invalid() {
    let v = judge(&on("NVIDIA GeForce RTX 4090 D"), &quoted("RTX 4090", None));
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(matches!(&v.reasons[0].reason, Reason::GpuNameMismatch { quoted, .. } if quoted == "RTX 4090"));
}

#[test]
fn the_quoted_form_factor_must_be_the_observed_variants() {
    // An SXM board quoted as a PCIe card: invalid, with both form factors named.
    let v = judge(&on("NVIDIA A100-SXM4-80GB"), &quoted("A100 80GB", Some(GpuMount::Pcie)));
    assert_eq!(v.status, RunStatus::Invalid);
    assert_eq!(
        v.reasons[0].reason,
        Reason::GpuFormMismatch {
            quoted: GpuMount::Pcie,
            observed: GpuMount::Sxm,
            gpu: "NVIDIA A100-SXM4-80GB".into(),
        }
    );
    assert_eq!(v.reasons[0].severity, Severity::Invalid);
    // The same form, or an NVL card for a quoted PCIe card, is fine.
    let same = judge(&on("NVIDIA A100-SXM4-80GB"), &quoted("A100 80GB", Some(GpuMount::Sxm)));
    assert_eq!(same.status, RunStatus::Valid, "{:?}", same.reasons);
    let nvl = judge(&on("NVIDIA H100 NVL"), &quoted("H100 NVL", Some(GpuMount::Pcie)));
    assert_eq!(nvl.status, RunStatus::Valid, "{:?}", nvl.reasons);
    // A name mismatch is reported once, not again as a form factor.
    let both = judge(&on("NVIDIA H100 80GB HBM3"), &quoted("A100", Some(GpuMount::Pcie)));
    assert_eq!(both.reasons.len(), 1, "{:?}", both.reasons);
}

#[test]
fn an_unknown_model_is_compared_word_by_word_and_noted() {
    let v = judge(&on("Ascend 910B"), &quoted("Ascend 910B", None));
    assert_eq!(v.status, RunStatus::Valid);
    assert_eq!(v.reasons.len(), 1);
    assert_eq!(v.reasons[0].severity, Severity::Info);
    assert_eq!(
        v.reasons[0].reason,
        Reason::UnknownGpuModel {
            name: "Ascend 910B".into()
        }
    );
    assert_eq!(v.reasons[0].reason.code(), "unknown_gpu_model");
    // The observed name is the unknown one here, and its words differ: invalid too.
    let v = judge(&on("NVIDIA A100X"), &quoted("A100", None));
    assert_eq!(v.status, RunStatus::Invalid);
    assert!(matches!(&v.reasons[0].reason, Reason::UnknownGpuModel { name } if name == "NVIDIA A100X"));
    assert!(matches!(&v.reasons[1].reason, Reason::GpuNameMismatch { .. }));
}
