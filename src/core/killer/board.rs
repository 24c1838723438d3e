//! The Killer puzzle: its cages, and what it says cell by cell (colours,
//! where each sum was written, candidates), kept so that it writes back the
//! same. Its identity and its two encodings are written here; reading and
//! checking a string is `validate`, propagation and the count `propagate`.

use crate::core::grid::cell_at;
use crate::core::grid::{CELLS, Cell};
use crate::core::mask::{Digit, Mask};

use super::{cages, format};

/// The most colours a Killer string can draw with.
pub const COLOURS: u8 = 5;

/// One cage: its cells in reading order and its sum. A cage has at most
/// nine cells (a larger region is rejected), kept in place, not on the heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The first `len` are the cage's cells; the rest repeat its first
    /// cell. Read them through [`Cage::cells`].
    slots: [Cell; 9],
    pub(super) len: u8,
    pub(super) sum: u8,
}

impl Cage {
    /// A cage of the given cells (1 to 9, reading order) and sum.
    pub(super) fn new(region: &[u8], sum: u8) -> Cage {
        let first = cell_at(region.first().map_or(0, |&c| usize::from(c)));
        let mut slots = [first; 9];
        for (slot, &c) in slots.iter_mut().zip(region) {
            *slot = cell_at(usize::from(c));
        }
        Cage {
            slots,
            len: region.len().min(9) as u8,
            sum,
        }
    }

    /// The cage's first cell in reading order, which names it.
    pub fn first(&self) -> Cell {
        self.slots[0]
    }

    pub fn cells(&self) -> &[Cell] {
        &self.slots[..usize::from(self.len)]
    }

    pub fn sum(&self) -> u8 {
        self.sum
    }
}

/// A validated Killer puzzle, keeping what its string said cell by cell
/// (colours, where each sum was written, candidates) so it writes back the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Killer {
    pub(super) colour: [u8; CELLS],
    pub(super) clue: [u8; CELLS],
    pub(super) cells: [Mask; CELLS],
    pub(super) cage_of: [u8; CELLS],
    pub(super) cages: Vec<Cage>,
    pub(super) adjacency: Vec<u128>,
}

impl Killer {
    /// The cages, numbered in reading order of their first cell.
    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    /// The index into [`Killer::cages`] of the cage holding `cell`.
    pub fn cage_of(&self, cell: Cell) -> usize {
        usize::from(self.cage_of[cell.index()])
    }

    /// The digits placed in the string (packed cells with one candidate).
    pub fn placed(&self) -> [Option<Digit>; CELLS] {
        self.cells.map(Mask::single)
    }

    /// Cages plus placed digits: the archive's clue count.
    pub fn clues(&self) -> u32 {
        let placed = self.cells.iter().filter(|m| m.single().is_some()).count();
        (self.cages.len() + placed) as u32
    }

    /// The canonical colour of each cage (greedy in cage order, see [`Killer::identity`]).
    pub fn canonical_colours(&self) -> Vec<u8> {
        cages::greedy_colours(&self.adjacency)
    }

    /// The puzzle's identity, independent of the colours it was drawn with:
    /// `<81 layout chars>,<162 sum digits>` and, only when digits are placed,
    /// `,<81 digits, 0 elsewhere>`. Layout: cages in order of their first cell
    /// each take the smallest colour 1, 2, ... not used by an already coloured
    /// touching cage (colours above 9 go on as `a`, `b`, ...). Sums: two
    /// decimal digits per cell, at each cage's first cell, `00` elsewhere.
    pub fn identity(&self) -> String {
        self.identity_in(&self.canonical_colours())
    }

    /// [`Killer::identity`] with the canonical colours already known.
    pub(super) fn identity_in(&self, colours: &[u8]) -> String {
        const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
        let mut out = Vec::with_capacity(326);
        out.extend(self.cage_of.iter().map(|&k| {
            let c = colours.get(usize::from(k)).copied().unwrap_or(u8::MAX);
            DIGITS.get(usize::from(c)).copied().unwrap_or(b'?')
        }));
        out.push(b',');
        for sum in self.first_clues() {
            out.extend([b'0' + sum / 10, b'0' + sum % 10]);
        }
        if self.places_digits() {
            out.push(b',');
            out.extend(
                self.cells
                    .iter()
                    .map(|m| m.single().map_or(b'0', |d| d.to_ascii())),
            );
        }
        // Every byte written is ASCII.
        String::from_utf8(out).unwrap_or_default()
    }

    /// The legacy string: colours and sums where they were read. Legacy
    /// strings cannot carry digits, so placed digits and candidates are dropped.
    pub fn to_legacy(&self) -> String {
        format::write_legacy(&self.colour, &self.clue)
    }

    /// The packed string: colours, sums where they were read, candidates as read.
    pub fn to_packed(&self) -> String {
        format::write_packed(&self.colour, &self.clue, &self.cells)
    }

    /// The packed string of `candidates` drawn canonically: the canonical
    /// colours when they fit in five (else the colours read), each sum at its
    /// cage's first cell.
    pub fn encode(&self, candidates: &[Mask; CELLS]) -> String {
        self.encode_in(&self.canonical_colours(), candidates)
    }

    /// [`Killer::encode`] with the canonical colours already known.
    pub(super) fn encode_in(&self, canonical: &[u8], candidates: &[Mask; CELLS]) -> String {
        let colour = if canonical.iter().all(|&c| c <= COLOURS) {
            self.cage_of
                .map(|k| canonical.get(usize::from(k)).copied().unwrap_or(0))
        } else {
            self.colour
        };
        format::write_packed(&colour, &self.first_clues(), candidates)
    }

    /// Each cage's sum at its first cell, 0 elsewhere: where the canonical
    /// forms write sums, wherever the string had them.
    pub(super) fn first_clues(&self) -> [u8; CELLS] {
        let mut clue = [0u8; CELLS];
        for cage in &self.cages {
            clue[cage.first().index()] = cage.sum;
        }
        clue
    }

    /// Whether the string placed any digit.
    pub(super) fn places_digits(&self) -> bool {
        self.cells.iter().any(|m| m.single().is_some())
    }
}
