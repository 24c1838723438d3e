//! The classic canonical form (minlex) as first written: the definition the
//! fast search in the parent module must match byte for byte, since forms
//! are stored in users' archives and compared across versions. The
//! equivalence tests and the canon bench run both; it is built only for
//! tests and with the `bench-reference` feature, never into the binary.
//!
//! Kept simple on purpose: do not optimise it.

use std::cmp::Ordering;

use super::{FREE, transpose};

/// One surviving partial transformation. The order of rows already laid out
/// does not matter for the rest of the search, only which rows are used, so
/// nodes that differ only in that order compare equal and are merged.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Node {
    /// 1 when source rows are read as columns.
    transposed: u8,
    rows_used: u16,
    /// Source band of the output band being filled.
    band: u8,
    /// Output column -> source column, `FREE` until a clue placed it.
    col_of: [u8; 9],
    /// Output stack -> source stack, `FREE` until one of its columns is placed.
    stack_of: [u8; 3],
    /// Source columns placed.
    placed: u16,
    /// Source digit -> output label, 0 while the digit has not appeared.
    label: [u8; 10],
    next_label: u8,
}

impl Node {
    fn start(transposed: u8) -> Node {
        Node {
            transposed,
            rows_used: 0,
            band: FREE,
            col_of: [FREE; 9],
            stack_of: [FREE; 3],
            placed: 0,
            label: [0; 10],
            next_label: 1,
        }
    }

    fn bound_stacks(&self) -> u8 {
        self.stack_of
            .iter()
            .filter(|&&s| s != FREE)
            .fold(0, |m, &s| m | 1 << s)
    }

    /// Relabel on first appearance: the cheapest label is always the next one.
    fn relabel(&mut self, digit: u8) -> u8 {
        let d = usize::from(digit);
        if digit == 0 {
            0
        } else if self.label[d] != 0 {
            self.label[d]
        } else {
            self.label[d] = self.next_label;
            self.next_label += 1;
            self.label[d]
        }
    }
}

/// A node part-way through laying out one output row.
#[derive(Clone, Copy)]
struct Work {
    node: Node,
    out: [u8; 9],
    /// Free output stacks given to all-empty free source stacks in this row.
    zero_stacks_used: u8,
    /// Per output stack: free positions given to unplaced empty columns.
    zero_cols_used: [u8; 3],
}

/// The least next row over every node and every allowed source row, with
/// every way of reaching it.
struct RowSearch<'a> {
    /// The source row's digits, by source column.
    row: [u8; 9],
    /// Free source stacks whose three cells in this row are empty.
    zero_stacks: u8,
    /// Free source stacks with a clue in this row (bit per stack).
    clue_stacks: u8,
    best: [u8; 9],
    ties: &'a mut Vec<Node>,
}

impl RowSearch<'_> {
    /// Keep a partial row only while it is no greater than the best so far.
    fn promising(&self, w: &Work, len: usize) -> bool {
        w.out[..len] <= self.best[..len]
    }

    fn place(&mut self, j: usize, mut w: Work) {
        if j == 9 {
            match w.out.cmp(&self.best) {
                Ordering::Less => {
                    self.best = w.out;
                    self.ties.clear();
                    self.ties.push(w.node);
                }
                Ordering::Equal => self.ties.push(w.node),
                Ordering::Greater => {}
            }
            return;
        }
        let s = j / 3;
        let stack = w.node.stack_of[s];
        if stack == FREE {
            // Start of an output stack no source stack is tied to yet: either
            // an all-empty stack goes here (which one is left open), or a
            // stack with a clue in this row.
            let open_clue_stacks = self.clue_stacks & !w.node.bound_stacks();
            let free_later = (s + 1..3).filter(|&t| w.node.stack_of[t] == FREE).count();
            if w.zero_stacks_used < self.zero_stacks
                && free_later >= open_clue_stacks.count_ones() as usize
            {
                let mut z = w;
                z.out[j..j + 3].fill(0);
                z.zero_stacks_used += 1;
                if self.promising(&z, j + 3) {
                    self.place(j + 3, z);
                }
            }
            for src in 0..3u8 {
                if open_clue_stacks & (1 << src) != 0 {
                    let mut b = w;
                    b.node.stack_of[s] = src;
                    self.place(j, b);
                }
            }
            return;
        }
        let fixed = w.node.col_of[j];
        if fixed != FREE {
            let digit = self.row[usize::from(fixed)];
            w.out[j] = w.node.relabel(digit);
            if self.promising(&w, j + 1) {
                self.place(j + 1, w);
            }
            return;
        }
        // A free position inside a tied stack: an unplaced empty column (left
        // open) or an unplaced clue column (placed now).
        let cols = usize::from(stack) * 3..usize::from(stack) * 3 + 3;
        let mut empties = 0u8;
        let mut clues = 0usize;
        for c in cols.clone() {
            if w.node.placed & (1 << c) == 0 {
                if self.row[c] == 0 {
                    empties += 1;
                } else {
                    clues += 1;
                }
            }
        }
        let free_later = (j + 1..s * 3 + 3)
            .filter(|&k| w.node.col_of[k] == FREE)
            .count();
        if empties > w.zero_cols_used[s] && free_later >= clues {
            let mut z = w;
            z.out[j] = 0;
            z.zero_cols_used[s] += 1;
            if self.promising(&z, j + 1) {
                self.place(j + 1, z);
            }
        }
        for c in cols {
            if w.node.placed & (1 << c) == 0 && self.row[c] != 0 {
                let mut p = w;
                p.node.col_of[j] = c as u8;
                p.node.placed |= 1 << c;
                p.out[j] = p.node.relabel(self.row[c]);
                if self.promising(&p, j + 1) {
                    self.place(j + 1, p);
                }
            }
        }
    }
}

/// Rows a node may lay out as output row `i`: any row of an unused band at a
/// band's start, otherwise an unused row of the current band.
fn allowed(node: &Node, i: usize, r: usize) -> bool {
    if i.is_multiple_of(3) {
        node.rows_used & (0b111 << (r / 3 * 3)) == 0
    } else {
        usize::from(node.band) == r / 3 && node.rows_used & (1 << r) == 0
    }
}

pub(super) fn minlex(grid: &[u8; 81]) -> [u8; 81] {
    let grids = [*grid, transpose(grid)];
    let mut nodes = vec![Node::start(0), Node::start(1)];
    let mut ties = Vec::new();
    let mut out = [0u8; 81];
    for i in 0..9 {
        let mut search = RowSearch {
            row: [0; 9],
            zero_stacks: 0,
            clue_stacks: 0,
            best: [u8::MAX; 9],
            ties: &mut ties,
        };
        for node in &nodes {
            let bound = node.bound_stacks();
            for r in (0..9).filter(|&r| allowed(node, i, r)) {
                let g = &grids[usize::from(node.transposed)];
                search.row.copy_from_slice(&g[r * 9..r * 9 + 9]);
                search.zero_stacks = 0;
                search.clue_stacks = 0;
                for src in 0..3 {
                    if bound & (1 << src) == 0 {
                        if search.row[src * 3..src * 3 + 3].iter().all(|&d| d == 0) {
                            search.zero_stacks += 1;
                        } else {
                            search.clue_stacks |= 1 << src;
                        }
                    }
                }
                let mut start = *node;
                start.rows_used |= 1 << r;
                if i.is_multiple_of(3) {
                    start.band = (r / 3) as u8;
                }
                search.place(
                    0,
                    Work {
                        node: start,
                        out: [0; 9],
                        zero_stacks_used: 0,
                        zero_cols_used: [0; 3],
                    },
                );
            }
        }
        out[i * 9..i * 9 + 9].copy_from_slice(&search.best);
        ties.sort_unstable();
        ties.dedup();
        std::mem::swap(&mut nodes, &mut ties);
        ties.clear();
    }
    out
}
