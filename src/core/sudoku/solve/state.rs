//! A search node's state: the 27 band words per digit, copied per branch,
//! and the propagation run at every node (locked candidates, claiming,
//! naked singles) and the choice of the cell to branch on.

use super::kernels::{candidate_counts, changed_words, claim_columns, given_words};
use super::planes::{Planes, grid_of};
use super::tables::*;
use crate::core::grid::CELLS;
use crate::core::mask::Mask;

/// The band words of digit planes (`[d][b]`, as in [`Planes`]) in the
/// padded form of [`State`]: words 27-31 are 0.
pub(in crate::core::sudoku) fn padded(planes: &[[u32; 3]; 9]) -> [u32; 32] {
    let mut f = [0; 32];
    f[..27].copy_from_slice(planes.as_flattened());
    f
}

/// What a branch copies: 140 bytes, few enough to be copied inline rather
/// than by a call to memcpy. The bookkeeping of a propagation ([`Work`])
/// is rebuilt per node instead.
#[derive(Clone, Copy)]
pub(in crate::core::sudoku) struct State {
    /// `f[3 * d + b]`: where digit d+1 may go in band b (bit `9*row + col`).
    /// Words 27-31 stay 0: every digit's three words can then be loaded as
    /// 16 bytes, and a word index masked to 5 bits needs no bounds check.
    pub(in crate::core::sudoku) f: [u32; 32],
    /// Cells not yet placed, per band.
    pub(in crate::core::sudoku) unsolved: [u32; 3],
}

/// A node's propagation bookkeeping, not copied to its branches: a branch
/// starts from its parent's fixpoint, where every word is up to date.
pub(in crate::core::sudoku) struct Work {
    /// `f` as of its last band update; a difference means "update again".
    pub(in crate::core::sudoku) seen: [u32; 32],
    /// Unsolved cells with two candidates, as of the last naked-singles pass.
    pub(in crate::core::sudoku) pairs: [u32; 3],
}

impl State {
    /// The state for givens (1..=9; anything else is empty); `None` when two clash.
    /// Built per digit word in one pass rather than given by given: on easy
    /// puzzles this setup is a large share of the whole solve.
    pub(in crate::core::sudoku) fn from_givens(givens: &[u8; CELLS]) -> Option<State> {
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
    pub(in crate::core::sudoku) fn from_planes(planes: &Planes) -> State {
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
    pub(in crate::core::sudoku) fn open() -> State {
        State {
            f: padded(&[[BAND; 3]; 9]),
            unsolved: [BAND; 3],
        }
    }

    /// The state for `cands` with its one-digit cells placed; `None` when
    /// two of them clash.
    pub(in crate::core::sudoku) fn new(cands: &[Mask; CELLS]) -> Option<State> {
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
    pub(in crate::core::sudoku) fn place(&mut self, d: usize, b: usize, i: u32) {
        self.f[(3 * d + b) & 31] &= !BAND_PEERS[i as usize] | 1 << i;
    }

    /// Places a given: everything at once, as no band update has run yet.
    /// `None` when an earlier given already ruled the digit out here.
    pub(in crate::core::sudoku) fn place_given(
        &mut self,
        d: usize,
        b: usize,
        i: u32,
    ) -> Option<()> {
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
    pub(in crate::core::sudoku) fn update_band(&mut self, work: &mut Work, k: usize) -> bool {
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
    pub(in crate::core::sudoku) fn changed(&self, work: &Work) -> u32 {
        changed_words(&self.f, &work.seen)
    }

    /// Column-box claiming for the digits with a word in `words` (bit `3 *
    /// digit + band`): a column the digit can use in one band only confines
    /// its box there to that column. `None` when a column has no place left
    /// for one of them, otherwise whether anything changed.
    #[inline(always)]
    pub(in crate::core::sudoku) fn claim_columns(&mut self, words: u32) -> Option<bool> {
        claim_columns(&mut self.f, words)
    }

    /// Places every cell with a single candidate. `None` on a contradiction,
    /// otherwise whether anything was placed.
    #[inline(always)]
    pub(in crate::core::sudoku) fn naked_singles(&mut self, work: &mut Work) -> Option<bool> {
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
    pub(in crate::core::sudoku) fn propagate(&mut self, work: &mut Work, mut changed: u32) -> bool {
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
    pub(in crate::core::sudoku) fn pick_pair(p: [u32; 3], unsolved: [u32; 3]) -> (usize, u32) {
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
    pub(in crate::core::sudoku) fn pick_pair_popcnt(
        p: [u32; 3],
        unsolved: [u32; 3],
    ) -> (usize, u32) {
        Self::pick_pair_any(p, unsolved)
    }

    /// [`Self::pick_pair`] for any CPU.
    #[inline(always)]
    pub(in crate::core::sudoku) fn pick_pair_any(p: [u32; 3], u: [u32; 3]) -> (usize, u32) {
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
    pub(in crate::core::sudoku) fn pick_cell(&self, pairs: [u32; 3]) -> (usize, u32) {
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

    pub(in crate::core::sudoku) fn solution(&self) -> [u8; CELLS] {
        let mut planes = [[0; 3]; 9];
        planes.as_flattened_mut().copy_from_slice(&self.f[..27]);
        grid_of(&planes)
    }
}
