//! Server-side wording of quote errors and values, in the request's language.

use crate::{
    domain::quotes::{ErrorCode, ImportError, SkipReason},
    i18n::{Locale, Msg},
};

/// The label of a quote field (a column of the CSV format), e.g. `spec.vram_gib`.
pub fn column_label(locale: Locale, column: &str) -> String {
    Msg::from_key(&format!("qf.{}", column.trim().to_lowercase()))
        .map_or_else(|| column.to_string(), |m| locale.t(m).to_string())
}

/// Why a field was rejected.
pub fn field_error(locale: Locale, code: &ErrorCode) -> String {
    let key = format!("qerr.{}", code.code());
    let Some(msg) = Msg::from_key(&key) else {
        return code.code().to_string();
    };
    match code {
        ErrorCode::TooLarge { max } => locale.fmt(msg, &[("max", &max.to_string())]),
        ErrorCode::TooLong { max_chars } => locale.fmt(msg, &[("max_chars", &max_chars.to_string())]),
        ErrorCode::OutOfRange { allowed } => locale.fmt(msg, &[("allowed", allowed)]),
        ErrorCode::InvalidGpuInfo { offset } => locale.fmt(msg, &[("offset", &offset.to_string())]),
        ErrorCode::Duplicate { first_line } => locale.fmt(msg, &[("first_line", &first_line.to_string())]),
        ErrorCode::FieldCount { expected, found } => locale.fmt(
            msg,
            &[("expected", &expected.to_string()), ("found", &found.to_string())],
        ),
        _ => locale.t(msg).to_string(),
    }
}

/// Human size: "2 MB", "512 KB".
pub fn size(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!("{} MB", bytes / (1024 * 1024))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}

/// Why a whole file was refused.
pub fn import_error(locale: Locale, e: &ImportError) -> String {
    match e {
        ImportError::Empty => locale.t(Msg::QimpEmptyFile).to_string(),
        ImportError::TooLarge { limit_bytes } => locale.fmt(Msg::QimpTooLarge, &[("limit", &size(*limit_bytes))]),
        ImportError::BadUtf8 { byte_offset } => locale.fmt(Msg::QimpBadUtf8, &[("offset", &byte_offset.to_string())]),
        ImportError::WrongDelimiter { found } => {
            let shown = if *found == '\t' {
                "Tab".to_string()
            } else {
                found.to_string()
            };
            locale.fmt(Msg::QimpWrongDelimiter, &[("found", &shown)])
        }
        ImportError::MissingColumns { columns } => {
            locale.fmt(Msg::QimpMissingColumns, &[("columns", &columns.join(", "))])
        }
        ImportError::DuplicateColumn { column } => locale.fmt(Msg::QimpDuplicateColumn, &[("column", column)]),
        ImportError::UnknownFormat => locale.t(Msg::QimpUnknownFormat).to_string(),
        ImportError::TooManyRows { limit } => locale.fmt(Msg::QimpTooManyRows, &[("limit", &limit.to_string())]),
    }
}

/// Why a row was skipped.
pub fn skip_reason(locale: Locale, reason: SkipReason) -> String {
    locale
        .t(match reason {
            SkipReason::NoAccelerator => Msg::QimpNoAccelerator,
            SkipReason::NotOfferedOnDemand => Msg::QimpNotOfferedOnDemand,
            SkipReason::Blank => Msg::QimpBlank,
        })
        .to_string()
}

#[cfg(test)]
mod tests {
    use crate::{
        domain::quotes::{ImportError, MAX_ROWS},
        i18n::Locale,
    };

    #[test]
    fn a_catalog_past_the_row_cap_is_refused_naming_the_cap_in_both_languages() {
        for locale in [Locale::En, Locale::ZhCn] {
            let text = super::import_error(locale, &ImportError::TooManyRows { limit: MAX_ROWS });
            assert!(text.contains("50000"), "{text}");
        }
    }
}
