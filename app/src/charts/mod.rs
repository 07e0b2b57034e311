//! Server-rendered SVG charts (plotters, SVG backend), inlined into pages.
//!
//! - [`telemetry_svg`]: GPU utilisation, memory and SM clock of one run over time.
//! - [`throughput_bars_svg`]: steady-state throughput per quote as horizontal bars.
//! - [`cost_stack_svg`]: total cost of ownership per quote as stacked bars by component.
//! - [`cost_vs_hours_svg`]: compute cost against busy hours, on demand and monthly.
//! - [`cost_and_time_vs_nodes_svg`]: total cost and time to finish against node count.
//! - [`plan_scatter_svg`]: every rental plan's total cost against its time to finish.
//! - [`response_curve_svg`]: each quote's throughput against response time, with the target.
//!
//! Every user-facing text comes from the caller (the UI is bilingual); this module
//! only lays it out. Output is a standalone `<svg>` element with a `<title>` first
//! child and every caller text XML-escaped, so it can be inlined into HTML as is.
//! Colours are chosen to stay legible when printed on white. Amounts are plain
//! `f64` (callers convert exact decimals), so charts know nothing of pricing.

mod bars;
/// Estimate vs billed by component.
mod bill;
mod cost_stack;
mod format;
mod hours;
mod legend;
mod nodes;
mod plan;
mod plot;
mod response;
mod style;
mod svg;
mod telemetry;
mod telemetry_data;

pub use bars::{Bar, throughput_bars_svg};
pub use bill::{BillBars, BillLegend, estimate_vs_billed_svg};
pub use cost_stack::{CostStack, cost_stack_svg};
pub use hours::{HoursLabels, HoursSeries, cost_vs_hours_svg};
pub use nodes::{NodesLabels, NodesPoint, cost_and_time_vs_nodes_svg};
pub use plan::{PLAN_NARROW_WIDTH, PLAN_WIDE_WIDTH, PlanChartLabels, PlanPoint, plan_scatter_svg, plan_scatter_svg_at};
pub use response::{ResponseLabels, ResponseSeries, response_curve_svg};
pub use telemetry::{TelemetryLabels, telemetry_svg};
