//! The vendor's original quote document (PDF or image): what kinds are accepted, judged by
//! content rather than by the name or the browser's claim, and safe file names.

/// Largest document accepted, bytes (10 MiB).
pub const MAX_DOCUMENT_BYTES: usize = 10 * 1024 * 1024;

/// An accepted document kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocumentKind {
    /// PDF.
    Pdf,
    /// PNG image.
    Png,
    /// JPEG image.
    Jpeg,
    /// WebP image.
    Webp,
}

impl DocumentKind {
    /// The content type it is stored and served with.
    pub const fn content_type(self) -> &'static str {
        match self {
            DocumentKind::Pdf => "application/pdf",
            DocumentKind::Png => "image/png",
            DocumentKind::Jpeg => "image/jpeg",
            DocumentKind::Webp => "image/webp",
        }
    }
}

/// The kind of `bytes`, from their leading magic bytes; `None` for anything else (HTML, SVG,
/// scripts and archives are refused whatever their name says).
pub fn detect_kind(bytes: &[u8]) -> Option<DocumentKind> {
    if bytes.starts_with(b"%PDF-") {
        Some(DocumentKind::Pdf)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(DocumentKind::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(DocumentKind::Jpeg)
    } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some(DocumentKind::Webp)
    } else {
        None
    }
}

/// A file name safe to store and to send back: no folders, no control characters, no quotes
/// or backslashes, at most 120 characters; `document` when nothing is left.
pub fn safe_file_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let cleaned: String = base
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '"' | '\\' | ';'))
        .take(120)
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').to_string();
    if cleaned.is_empty() {
        "document".to_string()
    } else {
        cleaned
    }
}

/// `Content-Disposition` for downloading a document under its stored name (RFC 6266: an ASCII
/// fallback and the UTF-8 name).
pub fn content_disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { '_' })
        .collect();
    let encoded: String = name
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_content_not_names() {
        assert_eq!(detect_kind(b"%PDF-1.7\n..."), Some(DocumentKind::Pdf));
        assert_eq!(detect_kind(b"\x89PNG\r\n\x1a\n...."), Some(DocumentKind::Png));
        assert_eq!(detect_kind(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(DocumentKind::Jpeg));
        assert_eq!(detect_kind(b"RIFF\x10\x00\x00\x00WEBPVP8 "), Some(DocumentKind::Webp));
        assert_eq!(detect_kind(b"<html><script>alert(1)</script>"), None);
        assert_eq!(detect_kind(b"<svg xmlns="), None);
        assert_eq!(detect_kind(b""), None);
        assert_eq!(DocumentKind::Pdf.content_type(), "application/pdf");
    }

    #[test]
    fn names_are_made_safe() {
        assert_eq!(safe_file_name("../../etc/passwd"), "passwd");
        assert_eq!(safe_file_name("C:\\\\quotes\\\\报价单 2026.pdf"), "报价单 2026.pdf");
        assert_eq!(safe_file_name("a\"b;c\n.pdf"), "abc.pdf");
        assert_eq!(safe_file_name(".hidden"), "hidden");
        assert_eq!(safe_file_name("  "), "document");
        assert_eq!(safe_file_name(&"x".repeat(500)).chars().count(), 120);
    }

    #[test]
    fn disposition_has_ascii_fallback_and_utf8_name() {
        let d = content_disposition("报价.pdf");
        assert!(
            d.starts_with("attachment; filename=\"__.pdf\"; filename*=UTF-8''%E6%8A%A5%E4%BB%B7.pdf"),
            "{d}"
        );
    }
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_of(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod hash_tests {
    #[test]
    fn sha256_matches_a_known_vector() {
        assert_eq!(
            super::sha256_of(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
