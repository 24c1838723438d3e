//! The solution count: the depth-first search over [`State`]s up to a
//! limit of solutions and of nodes ([`SUDOKU_SEARCH_LIMIT`]).

use super::planes::Planes;
use super::state::{State, Work};
use super::tables::ALL_WORDS;
use crate::core::grid::CELLS;
use crate::core::mask::Mask;
use crate::core::vocabulary::{SUDOKU_SEARCH_LIMIT, Solutions};

/// What the search found, as counted: see [`Count::solutions`] for the
/// outcome every solver reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, at most the `limit` asked for.
    pub count: usize,
    /// The first solution found (digit values 1..=9); when `count` is 1 and
    /// `limit` is at least 2 it is the unique solution.
    pub first: Option<[u8; CELLS]>,
    /// Search nodes visited; past [`SUDOKU_SEARCH_LIMIT`] the search gave up, and
    /// `count` is only what it had found by then.
    pub nodes: u64,
}

impl Count {
    /// Whether the search stopped at [`SUDOKU_SEARCH_LIMIT`] before it knew.
    pub fn gave_up(&self) -> bool {
        self.nodes > SUDOKU_SEARCH_LIMIT
    }

    /// The outcome of a count up to two, with the unique grid (digit
    /// values 1..=9).
    pub fn solutions(&self) -> Solutions<[u8; CELLS]> {
        match (self.count, self.first) {
            (0 | 1, _) if self.gave_up() => Solutions::GaveUp,
            (0, _) => Solutions::Unsolvable,
            (1, Some(grid)) => Solutions::Unique(grid),
            _ => Solutions::Multiple,
        }
    }
}

/// Counts solutions up to `limit` from givens: 1..=9 a given digit, any
/// other value an empty cell.
pub fn count_solutions(givens: &[u8; CELLS], limit: usize) -> Count {
    search_from(State::from_givens(givens), limit)
}

/// Counts solutions up to `limit` from candidate sets (one bit = placed).
/// An empty mask is a cell with no candidate: there is no solution.
pub fn count_solutions_from(cands: &[Mask; CELLS], limit: usize) -> Count {
    search_from(State::new(cands), limit)
}

/// Counts solutions up to `limit` from propagated planes (see
/// `Planes::fixpoint`): the search starts from them as they are.
pub(in crate::core::sudoku) fn count_solutions_in(planes: &Planes, limit: usize) -> Count {
    search_from(Some(State::from_planes(planes)), limit)
}

/// Searches from `start` (`None`: a clash, no solution) up to `limit`.
fn search_from(start: Option<State>, limit: usize) -> Count {
    let mut search = Search {
        limit,
        count: 0,
        first: None,
        nodes: 0,
    };
    if let (true, Some(mut state)) = (limit > 0, start) {
        search.run(&mut state, ALL_WORDS);
    }
    Count {
        count: search.count,
        first: search.first,
        nodes: search.nodes,
    }
}

struct Search {
    limit: usize,
    count: usize,
    first: Option<[u8; CELLS]>,
    nodes: u64,
}

impl Search {
    /// Searches from `state`, whose band words in `changed` need an update
    /// (the others are as their last update left them). The state is
    /// borrowed, not moved: the last branch works on it in place, so a
    /// node copies the state once per branch but the last.
    fn run(&mut self, state: &mut State, changed: u32) {
        self.nodes += 1;
        if self.nodes > SUDOKU_SEARCH_LIMIT {
            return;
        }
        let mut work = Work {
            seen: state.f,
            pairs: [0; 3],
        };
        if !state.propagate(&mut work, changed) {
            return;
        }
        if state.unsolved == [0; 3] {
            if self.first.is_none() {
                self.first = Some(state.solution());
            }
            self.count += 1;
            return;
        }
        let (b, i) = state.pick_cell(work.pairs);
        let mut digits = (0..9)
            .filter(|&d| state.f[3 * d + b] & (1 << i) != 0)
            .fold(0u32, |m, d| m | 1 << d);
        while digits != 0 {
            let d = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            // At a fixpoint only the placed digit's word needs an update.
            let word = 1 << (3 * d + b);
            if digits == 0 {
                // The last branch may have the state itself: no copy.
                state.place(d, b, i);
                return self.run(state, word);
            }
            let mut next = *state;
            next.place(d, b, i);
            self.run(&mut next, word);
            if self.count >= self.limit || self.nodes > SUDOKU_SEARCH_LIMIT {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::{PEERS, UNITS};
    use crate::core::sudoku::corpus::puzzles;

    fn digits(p: &str) -> [u8; CELLS] {
        let mut g = [0u8; CELLS];
        for (d, c) in g.iter_mut().zip(p.bytes()) {
            *d = if c.is_ascii_digit() { c - b'0' } else { 0 };
        }
        g
    }

    fn is_valid_solution_of(grid: &[u8; CELLS], givens: &[u8; CELLS]) -> bool {
        let units_ok = UNITS
            .iter()
            .all(|u| u.iter().fold(0u16, |m, &c| m | 1 << grid[usize::from(c)]) == 0x3fe);
        let givens_ok = givens.iter().zip(grid).all(|(&g, &s)| g == 0 || g == s);
        units_ok && givens_ok
    }

    /// A fuzz find: nearly empty, and unsolvable only because row 8 must
    /// hold 3, 5 and 6 in its two open cells of box 8. Singles never see
    /// that, so the search filled the empty rows above in every way (2.6 s)
    /// before it gave the answer; it now stops at the node limit.
    const PIGEONHOLE: &str =
        "000000000000000000000000000000000000000000000000000000000000365000007008365000007";

    #[test]
    fn a_search_that_runs_past_the_node_limit_gives_up() {
        let found = count_solutions(&digits(PIGEONHOLE), 2);
        assert!(found.gave_up(), "{} nodes", found.nodes);
        assert_eq!(found.count, 0);
    }

    #[test]
    fn the_hardest_real_puzzles_stay_far_inside_the_node_limit() {
        // The shared corpora's worst is 1,295 nodes (forum hardest 1905).
        for text in [
            include_str!("../../../../tests/data/classic/forum_hardest_1106.txt"),
            include_str!("../../../../tests/data/classic/top1465.txt"),
        ] {
            for (p, _) in puzzles(text) {
                let found = count_solutions(&digits(p), 2);
                assert_eq!(found.count, 1, "{p}");
                assert!(
                    found.nodes <= SUDOKU_SEARCH_LIMIT / 20,
                    "{p}: {} nodes",
                    found.nodes
                );
            }
        }
    }

    #[test]
    fn every_top1465_puzzle_has_one_solution_that_fits_its_givens() {
        let mut n = 0;
        for (p, _) in puzzles(include_str!("../../../../tests/data/classic/top1465.txt")) {
            let g = digits(p);
            let found = count_solutions(&g, 2);
            assert_eq!(found.count, 1, "{p}");
            assert!(is_valid_solution_of(&found.first.unwrap(), &g), "{p}");
            n += 1;
        }
        assert_eq!(n, 1465);
    }

    #[test]
    fn emerentius_puzzles_solve_to_their_solution_lines() {
        let pairs = [
            (
                include_str!("../../../../tests/data/classic/emerentius_easy.txt"),
                include_str!("../../../../tests/data/classic/emerentius_easy_solutions.txt"),
            ),
            (
                include_str!("../../../../tests/data/classic/emerentius_medium.txt"),
                include_str!("../../../../tests/data/classic/emerentius_medium_solutions.txt"),
            ),
            (
                include_str!("../../../../tests/data/classic/emerentius_hard.txt"),
                include_str!("../../../../tests/data/classic/emerentius_hard_solutions.txt"),
            ),
        ];
        for (ps, ss) in pairs {
            let mut n = 0;
            for ((p, _), (s, _)) in puzzles(ps).zip(puzzles(ss)) {
                let found = count_solutions(&digits(p), 2);
                assert_eq!(found.count, 1, "{p}");
                assert_eq!(found.first, Some(digits(s)), "{p}");
                n += 1;
            }
            assert!(n >= 11);
        }
    }

    #[test]
    fn the_hardest_sets_agree_with_the_sudoku_crate_on_count_and_solution() {
        let files = [
            include_str!("../../../../tests/data/classic/forum_hardest_1106.txt"),
            include_str!("../../../../tests/data/classic/forum_hardest_1905_11plus_first2000.txt"),
            include_str!("../../../../tests/data/classic/magictour_topn234.txt"),
        ];
        let mut n = 0;
        for text in files {
            for (p, _) in puzzles(text) {
                let g = digits(p);
                let found = count_solutions(&g, 2);
                let theirs = sudoku::Sudoku::from_bytes(g).unwrap();
                assert_eq!(found.count, theirs.solutions_count_up_to(2), "{p}");
                if found.count == 1 {
                    assert_eq!(found.first, theirs.solution().map(|s| s.to_bytes()), "{p}");
                }
                n += 1;
            }
        }
        assert!(n > 2500, "{n}");
    }

    #[test]
    fn serg_benchmark_puzzles_have_two_or_more_solutions() {
        let text = include_str!("../../../../tests/data/classic/serg_benchmark_multisolution.txt");
        for (p, _) in puzzles(text).take(200) {
            let g = digits(p);
            let found = count_solutions(&g, 2);
            assert_eq!(found.count, 2, "{p}");
            assert!(is_valid_solution_of(&found.first.unwrap(), &g), "{p}");
        }
    }

    #[test]
    fn the_empty_grid_counts_up_to_the_limit() {
        for limit in [0, 1, 2, 5] {
            let found = count_solutions(&[0; CELLS], limit);
            assert_eq!(found.count, limit);
            assert_eq!(found.first.is_some(), limit > 0);
        }
    }

    #[test]
    fn small_contradictions_have_no_solution() {
        let cases: [(&str, [(usize, u8); 2]); 3] = [
            ("two 5s in a row", [(0, 5), (8, 5)]),
            ("two 5s in a column", [(0, 5), (72, 5)]),
            ("two 5s in a box", [(0, 5), (20, 5)]),
        ];
        for (name, given) in cases {
            let mut g = [0u8; CELLS];
            for (c, d) in given {
                g[c] = d;
            }
            assert_eq!(count_solutions(&g, 2).count, 0, "{name}");
        }
        // An empty mask is a cell with no candidate.
        let mut cands = [Mask::ALL; CELLS];
        cands[40] = Mask::EMPTY;
        assert_eq!(count_solutions_from(&cands, 2).count, 0);
        let _ = PEERS;
    }

    #[test]
    fn candidate_eliminations_narrow_the_search() {
        // The empty grid with r1c1's candidates cut to {1}: still many solutions,
        // all with 1 in r1c1.
        let mut cands = [Mask::ALL; CELLS];
        cands[0] = Mask::from_bits_truncate(1);
        let found = count_solutions_from(&cands, 2);
        assert_eq!(found.count, 2);
        assert_eq!(found.first.map(|g| g[0]), Some(1));
    }
}
