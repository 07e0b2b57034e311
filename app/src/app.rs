//! The HTML shell, the root component and the route table.

use crate::{
    components::{
        header::Header,
        page_scripts::{PageScripts, STATIC_MARK, without_wasm},
        session::{SessionResource, get_session_info},
    },
    i18n::{Msg, request_locale, t},
    pages::{
        areas::{
            AccountRoute, AdminAuditRoute, AdminSecurityRoute, AdminTeamRoute, AdminTeamsRoute, AdminUsersRoute,
            BidRoute, CostRoute, OrderRoute, OrdersRoute, PlanRoute, QuoteCompareRoute, QuoteDetailRoute,
            QuoteFormRoute, QuoteImportRoute, QuoteListRoute, RatesRoute, RequestNewRoute, RequestRoute, RequestsRoute,
            RunDetailRoute, RunListRoute, RunUploadRoute, TeamRoute, TokensRoute, VendorEditRoute, VendorsRoute,
            WorkloadEditRoute, WorkloadsRoute,
        },
        dashboard::DashboardPage,
        login::LoginPage,
        not_found::NotFoundPage,
        setup::SetupPage,
    },
};
use leptos::prelude::*;
use leptos_meta::{HashedStylesheet, MetaTags, Title, provide_meta_context};
use leptos_router::{
    Lazy, SsrMode,
    components::{Route, Router, Routes},
    path,
};

/// The HTML document around the app (server-rendered only).
pub fn shell(options: LeptosOptions) -> impl IntoView {
    let locale = request_locale();
    view! {
        <!DOCTYPE html>
        <html lang=locale.tag()>
            <head>
                <meta charset="utf-8" />
                <meta name="viewport" content="width=device-width, initial-scale=1" />
                <meta name="color-scheme" content="light dark" />
                <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
                // The stylesheet's name carries its content hash when
                // cargo-leptos built with `hash-files` (read from `hash.txt`, like the scripts').
                <HashedStylesheet options=options.clone() id="leptos" />
                // The first page of a browser without the bundle (sign-in,
                // dashboard) comes without WASM.
                <PageScripts options />
                <MetaTags />
            </head>
            <body data-hydrated=without_wasm().then_some(STATIC_MARK)>
                <App />
            </body>
        </html>
    }
}

/// The root component.
#[component]
pub fn App() -> impl IntoView {
    provide_meta_context();
    provide_context(request_locale());
    let session = Resource::new_blocking(|| (), |_| get_session_info());
    provide_context(SessionResource(session));

    // Marks the page as interactive, for people and for the browser tests.
    Effect::new(move |_| {
        if let Some(body) = document().body() {
            let _ = body.set_attribute("data-hydrated", "true");
        }
    });

    view! {
        <Title formatter=|page: String| {
            if page.is_empty() { "NodeLedger".to_string() } else { format!("{page} · NodeLedger") }
        } />
        <Router>
            // `target="_self"`: the router leaves the click to the browser, whose fragment
            // navigation moves focus into `<main>` (the router would only scroll to it).
            <a class="skip-link" href="#main" target="_self">{t(Msg::NavSkipToContent)}</a>
            <Header />
            <main id="main" class="page" tabindex="-1">
                <Routes fallback=NotFoundPage>
                    // In the main bundle: what a first visit needs. The dashboard, like the
                    // sign-in page, renders whole before it is sent: a browser without the bundle
                    // gets it without WASM (`components/page_scripts.rs`).
                    <Route path=path!("/") view=DashboardPage ssr=SsrMode::Async />
                    <Route path=path!("/setup") view=SetupPage />
                    // Rendered whole before it is sent (no streamed parts to put in place with a
                    // script): the sign-in page works without WASM, and without JavaScript.
                    <Route path=path!("/login") view=LoginPage ssr=SsrMode::Async />
                    // Every other page is in its area's chunk, fetched on first use (pages/areas.rs).
                    // A new page joins an area with a variant, a match arm and an `area_route!` line
                    // there, and `view={Lazy::<ItsRoute>::new()}` here; a plain `view=Page` ships it
                    // in the main bundle.
                    <Route path=path!("/account") view={Lazy::<AccountRoute>::new()} />
                    <Route path=path!("/team") view={Lazy::<TeamRoute>::new()} />
                    <Route path=path!("/quotes") view={Lazy::<QuoteListRoute>::new()} />
                    <Route path=path!("/quotes/new") view={Lazy::<QuoteFormRoute>::new()} />
                    <Route path=path!("/quotes/import") view={Lazy::<QuoteImportRoute>::new()} />
                    <Route path=path!("/quotes/compare") view={Lazy::<QuoteCompareRoute>::new()} />
                    <Route path=path!("/quotes/:id") view={Lazy::<QuoteDetailRoute>::new()} />
                    <Route path=path!("/quotes/:id/edit") view={Lazy::<QuoteFormRoute>::new()} />
                    <Route path=path!("/vendors") view={Lazy::<VendorsRoute>::new()} />
                    <Route path=path!("/requests") view={Lazy::<RequestsRoute>::new()} />
                    <Route path=path!("/requests/new") view={Lazy::<RequestNewRoute>::new()} />
                    <Route path=path!("/requests/:id") view={Lazy::<RequestRoute>::new()} />
                    // A vendor's page: rendered whole before it is sent (a link that does not
                    // open answers 404), and sent without WASM (`components/page_scripts.rs`).
                    <Route path=path!("/bid/:link") view={Lazy::<BidRoute>::new()} ssr=SsrMode::Async />
                    <Route path=path!("/vendors/:id") view={Lazy::<VendorEditRoute>::new()} />
                    <Route path=path!("/workloads") view={Lazy::<WorkloadsRoute>::new()} />
                    <Route path=path!("/workloads/:id") view={Lazy::<WorkloadEditRoute>::new()} />
                    <Route path=path!("/rates") view={Lazy::<RatesRoute>::new()} />
                    <Route path=path!("/tco") view={Lazy::<CostRoute>::new()} />
                    <Route path=path!("/plan") view={Lazy::<PlanRoute>::new()} />
                    <Route path=path!("/orders") view={Lazy::<OrdersRoute>::new()} />
                    <Route path=path!("/orders/:id") view={Lazy::<OrderRoute>::new()} />
                    <Route path=path!("/runs") view={Lazy::<RunListRoute>::new()} />
                    <Route path=path!("/runs/new") view={Lazy::<RunUploadRoute>::new()} />
                    <Route path=path!("/runs/:id") view={Lazy::<RunDetailRoute>::new()} />
                    <Route path=path!("/account/tokens") view={Lazy::<TokensRoute>::new()} />
                    <Route path=path!("/admin/teams") view={Lazy::<AdminTeamsRoute>::new()} />
                    <Route path=path!("/admin/teams/:id") view={Lazy::<AdminTeamRoute>::new()} />
                    <Route path=path!("/admin/users") view={Lazy::<AdminUsersRoute>::new()} />
                    <Route path=path!("/admin/security") view={Lazy::<AdminSecurityRoute>::new()} />
                    <Route path=path!("/admin/audit") view={Lazy::<AdminAuditRoute>::new()} />
                </Routes>
            </main>
            <footer class="site-footer">{t(Msg::FooterTagline)}</footer>
        </Router>
    }
}
