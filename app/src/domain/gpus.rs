//! TEMPORARY placeholder until the charts branch lands.
/// x
pub struct Measured { pub key: i64, pub gpu_name: String, pub gpus: u32, pub throughput: f64 }
/// x
pub struct BottleneckPair { pub faster_on_paper: i64, pub slower_on_paper: i64, pub compute_ratio: f64, pub measured_ratio: f64 }
/// x
pub fn bottleneck_pairs(_items: &[Measured]) -> Vec<BottleneckPair> { Vec::new() }
