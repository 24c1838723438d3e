//! Houses: the rows, columns and boxes a digit appears in once each, with
//! the names a person reads (`row 1`, `column 4`, `box 2`) and SE's order
//! of them (boxes, then columns, then rows); and [`Houses`], what the
//! techniques every type shares read of a position.

use std::fmt;

use crate::core::grid::UNITS;

/// A kind of house, as its constructor (`House::Row`): the house of a number.
pub type HouseKind = fn(u8) -> House;

/// A row, column or box, each numbered 0..9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum House {
    Row(u8),
    Column(u8),
    Box(u8),
}

impl House {
    /// The 27 houses in the order Sudoku Explainer scans them for singles
    /// and subsets: boxes, columns, rows.
    pub const SE_ORDER: [House; 27] = {
        let mut h = [House::Row(0); 27];
        let mut i = 0;
        while i < 9 {
            h[i] = House::Box(i as u8);
            h[9 + i] = House::Column(i as u8);
            h[18 + i] = House::Row(i as u8);
            i += 1;
        }
        h
    };

    /// The nine cell indices, in reading order (a box row by row).
    pub const fn cells(self) -> &'static [u8; 9] {
        match self {
            House::Row(n) => &UNITS[n as usize],
            House::Column(n) => &UNITS[9 + n as usize],
            House::Box(n) => &UNITS[18 + n as usize],
        }
    }

    /// Whether the house holds cell index `c`.
    pub const fn contains(self, c: usize) -> bool {
        match self {
            House::Row(n) => c / 9 == n as usize,
            House::Column(n) => c % 9 == n as usize,
            House::Box(n) => crate::core::grid::box_of(c) == n as usize,
        }
    }

    pub const fn is_box(self) -> bool {
        matches!(self, House::Box(_))
    }
}

/// What a technique shared by the puzzle types (singles, naked subsets)
/// reads of a position: its houses and each empty cell's candidates.
pub trait Houses {
    /// The houses in the order the shared techniques scan them.
    fn houses(&self) -> &'static [House];
    /// An empty cell's candidates; none for a placed cell (or a cell no
    /// digit goes in, as a black Str8ts cell).
    fn cands(&self, c: usize) -> u16;
    /// How many cells of `h` are still open.
    fn empty_count(&self, h: House) -> u32 {
        h.cells()
            .iter()
            .filter(|&&c| self.cands(c as usize) != 0)
            .count() as u32
    }
}

impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            House::Row(n) => write!(f, "row {}", n + 1),
            House::Column(n) => write!(f, "column {}", n + 1),
            House::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}
