//! Auto-detection of a run file's format.

use serde_json::Value;

use super::canonical::SCHEMA_PREFIX;
use super::error::ParseError;
use super::format::Format;
use super::{json, smi_header, text};

/// Detects the format of a whole input.
///
/// # Errors
/// [`ParseError::Empty`], [`ParseError::InvalidUtf8`], [`ParseError::Binary`],
/// JSON syntax errors with line/column, [`ParseError::CsvNoHeader`], or
/// [`ParseError::UnrecognizedFormat`].
pub fn detect(bytes: &[u8]) -> Result<Format, ParseError> {
    let text = text::check(bytes)?;
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        let value = json::load(text.as_bytes())?;
        return classify_json(&value).ok_or(unrecognized());
    }
    detect_text(text)
}

/// Classifies text (non-JSON) input.
pub(crate) fn detect_text(text: &str) -> Result<Format, ParseError> {
    if text.contains("MLPerf Results Summary")
        || (text.contains("SUT name") && text.contains("Scenario"))
        || text.trim_start().starts_with(super::mlperf::DETAIL_PREFIX)
    {
        return Ok(Format::Mlperf);
    }
    if super::nccl::sniff(text) {
        return Ok(Format::NcclTests);
    }
    let first = crate::line_endings::numbered_lines(text)
        .map(|(_, l)| l.trim())
        .find(|l| !l.is_empty() && !super::nvidia_smi::is_watch_banner(l.as_bytes()))
        .unwrap_or("");
    match super::dcgm::sniff(first) {
        super::dcgm::Sniffed::Stamped => return Ok(Format::Dcgm),
        super::dcgm::Sniffed::Unstamped => return Err(ParseError::DcgmNoTimestamp),
        super::dcgm::Sniffed::Other => {}
    }
    match smi_header::sniff(first) {
        smi_header::Sniff::Header if smi_header::is_amd(first) => Ok(Format::AmdSmi),
        smi_header::Sniff::Header => Ok(Format::NvidiaSmi),
        smi_header::Sniff::DataRow => Err(ParseError::CsvNoHeader),
        smi_header::Sniff::Other => Err(unrecognized()),
    }
}

/// Classifies a parsed JSON document, if it matches a known shape.
pub(crate) fn classify_json(value: &Value) -> Option<Format> {
    match value {
        Value::Object(map) => {
            if let Some(schema) = map.get("schema") {
                return schema
                    .as_str()
                    .filter(|s| s.starts_with(SCHEMA_PREFIX))
                    .map(|_| Format::Canonical);
            }
            if super::sglang::is_sglang(map) {
                Some(Format::Sglang)
            } else if map.contains_key("request_goodput:") {
                Some(Format::VllmLegacy)
            } else if map.contains_key("output_throughput")
                || map.contains_key("request_throughput")
                || map.contains_key("mean_ttft_ms")
            {
                Some(Format::Vllm)
            } else if is_llama_row(value) {
                Some(Format::LlamaBench)
            } else {
                None
            }
        }
        Value::Array(rows) => match rows.first() {
            Some(Value::Object(first)) if super::sglang::is_sglang(first) => Some(Format::Sglang),
            first => first.filter(|r| is_llama_row(r)).map(|_| Format::LlamaBench),
        },
        _ => None,
    }
}

fn is_llama_row(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.contains_key("avg_ts") || (m.contains_key("n_prompt") && m.contains_key("n_gen")))
}

/// The "matches no known format" error.
pub(crate) const fn unrecognized() -> ParseError {
    ParseError::UnrecognizedFormat { supported: Format::ALL }
}
