//! The HTTP router: Leptos pages and server functions, the language switch, static files, and
//! each area's raw routes (its own `router()`: documents, quote export, runs, orders, cost
//! comparison), all over one [`ServerState`]; and the layers every request passes (outermost
//! first): security headers → cross-site refusal → body limit → server-function error status →
//! session → caller.

use crate::{
    config::ServeConfig,
    lang::LangCookie,
    runs::RunLimits,
    security::{self, BodyLimits, SiteOrigin},
    state::ServerState,
};
use app::{App, auth::AppState, shell};
use axum::{
    Router,
    extract::{DefaultBodyLimit, Request, State},
    middleware::{Next, from_fn, from_fn_with_state},
    response::{IntoResponse, Response},
    routing::get,
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
/// pages, server functions and the raw routes' `TeamAccess` find it.
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

/// Builds the whole application router: the routes, then the layers in the order the module
/// documentation gives.
pub fn build(state: AppState, cfg: &ServeConfig) -> Router {
    let server = ServerState {
        leptos: leptos_options(cfg),
        runs: RunLimits {
            file_bytes: cfg.run_file_limit(),
            staging_dir: cfg.upload_staging_dir(),
        },
        lang: LangCookie {
            secure: cfg.secure_cookies(),
        },
        app: state,
    };
    // Each `.layer` wraps what is above it: read from the bottom (and `guarded`) up for the
    // order the module documentation gives.
    let routed = routes(&server, cfg)
        .layer(from_fn_with_state(server.app.clone(), attach_caller))
        .layer(sessions(&server.app, cfg))
        .layer(from_fn(security::server_fn_error_status))
        .layer(DefaultBodyLimit::disable());
    guarded(routed, cfg)
}

/// What every page and server function finds in the Leptos context: the application state,
/// the run file limit and the request's CSP nonce.
fn leptos_context(state: &AppState, cfg: &ServeConfig) -> impl Fn() + Clone + Send + Sync + 'static {
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
}

/// The session cookie: http-only, same-site lax, `Secure` over https, ended after the idle
/// timeout.
fn sessions(state: &AppState, cfg: &ServeConfig) -> SessionManagerLayer<app::store::sessions::SqliteSessionStore> {
    let idle = time::Duration::seconds(i64::try_from(state.auth.idle_timeout.as_secs()).unwrap_or(i64::MAX));
    SessionManagerLayer::new(state.sessions.clone())
        .with_name(SESSION_COOKIE)
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(cfg.secure_cookies())
        .with_path("/")
        .with_expiry(Expiry::OnInactivity(idle))
        .with_always_save(true)
}

/// Every route: health check, pages and server functions (unknown paths: static files, else
/// the not-found page), and each area's raw routes.
fn routes(server: &ServerState, cfg: &ServeConfig) -> Router {
    let options = server.leptos.clone();
    let context = leptos_context(&server.app, cfg);
    Router::<ServerState>::new()
        .route("/healthz", get(|| async { "ok" }))
        .leptos_routes_with_context(server, generate_route_list(App), context.clone(), move || {
            shell(options.clone())
        })
        .fallback(file_and_error_handler_with_context::<ServerState, _>(context, shell))
        .merge(crate::lang::router())
        .merge(crate::export::router())
        .merge(crate::documents::router())
        .merge(crate::runs::router())
        .merge(crate::orders::router())
        .merge(crate::tco::router())
        .with_state(server.clone())
}

/// The body limit, the cross-site refusal and the security headers wrap the routed app, so
/// they run before routing, for every path and method (also unknown ones).
fn guarded(routed: Router, cfg: &ServeConfig) -> Router {
    let site = Arc::new(SiteOrigin::from_public_url(&cfg.public_url()));
    Router::new()
        .fallback_service(routed)
        .layer(from_fn_with_state(
            BodyLimits::new(cfg.body_limit, cfg.run_file_limit()),
            security::limit_body,
        ))
        .layer(from_fn_with_state(site, security::reject_cross_site))
        .layer(from_fn(security::security_headers))
}
