//! The solution counter: the hot path of the whole archive, so it is built
//! for speed rather than for reading like docs/formats.md "Propagation" (that is `propagate`).
//!
//! The board is held per digit and per band (three rows), the layout of
//! JCZSolve: 27 words of 27 bits saying where each digit may still go.
//! Within one band a digit's rows and boxes must match one to one, which a
//! 512-entry table turns into locked-candidate and hidden-single
//! eliminations in a few instructions; a box that confines a digit to one
//! column (a placed digit included) clears that column in the other two
//! bands; naked singles come from counting candidates across the nine digit
//! words. When those stall, a column that can take a digit in one band only
//! confines its box there to that column (the claiming JCZSolve leaves out).
//! The search branches on the two-candidate cell with the most unsolved
//! peers, then the most two-candidate peers, when there is one (nearly
//! always), copies the small fixed-size state per branch (the last branch
//! reuses it) and never allocates. It stops as soon as `limit` solutions
//! are found. Both the claiming and the branch choice cut the search tree
//! by 35-45% on hard puzzles; each costs more per node, so the wall-clock
//! gain is smaller.
//!
//! The passes over all 27 words (change detection, candidate counting,
//! column claiming) and the reading of the givens use SSE2 on x86_64, where
//! it is the baseline; other targets, and x86_64 with the `portable`
//! feature (which also leaves popcnt alone), get the portable forms, which
//! the tests hold the SSE2 ones to (CI runs the tests both ways). Each
//! kernel picks its form at one dispatch function, on `cfg(x86_64_kernels)`
//! (build.rs). The only unsafe code is in those helpers (calling them, and
//! their unaligned 16-byte stores of in-bounds slices; the loads are the
//! shared ones of `sse2.rs`) and in calling the branch-cell scorer built
//! for popcnt once the CPU has been seen to have it.
//!
//! No parsing and no I/O: digits or masks in, a count and a grid out.

use super::propagate::{BAND, BAND_PEERS, Planes, column, grid_of, rows_single};
#[cfg(x86_64_kernels)]
use super::sse2::{bands, load_bytes, load_words};
use crate::core::grid::CELLS;
use crate::core::kind::{SUDOKU_SEARCH_LIMIT, Solutions};
use crate::core::mask::Mask;

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
pub(super) fn count_solutions_in(planes: &Planes, limit: usize) -> Count {
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

/// The six ways to send a band's three rows to its three boxes, one each:
/// row `r` goes to box `p[r]`.
const ROW_TO_BOX: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// For a band's row-by-box occupancy of one digit (bit `3*box + row`, see
/// [`occupancy`]): the cells the six row-to-box matchings still allow, as
/// a 27-bit band mask. 0 means no matching is left: a contradiction.
const LOCKED: [u32; 512] = {
    const P: [[usize; 3]; 6] = ROW_TO_BOX;
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 6 {
            let pm = (1 << (3 * P[k][0])) | (1 << (3 * P[k][1] + 1)) | (1 << (3 * P[k][2] + 2));
            if m & pm == pm {
                let mut r = 0;
                while r < 3 {
                    t[m] |= 7 << (9 * r + 3 * P[k][r]);
                    r += 1;
                }
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Which row-box segments of band word `s` are non-empty, bit `3*box +
/// row`: the index of [`LOCKED`]. Arithmetic rather than a table lookup
/// per row: this runs a dozen times per search node.
#[inline(always)]
const fn occupancy(s: u32) -> usize {
    // Bit 9*row + 3*box: the segment's three cells folded into its first.
    let t = (s | s >> 1 | s >> 2) & 0o111_111_111;
    // Row 1 moves from bits 9, 12, 15 to 1, 4, 7; row 2 from 18, 21, 24 to
    // 2, 5, 8; what moves past bit 8 is masked off.
    ((t | t >> 8 | t >> 16) & 0x1ff) as usize
}

/// For the columns a digit may use in one band: the cells of the other two
/// bands it leaves open. A box whose digit is confined to one column claims
/// that column for this band (pointing candidates, which also covers a
/// placed digit).
const OTHER_BANDS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut keep = BAND;
        let mut x = 0;
        while x < 3 {
            let cols = (v as u32 >> (3 * x)) & 7;
            if cols == 1 || cols == 2 || cols == 4 {
                keep &= !column(3 * x + cols.trailing_zeros() as usize);
            }
            x += 1;
        }
        t[v] = keep;
        v += 1;
    }
    t
};

/// For the columns where a digit can go only in this band (9 bits): the
/// band cells it leaves open. Such a column must take the digit here, so
/// its box holds the digit in that column (column-box claiming; a column
/// with a single position is a hidden single).
const CLAIMED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut keep = BAND;
        let mut x = 0;
        while x < 3 {
            let cols = (v as u32 >> (3 * x)) & 7;
            if cols != 0 {
                let mut c = 0;
                while c < 3 {
                    if cols & (1 << c) == 0 {
                        keep &= !column(3 * x + c);
                    }
                    c += 1;
                }
            }
            x += 1;
        }
        t[v] = keep;
        v += 1;
    }
    t
};

/// [`BAND_PEERS`] and each bit's column, indexed mod 32.
const PEERS32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = BAND_PEERS[i];
        i += 1;
    }
    t
};
const COLUMN32: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = column(i % 9);
        i += 1;
    }
    t
};

/// For a band word index `3 * digit + band` (mod 32): the band and the
/// digit's words in the other two bands.
const WORDS: [[u8; 3]; 32] = {
    let mut t = [[0u8; 3]; 32];
    let mut k = 0;
    while k < 27 {
        let (d, b) = (k / 3, k % 3);
        let (b1, b2) = NEIGHBOURS[b];
        t[k] = [b as u8, (3 * d + b1) as u8, (3 * d + b2) as u8];
        k += 1;
    }
    t
};

/// Every band word, as a set of changed words: the start updates them all.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// For a band: the other two.
const NEIGHBOURS: [(usize, usize); 3] = [(1, 2), (2, 0), (0, 1)];

/// The band words of digit planes (`[d][b]`, as in [`Planes`]) in the
/// padded form of [`State`]: words 27-31 are 0.
fn padded(planes: &[[u32; 3]; 9]) -> [u32; 32] {
    let mut f = [0; 32];
    f[..27].copy_from_slice(planes.as_flattened());
    f
}

/// What a branch copies: 140 bytes, few enough to be copied inline rather
/// than by a call to memcpy. The bookkeeping of a propagation ([`Work`])
/// is rebuilt per node instead.
#[derive(Clone, Copy)]
struct State {
    /// `f[3 * d + b]`: where digit d+1 may go in band b (bit `9*row + col`).
    /// Words 27-31 stay 0: every digit's three words can then be loaded as
    /// 16 bytes, and a word index masked to 5 bits needs no bounds check.
    f: [u32; 32],
    /// Cells not yet placed, per band.
    unsolved: [u32; 3],
}

/// A node's propagation bookkeeping, not copied to its branches: a branch
/// starts from its parent's fixpoint, where every word is up to date.
struct Work {
    /// `f` as of its last band update; a difference means "update again".
    seen: [u32; 32],
    /// Unsolved cells with two candidates, as of the last naked-singles pass.
    pairs: [u32; 3],
}

impl State {
    /// The state for givens (1..=9; anything else is empty); `None` when two clash.
    /// Built per digit word in one pass rather than given by given: on easy
    /// puzzles this setup is a large share of the whole solve.
    fn from_givens(givens: &[u8; CELLS]) -> Option<State> {
        let at = given_words(givens);
        let mut given = [0u32; 3];
        for word in &at {
            for b in 0..3 {
                given[b] |= word[b];
            }
        }
        let mut f = [[0u32; 3]; 9];
        for (fd, word) in f.iter_mut().zip(&at) {
            let mut cols = [0u32; 3];
            for b in 0..3 {
                // The peers of the digit's givens in this band; a given among
                // them is a clash in a row, box or column.
                let mut peers = 0;
                let mut w = word[b];
                while w != 0 {
                    let i = w.trailing_zeros();
                    w &= w - 1;
                    peers |= BAND_PEERS[i as usize] & !(1 << i);
                }
                if peers & word[b] != 0 {
                    return None;
                }
                fd[b] = (BAND & !given[b] & !peers) | word[b];
                cols[b] = (word[b] | word[b] >> 9 | word[b] >> 18) & 0x1ff;
            }
            if cols[0] & cols[1] | cols[0] & cols[2] | cols[1] & cols[2] != 0 {
                return None;
            }
            let spread = |c: u32| !(c | c << 9 | c << 18);
            fd[0] &= spread(cols[1] | cols[2]);
            fd[1] &= spread(cols[0] | cols[2]);
            fd[2] &= spread(cols[0] | cols[1]);
        }
        Some(State {
            f: padded(&f),
            unsolved: [BAND & !given[0], BAND & !given[1], BAND & !given[2]],
        })
    }

    /// The state of propagated planes: their single-candidate cells are
    /// placed (their peers are clear of the digit), the rest unsolved.
    fn from_planes(planes: &Planes) -> State {
        let mut unsolved = [0u32; 3];
        for (b, u) in unsolved.iter_mut().enumerate() {
            let (mut once, mut twice) = (0u32, 0u32);
            for fd in &planes.0 {
                twice |= once & fd[b];
                once |= fd[b];
            }
            *u = twice;
        }
        State {
            f: padded(&planes.0),
            unsolved,
        }
    }

    /// The empty grid: every digit possible everywhere.
    fn open() -> State {
        State {
            f: padded(&[[BAND; 3]; 9]),
            unsolved: [BAND; 3],
        }
    }

    /// The state for `cands` with its one-digit cells placed; `None` when
    /// two of them clash.
    fn new(cands: &[Mask; CELLS]) -> Option<State> {
        let mut state = State::open();
        // Most cells of a puzzle are open: only the others cost anything.
        for (cell, m) in cands.iter().enumerate().filter(|(_, m)| **m != Mask::ALL) {
            let out = !(1u32 << (cell % 27));
            for d in 0..9 {
                if m.bits() & (1 << d) == 0 {
                    state.f[3 * d + cell / 27] &= out;
                }
            }
        }
        for (cell, m) in cands.iter().enumerate() {
            if let Some(d) = m.single() {
                state.place_given(usize::from(d.get() - 1), cell / 27, (cell % 27) as u32)?;
            }
        }
        Some(state)
    }

    /// Places digit `d` at bit `i` of band `b` the cheap way: only the
    /// digit's row and box in this band are cleared. The cell is then its
    /// row's single position, so the next band update marks it solved,
    /// clears its other digits and claims its column in the other bands.
    #[inline(always)]
    fn place(&mut self, d: usize, b: usize, i: u32) {
        self.f[(3 * d + b) & 31] &= !BAND_PEERS[i as usize] | 1 << i;
    }

    /// Places a given: everything at once, as no band update has run yet.
    /// `None` when an earlier given already ruled the digit out here.
    fn place_given(&mut self, d: usize, b: usize, i: u32) -> Option<()> {
        let bit = 1u32 << i;
        let k = 3 * d + b;
        if self.f[k] & bit == 0 {
            return None;
        }
        self.unsolved[b] &= !bit;
        for w in self.f.iter_mut().skip(b).step_by(3) {
            *w &= !bit;
        }
        self.f[k] = (self.f[k] & !BAND_PEERS[i as usize]) | bit;
        let col = !column(i as usize % 9);
        self.f[3 * d + (b + 1) % 3] &= col;
        self.f[3 * d + (b + 2) % 3] &= col;
        Some(())
    }

    /// Row/box matching of band word `k` (digit `k / 3`, band `k % 3`);
    /// false on a contradiction.
    #[inline(always)]
    fn update_band(&mut self, work: &mut Work, k: usize) -> bool {
        // From a table rather than a division: this runs a dozen times per node.
        let k = k & 31;
        let [b, k1, k2] = WORDS[k].map(usize::from);
        let (b, k1, k2) = (b & 3, k1 & 31, k2 & 31);
        let f = &mut self.f;
        let mut s = f[k];
        let locked = LOCKED[occupancy(s) & 511];
        if locked == 0 {
            return false;
        }
        s &= locked;
        let keep = OTHER_BANDS[((s | s >> 9 | s >> 18) & 0x1ff) as usize];
        f[k1] &= keep;
        f[k2] &= keep;
        // A row left with one position is a hidden single (boxes reduce to
        // rows through the matching). Its row, box and column are already
        // clear for this digit; the other digits leave the cell. A cell
        // solved before holds no other digit already, so it needs no test.
        // The matching leaves no row empty, so all three rows are tested at once.
        let solved = rows_single(s);
        self.unsolved[b] &= !solved;
        for d in 0..9 {
            self.f[3 * d + b] &= !solved;
        }
        self.f[k] = s;
        work.seen[k] = s;
        true
    }

    /// The band words changed since their last update, bit `3 * digit + band`.
    /// Computed without a branch per word: which words changed is
    /// unpredictable, and 27 compare-and-branches per pass mispredict often.
    #[inline(always)]
    fn changed(&self, work: &Work) -> u32 {
        changed_words(&self.f, &work.seen)
    }

    /// Column-box claiming for the digits with a word in `words` (bit `3 *
    /// digit + band`): a column the digit can use in one band only confines
    /// its box there to that column. `None` when a column has no place left
    /// for one of them, otherwise whether anything changed.
    #[inline(always)]
    fn claim_columns(&mut self, words: u32) -> Option<bool> {
        claim_columns(&mut self.f, words)
    }

    /// Places every cell with a single candidate. `None` on a contradiction,
    /// otherwise whether anything was placed.
    #[inline(always)]
    fn naked_singles(&mut self, work: &mut Work) -> Option<bool> {
        let [r1, r2, r3] = candidate_counts(&self.f);
        let u = self.unsolved;
        if (u[0] & !r1[0]) | (u[1] & !r1[1]) | (u[2] & !r1[2]) != 0 {
            return None;
        }
        let singles = [u[0] & !r2[0], u[1] & !r2[1], u[2] & !r2[2]];
        for b in 0..3 {
            work.pairs[b] = u[b] & r2[b] & !r3[b];
        }
        // All singles in one word (band b at bit 32 * b): one loop with one
        // hard-to-predict exit, rather than a test per band and per digit.
        let mut at =
            u128::from(singles[0]) | u128::from(singles[1]) << 32 | u128::from(singles[2]) << 64;
        if at == 0 {
            return Some(false);
        }
        // The bits of each cell's digit value, as band words (a single has
        // one digit, so the OR of the digits with a bit set is that bit).
        // Taken before any placing, as placing one single cannot remove
        // another's digit unless the two clash (and then both are placed
        // and the clash found by the next pass, in any order).
        let f = &self.f;
        let value = |b: usize| {
            [
                f[b] | f[6 + b] | f[12 + b] | f[18 + b] | f[24 + b],
                f[3 + b] | f[6 + b] | f[15 + b] | f[18 + b],
                f[9 + b] | f[12 + b] | f[15 + b] | f[18 + b],
                f[21 + b] | f[24 + b],
            ]
        };
        let values = [value(0), value(1), value(2)];
        while at != 0 {
            let i = at.trailing_zeros();
            at &= at - 1;
            let (b, j) = ((i >> 5) as usize % 3, i & 31);
            let v = values[b];
            let digit = (v[0] >> j & 1)
                | (v[1] >> j & 1) << 1
                | (v[2] >> j & 1) << 2
                | (v[3] >> j & 1) << 3;
            self.place((digit as usize).wrapping_sub(1) & 15, b, j);
        }
        Some(true)
    }

    /// Runs band updates and naked singles to a fixpoint, starting with the
    /// words in `changed`; false on a contradiction.
    fn propagate(&mut self, work: &mut Work, mut changed: u32) -> bool {
        // The words changed since the last claiming: only their digits can
        // claim anything new. A branch starts from its parent's fixpoint,
        // where claiming had nothing left, and usually touches 4 digits of 9.
        let mut touched = changed;
        loop {
            while changed != 0 {
                while changed != 0 {
                    // A word only shrinks, so once changed it stays changed
                    // until its update. Highest first: measured, it takes
                    // 2-4% fewer updates than lowest first.
                    let k = (31 - changed.leading_zeros()) as usize;
                    changed &= !(1 << k);
                    if !self.update_band(work, k) {
                        return false;
                    }
                }
                changed = self.changed(work);
                touched |= changed;
            }
            if self.unsolved == [0; 3] {
                return true;
            }
            match self.naked_singles(work) {
                None => return false,
                Some(false) => match self.claim_columns(touched) {
                    None => return false,
                    Some(true) => touched = 0,
                    Some(false) => return true,
                },
                Some(true) => {}
            }
            changed = self.changed(work);
            touched |= changed;
        }
    }

    /// The two-candidate cell with the most unsolved peers, ties to the
    /// one with the most two-candidate peers: each branch then removes the
    /// most candidates and turns the most peers into singles. Measured on
    /// the hardest puzzles, the unsolved peers cut the search tree by
    /// 15-25% against the two-candidate peers alone, which cut it by a
    /// quarter to a third against the first pair.
    #[inline(always)]
    fn pick_pair(p: [u32; 3], unsolved: [u32; 3]) -> (usize, u32) {
        // The score is a population count, which baseline x86_64 lacks as
        // an instruction: the software count is a third of the loop. Every
        // x86_64 CPU of the last fifteen years has it, and the detection
        // result is cached, so asking costs a load.
        #[cfg(x86_64_kernels)]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has just been seen to support popcnt.
            return unsafe { Self::pick_pair_popcnt(p, unsolved) };
        }
        Self::pick_pair_any(p, unsolved)
    }

    /// [`Self::pick_pair`] compiled with the popcnt instruction.
    #[cfg(x86_64_kernels)]
    #[target_feature(enable = "popcnt")]
    fn pick_pair_popcnt(p: [u32; 3], unsolved: [u32; 3]) -> (usize, u32) {
        Self::pick_pair_any(p, unsolved)
    }

    /// [`Self::pick_pair`] for any CPU.
    #[inline(always)]
    fn pick_pair_any(p: [u32; 3], u: [u32; 3]) -> (usize, u32) {
        // Score above, the cell's complement below: the maximum is the
        // first cell with the best score, found without a branch.
        let mut best = 0u32;
        // A loop per band: the band's words stay in registers and a cell
        // costs a third fewer instructions than one loop over all 81 bits.
        for b in 0..3 {
            let (b1, b2) = NEIGHBOURS[b];
            // The other bands folded into one word, as the score has always
            // counted them: a column position taken in both counts once.
            let (own, others) = (p[b], p[b1] | p[b2]);
            let (open, open_others) = (u[b], u[b1] | u[b2]);
            let mut at = own;
            while at != 0 {
                let j = at.trailing_zeros() as usize & 31;
                at &= at - 1;
                let near = u64::from(own & PEERS32[j]) << 32 | u64::from(others & COLUMN32[j]);
                let unsolved =
                    u64::from(open & PEERS32[j]) << 32 | u64::from(open_others & COLUMN32[j]);
                let score = unsolved.count_ones() << 8 | near.count_ones();
                best = best.max(score << 8 | (255 - (32 * b as u32 + j as u32)));
            }
        }
        let i = 255 - (best & 255);
        ((i >> 5) as usize, i & 31)
    }

    /// An unsolved cell to branch on: one with two candidates if any, else
    /// three, else the first. Returns (band, bit).
    fn pick_cell(&self, pairs: [u32; 3]) -> (usize, u32) {
        // Nearly always a pair is at hand from the last naked-singles pass.
        if pairs != [0; 3] {
            return Self::pick_pair(pairs, self.unsolved);
        }
        let mut first = None;
        let mut three = None;
        for b in 0..3 {
            let (mut r1, mut r2, mut r3, mut r4) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.f[3 * d + b];
                r4 |= r3 & x;
                r3 |= r2 & x;
                r2 |= r1 & x;
                r1 |= x;
            }
            let u = self.unsolved[b];
            let two = u & !r3;
            if two != 0 {
                return (b, two.trailing_zeros());
            }
            if three.is_none() && u & !r4 != 0 {
                three = Some((b, (u & !r4).trailing_zeros()));
            }
            if first.is_none() && u != 0 {
                first = Some((b, u.trailing_zeros()));
            }
        }
        three.or(first).unwrap_or((0, 0))
    }

    fn solution(&self) -> [u8; CELLS] {
        let mut planes = [[0; 3]; 9];
        planes.as_flattened_mut().copy_from_slice(&self.f[..27]);
        grid_of(&planes)
    }
}

/// Where each digit is given, as band words: `[d][b]` for digit d+1. On
/// easy puzzles this setup is a large share of the whole solve, so SSE2
/// compares sixteen givens with a digit at once.
#[inline(always)]
fn given_words(givens: &[u8; CELLS]) -> [[u32; 3]; 9] {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { given_words_sse2(givens) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        given_words_portable(givens)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn given_words_sse2(givens: &[u8; CELLS]) -> [[u32; 3]; 9] {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_set1_epi8};
    // Cells 0-79 in five registers; cell 80 on its own.
    let chunks: [__m128i; 5] = std::array::from_fn(|c| load_bytes(givens, 16 * c));
    let mut at = [[0u32; 3]; 9];
    for (d, word) in at.iter_mut().enumerate() {
        let digit = _mm_set1_epi8(d as i8 + 1);
        let cells =
            |c: usize| u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(chunks[c], digit)) as u16);
        let low = cells(0) | cells(1) << 16 | cells(2) << 32 | cells(3) << 48;
        let high = cells(4) | u64::from(givens[80] == d as u8 + 1) << 16;
        *word = [
            low as u32 & BAND,
            (low >> 27) as u32 & BAND,
            (low >> 54 | high << 10) as u32 & BAND,
        ];
    }
    at
}

/// [`given_words`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn given_words_portable(givens: &[u8; CELLS]) -> [[u32; 3]; 9] {
    // Slot 0 collects the empty cells, without a branch per cell.
    let mut at = [[0u32; 3]; 10];
    for (band, gs) in givens.chunks_exact(27).enumerate() {
        for (i, &g) in gs.iter().enumerate() {
            let slot = if g <= 9 { usize::from(g) } else { 0 };
            at[slot][band % 3] |= 1 << i;
        }
    }
    std::array::from_fn(|d| at[d + 1])
}

/// The words of `f` that differ from `seen`, bit `3 * digit + band`. This
/// runs half a dozen times per node; SSE2 compares four words at once and
/// one byte mask gathers sixteen results (about 30 instructions; the
/// compiler's own version of the portable loop takes about 60).
#[inline(always)]
fn changed_words(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { changed_words_sse2(f, seen) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        changed_words_portable(f, seen)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn changed_words_sse2(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    use std::arch::x86_64::{_mm_cmpeq_epi32, _mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32};
    // Words k..k+4 of both, compared: all ones where equal.
    let eq = |k: usize| _mm_cmpeq_epi32(load_words(f, k), load_words(seen, k));
    // Words 0-15, then 16-27 (27 is padding, the same in both).
    let low = _mm_packs_epi16(
        _mm_packs_epi32(eq(0), eq(4)),
        _mm_packs_epi32(eq(8), eq(12)),
    );
    let last = eq(24);
    let high = _mm_packs_epi16(_mm_packs_epi32(eq(16), eq(20)), _mm_packs_epi32(last, last));
    let low = _mm_movemask_epi8(low) as u32 & 0xffff;
    let high = _mm_movemask_epi8(high) as u32;
    !(low | high << 16) & ALL_WORDS
}

/// [`changed_words`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn changed_words_portable(f: &[u32; 32], seen: &[u32; 32]) -> u32 {
    let mut m = 0;
    for (k, (f, seen)) in f.iter().zip(seen).take(27).enumerate() {
        m |= u32::from(f != seen) << k;
    }
    m
}

/// Per band, the cells with at least one, two and three candidates.
/// Counted for the three bands at once in SSE2 lanes (the compiler leaves
/// the portable loop scalar): a naked-singles pass runs once or twice per
/// node.
#[inline(always)]
fn candidate_counts(f: &[u32; 32]) -> [[u32; 3]; 3] {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { candidate_counts_sse2(f) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        candidate_counts_portable(f)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn candidate_counts_sse2(f: &[u32; 32]) -> [[u32; 3]; 3] {
    use std::arch::x86_64::{_mm_and_si128, _mm_or_si128, _mm_setzero_si128};
    let (mut r1, mut r2, mut r3) = (
        _mm_setzero_si128(),
        _mm_setzero_si128(),
        _mm_setzero_si128(),
    );
    for d in 0..9 {
        // A digit's three bands and one word of no interest.
        let x = load_words(f, 3 * d);
        r3 = _mm_or_si128(r3, _mm_and_si128(r2, x));
        r2 = _mm_or_si128(r2, _mm_and_si128(r1, x));
        r1 = _mm_or_si128(r1, x);
    }
    [bands(r1), bands(r2), bands(r3)]
}

/// [`candidate_counts`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn candidate_counts_portable(f: &[u32; 32]) -> [[u32; 3]; 3] {
    let (mut r1, mut r2, mut r3) = ([0u32; 3], [0u32; 3], [0u32; 3]);
    for d in 0..9 {
        for b in 0..3 {
            let x = f[3 * d + b];
            r3[b] |= r2[b] & x;
            r2[b] |= r1[b] & x;
            r1[b] |= x;
        }
    }
    [r1, r2, r3]
}

/// Column-box claiming for the digits with a word in `words`, three bands
/// of a digit at once in SSE2 lanes. [`CLAIMED`] becomes arithmetic here (a
/// table lookup per lane would undo the lanes); it is checked against the
/// table in the tests.
#[inline(always)]
fn claim_columns(f: &mut [u32; 32], words: u32) -> Option<bool> {
    #[cfg(x86_64_kernels)]
    {
        // SAFETY: SSE2 is part of the x86_64 baseline, so the target feature
        // is always present.
        unsafe { claim_columns_sse2(f, words) }
    }
    #[cfg(not(x86_64_kernels))]
    {
        claim_columns_portable(f, words)
    }
}

#[cfg(x86_64_kernels)]
#[inline]
#[target_feature(enable = "sse2")]
fn claim_columns_sse2(f: &mut [u32; 32], mut words: u32) -> Option<bool> {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi32, _mm_cvtsi128_si32,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi32, _mm_setzero_si128, _mm_shuffle_epi32,
        _mm_slli_epi32, _mm_srli_epi32, _mm_storeu_si128, _mm_xor_si128,
    };
    let nine = _mm_set1_epi32(0x1ff);
    let box_low = _mm_set1_epi32(0o111);
    let (mut changed, mut covered) = (_mm_setzero_si128(), nine);
    while words != 0 {
        // k / 3 for k < 27, without a division.
        let d = ((words.trailing_zeros() * 11) >> 5) as usize;
        words &= !(7 << (3 * d));
        // The digit's three band words in lanes 0-2. Lane 3 is the next
        // word, which comes out as it went in (no column is claimed there,
        // since its lanes all agree), so the whole vector can be stored.
        let at = (3 * d) & 31;
        let x = load_words(f, at);
        let c = _mm_and_si128(
            _mm_or_si128(
                x,
                _mm_or_si128(_mm_srli_epi32::<9>(x), _mm_srli_epi32::<18>(x)),
            ),
            nine,
        );
        // The other two bands' columns, lane by lane.
        let c1 = _mm_shuffle_epi32::<0b11_00_10_01>(c);
        let c2 = _mm_shuffle_epi32::<0b11_01_00_10>(c);
        covered = _mm_and_si128(covered, _mm_or_si128(c, _mm_or_si128(c1, c2)));
        let shared = _mm_or_si128(
            _mm_and_si128(c, _mm_or_si128(c1, c2)),
            _mm_and_si128(c1, c2),
        );
        // Columns in this band only; a box with one keeps only those.
        let own = _mm_andnot_si128(shared, c);
        let boxes = _mm_and_si128(
            _mm_or_si128(
                own,
                _mm_or_si128(_mm_srli_epi32::<1>(own), _mm_srli_epi32::<2>(own)),
            ),
            box_low,
        );
        let boxes = _mm_or_si128(
            boxes,
            _mm_or_si128(_mm_slli_epi32::<1>(boxes), _mm_slli_epi32::<2>(boxes)),
        );
        let cols = _mm_or_si128(own, _mm_xor_si128(boxes, nine));
        let keep = _mm_or_si128(
            cols,
            _mm_or_si128(_mm_slli_epi32::<9>(cols), _mm_slli_epi32::<18>(cols)),
        );
        let w = _mm_and_si128(x, keep);
        changed = _mm_or_si128(changed, _mm_xor_si128(w, x));
        let chunk = &mut f[at..at + 4];
        // SAFETY: the slice holds four u32s, 16 bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(chunk.as_mut_ptr().cast::<__m128i>(), w) };
    }
    if _mm_cvtsi128_si32(covered) != 0x1ff {
        return None;
    }
    let same = _mm_movemask_epi8(_mm_cmpeq_epi32(changed, _mm_setzero_si128()));
    Some(same != 0xffff)
}

/// [`claim_columns`] for any target (with `x86_64_kernels`, see build.rs, only the tests use it).
#[cfg_attr(all(x86_64_kernels, not(test)), allow(dead_code))]
#[inline(always)]
fn claim_columns_portable(f: &mut [u32; 32], mut words: u32) -> Option<bool> {
    let (mut changed, mut covered) = (0, 0x1ff);
    while words != 0 {
        // k / 3 for k < 27, without a division.
        let d = ((words.trailing_zeros() * 11) >> 5) as usize;
        words &= !(7 << (3 * d));
        let at = (3 * d) & 31;
        let fd = [f[at], f[(at + 1) & 31], f[(at + 2) & 31]];
        let c0 = (fd[0] | fd[0] >> 9 | fd[0] >> 18) & 0x1ff;
        let c1 = (fd[1] | fd[1] >> 9 | fd[1] >> 18) & 0x1ff;
        let c2 = (fd[2] | fd[2] >> 9 | fd[2] >> 18) & 0x1ff;
        // One test for all digits: a contradiction is rare.
        covered &= c0 | c1 | c2;
        // A column in one band only is in none of the pairwise overlaps.
        let shared = c0 & c1 | c0 & c2 | c1 & c2;
        let w0 = fd[0] & CLAIMED[(c0 & !shared) as usize];
        let w1 = fd[1] & CLAIMED[(c1 & !shared) as usize];
        let w2 = fd[2] & CLAIMED[(c2 & !shared) as usize];
        changed |= (w0 ^ fd[0]) | (w1 ^ fd[1]) | (w2 ^ fd[2]);
        f[at] = w0;
        f[(at + 1) & 31] = w1;
        f[(at + 2) & 31] = w2;
    }
    if covered != 0x1ff {
        return None;
    }
    Some(changed != 0)
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
            include_str!("../../../tests/data/classic/forum_hardest_1106.txt"),
            include_str!("../../../tests/data/classic/top1465.txt"),
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
        for (p, _) in puzzles(include_str!("../../../tests/data/classic/top1465.txt")) {
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
                include_str!("../../../tests/data/classic/emerentius_easy.txt"),
                include_str!("../../../tests/data/classic/emerentius_easy_solutions.txt"),
            ),
            (
                include_str!("../../../tests/data/classic/emerentius_medium.txt"),
                include_str!("../../../tests/data/classic/emerentius_medium_solutions.txt"),
            ),
            (
                include_str!("../../../tests/data/classic/emerentius_hard.txt"),
                include_str!("../../../tests/data/classic/emerentius_hard_solutions.txt"),
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
            include_str!("../../../tests/data/classic/forum_hardest_1106.txt"),
            include_str!("../../../tests/data/classic/forum_hardest_1905_11plus_first2000.txt"),
            include_str!("../../../tests/data/classic/magictour_topn234.txt"),
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
        let text = include_str!("../../../tests/data/classic/serg_benchmark_multisolution.txt");
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

    #[test]
    fn occupancy_finds_each_non_empty_row_box_segment() {
        // One cell per chosen segment, at every offset within the segment.
        for m in 0..512u32 {
            for offset in 0..3 {
                let mut s = 0;
                let mut want = 0;
                for (row, x) in (0..3).flat_map(|r| (0..3).map(move |x| (r, x))) {
                    if m >> (3 * row + x) & 1 == 1 {
                        s |= 1 << (9 * row + 3 * x + offset);
                        want |= 1 << (3 * x + row);
                    }
                }
                assert_eq!(occupancy(s), want, "{s:#o}");
            }
        }
    }

    #[test]
    fn locked_keeps_the_cells_of_some_row_to_box_matching() {
        // Each row's cells in all three boxes: what is left is the segments
        // that lie on a matching of the occupied segments.
        for (m, &locked) in LOCKED.iter().enumerate() {
            let matched = |r: usize, x: usize| {
                // Some permutation sends row r to box x, the rest to occupied segments.
                ROW_TO_BOX.iter().any(|p: &[usize; 3]| {
                    p[r] == x && (0..3).all(|row| m >> (3 * p[row] + row) & 1 == 1)
                })
            };
            let mut want = 0u32;
            for r in 0..3 {
                for x in 0..3 {
                    if matched(r, x) {
                        want |= 7 << (9 * r + 3 * x);
                    }
                }
            }
            assert_eq!(locked, want, "{m:#o}");
        }
    }

    #[test]
    fn claiming_matches_the_claimed_table_for_every_column_set() {
        // Band 0 holds every cell; the columns outside `v` are shared by
        // bands 1 and 2, so band 0 alone has the columns of `v`.
        for v in 0..512u32 {
            let rest = !v & 0x1ff;
            let shared = rest | rest << 9 | rest << 18;
            for d in [0, 4, 8] {
                let mut f = padded(&[[BAND; 3]; 9]);
                f[3 * d..3 * d + 3].copy_from_slice(&[BAND, shared, shared]);
                let mut g = f;
                assert_eq!(
                    claim_columns(&mut f, 7 << (3 * d)),
                    claim_columns_portable(&mut g, 7 << (3 * d))
                );
                assert_eq!(f, g, "{v:#o}");
                assert_eq!(f[3 * d], CLAIMED[v as usize], "{v:#o}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn given_words_agree_with_their_portable_form(
            givens in proptest::collection::vec(0u8..12, CELLS),
        ) {
            let mut g = [0u8; CELLS];
            g.copy_from_slice(&givens);
            proptest::prop_assert_eq!(given_words(&g), given_words_portable(&g));
        }

        #[test]
        fn the_simd_helpers_agree_with_their_portable_forms(
            words in proptest::collection::vec(0u32..1 << 27, 27),
            flips in proptest::collection::vec(0u32..1 << 27, 27),
            keep in 0u32..1 << 27,
        ) {
            let mut f = [0u32; 32];
            let mut seen = [0u32; 32];
            for k in 0..27 {
                f[k] = words[k];
                // Only the words in `keep` are left as they were.
                seen[k] = if keep >> k & 1 == 1 { words[k] } else { words[k] ^ flips[k].max(1) };
            }
            proptest::prop_assert_eq!(changed_words(&f, &seen), changed_words_portable(&f, &seen));
            proptest::prop_assert_eq!(candidate_counts(&f), candidate_counts_portable(&f));
            // Sparse words, like real two-candidate cells.
            let pairs = [f[0] & f[1] & f[2], f[3] & f[4] & f[5], f[6] & f[7] & f[8]];
            let open = [f[9], f[10], f[11]];
            proptest::prop_assert_eq!(State::pick_pair(pairs, open), State::pick_pair_any(pairs, open));
            // Claiming on sparse words too, where it has something to do.
            for g in [f, f.map(|x| x & x >> 1 & x >> 2)] {
                let (mut a, mut b) = (g, g);
                proptest::prop_assert_eq!(claim_columns(&mut a, keep), claim_columns_portable(&mut b, keep));
                proptest::prop_assert_eq!(a, b);
            }
        }
    }
}
