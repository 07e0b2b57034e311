//! Vendors' original quote documents: `POST /quotes/{id}/documents` (a plain multipart form, so
//! it works without scripts) and `GET /documents/{id}` (served as a download, never rendered).

use app::{
    domain::{
        documents::{MAX_DOCUMENT_BYTES, content_disposition, detect_kind, safe_file_name, sha256_of},
        roles::Capability,
    },
    store::{self, documents::DocumentForCreate},
    views::Caller,
};
use axum::{
    Extension,
    extract::{Multipart, Path, State},
    response::{IntoResponse, Redirect, Response},
};
use http::{HeaderValue, StatusCode, header};

/// Why an upload was refused, as the `doc_error` code the quote page explains.
fn back(quote_id: i64, revision: i64, error: Option<&str>) -> Response {
    let mut to = format!("/quotes/{quote_id}?rev={revision}");
    if let Some(code) = error {
        to.push_str("&doc_error=");
        to.push_str(code);
    }
    to.push_str("#documents");
    Redirect::to(&to).into_response()
}

/// Attaches an uploaded document to a revision of one of the caller's team's quotes.
pub async fn upload(
    State(db): State<store::Db>,
    caller: Option<Extension<Caller>>,
    Path(quote_id): Path<i64>,
    mut form: Multipart,
) -> Response {
    let Some(Extension(caller)) = caller else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    let Some(team) = caller
        .active_membership()
        .filter(|_| caller.may(Capability::EditProcurement))
    else {
        return StatusCode::FORBIDDEN.into_response();
    };
    let mut revision: Option<i64> = None;
    let mut file: Option<(String, Vec<u8>)> = None;
    loop {
        match form.next_field().await {
            Ok(Some(field)) => match field.name() {
                Some("revision") => revision = field.text().await.ok().and_then(|t| t.trim().parse().ok()),
                Some("file") => {
                    let name = safe_file_name(field.file_name().unwrap_or(""));
                    match field.bytes().await {
                        Ok(bytes) => file = Some((name, bytes.to_vec())),
                        Err(_) => return StatusCode::PAYLOAD_TOO_LARGE.into_response(),
                    }
                }
                _ => {}
            },
            Ok(None) => break,
            Err(_) => return StatusCode::BAD_REQUEST.into_response(),
        }
    }
    let history = match store::quotes::revisions(&db, team.team_id, quote_id).await {
        Ok(h) => h,
        Err(e) => {
            tracing::error!(error = %e, "cannot read revisions");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    // The revision asked for (an unknown one is not found), else the latest.
    let rev = match revision {
        Some(n) => history.iter().find(|r| r.revision == n),
        None => history.first(),
    };
    let Some(rev) = rev else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Some((name, bytes)) = file.filter(|(_, b)| !b.is_empty()) else {
        return back(quote_id, rev.revision, Some("empty"));
    };
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return back(quote_id, rev.revision, Some("too_large"));
    }
    let Some(kind) = detect_kind(&bytes) else {
        return back(quote_id, rev.revision, Some("kind"));
    };
    let sha = sha256_of(&bytes);
    let doc = DocumentForCreate {
        revision_id: rev.id,
        file_name: &name,
        content_type: kind.content_type(),
        sha256: &sha,
        bytes: &bytes,
        created_by: caller.user_id,
    };
    let stored = async {
        let mut tx = store::begin_write(&db).await?;
        let id = store::documents::insert(&mut tx, team.team_id, &doc).await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(id)
    }
    .await;
    match stored {
        Ok(Some(_)) => back(quote_id, rev.revision, None),
        Ok(None) => back(quote_id, rev.revision, Some("duplicate")),
        Err(e) => {
            tracing::error!(error = %e, "cannot store document");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// Sends one of the caller's team's documents as a download with its detected type.
pub async fn download(State(db): State<store::Db>, caller: Option<Extension<Caller>>, Path(id): Path<i64>) -> Response {
    let Some(Extension(caller)) = caller else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    let Some(team) = caller.active_membership() else {
        return StatusCode::FORBIDDEN.into_response();
    };
    match store::documents::get(&db, team.team_id, id).await {
        Ok(Some((name, content_type, bytes))) => {
            let mut res = bytes.into_response();
            let h = res.headers_mut();
            if let Ok(v) = HeaderValue::from_str(&content_type) {
                h.insert(header::CONTENT_TYPE, v);
            }
            if let Ok(v) = HeaderValue::from_str(&content_disposition(&name)) {
                h.insert(header::CONTENT_DISPOSITION, v);
            }
            // Replaces the page policy: nothing in a document may run, load or be framed.
            h.insert(
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("default-src 'none'; sandbox; frame-ancestors 'none'"),
            );
            res
        }
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot read document");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}
