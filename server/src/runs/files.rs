//! A run's files as uploaded (`GET /runs/{id}/files/{file}`), streamed chunk by chunk, and its
//! charts (`GET /runs/{id}/telemetry.svg`, `GET /runs/compare.svg`).

use crate::listed::Listed;
use crate::{
    access::{ReadTeamData, TeamAccess},
    tco::svg,
};
use app::{
    charts::{Bar, TelemetryLabels, telemetry_svg, throughput_bars_svg},
    domain::{documents::content_disposition, runs::CanonicalRun},
    i18n::{Locale, Msg, locale_from_headers},
    store,
};
use axum::{
    body::Body,
    extract::{Path, Query, State},
    response::{IntoResponse, Response},
    routing::get,
};
use http::{HeaderMap, HeaderValue, StatusCode, header};
use serde::Deserialize;

/// The routes of this module.
pub fn router() -> Listed {
    Listed::new()
        .route("/runs/{id}/files/{file}", get(download))
        .route("/runs/{id}/telemetry.svg", get(telemetry_chart))
        .route("/runs/compare.svg", get(compare_chart))
}

/// Streams one file of one of the team's runs as a download.
pub async fn download(
    State(db): State<store::Db>,
    access: TeamAccess<ReadTeamData>,
    Path((run_id, file_id)): Path<(i64, i64)>,
) -> Response {
    let team_id = access.team_id();
    let file = match store::runs::get(&db, team_id, run_id).await {
        Ok(Some((_, _, _, files))) => files.into_iter().find(|f| f.id == file_id),
        Ok(None) => None,
        Err(e) => {
            tracing::error!(error = %e, "cannot read a run");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let Some(file) = file else {
        return StatusCode::NOT_FOUND.into_response();
    };
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
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/octet-stream"),
    );
    if let Ok(v) = HeaderValue::from_str(&file.size.to_string()) {
        h.insert(header::CONTENT_LENGTH, v);
    }
    if let Ok(v) = HeaderValue::from_str(&content_disposition(&file.file_name)) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; sandbox; frame-ancestors 'none'"),
    );
    res
}

/// The chart labels in the reader's language.
fn telemetry_labels(locale: Locale) -> TelemetryLabels {
    TelemetryLabels {
        title: locale.t(Msg::RunsChartAlt).to_string(),
        time_axis: locale.t(Msg::ChartTimeS).to_string(),
        time_axis_min: locale.t(Msg::ChartTimeMin).to_string(),
        util: locale.t(Msg::ChartUtil).to_string(),
        vram: locale.t(Msg::ChartVram).to_string(),
        sm_clock: locale.t(Msg::ChartSmClock).to_string(),
        warmup: locale.t(Msg::ChartWarmup).to_string(),
        throttled: locale.t(Msg::ChartThrottled).to_string(),
        gpu: locale.t(Msg::ChartGpu).to_string(),
        vram_total: locale.t(Msg::ChartVramTotal).to_string(),
    }
}

/// `GET /runs/{id}/telemetry.svg`: utilisation, memory and SM clock over time, warm-up shaded,
/// slowdowns marked.
pub async fn telemetry_chart(
    State(db): State<store::Db>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    Path(run_id): Path<i64>,
) -> Response {
    let canonical = match store::runs::canonical(&db, access.team_id(), run_id).await {
        Ok(Some(c)) => c,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "cannot read a run");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let labels = telemetry_labels(locale_from_headers(&headers));
    let drawn = tokio::task::spawn_blocking(move || {
        let run: CanonicalRun = serde_json::from_str(&canonical).ok()?;
        telemetry_svg(&run, &labels)
    })
    .await;
    match drawn {
        Ok(Some(body)) => svg(body),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::error!(error = %e, "chart task failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// Which comparison to draw.
#[derive(Debug, Deserialize)]
pub struct CompareQuery {
    /// Workload id (empty: runs without a workload).
    #[serde(default)]
    workload: String,
    /// Throughput unit.
    unit: String,
}

/// `GET /runs/compare.svg?workload=…&unit=…`: steady-state throughput per node by quote.
pub async fn compare_chart(
    State(db): State<store::Db>,
    access: TeamAccess<ReadTeamData>,
    headers: HeaderMap,
    Query(q): Query<CompareQuery>,
) -> Response {
    let workload = q.workload.trim().parse::<i64>().ok();
    let Ok(groups) = app::services::runs::comparison(&db, access.team_id()).await else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    let Some(group) = groups
        .into_iter()
        .find(|g| g.workload_id == workload && g.unit == q.unit)
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let locale = locale_from_headers(&headers);
    let flagged: Vec<&str> = group
        .bottlenecks
        .iter()
        .flat_map(|b| [b.stronger.as_str(), b.weaker.as_str()])
        .collect();
    let bars: Vec<Bar> = group
        .bars
        .iter()
        .map(|b| Bar {
            label: b.label.clone(),
            value: b.per_node,
            highlight: flagged.contains(&b.label.as_str()),
        })
        .collect();
    let title = locale.fmt(Msg::RunsCompareChart, &[("unit", &group.unit)]);
    svg(throughput_bars_svg(&title, &group.unit, &bars))
}
