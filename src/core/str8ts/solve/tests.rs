use super::*;

use crate::core::grid::CELLS;

use super::super::compartment::Direction;
use super::super::rules as reference;

const REAL_LEGACY: &str = include_str!("../../../../tests/data/str8ts/real_legacy.txt");

/// The real puzzles, as read.
fn real_boards() -> Vec<Str8ts> {
    REAL_LEGACY
        .lines()
        .filter_map(|l| l.split(' ').next())
        .filter_map(|s| Str8ts::parse(s).ok())
        .collect()
}

/// The board `legacy` with its character `at` replaced by `c`, if it reads.
fn variant(legacy: &str, at: usize, c: u8) -> Option<Str8ts> {
    let mut b = legacy.as_bytes().to_vec();
    *b.get_mut(at)? = c;
    Str8ts::parse(std::str::from_utf8(&b).ok()?).ok()
}

/// Real puzzles and variants of them: each given removed, each white
/// empty cell given each digit in turn (every fifth cell), each cell's
/// colour flipped.
fn variants() -> Vec<Str8ts> {
    let mut out = real_boards();
    for line in REAL_LEGACY.lines() {
        let legacy = line.split(' ').next().unwrap_or_default();
        let b = legacy.as_bytes();
        if b.len() != 162 {
            continue;
        }
        for i in 0..CELLS {
            if b[i] != b'0' {
                out.extend(variant(legacy, i, b'0'));
            } else if b[81 + i] == b'0' && i % 5 == 0 {
                out.extend((b'1'..=b'9').filter_map(|d| variant(legacy, i, d)));
            }
            let flipped = if b[81 + i] == b'0' { b'1' } else { b'0' };
            out.extend(variant(legacy, 81 + i, flipped));
        }
    }
    out
}

/// Checks `board` against the reference; returns the search nodes of
/// each, in that order.
fn agrees_with_the_reference(board: &Str8ts) -> (u64, u64) {
    let root = propagate(board);
    assert_eq!(root, reference::in_order(board), "{}", board.to_packed());
    let (new, nodes) = solve_counting(board);
    let (old, old_nodes) = reference::count(board);
    // The search deduces more than the reference below the root, so
    // its tree differs; the answer may not.
    assert_eq!(
        new,
        old,
        "{} ({nodes} nodes, reference {old_nodes})",
        board.to_packed()
    );
    if let Ok(root) = root {
        assert_eq!(
            solve(&root),
            reference::count(&root).0,
            "{}",
            root.to_packed()
        );
    }
    (nodes, old_nodes)
}

#[test]
fn the_solver_agrees_with_the_reference_on_real_puzzles_and_their_variants() {
    let boards = variants();
    assert!(boards.len() > 1000, "{}", boards.len());
    let mut kinds = [0usize; 5];
    let (mut total, mut old_total) = (0, 0);
    let real = real_boards().len();
    for (n, board) in boards.iter().enumerate() {
        let (nodes, old_nodes) = agrees_with_the_reference(board);
        // The real puzzles come first: the search's extra rule must pay
        // on each that it settles with one solution or none, and over
        // all boards. With two solutions the search stops at the second,
        // and which branch meets it first is luck either way.
        if n < real && matches!(solve(board), Solutions::Unique(_) | Solutions::Unsolvable) {
            assert!(nodes <= old_nodes, "{n}: {nodes} > {old_nodes}");
        }
        total += nodes;
        old_total += old_nodes;
        kinds[match solve(board) {
            Solutions::Contradiction(_) => 0,
            Solutions::Unsolvable => 1,
            Solutions::Unique(_) => 2,
            Solutions::Multiple => 3,
            Solutions::GaveUp => 4,
        }] += 1;
    }
    // Contradictions, unique and multiple answers all among them.
    assert!(kinds[0] > 0 && kinds[2] > 0 && kinds[3] > 0, "{kinds:?}");
    assert!(total <= old_total, "{total} > {old_total}");
}

/// Nodes over the real puzzles and their variants, against the
/// reference: total, largest, and the count of each answer's kind.
/// Run: `cargo test --release --lib str8ts_variant_nodes -- --ignored --nocapture`.
#[test]
#[ignore]
fn str8ts_variant_nodes() {
    let (mut total, mut old_total, mut most, mut old_most, mut worse) = (0, 0, 0, 0, 0);
    for board in &variants() {
        let (new, nodes) = solve_counting(board);
        let (old, old_nodes) = reference::count(board);
        assert_eq!(new, old, "{}", board.to_packed());
        total += nodes;
        old_total += old_nodes;
        most = most.max(nodes);
        old_most = old_most.max(old_nodes);
        worse += usize::from(nodes > old_nodes);
    }
    println!(
        "nodes {total} (reference {old_total}), largest {most} (reference {old_most}), more nodes on {worse} boards"
    );
}

/// Three near-empty boards the fuzzer found giving up (0.1-0.36 s each).
const FUZZ_SLOW: [&str; 3] = [
    "300000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000001",
    "300000000000000000000000000000000001000000000000000010100000000000000000010000000000010100000000000000000010000000000000000000000000010000000000000000000000000000",
    "300000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000001",
];

/// Three near-empty boards the fuzzer found still giving up once the
/// tally rule was in (0.36-0.55 s each): the last two have no solution,
/// and the proof needs digits counted together (an 8-cell run holds one
/// of 1 and 9, not both); the first has two, below choices only such a
/// count refutes.
const FUZZ_SETS: [&str; 3] = [
    "300000000000000000000000000000009000000000001000000000000000000000000000000000000000000000000000000000100010000000000000000000000000000000000000000000000000000000",
    "300000000000000000000000000000000000000000010000000900000000000000000040000000000000000001000000000000000000000000001000000000000000000000000000000000000000000001",
    "300000000000000000000000000000000000000000010000000000000000000000000040000000000000000001000000000000000000000000000000000000000000000000000001000000000000000001",
];

/// The fewest and the most cells holding a digit of `set` (bit `d - 1`
/// for digit `d`) the rows of `board` can have, and the columns: each
/// line's least and most from the lengths of its compartments alone
/// (any straight of that length), givens ignored, plus its black
/// digits. A proof of no solution, apart from the search, when one
/// side's least passes the other's most.
fn set_bounds(board: &Str8ts, set: u16) -> [(u32, u32); 2] {
    let mut out = [(0, 0); 2];
    for (i, m) in board.masks().iter().enumerate() {
        if board.black()[i] && m.len() == 1 {
            let n = (m.bits() & set).count_ones();
            for side in &mut out {
                side.0 += n;
                side.1 += n;
            }
        }
    }
    for comp in board.compartments() {
        let len = comp.len();
        let counts = (0..=9 - len).map(|low| ((((1u16 << len) - 1) << low) & set).count_ones());
        let side = &mut out[usize::from(comp.direction == Direction::Column)];
        side.0 += counts.clone().min().unwrap_or(0);
        side.1 += counts.max().unwrap_or(0);
    }
    out
}

#[test]
fn the_fuzz_boards_that_need_digits_counted_together_settle_with_checked_answers() {
    // 1 and 9: an 8-cell run holds exactly one of them.
    const ONE_NINE: u16 = 0b1_0000_0001;
    let answers = [
        Solutions::Multiple,
        Solutions::Unsolvable,
        Solutions::Unsolvable,
    ];
    for (s, want) in FUZZ_SETS.into_iter().zip(answers) {
        let board = Str8ts::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let (got, nodes) = solve_counting(&board);
        assert_eq!(got, want, "{s}");
        assert!(nodes <= 1000, "{s}: {nodes} nodes");
        if got == Solutions::Unsolvable {
            let [(rows_least, rows_most), (cols_least, cols_most)] = set_bounds(&board, ONE_NINE);
            assert!(rows_least > cols_most || cols_least > rows_most, "{s}");
        } else {
            assert_eq!(two_checked_solutions(&board), Ok(()), "{s}");
        }
    }
}

/// Sparse boards: the fuzz finds, the all-white empty board, and boards
/// from a fixed generator with 0-3 white givens and 1-6 black cells,
/// half of them with a black digit. Only boards that read are kept.
fn sparse_boards() -> Vec<(String, Str8ts)> {
    let mut out: Vec<(String, Str8ts)> = FUZZ_SLOW
        .iter()
        .enumerate()
        .filter_map(|(n, s)| Some((format!("fuzz {n}"), Str8ts::parse(s).ok()?)))
        .collect();
    let empty = "0".repeat(162);
    out.extend(Str8ts::parse(&empty).ok().map(|b| ("empty".to_owned(), b)));
    let mut seed = 0x2545_f491_u32;
    let mut next = move |n: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed % n) as usize
    };
    for n in 0..60 {
        let mut b = empty.clone().into_bytes();
        for _ in 0..1 + next(6) {
            let i = next(81);
            b[81 + i] = b'1';
            if n % 2 == 1 && next(2) == 0 {
                b[i] = b'1' + next(9) as u8;
            }
        }
        for _ in 0..next(4) {
            let i = next(81);
            if b[81 + i] == b'0' {
                b[i] = b'1' + next(9) as u8;
            }
        }
        let s = String::from_utf8(b).unwrap_or_default();
        if let Ok(board) = Str8ts::parse(&s) {
            out.push((format!("gen {n}"), board));
        }
    }
    out
}

/// The first solution the search finds from `board`'s root, if any.
fn first_solution(board: &Str8ts) -> Option<[u16; CELLS]> {
    let layout = Layout::new(board.black());
    let root = root(board, &layout).ok()?;
    let (mut count, mut found) = (0, None);
    layout.count(&root.masks().map(Mask::bits), &mut count, &mut found);
    found
}

/// Why `sol` is not a solution of `board`, checked from the board's
/// masks and compartments alone: one digit in each white cell, among
/// those the board allows there (so givens and black cells kept), no
/// digit twice in a row or column, every compartment a straight.
fn wrong(board: &Str8ts, sol: &[u16; CELLS]) -> Option<String> {
    for (i, (&m, was)) in sol.iter().zip(board.masks()).enumerate() {
        if m & !was.bits() != 0 || (!board.black()[i] && m.count_ones() != 1) {
            return Some(format!("cell {i} holds {m:b}"));
        }
    }
    for line in 0..9 {
        let (mut row, mut col) = (0u16, 0u16);
        for k in 0..9 {
            let (r, c) = (sol[line * 9 + k], sol[k * 9 + line]);
            if row & r != 0 || col & c != 0 {
                return Some(format!("a digit twice in line {line}"));
            }
            row |= r;
            col |= c;
        }
    }
    for comp in board.compartments() {
        let ds = comp.cells().iter().fold(0u16, |a, c| a | sol[c.index()]);
        let low = ds.trailing_zeros();
        if ds.count_ones() as usize != comp.len() || ds >> low != (1 << comp.len()) - 1 {
            return Some(format!("{comp} holds {ds:b}"));
        }
    }
    None
}

/// Two different solutions of `board`, each checked: the first the
/// search finds, then one the search finds with that one's digit
/// taken from some cell.
fn two_checked_solutions(board: &Str8ts) -> Result<(), String> {
    let first = first_solution(board).ok_or("no first solution")?;
    if let Some(why) = wrong(board, &first) {
        return Err(format!("first: {why}"));
    }
    for i in (0..CELLS).filter(|&i| board.masks()[i].len() > 1) {
        let mut masks = *board.masks();
        masks[i] = Mask::from_bits_truncate(masks[i].bits() & !first[i]);
        if let Some(second) = first_solution(&board.with_masks(masks)) {
            return match wrong(board, &second) {
                Some(why) => Err(format!("second: {why}")),
                None if second == first => Err("the same twice".to_owned()),
                None => Ok(()),
            };
        }
    }
    Err("no second solution".to_owned())
}

#[test]
fn the_fuzz_boards_that_gave_up_find_two_solutions_in_a_few_hundred_nodes() {
    for s in FUZZ_SLOW {
        let board = Str8ts::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let (got, nodes) = solve_counting(&board);
        assert_eq!(got, Solutions::Multiple, "{s}");
        assert!(nodes <= 500, "{s}: {nodes} nodes");
        assert_eq!(two_checked_solutions(&board), Ok(()), "{s}");
    }
}

#[test]
fn sparse_boards_settle_well_inside_the_node_limit_with_checked_answers() {
    let boards = sparse_boards();
    assert!(boards.len() > 50, "{}", boards.len());
    for (name, board) in boards {
        let (got, nodes) = solve_counting(&board);
        assert!(nodes <= 2000, "{name}: {nodes} nodes, {got:?}");
        match got {
            Solutions::Multiple => {
                assert_eq!(two_checked_solutions(&board), Ok(()), "{name}");
            }
            Solutions::Unique(sol) => {
                let bits = sol.masks().map(Mask::bits);
                assert_eq!(wrong(&board, &bits), None, "{name}");
                assert_eq!(solve(&board), reference::count(&board).0, "{name}");
            }
            // The root's verdict, reached by the same rules as the
            // reference's.
            Solutions::Contradiction(_) => {
                assert_eq!(got, reference::count(&board).0, "{name}");
            }
            Solutions::Unsolvable | Solutions::GaveUp => panic!("{name}: {got:?}"),
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
    /// Up to three white givens and up to six black cells, some with a
    /// digit: the count settles in a few thousand nodes, and a board
    /// said to have two solutions has two that check.
    #[test]
    fn random_sparse_boards_settle_and_their_solutions_check(
        whites in proptest::collection::vec((0..81usize, 1..=9u8), 0..=3),
        blacks in proptest::collection::vec((0..81usize, 0..=9u8), 0..=6),
    ) {
        let mut b = vec![b'0'; 162];
        for (i, d) in blacks {
            b[81 + i] = b'1';
            b[i] = b'0' + d;
        }
        for (i, d) in whites {
            if b[81 + i] == b'0' {
                b[i] = b'0' + d;
            }
        }
        let s = String::from_utf8(b).unwrap_or_default();
        let Ok(board) = Str8ts::parse(&s) else { return Ok(()) };
        let (got, nodes) = solve_counting(&board);
        proptest::prop_assert!(nodes <= 5000, "{s}: {nodes} nodes, {got:?}");
        match got {
            Solutions::Multiple => {
                proptest::prop_assert_eq!(two_checked_solutions(&board), Ok(()), "{}", s);
            }
            Solutions::Unique(sol) => {
                let bits = sol.masks().map(Mask::bits);
                proptest::prop_assert_eq!(wrong(&board, &bits), None, "{}", s);
            }
            Solutions::Contradiction(_) | Solutions::Unsolvable => {}
            Solutions::GaveUp => proptest::prop_assert!(false, "{s}: gave up"),
        }
    }
}
