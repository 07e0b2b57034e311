//! Which pages share a WASM chunk (ship only the code a page needs).
//!
//! The shell, the header, sign-in, setup and the dashboard are in the main bundle every page
//! loads (a new visitor's sign-in page loads none: [`crate::components::page_scripts`]). Every
//! other page belongs to one *area*, and an area's pages are compiled into one chunk that the
//! browser fetches the first time it shows a page of that area:
//!
//! | area   | pages                                                              |
//! |--------|--------------------------------------------------------------------|
//! | quotes | quote list, form, import, compare, detail; vendors; requests for quotation, bids |
//! | runs   | run list, upload, detail; API tokens                               |
//! | costs  | cost comparison (TCO), rental plan, rates, workloads               |
//! | orders | order list, order review                                           |
//! | admin  | teams, users, second factor, audit; the team page; the account page |
//!
//! How it works: each area is one `#[lazy]` function (`quotes_area`, …) that renders the page
//! it is asked for. `cargo leptos build --split` moves everything only that function reaches into
//! its own `.wasm` file (code two areas share goes into a chunk both load). Each route is a small
//! [`LazyRoute`] whose `view` awaits its area's function. On a first load of such a page the
//! server names the chunk in a `<link rel="preload">`, so hydration does not wait for a second
//! round trip — when Leptos polled the route's view before it flushed the streamed shell, which
//! depends on scheduling (its prefetch list is read once the shell is ready); otherwise the
//! loader fetches the chunk as hydration starts. Without `--split` (plain `cargo build`) the
//! functions are ordinary calls.
//!
//! Why sign-in and the dashboard stay in the main bundle (measured on a release build, Chromium
//! at 10 Mbit/s, 40 ms RTT and a 4x slower CPU, `.ci/bench-load-time`): as two more areas they
//! cut the dashboard's first download from 427 to 387 KiB and the main bundle from 412 to
//! 291 KiB, but every page then hydrated about a second later (sign-in 1.0 → 2.0 s, dashboard
//! 1.1 → 1.9 s, `/quotes` 1.5 → 2.3 s, even from a warm cache): the splitter makes one file per
//! set of areas that share code, so seven areas made 25–45 chunk files per page instead of
//! about 16, and each file is compiled and linked on its own. More areas cost more than they save.
//!
//! Making a new page lazy: add a variant to its area's enum, a match arm in the area function,
//! and an `area_route!` line; then use `view={Lazy::<TheRoute>::new()}` in `app.rs`.

use crate::pages::{
    account::AccountPage,
    admin::{audit::AdminAuditPage, team::AdminTeamPage, teams::AdminTeamsPage, users::AdminUsersPage},
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
    tco::CostPage,
    team::TeamPage,
    vendors::{VendorsPage, edit::VendorEditPage},
    workloads::{WorkloadsPage, edit::WorkloadEditPage},
};
use leptos::prelude::*;
use leptos_router::LazyRoute;

/// A route whose page is drawn by an area's lazy function: `area_route!(Name, area_fn,
/// preload_fn, Page::Variant)`. `preload_fn` is the `__preload_<area_fn>` that `#[lazy]`
/// defines in the browser build (it fetches the chunk without drawing anything).
macro_rules! area_route {
    ($(#[$doc:meta])* $name:ident, $area:ident, $preload:ident, $page:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl LazyRoute for $name {
            fn data() -> Self {
                Self
            }

            async fn view(_this: Self) -> AnyView {
                $area($page).await
            }

            async fn preload() {
                #[cfg(feature = "hydrate")]
                $preload().await;
            }
        }
    };
}

/// The pages of the quotes area (quotes and vendors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotesArea {
    List,
    Form,
    Import,
    Compare,
    Detail,
    Vendors,
    Vendor,
    Requests,
    RequestNew,
    Request,
    Bid,
}

/// Draws a page of the quotes area: the quotes chunk's one entry point.
#[leptos::lazy]
fn quotes_area(page: QuotesArea) -> AnyView {
    match page {
        QuotesArea::List => view! { <QuoteListPage /> }.into_any(),
        QuotesArea::Form => view! { <QuoteFormPage /> }.into_any(),
        QuotesArea::Import => view! { <QuoteImportPage /> }.into_any(),
        QuotesArea::Compare => view! { <QuoteComparePage /> }.into_any(),
        QuotesArea::Detail => view! { <QuoteDetailPage /> }.into_any(),
        QuotesArea::Vendors => view! { <VendorsPage /> }.into_any(),
        QuotesArea::Vendor => view! { <VendorEditPage /> }.into_any(),
        QuotesArea::Requests => view! { <RequestsPage /> }.into_any(),
        QuotesArea::RequestNew => view! { <RequestNewPage /> }.into_any(),
        QuotesArea::Request => view! { <RequestPage /> }.into_any(),
        QuotesArea::Bid => view! { <BidPageView /> }.into_any(),
    }
}

area_route!(QuoteListRoute, quotes_area, __preload_quotes_area, QuotesArea::List);
area_route!(
    /// `/quotes/new` and `/quotes/:id/edit`.
    QuoteFormRoute,
    quotes_area,
    __preload_quotes_area,
    QuotesArea::Form
);
area_route!(QuoteImportRoute, quotes_area, __preload_quotes_area, QuotesArea::Import);
area_route!(
    QuoteCompareRoute,
    quotes_area,
    __preload_quotes_area,
    QuotesArea::Compare
);
area_route!(QuoteDetailRoute, quotes_area, __preload_quotes_area, QuotesArea::Detail);
area_route!(VendorsRoute, quotes_area, __preload_quotes_area, QuotesArea::Vendors);
area_route!(VendorEditRoute, quotes_area, __preload_quotes_area, QuotesArea::Vendor);
area_route!(RequestsRoute, quotes_area, __preload_quotes_area, QuotesArea::Requests);
area_route!(
    RequestNewRoute,
    quotes_area,
    __preload_quotes_area,
    QuotesArea::RequestNew
);
area_route!(RequestRoute, quotes_area, __preload_quotes_area, QuotesArea::Request);
area_route!(BidRoute, quotes_area, __preload_quotes_area, QuotesArea::Bid);

/// The pages of the runs area (benchmark runs and the API tokens that upload them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunsArea {
    List,
    Upload,
    Detail,
    Tokens,
}

/// Draws a page of the runs area: the runs chunk's one entry point.
#[leptos::lazy]
fn runs_area(page: RunsArea) -> AnyView {
    match page {
        RunsArea::List => view! { <RunListPage /> }.into_any(),
        RunsArea::Upload => view! { <RunUploadPage /> }.into_any(),
        RunsArea::Detail => view! { <RunDetailPage /> }.into_any(),
        RunsArea::Tokens => view! { <TokensPage /> }.into_any(),
    }
}

area_route!(RunListRoute, runs_area, __preload_runs_area, RunsArea::List);
area_route!(RunUploadRoute, runs_area, __preload_runs_area, RunsArea::Upload);
area_route!(RunDetailRoute, runs_area, __preload_runs_area, RunsArea::Detail);
area_route!(TokensRoute, runs_area, __preload_runs_area, RunsArea::Tokens);

/// The pages of the costs area (the cost comparison and what it is computed from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostsArea {
    Tco,
    Plan,
    Rates,
    Workloads,
    Workload,
}

/// Draws a page of the costs area: the costs chunk's one entry point.
#[leptos::lazy]
fn costs_area(page: CostsArea) -> AnyView {
    match page {
        CostsArea::Tco => view! { <CostPage /> }.into_any(),
        CostsArea::Plan => view! { <RentalPlanPage /> }.into_any(),
        CostsArea::Rates => view! { <RatesPage /> }.into_any(),
        CostsArea::Workloads => view! { <WorkloadsPage /> }.into_any(),
        CostsArea::Workload => view! { <WorkloadEditPage /> }.into_any(),
    }
}

area_route!(CostRoute, costs_area, __preload_costs_area, CostsArea::Tco);
area_route!(PlanRoute, costs_area, __preload_costs_area, CostsArea::Plan);
area_route!(RatesRoute, costs_area, __preload_costs_area, CostsArea::Rates);
area_route!(WorkloadsRoute, costs_area, __preload_costs_area, CostsArea::Workloads);
area_route!(WorkloadEditRoute, costs_area, __preload_costs_area, CostsArea::Workload);

/// The pages of the orders area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OrdersArea {
    List,
    Detail,
}

/// Draws a page of the orders area: the orders chunk's one entry point.
#[leptos::lazy]
fn orders_area(page: OrdersArea) -> AnyView {
    match page {
        OrdersArea::List => view! { <OrdersPage /> }.into_any(),
        OrdersArea::Detail => view! { <OrderPage /> }.into_any(),
    }
}

area_route!(OrdersRoute, orders_area, __preload_orders_area, OrdersArea::List);
area_route!(OrderRoute, orders_area, __preload_orders_area, OrdersArea::Detail);

/// The pages of the admin area (instance and team administration, and the own account).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdminArea {
    Teams,
    Team,
    Users,
    Security,
    Audit,
    OwnTeam,
    Account,
}

/// Draws a page of the admin area: the admin chunk's one entry point.
#[leptos::lazy]
fn admin_area(page: AdminArea) -> AnyView {
    match page {
        AdminArea::Teams => view! { <AdminTeamsPage /> }.into_any(),
        AdminArea::Team => view! { <AdminTeamPage /> }.into_any(),
        AdminArea::Users => view! { <AdminUsersPage /> }.into_any(),
        AdminArea::Security => view! { <AdminSecurityPage /> }.into_any(),
        AdminArea::Audit => view! { <AdminAuditPage /> }.into_any(),
        AdminArea::OwnTeam => view! { <TeamPage /> }.into_any(),
        AdminArea::Account => view! { <AccountPage /> }.into_any(),
    }
}

area_route!(AdminTeamsRoute, admin_area, __preload_admin_area, AdminArea::Teams);
area_route!(AdminTeamRoute, admin_area, __preload_admin_area, AdminArea::Team);
area_route!(AdminUsersRoute, admin_area, __preload_admin_area, AdminArea::Users);
area_route!(
    AdminSecurityRoute,
    admin_area,
    __preload_admin_area,
    AdminArea::Security
);
area_route!(AdminAuditRoute, admin_area, __preload_admin_area, AdminArea::Audit);
area_route!(TeamRoute, admin_area, __preload_admin_area, AdminArea::OwnTeam);
area_route!(AccountRoute, admin_area, __preload_admin_area, AdminArea::Account);
