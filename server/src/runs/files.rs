//! A run's files as uploaded (`GET /runs/{id}/files/{file}`), streamed chunk by chunk, and its
//! telemetry chart (`GET /runs/{id}/telemetry.svg`).

use app::{
    domain::{documents::content_disposition, roles::Capability},
    model::Caller,
    store,
};
use axum::{
    Extension,
    body::Body,
    extract::{Path, State},
    response::{IntoResponse, Response},
};
use http::{HeaderValue, StatusCode, header};

/// Streams one file of one of the team's runs as a download.
pub async fn download(State(db): State<store::Db>, caller: Option<Extension<Caller>>, Path((run_id, file_id)): Path<(i64, i64)>) -> Response {
    let Some(Extension(caller)) = caller else { return StatusCode::UNAUTHORIZED.into_response() };
    let Some(team) = caller.active_membership().filter(|_| caller.may(Capability::ReadTeamData)) else {
        return StatusCode::FORBIDDEN.into_response();
    };
    let team_id = team.team_id;
    let file = match store::runs::get(&db, team_id, run_id).await {
        Ok(Some((_, _, _, files))) => files.into_iter().find(|f| f.id == file_id),
        Ok(None) => None,
        Err(e) => {
            tracing::error!(error = %e, "cannot read a run");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let Some(file) = file else { return StatusCode::NOT_FOUND.into_response() };
    let chunks = futures_util::stream::unfold(0i64, move |seq| {
        let db = db.clone();
        async move {
            match store::runs::chunk(&db, team_id, file_id, seq).await {
                Ok(Some(bytes)) => Some((Ok::<_, std::io::Error>(bytes), seq + 1)),
                Ok(None) => None,
                Err(e) => {
                    tracing::error!(error = %e, "cannot read a run file chunk");
                    Some((Err(std::io::Error::other("database error")), i64::MAX))
                }
            }
        }
    });
    let mut res = Body::from_stream(chunks).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/octet-stream"));
    if let Ok(v) = HeaderValue::from_str(&file.size.to_string()) {
        h.insert(header::CONTENT_LENGTH, v);
    }
    if let Ok(v) = HeaderValue::from_str(&content_disposition(&file.file_name)) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("default-src 'none'; sandbox; frame-ancestors 'none'"));
    res
}
