//! The Killer solver checked against the fast Killer solver on krazydad's
//! puzzles (no step may place a wrong digit or remove a solution's
//! candidate), its sentences, and the measurements of its scale.

use crate::core::grid::CELLS;
use crate::core::killer::Killer;
use crate::core::logic::rate::{Budget, Outcome, Solution};
use crate::core::logic::step::tenths;
use crate::core::vocabulary::Status;

use super::{KillerMarks, solve};

/// One krazydad row: its volume, book and puzzle number and the puzzle.
struct Row {
    order: [u32; 3],
    killer: Killer,
}

/// The rows of a krazydad CSV (`,ptitle,vol,book,puzzle,puzz_color,
/// puzz_hint,solved,sOrder`).
fn rows(text: &str) -> Vec<Row> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.splitn(7, ',').collect();
            let order = [f[2], f[3], f[4]].map(|x| x.parse().unwrap());
            let (hints, _) = f[6].trim_start_matches('"').split_once('"').unwrap();
            let legacy = crate::core::killer::krazydad::killer_string(f[5], hints).unwrap();
            Row {
                order,
                killer: Killer::parse(&legacy).unwrap(),
            }
        })
        .collect()
}

const FIRST500: &str =
    include_str!("../../../../tests/data/killer/krazydad_intermediate_first500.csv");

/// The fast solver's unique solution.
fn solution(k: &Killer) -> [u8; CELLS] {
    let Status::Unique(s) = k.solve() else {
        panic!("not unique")
    };
    let mut out = [0u8; CELLS];
    for (o, b) in out.iter_mut().zip(s.bytes()) {
        *o = b - b'0';
    }
    out
}

fn check_against(n: usize, sol: &Solution<KillerMarks>, solution: &[u8; CELLS]) {
    for (i, step) in sol.steps.iter().enumerate() {
        if let Some((c, d)) = step.place {
            assert_eq!(
                solution[c as usize],
                d,
                "puzzle {n}: step {} places a wrong digit: {step}",
                i + 1
            );
        }
        for &(c, d) in &step.eliminate {
            assert_ne!(
                solution[c as usize],
                d,
                "puzzle {n}: step {} removes the solution's {d} from cell {c}: {step}",
                i + 1
            );
        }
    }
    assert_ne!(
        sol.outcome,
        Outcome::Invalid,
        "puzzle {n}: broke the position"
    );
    if sol.outcome == Outcome::Solved {
        assert_eq!(sol.marks.marks().values(), solution, "puzzle {n}");
    }
}

#[test]
fn no_killer_step_places_a_wrong_digit_or_removes_a_solution_candidate() {
    let rows = rows(FIRST500);
    assert_eq!(rows.len(), 500);
    let mut solved = 0;
    let mut killer_steps = [0usize; 4];
    for (n, row) in rows.iter().enumerate() {
        let sol = solve(&row.killer, Budget::default());
        check_against(n + 1, &sol, &solution(&row.killer));
        solved += usize::from(sol.outcome == Outcome::Solved);
        for s in &sol.steps {
            let i = match s.technique {
                "Cage Unique Combination" | "Cage Combinations" => 0,
                "Rule of 45" | "Rule of 45 (single)" => 1,
                "Cage Pointing" | "Cage Claiming" => 2,
                "Cage Hidden Single" => 3,
                _ => continue,
            };
            killer_steps[i] += 1;
        }
    }
    // Every Killer technique was exercised, and most puzzles solved.
    assert!(killer_steps.iter().all(|&n| n > 0), "{killer_steps:?}");
    assert!(solved > 400, "only {solved} of 500 solved");
}

#[test]
fn a_killer_solution_reads_step_by_step() {
    let rows = rows(FIRST500);
    let sol = solve(&rows[0].killer, Budget::default());
    for (i, s) in sol.steps.iter().enumerate() {
        println!("{:>3}. [{}] {s}", i + 1, tenths(s.rating));
    }
    assert_eq!(sol.outcome, Outcome::Solved);
}

/// Ratings against krazydad's order, and the speed, on any krazydad CSV
/// (`KRAZYDAD=path`, else the repository's first 500), every step then
/// checked against the fast solver:
/// `cargo test --release --lib killer_scale -- --ignored --nocapture`.
#[test]
#[ignore]
fn killer_scale_against_krazydads_order_and_speed() {
    let text = std::env::var("KRAZYDAD")
        .map(|p| std::fs::read_to_string(p).unwrap())
        .unwrap_or_else(|_| FIRST500.to_string());
    let rows = rows(&text);
    let start = std::time::Instant::now();
    let sols: Vec<Solution<KillerMarks>> = rows
        .iter()
        .map(|r| solve(&r.killer, Budget::default()))
        .collect();
    let secs = start.elapsed().as_secs_f64();
    for (n, (r, s)) in rows.iter().zip(&sols).enumerate() {
        check_against(n + 1, s, &solution(&r.killer));
    }
    let mut hist = std::collections::BTreeMap::new();
    let mut outcomes = std::collections::BTreeMap::new();
    for s in &sols {
        *hist.entry(s.rating.er).or_insert(0) += 1;
        *outcomes.entry(format!("{:?}", s.outcome)).or_insert(0) += 1;
    }
    println!(
        "{} puzzles in {secs:.2} s: {:.0} puzzles/s on one core",
        rows.len(),
        rows.len() as f64 / secs
    );
    println!("outcomes: {outcomes:?}");
    for (er, n) in hist {
        println!("  ER {}: {n}", tenths(er));
    }
    let ours: Vec<f64> = sols.iter().map(|s| f64::from(s.rating.er)).collect();
    let steps: Vec<f64> = sols.iter().map(|s| s.steps.len() as f64).collect();
    for (i, what) in ["vol", "book", "puzzle"].iter().enumerate() {
        let theirs: Vec<f64> = rows.iter().map(|r| f64::from(r.order[i])).collect();
        println!(
            "Spearman with {what}: ER {:.3}, steps {:.3}",
            crate::core::logic::tests::spearman(&ours, &theirs),
            crate::core::logic::tests::spearman(&steps, &theirs)
        );
    }
}
