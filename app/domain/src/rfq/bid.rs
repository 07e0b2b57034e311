//! A submitted bid as it is kept, hashed and turned into a quote: a versioned record of plain
//! values (every version ever written reads through [`BidRecord::decode`]).

use crate::audit::canonical_json;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// One written answer to one of the request's questions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WrittenAnswer {
    /// The checklist item the question comes from (`env.software`), or empty for a question
    /// procurement added.
    pub item: String,
    /// The question as the vendor read it.
    pub question: String,
    /// The vendor's answer, as written.
    pub answer: String,
}

/// A bid as submitted, version 1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidRecord {
    /// The request it answers.
    pub request_id: i64,
    /// The vendor's name in the team's vendor list.
    pub vendor: String,
    /// 1 for the first submission, then one more per revision.
    pub revision: i64,
    /// When it was submitted, RFC 3339 UTC.
    pub submitted_at: String,
    /// The quote's fields by column name (NodeLedger's CSV columns), as the vendor typed them.
    pub fields: BTreeMap<String, String>,
    /// The written answers, in the request's order.
    pub answers: Vec<WrittenAnswer>,
    /// The attachments it was submitted with (a PDF price sheet), by name and content.
    #[serde(default)]
    pub files: Vec<BidFile>,
}

/// An attachment of a submitted bid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidFile {
    /// The file name as uploaded (made safe).
    pub name: String,
    /// SHA-256 of its bytes, lowercase hex.
    pub sha256: String,
}

/// The stored form: the record with its version.
#[derive(Serialize, Deserialize)]
struct Stored<'a> {
    version: u32,
    #[serde(flatten)]
    record: std::borrow::Cow<'a, BidRecord>,
}

/// Why a stored bid does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BidDecodeError {
    /// Not JSON of any known shape.
    #[error("unreadable bid: {0}")]
    Unreadable(String),
    /// A version this build does not know.
    #[error("unknown bid version {0}")]
    UnknownVersion(u64),
}

impl BidRecord {
    /// The current version written by [`BidRecord::encode`].
    pub const VERSION: u32 = 1;

    /// The stored JSON: canonical (sorted keys, no spaces), with the version.
    #[must_use]
    pub fn encode(&self) -> String {
        let stored = Stored {
            version: Self::VERSION,
            record: std::borrow::Cow::Borrowed(self),
        };
        // A record of strings and integers always has a canonical form.
        serde_json::to_value(&stored)
            .ok()
            .and_then(|v| canonical_json(&v).ok())
            .unwrap_or_default()
    }

    /// Reads a stored bid of any version ever written.
    ///
    /// # Errors
    /// [`BidDecodeError`] when it is not a bid this build can read.
    pub fn decode(text: &str) -> Result<BidRecord, BidDecodeError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| BidDecodeError::Unreadable(e.to_string()))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(1) => serde_json::from_value::<Stored<'static>>(value)
                .map(|s| s.record.into_owned())
                .map_err(|e| BidDecodeError::Unreadable(e.to_string())),
            Some(v) => Err(BidDecodeError::UnknownVersion(v)),
            None => Err(BidDecodeError::Unreadable("no version".into())),
        }
    }

    /// The receipt: SHA-256 of the stored JSON, lowercase hex. The same bid always gives the
    /// same receipt; any change to a field, an answer, the time or the revision changes it.
    #[must_use]
    pub fn receipt(&self) -> String {
        hex::encode(Sha256::digest(self.encode().as_bytes()))
    }
}

/// The answers to `questions` from what was typed (`answers[i]` answers `questions[i]`):
/// trimmed, blank ones left out, each cut to [`super::MAX_ANSWER_CHARS`].
#[must_use]
pub fn answers_to(questions: &[(String, String)], typed: &BTreeMap<usize, String>) -> Vec<WrittenAnswer> {
    questions
        .iter()
        .enumerate()
        .filter_map(|(i, (item, question))| {
            let answer = typed.get(&i)?.trim();
            (!answer.is_empty()).then(|| WrittenAnswer {
                item: item.clone(),
                question: question.clone(),
                answer: answer.chars().take(super::MAX_ANSWER_CHARS).collect(),
            })
        })
        .collect()
}
