//! Charts as inline SVG, for pages that must stand alone: horizontal bars
//! (a count per label) and columns (a count per step of an ordered scale,
//! such as clue counts or imports in time). Labels and values in, markup
//! out; the caller chooses what is counted.

use std::fmt::Write as _;

use super::escape;

/// One bar: its label and value.
pub struct Bar<'a> {
    pub label: &'a str,
    pub value: i64,
}

const BAR_H: u32 = 18;
const LABEL_W: u32 = 180;
const PLOT_W: u32 = 420;
const VALUE_W: u32 = 90;

/// Appends a horizontal bar chart: one row per bar, its value after it.
pub fn bars(title: &str, bars: &[Bar<'_>], out: &mut String) {
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let width = LABEL_W + PLOT_W + VALUE_W;
    let height = 24 + bars.len().max(1) as u32 * (BAR_H + 4);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart bars" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12"><text x="0" y="14" font-weight="bold">"#
    );
    escape(title, out);
    out.push_str("</text>");
    if bars.is_empty() {
        out.push_str(r##"<text x="0" y="36" fill="#555">none</text>"##);
    }
    for (i, b) in bars.iter().enumerate() {
        let y = 24 + i as u32 * (BAR_H + 4);
        let w = (b.value.max(0) as f64 / max as f64 * f64::from(PLOT_W)).round();
        out.push_str(r#"<g class="bar"><text x=""#);
        let _ = write!(
            out,
            "{}\" y=\"{}\" text-anchor=\"end\">",
            LABEL_W - 6,
            y + 13
        );
        escape(b.label, out);
        let _ = write!(
            out,
            r##"</text><rect x="{LABEL_W}" y="{y}" width="{w}" height="{BAR_H}" fill="#3a6ea5" data-value="{v}"/><text x="{}" y="{}">{v}</text></g>"##,
            f64::from(LABEL_W) + w + 4.0,
            y + 13,
            v = b.value
        );
    }
    out.push_str("</svg>");
}

/// Appends a column chart: one column per bar, in the order given, its
/// label under it (one in every few when they are many).
pub fn columns(title: &str, bars: &[Bar<'_>], out: &mut String) {
    const H: u32 = 160;
    let max = bars.iter().map(|b| b.value).max().unwrap_or(0).max(1);
    let step = (600 / bars.len().max(1) as u32).clamp(4, 40);
    let width = (60 + step * bars.len().max(1) as u32).max(640);
    let height = H + 110;
    let every = (bars.len() / 20).max(1);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="chart columns" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="11"><text x="0" y="14" font-weight="bold" font-size="12">"##
    );
    escape(title, out);
    let _ = write!(
        out,
        r##"</text><text x="0" y="34" fill="#555">{max}</text><path d="M50 30V{b}H{width}" stroke="#999" fill="none"/>"##,
        b = 30 + H
    );
    for (i, b) in bars.iter().enumerate() {
        let x = 52 + i as u32 * step;
        let h = (b.value.max(0) as f64 / max as f64 * f64::from(H)).round();
        let _ = write!(
            out,
            r##"<rect class="column" x="{x}" y="{}" width="{}" height="{h}" fill="#3a6ea5" data-value="{}"><title>"##,
            f64::from(30 + H) - h,
            step.saturating_sub(2).max(1),
            b.value
        );
        escape(b.label, out);
        let _ = write!(out, ": {}</title></rect>", b.value);
        if i % every == 0 {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" text-anchor="end" transform="rotate(-60 {} {})">"#,
                x + step / 2,
                H + 44,
                x + step / 2,
                H + 44
            );
            escape(b.label, out);
            out.push_str("</text>");
        }
    }
    out.push_str("</svg>");
}
