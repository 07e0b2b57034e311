//! The node's facts: GPUs, driver and CUDA from `nvidia-smi`, CPU, memory, disks, OS,
//! kernel, host name and container from `/proc`, `/sys` and `/etc`. Each reader is a pure parser
//! of the text it reads, tested on captured text; a fact that cannot be read is left out.

use app::domain::node_facts::{DiskFact, GpuFact, NodeFacts};
use std::path::{Path, PathBuf};

/// The identity query: one line per GPU.
pub const IDENTITY_QUERY: &str = "index,name,memory.total,driver_version,mig.mode.current";

/// `nvidia-smi` on `PATH`, if any.
#[must_use]
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Reads `nvidia-smi --query-gpu=IDENTITY_QUERY --format=csv,noheader,nounits`: the GPUs and
/// the driver version (of the first GPU).
#[must_use]
pub fn parse_identity(text: &str) -> (Vec<GpuFact>, Option<String>) {
    let mut gpus = Vec::new();
    let mut driver = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        let Some(index) = f.first().and_then(|i| i.parse().ok()) else {
            continue;
        };
        gpus.push(GpuFact {
            index,
            name: f.get(1).map_or_else(String::new, |s| (*s).to_string()),
            memory_mib: f.get(2).and_then(|m| m.parse().ok()),
            mig_mode: f.get(4).map(|s| (*s).to_string()),
        });
        if driver.is_none() {
            driver = f.get(3).map(|s| (*s).to_string());
        }
    }
    (gpus, driver)
}

/// The `CUDA Version: 12.4` of `nvidia-smi`'s banner.
#[must_use]
pub fn parse_cuda(banner: &str) -> Option<String> {
    let at = banner.find("CUDA Version:")? + "CUDA Version:".len();
    let version: String = banner[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    (!version.is_empty()).then_some(version)
}

/// The CPU model and the number of logical CPUs of `/proc/cpuinfo`.
#[must_use]
pub fn parse_cpuinfo(text: &str) -> (Option<String>, Option<u32>) {
    let value = |l: &str| l.split_once(':').map(|(_, v)| v.trim().to_string());
    let model = text
        .lines()
        .find(|l| l.starts_with("model name") || l.starts_with("Model"))
        .and_then(value);
    let count = text.lines().filter(|l| l.starts_with("processor")).count();
    (model, u32::try_from(count).ok().filter(|n| *n > 0))
}

/// `MemTotal` of `/proc/meminfo`, MiB.
#[must_use]
pub fn parse_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// `PRETTY_NAME` of `/etc/os-release`.
#[must_use]
pub fn parse_os_release(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("PRETTY_NAME="))?;
    Some(line["PRETTY_NAME=".len()..].trim().trim_matches('"').to_string())
}

/// The image named in podman's `/run/.containerenv` (`image="…"`).
#[must_use]
pub fn parse_containerenv(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("image="))?;
    let image = line["image=".len()..].trim().trim_matches('"');
    (!image.is_empty()).then(|| image.to_string())
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// The container: `NODELEDGER_CONTAINER_IMAGE` when set, else what podman, Docker or Kubernetes
/// leave in a container; `None` on a bare host.
fn container() -> Option<String> {
    if let Ok(image) = std::env::var("NODELEDGER_CONTAINER_IMAGE")
        && !image.trim().is_empty()
    {
        return Some(image.trim().to_string());
    }
    if let Some(image) = read("/run/.containerenv").as_deref().and_then(parse_containerenv) {
        return Some(image);
    }
    if Path::new("/.dockerenv").exists() {
        return Some("docker (image not known: set NODELEDGER_CONTAINER_IMAGE)".into());
    }
    std::env::var_os("KUBERNETES_SERVICE_HOST")
        .map(|_| "kubernetes pod (image not known: set NODELEDGER_CONTAINER_IMAGE)".into())
}

/// Block devices of `/sys/block`, loop, RAM and zram devices left out.
fn disks() -> Vec<DiskFact> {
    let Ok(entries) = std::fs::read_dir("/sys/block") else {
        return Vec::new();
    };
    let mut out: Vec<DiskFact> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if ["loop", "ram", "zram", "dm-", "sr"].iter().any(|p| name.starts_with(p)) {
                return None;
            }
            let dir = e.path();
            let sectors: u64 = std::fs::read_to_string(dir.join("size")).ok()?.trim().parse().ok()?;
            let model = std::fs::read_to_string(dir.join("device/model"))
                .ok()
                .map(|m| m.trim().to_string())
                .filter(|m| !m.is_empty());
            let rotational = std::fs::read_to_string(dir.join("queue/rotational")).is_ok_and(|r| r.trim() == "1");
            (sectors > 0).then(|| DiskFact {
                name,
                bytes: sectors.saturating_mul(512),
                model,
                rotational,
            })
        })
        .collect();
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out.truncate(app::domain::node_facts::MAX_ITEMS);
    out
}

/// Output of `nvidia-smi ARGS`, if it ran and succeeded.
fn smi(smi: &Path, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new(smi)
        .args(args)
        .env_remove(super::TOKEN_ENV)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Everything this machine tells; the GPUs only when `nvidia_smi` is given.
#[must_use]
pub fn collect(nvidia_smi: Option<&Path>) -> NodeFacts {
    let mut facts = NodeFacts::default();
    if let Some(path) = nvidia_smi {
        let query = format!("--query-gpu={IDENTITY_QUERY}");
        if let Some(text) = smi(path, &[&query, "--format=csv,noheader,nounits"]) {
            let (gpus, driver) = parse_identity(&text);
            facts.gpus = gpus;
            facts.gpus.truncate(app::domain::node_facts::MAX_ITEMS);
            facts.driver_version = driver;
        }
        facts.cuda_version = smi(path, &[]).as_deref().and_then(parse_cuda);
    }
    let (model, count) = read("/proc/cpuinfo").as_deref().map(parse_cpuinfo).unwrap_or_default();
    facts.cpu_model = model;
    facts.cpu_count = count;
    facts.ram_mib = read("/proc/meminfo").as_deref().and_then(parse_meminfo);
    facts.disks = disks();
    facts.os = read("/etc/os-release").as_deref().and_then(parse_os_release);
    facts.kernel = read("/proc/sys/kernel/osrelease").map(|k| k.trim().to_string());
    facts.hostname = read("/proc/sys/kernel/hostname").map(|h| h.trim().to_string());
    facts.container = container();
    facts.probe_version = Some(env!("CARGO_PKG_VERSION").to_string());
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_gpus_as_nvidia_smi_lists_them() {
        let text = "0, NVIDIA H100 80GB HBM3, 81559, 550.90.07, Disabled\n1, NVIDIA H100 80GB HBM3, 81559, 550.90.07, Disabled\n";
        let (gpus, driver) = parse_identity(text);
        assert_eq!(gpus.len(), 2);
        assert_eq!(gpus[1].index, 1);
        assert_eq!(gpus[1].name, "NVIDIA H100 80GB HBM3");
        assert_eq!(gpus[1].memory_mib, Some(81559));
        assert_eq!(gpus[1].mig_mode.as_deref(), Some("Disabled"));
        assert_eq!(driver.as_deref(), Some("550.90.07"));
        assert_eq!(parse_identity("No devices were found\n").0, Vec::new());
    }

    #[test]
    fn reads_cuda_from_the_banner() {
        let banner = "| NVIDIA-SMI 550.90.07   Driver Version: 550.90.07   CUDA Version: 12.4     |";
        assert_eq!(parse_cuda(banner).as_deref(), Some("12.4"));
        assert_eq!(parse_cuda("no banner"), None);
    }

    #[test]
    fn reads_cpu_memory_os_and_podman_image() {
        let cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 9654 96-Core Processor\n\nprocessor\t: 1\nmodel name\t: AMD EPYC 9654 96-Core Processor\n";
        assert_eq!(
            parse_cpuinfo(cpuinfo),
            (Some("AMD EPYC 9654 96-Core Processor".into()), Some(2))
        );
        assert_eq!(
            parse_meminfo("MemTotal:       2113382164 kB\nMemFree: 1 kB\n"),
            Some(2_063_849)
        );
        assert_eq!(
            parse_os_release("NAME=\"Ubuntu\"\nPRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\n").as_deref(),
            Some("Ubuntu 22.04.4 LTS")
        );
        assert_eq!(
            parse_containerenv(
                "engine=\"podman-4.9.3\"\nname=\"bench\"\nimage=\"docker.io/vllm/vllm-openai:v0.6.3\"\n"
            )
            .as_deref(),
            Some("docker.io/vllm/vllm-openai:v0.6.3")
        );
        assert_eq!(parse_containerenv("engine=\"podman\"\nimage=\"\"\n"), None);
    }
}
