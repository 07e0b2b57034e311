//! Rendering shared by the line charts: the SVG string, the title-only chart
//! for empty input, and point filtering.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::legend;
use super::svg;

/// The drawing area of an in-memory SVG.
pub(super) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;
/// What drawing into an in-memory SVG returns.
pub(super) type DrawResult = Result<(), DrawingAreaErrorKind<std::io::Error>>;

/// A white `width`×`height` SVG drawn by `draw`, with its `<title>`.
pub(super) fn render(width: u32, height: u32, title: &str, draw: impl FnOnce(&Area<'_>) -> DrawResult) -> String {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (width, height)).into_drawing_area();
        // Drawing into a String cannot fail; a failed element would only be missing.
        let drawn = root
            .fill(&WHITE)
            .and_then(|()| draw(&root))
            .and_then(|()| root.present());
        debug_assert!(drawn.is_ok(), "{drawn:?}");
    }
    svg::finish(out, title)
}

/// A chart holding only its heading (for input without data).
pub(super) fn title_only(width: u32, title: &str) -> String {
    let height = legend::header_height::<()>(width, &[]);
    render(width, height, title, |root| {
        legend::draw_header(root, width, title, &[]).map(|_| ())
    })
}

/// `(x, y)` pairs of `xs` and `ys` (up to the shorter) where both are finite.
pub(super) fn finite_points(xs: &[f64], ys: &[f64]) -> Vec<(f64, f64)> {
    xs.iter()
        .zip(ys)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_points_zip_and_filter() {
        let pts = finite_points(&[0.0, 1.0, f64::NAN, 3.0, 4.0], &[5.0, f64::INFINITY, 7.0, 8.0]);
        assert_eq!(pts, vec![(0.0, 5.0), (3.0, 8.0)]);
    }

    #[test]
    fn title_only_is_a_small_svg() {
        let svg = title_only(960, "a<b");
        assert!(svg.starts_with("<svg role=\"img\" width=\"960\" height=\"60\""));
        assert!(svg.contains("<title>a&lt;b</title>"));
        assert!(svg.contains(">\na&lt;b\n</text>"));
    }
}
