//! Canonical JSON: one exact byte string per JSON value (rules in the module docs).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why a value has no canonical form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CanonicalError {
    /// A number is not an integer in the `i64` or `u64` range (floats are rejected).
    #[error("number at {path:?} is not an integer in the i64/u64 range")]
    NonInteger {
        /// JSON Pointer (RFC 6901) to the number; `""` for the root.
        path: String,
    },
}

/// The canonical JSON text of `value`.
///
/// # Errors
/// [`CanonicalError::NonInteger`] if any number is not an `i64`/`u64` integer.
pub fn canonical_json(value: &Value) -> Result<String, CanonicalError> {
    let mut out = String::new();
    write_value(value, &mut out, &mut Vec::new())?;
    Ok(out)
}

/// One step of the path to the current value, kept only to report errors.
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn write_value<'a>(value: &'a Value, out: &mut String, path: &mut Vec<Step<'a>>) -> Result<(), CanonicalError> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (None, Some(u)) => out.push_str(&u.to_string()),
            (None, None) => {
                return Err(CanonicalError::NonInteger { path: pointer(path) });
            }
        },
        Value::String(s) => write_str(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                path.push(Step::Index(i));
                write_value(item, out, path)?;
                path.pop();
            }
            out.push(']');
        }
        Value::Object(map) => {
            // Sort explicitly: serde_json's `preserve_order` feature may be on elsewhere.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_str(key, out);
                out.push(':');
                path.push(Step::Key(key));
                write_value(item, out, path)?;
                path.pop();
            }
            out.push('}');
        }
    }
    Ok(())
}

/// Writes `s` as a JSON string exactly as `serde_json` and Python's
/// `json.dumps(..., ensure_ascii=False)` do.
pub(super) fn write_str(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if u32::from(c) < 0x20 => {
                let b = u32::from(c) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[b >> 4]));
                out.push(char::from(HEX[b & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn pointer(path: &[Step<'_>]) -> String {
    let mut p = String::new();
    for step in path {
        p.push('/');
        match step {
            Step::Key(k) => p.push_str(&k.replace('~', "~0").replace('/', "~1")),
            Step::Index(i) => p.push_str(&i.to_string()),
        }
    }
    p
}
