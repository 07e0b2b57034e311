//! The HTML shell, the root component and the route table.

use crate::{
    components::{
        header::Header,
        page_scripts::PageScripts,
        session::{SessionResource, get_session_info},
    },
    i18n::{Msg, request_locale, t},
    pages::{
        account::AccountPage,
        admin::{audit::AdminAuditPage, team::AdminTeamPage, teams::AdminTeamsPage, users::AdminUsersPage},
        dashboard::DashboardPage,
        login::LoginPage,
        not_found::NotFoundPage,
        orders::{OrdersPage, detail::OrderPage},
        plan::RentalPlanPage,
        quotes::{
            compare::QuoteComparePage, detail::QuoteDetailPage, form::QuoteFormPage, import::QuoteImportPage,
            list::QuoteListPage,
        },
        rates::RatesPage,
        requests::{RequestsPage, bid::BidPageView, detail::RequestPage, new::RequestNewPage},
        runs::{detail::RunDetailPage, list::RunListPage, tokens::TokensPage, upload::RunUploadPage},
        second_factor::admin::AdminSecurityPage,
        setup::SetupPage,
        tco::CostPage,
        team::TeamPage,
        vendors::{VendorsPage, edit::VendorEditPage},
        workloads::{WorkloadsPage, edit::WorkloadEditPage},
    },
};
use leptos::prelude::*;
use leptos_meta::{HashedStylesheet, MetaTags, Title, provide_meta_context};
use leptos_router::{
    SsrMode,
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
                // Loads the WASM only on a page with islands (`components/page_scripts.rs`).
                <PageScripts options />
                <MetaTags />
            </head>
            <body>
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
                    // Every page renders on the server only; what needs the browser is an island
                    // (`#[island]`), and a page without one loads no WASM (`components/page_scripts.rs`).
                    // Every page renders whole before it is sent (`SsrMode::Async`): with no router
                    // in the browser, a guard's redirect (a signed-out visitor to sign in) must be
                    // the answer's own 302, and no streamed part needs a script to be put in place.
                    <Route path=path!("/") view=DashboardPage ssr=SsrMode::Async />
                    <Route path=path!("/setup") view=SetupPage ssr=SsrMode::Async />
                    // Rendered whole before it is sent (no streamed parts to put in place with a
                    // script): the sign-in page works without WASM, and without JavaScript.
                    <Route path=path!("/login") view=LoginPage ssr=SsrMode::Async />
                    <Route path=path!("/account") view=AccountPage ssr=SsrMode::Async />
                    <Route path=path!("/team") view=TeamPage ssr=SsrMode::Async />
                    <Route path=path!("/quotes") view=QuoteListPage ssr=SsrMode::Async />
                    <Route path=path!("/quotes/new") view=QuoteFormPage ssr=SsrMode::Async />
                    <Route path=path!("/quotes/import") view=QuoteImportPage ssr=SsrMode::Async />
                    <Route path=path!("/quotes/compare") view=QuoteComparePage ssr=SsrMode::Async />
                    <Route path=path!("/quotes/:id") view=QuoteDetailPage ssr=SsrMode::Async />
                    <Route path=path!("/quotes/:id/edit") view=QuoteFormPage ssr=SsrMode::Async />
                    <Route path=path!("/vendors") view=VendorsPage ssr=SsrMode::Async />
                    <Route path=path!("/requests") view=RequestsPage ssr=SsrMode::Async />
                    <Route path=path!("/requests/new") view=RequestNewPage ssr=SsrMode::Async />
                    <Route path=path!("/requests/:id") view=RequestPage ssr=SsrMode::Async />
                    // A vendor's page: rendered whole before it is sent (a link that does not
                    // open answers 404); plain forms, no island.
                    <Route path=path!("/bid/:link") view=BidPageView ssr=SsrMode::Async />
                    <Route path=path!("/vendors/:id") view=VendorEditPage ssr=SsrMode::Async />
                    <Route path=path!("/workloads") view=WorkloadsPage ssr=SsrMode::Async />
                    <Route path=path!("/workloads/:id") view=WorkloadEditPage ssr=SsrMode::Async />
                    <Route path=path!("/rates") view=RatesPage ssr=SsrMode::Async />
                    <Route path=path!("/tco") view=CostPage ssr=SsrMode::Async />
                    <Route path=path!("/plan") view=RentalPlanPage ssr=SsrMode::Async />
                    <Route path=path!("/orders") view=OrdersPage ssr=SsrMode::Async />
                    <Route path=path!("/orders/:id") view=OrderPage ssr=SsrMode::Async />
                    <Route path=path!("/runs") view=RunListPage ssr=SsrMode::Async />
                    <Route path=path!("/runs/new") view=RunUploadPage ssr=SsrMode::Async />
                    <Route path=path!("/runs/:id") view=RunDetailPage ssr=SsrMode::Async />
                    <Route path=path!("/account/tokens") view=TokensPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/teams") view=AdminTeamsPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/teams/:id") view=AdminTeamPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/users") view=AdminUsersPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/security") view=AdminSecurityPage ssr=SsrMode::Async />
                    <Route path=path!("/admin/audit") view=AdminAuditPage ssr=SsrMode::Async />
                </Routes>
            </main>
            <footer class="site-footer">{t(Msg::FooterTagline)}</footer>
        </Router>
    }
}
