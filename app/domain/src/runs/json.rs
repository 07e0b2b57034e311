//! JSON loading with error positions, JSON Lines and Python's non-finite
//! literals (`NaN`, `Infinity`), which `json.dump` writes and serde rejects.
//!
//! The tree is bounded: at most [`MAX_VALUES`] values (numbers, strings, booleans, nulls,
//! arrays and objects alike) are built; one more refuses the file ([`ParseError::TooManyValues`])
//! before it takes more memory. A 64 MB file of `[0,0,0,…]` once became a tree of 32 million
//! values (≈ 1 GB); results are kilobytes — a vLLM `--save-detailed` result of 4,000 requests
//! holds about a million — and telemetry is read as CSV, streamed.

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Deserializer, Map, Number, Value};
use std::cell::Cell;

use super::error::ParseError;

/// Most values one JSON result may hold.
pub const MAX_VALUES: usize = 2_000_000;

/// What is left of the value budget of one load.
struct Budget {
    left: Cell<usize>,
    spent: Cell<bool>,
}

/// Builds one value, counting it against the budget.
#[derive(Clone, Copy)]
struct Bounded<'b>(&'b Budget);

impl Bounded<'_> {
    fn take<E: serde::de::Error>(self) -> Result<(), E> {
        match self.0.left.get().checked_sub(1) {
            Some(left) => {
                self.0.left.set(left);
                Ok(())
            }
            None => {
                self.0.spent.set(true);
                Err(E::custom("too many values"))
            }
        }
    }
}

impl<'de> DeserializeSeed<'de> for Bounded<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        self.take()?;
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Value, E> {
        self.take()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Value, E> {
        self.take()?;
        Ok(Value::String(v))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.take()?;
        Ok(Value::Null)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.visit_none()
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.take()?;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(self)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.take()?;
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self)?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

/// The deepest nesting serde_json reads (its recursion limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// Parses one JSON document, or several (JSON Lines) into an array.
pub(crate) fn load(bytes: &[u8]) -> Result<Value, ParseError> {
    let too_many = ParseError::TooManyValues { max: MAX_VALUES };
    match read_values(bytes) {
        Ok(v) => Ok(v),
        Err(Spent) => Err(too_many),
        Err(Syntax(e)) => match sanitize_non_finite(bytes).map(|clean| read_values(&clean)) {
            Some(Ok(v)) => Ok(v),
            Some(Err(Spent)) => Err(too_many),
            _ => Err(map_error(&e)),
        },
    }
}

/// Why [`read_values`] failed.
enum ReadError {
    /// More than [`MAX_VALUES`] values.
    Spent,
    /// Not JSON (or JSON Lines).
    Syntax(serde_json::Error),
}
use ReadError::{Spent, Syntax};

/// Maps a serde_json syntax error to a positioned [`ParseError`].
pub(crate) fn map_error(e: &serde_json::Error) -> ParseError {
    let (line, column) = (e.line(), e.column());
    // serde_json stops at 128 levels of nesting: the text may well be valid JSON.
    if e.to_string().starts_with("recursion limit exceeded") {
        return ParseError::TooDeep { max: MAX_DEPTH };
    }
    if e.is_eof() {
        ParseError::TruncatedJson { line, column }
    } else {
        ParseError::MalformedJson { line, column }
    }
}

/// One document, or the documents of JSON Lines as an array, within [`MAX_VALUES`] in all.
fn read_values(bytes: &[u8]) -> Result<Value, ReadError> {
    let budget = Budget {
        left: Cell::new(MAX_VALUES),
        spent: Cell::new(false),
    };
    let failed = |e: serde_json::Error| if budget.spent.get() { Spent } else { Syntax(e) };
    let mut de = Deserializer::from_slice(bytes);
    let mut values = Vec::new();
    // Until only white space is left: the next document of JSON Lines, or the syntax error.
    while de.end().is_err() {
        values.push(Bounded(&budget).deserialize(&mut de).map_err(failed)?);
    }
    Ok(if values.len() == 1 {
        values.pop().unwrap_or(Value::Null)
    } else {
        Value::Array(values)
    })
}

/// Replaces `NaN`, `Infinity` and `-Infinity` outside strings with the strings `"NaN"`,
/// `"Infinity"` and `"-Infinity"`: never a number, and kept, so that the sanity rules can name
/// the figure ([`super::judge::sanity`]).
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
            out.push(b'"');
            out.extend_from_slice(tok);
            out.push(b'"');
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

#[cfg(test)]
mod bounded_tests {
    use super::*;

    /// `[0,0,…]` past the budget is refused, at the budget it reads, and the budget counts
    /// every value of JSON Lines together.
    #[test]
    fn a_document_past_the_value_budget_is_refused_before_it_grows() {
        let zeros = |n: usize| {
            let mut text = String::from("[0");
            text.push_str(&",0".repeat(n - 1));
            text.push(']');
            text
        };
        // The array itself is a value too.
        let at = load(zeros(MAX_VALUES - 1).as_bytes()).expect("within the budget");
        assert_eq!(at.as_array().map(Vec::len), Some(MAX_VALUES - 1));
        assert_eq!(
            load(zeros(MAX_VALUES).as_bytes()),
            Err(ParseError::TooManyValues { max: MAX_VALUES })
        );
        let lines = format!("{}\n{}\n", zeros(MAX_VALUES / 2), zeros(MAX_VALUES / 2));
        assert_eq!(
            load(lines.as_bytes()),
            Err(ParseError::TooManyValues { max: MAX_VALUES })
        );
        // Python's NaN is still read (the sanitised copy has the same budget).
        let v = load(br#"{"a": NaN, "b": [1, 2], "c": -Infinity, "d": "NaN is kept in text"}"#).expect("NaN read");
        assert_eq!(
            v["a"], "NaN",
            "kept as text, never a number, for the sanity rules to name"
        );
        assert_eq!(v["c"], "-Infinity");
        assert_eq!(v["d"], "NaN is kept in text");
        assert_eq!(v["b"][1], 2);
        assert!(matches!(load(b"{\"a\": "), Err(ParseError::TruncatedJson { .. })));
        // 200,000 nested arrays are valid JSON, only deeper than the reader follows.
        let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
        assert_eq!(load(deep.as_bytes()), Err(ParseError::TooDeep { max: MAX_DEPTH }));
    }
}
