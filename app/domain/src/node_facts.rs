//! What `nodeledger probe` recorded about the node a run was measured on: the GPUs as
//! `nvidia-smi` names them, CPU, memory, disks, OS, kernel and container image, and the command it
//! ran with its exit code. Sent with the run as the API's `node` part (JSON) and shown on the
//! run's page beside what the telemetry saw.
//!
//! Pure: [`NodeFacts::parse`] reads and bounds what a client sent; nothing here probes a machine
//! (that is `server::probe::facts`).

use serde::{Deserialize, Serialize};

/// Largest `node` part accepted, bytes.
pub const MAX_FACTS_BYTES: usize = 64 * 1024;
/// Most GPUs or disks listed.
pub const MAX_ITEMS: usize = 64;
/// Longest text of one fact, characters: the command line's bound. The command is cut to it
/// instead of refused ([`super::command_line`]): long serving command lines are normal, and the
/// whole part is already bounded by [`MAX_FACTS_BYTES`].
pub const MAX_TEXT_CHARS: usize = super::command_line::MAX_CHARS;

/// One GPU as `nvidia-smi --query-gpu=index,name,memory.total,…` lists it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GpuFact {
    /// `index`.
    pub index: u32,
    /// `name`, e.g. `NVIDIA H100 80GB HBM3`.
    pub name: String,
    /// `memory.total`, MiB.
    #[serde(default)]
    pub memory_mib: Option<u64>,
    /// `mig.mode.current`: `Enabled`, `Disabled` or `[N/A]` as printed.
    #[serde(default)]
    pub mig_mode: Option<String>,
}

/// One block device (`/sys/block`), loop and RAM disks left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiskFact {
    /// Kernel name, e.g. `nvme0n1`.
    pub name: String,
    /// Size, bytes.
    pub bytes: u64,
    /// The device's model, when the kernel knows it.
    #[serde(default)]
    pub model: Option<String>,
    /// Spinning disk (`queue/rotational`).
    #[serde(default)]
    pub rotational: bool,
}

/// The node facts of one run. Every field may be missing: a probe records what it could read.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeFacts {
    /// GPUs, by index.
    #[serde(default)]
    pub gpus: Vec<GpuFact>,
    /// NVIDIA driver version.
    #[serde(default)]
    pub driver_version: Option<String>,
    /// CUDA version the driver supports (`nvidia-smi`'s header).
    #[serde(default)]
    pub cuda_version: Option<String>,
    /// CPU model (`/proc/cpuinfo`).
    #[serde(default)]
    pub cpu_model: Option<String>,
    /// Logical CPUs.
    #[serde(default)]
    pub cpu_count: Option<u32>,
    /// Memory, MiB (`/proc/meminfo` `MemTotal`).
    #[serde(default)]
    pub ram_mib: Option<u64>,
    /// Block devices.
    #[serde(default)]
    pub disks: Vec<DiskFact>,
    /// OS (`/etc/os-release` `PRETTY_NAME`).
    #[serde(default)]
    pub os: Option<String>,
    /// Kernel release.
    #[serde(default)]
    pub kernel: Option<String>,
    /// Host name.
    #[serde(default)]
    pub hostname: Option<String>,
    /// Container image, or the container runtime when the image is not known.
    #[serde(default)]
    pub container: Option<String>,
    /// The workload command as it was run (arguments joined by spaces), secret-looking values
    /// masked and a long line cut ([`super::command_line`]).
    #[serde(default)]
    pub command: Option<String>,
    /// The command's exit code (`None`: stopped by the probe after `--duration`, or not known).
    #[serde(default)]
    pub exit_code: Option<i32>,
    /// Version of the probe that recorded this.
    #[serde(default)]
    pub probe_version: Option<String>,
}

/// Why a `node` part was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FactsError {
    /// Over [`MAX_FACTS_BYTES`].
    TooLarge,
    /// Not the JSON object described here, at this line and column (1-based).
    Malformed {
        /// Line.
        line: usize,
        /// Column.
        column: usize,
    },
    /// More than [`MAX_ITEMS`] GPUs or disks, or a text over [`MAX_TEXT_CHARS`]: the field.
    OutOfBounds(&'static str),
}

impl NodeFacts {
    /// Reads a `node` part: size first, then the JSON (unknown keys ignored, so a newer probe
    /// can send more), then the command masked and cut as the probe does
    /// ([`super::command_line::as_stored`]), then the bounds of lists and texts.
    ///
    /// # Errors
    /// [`FactsError`], naming the line and column of bad JSON.
    pub fn parse(text: &str) -> Result<Self, FactsError> {
        if text.len() > MAX_FACTS_BYTES {
            return Err(FactsError::TooLarge);
        }
        // A JSON array would read as the struct's fields in order: only an object is accepted.
        if let Some(at) = text.find(|c: char| !c.is_whitespace())
            && !text[at..].starts_with('{')
        {
            let before = &text[..at];
            return Err(FactsError::Malformed {
                line: before.matches('\n').count() + 1,
                column: before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
            });
        }
        let mut facts: Self = serde_json::from_str(text).map_err(|e| FactsError::Malformed {
            line: e.line(),
            column: e.column(),
        })?;
        facts.command = facts.command.as_deref().map(super::command_line::as_stored);
        facts.check_bounds()?;
        Ok(facts)
    }

    fn check_bounds(&self) -> Result<(), FactsError> {
        if self.gpus.len() > MAX_ITEMS {
            return Err(FactsError::OutOfBounds("gpus"));
        }
        if self.disks.len() > MAX_ITEMS {
            return Err(FactsError::OutOfBounds("disks"));
        }
        let long = |s: &Option<String>| s.as_ref().is_some_and(|s| s.chars().count() > MAX_TEXT_CHARS);
        let texts = [
            ("driver_version", &self.driver_version),
            ("cuda_version", &self.cuda_version),
            ("cpu_model", &self.cpu_model),
            ("os", &self.os),
            ("kernel", &self.kernel),
            ("hostname", &self.hostname),
            ("container", &self.container),
            ("command", &self.command),
            ("probe_version", &self.probe_version),
        ];
        if let Some((name, _)) = texts.iter().find(|(_, v)| long(v)) {
            return Err(FactsError::OutOfBounds(name));
        }
        let long_gpu = self
            .gpus
            .iter()
            .any(|g| g.name.chars().count() > MAX_TEXT_CHARS || long(&g.mig_mode));
        let long_disk = self
            .disks
            .iter()
            .any(|d| d.name.chars().count() > MAX_TEXT_CHARS || long(&d.model));
        if long_gpu {
            return Err(FactsError::OutOfBounds("gpus"));
        }
        if long_disk {
            return Err(FactsError::OutOfBounds("disks"));
        }
        Ok(())
    }

    /// The GPUs in one phrase, identical GPUs counted: `8× NVIDIA H100 80GB HBM3 (81559 MiB)`.
    #[must_use]
    pub fn gpu_summary(&self) -> String {
        let mut groups: Vec<(String, usize)> = Vec::new();
        for g in &self.gpus {
            let label = match g.memory_mib {
                Some(m) => format!("{} ({m} MiB)", g.name),
                None => g.name.clone(),
            };
            match groups.iter_mut().find(|(l, _)| *l == label) {
                Some((_, n)) => *n += 1,
                None => groups.push((label, 1)),
            }
        }
        groups
            .into_iter()
            .map(|(label, n)| format!("{n}× {label}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The disks in one phrase: `nvme0n1 3.5 TB (SAMSUNG …), sda 960 GB`.
    #[must_use]
    pub fn disk_summary(&self) -> String {
        self.disks
            .iter()
            .map(|d| {
                let size = decimal_size(d.bytes);
                match &d.model {
                    Some(m) => format!("{} {size} ({m})", d.name),
                    None => format!("{} {size}", d.name),
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A size as disks are sold: decimal GB/TB, one decimal place.
fn decimal_size(bytes: u64) -> String {
    let tenths_gb = bytes / 100_000_000;
    if tenths_gb >= 10_000 {
        let tenths_tb = bytes / 100_000_000_000;
        format!("{}.{} TB", tenths_tb / 10, tenths_tb % 10)
    } else {
        format!("{}.{} GB", tenths_gb / 10, tenths_gb % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_a_probe_sends_and_ignores_what_it_does_not_know() {
        let text = r#"{"gpus":[{"index":0,"name":"NVIDIA L4","memory_mib":23034,"mig_mode":"[N/A]"},
            {"index":1,"name":"NVIDIA L4","memory_mib":23034}],"cpu_count":32,"exit_code":0,"future":1}"#;
        let facts = NodeFacts::parse(text).unwrap();
        assert_eq!(facts.cpu_count, Some(32));
        assert_eq!(facts.exit_code, Some(0));
        assert_eq!(facts.gpu_summary(), "2× NVIDIA L4 (23034 MiB)");
    }

    #[test]
    fn bad_json_is_refused_with_its_line_and_column() {
        assert_eq!(
            NodeFacts::parse("{\n  \"cpu_count\": \"many\"\n}"),
            Err(FactsError::Malformed { line: 2, column: 21 })
        );
        assert_eq!(
            NodeFacts::parse("[]"),
            Err(FactsError::Malformed { line: 1, column: 1 })
        );
        assert_eq!(
            NodeFacts::parse("\n  [1]"),
            Err(FactsError::Malformed { line: 2, column: 3 })
        );
    }

    #[test]
    fn oversized_facts_are_refused_before_reading() {
        let huge = format!("{{\"os\":\"{}\"}}", "x".repeat(MAX_FACTS_BYTES));
        assert_eq!(NodeFacts::parse(&huge), Err(FactsError::TooLarge));
        let long = format!("{{\"kernel\":\"{}\"}}", "k".repeat(MAX_TEXT_CHARS + 1));
        assert_eq!(NodeFacts::parse(&long), Err(FactsError::OutOfBounds("kernel")));
        let gpus: Vec<String> = (0..=MAX_ITEMS)
            .map(|i| format!("{{\"index\":{i},\"name\":\"g\"}}"))
            .collect();
        let many = format!("{{\"gpus\":[{}]}}", gpus.join(","));
        assert_eq!(NodeFacts::parse(&many), Err(FactsError::OutOfBounds("gpus")));
    }

    #[test]
    fn a_long_command_is_cut_and_its_secrets_masked_instead_of_refused() {
        let command = format!(
            "vllm serve Qwen/Qwen2.5-7B-Instruct --api-key sk-abc {}",
            "--max-num-seqs 256 ".repeat(100)
        );
        let text = serde_json::json!({ "command": command, "exit_code": 0 }).to_string();
        let stored = NodeFacts::parse(&text).unwrap().command.unwrap();
        assert_eq!(stored.chars().count(), MAX_TEXT_CHARS);
        assert!(
            stored.starts_with("vllm serve Qwen/Qwen2.5-7B-Instruct --api-key *** --max-num-seqs 256"),
            "{stored}"
        );
        assert!(stored.ends_with(" …[truncated]"), "{stored}");
    }

    #[test]
    fn disks_read_in_decimal_units_as_sold() {
        let facts = NodeFacts {
            disks: vec![
                DiskFact {
                    name: "nvme0n1".into(),
                    bytes: 3_840_755_982_336,
                    model: Some("SAMSUNG MZQL23T8".into()),
                    rotational: false,
                },
                DiskFact {
                    name: "sda".into(),
                    bytes: 960_197_124_096,
                    model: None,
                    rotational: true,
                },
            ],
            ..NodeFacts::default()
        };
        assert_eq!(facts.disk_summary(), "nvme0n1 3.8 TB (SAMSUNG MZQL23T8), sda 960.1 GB");
    }
}
