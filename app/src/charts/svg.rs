//! Post-processing of the SVG text plotters writes, and text measuring.

/// Escapes `&`, `<`, `>`, `"` and `'` for XML text and attribute values.
pub(super) fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

/// Marks the root `<svg>` as an image and inserts `<title>` (escaped) as its
/// first child, for screen readers and tooltips.
///
/// plotters itself escapes the text of `<text>` elements and attribute values.
pub(super) fn finish(svg: String, title: &str) -> String {
    let Some(end) = svg.find('>') else {
        return svg;
    };
    let (head, rest) = svg.split_at(end + 1);
    let head = head.replacen("<svg ", "<svg role=\"img\" ", 1);
    format!("{head}\n<title>{}</title>{rest}", escape_xml(title))
}

/// Rough rendered width in pixels of `text` at `font_px`: wide (CJK) characters
/// count one em, others 0.6 em. plotters' own estimate counts UTF-8 bytes, which
/// triples the width of Chinese labels.
pub(super) fn text_width(text: &str, font_px: u32) -> u32 {
    let ems: f64 = text.chars().map(|c| if is_wide(c) { 1.0 } else { 0.6 }).sum();
    // Rounded, non-negative and far below u32::MAX for any label.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a small positive width"
    )]
    let px = (ems * f64::from(font_px)).ceil() as u32;
    px
}

/// Cuts `text` with an ellipsis so that [`text_width`] is at most `max_px`.
pub(super) fn truncate_to(text: &str, font_px: u32, max_px: u32) -> String {
    if text_width(text, font_px) <= max_px {
        return text.to_owned();
    }
    let mut out = String::new();
    for c in text.chars() {
        out.push(c);
        if text_width(&out, font_px) + text_width("…", font_px) > max_px {
            out.pop();
            break;
        }
    }
    out.push('…');
    out
}

fn is_wide(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{115F}'
        | '\u{2E80}'..='\u{A4CF}'
        | '\u{AC00}'..='\u{D7A3}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FE30}'..='\u{FE4F}'
        | '\u{FF00}'..='\u{FF60}'
        | '\u{FFE0}'..='\u{FFE6}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape_xml(r#"<a href="x">&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;"
        );
    }

    #[test]
    fn finish_inserts_title_after_root() {
        let svg = "<svg width=\"1\">\n<rect/>\n</svg>\n".to_owned();
        let out = finish(svg, "a<b");
        assert!(out.starts_with("<svg role=\"img\" width=\"1\">\n<title>a&lt;b</title>\n<rect/>"));
    }

    #[test]
    fn chinese_is_wider_than_latin() {
        assert_eq!(text_width("ab", 10), 12);
        assert_eq!(text_width("利用", 10), 20);
    }

    #[test]
    fn truncation_keeps_within_width() {
        let t = truncate_to("a very long quote label indeed", 10, 60);
        assert!(t.ends_with('…'));
        assert!(text_width(&t, 10) <= 60, "{t}");
        assert_eq!(truncate_to("short", 10, 60), "short");
    }
}
