//! A vendor's attachments to its bid: `POST /bid/{link}/files` (a plain multipart form: the
//! vendor's page has no scripts) and `POST /bid/{link}/files/{id}/delete`. The link is the
//! vendor's capability ([`app::services::rfq::vendor`]); each request counts against its limits.

use crate::{listed::Listed, state::ServerState};
use app::{
    auth::throttle::ClientAddr,
    domain::documents::safe_file_name,
    error::AppError,
    services::rfq::{limits::BidLimits, vendor},
    store,
};
use axum::{
    Extension,
    extract::{FromRef, Multipart, Path, State},
    response::{IntoResponse, Redirect, Response},
    routing::post,
};
use http::StatusCode;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/bid/{link}/files", post(upload))
        .route("/bid/{link}/files/{id}/delete", post(remove))
}

impl FromRef<ServerState> for BidLimits {
    fn from_ref(state: &ServerState) -> Self {
        state.bid_limits.clone()
    }
}

/// Back to the vendor's page, at its attachments, with the refusal's code if any.
fn back(link: &str, error: Option<&str>) -> Response {
    let query = error.map(|code| format!("?file_error={code}")).unwrap_or_default();
    Redirect::to(&format!("/bid/{link}{query}#files")).into_response()
}

/// A refusal of the link itself: as the page answers it (404 never says why, 429 says when).
fn refused(e: &AppError) -> Response {
    let status = StatusCode::from_u16(e.status_code()).unwrap_or(StatusCode::NOT_FOUND);
    let mut res = status.into_response();
    if let Some(secs) = app::auth::throttle::retry_after_secs(e)
        && let Ok(v) = http::HeaderValue::from_str(&secs.to_string())
    {
        res.headers_mut().insert(http::header::RETRY_AFTER, v);
    }
    res
}

/// The file of the form: its safe name and bytes (413 when the body limit cut it).
async fn read_file(form: &mut Multipart) -> Result<Option<(String, Vec<u8>)>, StatusCode> {
    let mut file = None;
    while let Some(field) = form.next_field().await.map_err(|_| StatusCode::BAD_REQUEST)? {
        if field.name() == Some("file") {
            let name = safe_file_name(field.file_name().unwrap_or(""));
            let bytes = field.bytes().await.map_err(|_| StatusCode::PAYLOAD_TOO_LARGE)?;
            file = Some((name, bytes.to_vec()));
        }
    }
    Ok(file)
}

/// Attaches a PDF to the vendor's bid.
async fn upload(
    State(db): State<store::Db>,
    State(limits): State<BidLimits>,
    addr: Option<Extension<ClientAddr>>,
    Path(link): Path<String>,
    mut form: Multipart,
) -> Response {
    let now = app::clock::now_unix();
    if let Err(e) = limits.hit(&link, addr.map(|a| a.0.0), now) {
        return refused(&e);
    }
    let file = match read_file(&mut form).await {
        Ok(file) => file,
        Err(status) => return status.into_response(),
    };
    let (name, bytes) = file.unwrap_or_default();
    match vendor::attach(&db, &link, &name, &bytes, now).await {
        Ok(Ok(())) => back(&link, None),
        Ok(Err(why)) => back(&link, Some(why.code())),
        Err(e) => refused(&e),
    }
}

/// Removes one of the vendor's attachments.
async fn remove(
    State(db): State<store::Db>,
    State(limits): State<BidLimits>,
    addr: Option<Extension<ClientAddr>>,
    Path((link, id)): Path<(String, i64)>,
) -> Response {
    let now = app::clock::now_unix();
    if let Err(e) = limits.hit(&link, addr.map(|a| a.0.0), now) {
        return refused(&e);
    }
    match vendor::detach(&db, &link, id, now).await {
        Ok(()) => back(&link, None),
        Err(e) => refused(&e),
    }
}
