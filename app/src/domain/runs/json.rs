//! JSON loading with error positions, JSON Lines and Python's non-finite
//! literals (`NaN`, `Infinity`), which `json.dump` writes and serde rejects.

use serde_json::{Deserializer, Value};

use super::error::ParseError;

/// Parses one JSON document, or several (JSON Lines) into an array.
pub(crate) fn load(bytes: &[u8]) -> Result<Value, ParseError> {
    match read_values(bytes) {
        Ok(v) => Ok(v),
        Err(e) => {
            if let Some(clean) = sanitize_non_finite(bytes)
                && let Ok(v) = read_values(&clean)
            {
                return Ok(v);
            }
            Err(map_error(&e))
        }
    }
}

/// Maps a serde_json syntax error to a positioned [`ParseError`].
pub(crate) fn map_error(e: &serde_json::Error) -> ParseError {
    let (line, column) = (e.line(), e.column());
    if e.is_eof() {
        ParseError::TruncatedJson { line, column }
    } else {
        ParseError::MalformedJson { line, column }
    }
}

fn read_values(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    let mut values = Vec::new();
    for v in Deserializer::from_slice(bytes).into_iter::<Value>() {
        values.push(v?);
    }
    Ok(if values.len() == 1 {
        values.pop().unwrap_or(Value::Null)
    } else {
        Value::Array(values)
    })
}

/// Replaces `NaN`, `Infinity` and `-Infinity` outside strings with `null`.
/// Returns `None` when there is nothing to replace.
fn sanitize_non_finite(bytes: &[u8]) -> Option<Vec<u8>> {
    const TOKENS: [&[u8]; 3] = [b"-Infinity", b"Infinity", b"NaN"];
    let mut out = Vec::with_capacity(bytes.len());
    let (mut in_string, mut escaped, mut changed) = (false, false, false);
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if let Some(tok) = TOKENS.iter().find(|t| bytes[i..].starts_with(t)) {
            out.extend_from_slice(b"null");
            i += tok.len();
            changed = true;
            continue;
        }
        out.push(b);
        i += 1;
    }
    changed.then_some(out)
}

/// Helpers for reading loosely typed JSON objects.
pub(crate) trait ObjExt {
    /// A finite number at `key`.
    fn f64_at(&self, key: &str) -> Option<f64>;
    /// A non-negative integer at `key` (floats with no fraction accepted).
    fn u64_at(&self, key: &str) -> Option<u64>;
    /// A string at `key`.
    fn str_at(&self, key: &str) -> Option<&str>;
}

impl ObjExt for serde_json::Map<String, Value> {
    fn f64_at(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(Value::as_f64).filter(|v| v.is_finite())
    }

    fn u64_at(&self, key: &str) -> Option<u64> {
        let v = self.get(key)?;
        v.as_u64().or_else(|| {
            v.as_f64()
                .filter(|f| f.is_finite() && *f >= 0.0 && f.fract() == 0.0 && *f < 1.8e19)
                .map(|f| f as u64)
        })
    }

    fn str_at(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }
}
