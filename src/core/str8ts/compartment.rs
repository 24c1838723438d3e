//! Compartments: the maximal runs of white cells in a row or a column, found
//! from the colours alone. Owns the geometry of a Str8ts layout, not its digits.
//!
//! A run lies inside one row or column of nine cells, so it is at most nine
//! long: the "compartment longer than 9" rejection can never fire on a 9x9
//! board and is not checked.

use std::fmt;

use crate::core::grid::{CELLS, Cell};

use super::CELL;

/// Which way a compartment runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Row,
    Column,
}

/// One compartment: its direction and its cells in order (left to right or
/// top to bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Compartment {
    pub direction: Direction,
    cells: [Cell; 9],
    /// 1..=9 once built.
    len: u8,
}

impl Compartment {
    /// The cells, first to last.
    pub fn cells(&self) -> &[Cell] {
        &self.cells[..usize::from(self.len)]
    }

    /// Number of cells, 1..=9: the length of the straight it must hold.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never true for a built compartment; here because `len` is.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn first(&self) -> Cell {
        self.cells[0]
    }

    pub fn last(&self) -> Cell {
        self.cells[usize::from(self.len.clamp(1, 9)) - 1]
    }
}

impl fmt::Display for Compartment {
    /// `row compartment r3c2-r3c5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dir = match self.direction {
            Direction::Row => "row",
            Direction::Column => "column",
        };
        write!(f, "{dir} compartment {}-{}", self.first(), self.last())
    }
}

/// All compartments of a colouring, rows first (top to bottom), then columns
/// (left to right), each in reading order of its first cell.
pub fn compartments(black: &[bool; CELLS]) -> Vec<Compartment> {
    let mut out = Vec::with_capacity(48);
    for direction in [Direction::Row, Direction::Column] {
        for line in 0..9 {
            let mut run = Compartment {
                direction,
                cells: [CELL[0]; 9],
                len: 0,
            };
            for k in 0..9 {
                let i = match direction {
                    Direction::Row => line * 9 + k,
                    Direction::Column => k * 9 + line,
                };
                if black[i] {
                    if run.len > 0 {
                        out.push(run);
                        run.len = 0;
                    }
                } else {
                    run.cells[usize::from(run.len)] = CELL[i];
                    run.len += 1;
                }
            }
            if run.len > 0 {
                out.push(run);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn colours(rows: [&str; 9]) -> [bool; CELLS] {
        let mut b = [false; CELLS];
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.bytes().enumerate() {
                b[r * 9 + c] = ch == b'x';
            }
        }
        b
    }

    #[test]
    fn an_all_white_board_has_nine_rows_and_nine_columns_of_nine() {
        let comps = compartments(&[false; CELLS]);
        assert_eq!(comps.len(), 18);
        assert!(comps.iter().all(|c| c.len() == 9));
        assert_eq!(comps[0].to_string(), "row compartment r1c1-r1c9");
        assert_eq!(comps[9].to_string(), "column compartment r1c1-r9c1");
    }

    #[test]
    fn black_cells_split_runs_and_every_white_cell_is_in_one_row_and_one_column_run() {
        let black = colours([
            "xx...x...",
            ".........",
            "...xx...x",
            "..x......",
            ".xx...xx.",
            "......x..",
            "x...xx...",
            ".........",
            "...x...xx",
        ]);
        let comps = compartments(&black);
        let mut seen = [[0u8; 2]; CELLS];
        for comp in &comps {
            let k = usize::from(comp.direction == Direction::Column);
            for cell in comp.cells().iter() {
                assert!(!black[cell.index()]);
                seen[cell.index()][k] += 1;
            }
        }
        for i in 0..CELLS {
            let want = if black[i] { [0, 0] } else { [1, 1] };
            assert_eq!(seen[i], want, "cell {i}");
        }
        assert_eq!(comps[0].to_string(), "row compartment r1c3-r1c5");
        assert_eq!(comps[1].to_string(), "row compartment r1c7-r1c9");
    }
}
