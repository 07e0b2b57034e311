//! How fast the GPUs of a node can exchange data, on paper: each model's NVLink (or AMD
//! Infinity Fabric) bandwidth per GPU and its PCIe generation, and from them what an nccl-tests
//! bus bandwidth should reach on the link a quote states.
//!
//! # The rule
//! nccl-tests' bus bandwidth is meant to be compared with "the speed of the hardware bottleneck"
//! (NVIDIA/nccl-tests `doc/PERFORMANCE.md`): one direction of each GPU's link. A healthy link
//! reaches most of it (NVSwitch with NVLink SHARP can pass it); a test that reaches less than
//! **60 %** says the link is not what was quoted (a PCIe switch shared with other cards, NVLink
//! lanes down, a cross-socket hop), or that the test ran on other GPUs than quoted.
//!
//! | quoted link | one-way figure, GB/s |
//! |---|---|
//! | NVLink / NVSwitch | the model's NVLink bandwidth per GPU ÷ 2 (datasheets state both directions) |
//! | PCIe (or NVLink on a card without it) | the model's PCIe x16: Gen3 16, Gen4 32, Gen5 64 |
//! | ranks on several hosts | the quote's network, Gbit/s ÷ 8 |
//!
//! Worked example: an 8× H100 SXM node quoted with NVSwitch has 900 GB/s NVLink per GPU, so
//! 450 GB/s one way and at least 270 GB/s expected; the fixture's 480.9 GB/s meets it. The same
//! test on 8× L40S quoted as PCIe (Gen4, 32 GB/s) needs 19.2 GB/s and reads 21.1.

use super::GpuMount;
use serde::{Deserialize, Serialize};

/// The share of the one-way figure a sound link reaches, percent.
pub const SOUND_SHARE_PCT: u32 = 60;

/// The link a bus bandwidth is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Link {
    /// NVLink bridges or an NVSwitch fabric (AMD: Infinity Fabric links).
    Nvlink,
    /// The host's PCIe bus, generation 3, 4 or 5.
    Pcie {
        /// The generation.
        generation: u8,
    },
    /// The network between nodes.
    Network,
}

/// What a link should give: its one-way bandwidth and the least a sound test reaches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkFigure {
    /// The link.
    pub link: Link,
    /// One direction, GB/s.
    pub one_way_gbps: f64,
    /// [`SOUND_SHARE_PCT`] of it, GB/s.
    pub least_gbps: f64,
}

impl LinkFigure {
    fn of(link: Link, one_way_gbps: f64) -> Self {
        Self {
            link,
            one_way_gbps,
            least_gbps: one_way_gbps * f64::from(SOUND_SHARE_PCT) / 100.0,
        }
    }
}

/// NVLink (or Infinity Fabric) bandwidth per GPU, both directions, GB/s, and the PCIe
/// generation, by catalogue model and mount. From the vendors' datasheets: V100 SXM2 300
/// (NVLink 2); A100 SXM 600, A800 SXM 400 (NVLink 3); H100/H200/H20 SXM 900, H800 SXM 400,
/// H100 NVL bridge 600, H200 NVL 900 (NVLink 4); B200 1,800 (NVLink 5); A30 bridge 200;
/// A40, RTX A6000 and RTX 3090 bridges 112.5; MI250/MI250X 800, MI300X/MI325X 896 (AMD
/// Infinity Fabric); MI210 bridge 300. NVLink on a PCIe card needs its bridge: a quote that
/// states NVLink for one is taken at its word.
const LINKS: &[(&str, Option<GpuMount>, f64, u8)] = &[
    ("V100", Some(GpuMount::Sxm), 300.0, 3),
    ("V100", Some(GpuMount::Pcie), 0.0, 3),
    ("T4", None, 0.0, 3),
    ("A10", None, 0.0, 4),
    ("A10G", None, 0.0, 4),
    ("A30", None, 200.0, 4),
    ("A40", None, 112.5, 4),
    ("RTX A6000", None, 112.5, 4),
    ("A100", Some(GpuMount::Sxm), 600.0, 4),
    ("A100", Some(GpuMount::Pcie), 600.0, 4),
    ("A800", Some(GpuMount::Sxm), 400.0, 4),
    ("A800", Some(GpuMount::Pcie), 400.0, 4),
    ("L4", None, 0.0, 4),
    ("L20", None, 0.0, 4),
    ("L40", None, 0.0, 4),
    ("L40S", None, 0.0, 4),
    ("H100", Some(GpuMount::Sxm), 900.0, 5),
    ("H100", Some(GpuMount::Pcie), 600.0, 5),
    ("H100", Some(GpuMount::Nvl), 600.0, 5),
    ("H800", Some(GpuMount::Sxm), 400.0, 5),
    ("H800", Some(GpuMount::Pcie), 400.0, 5),
    ("H20", None, 900.0, 5),
    ("H200", Some(GpuMount::Sxm), 900.0, 5),
    ("H200", Some(GpuMount::Nvl), 900.0, 5),
    ("B200", None, 1800.0, 5),
    ("RTX 3090", None, 112.5, 4),
    ("RTX 4090", None, 0.0, 4),
    ("RTX 4090 D", None, 0.0, 4),
    ("RTX 5090", None, 0.0, 5),
    ("RTX 6000 Ada", None, 0.0, 4),
    ("MI210", None, 300.0, 4),
    ("MI250", None, 800.0, 4),
    ("MI250X", None, 800.0, 4),
    ("MI300X", None, 896.0, 5),
    ("MI325X", None, 896.0, 5),
];

/// PCIe x16, one direction, GB/s, by generation.
fn pcie_gbps(generation: u8) -> Option<f64> {
    match generation {
        3 => Some(16.0),
        4 => Some(32.0),
        5 => Some(64.0),
        _ => None,
    }
}

fn row(gpu_name: &str) -> Option<(f64, u8)> {
    let spec = super::lookup(gpu_name)?;
    LINKS
        .iter()
        .find(|(model, mount, ..)| *model == spec.model && mount.is_none_or(|m| m == spec.form))
        .map(|(_, _, nvlink, generation)| (*nvlink, *generation))
}

/// What a bus bandwidth measured on `gpu_name` GPUs should reach on the quoted link: through
/// NVLink (`nvlink` true) when the quote states NVLink or NVSwitch and the model has it, else
/// through PCIe; across hosts, through the quoted network (`network_gbps`, Gbit/s). `None` when
/// the catalogue does not know the model, or the network is not stated.
#[must_use]
pub fn expected(gpu_name: &str, nvlink: bool, hosts: u32, network_gbps: Option<f64>) -> Option<LinkFigure> {
    if hosts > 1 {
        let gbps = network_gbps.filter(|g| g.is_finite() && *g > 0.0)?;
        return Some(LinkFigure::of(Link::Network, gbps / 8.0));
    }
    let (nvlink_both_ways, generation) = row(gpu_name)?;
    if nvlink && nvlink_both_ways > 0.0 {
        return Some(LinkFigure::of(Link::Nvlink, nvlink_both_ways / 2.0));
    }
    pcie_gbps(generation).map(|g| LinkFigure::of(Link::Pcie { generation }, g))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The module's worked example.
    #[test]
    fn an_nvswitch_h100_should_give_270_and_a_pcie_l40s_19_2() {
        let h100 = expected("NVIDIA H100 80GB HBM3", true, 1, None).unwrap();
        assert_eq!(h100.link, Link::Nvlink);
        assert!((h100.one_way_gbps - 450.0).abs() < 1e-9);
        assert!((h100.least_gbps - 270.0).abs() < 1e-9);
        let l40s = expected("NVIDIA L40S", false, 1, None).unwrap();
        assert_eq!(l40s.link, Link::Pcie { generation: 4 });
        assert!((l40s.least_gbps - 19.2).abs() < 1e-9);
    }

    #[test]
    fn a_card_without_nvlink_is_judged_on_its_pcie_even_if_quoted_with_nvlink() {
        let l40s = expected("L40S 48GB", true, 1, None).unwrap();
        assert_eq!(l40s.link, Link::Pcie { generation: 4 });
        let pcie_h100 = expected("H100 PCIe 80GB", false, 1, None).unwrap();
        assert_eq!(pcie_h100.link, Link::Pcie { generation: 5 });
        assert!((pcie_h100.one_way_gbps - 64.0).abs() < 1e-9);
    }

    #[test]
    fn across_hosts_the_network_is_the_link() {
        let two_nodes = expected("H100 SXM5 80GB", true, 2, Some(3200.0)).unwrap();
        assert_eq!(two_nodes.link, Link::Network);
        assert!((two_nodes.one_way_gbps - 400.0).abs() < 1e-9);
        assert_eq!(expected("H100 SXM5 80GB", true, 2, None), None);
    }

    #[test]
    fn an_unknown_model_has_no_figure_and_every_catalogue_model_has_one() {
        assert_eq!(expected("Mystery GPU", true, 1, None), None);
        for spec in super::super::catalog::GPUS {
            assert!(
                expected(spec.name, false, 1, None).is_some(),
                "{} has no PCIe figure",
                spec.name
            );
        }
    }
}
