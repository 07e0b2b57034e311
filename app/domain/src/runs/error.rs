//! Parse errors: machine-readable codes with structured data. `Display` is
//! for logs and the CLI only; the UI translates from [`ParseError::code`].

use serde::Serialize;
use thiserror::Error;

use super::format::Format;

/// Why an input could not be turned into a canonical run.
#[derive(Debug, Clone, PartialEq, Eq, Error, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ParseError {
    /// The input is empty or only whitespace.
    #[error("empty input")]
    Empty,
    /// The input is not valid UTF-8 starting at this byte offset.
    #[error("invalid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// Byte offset of the first invalid byte.
        offset: usize,
    },
    /// The input contains a control byte typical of binary data.
    #[error("binary data at byte {offset}")]
    Binary {
        /// Byte offset of the first offending byte.
        offset: usize,
    },
    /// The JSON ends before it is complete.
    #[error("truncated JSON at line {line}, column {column}")]
    TruncatedJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// The JSON holds more values than a result may ([`super::json::MAX_VALUES`]): telemetry
    /// belongs in an nvidia-smi CSV, which is streamed.
    #[error("more than {max} JSON values")]
    TooManyValues {
        /// The most values a result may hold.
        max: usize,
    },
    /// The JSON is syntactically invalid.
    #[error("malformed JSON at line {line}, column {column}")]
    MalformedJson {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// The JSON nests arrays and objects deeper than the reader follows (it may be valid JSON).
    #[error("JSON nested deeper than {max} levels")]
    TooDeep {
        /// The deepest nesting read.
        max: usize,
    },
    /// Well-formed JSON or text that matches no supported format.
    #[error("unrecognised format; supported: {}", list(supported))]
    UnrecognizedFormat {
        /// Every format this module can read.
        supported: &'static [Format],
    },
    /// A forced format does not fit the input's shape.
    #[error("input does not have the shape of {expected}")]
    FormatMismatch {
        /// The format the caller forced.
        expected: Format,
    },
    /// The input has the right shape but no usable figures.
    #[error("no data in {format} input")]
    NoData {
        /// The format being parsed.
        format: Format,
    },
    /// A canonical file names a schema version we do not know.
    #[error("unknown schema version {found:?}, expected {expected:?}")]
    UnknownSchemaVersion {
        /// The `schema` value found.
        found: String,
        /// The version this build reads.
        expected: &'static str,
    },
    /// A canonical file has a field of the wrong type or a missing field.
    #[error("invalid canonical run at line {line}, column {column}")]
    InvalidCanonical {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A CSV header lacks the `timestamp` column.
    #[error("CSV has no timestamp column")]
    CsvNoTimestamp,
    /// AMD telemetry (`rocm-smi --csv`, or `amd-smi metric --csv` without `--watch`) without the
    /// timestamp each sample needs.
    #[error("AMD telemetry CSV has no timestamp column")]
    AmdNoTimestamp,
    /// `dcgmi dmon` output as dmon prints it: no time on any sample (stamp each line with the
    /// loop in the README).
    #[error("dcgmi dmon output has no timestamps")]
    DcgmNoTimestamp,
    /// The CSV starts with data instead of a header (`--format=csv,noheader`).
    #[error("CSV has no header line")]
    CsvNoHeader,
    /// A CSV row has a different number of fields than the header.
    #[error("CSV line {line}: {found} fields, expected {expected}")]
    CsvFieldCount {
        /// 1-based line number.
        line: u64,
        /// Fields in the header.
        expected: usize,
        /// Fields in this row.
        found: usize,
    },
    /// A CSV value could not be read (e.g. an unparseable timestamp).
    #[error("CSV line {line}: bad value in column {column:?}")]
    CsvBadValue {
        /// 1-based line number.
        line: u64,
        /// Header name of the column.
        column: String,
    },
    /// More distinct GPUs than the telemetry parser keeps.
    #[error("CSV line {line}: more than {limit} GPUs")]
    TooManyGpus {
        /// 1-based line number.
        line: u64,
        /// The limit.
        limit: usize,
    },
    /// The underlying reader failed.
    #[error("read error near line {line}")]
    Io {
        /// 1-based line number reached.
        line: u64,
    },
}

impl ParseError {
    /// Stable snake_case code, identical to the serialized `code` tag.
    #[must_use]
    pub const fn code(&self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::InvalidUtf8 { .. } => "invalid_utf8",
            Self::Binary { .. } => "binary",
            Self::TruncatedJson { .. } => "truncated_json",
            Self::TooManyValues { .. } => "too_many_values",
            Self::MalformedJson { .. } => "malformed_json",
            Self::TooDeep { .. } => "too_deep",
            Self::UnrecognizedFormat { .. } => "unrecognized_format",
            Self::FormatMismatch { .. } => "format_mismatch",
            Self::NoData { .. } => "no_data",
            Self::UnknownSchemaVersion { .. } => "unknown_schema_version",
            Self::InvalidCanonical { .. } => "invalid_canonical",
            Self::CsvNoTimestamp => "csv_no_timestamp",
            Self::AmdNoTimestamp => "amd_no_timestamp",
            Self::DcgmNoTimestamp => "dcgm_no_timestamp",
            Self::CsvNoHeader => "csv_no_header",
            Self::CsvFieldCount { .. } => "csv_field_count",
            Self::CsvBadValue { .. } => "csv_bad_value",
            Self::TooManyGpus { .. } => "too_many_gpus",
            Self::Io { .. } => "io",
        }
    }
}

fn list(formats: &[Format]) -> String {
    formats.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ")
}
