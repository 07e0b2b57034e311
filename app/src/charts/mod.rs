//! Server-rendered SVG charts (plotters, SVG backend), inlined into pages.
//!
//! - [`telemetry_svg`]: GPU utilisation, memory and SM clock of one run over time.
//! - [`throughput_bars_svg`]: steady-state throughput per quote as horizontal bars.
//!
//! Every user-facing text comes from the caller (the UI is bilingual); this module
//! only lays it out. Output is a standalone `<svg>` element with a `<title>` first
//! child and every caller text XML-escaped, so it can be inlined into HTML as is.
//! Colours are chosen to stay legible when printed on white.

mod bars;
mod legend;
mod style;
mod svg;
mod telemetry;
mod telemetry_data;

pub use bars::{Bar, throughput_bars_svg};
pub use telemetry::{TelemetryLabels, telemetry_svg};
