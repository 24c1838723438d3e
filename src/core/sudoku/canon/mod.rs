//! Classic Sudoku "minlex": the least 81-character string among the
//! 2 x 6^8 = 3,359,232 box-preserving position maps times the 9! digit
//! relabellings of a puzzle, built one output row at a time with every tie
//! kept, so the answer is exact.
//!
//! Owns only the search; parsing is the minimum needed to read the legacy
//! 81-character form. Knows nothing of solutions: any pattern, valid or
//! not, has exactly one canonical form. How the search stays fast:
//! docs/performance.md "Module notes".

use std::cell::RefCell;
use std::cmp::Ordering;

use crate::core::grid::cell_at;
use crate::core::vocabulary::CanonError;

#[cfg(any(test, feature = "bench-reference"))]
mod reference;

const FORMAT: &str = "sudoku legacy";
/// Search steps (a source row tried under a surviving partial map, or a
/// complete output row offered) a form may take before the search gives up
/// with [`CanonError::Limit`]. A step costs some 20 ns, so the limit is
/// about 10 ms. Real puzzles take at most a few hundred (Kaggle, forum
/// hardest); solved grids, the most symmetric patterns there are, some
/// 70,000, and the most symmetric grid tried 86,000 (2 ms).
pub const STEPS: u64 = 500_000;
/// An output column or stack not yet tied to a source one.
const FREE: u8 = u8::MAX;
/// The label of a digit that has not appeared yet: no real label (at most
/// 9) reaches it.
const UNSEEN: u8 = 0xf;
/// Every digit 1-9 unseen, the empty cell labelled 0; padded to 16 so that
/// any 4-bit digit indexes it without a check.
const START_LABELS: [u8; 16] = {
    let mut t = [UNSEEN; 16];
    t[0] = 0;
    t
};

/// The minlex form of a classic Sudoku.
///
/// `givens` is 81 characters `0`-`9`, `0` an empty cell. The result is the
/// lexicographically least string, compared byte by byte with `0` < `1` <
/// ... < `9`, over every combination of transposition, band and row-in-band
/// permutations, stack and column-in-stack permutations, and relabelling of
/// the digits. Empty cells stay `0`, so the form gathers empty cells at the
/// front; the first clue met in reading order is always `1`, the next new
/// digit `2`, and so on. Plain string order is used throughout, so a smaller
/// digit early beats a smaller pattern of clues later (some published
/// "pattern first" canonicalisers differ on rare invalid or
/// exotic puzzles).
pub fn sudoku(givens: &str) -> Result<String, CanonError> {
    sudoku_work(givens, STEPS).map(|(form, _)| form)
}

/// [`sudoku`] within `limit` search steps, with how many it took.
fn sudoku_work(givens: &str, limit: u64) -> Result<(String, u64), CanonError> {
    let mut grid = [0u8; 81];
    parse(givens, &mut grid)?;
    let (form, steps) = minlex(&grid, limit);
    let Some(form) = form else {
        return Err(CanonError::Limit {
            format: FORMAT,
            limit,
            what: "search steps",
        });
    };
    let mut ascii = form.to_vec();
    for d in &mut ascii {
        *d += b'0';
    }
    // Always ASCII digits, so the conversion cannot fail.
    Ok((String::from_utf8(ascii).unwrap_or_default(), steps))
}

/// The same form computed by the readable reference search: the test
/// oracle and the benchmark's baseline, built only for tests and with the
/// `bench-reference` feature.
#[cfg(any(test, feature = "bench-reference"))]
pub fn sudoku_reference(givens: &str) -> Result<String, CanonError> {
    let mut grid = [0u8; 81];
    parse(givens, &mut grid)?;
    Ok(reference::minlex(&grid)
        .iter()
        .map(|&d| char::from(b'0' + d))
        .collect())
}

/// Read `givens` into `grid`, digit values by cell. The grid is filled in
/// place, as an 81-byte array returned inside a `Result` is copied out byte
/// by byte.
fn parse(givens: &str, grid: &mut [u8; 81]) -> Result<(), CanonError> {
    let bytes = givens.as_bytes();
    if bytes.len() != 81 {
        return Err(CanonError::Length {
            format: FORMAT,
            expected: "81",
            found: givens.chars().count(),
        });
    }
    // One branch-free pass for the common, valid case; the error path below
    // finds the offending byte.
    let mut bad = false;
    for (&b, g) in bytes.iter().zip(grid.iter_mut()) {
        *g = b.wrapping_sub(b'0');
        bad |= *g > 9;
    }
    if !bad {
        return Ok(());
    }
    for (i, &b) in bytes.iter().enumerate() {
        if !b.is_ascii_digit() {
            return Err(CanonError::Character {
                format: FORMAT,
                index: i,
                cell: cell_at(i),
                expected: "a digit 0-9",
                // Every byte before this one is ASCII, so `i` is a char boundary.
                found: givens[i..].chars().next().unwrap_or('?'),
            });
        }
    }
    Ok(())
}

/// Nibble `j` (0-based, reading order) of a packed output row sits at this
/// shift: the first cell is the most significant, so comparing packed rows as
/// integers compares them as strings.
const fn shift(j: usize) -> u32 {
    4 * (8 - j as u32)
}

/// A packed row no real row reaches: every nibble 0xF.
const NO_ROW: u64 = (1 << 36) - 1;

/// `PREFIX[len]` keeps the first `len` cells of a packed row. Padded to 16
/// entries (all whole rows) so a 4-bit index needs no bounds check.
const PREFIX: [u64; 16] = {
    let mut t = [NO_ROW; 16];
    let mut len = 0;
    while len <= 9 {
        t[len] = NO_ROW & !((1u64 << (4 * (9 - len))) - 1);
        len += 1;
    }
    t
};

/// One surviving partial transformation. The order of rows already laid out
/// does not matter for the rest of the search, only which rows are used, so
/// nodes that differ only in that order compare equal and are merged.
/// `unplaced`, `next_label` and `bound` are functions of the others, cached
/// for speed, so they do not change which nodes compare equal.
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
    stack_of: [u8; 4],
    /// Per source stack, its columns not placed yet (bit per column within
    /// the stack), padded to 4 so a 2-bit index needs no check: a tied
    /// stack's are read with a load where a mask over all nine columns took
    /// a shift by a variable amount.
    unplaced: [u8; 4],
    /// Source digit -> output label, [`UNSEEN`] while the digit has not
    /// appeared: reading a label is one load (a byte per digit costs a
    /// larger node to copy, but nibbles in a `u64` cost a shift and mask per
    /// read, and reads are far more frequent). The empty cell's entry is
    /// always 0, its output.
    labels: [u8; 16],
    next_label: u8,
    /// Source stacks tied to an output stack (bit per source stack). The
    /// output stacks not tied yet are always the first ones, as many as the
    /// source stacks not bound: each row leaves free only the output stacks
    /// given all-empty source stacks, and gives those out first.
    bound: u8,
}

impl Node {
    fn start(transposed: u8) -> Node {
        Node {
            transposed,
            rows_used: 0,
            band: FREE,
            col_of: [FREE; 9],
            stack_of: [FREE; 4],
            unplaced: [0b111, 0b111, 0b111, 0],
            labels: START_LABELS,
            next_label: 1,
            bound: 0,
        }
    }

    /// Tie output stack `s` to source stack `src`.
    #[inline(always)]
    fn tie_stack(&mut self, s: usize, src: u8) {
        self.stack_of[s & 3] = src;
        self.bound |= 1 << src;
    }

    /// Place source column `c` (bit `bit` of source stack `src`), holding
    /// `digit` in this row, at output column `j`.
    #[inline(always)]
    fn place_col(&mut self, j: usize, c: usize, src: usize, bit: u8, digit: u8) {
        // A compare, not the division `% 9` costs where `j` is not known
        // to be in range; `j` always is.
        if let Some(col) = self.col_of.get_mut(j) {
            *col = c as u8;
        }
        self.unplaced[src & 3] ^= bit;
        self.relabel(digit);
    }

    /// The label `digit` has now, [`UNSEEN`] if none yet (always 0 for an
    /// empty cell).
    #[inline(always)]
    fn label(&self, digit: u8) -> u8 {
        self.labels[usize::from(digit & 15)]
    }

    /// Relabel on first appearance: the cheapest label is always the next one.
    /// The empty cell's nibble holds its 0, so it reads its output like a
    /// clue reads its label, with one test for both.
    #[inline(always)]
    fn relabel(&mut self, digit: u8) -> u8 {
        let label = self.label(digit);
        if label != UNSEEN {
            label
        } else {
            let label = self.next_label;
            self.labels[usize::from(digit & 15)] = label;
            self.next_label += 1;
            label
        }
    }
}

/// A node part-way through laying out one output row.
#[derive(Clone, Copy)]
struct Work {
    node: Node,
    /// The output row so far, packed (see [`shift`]); later cells are 0.
    out: u64,
}

/// Per source row (of either orientation), what every search over it reads.
#[derive(Clone, Copy, Default)]
struct Row {
    /// Digits by source column; padded to 16 so that any 4-bit index is in
    /// bounds without a check.
    digits: [u8; 16],
    /// Source columns holding a clue.
    clues: u16,
    /// Source stacks holding a clue.
    clue_stacks: u8,
    /// Per source stack, its columns holding a clue (bit per column within
    /// the stack); padded to 4 like [`Node::unplaced`].
    stack_clues: [u8; 4],
}

/// The nine rows and the nine columns of `grid` (the rows of its transpose),
/// built in one pass so that no transposed grid is built.
/// Filled in place, as returning the 360 bytes costs a copy. Plain
/// constant-bound index loops: the iterator form compiled to a loop with
/// several times the instructions.
fn rows_of(grid: &[u8; 81], rows: &mut [[Row; 9]; 2]) {
    let [by_row, by_col] = rows;
    for r in 0..9 {
        // A row is nine bytes copied whole; a column is gathered a byte at
        // a time.
        by_row[r].digits[..9].copy_from_slice(&grid[9 * r..9 * r + 9]);
        for c in 0..9 {
            by_col[c].digits[r] = grid[9 * r + c];
        }
    }
    for row in rows.iter_mut().flatten() {
        let c = clue_columns(&row.digits);
        row.clues = c;
        row.clue_stacks = CLUE_STACKS[usize::from(c) % 512];
        // The three 3-bit groups moved to a byte each at once.
        let c = u32::from(c);
        row.stack_clues = (c & 7 | (c & 0o70) << 5 | (c & 0o700) << 10).to_le_bytes();
    }
}

/// Whether no digit repeats among a row's nine cells. Each clue's digit
/// bit is both OR-ed and added up: the two agree exactly when no digit
/// repeats, as a repeat carries into another bit.
fn distinct(digits: &[u8; 16]) -> bool {
    let mut any = 0u16;
    let mut sum = 0u16;
    for &d in &digits[..9] {
        let bit = DIGIT_BIT[usize::from(d) & 15];
        any |= bit;
        sum += bit;
    }
    any == sum
}

/// `DIGIT_BIT[d]`: digit `d` at bit `d - 1`, none for the empty cell. A
/// table, as a shift by a variable amount costs several instructions.
const DIGIT_BIT: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut d = 1;
    while d < 16 {
        t[d] = 1 << (d - 1);
        d += 1;
    }
    t
};

/// `CLUE_STACKS[clues]`: the stacks (bit per stack) holding a clue of a row
/// whose clue columns are `clues`.
static CLUE_STACKS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut c = 0;
    while c < 512 {
        t[c] = (c & 0o7 != 0) as u8 | ((c & 0o70 != 0) as u8) << 1 | ((c & 0o700 != 0) as u8) << 2;
        c += 1;
    }
    t
};

/// The columns of a row's digits that hold a clue, a bit per column, found
/// eight cells at a time: adding 0x7f to a byte sets its top bit exactly
/// when the byte is not 0 (digits are at most 9, so nothing carries into
/// the next byte), and the multiply gathers those top bits, bit `8k + 7`
/// to bit `56 + k`, into the top byte.
fn clue_columns(digits: &[u8; 16]) -> u16 {
    let mut first8 = [0u8; 8];
    first8.copy_from_slice(&digits[..8]);
    let set = (u64::from_le_bytes(first8) + 0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
    let low = ((set >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16;
    low | u16::from(digits[8] != 0) << 8
}

/// `POP3[m]`: the number of bits set in a 3-bit mask (no popcount
/// instruction is assumed on the target).
const POP3: [u8; 8] = [0, 1, 1, 2, 1, 2, 2, 3];

/// `FIRST_ROW_FORM[clues]`: the least first output row a row with distinct
/// digits and clue columns `clues` can give. Labels come out 1, 2, 3 ...
/// whatever the column order, so only the clue pattern matters, and the
/// least pattern puts the stacks in order of clue count with each stack's
/// empty cells first. A row with a repeated digit reaches a row with the
/// same empty cells and labels no greater, so no more than this form.
static FIRST_ROW_FORM: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut clues = 0;
    while clues < 512 {
        let mut counts = [0u32; 3];
        let mut s = 0;
        while s < 3 {
            counts[s] = (clues >> (3 * s) & 0b111u32).count_ones();
            s += 1;
        }
        // Sort three counts by hand: const code has no sort.
        if counts[0] > counts[1] {
            (counts[0], counts[1]) = (counts[1], counts[0]);
        }
        if counts[1] > counts[2] {
            (counts[1], counts[2]) = (counts[2], counts[1]);
        }
        if counts[0] > counts[1] {
            (counts[0], counts[1]) = (counts[1], counts[0]);
        }
        let mut out = 0u64;
        let mut label = 1u64;
        let mut j = 0;
        while j < 9 {
            if j % 3 >= 3 - counts[j / 3] as usize {
                out |= label << shift(j);
                label += 1;
            }
            j += 1;
        }
        table[clues as usize] = out;
        clues += 1;
    }
    table
};

/// The least next row over every node and every allowed source row, with
/// every way of reaching it.
struct RowSearch<'a> {
    row: Row,
    /// Free source stacks whose three cells in this row are empty.
    zero_stacks: u8,
    /// Free source stacks with a clue in this row (bit per stack).
    clue_stacks: u8,
    best: u64,
    ties: &'a mut Vec<Node>,
    /// Source rows searched and rows offered so far: the work [`STEPS`]
    /// bounds.
    steps: u64,
}

impl RowSearch<'_> {
    /// Keep a partial row only while it is no greater than the best so far.
    #[inline(always)]
    fn promising(&self, out: u64, len: usize) -> bool {
        out <= self.best & PREFIX[len & 15]
    }

    /// A complete row: the new best (dropping the ties of the old one), a
    /// tie with it, or nothing.
    #[inline(always)]
    fn offer(&mut self, out: u64, node: Node) {
        self.steps += 1;
        match out.cmp(&self.best) {
            Ordering::Less => {
                self.best = out;
                self.ties.clear();
                self.ties.push(node);
            }
            Ordering::Equal => self.ties.push(node),
            Ordering::Greater => {}
        }
    }

    /// Lay out the rest of the row from output cell `j`. Only choices that
    /// can still give the least row are followed: an empty cell (or an
    /// all-empty stack) wherever one fits beats any clue there, and among
    /// clues only the least label counts. So the walk is a straight loop
    /// except where equally good choices tie, the only place it branches.
    /// Lays out output column `j` if it is tied to a source column: that
    /// column's digit, relabelled. False for a free column.
    #[inline(always)]
    fn lay_placed(&self, j: usize, w: &mut Work) -> bool {
        let fixed = w.node.col_of[j];
        if fixed == FREE {
            return false;
        }
        let digit = self.row.digits[usize::from(fixed) & 15];
        w.out |= u64::from(w.node.relabel(digit)) << shift(j);
        true
    }

    fn place(&mut self, mut j: usize, w: &mut Work) {
        loop {
            // A run of placed columns: a plain relabelling, and the common
            // case once a few rows are laid out, so tested first.
            while j < 9 && self.lay_placed(j, w) {
                j += 1;
                let bound = self.best & PREFIX[j & 15];
                if w.out > bound {
                    return;
                }
                if w.out < bound {
                    // Already below the best, and `best` cannot change
                    // within this run: the rest of it needs no check.
                    while j < 9 && self.lay_placed(j, w) {
                        j += 1;
                    }
                    break;
                }
            }
            if j >= 9 {
                self.offer(w.out, w.node);
                return;
            }
            let s = STACK_AT[j & 15];
            if w.node.stack_of[s & 3] == FREE {
                // Start of an output stack no source stack is tied to yet:
                // an all-empty stack (which one is left open) if one is left,
                // as its three zeros beat any stack with a clue. The stacks
                // with clues still fit after it: the free output stacks from
                // here on always number the untied source stacks less the
                // all-empty ones already given out in this row.
                // The free output stacks are always the first ones (each row
                // leaves free only those given all-empty stacks, and gives
                // those first), so `s` of them were given out before this one.
                if s < usize::from(self.zero_stacks) {
                    // No prefix check: zeros never make a prefix greater,
                    // and the cells are already 0 in `out`.
                    j += 3;
                    continue;
                }
                // Otherwise a stack with a clue, and only one with the fewest
                // clues in this row: its cells come out empty ones first, so
                // fewer clues means a later first clue.
                let open_clue_stacks = self.clue_stacks & !w.node.bound;
                let mut open = fewest_clues(open_clue_stacks, self.row.clues).stacks;
                // Every choice but the last is searched on a copy; the last
                // goes on in `w` itself, saving a copy of the work.
                loop {
                    let src = open.trailing_zeros() as u8;
                    open &= open - 1;
                    if open == 0 {
                        w.node.tie_stack(s, src);
                        break;
                    }
                    let mut b = *w;
                    b.node.tie_stack(s, src);
                    self.place(j, &mut b);
                }
                continue;
            }
            // A free position inside a tied stack: an unplaced empty column
            // (left open) if one is left, as its zero beats any clue;
            // otherwise an unplaced clue column, placed now. The clue columns
            // still fit after an empty one: the free positions from here to
            // the stack's end always number its unplaced columns less the
            // empty ones already given out in this row.
            // Tied, so below 3: `& 3` keeps it in the padded arrays.
            let src = usize::from(w.node.stack_of[s & 3] & 3);
            let unplaced = w.node.unplaced[src];
            let clues = self.row.stack_clues[src];
            let empties = POP3[usize::from(unplaced & !clues & 0b111)];
            let stack = 3 * src;
            // The free positions of a tied stack are always its first ones
            // (each row gives them out empties first, then clues), and
            // placing clue columns leaves the empty ones unplaced, so the
            // empties fill the stack's first `empties` positions: when `j`
            // is among them they all go here at once.
            let mut cols = unplaced & clues;
            let first_clue = 3 * s + usize::from(empties);
            if j < first_clue {
                j = first_clue;
                // The stack's free positions number its unplaced columns,
                // so with a clue column left the next position is free too
                // and is filled now, without working the stack out again.
                if cols == 0 {
                    continue;
                }
            }
            // Only the clue columns whose digit gets the least label: a digit
            // already labelled keeps its label, a new one takes the next.
            if cols.is_power_of_two() {
                // One clue column left, the common case: no choice to make.
                let c = stack + cols.trailing_zeros() as usize;
                let digit = self.row.digits[c & 15];
                w.node.place_col(j, c, src, cols, digit);
                w.out |= u64::from(w.node.label(digit)) << shift(j);
                j += 1;
                if !self.promising(w.out, j) {
                    return;
                }
                continue;
            }
            let mut least = u8::MAX;
            let mut best_cols = 0u8;
            while cols != 0 {
                let bit = cols & cols.wrapping_neg();
                cols ^= bit;
                let c = stack + bit.trailing_zeros() as usize;
                let label = w.node.label(self.row.digits[c & 15]);
                let label = if label == UNSEEN {
                    w.node.next_label
                } else {
                    label
                };
                if label < least {
                    least = label;
                    best_cols = 0;
                }
                if label == least {
                    best_cols |= bit;
                }
            }
            w.out |= u64::from(least) << shift(j);
            if !self.promising(w.out, j + 1) {
                return;
            }
            loop {
                let bit = best_cols & best_cols.wrapping_neg();
                best_cols ^= bit;
                let c = stack + bit.trailing_zeros() as usize;
                let digit = self.row.digits[c & 15];
                if best_cols == 0 {
                    w.node.place_col(j, c, src, bit, digit);
                    break;
                }
                let mut p = *w;
                p.node.place_col(j, c, src, bit, digit);
                self.place(j + 1, &mut p);
            }
            j += 1;
        }
    }

    /// Search one source row `r` (already described by `self.row`) under
    /// `node` as output row `i`.
    fn search(&mut self, node: &Node, i: usize, r: usize) {
        self.steps += 1;
        let free_src = !node.bound & 0b111;
        self.clue_stacks = self.row.clue_stacks & free_src;
        self.zero_stacks = POP3[usize::from(free_src & !self.row.clue_stacks)];
        // Built in the `Work` `place` takes: a separate node moved into it
        // afterwards cost a second copy.
        let mut w = Work {
            node: *node,
            out: 0,
        };
        let start = &mut w.node;
        start.rows_used |= 1 << r;
        if i.is_multiple_of(3) {
            // The band of row `r`, as `STACK_AT` gives a column's stack:
            // a load where `/ 3` is a multiply and shift.
            start.band = STACK_AT[r & 15] as u8;
        }
        // Every source column placed is every output column tied.
        if start.unplaced == [0; 4] {
            // Every column placed (so every stack tied): the row is a plain
            // relabelling, laid out without the branching machinery. Same
            // cut as `place`: stop once the prefix exceeds the best.
            let mut out = 0u64;
            let mut j = 0;
            while j < 9 {
                let digit = self.row.digits[usize::from(start.col_of[j]) & 15];
                out |= u64::from(start.relabel(digit)) << shift(j);
                j += 1;
                let bound = self.best & PREFIX[j & 15];
                if out > bound {
                    return;
                }
                if out < bound {
                    // Below the best already: the rest needs no check.
                    for j in j..9 {
                        let digit = self.row.digits[usize::from(start.col_of[j]) & 15];
                        out |= u64::from(start.relabel(digit)) << shift(j);
                    }
                    break;
                }
            }
            self.offer(out, *start);
            return;
        }
        self.place(0, &mut w);
    }
}

/// The nine cells of a packed row (see [`shift`]), one per byte. The last
/// eight nibbles are spread to a byte each by three shift-and-mask steps
/// (each halving the group size), which leaves cell 8 in the lowest byte, so
/// the big-endian bytes are cells 1 to 8 in order.
fn unpack(row: u64) -> [u8; 9] {
    let mut x = row & 0xffff_ffff;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    let mut cells = [0u8; 9];
    cells[0] = (row >> shift(0) & 0xf) as u8;
    cells[1..].copy_from_slice(&x.to_be_bytes());
    cells
}

/// The grid mirrored on its main diagonal (the reference search's
/// transposition).
#[cfg(any(test, feature = "bench-reference"))]
fn transpose(grid: &[u8; 81]) -> [u8; 81] {
    let mut t = [0u8; 81];
    for (i, v) in t.iter_mut().enumerate() {
        *v = grid[(i % 9) * 9 + i / 9];
    }
    t
}

/// The stacks among some with the fewest clues in a row, and that number.
#[derive(Clone, Copy)]
struct Fewest {
    /// Bit per source stack.
    stacks: u8,
    /// The clues each of them holds (3 when no stack was given).
    clues: u8,
}

/// The stacks of `stacks` (bit per source stack) with the fewest clues in
/// a row whose clue columns are `clues`: one table lookup.
#[inline(always)]
fn fewest_clues(stacks: u8, clues: u16) -> Fewest {
    FEWEST[(usize::from(stacks & 0b111) << 9 | usize::from(clues & 0x1ff)) % FEWEST.len()]
}

/// `FEWEST[stacks << 9 | clues]`: see [`fewest_clues`].
static FEWEST: [Fewest; 8 << 9] = {
    let mut t = [Fewest {
        stacks: 0,
        clues: 3,
    }; 8 << 9];
    let mut i = 0;
    while i < t.len() {
        let (stacks, clues) = (i >> 9, i & 0x1ff);
        let mut least = 3;
        let mut fewest = 0;
        let mut src = 0;
        while src < 3 {
            if stacks & (1 << src) != 0 {
                let n = (clues >> (3 * src) & 0b111).count_ones() as u8;
                if n < least {
                    least = n;
                    fewest = 0;
                }
                if n == least {
                    fewest |= 1 << src;
                }
            }
            src += 1;
        }
        t[i] = Fewest {
            stacks: fewest,
            clues: least,
        };
        i += 1;
    }
    t
};

/// `STACK_AT[j]`: the output stack of output column `j`, padded to 16 so a
/// 4-bit index needs no check; a load where `j / 3` is a multiply and shift.
const STACK_AT: [usize; 16] = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2];

/// `BAND_ROWS[band]`: the rows of a band, a bit per row; a load where a shift
/// by 3 * band costs more. Padded to 4 so a 2-bit index needs no check.
const BAND_ROWS: [u16; 4] = [0o7, 0o70, 0o700, 0];

/// Rows a node may lay out as output row `i`: any row of an unused band at a
/// band's start, otherwise an unused row of the current band.
fn allowed_rows(node: &Node, i: usize) -> u16 {
    let unused = !node.rows_used & 0x1ff;
    if i.is_multiple_of(3) {
        // Each band used so far keeps one of its rows' bits set in `taken`.
        let used = node.rows_used;
        let taken = (used | used >> 1 | used >> 2) & 0o111;
        !(taken * 0b111) & 0o777
    } else {
        // Past a band's first row the band is set, so below 3.
        unused & BAND_ROWS[usize::from(node.band & 3)]
    }
}

/// The number of empty cells row `row` starts with when laid out under
/// `node`. Which cells of an output row hold a clue does not depend on the
/// ties met while laying it out: a tied stack's free positions take its
/// unplaced empty columns first, its placed positions read their own
/// columns, and the free output stacks take the free source stacks all-empty
/// ones first, then in order of clue count, each with its empty cells first.
/// Read one output stack at a time, as most rows stop at the first.
#[inline(always)]
fn leading_zeros_under(node: &Node, row: &Row) -> u32 {
    let free_src = !node.bound & 0b111;
    // The free output stacks come first; of them, the all-empty free source
    // stacks first, then the free clue stack with the fewest clues, its
    // empty cells first.
    let zero_stacks = POP3[usize::from(free_src & !row.clue_stacks)];
    let free_stacks = POP3[usize::from(free_src)];
    let zeros = 3 * u32::from(zero_stacks);
    if zero_stacks < free_stacks {
        let least = fewest_clues(free_src & row.clue_stacks, row.clues).clues;
        return zeros + 3 - u32::from(least);
    }
    let mut zeros = zeros;
    for s in usize::from(free_stacks)..3 {
        let cols = &node.col_of[3 * s..3 * s + 3];
        let code = cols.iter().fold(0usize, |code, &c| {
            code << 2 | usize::from(LOCAL[usize::from(c)])
        });
        // Tied (the free stacks are the first ones), so below 3: `& 3` keeps
        // it in the padded array, a load where a shift by 3 * stack costs more.
        let local = usize::from(row.stack_clues[usize::from(node.stack_of[s & 3] & 3)]);
        let bits = STACK_PATTERN[(code << 3 | local) % STACK_PATTERN.len()];
        if bits != 0 {
            return zeros + LEADING_ZEROS3[usize::from(bits & 0b111)];
        }
        zeros += 3;
    }
    zeros
}

/// `LEADING_ZEROS3[bits]`: the empty cells a stack whose clue cells are
/// `bits` (bit 2 the first position) starts with.
const LEADING_ZEROS3: [u32; 8] = [3, 2, 1, 1, 0, 0, 0, 0];

/// The empty cells a packed row starts with.
fn leading_zeros(row: u64) -> u32 {
    (row.leading_zeros() - (64 - 36)) / 4
}

/// `LOCAL[c]`: the position of source column `c` in its stack, 3 for
/// [`FREE`].
static LOCAL: [u8; 256] = {
    let mut t = [3u8; 256];
    let mut c = 0;
    while c < 9 {
        t[c] = (c % 3) as u8;
        c += 1;
    }
    t
};

/// `STACK_PATTERN[code << 3 | clues]`: the clue cells (bit 2 the first
/// position) of a tied output stack whose positions hold the source columns
/// `code` (two bits per position, first position highest: the column's
/// place in its stack, or 3 where free), for a row whose clue columns in
/// that source stack are `clues` (bit per column). Free positions take the
/// unplaced columns empty ones first.
static STACK_PATTERN: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut code = 0;
    while code < 64 {
        let mut clues = 0;
        while clues < 8 {
            let mut placed = 0usize;
            let mut p = 0;
            while p < 3 {
                let c = code >> (2 * (2 - p)) & 3;
                if c < 3 {
                    placed |= 1 << c;
                }
                p += 1;
            }
            let unplaced = !placed & 0b111;
            let mut empties = (unplaced & !clues).count_ones();
            let mut bits = 0u8;
            let mut p = 0;
            while p < 3 {
                let c = code >> (2 * (2 - p)) & 3;
                let clue = if c < 3 {
                    clues >> c & 1
                } else if empties > 0 {
                    empties -= 1;
                    0
                } else {
                    1
                };
                bits = bits << 1 | clue as u8;
                p += 1;
            }
            t[code << 3 | clues] = bits;
            clues += 1;
        }
        code += 1;
    }
    t
};

thread_local! {
    /// The survivor lists, kept between calls on each thread: two fresh
    /// vectors per puzzle cost about as much as a short search.
    /// Borrowed in place rather than taken and put back, which moves both
    /// vectors twice.
    static SURVIVORS: RefCell<[Vec<Node>; 2]> = const { RefCell::new([Vec::new(), Vec::new()]) };
}

/// The form and the steps it took; no form if it took more than `limit`.
fn minlex(grid: &[u8; 81], limit: u64) -> (Option<[u8; 81]>, u64) {
    SURVIVORS.with_borrow_mut(|[nodes, ties]| {
        let out = minlex_with(grid, nodes, ties, limit);
        // Keep the buffers unless a freak pattern grew them large.
        if nodes.capacity() + ties.capacity() <= 4096 {
            nodes.clear();
            ties.clear();
        } else {
            *nodes = Vec::new();
            *ties = Vec::new();
        }
        out
    })
}

/// [`minlex`] with the survivor lists given: both empty on entry.
fn minlex_with(
    grid: &[u8; 81],
    nodes: &mut Vec<Node>,
    ties: &mut Vec<Node>,
    max_steps: u64,
) -> (Option<[u8; 81]>, u64) {
    let mut rows = [[Row::default(); 9]; 2];
    rows_of(grid, &mut rows);
    let mut out = [0u8; 81];

    // The first row: a row with distinct digits gives a form known without
    // searching, from its clue pattern alone, and a row with a repeated digit
    // keeps that form's empty cells with labels no greater. So a row whose
    // pattern gives fewer leading empty cells than the least pattern form is
    // beaten outright, one whose pattern gives the least form ties or beats
    // it, and one in between only matters if a digit repeats in it. Those
    // rows alone are searched, starting from the least form as the bound so
    // that everything worse is cut at its first cell.
    let mut forms = [[NO_ROW; 9]; 2];
    let mut bound = NO_ROW;
    for t in 0..2 {
        for r in 0..9 {
            let form = FIRST_ROW_FORM[usize::from(rows[t][r].clues) % 512];
            forms[t][r] = form;
            bound = bound.min(form);
        }
    }
    // No row has more leading empty cells than the least form, so the rows
    // with as many are the ones below this limit.
    let limit = 1u64 << (4 * (9 - leading_zeros(bound)));
    let mut search = RowSearch {
        row: Row::default(),
        zero_stacks: 0,
        clue_stacks: 0,
        best: bound,
        ties,
        steps: 0,
    };
    for transposed in 0..2u8 {
        let start = Node::start(transposed);
        let t = usize::from(transposed);
        for r in 0..9 {
            let form = forms[t][r];
            if form == bound || (form < limit && !distinct(&rows[t][r].digits)) {
                search.row = rows[t][r];
                search.search(&start, 0, r);
            }
        }
    }
    let mut best = search.best;
    // Each search step is bounded (a row branches only among ties of at
    // most three stacks and three columns each), so checking the count
    // once per surviving node bounds the whole search.
    let mut steps = search.steps;
    for i in 0..9 {
        if i > 0 {
            let mut search = RowSearch {
                row: Row::default(),
                zero_stacks: 0,
                clue_stacks: 0,
                best: NO_ROW,
                ties,
                steps,
            };
            // Every candidate row's empty cells fall in the same places
            // whatever ties the search meets, so its leading zeros are known
            // up front: a candidate with fewer than the best so far is never
            // laid out, and one with more beats everything found so far.
            // The first candidate has nothing to beat, so none is worked out
            // until a best exists.
            for node in nodes.iter() {
                let orient = &rows[usize::from(node.transposed) % 2];
                let mut allowed = allowed_rows(node, i);
                while allowed != 0 {
                    let r = allowed.trailing_zeros() as usize;
                    allowed &= allowed - 1;
                    // Always below 9 (`allowed` has nine bits); a checked
                    // get is a compare where `% 9` is a multiply and shifts.
                    let Some(row) = orient.get(r) else {
                        continue;
                    };
                    if search.best != NO_ROW {
                        let zeros = leading_zeros_under(node, row);
                        let most = leading_zeros(search.best);
                        if zeros < most {
                            continue;
                        }
                        if zeros > most {
                            search.best = NO_ROW;
                            search.ties.clear();
                        }
                    }
                    search.row = *row;
                    search.search(node, i, r);
                }
                if search.steps > max_steps {
                    return (None, search.steps);
                }
            }
            best = search.best;
            steps = search.steps;
        }
        out[i * 9..i * 9 + 9].copy_from_slice(&unpack(best));
        if ties.len() > 1 {
            ties.sort_unstable();
            ties.dedup();
        }
        std::mem::swap(nodes, ties);
        ties.clear();
    }
    (Some(out), steps)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The shared seeded generator (tests/common/splitmix.rs).
    pub use crate::splitmix::SplitMix;

    /// A random box-preserving order of 9 lines: band order, then the
    /// order inside each band.
    pub fn line_order(rng: &mut SplitMix) -> [usize; 9] {
        let mut bands = [0, 1, 2];
        rng.shuffle(&mut bands);
        let mut order = [0; 9];
        for (b, &band) in bands.iter().enumerate() {
            let mut inner = [0, 1, 2];
            rng.shuffle(&mut inner);
            for k in 0..3 {
                order[b * 3 + k] = band * 3 + inner[k];
            }
        }
        order
    }

    /// Apply a position map (output cell (i, j) reads source cell
    /// (rows[i], cols[j]), after transposing if asked) and a digit map.
    pub fn transform(
        grid: &[u8; 81],
        transposed: bool,
        rows: &[usize; 9],
        cols: &[usize; 9],
        digits: &[u8; 10],
    ) -> [u8; 81] {
        let g = if transposed { transpose(grid) } else { *grid };
        let mut out = [0u8; 81];
        for i in 0..9 {
            for j in 0..9 {
                out[i * 9 + j] = digits[usize::from(g[rows[i] * 9 + cols[j]])];
            }
        }
        out
    }

    fn random_disguise(grid: &[u8; 81], rng: &mut SplitMix) -> [u8; 81] {
        let mut digits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        rng.shuffle(&mut digits[1..]);
        let rows = line_order(rng);
        let cols = line_order(rng);
        transform(grid, rng.below(2) == 1, &rows, &cols, &digits)
    }

    /// Relabel digits in order of first appearance: the best labelling for a
    /// fixed position map.
    fn first_appearance(grid: &[u8; 81]) -> [u8; 81] {
        let mut label = [0u8; 10];
        let mut next = 1;
        grid.map(|d| {
            if d != 0 && label[usize::from(d)] == 0 {
                label[usize::from(d)] = next;
                next += 1;
            }
            label[usize::from(d)]
        })
    }

    fn text(grid: &[u8; 81]) -> String {
        grid.iter().map(|&d| char::from(b'0' + d)).collect()
    }

    pub fn corpus(text: &str, limit: usize) -> Vec<[u8; 81]> {
        text.lines()
            .filter(|l| !l.starts_with('#') && l.len() >= 81)
            .take(limit)
            .map(|l| {
                let mut g = [0u8; 81];
                for (v, b) in g.iter_mut().zip(l.bytes()) {
                    *v = if b.is_ascii_digit() { b - b'0' } else { 0 };
                }
                g
            })
            .collect()
    }

    #[test]
    fn the_search_stops_at_its_bound_and_real_puzzles_stay_far_inside() {
        // A solved grid with many automorphisms: among the costliest
        // patterns there are, and still inside the bound.
        let sym =
            "123456789456789123789123456231564897564897231897231564312645978645978312978312645";
        let (form, steps) = sudoku_work(sym, STEPS).unwrap();
        assert!(steps * 5 < STEPS, "{steps}");
        assert_eq!(sudoku_reference(sym), Ok(form));
        // Counted work, not time: the same count every run, and a smaller
        // bound is met.
        assert_eq!(sudoku_work(sym, STEPS).map(|(_, n)| n), Ok(steps));
        let got = sudoku_work(sym, steps / 2);
        assert_eq!(
            got,
            Err(CanonError::Limit {
                format: FORMAT,
                limit: steps / 2,
                what: "search steps"
            })
        );
        assert_eq!(
            got.unwrap_err().to_string(),
            format!(
                "sudoku legacy: the canonical form was not settled within {} search steps",
                steps / 2
            )
        );
        for text in [
            include_str!("../../../../tests/data/classic/top1465.txt"),
            include_str!("../../../../tests/data/classic/forum_hardest_1106.txt"),
        ] {
            for g in corpus(text, usize::MAX) {
                let (_, steps) = sudoku_work(&text_of(&g), STEPS).unwrap();
                assert!(steps < 1000, "{steps}");
            }
        }
    }

    fn text_of(g: &[u8; 81]) -> String {
        g.iter().map(|&d| char::from(b'0' + d)).collect()
    }

    fn canon(grid: &[u8; 81]) -> [u8; 81] {
        minlex(grid, u64::MAX).0.unwrap()
    }

    fn digit_count_shape(grid: &[u8; 81]) -> Vec<usize> {
        let mut counts = [0usize; 10];
        for &d in grid {
            counts[usize::from(d)] += 1;
        }
        let mut shape = counts[1..].to_vec();
        shape.sort_unstable();
        shape
    }

    /// Every transformation, relabelled on first appearance, minimised: the
    /// definition itself. About 3.4 million maps, so release builds only.
    fn brute_force(grid: &[u8; 81]) -> [u8; 81] {
        let orders: Vec<[usize; 9]> = {
            let perms3 = [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ];
            let mut v = Vec::new();
            for b in perms3 {
                for p0 in perms3 {
                    for p1 in perms3 {
                        for p2 in perms3 {
                            let inner = [p0, p1, p2];
                            let mut o = [0; 9];
                            for k in 0..9 {
                                o[k] = b[k / 3] * 3 + inner[k / 3][k % 3];
                            }
                            v.push(o);
                        }
                    }
                }
            }
            v
        };
        let identity = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        let mut best = [u8::MAX; 81];
        for t in [false, true] {
            for rows in &orders {
                for cols in &orders {
                    let cand = first_appearance(&transform(grid, t, rows, cols, &identity));
                    if cand < best {
                        best = cand;
                    }
                }
            }
        }
        best
    }

    const TOP1465: &str = include_str!("../../../../tests/data/classic/top1465.txt");
    const SEVENTEEN: &str =
        include_str!("../../../../tests/data/classic/17clue_royle_first2000.txt");

    #[test]
    fn a_packed_row_unpacks_to_its_cells_in_order() {
        let cells = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
        let packed = cells
            .iter()
            .enumerate()
            .fold(0u64, |p, (j, &d)| p | u64::from(d) << shift(j));
        assert_eq!(unpack(packed), cells);
        assert_eq!(unpack(0), [0; 9]);
        assert_eq!(unpack(NO_ROW), [15; 9]);
    }

    #[test]
    fn known_forms_come_out_as_published() {
        let smallest_grid =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
        let cases = [
            ("0".repeat(81), "0".repeat(81)),
            (
                format!("5{}", "0".repeat(80)),
                format!("{}1", "0".repeat(80)),
            ),
            (
                format!("{}77{}", "0".repeat(40), "0".repeat(39)),
                format!("{}11", "0".repeat(79)),
            ),
            (smallest_grid.to_string(), smallest_grid.to_string()),
        ];
        for (input, want) in cases {
            assert_eq!(sudoku(&input).unwrap(), want, "{input}");
        }
    }

    #[test]
    fn the_least_grid_is_found_from_any_disguise_of_it() {
        let g = corpus(
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642",
            1,
        )[0];
        let mut rng = SplitMix(7);
        for _ in 0..20 {
            assert_eq!(canon(&random_disguise(&g, &mut rng)), g);
        }
    }

    #[test]
    fn disguises_of_corpus_puzzles_share_one_form_that_keeps_clues_and_is_a_fixed_point() {
        let mut rng = SplitMix(1465);
        let puzzles: Vec<_> = corpus(TOP1465, usize::MAX)
            .into_iter()
            .chain(corpus(SEVENTEEN, 200))
            .collect();
        assert_eq!(puzzles.len(), 1665);
        let mut forms = std::collections::HashMap::new();
        let mut twins = Vec::new();
        for (k, p) in puzzles.iter().enumerate() {
            let form = canon(p);
            assert_eq!(canon(&random_disguise(p, &mut rng)), form, "{}", text(p));
            // A sample is enough for the fixed point; the proptest covers more.
            if k % 8 == 0 {
                assert_eq!(canon(&form), form, "fixed point of {}", text(p));
            }
            assert_eq!(
                digit_count_shape(&form),
                digit_count_shape(p),
                "{}",
                text(p)
            );
            assert!(form <= first_appearance(p), "{}", text(p));
            if let Some(earlier) = forms.insert(form, *p) {
                twins.push((text(&earlier), text(p)));
            }
        }
        // top1465 really does hold one puzzle twice: the second copy has its
        // top band moved to the bottom. Every other puzzle has its own form.
        assert_eq!(
            twins,
            [(
                "000010780500009000000000040020000000000600003074080000000003002080040010600500000"
                    .to_string(),
                "020000000000600003074080000000003002080040010600500000000010780500009000000000040"
                    .to_string()
            )]
        );
    }

    #[test]
    fn the_form_is_unchanged_on_invalid_and_multi_solution_patterns() {
        let cases = [
            // Row duplicate, column duplicate, box duplicate.
            format!("11{}", "0".repeat(79)),
            format!("1{}1{}", "0".repeat(8), "0".repeat(71)),
            format!("1{}2{}", "0".repeat(9), "0".repeat(70)),
            "1".repeat(81),
        ];
        let mut rng = SplitMix(3);
        for input in cases {
            let g = corpus(&input, 1)[0];
            let form = canon(&g);
            assert_eq!(canon(&random_disguise(&g, &mut rng)), form, "{input}");
            assert_eq!(canon(&form), form);
        }
        // Invalid patterns can cost far more than any puzzle (this one
        // 770,000 steps, `123456789` nine times ten million): only the
        // bounded search is offered to the pipeline, which never gets them.
        let ones = "1".repeat(81);
        assert_eq!(sudoku_work(&ones, u64::MAX).unwrap().0, ones);
        assert_eq!(sudoku(&ones).unwrap_err().code(), "canonical-limit");
    }

    #[test]
    #[ignore = "3.4 million maps per puzzle: run with --release -- --ignored"]
    fn the_search_matches_brute_force_over_every_position_map() {
        let mut puzzles = corpus(SEVENTEEN, 3);
        puzzles.extend(corpus(TOP1465, 3));
        puzzles.extend(corpus(
            "100000569492056108056109240009640801064010000218035604040500016905061402621000005",
            1,
        ));
        for p in puzzles {
            assert_eq!(text(&canon(&p)), text(&brute_force(&p)), "{}", text(&p));
        }
    }

    /// Every corpus under tests/data/classic, puzzles and solution grids.
    const ALL_CORPORA: [&str; 15] = [
        SEVENTEEN,
        TOP1465,
        include_str!("../../../../tests/data/classic/kaggle_1m_first10k.csv"),
        include_str!("../../../../tests/data/classic/forum_hardest_1106.txt"),
        include_str!("../../../../tests/data/classic/forum_hardest_1905_11plus_first2000.txt"),
        include_str!("../../../../tests/data/classic/magictour_top95.txt"),
        include_str!("../../../../tests/data/classic/magictour_topn234.txt"),
        include_str!("../../../../tests/data/classic/serg_benchmark_multisolution.txt"),
        include_str!("../../../../tests/data/classic/emerentius_easy.txt"),
        include_str!("../../../../tests/data/classic/emerentius_easy_solutions.txt"),
        include_str!("../../../../tests/data/classic/emerentius_medium.txt"),
        include_str!("../../../../tests/data/classic/emerentius_medium_solutions.txt"),
        include_str!("../../../../tests/data/classic/emerentius_hard.txt"),
        include_str!("../../../../tests/data/classic/emerentius_hard_solutions.txt"),
        include_str!("../../../../tests/data/classic/emerentius_invalid_annotated.txt"),
    ];

    fn assert_same_as_reference(g: &[u8; 81]) {
        assert_eq!(text(&canon(g)), text(&reference::minlex(g)), "{}", text(g));
    }

    #[test]
    fn the_fast_search_gives_the_reference_form_on_every_corpus_puzzle() {
        // Debug builds take a sample; `cargo test --release` takes them all.
        let step = if cfg!(debug_assertions) { 25 } else { 1 };
        let mut rng = SplitMix(2024);
        let mut seen = 0;
        for text in ALL_CORPORA {
            for (k, p) in corpus(text, usize::MAX).iter().enumerate() {
                if k % step == 0 {
                    assert_same_as_reference(p);
                    assert_same_as_reference(&random_disguise(p, &mut rng));
                    seen += 1;
                }
            }
        }
        assert!(seen * step > 25_000, "{seen}");
    }

    #[test]
    fn the_fast_search_gives_the_reference_form_on_edge_patterns() {
        let mut cases = vec![
            "0".repeat(81),
            "1".repeat(81),
            "9".repeat(81),
            format!("5{}", "0".repeat(80)),
            format!("{}5", "0".repeat(80)),
            format!("11{}", "0".repeat(79)),
            format!("123123123{}", "0".repeat(72)),
            format!("{}{}", "1".repeat(9), "0".repeat(72)),
            "100000000".repeat(9),
            "123456789".repeat(9),
        ];
        // Every single clue, and every pair of clues with equal and unequal
        // digits: the sparsest patterns, where ties are the most numerous.
        for a in 0..81 {
            let mut one = vec![b'0'; 81];
            one[a] = b'4';
            cases.push(String::from_utf8(one.clone()).unwrap_or_default());
            for b in a + 1..81 {
                for d in [b'4', b'7'] {
                    let mut two = one.clone();
                    two[b] = d;
                    cases.push(String::from_utf8(two).unwrap_or_default());
                }
            }
        }
        for c in &cases {
            let fast = sudoku_work(c, u64::MAX).map(|(form, _)| form);
            assert_eq!(fast, sudoku_reference(c), "{c}");
        }
    }

    /// A corpus puzzle with a few cells changed: real structure, but clues
    /// added, removed or made to clash.
    fn mutated(seed: u64, edits: usize) -> [u8; 81] {
        let mut rng = SplitMix(seed);
        let puzzles = corpus(TOP1465, 200);
        let mut g = puzzles[rng.below(puzzles.len())];
        for _ in 0..edits {
            let c = rng.below(81);
            g[c] = if rng.below(3) == 0 {
                0
            } else {
                rng.below(10) as u8
            };
        }
        random_disguise(&g, &mut rng)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn random_patterns_have_one_form_no_greater_than_any_disguise(
            cells in proptest::collection::vec((0usize..81, 1u8..=9), 0..30),
            seed in any::<u64>(),
        ) {
            let mut g = [0u8; 81];
            for (c, d) in cells {
                g[c] = d;
            }
            let form = canon(&g);
            let mut rng = SplitMix(seed);
            let disguise = random_disguise(&g, &mut rng);
            prop_assert_eq!(canon(&disguise), form);
            prop_assert!(form <= first_appearance(&disguise));
            prop_assert_eq!(canon(&form), form);
            prop_assert_eq!(digit_count_shape(&form), digit_count_shape(&g));
        }
        #[test]
        fn the_fast_search_gives_the_reference_form_on_any_81_digits(
            cells in proptest::collection::vec(0u8..=9, 81),
        ) {
            let mut g = [0u8; 81];
            g.copy_from_slice(&cells);
            prop_assert_eq!(text(&canon(&g)), text(&reference::minlex(&g)));
        }

        #[test]
        fn the_fast_search_gives_the_reference_form_at_any_density_and_alphabet(
            density in 0u64..=100,
            alphabet in 1u64..=9,
            seed in any::<u64>(),
        ) {
            let mut rng = SplitMix(seed);
            let g = [0u8; 81].map(|_| {
                if rng.next() % 100 < density {
                    (1 + rng.next() % alphabet) as u8
                } else {
                    0
                }
            });
            prop_assert_eq!(text(&canon(&g)), text(&reference::minlex(&g)));
        }

        #[test]
        fn the_fast_search_gives_the_reference_form_on_sparse_patterns(
            cells in proptest::collection::vec((0usize..81, 1u8..=9), 0..30),
        ) {
            let mut g = [0u8; 81];
            for (c, d) in cells {
                g[c] = d;
            }
            prop_assert_eq!(text(&canon(&g)), text(&reference::minlex(&g)));
        }

        #[test]
        fn the_fast_search_gives_the_reference_form_on_mutated_puzzles(
            seed in any::<u64>(),
            edits in 0usize..6,
        ) {
            let g = mutated(seed, edits);
            prop_assert_eq!(text(&canon(&g)), text(&reference::minlex(&g)));
        }
    }
}
