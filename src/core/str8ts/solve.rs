//! Propagation and search for Str8ts: row and column uniqueness (digits in
//! black cells count), compartment straights, naked singles, then a
//! depth-first search that counts solutions up to two. Works on candidate
//! masks only; knows nothing of the string formats.
//!
//! There are no boxes, and no hidden singles along rows or columns: a Str8ts
//! row need not hold every digit, so "one place left for 5 in this row" proves
//! nothing. The only hidden-single rule is inside a compartment, for a digit
//! that every straight still possible there needs; such a digit also leaves
//! the rest of the compartment's row or column.
//!
//! The rules run from a worklist in `search` (singles to spread, compartments
//! whose cells changed), at the root and below it. They only remove
//! candidates, so the fixpoint is the same in any order; `Rules` here keeps
//! the reference order (rescan every cell and every changed compartment each
//! pass), run only when the worklist finds a contradiction, because which
//! contradiction shows first, and so the message, depends on the order.
//! `solve/reference.rs` (tests only) is the solver as it was before the
//! worklist; the tests compare the two on the root and the answer (the
//! search deduces more than the reference below the root, so its tree is
//! smaller, not the same).

use crate::core::grid::CELLS;
use crate::core::mask::{Digit, Mask, Remaining};
use crate::core::puzzle::STR8TS_SEARCH_LIMIT;

use super::CELL;
use super::board::Board;
use super::compartment::{Compartment, Direction};

mod search;

use search::Layout;

/// The 16 cells sharing a row or a column with each cell.
const LINE_PEERS: [[u8; 16]; CELLS] = {
    let mut p = [[0u8; 16]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let mut n = 0;
        let mut o = 0;
        while o < CELLS {
            if o != c && (o / 9 == c / 9 || o % 9 == c % 9) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
};

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solutions {
    /// Propagation from the start contradicts itself; the message says where.
    Contradiction(String),
    /// The search tried everything and found nothing.
    None,
    /// Exactly one; the board has every white cell placed.
    Unique(Box<Board>),
    /// Two or more (the search stopped at the second).
    Multiple,
    /// The search hit [`STR8TS_SEARCH_LIMIT`] nodes first.
    GaveUp,
}

/// Why propagation stopped: kept small and cheap because the search meets
/// thousands of these; only the one at the root becomes a message.
#[derive(Clone, Copy, Debug)]
enum Conflict {
    /// A white cell has no candidate left.
    Empty(usize),
    /// A digit placed twice in a row or column.
    Twice(Digit, usize, usize),
    /// Compartment `k` fits no straight.
    NoStraight(usize),
    /// Compartment `k` needs a digit that already sits elsewhere in its line.
    Taken(usize, Digit, usize),
}

/// The fixed part of a puzzle that propagation reads: colours, compartments,
/// and which compartments each cell belongs to (as a bit set).
struct Rules<'a> {
    black: &'a [bool; CELLS],
    compartments: &'a [Compartment],
    member: [u128; CELLS],
}

/// Every compartment: 9 lines of at most 5 runs each way, 90 at most.
const ALL_DIRTY: u128 = u128::MAX;

impl<'a> Rules<'a> {
    fn new(board: &'a Board) -> Rules<'a> {
        let compartments = board.compartments();
        let mut member = [0u128; CELLS];
        for (k, comp) in compartments.iter().enumerate() {
            for c in comp.cells() {
                member[c.index()] |= 1 << k;
            }
        }
        Rules {
            black: board.black(),
            compartments,
            member,
        }
    }

    fn describe(&self, conflict: Conflict) -> String {
        let comp = |k: usize| {
            self.compartments
                .get(k)
                .map(ToString::to_string)
                .unwrap_or_default()
        };
        match conflict {
            Conflict::Empty(i) => format!("cell {i} ({}) has no candidate left", CELL[i]),
            Conflict::Twice(d, i, p) => {
                let line = if p / 9 == i / 9 { "row" } else { "column" };
                format!(
                    "digit {d} twice in a {line}: cell {i} ({}) and cell {p} ({})",
                    CELL[i], CELL[p]
                )
            }
            Conflict::NoStraight(k) => format!("{} fits no straight", comp(k)),
            Conflict::Taken(k, d, other) => {
                format!(
                    "{} needs digit {d}, which cell {other} ({}) already holds",
                    comp(k),
                    CELL[other]
                )
            }
        }
    }
}

/// Runs propagation to its fixpoint. `Err` holds the contradiction's message.
pub fn propagate(board: &Board) -> Result<Board, String> {
    root(board, &Layout::new(board.black()))
}

/// The root fixpoint: by the worklist when it finds no contradiction (the
/// fixpoint is the same whatever the order), else by the rules in their
/// reference order, for the message.
fn root(board: &Board, layout: &Layout) -> Result<Board, String> {
    let mut bits = board.masks().map(Mask::bits);
    if layout.root(&mut bits).is_ok() {
        return Ok(board.with_masks(bits.map(Mask::from_bits_truncate)));
    }
    let rules = Rules::new(board);
    let mut cells = *board.masks();
    let mut spread = [false; CELLS];
    rules
        .propagate(&mut cells, &mut spread, ALL_DIRTY)
        .map_err(|c| rules.describe(c))?;
    Ok(board.with_masks(cells))
}

/// Counts solutions, stopping at two, and keeps the solution when it is unique.
pub fn solve(board: &Board) -> Solutions {
    solve_counting(board).0
}

/// Propagation, then the count from its fixpoint: what an import does,
/// with the layout built and the fixpoint reached once rather than again
/// by [`solve`]. `Err` holds the contradiction's message.
pub fn propagate_and_solve(board: &Board) -> Result<(Board, Solutions), String> {
    let layout = Layout::new(board.black());
    let root = root(board, &layout)?;
    let (solutions, _) = count_from(&layout, &root);
    Ok((root, solutions))
}

/// [`solve`] with the number of search nodes it visited.
fn solve_counting(board: &Board) -> (Solutions, u64) {
    let layout = Layout::new(board.black());
    match root(board, &layout) {
        Ok(root) => count_from(&layout, &root),
        Err(why) => (Solutions::Contradiction(why), 0),
    }
}

/// The search's count from a root fixpoint, and the nodes it visited.
fn count_from(layout: &Layout, root: &Board) -> (Solutions, u64) {
    let mut found = None;
    let mut count = 0;
    let bits = root.masks().map(Mask::bits);
    let nodes = layout.count(&bits, &mut count, &mut found);
    let found = found.map(|f| f.map(Mask::from_bits_truncate));
    if nodes > STR8TS_SEARCH_LIMIT && count < 2 {
        return (Solutions::GaveUp, nodes);
    }
    let s = match (count, found) {
        (0, _) => Solutions::None,
        (1, Some(cells)) => Solutions::Unique(Box::new(root.with_masks(cells))),
        _ => Solutions::Multiple,
    };
    (s, nodes)
}

impl Rules<'_> {
    /// Applies the rules until nothing changes. `spread` says which placed
    /// digits were already removed from their lines; `dirty` which
    /// compartments may have changed since their rule last ran.
    fn propagate(
        &self,
        cells: &mut [Mask; CELLS],
        spread: &mut [bool; CELLS],
        mut dirty: u128,
    ) -> Result<(), Conflict> {
        loop {
            let before = *cells;
            for i in 0..CELLS {
                if spread[i] {
                    continue;
                }
                match cells[i].remaining() {
                    Remaining::One(d) => {
                        spread[i] = true;
                        self.spread(cells, i, d)?;
                    }
                    Remaining::None if !self.black[i] => return Err(Conflict::Empty(i)),
                    _ => {}
                }
            }
            for (k, comp) in self.compartments.iter().enumerate() {
                if dirty & (1 << k) != 0 {
                    compartment(cells, comp).map_err(|c| c.at(k))?;
                }
            }
            dirty = 0;
            for i in 0..CELLS {
                if cells[i] != before[i] {
                    dirty |= self.member[i];
                }
            }
            if dirty == 0 {
                // Nothing changed in this pass, so no new single to spread either.
                return Ok(());
            }
        }
    }

    /// Removes the digit placed in cell `i` from its row and column.
    fn spread(&self, cells: &mut [Mask; CELLS], i: usize, d: Digit) -> Result<(), Conflict> {
        for &p in &LINE_PEERS[i] {
            let p = usize::from(p);
            if !cells[p].contains(d) {
                continue;
            }
            if self.black[p] || cells[p].len() == 1 {
                return Err(Conflict::Twice(d, i, p));
            }
            cells[p] = cells[p].without(d);
        }
        Ok(())
    }
}

/// A conflict found inside one compartment, before it knows its number.
enum Local {
    NoStraight,
    Taken(Digit, usize),
}

impl Local {
    fn at(self, k: usize) -> Conflict {
        match self {
            Local::NoStraight => Conflict::NoStraight(k),
            Local::Taken(d, other) => Conflict::Taken(k, d, other),
        }
    }
}

/// The compartment rule: only digits of straights that still fit survive; a
/// digit every fitting straight needs goes to its only place, if it has one,
/// and leaves the rest of the compartment's row or column.
fn compartment(cells: &mut [Mask; CELLS], comp: &Compartment) -> Result<(), Local> {
    let len = comp.len();
    let mut allowed = [0u16; 9];
    for (k, c) in comp.cells().iter().enumerate() {
        allowed[k] = cells[c.index()].bits();
    }
    let allowed = &allowed[..len];
    let mut union = 0u16;
    let mut needed = Mask::ALL.bits();
    let mut fit = [0u16; 9];
    let n = search::fitting(allowed, &mut fit);
    for &s in &fit[..n] {
        union |= s;
        needed &= s;
    }
    if union == 0 {
        return Err(Local::NoStraight);
    }
    let union = Mask::from_bits_truncate(union);
    for c in comp.cells() {
        // A fitting straight gives every cell a digit of `union`, so this
        // never empties a cell.
        cells[c.index()] = cells[c.index()].intersect(union);
    }
    for d in Mask::from_bits_truncate(needed).digits() {
        let mut places = comp.cells().iter().filter(|c| cells[c.index()].contains(d));
        match (places.next(), places.next()) {
            (None, _) => return Err(Local::NoStraight),
            (Some(c), None) => cells[c.index()] = d.mask(),
            _ => {}
        }
        for other in line_outside(comp) {
            let m = cells[other];
            if m.contains(d) {
                if m.len() == 1 {
                    return Err(Local::Taken(d, other));
                }
                // `m` held `d` and more, so something is left.
                cells[other] = m.without(d);
            }
        }
    }
    Ok(())
}

/// The cells of a compartment's row or column that are not in it.
fn line_outside(comp: &Compartment) -> impl Iterator<Item = usize> {
    let (first, last) = (comp.first(), comp.last());
    let (line, from, to, row) = match comp.direction {
        Direction::Row => (first.row(), first.col(), last.col(), true),
        Direction::Column => (first.col(), first.row(), last.row(), false),
    };
    (0..9)
        .filter(move |k| *k < from || *k > to)
        .map(move |k| if row { line * 9 + k } else { k * 9 + line })
}

#[cfg(test)]
mod reference;

#[cfg(test)]
mod tests {
    use super::*;

    const REAL_LEGACY: &str = include_str!("../../../tests/data/str8ts/real_legacy.txt");

    /// The real puzzles, as read.
    fn real_boards() -> Vec<Board> {
        REAL_LEGACY
            .lines()
            .filter_map(|l| l.split(' ').next())
            .filter_map(|s| Board::parse(s).ok())
            .collect()
    }

    /// The board `legacy` with its character `at` replaced by `c`, if it reads.
    fn variant(legacy: &str, at: usize, c: u8) -> Option<Board> {
        let mut b = legacy.as_bytes().to_vec();
        *b.get_mut(at)? = c;
        Board::parse(std::str::from_utf8(&b).ok()?).ok()
    }

    /// Real puzzles and variants of them: each given removed, each white
    /// empty cell given each digit in turn (every fifth cell), each cell's
    /// colour flipped.
    fn variants() -> Vec<Board> {
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
    fn agrees_with_the_reference(board: &Board) -> (u64, u64) {
        let root = propagate(board);
        assert_eq!(root, reference::propagate(board), "{}", board.to_packed());
        let (new, nodes) = solve_counting(board);
        let (old, old_nodes) = reference::solve_counting(board);
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
                reference::solve(&root),
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
            if n < real && matches!(solve(board), Solutions::Unique(_) | Solutions::None) {
                assert!(nodes <= old_nodes, "{n}: {nodes} > {old_nodes}");
            }
            total += nodes;
            old_total += old_nodes;
            kinds[match solve(board) {
                Solutions::Contradiction(_) => 0,
                Solutions::None => 1,
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
            let (old, old_nodes) = reference::solve_counting(board);
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
    fn set_bounds(board: &Board, set: u16) -> [(u32, u32); 2] {
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
        let answers = [Solutions::Multiple, Solutions::None, Solutions::None];
        for (s, want) in FUZZ_SETS.into_iter().zip(answers) {
            let board = Board::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            let (got, nodes) = solve_counting(&board);
            assert_eq!(got, want, "{s}");
            assert!(nodes <= 1000, "{s}: {nodes} nodes");
            if got == Solutions::None {
                let [(rows_least, rows_most), (cols_least, cols_most)] =
                    set_bounds(&board, ONE_NINE);
                assert!(rows_least > cols_most || cols_least > rows_most, "{s}");
            } else {
                assert_eq!(two_checked_solutions(&board), Ok(()), "{s}");
            }
        }
    }

    /// Sparse boards: the fuzz finds, the all-white empty board, and boards
    /// from a fixed generator with 0-3 white givens and 1-6 black cells,
    /// half of them with a black digit. Only boards that read are kept.
    fn sparse_boards() -> Vec<(String, Board)> {
        let mut out: Vec<(String, Board)> = FUZZ_SLOW
            .iter()
            .enumerate()
            .filter_map(|(n, s)| Some((format!("fuzz {n}"), Board::parse(s).ok()?)))
            .collect();
        let empty = "0".repeat(162);
        out.extend(Board::parse(&empty).ok().map(|b| ("empty".to_owned(), b)));
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
            if let Ok(board) = Board::parse(&s) {
                out.push((format!("gen {n}"), board));
            }
        }
        out
    }

    /// The first solution the search finds from `board`'s root, if any.
    fn first_solution(board: &Board) -> Option<[u16; CELLS]> {
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
    fn wrong(board: &Board, sol: &[u16; CELLS]) -> Option<String> {
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
    fn two_checked_solutions(board: &Board) -> Result<(), String> {
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
            let board = Board::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
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
                    assert_eq!(solve(&board), reference::solve(&board), "{name}");
                }
                // The root's verdict, reached by the same rules as the
                // reference's.
                Solutions::Contradiction(_) => {
                    assert_eq!(got, reference::solve(&board), "{name}");
                }
                Solutions::None | Solutions::GaveUp => panic!("{name}: {got:?}"),
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
            let Ok(board) = Board::parse(&s) else { return Ok(()) };
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
                Solutions::Contradiction(_) | Solutions::None => {}
                Solutions::GaveUp => proptest::prop_assert!(false, "{s}: gave up"),
            }
        }
    }
}
