//! Reading canonical `nodeledger.run/v1` JSON.

use serde_json::Value;
use serde_json::error::Category;

use super::canonical::{CanonicalRun, SCHEMA_V1, TOP_LEVEL_FIELDS};
use super::error::ParseError;
use super::format::Format;
use super::json;

/// Parses a canonical run. `value` is the already-parsed document, `bytes`
/// its source (re-read for typed errors with line and column).
pub(crate) fn parse(bytes: &[u8], value: Value) -> Result<CanonicalRun, ParseError> {
    let Value::Object(obj) = value else {
        return Err(ParseError::FormatMismatch {
            expected: Format::Canonical,
        });
    };
    match obj.get("schema").and_then(Value::as_str) {
        Some(SCHEMA_V1) => {}
        Some(other) => {
            return Err(ParseError::UnknownSchemaVersion {
                found: other.chars().take(100).collect(),
                expected: SCHEMA_V1,
            });
        }
        None => {
            return Err(ParseError::FormatMismatch {
                expected: Format::Canonical,
            });
        }
    }
    let mut run: CanonicalRun = serde_json::from_slice(super::text::strip_bom(bytes)).map_err(|e| {
        if e.classify() == Category::Data {
            ParseError::InvalidCanonical {
                line: e.line(),
                column: e.column(),
            }
        } else {
            json::map_error(&e)
        }
    })?;
    for (key, v) in obj {
        if !TOP_LEVEL_FIELDS.contains(&key.as_str()) {
            run.extra.entry(key).or_insert(v);
        }
    }
    Ok(run)
}
