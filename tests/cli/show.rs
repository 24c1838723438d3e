//! `show`: one string decoded and drawn.

use crate::util::Workdir;

#[test]
fn show_draws_the_xwing_example_with_givens_candidates_and_status() {
    let w = Workdir::new();
    let packed = "03c848csc4cs1121g10hg005481020024881c8112002c0g1040h485848g0210h4481140350200gs403c4k81448050281k0091120k00gc80h4811s4cck80320g1c810c820020hc805210503cos0cok8s811";
    let out = w.run(&["show", packed]);
    assert!(out.contains("*1*"), "givens are marked:\n{out}");
    assert!(out.contains("type:      sudoku"), "{out}");
    assert!(out.contains("solutions: unique: "), "{out}");
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
