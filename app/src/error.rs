//! The one error type that crosses from server to browser.
//!
//! It carries no internal detail: the server logs the cause and sends a variant that the
//! browser can show as a helpful message in the user's language ([`AppError::message`]).

use crate::i18n::Msg;
use serde::{Deserialize, Serialize};
use server_fn::{
    codec::JsonEncoding,
    error::{FromServerFnError, ServerFnErrorErr},
};

/// What went wrong, as the user may see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "error", content = "detail", rename_all = "snake_case")]
pub enum AppError {
    /// Not signed in, or the session ended.
    #[error("not signed in")]
    Unauthenticated,
    /// Signed in, but the role or team does not allow this.
    #[error("forbidden")]
    Forbidden,
    /// No such record in the caller's team.
    #[error("not found")]
    NotFound,
    /// E-mail or password wrong (never says which).
    #[error("wrong e-mail or password")]
    BadCredentials,
    /// Refused for a reason the user can act on (e.g. the account is disabled).
    #[error("refused: {}", .0.key())]
    Refused(Msg),
    /// Too many failed password attempts (account or address); retry after this many minutes.
    #[error("too many attempts, retry in {0} min")]
    Throttled(u32),
    /// Too many passwords being hashed at once; retry after this many seconds.
    #[error("busy, retry in {0} s")]
    Busy(u32),
    /// Every planner is at work; retry after this many seconds.
    #[error("planners busy, retry in {0} s")]
    PlannersBusy(u32),
    /// The caller already has as many comparisons computed as one may; retry after this many
    /// seconds.
    #[error("own comparisons busy, retry in {0} s")]
    OwnComparisonsBusy(u32),
    /// A vendor's link, or its address, sent more requests than a person filling a bid does;
    /// retry after this many seconds.
    #[error("too many bid requests, retry in {0} s")]
    BidsTooFast(u32),
    /// A bid arrived after its request's close, at this moment (Unix seconds): not received.
    #[error("bids closed at {0}")]
    BidsClosed(i64),
    /// A new password is too easy to guess: why, then advice.
    #[error("weak password: {}", .reason.key())]
    WeakPassword { reason: Msg, suggestions: Vec<Msg> },
    /// The input is invalid; the message says which field and why.
    #[error("invalid input: {}", .0.key())]
    Invalid(Msg),
    /// Some fields of a form are invalid: every problem, each naming its field, so the page can
    /// show each message next to its input.
    #[error("invalid fields: {}", .0.iter().map(|i| i.field.as_str()).collect::<Vec<_>>().join(", "))]
    InvalidFields(Vec<FieldIssue>),
    /// The input conflicts with existing data (a duplicate, a state that moved on).
    #[error("conflict: {}", .0.key())]
    Conflict(Msg),
    /// An uploaded file could not be read: a `run_error.{code}` message with its arguments
    /// (line, column, supported formats…).
    #[error("unreadable file: {code}")]
    Unreadable {
        /// The parse error's code, e.g. `truncated_json`.
        code: String,
        /// Values for the message's placeholders.
        args: Vec<(String, String)>,
    },
    /// The same files were already saved as this run.
    #[error("already uploaded as run {0}")]
    DuplicateRun(i64),
    /// Some of the files belong to this run, which cannot take the others
    /// (`services::runs::placement`).
    #[error("part of run {0}")]
    PartOfRun(i64),
    /// Something failed on the server; details are in the server log.
    #[error("internal error")]
    Internal,
    /// The request did not reach the server or its answer could not be read.
    #[error("request failed: {0}")]
    Transport(String),
}

impl AppError {
    /// HTTP status for this error.
    pub fn status_code(&self) -> u16 {
        match self {
            AppError::Unauthenticated | AppError::BadCredentials => 401,
            AppError::Forbidden | AppError::Refused(_) | AppError::BidsClosed(_) => 403,
            AppError::NotFound => 404,
            AppError::Conflict(_) | AppError::DuplicateRun(_) | AppError::PartOfRun(_) => 409,
            AppError::Invalid(_) | AppError::InvalidFields(_) | AppError::Unreadable { .. } => 422,
            AppError::WeakPassword { .. } => 422,
            AppError::Throttled(_) | AppError::OwnComparisonsBusy(_) | AppError::BidsTooFast(_) => 429,
            AppError::Internal => 500,
            AppError::Busy(_) | AppError::PlannersBusy(_) => 503,
            AppError::Transport(_) => 502,
        }
    }

    /// The message to show the user.
    pub fn message(&self) -> Msg {
        match self {
            AppError::Unauthenticated => Msg::ErrorUnauthenticated,
            AppError::Forbidden => Msg::ErrorForbidden,
            AppError::NotFound => Msg::ErrorNotFound,
            AppError::BadCredentials => Msg::LoginFailed,
            AppError::Throttled(_) => Msg::LoginThrottled,
            AppError::Busy(_) => Msg::ThrottleBusy,
            AppError::PlannersBusy(_) => Msg::PlanBusy,
            AppError::OwnComparisonsBusy(_) => Msg::TcoOwnBusy,
            AppError::BidsTooFast(_) => Msg::RfqErrTooFast,
            AppError::BidsClosed(_) => Msg::RfqErrLate,
            AppError::WeakPassword { reason, .. } => *reason,
            AppError::Invalid(m) | AppError::Conflict(m) | AppError::Refused(m) => *m,
            AppError::InvalidFields(_) => Msg::FormCheckFields,
            AppError::Unreadable { code, .. } => {
                Msg::from_key(&format!("run_error.{code}")).unwrap_or(Msg::RunErrorUnreadable)
            }
            AppError::DuplicateRun(_) => Msg::RunsDuplicate,
            AppError::PartOfRun(_) => Msg::RunsPartOfRun,
            AppError::Internal => Msg::ErrorInternal,
            AppError::Transport(_) => Msg::ErrorTransport,
        }
    }

    /// This error as read back from a page's address. A form posted without the app's WASM gets
    /// its error back in the address it is sent to (`?__path=…&__err=…`, Leptos' round trip),
    /// and anyone can write such a link to the real page: only what names one of our own messages
    /// is kept. Message keys decode only to known messages; a field issue keeps its field and
    /// code when they look like names and its limit when it looks like a number or an interval
    /// (else it says "not accepted"); a file error keeps a known code with numeric arguments (else
    /// it says "could not be read"); transport text is dropped.
    #[must_use]
    pub fn from_url(self) -> AppError {
        match self {
            AppError::Transport(_) => AppError::Transport(String::new()),
            AppError::Unreadable { code, args }
                if Msg::from_key(&format!("run_error.{code}")).is_some()
                    && args
                        .iter()
                        .all(|(name, value)| looks_like_name(name) && looks_like_limit(value)) =>
            {
                AppError::Unreadable { code, args }
            }
            // Said without the parts that were not ours (rather than with a gap in the sentence).
            AppError::Unreadable { .. } => AppError::Unreadable {
                code: "unreadable".into(),
                args: Vec::new(),
            },
            AppError::InvalidFields(issues) => AppError::InvalidFields(
                issues
                    .into_iter()
                    .filter(|i| looks_like_name(&i.field) && looks_like_name(&i.code))
                    .map(|i| match &i.limit {
                        Some(limit) if !looks_like_limit(limit) => FieldIssue::new(&i.field, "invalid"),
                        _ => i,
                    })
                    .collect(),
            ),
            other => other,
        }
    }

    /// The message in the given language, placeholders filled.
    pub fn localized(&self, locale: crate::i18n::Locale) -> String {
        match self {
            AppError::Throttled(minutes) => locale.fmt(Msg::LoginThrottled, &[("minutes", &minutes.to_string())]),
            AppError::Unreadable { args, .. } => {
                let args: Vec<(&str, &str)> = args.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                locale.fmt(self.message(), &args)
            }
            AppError::DuplicateRun(id) => locale.fmt(Msg::RunsDuplicate, &[("id", &id.to_string())]),
            AppError::BidsClosed(at) => locale.fmt(
                Msg::RfqErrLate,
                &[("close", &crate::domain::bills::timestamp::utc_minute(*at))],
            ),
            AppError::PartOfRun(id) => locale.fmt(Msg::RunsPartOfRun, &[("id", &id.to_string())]),
            AppError::WeakPassword { reason, suggestions } => std::iter::once(reason)
                .chain(suggestions)
                .map(|m| locale.t(*m))
                .collect::<Vec<_>>()
                .join(" "),
            other => locale.t(other.message()).to_string(),
        }
    }
}

impl FromServerFnError for AppError {
    type Encoder = JsonEncoding;

    fn from_server_fn_error(value: ServerFnErrorErr) -> Self {
        match value {
            ServerFnErrorErr::Args(_) | ServerFnErrorErr::MissingArg(_) => AppError::Invalid(Msg::ErrorBadRequest),
            // On the server a body that does not decode is the caller's fault (422), e.g. a JSON
            // number past i64; in the browser it stays a transport fault.
            ServerFnErrorErr::Deserialization(_) if cfg!(feature = "ssr") => AppError::Invalid(Msg::ErrorBadRequest),
            ServerFnErrorErr::ServerError(_) => AppError::Internal,
            other => AppError::Transport(other.to_string()),
        }
    }
}

#[cfg(feature = "ssr")]
impl From<sqlx::Error> for AppError {
    fn from(e: sqlx::Error) -> Self {
        tracing::error!(error = %e, "database error");
        AppError::Internal
    }
}

/// How raw routes answer an error: the status it stands for and the body a server function
/// sends for it (`{"error": …, "detail": …}`), so a script reads both kinds of answer alike.
#[cfg(feature = "ssr")]
impl axum::response::IntoResponse for AppError {
    fn into_response(self) -> axum::response::Response {
        Localized::body_of(self.status(), &self, None)
    }
}

#[cfg(feature = "ssr")]
impl AppError {
    /// [`AppError::status_code`] as an HTTP status (500 for a code HTTP does not know).
    pub fn status(&self) -> http::StatusCode {
        http::StatusCode::from_u16(self.status_code()).unwrap_or(http::StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// This error answered in `locale` with the status it stands for.
    pub fn in_language(self, locale: crate::i18n::Locale) -> Localized {
        Localized {
            status: self.status(),
            error: self,
            locale,
        }
    }
}

/// An error answered to someone who reads it — the browser's run upload, the scripts' API, a
/// download link opened by hand: the server-function body plus `message`, the text in the
/// caller's language.
#[cfg(feature = "ssr")]
#[derive(Clone, Debug)]
pub struct Localized {
    /// Usually [`AppError::status`]; an upload cut by the body limit answers 413, an unreadable
    /// form 400.
    pub status: http::StatusCode,
    /// What went wrong.
    pub error: AppError,
    /// The language of `message`.
    pub locale: crate::i18n::Locale,
}

#[cfg(feature = "ssr")]
impl Localized {
    /// `error` in `locale`, answered with `status` instead of the one the error stands for.
    pub fn with_status(status: http::StatusCode, error: AppError, locale: crate::i18n::Locale) -> Self {
        Localized { status, error, locale }
    }

    /// The one place an error becomes a JSON answer: the serialised error, plus `message` when
    /// a language is given.
    fn body_of(
        status: http::StatusCode,
        error: &AppError,
        locale: Option<crate::i18n::Locale>,
    ) -> axum::response::Response {
        use axum::response::IntoResponse;
        let mut body = serde_json::to_value(error).unwrap_or_else(|_| serde_json::json!({ "error": "internal" }));
        if let (Some(locale), Some(obj)) = (locale, body.as_object_mut()) {
            if let AppError::InvalidFields(issues) = error {
                obj.insert("message".into(), fields_summary(issues, locale).into());
                obj.insert("fields".into(), fields_json(issues, locale));
            } else {
                obj.insert("message".into(), error.localized(locale).into());
            }
        }
        (status, axum::Json(body)).into_response()
    }
}

/// What a reader of an API answer (a script's log, a person at a terminal) is told about
/// rejected fields, naming them: `nodes: Not a whole number in range.` for one,
/// `2 fields need attention: quote, nodes.` for more (each field's own text is in `fields`).
/// A page instead shows each message next to its input ([`Msg::FormCheckFields`]).
#[cfg(feature = "ssr")]
fn fields_summary(issues: &[FieldIssue], locale: crate::i18n::Locale) -> String {
    match issues {
        [] => locale.t(Msg::FieldErrorInvalid).to_string(),
        [one] => locale.fmt(
            Msg::ApiFieldOne,
            &[("field", &one.field), ("message", &one.text(locale))],
        ),
        many => {
            let mut names: Vec<&str> = many.iter().map(|i| i.field.as_str()).collect();
            names.dedup();
            locale.fmt(
                Msg::ApiFieldsMany,
                &[("count", &names.len().to_string()), ("fields", &names.join(", "))],
            )
        }
    }
}

/// Every rejected field as `{field, code, message[, limit]}`, in the order they were found.
#[cfg(feature = "ssr")]
fn fields_json(issues: &[FieldIssue], locale: crate::i18n::Locale) -> serde_json::Value {
    issues
        .iter()
        .map(|i| {
            let mut entry = serde_json::json!({ "field": i.field, "code": i.code, "message": i.text(locale) });
            if let (Some(limit), Some(obj)) = (&i.limit, entry.as_object_mut()) {
                obj.insert("limit".into(), limit.clone().into());
            }
            entry
        })
        .collect()
}

#[cfg(feature = "ssr")]
impl axum::response::IntoResponse for Localized {
    fn into_response(self) -> axum::response::Response {
        Localized::body_of(self.status, &self.error, Some(self.locale))
    }
}

/// One rejected form field: the input's name, the machine code of the problem (as
/// [`crate::domain::quotes::ErrorCode::code`], e.g. `out_of_range`) and the limit the code
/// refers to, if any (a maximum, a length, an interval such as `[15, 25]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FieldIssue {
    /// The field's name in the form, e.g. `headroom_pct`.
    pub field: String,
    /// The machine code, e.g. `required`.
    pub code: String,
    /// The limit named by the message, e.g. `200` or `[15, 25]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
}

impl FieldIssue {
    /// An issue without a limit.
    pub fn new(field: &str, code: &str) -> Self {
        FieldIssue {
            field: field.to_string(),
            code: code.to_string(),
            limit: None,
        }
    }

    /// The issue for `field` refused by the number parser ([`crate::domain::numbers`]).
    pub fn from_number(field: &str, error: crate::domain::numbers::NumberError) -> Self {
        FieldIssue::new(field, error.code())
    }

    /// The message for this issue in `locale`, its limit filled in: the text of
    /// `field_error.{code}`, else the quote form's wording (`qerr.{code}`, the codes of
    /// [`crate::domain::quotes::ErrorCode`]), else a generic "not accepted".
    pub fn text(&self, locale: crate::i18n::Locale) -> String {
        let msg = match self.code.as_str() {
            "invalid_currency_code" => Some(Msg::QerrInvalidCurrency),
            code => Msg::from_key(&format!("field_error.{code}")).or_else(|| Msg::from_key(&format!("qerr.{code}"))),
        };
        let limit = self.limit.as_deref().unwrap_or_default();
        locale.fmt(
            msg.unwrap_or(Msg::FieldErrorInvalid),
            &[("max", limit), ("max_chars", limit), ("allowed", limit)],
        )
    }

    /// The issue for `field` rejected with a quote-domain `code` (its limit carried along).
    pub fn from_code(field: &str, code: &crate::domain::quotes::ErrorCode) -> Self {
        use crate::domain::quotes::ErrorCode;
        let limit = match code {
            ErrorCode::TooLarge { max } => Some(max.normalize().to_string()),
            ErrorCode::TooLong { max_chars } => Some(max_chars.to_string()),
            ErrorCode::OutOfRange { allowed } => Some((*allowed).to_string()),
            _ => None,
        };
        FieldIssue {
            field: field.to_string(),
            code: code.code().to_string(),
            limit,
        }
    }
}

impl From<crate::domain::quotes::FieldError> for FieldIssue {
    fn from(e: crate::domain::quotes::FieldError) -> Self {
        FieldIssue::from_code(e.field, &e.code)
    }
}

impl AppError {
    /// A 422 listing every rejected field.
    pub fn fields(errors: impl IntoIterator<Item = impl Into<FieldIssue>>) -> Self {
        AppError::InvalidFields(errors.into_iter().map(Into::into).collect())
    }
}

/// An unreadable run file: the parser's code and the values its message needs.
impl From<&crate::domain::runs::ParseError> for AppError {
    fn from(e: &crate::domain::runs::ParseError) -> Self {
        use crate::domain::runs::ParseError as P;
        let arg = |k: &str, v: String| (k.to_string(), v);
        let args = match e {
            P::Empty | P::CsvNoTimestamp | P::AmdNoTimestamp | P::DcgmNoTimestamp | P::CsvNoHeader => vec![],
            P::InvalidUtf8 { offset } | P::Binary { offset } => vec![arg("offset", offset.to_string())],
            P::TooDeep { max } => vec![arg("max", max.to_string())],
            P::TooManyValues { max } => vec![arg(
                "max",
                crate::domain::money::group(rust_decimal::Decimal::from(*max), 0),
            )],
            P::TruncatedJson { line, column }
            | P::MalformedJson { line, column }
            | P::InvalidCanonical { line, column } => {
                vec![arg("line", line.to_string()), arg("column", column.to_string())]
            }
            P::UnrecognizedFormat { supported } => {
                vec![arg(
                    "formats",
                    supported.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", "),
                )]
            }
            P::FormatMismatch { expected } => vec![arg("format", expected.as_str().to_string())],
            P::NoData { format } => vec![arg("format", format.as_str().to_string())],
            P::UnknownSchemaVersion { found, expected } => {
                vec![arg("found", found.clone()), arg("expected", (*expected).to_string())]
            }
            P::CsvFieldCount { line, expected, found } => {
                vec![
                    arg("line", line.to_string()),
                    arg("expected", expected.to_string()),
                    arg("found", found.to_string()),
                ]
            }
            P::CsvBadValue { line, column } => vec![arg("line", line.to_string()), arg("column", column.clone())],
            P::TooManyGpus { line, limit } => vec![arg("line", line.to_string()), arg("limit", limit.to_string())],
            P::Io { line } => vec![arg("line", line.to_string())],
        };
        AppError::Unreadable {
            code: e.code().to_string(),
            args,
        }
    }
}

/// Result of a server function or service.
pub type AppResult<T> = Result<T, AppError>;

/// A form field's name or a machine code as the server writes them (`headroom_pct`,
/// `fields[spec.gpu_model]`, `out_of_range`).
fn looks_like_name(s: &str) -> bool {
    !s.is_empty() && s.len() <= 64 && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"_.-[]".contains(&b))
}

/// A limit or a file error's argument as the server writes them: a number (`200`, `28.5`) or an
/// interval (`[15, 25]`, `(0, 1)`).
fn looks_like_limit(s: &str) -> bool {
    !s.is_empty() && s.len() <= 32 && s.bytes().all(|b| b.is_ascii_digit() || b".,-[]() ".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_read_from_an_address_keeps_our_codes_and_drops_any_other_text() {
        use crate::i18n::Locale;
        let bait = "Your session expired. Call +1 555 0100 to unlock your account";
        let crafted = [
            AppError::Transport(bait.into()),
            AppError::Unreadable {
                code: "truncated_json".into(),
                args: vec![("line".into(), bait.into()), ("column".into(), "7".into())],
            },
            AppError::Unreadable {
                code: bait.into(),
                args: vec![],
            },
            AppError::InvalidFields(vec![
                FieldIssue {
                    field: "headroom_pct".into(),
                    code: "out_of_range".into(),
                    limit: Some(bait.into()),
                },
                FieldIssue::new(bait, "required"),
                FieldIssue::new("name", bait),
            ]),
        ];
        for error in crafted {
            let shown = error.clone().from_url();
            for locale in Locale::ALL {
                let text = shown.localized(locale);
                assert!(!text.contains("555"), "{error:?} → {text}");
            }
            if let AppError::InvalidFields(issues) = &shown {
                assert_eq!(issues.len(), 1, "only the issue with our names: {issues:?}");
                assert_eq!((issues[0].code.as_str(), &issues[0].limit), ("invalid", &None));
                assert!(!issues[0].text(Locale::En).contains("555"));
            }
        }
        // What the server itself puts in the address comes back whole.
        let ours = [
            AppError::BadCredentials,
            AppError::Throttled(15),
            AppError::Invalid(Msg::PasswordMismatch),
            AppError::InvalidFields(vec![FieldIssue {
                field: "fields[spec.sharing]".into(),
                code: "out_of_range".into(),
                limit: Some("(0, 1)".into()),
            }]),
            AppError::Unreadable {
                code: "too_large".into(),
                args: vec![("mb".into(), "64".into())],
            },
        ];
        for error in ours {
            assert_eq!(error.clone().from_url(), error);
        }
    }

    #[test]
    fn round_trips_as_json() {
        for e in [
            AppError::Forbidden,
            AppError::Throttled(15),
            AppError::Invalid(Msg::PasswordTooShort),
            AppError::Transport("x".into()),
            AppError::InvalidFields(vec![FieldIssue {
                field: "headroom_pct".into(),
                code: "out_of_range".into(),
                limit: Some("[15, 25]".into()),
            }]),
        ] {
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(serde_json::from_str::<AppError>(&json).unwrap(), e, "{json}");
        }
        assert_eq!(
            serde_json::to_string(&AppError::Invalid(Msg::PasswordTooShort)).unwrap(),
            r#"{"error":"invalid","detail":"password.too_short"}"#
        );
    }

    #[test]
    fn statuses_are_client_errors_except_internal() {
        assert_eq!(AppError::Forbidden.status_code(), 403);
        assert_eq!(AppError::Invalid(Msg::ErrorBadRequest).status_code(), 422);
        assert_eq!(AppError::InvalidFields(Vec::new()).status_code(), 422);
        assert_eq!(AppError::Throttled(1).status_code(), 429);
        assert_eq!(AppError::Internal.status_code(), 500);
        assert_eq!(AppError::Busy(2).status_code(), 503);
    }

    #[cfg(feature = "ssr")]
    async fn answer(res: impl axum::response::IntoResponse) -> (u16, String) {
        let res = res.into_response();
        let status = res.status().as_u16();
        let bytes = axum::body::to_bytes(res.into_body(), 4096).await.unwrap();
        (status, String::from_utf8(bytes.to_vec()).unwrap())
    }

    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn raw_routes_answer_the_server_function_body() {
        assert_eq!(
            answer(AppError::NotFound).await,
            (404, r#"{"error":"not_found"}"#.to_string())
        );
        let (status, body) = answer(AppError::Conflict(Msg::ErrorBadRequest)).await;
        assert_eq!(status, 409);
        assert_eq!(
            serde_json::from_str::<AppError>(&body).unwrap(),
            AppError::Conflict(Msg::ErrorBadRequest),
            "the browser's decoder reads it back: {body}"
        );
    }

    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn localized_answers_add_the_message_and_may_keep_another_status() {
        use crate::i18n::Locale;
        let (status, body) = answer(AppError::Forbidden.in_language(Locale::En)).await;
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(status, 403);
        assert_eq!(body["error"], "forbidden");
        assert_eq!(body["message"], Locale::En.t(Msg::ErrorForbidden));
        let cut = Localized::with_status(http::StatusCode::PAYLOAD_TOO_LARGE, AppError::Internal, Locale::ZhCn);
        let (status, body) = answer(cut).await;
        let body: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(status, 413);
        assert_eq!(body["message"], Locale::ZhCn.t(Msg::ErrorInternal));
    }

    #[cfg(feature = "ssr")]
    #[tokio::test]
    async fn api_answers_name_every_rejected_field_in_words() {
        use crate::i18n::Locale;
        let two = AppError::InvalidFields(vec![
            FieldIssue::new("quote", "invalid_number"),
            FieldIssue::from_code(
                "nodes",
                &crate::domain::quotes::ErrorCode::TooLarge { max: 1024.into() },
            ),
        ]);
        let (status, body) = answer(two.clone().in_language(Locale::En)).await;
        assert_eq!(status, 422);
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(json["error"], "invalid_fields");
        let message = json["message"].as_str().unwrap();
        assert!(
            message.starts_with("2 fields need attention: quote, nodes."),
            "{message}"
        );
        assert!(!body.contains("next to"), "no pointer to a page: {body}");
        assert_eq!(json["fields"][0]["field"], "quote");
        assert_eq!(json["fields"][0]["code"], "invalid_number");
        assert_eq!(json["fields"][0]["message"], Locale::En.t(Msg::FieldErrorInvalidNumber));
        assert_eq!(json["fields"][1]["limit"], "1024");
        assert!(json["fields"][1]["message"].as_str().unwrap().contains("1024"));
        assert_eq!(
            serde_json::from_str::<AppError>(&body).unwrap(),
            two,
            "the browser still reads it"
        );
        let one = AppError::InvalidFields(vec![FieldIssue::new("rate", "mixed_separators")]);
        let (_, body) = answer(one.in_language(Locale::ZhCn)).await;
        let json: serde_json::Value = serde_json::from_str(&body).unwrap();
        let zh = Locale::ZhCn.t(Msg::FieldErrorMixedSeparators);
        assert_eq!(json["message"], format!("rate：{zh}"));
        assert_eq!(json["fields"][0]["message"], zh);
    }
}
