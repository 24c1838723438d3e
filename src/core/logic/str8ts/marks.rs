//! A Str8ts position for the logical solver: colours, black clues, placed
//! digits and each empty white cell's candidates, with the compartments
//! (white runs) of every row and column. Placing a digit clears it from
//! its row and column, black clues included, as the classic `Marks` does
//! in its houses.

use crate::core::grid::{CELLS, LINE_PEERS};
use crate::core::logic::house::{House, Houses};
use crate::core::logic::marks::bit;
use crate::core::logic::{Position, Step};
use crate::core::str8ts::{Direction, Str8ts, compartments, fitting_lows};

/// One compartment: its cells in order and the line it lies in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub cells: Vec<u8>,
    pub direction: Direction,
    /// The row or column, 0..9.
    pub line: u8,
}

impl Run {
    /// Its line: rows 0..9, columns 9..18.
    pub fn line_index(&self) -> usize {
        match self.direction {
            Direction::Row => usize::from(self.line),
            Direction::Column => 9 + usize::from(self.line),
        }
    }
}

impl std::fmt::Display for Run {
    /// `r3c2-r3c5`, or `r3c2` for one cell.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (a, b) = (self.cells[0], self.cells[self.cells.len() - 1]);
        if a == b {
            write!(f, "{}", name(a))
        } else {
            write!(f, "{}-{}", name(a), name(b))
        }
    }
}

/// `r3c5` for a cell index.
pub(crate) fn name(c: u8) -> String {
    crate::core::grid::cell_at(usize::from(c)).to_string()
}

/// A candidate grid with black cells and black clues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Str8tsMarks {
    black: [bool; CELLS],
    /// A placed white digit or a black clue; 0 when empty.
    values: [u8; CELLS],
    /// An empty white cell's candidates; 0 for black and placed cells.
    cands: [u16; CELLS],
    runs: Vec<Run>,
}

impl Str8tsMarks {
    /// The position of a board's givens and colours (its other candidates
    /// are ignored: they are not a step anybody took); `Err` with the
    /// colours alone when two givens clash in a line.
    pub fn from_board(board: &Str8ts) -> Result<Str8tsMarks, Box<Str8tsMarks>> {
        let black = *board.black();
        let mut runs = Vec::new();
        for comp in compartments(&black) {
            let cells: Vec<u8> = comp.cells().iter().map(|c| c.index() as u8).collect();
            let first = usize::from(cells[0]);
            let line = match comp.direction {
                Direction::Row => first / 9,
                Direction::Column => first % 9,
            };
            runs.push(Run {
                cells,
                direction: comp.direction,
                line: line as u8,
            });
        }
        let mut p = Str8tsMarks {
            black,
            values: [0; CELLS],
            cands: black.map(|b| if b { 0 } else { 0x1ff }),
            runs,
        };
        for (c, peers) in LINE_PEERS.iter().enumerate() {
            if !board.given()[c] {
                continue;
            }
            let Some(d) = board.masks()[c].single().map(|d| d.get()) else {
                continue;
            };
            if peers.iter().any(|&o| p.values[usize::from(o)] == d) {
                return Err(Box::new(Str8tsMarks {
                    values: [0; CELLS],
                    cands: black.map(|b| if b { 0 } else { 0x1ff }),
                    ..p
                }));
            }
            p.place(c, d);
        }
        Ok(p)
    }

    pub fn is_black(&self, c: usize) -> bool {
        self.black[c]
    }

    /// The digit in cell `c` (a placed white digit or a black clue), 0 when empty.
    pub fn value(&self, c: usize) -> u8 {
        self.values[c]
    }

    /// The candidates of an empty white cell (none for the others).
    pub fn cands(&self, c: usize) -> u16 {
        self.cands[c]
    }

    /// A white cell's digits as a mask: its candidates, or its placed digit.
    pub fn mask(&self, c: usize) -> u16 {
        match self.values[c] {
            0 => self.cands[c],
            d => bit(d),
        }
    }

    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Places `d` in `c` and clears it from the row and column.
    pub fn place(&mut self, c: usize, d: u8) {
        self.values[c] = d;
        self.cands[c] = 0;
        for &p in &LINE_PEERS[c] {
            self.cands[usize::from(p)] &= !bit(d);
        }
    }

    pub fn eliminate(&mut self, c: usize, d: u8) {
        self.cands[c] &= !bit(d);
    }

    /// The cell masks of a run, in order.
    pub fn masks(&self, run: &Run) -> Vec<u16> {
        run.cells
            .iter()
            .map(|&c| self.mask(usize::from(c)))
            .collect()
    }

    /// The nine cells of row `n` (0..9) or column `9 + n`, black ones
    /// included (they have no candidates).
    pub fn line(n: usize) -> [u8; 9] {
        crate::core::grid::UNITS[n]
    }

    /// The placed white digits, each black clue, 0 for the rest.
    pub fn values(&self) -> &[u8; CELLS] {
        &self.values
    }
}

/// The rows, then the columns.
const LINES: [House; 18] = {
    let mut h = [House::Row(0); 18];
    let mut i = 0;
    while i < 9 {
        h[i] = House::Row(i as u8);
        h[9 + i] = House::Column(i as u8);
        i += 1;
    }
    h
};

impl Houses for Str8tsMarks {
    fn houses(&self) -> &'static [House] {
        &LINES
    }

    fn cands(&self, c: usize) -> u16 {
        self.cands[c]
    }
}

impl Position for Str8tsMarks {
    /// Every white cell holds a digit.
    fn is_solved(&self) -> bool {
        (0..CELLS).all(|c| self.black[c] || self.values[c] != 0)
    }

    /// Whether the position has no solution: an empty white cell with no
    /// candidate, or a compartment that can hold no straight.
    fn is_broken(&self) -> bool {
        (0..CELLS).any(|c| !self.black[c] && self.values[c] == 0 && self.cands[c] == 0)
            || self
                .runs
                .iter()
                .any(|r| fitting_lows(&self.masks(r), 0) == 0)
    }

    fn apply(&mut self, step: &Step) {
        for &(c, d) in &step.eliminate {
            self.eliminate(usize::from(c), d);
        }
        if let Some((c, d)) = step.place {
            self.place(usize::from(c), d);
        }
    }
}

/// `row 3` or `column 5` for line `n` (0..18).
pub(crate) fn line_name(n: usize) -> String {
    if n < 9 {
        format!("row {}", n + 1)
    } else {
        format!("column {}", n - 8)
    }
}
