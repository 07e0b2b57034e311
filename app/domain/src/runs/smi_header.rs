//! nvidia-smi CSV header: column names (with or without `[unit]` suffixes,
//! any order) mapped to the fields we read.

use super::vocab::ThrottleReason;

/// The columns `nodeledger probe` asks `nvidia-smi --query-gpu=` for: one of each
/// field [`Layout`] reads, so what the probe records is exactly what this parser judges. The
/// throttle mask is asked by its older name `clocks_throttle_reasons.active`, which drivers
/// before and after the `clocks_event_reasons` rename both accept.
pub const PROBE_QUERY_COLUMNS: &str = "timestamp,index,uuid,name,utilization.gpu,memory.used,memory.total,clocks.sm,temperature.gpu,power.draw,driver_version,mig.mode.current,clocks_throttle_reasons.active";

/// What the first line of a text input looks like.
pub(crate) enum Sniff {
    /// An nvidia-smi CSV header.
    Header,
    /// An nvidia-smi data row (header missing).
    DataRow,
    /// Something else.
    Other,
}

/// Classifies the first non-empty line of a text input.
pub(crate) fn sniff(line: &str) -> Sniff {
    if !line.contains(',') && !line.eq_ignore_ascii_case("timestamp") {
        return Sniff::Other;
    }
    let mut fields = line.split(',').map(|f| base_name(f.as_bytes()));
    if fields.any(|f| classify(f).is_some()) {
        return Sniff::Header;
    }
    let first = line.split(',').next().unwrap_or("").trim();
    if super::smi_value::parse_timestamp(first.as_bytes()).is_some() {
        Sniff::DataRow
    } else {
        Sniff::Other
    }
}

/// Whether a header line is AMD's (amd-smi or rocm-smi): it names a column only they write.
pub(crate) fn is_amd(line: &str) -> bool {
    Layout::from_header(line.split(',').map(str::as_bytes)).amd
}

/// A column we understand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    Timestamp,
    Index,
    Name,
    Util,
    MemUsed,
    MemTotal,
    SmClock,
    Temp,
    /// Power draw; lower rank wins (`power.draw` over `.instant`/`.average`).
    Power(u8),
    Driver,
    Mig,
    Uuid,
    BusId,
    Reason(ThrottleReason),
    ReasonMask,
    /// rocm-smi's used VRAM in bytes.
    MemUsedBytes,
    /// rocm-smi's VRAM in bytes.
    MemTotalBytes,
    /// Recognised but unused (e.g. `clocks_event_reasons.supported`).
    Unused,
}

/// Column positions of one CSV header.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    /// Header names as written (trimmed), for error reports.
    pub names: Vec<String>,
    /// Names of columns we do not know.
    pub unknown: Vec<String>,
    pub timestamp: Option<usize>,
    pub index: Option<usize>,
    pub name: Option<usize>,
    pub util: Option<usize>,
    pub mem_used: Option<usize>,
    pub mem_total: Option<usize>,
    /// Whether `mem_used`/`mem_total` are in bytes (rocm-smi), not MiB.
    pub mem_in_bytes: bool,
    /// Whether the header is AMD's (amd-smi or rocm-smi).
    pub amd: bool,
    pub sm_clock: Option<usize>,
    pub temp: Option<usize>,
    pub power: Option<usize>,
    power_rank: u8,
    pub driver: Option<usize>,
    pub mig: Option<usize>,
    /// `uuid` or `pci.bus_id`, used as GPU identity when `index` is absent.
    pub identity: Option<usize>,
    pub reasons: Vec<(usize, ThrottleReason)>,
    pub mask: Option<usize>,
}

impl Layout {
    /// Builds the layout from the header fields.
    pub(crate) fn from_header<'a>(fields: impl Iterator<Item = &'a [u8]>) -> Self {
        let mut l = Self::default();
        for (i, raw) in fields.enumerate() {
            let raw = raw.trim_ascii();
            let raw = if i == 0 { super::text::strip_bom(raw) } else { raw };
            let shown = String::from_utf8_lossy(raw).trim().to_owned();
            let col = classify(base_name(raw));
            l.amd |= classify_amd(&base_name(raw).to_ascii_lowercase()).is_some();
            match col {
                Some(Col::Timestamp) => l.timestamp = l.timestamp.or(Some(i)),
                Some(Col::Index) => l.index = l.index.or(Some(i)),
                Some(Col::Name) => l.name = l.name.or(Some(i)),
                Some(Col::Util) => l.util = l.util.or(Some(i)),
                Some(Col::MemUsed) => l.mem_used = l.mem_used.or(Some(i)),
                Some(Col::MemTotal) => l.mem_total = l.mem_total.or(Some(i)),
                Some(Col::MemUsedBytes) => {
                    l.mem_used = l.mem_used.or(Some(i));
                    l.mem_in_bytes = true;
                }
                Some(Col::MemTotalBytes) => {
                    l.mem_total = l.mem_total.or(Some(i));
                    l.mem_in_bytes = true;
                }
                Some(Col::SmClock) => l.sm_clock = l.sm_clock.or(Some(i)),
                Some(Col::Temp) => l.temp = l.temp.or(Some(i)),
                Some(Col::Power(rank)) => {
                    if l.power.is_none() || rank < l.power_rank {
                        l.power = Some(i);
                        l.power_rank = rank;
                    }
                }
                Some(Col::Driver) => l.driver = l.driver.or(Some(i)),
                Some(Col::Mig) => l.mig = l.mig.or(Some(i)),
                Some(Col::Uuid) => l.identity = Some(i),
                Some(Col::BusId) => l.identity = l.identity.or(Some(i)),
                Some(Col::Reason(r)) => l.reasons.push((i, r)),
                Some(Col::ReasonMask) => l.mask = l.mask.or(Some(i)),
                Some(Col::Unused) => {}
                None => l.unknown.push(shown.clone()),
            }
            l.names.push(shown);
        }
        l
    }

    /// Whether any throttle-reason column is present.
    pub(crate) fn has_reasons(&self) -> bool {
        self.mask.is_some() || !self.reasons.is_empty()
    }
}

/// Where the columns a live view of the telemetry shows are, read from one header line by the
/// parser's own rules ([`Layout`]): any order, with or without `[unit]`, the old and the new
/// name of a renamed field. `nodeledger probe` reads its live line through it, so the probe and
/// the server never read a header differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmiColumns {
    /// `index`.
    pub index: Option<usize>,
    /// `utilization.gpu`, percent.
    pub util: Option<usize>,
    /// `memory.used`, MiB.
    pub mem_used: Option<usize>,
    /// `memory.total`, MiB.
    pub mem_total: Option<usize>,
    /// `clocks.sm` (printed `clocks.current.sm`), MHz.
    pub sm_clock: Option<usize>,
    /// `clocks_event_reasons.active` (or its older name `clocks_throttle_reasons.active`).
    pub mask: Option<usize>,
}

impl SmiColumns {
    /// The columns of the header line `line` (`timestamp, index, utilization.gpu [%], …`).
    #[must_use]
    pub fn of_header(line: &str) -> Self {
        let l = Layout::from_header(line.split(',').map(str::as_bytes));
        Self {
            index: l.index,
            util: l.util,
            mem_used: l.mem_used,
            mem_total: l.mem_total,
            sm_clock: l.sm_clock,
            mask: l.mask,
        }
    }
}

/// The header name without surrounding spaces and without a `[unit]` suffix.
fn base_name(raw: &[u8]) -> &[u8] {
    let cut = raw.iter().position(|&b| b == b'[').unwrap_or(raw.len());
    raw[..cut].trim_ascii()
}

/// AMD's names for the same fields: `amd-smi metric --csv` (with `--watch`, a `timestamp` column
/// of epoch seconds; ROCm/amdsmi `amdsmi_cli` metric output: `gpu`, `gfx_activity` %,
/// `socket_power` W, `hotspot` °C, `used_vram`/`total_vram` MB, `throttle_status`, and with
/// `--throttle` the `*_violation_status` columns of MI300 and later) and `rocm-smi --csv`
/// (`device` `card0`…, `GPU use (%)`, `… Graphics Package Power (W)`, `Temperature (Sensor
/// junction) (C)`, `VRAM Total Memory (B)`/`VRAM Total Used Memory (B)`, `Card Series`), with
/// the timestamp the documented capture loop prepends. The edge sensor is left out: MI300X has
/// none, and the hotspot is what limits the clocks.
fn classify_amd(lower: &[u8]) -> Option<Col> {
    Some(match lower {
        b"gpu" => Col::Index,
        b"device" => Col::Uuid,
        b"card series" | b"card model" | b"card sku" => Col::Name,
        b"gfx_activity" | b"gpu use (%)" => Col::Util,
        b"used_vram" => Col::MemUsed,
        b"total_vram" => Col::MemTotal,
        b"vram total used memory (b)" => Col::MemUsedBytes,
        b"vram total memory (b)" => Col::MemTotalBytes,
        b"hotspot" | b"temperature (sensor junction) (c)" => Col::Temp,
        b"socket_power" => Col::Power(0),
        b"current socket graphics package power (w)" | b"average graphics package power (w)" => Col::Power(1),
        b"throttle_status" | b"prochot_violation_status" => Col::Reason(ThrottleReason::HwSlowdown),
        b"ppt_violation_status" => Col::Reason(ThrottleReason::SwPowerCap),
        b"socket_thermal_violation_status" | b"vr_thermal_violation_status" | b"hbm_thermal_violation_status" => {
            Col::Reason(ThrottleReason::HwThermalSlowdown)
        }
        _ => return None,
    })
}

fn classify(name: &[u8]) -> Option<Col> {
    let lower = name.to_ascii_lowercase();
    if let Some(col) = classify_amd(&lower) {
        return Some(col);
    }
    let col = match lower.as_slice() {
        b"timestamp" => Col::Timestamp,
        b"index" => Col::Index,
        b"name" | b"gpu_name" => Col::Name,
        b"utilization.gpu" => Col::Util,
        b"memory.used" => Col::MemUsed,
        b"memory.total" => Col::MemTotal,
        b"clocks.sm" | b"clocks.current.sm" => Col::SmClock,
        b"temperature.gpu" => Col::Temp,
        b"power.draw" => Col::Power(0),
        b"power.draw.instant" => Col::Power(1),
        b"power.draw.average" => Col::Power(2),
        b"driver_version" => Col::Driver,
        b"mig.mode.current" => Col::Mig,
        b"uuid" | b"gpu_uuid" => Col::Uuid,
        b"pci.bus_id" | b"gpu_bus_id" => Col::BusId,
        other => return classify_reason(other),
    };
    Some(col)
}

fn classify_reason(name: &[u8]) -> Option<Col> {
    let suffix = name
        .strip_prefix(b"clocks_event_reasons.")
        .or_else(|| name.strip_prefix(b"clocks_throttle_reasons."))?;
    match suffix {
        b"active" => Some(Col::ReasonMask),
        b"supported" => Some(Col::Unused),
        _ => ThrottleReason::ALL
            .into_iter()
            .find(|r| r.smi_name().as_bytes() == suffix)
            .map(Col::Reason),
    }
}

#[cfg(test)]
mod probe_query_tests {
    use super::*;

    #[test]
    fn the_probe_asks_for_every_field_the_parser_reads_and_nothing_else() {
        let l = Layout::from_header(PROBE_QUERY_COLUMNS.split(',').map(str::as_bytes));
        assert!(l.unknown.is_empty(), "{:?}", l.unknown);
        let read = [
            l.timestamp,
            l.index,
            l.name,
            l.util,
            l.mem_used,
            l.mem_total,
            l.sm_clock,
            l.temp,
            l.power,
            l.driver,
            l.mig,
            l.identity,
            l.mask,
        ];
        assert!(read.iter().all(Option::is_some), "{l:?}");
        assert_eq!(
            PROBE_QUERY_COLUMNS.split(',').count(),
            read.len(),
            "one column per field"
        );
    }
}

#[cfg(test)]
mod columns_tests {
    use super::SmiColumns;

    /// The header `nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,memory.used,
    /// memory.total,clocks.sm,clocks_event_reasons.active --format=csv` prints. Where the facts
    /// come from: nvidia-smi's `--help-query-gpu` documents each field and its unit (MiB for
    /// memory, MHz for clocks, % for utilisation) and `clocks.sm` as the short name of
    /// `clocks.current.sm`; with `--format=csv` (no `nounits`) the header names carry the unit in
    /// brackets after a space and fields are separated by `", "` — the same header as the capture
    /// in `fixtures/smi_units_event.csv`.
    const REAL_HEADER: &str = "timestamp, index, name, utilization.gpu [%], memory.used [MiB], memory.total [MiB], clocks.current.sm [MHz], clocks_event_reasons.active";

    #[test]
    fn a_real_nvidia_smi_header_is_read_by_its_names_and_units() {
        assert_eq!(
            SmiColumns::of_header(REAL_HEADER),
            SmiColumns {
                index: Some(1),
                util: Some(3),
                mem_used: Some(4),
                mem_total: Some(5),
                sm_clock: Some(6),
                mask: Some(7),
            }
        );
    }

    #[test]
    fn nounits_the_older_mask_name_and_another_order_read_alike() {
        let cols = SmiColumns::of_header(
            "memory.total, clocks_throttle_reasons.active, index, clocks.sm, utilization.gpu, memory.used",
        );
        assert_eq!(
            cols,
            SmiColumns {
                index: Some(2),
                util: Some(4),
                mem_used: Some(5),
                mem_total: Some(0),
                sm_clock: Some(3),
                mask: Some(1),
            }
        );
        assert_eq!(SmiColumns::of_header("timestamp, name"), SmiColumns::default());
    }
}
