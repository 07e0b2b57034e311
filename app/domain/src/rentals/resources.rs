//! The vendor's ids of what a rental holds (instances, disks, addresses), typed one per line,
//! as a bill's `ResourceId` column names them.

use serde::{Deserialize, Serialize};

/// At most this many resources per rental.
pub const MAX_RESOURCES: usize = 100;

/// Longest resource id, in characters (the table's check).
const MAX_ID_CHARS: usize = 200;

/// What is wrong with the resource list; lines count from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "problem")]
pub enum ResourceError {
    /// No id at all.
    Empty,
    /// More than [`MAX_RESOURCES`] ids.
    TooMany,
    /// Line `line` is longer than 200 characters.
    TooLong {
        /// The line.
        line: usize,
    },
    /// Line `line` holds a space or a control character inside the id.
    Whitespace {
        /// The line.
        line: usize,
    },
    /// Line `line` repeats an earlier line's id.
    Duplicate {
        /// The line.
        line: usize,
    },
}

/// The ids of `text`, one per line (surrounding spaces trimmed, empty lines skipped), in order.
///
/// # Errors
/// The first problem found, naming its line.
pub fn parse_resources(text: &str) -> Result<Vec<String>, ResourceError> {
    let mut ids: Vec<String> = Vec::new();
    for (line, raw) in crate::line_endings::numbered_lines(text) {
        let id = raw.trim();
        if id.is_empty() {
            continue;
        }
        if id.chars().count() > MAX_ID_CHARS {
            return Err(ResourceError::TooLong { line });
        }
        if id.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(ResourceError::Whitespace { line });
        }
        if ids.iter().any(|x| x == id) {
            return Err(ResourceError::Duplicate { line });
        }
        ids.push(id.to_string());
        if ids.len() > MAX_RESOURCES {
            return Err(ResourceError::TooMany);
        }
    }
    if ids.is_empty() {
        return Err(ResourceError::Empty);
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::{ResourceError, parse_resources};

    #[test]
    fn one_id_per_line_trimmed_in_order() {
        assert_eq!(
            parse_resources("i-0abc\r\n\n  vol-9 \nip-1").ok(),
            Some(vec!["i-0abc".to_string(), "vol-9".into(), "ip-1".into()])
        );
        assert_eq!(parse_resources(" \n "), Err(ResourceError::Empty));
        assert_eq!(
            parse_resources("i-1\nvol 2"),
            Err(ResourceError::Whitespace { line: 2 })
        );
        assert_eq!(parse_resources("i-1\n\ni-1"), Err(ResourceError::Duplicate { line: 3 }));
        assert_eq!(
            parse_resources(&"x".repeat(201)),
            Err(ResourceError::TooLong { line: 1 })
        );
        let many: Vec<String> = (0..101).map(|i| format!("i-{i}")).collect();
        assert_eq!(parse_resources(&many.join("\n")), Err(ResourceError::TooMany));
    }
}
