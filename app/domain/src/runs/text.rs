//! Byte-level sanity checks shared by every parser.

use super::error::ParseError;

/// Strips a UTF-8 byte-order mark.
pub(crate) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// Checks that `bytes` is non-empty UTF-8 text without binary control bytes.
///
/// Reports whichever problem comes first (offsets are into `bytes`, after BOM).
pub(crate) fn check(bytes: &[u8]) -> Result<&str, ParseError> {
    let bytes = strip_bom(bytes);
    let valid_to = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    if let Some(offset) = bytes[..valid_to].iter().position(|&b| is_binary(b)) {
        return Err(ParseError::Binary { offset });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| ParseError::InvalidUtf8 {
        offset: e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Err(ParseError::Empty);
    }
    Ok(text)
}

/// Control bytes that never occur in our text formats.
const fn is_binary(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F)
}
