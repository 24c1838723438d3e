//! The fast Str8ts engine: row and column uniqueness, compartment
//! straights and naked singles from a worklist, then a depth-first search
//! that counts solutions up to two. One file per rule or job: `layout`,
//! `work`, `search`, the root rules (`singles`, `compartment`), the rules
//! only the search uses (`fillings`, `tally`, `sets`) and `lanes`.
//!
//! Works on candidate masks only; knows nothing of the string formats. The
//! stored root is the fixpoint of the root rules alone, and a contradiction
//! there is named by `rules.rs`, the readable reference the tests hold this
//! engine to. Design and measurements: docs/performance.md "Module notes".

use crate::core::mask::Mask;
use crate::core::vocabulary::{self, STR8TS_SEARCH_LIMIT};

use super::board::Str8ts;

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
pub type Solutions = vocabulary::Solutions<Box<Str8ts>>;

/// Runs propagation to its fixpoint. `Err` holds the contradiction's message.
pub fn propagate(board: &Str8ts) -> Result<Str8ts, String> {
    root(board, &Layout::new(board.black()))
}

/// The root fixpoint: by the worklist when it finds no contradiction (the
/// fixpoint is the same whatever the order), else by the rules in their
/// reference order, for the message.
fn root(board: &Str8ts, layout: &Layout) -> Result<Str8ts, String> {
    let mut bits = board.masks().map(Mask::bits);
    if layout.root(&mut bits).is_ok() {
        return Ok(board.with_masks(bits.map(Mask::from_bits_truncate)));
    }
    super::rules::in_order(board)
}

/// Counts solutions, stopping at two, and keeps the solution when it is unique.
pub fn solve(board: &Str8ts) -> Solutions {
    solve_counting(board).0
}

/// Propagation, then the count from its fixpoint: what an import does,
/// with the layout built and the fixpoint reached once rather than again
/// by [`solve`]. `Err` holds the contradiction's message.
pub fn propagate_and_solve(board: &Str8ts) -> Result<(Str8ts, Solutions), String> {
    let layout = Layout::new(board.black());
    let root = root(board, &layout)?;
    let (solutions, _) = count_from(&layout, &root);
    Ok((root, solutions))
}

/// [`solve`] with the number of search nodes it visited.
fn solve_counting(board: &Str8ts) -> (Solutions, u64) {
    let layout = Layout::new(board.black());
    match root(board, &layout) {
        Ok(root) => count_from(&layout, &root),
        Err(why) => (Solutions::Contradiction(why), 0),
    }
}

/// The search's count from a root fixpoint, and the nodes it visited.
fn count_from(layout: &Layout, root: &Str8ts) -> (Solutions, u64) {
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
