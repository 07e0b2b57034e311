//! The HTTP router: Leptos pages and server functions, the language switch, static files, and
//! each area's raw routes (its own `router()`: documents, quote export, runs, orders, cost
//! comparison), all over one [`ServerState`]; and the layers every request passes (outermost
//! first): `Strict-Transport-Security` (https only) → compression of pages and answers
//! (`assets::compression`) → security headers → time limits → foreign
//! `Host` refusal → cross-site refusal → body limit → server-function error status → session →
//! caller → what a saved form left to show once (page loads, `app::auth::shown_once`) → strangers refused at server functions that need a caller (before their body is read)
//! → a parse slot for the bill and quote imports (before their body is read, `parse_slots`).
//!
//! The session layer writes a session only when a request changed it (sign-in, team switch,
//! sign-out) — and, to push the idle timeout back, at most once a minute for a signed-in
//! caller's pages and server functions (never for static files).

use crate::{
    config::ServeConfig,
    listed::Listed,
    parse_slots::{self, ParseSlots},
    runs::RunLimits,
    security::{self, BodyLimits, SiteOrigin},
    state::ServerState,
    timeouts,
};
use app::store::sessions::{SaveAfterResponse, SqliteSessionStore, TOUCH_EVERY_SECS, TOUCHED_AT_KEY};
use app::{App, auth::AppState, cookies::SecureCookies, services::tco::ComparisonCache, shell};
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
use tower_http::set_header::SetResponseHeaderLayer;
use tower_sessions::{Expiry, Session, SessionManagerLayer, cookie::SameSite};

/// Name of the session cookie over plain http (localhost).
pub const SESSION_COOKIE: &str = app::auth::SESSION_COOKIE;

/// Name of the session cookie over https: the `__Host-` prefix makes browsers keep it only when
/// it is `Secure`, for path `/` and without `Domain`, so no sibling subdomain can plant or
/// shadow it.
pub const SECURE_SESSION_COOKIE: &str = app::auth::SECURE_SESSION_COOKIE;

/// Leptos settings for this server.
pub fn leptos_options(cfg: &ServeConfig) -> LeptosOptions {
    LeptosOptions::builder()
        .output_name("nodeledger")
        .site_root(cfg.site_root.to_string_lossy().to_string())
        .site_pkg_dir("pkg")
        .site_addr(cfg.addr)
        // Hashed `/pkg` names when cargo-leptos built them.
        .hash_files(crate::assets::hash_file().is_some())
        .build()
}

/// Loads the signed-in caller once per request and puts it in the request extensions, where
/// pages, server functions and the raw routes' `TeamAccess` find it.
async fn attach_caller(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    if !security::is_static_asset(req.uri().path())
        && let Some(session) = req.extensions().get::<Session>().cloned()
    {
        match app::auth::load_caller(&state, &session).await {
            Ok(Some(caller)) => {
                keep_alive(&session, state.auth.idle_timeout).await;
                req.extensions_mut().insert(caller);
            }
            Ok(None) => {}
            Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        }
    }
    next.run(req).await
}

/// On a page load, hands the page what a saved form left for it to show once (a new token)
/// and drops what waits for another page (`app::auth::shown_once`).
async fn attach_shown_once(mut req: Request, next: Next) -> Response {
    use app::auth::shown_once;
    if shown_once::is_page_load(req.method(), req.headers())
        && let Some(session) = req.extensions().get::<Session>().cloned()
    {
        let page = req.uri().path_and_query().map_or("/", |p| p.as_str()).to_owned();
        if let Some(kept) = shown_once::take_for_page(&session, &page).await {
            req.extensions_mut().insert(kept);
        }
    }
    next.run(req).await
}

/// Pushes a signed-in session's idle timeout back. tower-sessions extends an `OnInactivity`
/// session (its row and its cookie) only when it saves it, and it saves only a changed session:
/// marking it touched once a minute (a tenth of the idle timeout when that is shorter) costs one
/// `UPDATE` a minute per active user, and a session lasts at least 90 % of the idle timeout
/// after its last request.
async fn keep_alive(session: &Session, idle: std::time::Duration) {
    let every = TOUCH_EVERY_SECS.min(i64::try_from(idle.as_secs() / 10).unwrap_or(i64::MAX));
    let now = app::store::now_unix();
    let touched = session.get::<i64>(TOUCHED_AT_KEY).await.ok().flatten().unwrap_or(0);
    if now.saturating_sub(touched) >= every
        && let Err(e) = session.insert(TOUCHED_AT_KEY, now).await
    {
        tracing::warn!(error = %e, "cannot mark the session touched");
    }
}

/// Builds the whole application router: the routes, then the layers in the order the module
/// documentation gives.
pub fn build(state: AppState, comparisons: ComparisonCache, cfg: &ServeConfig) -> Router {
    let server = ServerState {
        comparisons,
        leptos: leptos_options(cfg),
        runs: RunLimits {
            file_bytes: cfg.run_file_limit(),
            staging_dir: cfg.upload_staging_dir(),
        },
        slots: ParseSlots::new(cfg.parse_slots()),
        cookies: SecureCookies(cfg.secure_cookies()),
        bid_limits: app::services::rfq::limits::BidLimits::default(),
        app: state,
    };
    // Each `.layer` wraps what is above it: read from the bottom (and `guarded`) up for the
    // order the module documentation gives.
    let routed = routes(&server, cfg)
        // The imports read their whole file from the body: a parse slot first, once the
        // caller is known (a stranger is refused below without taking one).
        .layer(from_fn_with_state(server.slots.clone(), parse_slots::hold_for_imports))
        // A server function that needs a caller refuses a stranger before
        // its body is read (runs just inside `attach_caller`).
        .layer(from_fn_with_state(
            crate::caller_first::CallerOnly::registered(),
            crate::caller_first::refuse_strangers,
        ))
        .layer(from_fn(attach_shown_once))
        .layer(from_fn_with_state(server.app.clone(), attach_caller))
        // Client address for the password throttle.
        .layer(from_fn_with_state(
            crate::client_addr::TrustedProxy(cfg.trusted_proxy_header.clone().map(Arc::new)),
            crate::client_addr::attach,
        ))
        .layer(sessions(&server.app, cfg))
        .layer(from_fn(security::server_fn_error_status))
        .layer(DefaultBodyLimit::disable());
    guarded(routed, cfg)
}

/// What every page and server function finds in the Leptos context: the application state,
/// the recent cost comparisons, the Leptos settings (the pages read the bundle's hashed names), whether cookies are `Secure`,
/// the run file limit, the site's public address and the request's CSP nonce.
fn leptos_context(server: &ServerState, cfg: &ServeConfig) -> impl Fn() + Clone + Send + Sync + 'static {
    let state = server.app.clone();
    let comparisons = server.comparisons.clone();
    let options = server.leptos.clone();
    let secure = server.cookies;
    let run_file_limit = app::pages::runs::upload::RunFileLimit(cfg.run_file_limit());
    let bid_limits = server.bid_limits.clone();
    let site = app::components::site_address::SiteAddress(cfg.public_url());
    move || {
        provide_context(bid_limits.clone());
        provide_context(site.clone());
        provide_context(state.clone());
        provide_context(comparisons.clone());
        provide_context(options.clone());
        provide_context(secure);
        provide_context(run_file_limit);
        let nonce = use_context::<http::request::Parts>().and_then(|p| p.extensions.get::<Nonce>().cloned());
        if let Some(nonce) = nonce {
            provide_context(nonce);
        }
    }
}

/// The session cookie: http-only, same-site lax, `Secure` and `__Host-` named over https,
/// ended after the idle timeout. Saved only when changed ([`keep_alive`] marks it once a minute),
/// and a failing save after the answer keeps the answer ([`SaveAfterResponse`]).
fn sessions(state: &AppState, cfg: &ServeConfig) -> SessionManagerLayer<SaveAfterResponse<SqliteSessionStore>> {
    let idle = time::Duration::seconds(i64::try_from(state.auth.idle_timeout.as_secs()).unwrap_or(i64::MAX));
    let name = if cfg.secure_cookies() {
        SECURE_SESSION_COOKIE
    } else {
        SESSION_COOKIE
    };
    SessionManagerLayer::new(SaveAfterResponse(state.sessions.clone()))
        .with_name(name)
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_secure(cfg.secure_cookies())
        .with_path("/")
        .with_expiry(Expiry::OnInactivity(idle))
}

/// Every route: health check, pages and server functions (unknown paths: static files, else
/// the not-found page), and each area's raw routes.
fn routes(server: &ServerState, cfg: &ServeConfig) -> Router {
    let options = server.leptos.clone();
    let context = leptos_context(server, cfg);
    Router::<ServerState>::new()
        .leptos_routes_with_context(server, generate_route_list(App), context.clone(), move || {
            shell(options.clone())
        })
        .fallback(file_and_error_handler_with_context::<ServerState, _>(context, shell))
        .merge(raw_routes(cfg).into_router())
        .with_state(server.clone())
}

/// Every raw route, area by area, with the paths they answer.
fn raw_routes(cfg: &ServeConfig) -> Listed {
    Listed::new()
        .route("/healthz", get(|| async { "ok" }))
        .merge(crate::lang::router())
        .merge(crate::export::router())
        .merge(crate::documents::router())
        .merge(crate::bid_files::router())
        .merge(crate::runs::router())
        .merge(crate::orders::router())
        .merge(crate::tco::router())
        // `/pkg` precompressed, before the fallback's plain files.
        .merge_listed_as("/pkg/{*file}", crate::assets::pkg_router(&cfg.site_root))
        // The simple bill template.
        .merge(crate::bills::router())
}

/// The paths of the raw routes the router built with `cfg` answers, as written in it
/// (`/runs/{id}/files/{file}`); the server functions are `server_fn_paths()`.
#[must_use]
pub fn raw_paths(cfg: &ServeConfig) -> Vec<&'static str> {
    raw_routes(cfg).paths().to_vec()
}

/// The body limit, the cross-site and foreign-host refusals, the time limits and the security
/// headers wrap the routed app, so they run before routing, for every path and method (also
/// unknown ones).
fn guarded(routed: Router, cfg: &ServeConfig) -> Router {
    let site = Arc::new(SiteOrigin::from_public_url(&cfg.public_url()));
    let router = Router::new()
        .fallback_service(routed)
        .layer(from_fn_with_state(
            BodyLimits::new(cfg.body_limit, cfg.run_file_limit()),
            security::limit_body,
        ))
        .layer(from_fn_with_state(site.clone(), security::reject_cross_site))
        // DNS rebinding and stalled responses.
        .layer(from_fn_with_state(site, security::refuse_foreign_host))
        .layer(from_fn_with_state(cfg.time_limits.limits(), timeouts::limit_time))
        .layer(from_fn(security::security_headers))
        // Pages and answers compressed on the fly (static files are precompressed).
        .layer(crate::assets::compression());
    // HSTS: only a site served over https may tell browsers to insist on it.
    if cfg.secure_cookies() {
        router.layer(SetResponseHeaderLayer::overriding(
            http::header::STRICT_TRANSPORT_SECURITY,
            http::HeaderValue::from_static(security::HSTS),
        ))
    } else {
        router
    }
}
