//! Vendors' original quote documents: `POST /quotes/{id}/documents` (a plain multipart form, so
//! it works without scripts) and `GET /documents/{id}` (served as a download, never rendered).

use crate::access::{EditProcurement, ReadTeamData, TeamAccess};
use crate::listed::Listed;
use app::{
    domain::documents::{
        DocumentKind, MAX_DOCUMENT_BYTES, content_disposition, detect_kind, safe_file_name, sha256_of,
    },
    store::{self, documents::DocumentForCreate, quotes::RevisionInfo},
};
use axum::{
    extract::{Multipart, Path, State},
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
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

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/quotes/{id}/documents", post(upload))
        .route("/documents/{id}", get(download))
}

/// What the upload form sent: the revision asked for and the file (name made safe, bytes).
struct DocumentForm {
    revision: Option<i64>,
    file: Option<(String, Vec<u8>)>,
}

/// Reads the form: 413 when a file is cut by the body limit, 400 for a broken form.
async fn read_form(form: &mut Multipart) -> Result<DocumentForm, StatusCode> {
    let mut read = DocumentForm {
        revision: None,
        file: None,
    };
    while let Some(field) = form.next_field().await.map_err(|_| StatusCode::BAD_REQUEST)? {
        match field.name() {
            Some("revision") => read.revision = field.text().await.ok().and_then(|t| t.trim().parse().ok()),
            Some("file") => {
                let name = safe_file_name(field.file_name().unwrap_or(""));
                let bytes = field.bytes().await.map_err(|_| StatusCode::PAYLOAD_TOO_LARGE)?;
                read.file = Some((name, bytes.to_vec()));
            }
            _ => {}
        }
    }
    Ok(read)
}

/// The revision a document is attached to: the one asked for (an unknown one is not found,
/// never quietly another), else the latest.
fn chosen_revision(history: &[RevisionInfo], asked: Option<i64>) -> Option<&RevisionInfo> {
    match asked {
        Some(n) => history.iter().find(|r| r.revision == n),
        None => history.first(),
    }
}

/// The file with its detected kind, or why it is refused before anything is stored: the
/// `doc_error` code the quote page explains (`empty`, `too_large`, `kind`).
fn checked_file(file: Option<&(String, Vec<u8>)>) -> Result<(&str, &[u8], DocumentKind), &'static str> {
    let Some((name, bytes)) = file.filter(|(_, b)| !b.is_empty()) else {
        return Err("empty");
    };
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err("too_large");
    }
    let kind = detect_kind(bytes).ok_or("kind")?;
    Ok((name, bytes, kind))
}

/// Attaches an uploaded document to a revision of one of the caller's team's quotes.
pub async fn upload(
    State(db): State<store::Db>,
    access: TeamAccess<EditProcurement>,
    Path(quote_id): Path<i64>,
    mut form: Multipart,
) -> Response {
    let read = match read_form(&mut form).await {
        Ok(read) => read,
        Err(status) => return status.into_response(),
    };
    let history = match store::quotes::revisions(&db, access.team_id(), quote_id).await {
        Ok(h) => h,
        Err(e) => {
            tracing::error!(error = %e, "cannot read revisions");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let Some(rev) = chosen_revision(&history, read.revision) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let (name, bytes, kind) = match checked_file(read.file.as_ref()) {
        Ok(checked) => checked,
        Err(code) => return back(quote_id, rev.revision, Some(code)),
    };
    let sha = sha256_of(bytes);
    let doc = DocumentForCreate {
        revision_id: rev.id,
        file_name: name,
        content_type: kind.content_type(),
        sha256: &sha,
        bytes,
        created_by: access.caller.user_id,
    };
    match store_document(&db, access.team_id(), &doc).await {
        Ok(Some(_)) => back(quote_id, rev.revision, None),
        Ok(None) => back(quote_id, rev.revision, Some("duplicate")),
        Err(e) => {
            tracing::error!(error = %e, "cannot store document");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// Stores the document in one transaction; `None` when the revision already holds these bytes.
async fn store_document(db: &store::Db, team_id: i64, doc: &DocumentForCreate<'_>) -> Result<Option<i64>, sqlx::Error> {
    let mut tx = store::begin_write(db).await?;
    let id = store::documents::insert(&mut tx, team_id, doc).await?;
    tx.commit().await?;
    Ok(id)
}

/// Sends one of the caller's team's documents as a download with its detected type.
pub async fn download(State(db): State<store::Db>, access: TeamAccess<ReadTeamData>, Path(id): Path<i64>) -> Response {
    match store::documents::get(&db, access.team_id(), id).await {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn revision(id: i64, revision: i64) -> RevisionInfo {
        RevisionInfo {
            id,
            revision,
            created_at: String::new(),
            created_by: None,
        }
    }

    #[test]
    fn the_revision_asked_for_else_the_latest_never_another() {
        let history = [revision(12, 2), revision(11, 1)];
        assert_eq!(chosen_revision(&history, None).map(|r| r.id), Some(12));
        assert_eq!(chosen_revision(&history, Some(1)).map(|r| r.id), Some(11));
        assert_eq!(chosen_revision(&history, Some(9)).map(|r| r.id), None);
        assert_eq!(chosen_revision(&[], None).map(|r| r.id), None);
    }

    #[test]
    fn files_are_refused_by_size_and_content_not_name() {
        let pdf = ("q.pdf".to_string(), b"%PDF-1.7\n%%EOF\n".to_vec());
        let (name, bytes, kind) = checked_file(Some(&pdf)).unwrap();
        assert_eq!(
            (name, bytes.len(), kind.content_type()),
            ("q.pdf", 15, "application/pdf")
        );
        assert_eq!(checked_file(None).unwrap_err(), "empty");
        assert_eq!(checked_file(Some(&("e.pdf".into(), Vec::new()))).unwrap_err(), "empty");
        let html = (
            "evil.pdf".to_string(),
            b"<html><script>alert(1)</script></html>".to_vec(),
        );
        assert_eq!(checked_file(Some(&html)).unwrap_err(), "kind");
        let big = ("big.pdf".to_string(), vec![b'%'; MAX_DOCUMENT_BYTES + 1]);
        assert_eq!(checked_file(Some(&big)).unwrap_err(), "too_large");
    }
}
