//! Self-contained HTML pages: a printable book of puzzles ([`Book`]) and
//! the shell of any page ([`page_start`], [`page_end`]). Everything a page
//! needs is in it: inline CSS and inline SVG, no scripts, no fonts or
//! images fetched.
//!
//! A book is written as a stream: its head, each puzzle as it comes, then
//! (after the caller's second pass over the same selection) each
//! solution, then its end. It keeps a count, never the puzzles.

use std::fmt::Write as _;

use super::{Picture, escape, svg};
use crate::core::vocabulary::PuzzleType;

/// The paper a book is laid out for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    fn css(self) -> &'static str {
        match self {
            Paper::A4 => "A4",
            Paper::Letter => "letter",
        }
    }
}

/// Page margins, and the printable area both papers share (A4 is the
/// narrower, Letter the shorter), in millimetres: a layout that fits it
/// fits either paper.
const MARGIN_MM: u32 = 12;
const AREA_W_MM: u32 = 210 - 2 * MARGIN_MM;
const AREA_H_MM: u32 = 279 - 2 * MARGIN_MM;
/// A caption's height and the gap between puzzles.
const CAPTION_MM: u32 = 6;
const GAP_MM: u32 = 5;

/// Appends the start of a page: doctype, title, the style sheet, `<body>`.
pub fn page_start(title: &str, css: &str, out: &mut String) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>");
    escape(title, out);
    out.push_str("</title><style>\n");
    out.push_str(css);
    out.push_str("\n</style></head><body>\n");
}

/// Appends the end of a page.
pub fn page_end(out: &mut String) {
    out.push_str("</body></html>\n");
}

/// What a book prints under each puzzle.
pub struct Caption<'a> {
    pub id: i64,
    pub kind: PuzzleType,
    pub clues: i64,
    /// Where it was first read: `file:line`.
    pub source: Option<&'a str>,
}

/// A printable book: puzzles `per_page` to a page, then their solutions.
pub struct Book {
    per_page: usize,
    /// Puzzles (or solutions) written in the current part.
    written: usize,
    columns: usize,
}

impl Book {
    /// A book of `per_page` puzzles to a page (at least 1); appends its head.
    pub fn start(title: &str, per_page: usize, paper: Paper, out: &mut String) -> Book {
        let per_page = per_page.max(1);
        let columns = if per_page <= 2 { 1 } else { 2 };
        let rows = per_page.div_ceil(columns) as u32;
        let cols = columns as u32;
        let by_width = (AREA_W_MM - (cols - 1) * GAP_MM) / cols;
        let by_height = (AREA_H_MM - rows * (CAPTION_MM + GAP_MM)) / rows;
        let side = by_width.min(by_height);
        let css = format!(
            "@page {{ size: {paper}; margin: {MARGIN_MM}mm; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; font-family: 'DejaVu Sans', Arial, Helvetica, sans-serif; color: #000; background: #fff; }}
.page {{ display: grid; grid-template-columns: repeat({columns}, {side}mm); column-gap: {GAP_MM}mm; row-gap: {GAP_MM}mm; justify-content: center; break-after: page; page-break-after: always; }}
.page:last-child {{ break-after: auto; page-break-after: auto; }}
figure {{ margin: 0; break-inside: avoid; page-break-inside: avoid; }}
figure svg {{ display: block; width: {side}mm; height: {side}mm; }}
figcaption {{ height: {CAPTION_MM}mm; font-size: 9pt; line-height: {CAPTION_MM}mm; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }}
figure.none div {{ width: {side}mm; height: {side}mm; border: 1px solid #999; display: flex; align-items: center; justify-content: center; color: #555; }}
@media screen {{ body {{ padding: 12mm; background: #eee; }} .page {{ background: #fff; width: {AREA_W_MM}mm; margin: 0 auto 12mm; padding: 6mm 0; }} }}",
            paper = paper.css(),
        );
        page_start(title, &css, out);
        Book {
            per_page,
            written: 0,
            columns,
        }
    }

    /// How many puzzles a printed row holds.
    pub fn columns(&self) -> usize {
        self.columns
    }

    fn open(&mut self, part: &str, out: &mut String) {
        if self.written.is_multiple_of(self.per_page) {
            let _ = writeln!(out, "<section class=\"page {part}\">");
        }
    }

    fn close(&mut self, out: &mut String) {
        self.written += 1;
        if self.written.is_multiple_of(self.per_page) {
            out.push_str("</section>\n");
        }
    }

    fn caption(c: &Caption<'_>, solution: bool, out: &mut String) {
        let _ = write!(
            out,
            "<figcaption>{}#{} {} &middot; {} clues",
            if solution { "Solution of " } else { "" },
            c.id,
            c.kind,
            c.clues
        );
        if let (Some(s), false) = (c.source, solution) {
            out.push_str(" &middot; ");
            escape(s, out);
        }
        out.push_str("</figcaption>");
    }

    /// Appends one puzzle (drawn as `p` shows it).
    pub fn puzzle(&mut self, c: &Caption<'_>, p: &Picture, out: &mut String) {
        self.open("puzzles", out);
        let _ = write!(out, "<figure class=\"puzzle\" data-id=\"{}\">", c.id);
        svg::svg(p, out);
        Book::caption(c, false, out);
        out.push_str("</figure>\n");
        self.close(out);
    }

    /// Ends the puzzles: the solutions start on a new page.
    pub fn start_solutions(&mut self, out: &mut String) {
        self.end_part(out);
    }

    /// Appends one solution: `p` drawn with its solution, or a note that
    /// the puzzle has none (or more than one).
    pub fn solution(&mut self, c: &Caption<'_>, p: &Picture, out: &mut String) {
        self.open("solutions", out);
        let none = if p.solution.is_some() { "" } else { " none" };
        let _ = write!(
            out,
            "<figure class=\"solution{none}\" data-id=\"{}\">",
            c.id
        );
        if p.solution.is_some() {
            svg::svg(p, out);
        } else {
            out.push_str("<div>no unique solution</div>");
        }
        Book::caption(c, true, out);
        out.push_str("</figure>\n");
        self.close(out);
    }

    fn end_part(&mut self, out: &mut String) {
        if !self.written.is_multiple_of(self.per_page) {
            out.push_str("</section>\n");
        }
        self.written = 0;
    }

    /// Appends the end of the book.
    pub fn finish(mut self, out: &mut String) {
        self.end_part(out);
        page_end(out);
    }
}
