//! Colours and fonts shared by the charts: dark enough to print on white.

use plotters::style::{FontDesc, IntoFont, RGBColor};

/// Font family written into every `<text>`: a stack that finds a CJK face on every common system
/// (Linux: Noto / WenQuanYi, macOS: PingFang / Hiragino, Windows: Microsoft YaHei), so Chinese
/// labels never fall back to boxes. The charts are `<img>` files, so the page's CSS cannot help.
/// Single quotes: plotters writes the value into a double-quoted attribute.
pub(super) const FONT: &str = "system-ui, 'Noto Sans CJK SC', 'Noto Sans SC', 'PingFang SC', 'Hiragino Sans GB', \
                               'Microsoft YaHei', 'WenQuanYi Micro Hei', sans-serif";

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

/// Asserts that `svg` has texts and that every `<text>` names [`FONT`], a stack with a CJK face
/// for Linux, macOS and Windows.
#[cfg(test)]
pub(super) fn assert_font_stack(svg: &str) {
    let fonts: Vec<String> = svg
        .split("<text")
        .skip(1)
        .map(|t| {
            let value = t
                .split("font-family=\"")
                .nth(1)
                .and_then(|v| v.split('"').next())
                .unwrap_or_default();
            value.replace("&apos;", "'").replace("&quot;", "\"")
        })
        .collect();
    assert!(!fonts.is_empty(), "the chart has texts: {svg}");
    for font in fonts {
        assert_eq!(font, FONT, "every text names the stack");
        for family in [
            "'Noto Sans CJK SC'",
            "'PingFang SC'",
            "'Microsoft YaHei'",
            "'WenQuanYi Micro Hei'",
        ] {
            assert!(font.contains(family), "{family} in {font}");
        }
        assert!(
            font.starts_with("system-ui,") && font.ends_with(", sans-serif"),
            "{font}"
        );
    }
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

    #[test]
    fn bars_and_cost_stacks_name_the_font_stack() {
        let bars = [super::super::Bar {
            label: "甲云 · 八卡 H100".into(),
            value: 12.5,
            highlight: true,
        }];
        let stacks = [super::super::CostStack {
            label: "乙云 · L4".into(),
            parts: vec![("计算".into(), 100.0), ("存储".into(), 20.0)],
            highlight: false,
        }];
        assert_font_stack(&super::super::throughput_bars_svg("吞吐量", "令牌/秒", &bars));
        assert_font_stack(&super::super::cost_stack_svg("总拥有成本", "CNY", &stacks));
    }
}
