//! Colours and fonts shared by the charts: dark enough to print on white.

use plotters::style::{FontDesc, IntoFont, RGBColor};

/// Font family written into every `<text>`.
pub(super) const FONT: &str = "sans-serif";

/// One colour per GPU line (cycled beyond eight GPUs); no red, which marks throttling.
pub(super) const GPU_PALETTE: [RGBColor; 8] = [
    RGBColor(0x1F, 0x5F, 0xBF), // blue
    RGBColor(0xE0, 0x7B, 0x00), // orange
    RGBColor(0x2A, 0x9D, 0x3A), // green
    RGBColor(0x8E, 0x44, 0xAD), // purple
    RGBColor(0x00, 0x8B, 0x8B), // teal
    RGBColor(0x8B, 0x57, 0x2A), // brown
    RGBColor(0xD0, 0x3F, 0x9B), // magenta
    RGBColor(0x33, 0x33, 0x33), // near black
];

/// Warm-up band fill (drawn translucent).
pub(super) const WARMUP: RGBColor = RGBColor(0x9A, 0x9A, 0x9A);
/// Opacity of the warm-up band.
pub(super) const WARMUP_ALPHA: f64 = 0.28;
/// Throttle band fill (drawn translucent).
pub(super) const THROTTLE: RGBColor = RGBColor(0xDC, 0x26, 0x26);
/// Opacity of the throttle bands.
pub(super) const THROTTLE_ALPHA: f64 = 0.2;
/// The dashed memory-capacity line.
pub(super) const CAPACITY: RGBColor = RGBColor(0x55, 0x55, 0x55);
/// Axis lines and texts.
pub(super) const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Fine grid lines.
pub(super) const GRID: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
/// Ordinary throughput bars.
pub(super) const BAR: RGBColor = RGBColor(0x8A, 0x96, 0xA8);
/// Highlighted throughput bars.
pub(super) const BAR_ACCENT: RGBColor = RGBColor(0x1D, 0x4E, 0xD8);

/// Cost components in order of first appearance (cycled beyond eight); no
/// accent blue, which outlines the highlighted bar.
pub(super) const COST_PALETTE: [RGBColor; 8] = [
    RGBColor(0x4C, 0x72, 0xB0), // steel blue
    RGBColor(0x9B, 0xB7, 0xD4), // light blue
    RGBColor(0xDD, 0x84, 0x52), // orange
    RGBColor(0x55, 0xA8, 0x68), // green
    RGBColor(0x81, 0x72, 0xB3), // purple
    RGBColor(0xC4, 0x4E, 0x52), // red
    RGBColor(0x93, 0x78, 0x60), // brown
    RGBColor(0x8C, 0x8C, 0x8C), // grey
];
/// On-demand cost line.
pub(super) const ON_DEMAND: RGBColor = RGBColor(0xE0, 0x7B, 0x00);
/// Monthly-commitment cost line.
pub(super) const MONTHLY: RGBColor = RGBColor(0x1F, 0x5F, 0xBF);
/// Dashed break-even line.
pub(super) const BREAK_EVEN: RGBColor = RGBColor(0x55, 0x55, 0x55);
/// Dotted marker at the current value.
pub(super) const CURRENT: RGBColor = RGBColor(0xB0, 0x1E, 0x6E);
/// Total cost line over the number of nodes.
pub(super) const COST_LINE: RGBColor = RGBColor(0x1F, 0x5F, 0xBF);
/// Time-to-finish line over the number of nodes.
pub(super) const TIME_LINE: RGBColor = RGBColor(0x2A, 0x9D, 0x3A);

/// The colour of the `i`-th cost component (by first appearance).
pub(super) fn cost_colour(i: usize) -> RGBColor {
    cycled(&COST_PALETTE, i)
}

/// The line colour of the `i`-th GPU (by sorted index).
pub(super) fn gpu_colour(i: usize) -> RGBColor {
    cycled(&GPU_PALETTE, i)
}

/// The `i`-th colour of `palette`, starting over after its last.
fn cycled(palette: &[RGBColor], i: usize) -> RGBColor {
    palette[i % palette.len()]
}

/// A font whose SVG `font-size` is `px` (plotters divides the size by 1.24).
pub(super) fn font(px: u32) -> FontDesc<'static> {
    (FONT, f64::from(px) * 1.24).into_font()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palettes_start_over_after_eight() {
        assert_eq!(gpu_colour(0), RGBColor(0x1F, 0x5F, 0xBF));
        assert_eq!(gpu_colour(8), gpu_colour(0));
        assert_eq!(gpu_colour(15), RGBColor(0x33, 0x33, 0x33));
        assert_eq!(cost_colour(9), RGBColor(0x9B, 0xB7, 0xD4));
    }
}
