use super::*;
use crate::core::killer::Killer;
use crate::core::killer::krazydad::{FIRST500, rows};
use crate::core::vocabulary::KILLER_SEARCH_LIMIT;
use proptest::prelude::*;

use super::cells::UNIT_BITS;

/// The puzzles of a krazydad CSV with their solutions.
fn krazydad(text: &str) -> Vec<(Killer, String)> {
    rows(text)
        .map(|r| (Killer::from_cages(&r.ids, &r.sums).unwrap(), r.solved))
        .collect()
}

/// FNV-1a over what the archive keeps of each puzzle: the propagated
/// candidates and contradiction, the status (count and unique solution)
/// and the encoding.
fn digest(puzzles: &[(Killer, String)]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (k, _) in puzzles {
        let p = k.propagate();
        for m in p.candidates {
            eat(&m.bits().to_le_bytes());
        }
        eat(format!("{:?}", p.contradiction).as_bytes());
        let a = k.analysis();
        eat(format!("{:?}", a.status).as_bytes());
        eat(a.encoding.as_bytes());
    }
    h
}

/// Recorded from the solver before the dirty-set rewrite.
const FIRST500_DIGEST: u64 = 0x34e9_44ea_c7ce_240e;
const ALL8000_DIGEST: u64 = 0x953f_7ac9_c553_ad2f;

#[test]
fn the_first_500_krazydad_puzzles_analyse_as_they_did_before_the_rewrite() {
    let puzzles = krazydad(FIRST500);
    assert_eq!(puzzles.len(), 500);
    assert_eq!(digest(&puzzles), FIRST500_DIGEST, "{:#x}", digest(&puzzles));
}

/// Needs the shared corpora (not on users' machines): run with
/// `cargo test --release -- --ignored krazydad_8000`.
#[test]
#[ignore]
fn all_8000_krazydad_puzzles_analyse_as_they_did_before_the_rewrite_krazydad_8000() {
    let dir = std::env::var("SUDOKU_CORPORA").unwrap_or_else(|_| "/work/shared/corpora".into());
    let text =
        std::fs::read_to_string(format!("{dir}/killer/krazydad_intermediate_8000.csv")).unwrap();
    let puzzles = krazydad(&text);
    assert_eq!(puzzles.len(), 8000);
    assert_eq!(digest(&puzzles), ALL8000_DIGEST, "{:#x}", digest(&puzzles));
}

type Cages = Vec<(Vec<u8>, u8)>;

/// The cage list of a puzzle, as `Killer::solver` builds it.
fn lines(k: &Killer) -> Cages {
    k.cages()
        .iter()
        .map(|cage| {
            let cells = cage.cells().iter().map(|c| c.index() as u8).collect();
            (cells, cage.sum())
        })
        .collect()
}

/// Runs both solvers from the same cages and board and insists on the
/// same propagation (result and board, even part way on a conflict),
/// then the same count and unique solution.
fn same_as_reference(cages: &[(Vec<u8>, u8)], cand: [u16; CELLS]) -> Result<(), TestCaseError> {
    let (mut new, old) = (Solver::new(cages), reference::Solver::new(cages));
    let (mut b, mut r) = (Board::new(cand), reference::Board::new(cand));
    let (got, want) = (new.propagate(&mut b), old.propagate(&mut r));
    prop_assert_eq!(got, want);
    prop_assert_eq!(b.cand, r.cand);
    if got.is_ok() {
        new.add_unit_sums();
        let (got, want) = (new.count(&b), old.count(&r));
        prop_assert_eq!(got.found, want.found);
        // The branching differs from the reference's, so the node
        // counts do; both stay within the limit's bound.
        prop_assert!(got.nodes <= KILLER_SEARCH_LIMIT + 1);
        if got.found == 1 {
            prop_assert_eq!(got.solution, want.solution);
        }
    }
    Ok(())
}

#[test]
fn odd_boards_propagate_and_count_as_the_reference_does() {
    let (k, solved) = &krazydad(FIRST500)[0];
    let all = lines(k);
    let digit = |c: usize| 1u16 << (solved.as_bytes()[c] - b'1');
    let mut placed = [0x1ff; CELLS];
    for c in (0..CELLS).step_by(7) {
        placed[c] = digit(c);
    }
    let mut wrong = [0x1ff; CELLS];
    wrong[40] = digit(40) << 1 & 0x1ff | 1;
    let mut clash = [0x1ff; CELLS];
    clash[0] = 1;
    clash[1] = 1;
    let cases: Vec<(&str, Cages, [u16; CELLS])> = vec![
        ("no cages at all", vec![], [0x1ff; CELLS]),
        ("no cages, some digits", vec![], placed),
        ("every cage", all.clone(), [0x1ff; CELLS]),
        ("every cage, some digits", all.clone(), placed),
        ("every cage, a wrong digit", all.clone(), wrong),
        ("every cage, a digit twice in a row", all.clone(), clash),
        (
            "every other cage",
            all.iter().step_by(2).cloned().collect(),
            [0x1ff; CELLS],
        ),
        ("a sum-3 pair only", vec![(vec![0, 1], 3)], [0x1ff; CELLS]),
    ];
    for (name, cages, cand) in cases {
        if let Err(e) = same_as_reference(&cages, cand) {
            panic!("{name}: {e}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn variants_of_real_puzzles_propagate_and_count_as_the_reference_does(
        row in 0usize..500,
        keep in prop::collection::vec(0u8..4, 40),
        cells in prop::collection::vec(0u16..1200, CELLS),
    ) {
        let (k, solved) = &krazydad(FIRST500)[row];
        // About a quarter of the cages dropped: more solutions, less pruning.
        let cages: Vec<_> = lines(k)
            .into_iter()
            .zip(keep.iter().chain(std::iter::repeat(&1)))
            .filter(|&(_, &keep)| keep != 0)
            .map(|(cage, _)| cage)
            .collect();
        // Mostly open cells; some the solution's digit, some any digit
        // (often a contradiction), some any candidate set.
        let cand: [u16; CELLS] = std::array::from_fn(|c| match cells[c] {
            v @ 0..1000 => if v < 900 { 0x1ff } else { 1 << (solved.as_bytes()[c] - b'1') },
            v @ 1000..1040 => 1 << (v % 9),
            v => (v * 37 + 1) & 0x1ff | 1 << (solved.as_bytes()[c] - b'1'),
        });
        same_as_reference(&cages, cand)?;
    }
}

#[test]
fn every_unit_sum_of_a_real_puzzle_lies_in_one_unit_and_adds_up_in_its_solution() {
    let mut lines_seen = 0;
    for (k, solved) in krazydad(FIRST500) {
        let mut solver = Solver::new(&lines(&k));
        solver.add_unit_sums();
        for line in &solver.lines[solver.cages..] {
            let cells = &line.cells[..line.len];
            assert!(UNIT_BITS.iter().any(|&u| line.bits & !u == 0), "{cells:?}");
            let digits: u32 = cells
                .iter()
                .map(|&c| u32::from(solved.as_bytes()[usize::from(c)] - b'0'))
                .sum();
            assert_eq!(digits, u32::from(line.sum), "{cells:?}");
            lines_seen += 1;
        }
    }
    // Some four a puzzle, of one to three cells each.
    assert!(lines_seen > 1000, "{lines_seen}");
}

#[test]
fn overlapping_cages_get_no_unit_sums() {
    // Row 1 minus these would be r1c8-9 adding to 13, but r1c4 is
    // counted twice: nothing follows.
    let mut solver = Solver::new(&[(vec![0u8, 1, 2, 3], 10), (vec![3, 4, 5, 6], 22)]);
    solver.add_unit_sums();
    assert_eq!(solver.lines.len(), 2);
}

/// The rule of 45 below the root is what settles most krazydad puzzles
/// without a branch: 234 of the first 500 without it, 1,435 nodes in all.
#[test]
fn most_krazydad_puzzles_need_no_branch_once_the_search_adds_unit_sums() {
    let (mut nodes, mut unbranched) = (0, 0);
    for (k, _) in krazydad(FIRST500) {
        let mut solver = Solver::new(&lines(&k));
        let mut b = Board::new([0x1ff; CELLS]);
        solver.propagate(&mut b).unwrap();
        solver.add_unit_sums();
        let count = solver.count(&b);
        assert_eq!(count.found, 1);
        nodes += count.nodes;
        unbranched += usize::from(count.nodes == 1);
    }
    assert!(unbranched >= 450, "{unbranched}");
    assert!(nodes <= 650, "{nodes}");
}

#[test]
fn a_two_cell_cage_of_three_places_one_and_two_and_keeps_them_out_of_its_row() {
    // Cage r1c1+r1c2 = 3 needs both 1 and 2, both within row 1 and box 1.
    let solver = Solver::new(&[(vec![0, 1], 3)]);
    let mut b = Board::new([0x1ff; CELLS]);
    solver.propagate(&mut b).unwrap();
    assert_eq!((b.cand[0], b.cand[1]), (0b11, 0b11));
    assert!([2, 3, 8, 9, 10, 20].iter().all(|&c| b.cand[c] & 0b11 == 0));
    assert_eq!(b.cand[27], 0x1ff);
}

#[test]
fn a_cage_that_cannot_be_filled_is_a_conflict() {
    let solver = Solver::new(&[(vec![0, 1], 3)]);
    let mut cand = [0x1ff; CELLS];
    cand[0] = 0b1;
    cand[1] = 0b1;
    let err = solver.propagate(&mut Board::new(cand)).unwrap_err();
    assert!(
        matches!(err, Contradiction::Cell(_) | Contradiction::Group(0)),
        "{err:?}"
    );
}
