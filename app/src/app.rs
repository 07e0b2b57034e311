//! The HTML shell, the root component and the route table.

use crate::{
    components::{
        header::Header,
        session::{SessionResource, get_session_info},
    },
    i18n::{Locale, Msg, t},
    pages::{
        account::AccountPage,
        admin::{audit::AdminAuditPage, team::AdminTeamPage, teams::AdminTeamsPage, users::AdminUsersPage},
        dashboard::DashboardPage,
        login::LoginPage,
        not_found::NotFoundPage,
        orders::{OrdersPage, detail::OrderPage},
        quotes::{
            compare::QuoteComparePage, detail::QuoteDetailPage, form::QuoteFormPage, import::QuoteImportPage,
            list::QuoteListPage,
        },
        rates::RatesPage,
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
    components::{Route, Router, Routes},
    path,
};

/// The language of this request (server) or of the rendered page (browser).
pub fn request_locale() -> Locale {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>()
            .map(|p| crate::i18n::locale_from_headers(&p.headers))
            .unwrap_or_default()
    }
    #[cfg(all(feature = "hydrate", not(feature = "ssr")))]
    {
        crate::i18n::locale_from_document()
    }
    #[cfg(not(any(feature = "ssr", feature = "hydrate")))]
    {
        Locale::default()
    }
}

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
                // Issue 14 (warm cache): the stylesheet's name carries its content hash when
                // cargo-leptos built with `hash-files` (read from `hash.txt`, like the scripts').
                <HashedStylesheet options=options.clone() id="leptos" />
                <HydrationScripts options />
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
                    <Route path=path!("/") view=DashboardPage />
                    <Route path=path!("/setup") view=SetupPage />
                    <Route path=path!("/login") view=LoginPage />
                    <Route path=path!("/account") view=AccountPage />
                    <Route path=path!("/team") view=TeamPage />
                    <Route path=path!("/quotes") view=QuoteListPage />
                    <Route path=path!("/quotes/new") view=QuoteFormPage />
                    <Route path=path!("/quotes/import") view=QuoteImportPage />
                    <Route path=path!("/quotes/compare") view=QuoteComparePage />
                    <Route path=path!("/quotes/:id") view=QuoteDetailPage />
                    <Route path=path!("/quotes/:id/edit") view=QuoteFormPage />
                    <Route path=path!("/vendors") view=VendorsPage />
                    <Route path=path!("/vendors/:id") view=VendorEditPage />
                    <Route path=path!("/workloads") view=WorkloadsPage />
                    <Route path=path!("/workloads/:id") view=WorkloadEditPage />
                    <Route path=path!("/rates") view=RatesPage />
                    <Route path=path!("/tco") view=CostPage />
                    <Route path=path!("/orders") view=OrdersPage />
                    <Route path=path!("/orders/:id") view=OrderPage />
                    <Route path=path!("/runs") view=RunListPage />
                    <Route path=path!("/runs/new") view=RunUploadPage />
                    <Route path=path!("/runs/:id") view=RunDetailPage />
                    <Route path=path!("/account/tokens") view=TokensPage />
                    <Route path=path!("/admin/teams") view=AdminTeamsPage />
                    <Route path=path!("/admin/teams/:id") view=AdminTeamPage />
                    <Route path=path!("/admin/users") view=AdminUsersPage />
                    <Route path=path!("/admin/security") view=AdminSecurityPage />
                    <Route path=path!("/admin/audit") view=AdminAuditPage />
                </Routes>
            </main>
            <footer class="site-footer">{t(Msg::FooterTagline)}</footer>
        </Router>
    }
}
