//! `show`: one string decoded and drawn as printed. What a user sees is
//! checked against the reviewed text in `tests/cli/snapshots/` (run with
//! `UPDATE_SNAPSHOTS=1` to rewrite them after a change to the drawing, and
//! review the diff).

use std::path::Path;

use crate::util::Workdir;

/// The X-wing example (SudokuWiki), packed: propagation solves it.
const XWING: &str = "03c848csc4cs1121g10hg005481020024881c8112002c0g1040h485848g0210h4481140350200gs403c4k81448050281k0091120k00gc80h4811s4cck80320g1c810c820020hc805210503cos0cok8s811";
/// SudokuWiki's legacy Killer example.
const KILLER: &str = "212112111212112223213331443231221241134412231124133132322122212344411312111411312,171510200026110000000000000000000011000011000017160000001101060000090016110017000900000900001800160800040010160000001100002100001800001800140000080000000000000000";
/// osmith93's first Str8ts board (black givens among them).
const STR8TS: &str = "050000000030000000000206700000000000014005000009000000000000540600000000060020009110001000000000000000110001001000000011000110000000100100011000000000000000100011";

/// Fails unless `actual` is the reviewed text of snapshot `name`.
pub fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/cli/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name}: the drawing differs from {} from line {} on.\n--- expected\n{expected}\n--- actual\n{actual}\n\
             (if the change is meant, rerun with UPDATE_SNAPSHOTS=1 and review the diff)",
            path.display(),
            first + 1
        );
    }
}

#[test]
fn show_draws_a_classic_puzzle_as_printed_givens_only_in_heavy_boxes() {
    let w = Workdir::new();
    let out = w.run(&["show", XWING]);
    snapshot("show_classic", &out);
    // Propagation solves this puzzle; the grid still shows only its givens.
    let grid: String = out.lines().take(19).collect();
    let digits = grid.chars().filter(char::is_ascii_digit).count();
    let clues = out.lines().find_map(|l| l.strip_prefix("clues:")).unwrap();
    assert_eq!(digits.to_string(), clues.trim(), "{out}");
    assert!(out.contains("solutions: unique: "), "{out}");
    assert!(digits < 40, "{out}");
}

#[test]
fn show_draws_killer_cages_with_their_sums() {
    let w = Workdir::new();
    snapshot("show_killer", &w.run(&["show", KILLER]));
}

#[test]
fn show_draws_str8ts_black_cells_and_black_givens_apart_from_white() {
    let w = Workdir::new();
    snapshot("show_str8ts", &w.run(&["show", STR8TS]));
}

#[test]
fn show_adds_the_candidates_and_the_solution_when_asked() {
    let w = Workdir::new();
    snapshot(
        "show_classic_candidates_solution",
        &w.run(&["show", "--candidates", "--solution", XWING]),
    );
    snapshot(
        "show_killer_solution",
        &w.run(&["show", "--solution", KILLER]),
    );
}

/// Colour needs a terminal: `script` gives the command one.
fn on_a_terminal(w: &Workdir, no_color: bool) -> String {
    let bin = env!("CARGO_BIN_EXE_sudoku-archive");
    let mut c = std::process::Command::new("script");
    c.args(["-qec", &format!("{bin} show {XWING}"), "/dev/null"])
        .current_dir(w.path(""))
        .env_remove("NO_COLOR");
    if no_color {
        c.env("NO_COLOR", "1");
    }
    let out = c.output().expect("run script (util-linux)");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn show_colours_a_terminal_only_and_never_against_no_color() {
    let w = Workdir::new();
    assert!(
        !w.run(&["show", XWING]).contains('\x1b'),
        "colour in a pipe"
    );
    assert!(
        on_a_terminal(&w, false).contains("\x1b[1m"),
        "no colour on a terminal"
    );
    assert!(
        !on_a_terminal(&w, true).contains('\x1b'),
        "colour despite NO_COLOR"
    );
}

#[test]
fn show_svg_prints_one_drawing() {
    let w = Workdir::new();
    let out = w.run(&["show", "--svg", KILLER]);
    assert!(
        out.starts_with("<svg ") && out.ends_with("</svg>\n"),
        "{out}"
    );
    assert_eq!(out.matches(r#"class="cage""#).count(), 31, "{out}");
}

#[test]
fn show_of_a_bad_string_names_the_problem() {
    let w = Workdir::new();
    let out = w.output(&["show", "12345"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("5 characters"),
        "{out:?}"
    );
}
