//! The 9x9 geometry shared by all three puzzle types: cell indices, rows,
//! columns, boxes and r1c1 names. Pure tables, no puzzle rules.

use std::fmt;

/// Cells per grid.
pub const CELLS: usize = 81;

/// A cell index 0..81 in reading order (`9*row + column`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    pub const fn new(i: usize) -> Option<Cell> {
        if i < CELLS { Some(Cell(i as u8)) } else { None }
    }

    pub const fn from_row_col(row: usize, col: usize) -> Option<Cell> {
        if row < 9 && col < 9 {
            Some(Cell((row * 9 + col) as u8))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn row(self) -> usize {
        self.0 as usize / 9
    }

    pub const fn col(self) -> usize {
        self.0 as usize % 9
    }

    pub const fn box_index(self) -> usize {
        box_of(self.0 as usize)
    }

    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS as u8).map(Cell)
    }
}

impl fmt::Display for Cell {
    /// `r1c1`-style, 1-based: cell 0 is `r1c1`, cell 80 is `r9c9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row() + 1, self.col() + 1)
    }
}

/// The cell of a cell index known to be below 81 (callers index 81-cell
/// parts); saturates rather than panics so an error path never crashes.
pub(crate) fn cell_at(i: usize) -> Cell {
    match Cell::new(i.min(CELLS - 1)) {
        Some(c) => c,
        None => unreachable!("80 is a cell index"),
    }
}

/// The 16 cells sharing a row or a column with each cell, in reading
/// order (Str8ts has no boxes).
pub const LINE_PEERS: [[u8; 16]; CELLS] = {
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

/// Box (0..9, reading order) of a cell index.
pub const fn box_of(i: usize) -> usize {
    (i / 27) * 3 + (i % 9) / 3
}

/// The cells of each row, column and box: units 0..9 rows, 9..18 columns, 18..27 boxes.
pub const UNITS: [[u8; 9]; 27] = {
    let mut u = [[0u8; 9]; 27];
    let mut k = 0;
    while k < 9 {
        let mut j = 0;
        while j < 9 {
            u[k][j] = (k * 9 + j) as u8;
            u[9 + k][j] = (j * 9 + k) as u8;
            u[18 + k][j] = ((k / 3) * 27 + (k % 3) * 3 + (j / 3) * 9 + j % 3) as u8;
            j += 1;
        }
        k += 1;
    }
    u
};

/// The 20 peers of each cell (same row, column or box, not itself).
pub const PEERS: [[u8; 20]; 81] = {
    let mut p = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let mut n = 0;
        let mut o = 0;
        while o < 81 {
            if o != c && (o / 9 == c / 9 || o % 9 == c % 9 || box_of(o) == box_of(c)) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_boxes() {
        let c = Cell::new(40).unwrap();
        assert_eq!((c.row(), c.col(), c.box_index()), (4, 4, 4));
        assert_eq!(c.to_string(), "r5c5");
        assert_eq!(Cell::new(80).unwrap().to_string(), "r9c9");
        assert_eq!(box_of(8), 2);
        assert_eq!(box_of(72), 6);
        assert_eq!(Cell::new(81), None);
    }

    #[test]
    fn units_cover_every_cell_once_per_kind() {
        for kind in 0..3 {
            let mut seen = [0; 81];
            for u in &UNITS[kind * 9..kind * 9 + 9] {
                for &c in u {
                    seen[c as usize] += 1;
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "unit kind {kind}");
        }
        assert_eq!(UNITS[18 + 4][0], 30);
    }

    #[test]
    fn peers_are_twenty_distinct_others() {
        for (c, peers) in PEERS.iter().enumerate() {
            let mut v: Vec<u8> = peers.to_vec();
            v.sort_unstable();
            v.dedup();
            assert_eq!(v.len(), 20);
            assert!(!v.contains(&(c as u8)));
        }
    }
}
