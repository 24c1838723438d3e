//! Why propagation stopped, in the terms all three puzzle types share:
//! cells, the 27 units of [`crate::core::grid::UNITS`] and a type's own
//! groups (a Killer cage, a Str8ts compartment), by index. Small and
//! `Copy`, so the searches meet thousands of them for nothing.
//!
//! It holds no words: each type's `rules.rs` words its contradictions,
//! with what only it knows (a cage's sum, a compartment's cells).

/// A contradiction met by propagation. Cells are 0..81 in reading order,
/// units 0..27 (rows, columns, boxes), digits 1..=9.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A cell with no candidate left.
    Cell(u8),
    /// A unit with no place left for a digit.
    Unit { unit: u8, digit: u8 },
    /// A digit placed twice in a row or column, in `cell` and `other`.
    Twice { digit: u8, cell: u8, other: u8 },
    /// A group that no filling (a cage's combinations, a compartment's
    /// straights) fits.
    Group(u8),
    /// A group whose every filling needs `digit`, which has no place in
    /// it (`held_at` `None`) or which cell `held_at`, outside it in its
    /// line, already holds.
    Needed {
        group: u8,
        digit: u8,
        held_at: Option<u8>,
    },
}
