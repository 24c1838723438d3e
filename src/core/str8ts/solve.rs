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
//! One file per rule or job:
//!
//! - `layout`: the fixed part of a puzzle the rules read (lines,
//!   compartments as runs along them, each cell's compartments).
//! - `work`: the worklist (cells newly placed, compartments to rerun, lines
//!   to recount) and what the search keeps per node (`Fits`).
//! - `search`: the driver: runs the rules from the worklist to their
//!   fixpoint, at the root and below it, and the depth-first count.
//! - the root rules of docs/formats.md ("Propagation"): `singles` (a placed digit leaves its row
//!   and column) and `compartment` (only straights that fit survive; a digit
//!   every one needs goes to its only place and leaves the rest of the line).
//! - the rules only the search uses, below the root: `fillings` (each cell
//!   keeps the digits it takes in some filling of a fitting straight),
//!   `tally` (per digit, as many rows as columns hold it) and `sets` (the
//!   same count for every set of digits, for a search that wanders).
//! - arithmetic the rules share: `lanes` (nine counters in a word), and
//!   the type's `straights` (which straights fit, spread and needed digits,
//!   by table), which the reference order in `propagate.rs` reads too.
//!
//! Invariants. The rules only remove candidates, and each removal stays
//! justified after any other, so the fixpoint is the same in any order: the
//! worklist reaches the board the reference order reaches. Which
//! contradiction shows first does depend on the order, so the worklist only
//! says `Dead`, and the root reruns the reference order
//! (`str8ts/propagate.rs`) for the message; the search
//! needs no message. The stored root is the fixpoint of the root rules
//! alone: the search's own rules (`fillings`, `tally`, `sets`) run only
//! below it. The tests hold the root to the reference order and the answer
//! to its plain search (`propagate::count`, tests only; the solver deduces
//! more below the root, so its tree is smaller, not the same). How each rule earned its place, measured, is
//! in `docs/performance.md`.

use crate::core::kind::{self, STR8TS_SEARCH_LIMIT};
use crate::core::mask::Mask;

use super::board::Board;

mod compartment;
mod fillings;
mod lanes;
mod layout;
mod search;
mod sets;
mod singles;
mod tally;
mod work;

use layout::Layout;

/// What the search found: a unique solution is the board with every white
/// cell placed; past [`STR8TS_SEARCH_LIMIT`] nodes the search gives up.
pub type Solutions = kind::Solutions<Box<Board>>;

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
    super::propagate::in_order(board)
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
        (0, _) => Solutions::Unsolvable,
        (1, Some(cells)) => Solutions::Unique(Box::new(root.with_masks(cells))),
        _ => Solutions::Multiple,
    };
    (s, nodes)
}

#[cfg(test)]
mod tests;
