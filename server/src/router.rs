//! The HTTP router: Leptos pages and server functions, the language switch, static files, and
//! the layers every request passes (outermost first): security headers → cross-site refusal →
//! body limit → server-function error status → session → caller.

use crate::{
    config::ServeConfig,
    lang::{self, LangCookie},
    runs::{RunLimits, api::ApiState, upload::UploadState},
    security::{self, BodyLimits, SiteOrigin},
};
use app::{App, auth::AppState, shell};
use axum::{
    Router,
    extract::{DefaultBodyLimit, Request, State},
    middleware::{Next, from_fn, from_fn_with_state},
    response::{IntoResponse, Response},
    routing::{get, post},
};
use http::StatusCode;
use leptos::{config::LeptosOptions, nonce::Nonce, prelude::*};
use leptos_axum::{LeptosRoutes, file_and_error_handler_with_context, generate_route_list};
use std::sync::Arc;
use tower_sessions::{Expiry, Session, SessionManagerLayer, cookie::SameSite};

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = app::auth::SESSION_COOKIE;

/// Leptos settings for this server.
pub fn leptos_options(cfg: &ServeConfig) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name("nodeledger")
        .site_root(cfg.site_root.to_string_lossy().to_string())
        .site_pkg_dir("pkg")
        .site_addr(cfg.addr)
        .build()
}

/// Loads the signed-in caller once per request and puts it in the request extensions, where
/// pages and server functions find it.
async fn attach_caller(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    if !req.uri().path().starts_with("/pkg/")
        && let Some(session) = req.extensions().get::<Session>().cloned()
    {
        match app::auth::load_caller(&state, &session).await {
            Ok(Some(caller)) => {
                req.extensions_mut().insert(caller);
            }
            Ok(None) => {}
            Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        }
    }
    next.run(req).await
}

/// Builds the whole application router.
pub fn build(state: AppState, cfg: &ServeConfig) -> Router {
    let options = leptos_options(cfg);
    let routes = generate_route_list(App);
    let context = {
        let state = state.clone();
        let run_file_limit = app::pages::runs::upload::RunFileLimit(cfg.run_file_limit());
        move || {
            provide_context(state.clone());
            provide_context(run_file_limit);
            let nonce = use_context::<http::request::Parts>().and_then(|p| p.extensions.get::<Nonce>().cloned());
            if let Some(nonce) = nonce {
                provide_context(nonce);
            }
        }
    };
    let idle = time::Duration::seconds(i64::try_from(state.auth.idle_timeout.as_secs()).unwrap_or(i64::MAX));
    let sessions = SessionManagerLayer::new(state.sessions.clone())
        .with_name(SESSION_COOKIE)
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(cfg.secure_cookies())
        .with_path("/")
        .with_expiry(Expiry::OnInactivity(idle))
        .with_always_save(true);
    let site = Arc::new(SiteOrigin::from_public_url(&cfg.public_url()));
    let lang_routes = Router::new()
        .route("/lang", post(lang::set_language))
        .with_state(LangCookie {
            secure: cfg.secure_cookies(),
        });
    let export_routes = Router::new()
        .route("/quotes/export.csv", get(crate::export::quotes_csv))
        .route("/quotes/{id}/documents", post(crate::documents::upload))
        .route("/documents/{id}", get(crate::documents::download))
        .route("/runs/{id}/files/{file}", get(crate::runs::files::download))
        .route("/runs/{id}/telemetry.svg", get(crate::runs::files::telemetry_chart))
        .route("/runs/compare.svg", get(crate::runs::files::compare_chart))
        .route("/tco/export.csv", get(crate::tco::export_csv))
        .route("/orders/{id}/export.json", get(crate::orders::export))
        .route("/orders/{id}/scenario.json", get(crate::orders::scenario))
        .route("/tco/export.json", get(crate::tco::export_json))
        .route("/tco/stack.svg", get(crate::tco::stack_chart))
        .route("/tco/hours.svg", get(crate::tco::hours_chart))
        .route("/tco/nodes.svg", get(crate::tco::nodes_chart))
        .with_state(state.db.clone());
    let limits = RunLimits {
        file_bytes: cfg.run_file_limit(),
    };
    let upload_routes = Router::new()
        .route("/runs/upload", post(crate::runs::upload::upload))
        .with_state(UploadState {
            db: state.db.clone(),
            limits: limits.clone(),
        });
    let api_routes = Router::new()
        .route("/api/v1/runs", post(crate::runs::api::create_run))
        .route("/api/v1/schema/run.json", get(crate::runs::api::run_schema))
        .with_state(ApiState {
            db: state.db.clone(),
            limits,
        });

    let routed = Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .leptos_routes_with_context(&options, routes, context.clone(), {
            let options = options.clone();
            move || shell(options.clone())
        })
        .fallback(file_and_error_handler_with_context(context, shell))
        .with_state(options)
        .merge(lang_routes)
        .merge(export_routes)
        .merge(upload_routes)
        .merge(api_routes)
        .layer(from_fn_with_state(state, attach_caller))
        .layer(sessions)
        .layer(from_fn(security::server_fn_error_status))
        .layer(DefaultBodyLimit::disable());
    // The body limit, the cross-site refusal and the security headers wrap the routed app, so
    // they run before routing, for every path and method (also unknown ones).
    Router::new()
        .fallback_service(routed)
        .layer(from_fn_with_state(
            BodyLimits::new(cfg.body_limit, cfg.run_file_limit()),
            security::limit_body,
        ))
        .layer(from_fn_with_state(site, security::reject_cross_site))
        .layer(from_fn(security::security_headers))
}
