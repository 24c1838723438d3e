//! The drawings checked in a real browser: headless Chromium renders each
//! type's SVG to a screenshot, whose pixels must show the stored puzzle
//! (Str8ts black cells, Killer cage outlines and sums, the givens in their
//! cells), and prints the puzzle book to PDF, whose pages must hold the
//! stated number of puzzles with the solutions after them.
//!
//! Needs Debian's `chromium` (and `poppler-utils` for the PDF's pages);
//! `.ci/run` installs both. Where they are missing the tests fail saying
//! so: a drawing nobody looked at is not checked.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{Workdir, data, sample};

/// The drawing's geometry, as `render::svg` lays it out.
const CELL: usize = 50;
const MARGIN: usize = 3;
const SIZE: usize = 9 * CELL + 2 * MARGIN;
const INSET: usize = 5;

/// `program`, or a failure saying how to install it.
fn tool(program: &str, package: &str) -> PathBuf {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    });
    found.unwrap_or_else(|| {
        panic!(
            "{program} is not installed: these tests draw puzzles in a real browser. \
             Install it with `apt-get update && apt-get install -y {package}` \
             (as root; .ci/run does this under CI=true)"
        )
    })
}

/// Runs headless Chromium on `page` with `args` (a screenshot or a PDF).
fn chromium(w: &Workdir, page: &Path, args: &[String]) {
    let browser = tool("chromium", "chromium");
    let profile = tempfile::tempdir().expect("profile dir");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(page)
        .current_dir(w.path(""))
        .output()
        .expect("run chromium");
    assert!(out.status.success(), "chromium {args:?}: {out:?}");
}

/// A screenshot of `svg` at its own size, decoded: (width, RGBA bytes).
fn screenshot(w: &Workdir, svg: &Path) -> (usize, Vec<u8>) {
    let png = w.path(&format!(
        "{}.png",
        svg.file_stem().unwrap().to_string_lossy()
    ));
    chromium(
        w,
        svg,
        &[
            format!("--screenshot={}", png.display()),
            format!("--window-size={SIZE},{SIZE}"),
        ],
    );
    let decoder = png::Decoder::new(std::fs::File::open(&png).expect("screenshot written"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert!(
        info.width as usize >= SIZE && info.height as usize >= SIZE,
        "{info:?}"
    );
    let channels = info.color_type.samples();
    let rgba: Vec<u8> = buf[..info.buffer_size()]
        .chunks(channels)
        .flat_map(|p| [p[0], p[1 % channels], p[2 % channels], 255])
        .collect();
    (info.width as usize, rgba)
}

/// Whether the pixel at (x, y) is dark.
fn dark((width, rgba): &(usize, Vec<u8>), x: usize, y: usize) -> bool {
    let i = 4 * (y * width + x);
    rgba[i..i + 3].iter().map(|&v| u32::from(v)).sum::<u32>() < 3 * 100
}

/// Whether the pixel at (x, y) is inked at all (not white): thin lines
/// are drawn in anti-aliased grey.
fn inked((width, rgba): &(usize, Vec<u8>), x: usize, y: usize) -> bool {
    let i = 4 * (y * width + x);
    rgba[i..i + 3].iter().map(|&v| u32::from(v)).sum::<u32>() < 3 * 200
}

/// How many pixels of the rectangle are dark.
fn dark_in(shot: &(usize, Vec<u8>), x: std::ops::Range<usize>, y: std::ops::Range<usize>) -> usize {
    x.flat_map(|x| y.clone().map(move |y| (x, y)))
        .filter(|&(x, y)| dark(shot, x, y))
        .count()
}

/// How many pixels of the rectangle are inked.
fn inked_in(
    shot: &(usize, Vec<u8>),
    x: std::ops::Range<usize>,
    y: std::ops::Range<usize>,
) -> usize {
    x.flat_map(|x| y.clone().map(move |y| (x, y)))
        .filter(|&(x, y)| inked(shot, x, y))
        .count()
}

fn left(cell: usize) -> usize {
    MARGIN + cell % 9 * CELL
}

fn top(cell: usize) -> usize {
    MARGIN + cell / 9 * CELL
}

/// The middle of a cell, where its big digit is drawn.
fn middle_dark(shot: &(usize, Vec<u8>), cell: usize) -> usize {
    let (x, y) = (left(cell) + CELL / 2, top(cell) + CELL / 2);
    dark_in(shot, x - 8..x + 8, y - 10..y + 10)
}

/// Imports `file` and exports the first `n` puzzles as SVG; each stored
/// (id, givens) with its drawing's path.
fn drawn(w: &Workdir, file: &Path, n: usize) -> Vec<(String, String, PathBuf)> {
    w.import(&[file], &[]);
    w.run(&[
        "export",
        "--format",
        "svg",
        "--out",
        "svg",
        "--limit",
        &n.to_string(),
    ]);
    let rows = w.strings(&format!(
        "SELECT id || ' ' || givens FROM puzzles ORDER BY id LIMIT {n}"
    ));
    assert_eq!(rows.len(), n);
    rows.iter()
        .map(|r| {
            let (id, givens) = r.split_once(' ').unwrap();
            (
                id.to_owned(),
                givens.to_owned(),
                w.path(&format!("svg/{id}.svg")),
            )
        })
        .collect()
}

#[test]
fn str8ts_drawings_show_the_black_cells_and_the_givens_in_their_cells() {
    let w = Workdir::new();
    for (id, givens, svg) in drawn(&w, &sample("str8ts.txt"), 3) {
        let shot = screenshot(&w, &svg);
        let (digits, colours) = givens.as_bytes().split_at(81);
        let black = colours.iter().filter(|&&c| c == b'1').count();
        // A corner of each cell, clear of lines and digits: black or white.
        let drawn_black = (0..81)
            .filter(|&c| dark(&shot, left(c) + 8, top(c) + 8))
            .count();
        assert_eq!(drawn_black, black, "puzzle {id}: black cells");
        for c in 0..81 {
            assert_eq!(
                dark(&shot, left(c) + 8, top(c) + 8),
                colours[c] == b'1',
                "puzzle {id} cell {c}"
            );
            let ink = middle_dark(&shot, c);
            match (digits[c] != b'0', colours[c] == b'1') {
                // A white digit on black: light pixels in the dark middle.
                (true, true) => assert!(ink < 300, "puzzle {id} cell {c}: no white digit ({ink})"),
                (false, true) => assert_eq!(ink, 320, "puzzle {id} cell {c}: not all black"),
                (true, false) => assert!(ink > 10, "puzzle {id} cell {c}: given missing"),
                (false, false) => assert_eq!(ink, 0, "puzzle {id} cell {c}: not empty"),
            }
        }
    }
}

#[test]
fn classic_drawings_show_the_givens_in_their_cells_and_nothing_else() {
    let w = Workdir::new();
    for (id, givens, svg) in drawn(&w, &sample("classic.txt"), 2) {
        let shot = screenshot(&w, &svg);
        for (c, d) in givens.bytes().enumerate() {
            let ink = middle_dark(&shot, c);
            assert_eq!(
                ink > 10,
                d != b'0',
                "puzzle {id} cell {c}: {ink} dark pixels"
            );
        }
        // The box lines are heavier than the cell lines.
        let thickness = |x0: usize| {
            (x0 - 3..x0 + 4)
                .filter(|&x| dark(&shot, x, top(40) + 25))
                .count()
        };
        assert!(
            thickness(left(3)) > thickness(left(4)),
            "puzzle {id}: box lines not heavier"
        );
    }
}

/// The cages of a stored Killer identity: 4-connected cells of one label.
fn cages_of(layout: &[u8]) -> Vec<usize> {
    let mut cage = vec![usize::MAX; 81];
    let mut next = 0;
    for start in 0..81 {
        if cage[start] != usize::MAX {
            continue;
        }
        let mut stack = vec![start];
        cage[start] = next;
        while let Some(c) = stack.pop() {
            let (r, col) = (c / 9, c % 9);
            let near = [
                (r > 0).then(|| c - 9),
                (r < 8).then(|| c + 9),
                (col > 0).then(|| c - 1),
                (col < 8).then(|| c + 1),
            ];
            for n in near.into_iter().flatten() {
                if cage[n] == usize::MAX && layout[n] == layout[c] {
                    cage[n] = next;
                    stack.push(n);
                }
            }
        }
        next += 1;
    }
    cage
}

#[test]
fn killer_drawings_outline_the_stored_cages_with_their_sums() {
    let w = Workdir::new();
    let file = data("killer/krazydad_intermediate_first500_legacy.txt");
    for (id, givens, svg) in drawn(&w, &file, 2) {
        let (layout, sums) = givens.split_once(',').unwrap();
        let cage = cages_of(layout.as_bytes());
        let shot = screenshot(&w, &svg);
        // Between two cells side by side, a dashed outline runs INSET
        // inside each exactly when they are in different cages.
        for c in (0..81).filter(|c| c % 9 < 8) {
            let x = left(c) + CELL - INSET;
            let ink = inked_in(&shot, x - 1..x + 2, top(c) + 16..top(c) + 40);
            assert_eq!(
                ink > 0,
                cage[c] != cage[c + 1],
                "puzzle {id}: right of cell {c} ({ink})"
            );
        }
        for c in 0..72 {
            let y = top(c) + CELL - INSET;
            let ink = inked_in(&shot, left(c) + 20..left(c) + 40, y - 1..y + 2);
            assert_eq!(
                ink > 0,
                cage[c] != cage[c + 9],
                "puzzle {id}: below cell {c} ({ink})"
            );
        }
        // Each cage's sum in its first cell's corner, and nowhere else;
        // and the drawing says which cells and sum each cage has.
        let text = std::fs::read_to_string(&svg).unwrap();
        for c in 0..81 {
            let sum: u32 = sums[2 * c..2 * c + 2].parse().unwrap();
            let first = (0..c).all(|d| cage[d] != cage[c]);
            assert_eq!(sum > 0, first, "puzzle {id} cell {c}");
            let corner = dark_in(&shot, left(c) + 3..left(c) + 18, top(c) + 3..top(c) + 15);
            assert_eq!(
                corner > 8,
                first,
                "puzzle {id} cell {c}: sum drawn ({corner})"
            );
            if first {
                let cells: Vec<String> = (0..81)
                    .filter(|&d| cage[d] == cage[c])
                    .map(|d| d.to_string())
                    .collect();
                let element = format!(r#"data-sum="{sum}" data-cells="{}""#, cells.join(" "));
                assert!(text.contains(&element), "puzzle {id}: no {element}");
                let label = format!(r#"<text class="sum" data-cell="{c}" "#);
                assert!(text.contains(&label), "puzzle {id}: no sum at {c}");
            }
        }
    }
}

#[test]
fn the_printed_book_has_the_stated_puzzles_per_page_and_the_solutions_after() {
    let w = super::export::every_type_sampled();
    let n = w.count("SELECT count(*) FROM puzzles WHERE clues < 30") as usize;
    w.run(&[
        "export",
        "--format",
        "html",
        "--max-clues",
        "29",
        "--per-page",
        "4",
        "--out",
        "book.html",
    ]);
    let pdf = w.path("book.pdf");
    chromium(
        &w,
        &w.path("book.html"),
        &[
            "--no-pdf-header-footer".into(),
            format!("--print-to-pdf={}", pdf.display()),
        ],
    );
    let pages = n.div_ceil(4);
    let text = |page: usize| -> String {
        let out = Command::new(tool("pdftotext", "poppler-utils"))
            .args(["-layout", "-f", &page.to_string(), "-l", &page.to_string()])
            .arg(&pdf)
            .arg("-")
            .output()
            .expect("run pdftotext");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let info = Command::new(tool("pdfinfo", "poppler-utils"))
        .arg(&pdf)
        .output()
        .expect("pdfinfo");
    let info = String::from_utf8_lossy(&info.stdout).into_owned();
    assert!(
        info.contains(&format!("Pages:           {}\n", 2 * pages)),
        "{n} puzzles, 4 a page:\n{info}"
    );
    let ids: Vec<String> =
        w.strings("SELECT CAST(id AS TEXT) FROM puzzles WHERE clues < 30 ORDER BY id");
    for page in 1..=2 * pages {
        let t = text(page);
        let on_page = if page <= pages { page } else { page - pages };
        let want = if on_page < pages {
            4
        } else {
            n - 4 * (pages - 1)
        };
        let captions = t.matches(" clues").count();
        assert_eq!(captions, want, "page {page}:\n{t}");
        let solutions = t.matches("Solution of #").count();
        assert_eq!(
            solutions,
            if page > pages { want } else { 0 },
            "page {page}:\n{t}"
        );
        // In first-seen order.
        for id in &ids[4 * (on_page - 1)..4 * (on_page - 1) + want] {
            assert!(
                t.contains(&format!("#{id} ")),
                "page {page}: no #{id}:\n{t}"
            );
        }
    }
}

#[test]
fn the_stats_page_draws_its_charts_without_anything_from_outside() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt"), &sample("bad.txt")], &[]);
    w.run(&["stats", "--html", "stats.html"]);
    let page = std::fs::read_to_string(w.path("stats.html")).unwrap();
    super::export::assert_self_contained(&page);
    let shot = w.path("stats.png");
    chromium(
        &w,
        &w.path("stats.html"),
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=800,1600".into(),
        ],
    );
    let decoder = png::Decoder::new(std::fs::File::open(&shot).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    // The bars are drawn: pixels of their blue.
    let blue = buf[..info.buffer_size()]
        .chunks(info.color_type.samples())
        .filter(|p| p[0] == 0x3a && p[1] == 0x6e && p[2] == 0xa5)
        .count();
    assert!(blue > 10_000, "{blue} bar pixels");
}
