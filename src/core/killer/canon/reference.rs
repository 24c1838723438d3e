//! The Killer canonical form as first written: the definition the fast
//! search in the parent module must match byte for byte, since forms are
//! stored in users' archives and compared across versions. The equivalence
//! tests and the canon bench run both; it is built only for tests and with
//! the `bench-reference` feature, never into the binary.
//!
//! Kept simple on purpose: do not optimise it.

use std::cmp::Ordering;

use crate::core::grid::cell_at;
use crate::core::vocabulary::CanonError;

/// Colour characters in the order the recolouring hands them out.
const COLOURS: &[u8; 35] = b"123456789abcdefghijklmnopqrstuvwxyz";

/// The canonical form of a Killer Sudoku in the legacy string form.
///
/// `givens` is `<81 layout chars>,<162 sum digits>` optionally followed by
/// `,<81 placed digits>`: layout chars `1`-`9` then `a`-`z`, a cage being a
/// maximal 4-connected region of one char; each cage's sum (two decimal
/// digits, `00` for none) at its first cell in reading order, `00` elsewhere.
///
/// Every box-preserving position map (transposition, band and row-in-band,
/// stack and column-in-stack permutations) under which every cage stays
/// 4-connected is applied; the result is rewritten with each sum at its
/// cage's new first cell and the cages recoloured greedily (cages in order of
/// first cell, each taking the first colour of `1`-`9`, `a`-`z` no already
/// coloured neighbour has). The answer is the least such string in plain
/// byte order, compared whole. Digits are never relabelled: sums would change.
pub fn killer(givens: &str) -> Result<String, CanonError> {
    let puzzle = Puzzle::parse(givens)?;
    let views = [puzzle.clone(), puzzle.transposed()];
    let mut best: Vec<u8> = Vec::new();
    let mut cand = Vec::with_capacity(givens.len());
    let mut crowded = None;
    // The transposed view's rows are the original columns and vice versa.
    let row_orders = line_orders(&puzzle.row_masks(), &puzzle.lines(|l, k| l * 9 + k));
    let col_orders = line_orders(&puzzle.col_masks(), &puzzle.lines(|l, k| k * 9 + l));
    for (view, rows, cols) in [
        (&views[0], &row_orders, &col_orders),
        (&views[1], &col_orders, &row_orders),
    ] {
        for r in rows {
            for c in cols {
                cand.clear();
                match view.write(r, c, &best, &mut cand) {
                    Written::Greater => {}
                    Written::TooManyColours(cell) => {
                        crowded.get_or_insert(cell);
                    }
                    // Connectivity last: it is the dearer test and most
                    // candidates lose on their first row.
                    Written::Done => {
                        if (best.is_empty() || cand < best) && view.keeps_cages(r, c) {
                            std::mem::swap(&mut best, &mut cand);
                        }
                    }
                }
            }
        }
    }
    // Only a puzzle no map can recolour in 35 colours is left without a form.
    if best.is_empty() {
        return Err(CanonError::Colours {
            cell: cell_at(crowded.unwrap_or(0)),
        });
    }
    Ok(best.into_iter().map(char::from).collect())
}

/// A parsed puzzle, cages numbered in order of first cell.
#[derive(Clone)]
struct Puzzle {
    cage_of: [u8; 81],
    cages: usize,
    /// Sum per cage (0 = no clue).
    sums: Vec<u8>,
    digits: Option<[u8; 81]>,
}

impl Puzzle {
    /// The parent module's reading of the string: the search is what this
    /// module defines, not the parsing, so both read the same way.
    fn parse(givens: &str) -> Result<Puzzle, CanonError> {
        let read = super::Puzzle::parse(givens)?;
        Ok(Puzzle {
            cage_of: read.cage_of,
            cages: read.cages,
            sums: read.sums[..read.cages].to_vec(),
            digits: read.digits,
        })
    }

    fn transposed(&self) -> Puzzle {
        let t = |i: usize| (i % 9) * 9 + i / 9;
        Puzzle {
            cage_of: std::array::from_fn(|i| self.cage_of[t(i)]),
            cages: self.cages,
            sums: self.sums.clone(),
            digits: self.digits.map(|d| std::array::from_fn(|i| d[t(i)])),
        }
    }

    /// The rows each cage occupies, one 9-bit mask per cage.
    fn row_masks(&self) -> Vec<u16> {
        self.line_masks(|cell| cell / 9)
    }

    fn col_masks(&self) -> Vec<u16> {
        self.line_masks(|cell| cell % 9)
    }

    fn line_masks(&self, line: impl Fn(usize) -> usize) -> Vec<u16> {
        let mut masks = vec![0u16; self.cages];
        for (cell, &cage) in self.cage_of.iter().enumerate() {
            masks[usize::from(cage)] |= 1 << line(cell);
        }
        masks
    }

    /// What each row (or column) shows: cage and digit per cell. Two orders
    /// that show the same lines in the same order give the same picture.
    fn lines(&self, cell: impl Fn(usize, usize) -> usize) -> [[u16; 9]; 9] {
        std::array::from_fn(|l| {
            std::array::from_fn(|k| {
                let i = cell(l, k);
                u16::from(self.cage_of[i]) << 4 | u16::from(self.digits.map_or(0, |d| d[i]))
            })
        })
    }

    /// Whether every cage is still 4-connected when output cell (i, j) shows
    /// source cell (rows[i], cols[j]).
    fn keeps_cages(&self, rows: &[u8; 9], cols: &[u8; 9]) -> bool {
        regions(&self.image(rows, cols)) == self.cages
    }

    fn image(&self, rows: &[u8; 9], cols: &[u8; 9]) -> [u8; 81] {
        std::array::from_fn(|i| {
            self.cage_of[usize::from(rows[i / 9]) * 9 + usize::from(cols[i % 9])]
        })
    }

    /// Append the legacy string of the mapped puzzle: greedy colours, sums at
    /// each cage's new first cell, digits moved along.
    fn write(&self, rows: &[u8; 9], cols: &[u8; 9], bound: &[u8], out: &mut Vec<u8>) -> Written {
        let img = self.image(rows, cols);
        // Neighbouring cages, as bit sets over cage numbers (at most 81).
        let mut neighbours = [0u128; 81];
        for cell in 0..81 {
            let mut link = |other: usize| {
                let (a, b) = (usize::from(img[cell]), usize::from(img[other]));
                if a != b {
                    neighbours[a] |= 1 << b;
                    neighbours[b] |= 1 << a;
                }
            };
            if cell % 9 < 8 {
                link(cell + 1);
            }
            if cell < 72 {
                link(cell + 9);
            }
        }
        let mut colour = [u8::MAX; 81];
        let mut coloured = 0u128;
        let mut sums_part = [b'0'; 162];
        // While the layout so far equals the bound, a greater char loses.
        let mut tied = !bound.is_empty();
        for (cell, &cage) in img.iter().enumerate() {
            let cage = usize::from(cage);
            if colour[cage] == u8::MAX {
                let mut taken = 0u64;
                let mut near = neighbours[cage] & coloured;
                while near != 0 {
                    let n = near.trailing_zeros() as usize;
                    taken |= 1 << colour[n];
                    near &= near - 1;
                }
                let c = taken.trailing_ones() as usize;
                if c >= COLOURS.len() {
                    return Written::TooManyColours(cell);
                }
                colour[cage] = c as u8;
                coloured |= 1 << cage;
                let s = self.sums[cage];
                sums_part[2 * cell] = b'0' + s / 10;
                sums_part[2 * cell + 1] = b'0' + s % 10;
            }
            let ch = COLOURS[usize::from(colour[cage])];
            if tied {
                match ch.cmp(&bound[cell]) {
                    Ordering::Greater => return Written::Greater,
                    Ordering::Less => tied = false,
                    Ordering::Equal => {}
                }
            }
            out.push(ch);
        }
        out.push(b',');
        out.extend_from_slice(&sums_part);
        if let Some(d) = &self.digits {
            out.push(b',');
            for i in 0..81 {
                out.push(b'0' + d[usize::from(rows[i / 9]) * 9 + usize::from(cols[i % 9])]);
            }
        }
        Written::Done
    }
}

/// How writing one mapped puzzle ended.
enum Written {
    Done,
    /// Its layout already sorts after the bound: not written out.
    Greater,
    /// The recolouring needs a 36th colour at this cell: not representable.
    TooManyColours(usize),
}

/// The box-preserving line orders (band order, then order within each band)
/// under which every cage's set of lines stays contiguous: the necessary
/// condition for the cage to stay connected. Lines are rows or columns.
/// Orders that lay out lines with the same content in the same sequence give
/// the same picture, so only one of each is kept: this is what keeps puzzles
/// whose cages never cross a line boundary from trying all 1296 orders.
fn line_orders(masks: &[u16], content: &[[u16; 9]; 9]) -> Vec<[u8; 9]> {
    let mut spans: Vec<u16> = masks
        .iter()
        .copied()
        .filter(|m| m.count_ones() > 1)
        .collect();
    spans.sort_unstable();
    spans.dedup();
    let mut orders = Vec::new();
    extend_order(&spans, &mut [0; 9], 0, 0, &mut orders);
    let picture = |o: &[u8; 9]| o.map(|line| content[usize::from(line)]);
    orders.sort_unstable_by_key(picture);
    orders.dedup_by_key(|o| picture(o));
    orders
}

/// Lay out lines from position `k` on, `used` the lines placed so far. A
/// span (a cage's set of lines) once entered must be finished before any
/// other line comes, which is contiguity checked one line at a time.
fn extend_order(spans: &[u16], order: &mut [u8; 9], k: usize, used: u16, out: &mut Vec<[u8; 9]>) {
    if k == 9 {
        out.push(*order);
        return;
    }
    let candidates = if k.is_multiple_of(3) {
        // Any line of a band not yet entered.
        (0..3)
            .filter(|b| used & (0b111 << (3 * b)) == 0)
            .fold(0u16, |m, b| m | 0b111 << (3 * b))
    } else {
        let band = usize::from(order[k - 1] / 3);
        0b111 << (3 * band) & !used
    };
    for line in 0..9u8 {
        let bit = 1u16 << line;
        if candidates & bit == 0 {
            continue;
        }
        let open_elsewhere = spans
            .iter()
            .any(|&s| s & used != 0 && s & !used != 0 && s & bit == 0);
        if !open_elsewhere {
            order[k] = line;
            extend_order(spans, order, k + 1, used | bit, out);
        }
    }
}

/// How many 4-connected regions of equal values a picture of the grid has.
pub(super) fn regions(img: &[u8; 81]) -> usize {
    let mut parent: [u8; 81] = std::array::from_fn(|i| i as u8);
    fn root(parent: &mut [u8; 81], mut x: usize) -> usize {
        while usize::from(parent[x]) != x {
            parent[x] = parent[usize::from(parent[x])];
            x = usize::from(parent[x]);
        }
        x
    }
    let mut components = 81;
    for cell in 0..81 {
        let mut join = |other: usize, parent: &mut [u8; 81]| {
            if img[other] == img[cell] {
                let (a, b) = (root(parent, cell), root(parent, other));
                if a != b {
                    parent[a] = b as u8;
                    components -= 1;
                }
            }
        };
        if cell % 9 < 8 {
            join(cell + 1, &mut parent);
        }
        if cell < 72 {
            join(cell + 9, &mut parent);
        }
    }
    components
}
