//! Killer Sudoku: its two string forms, cages and their validation, the
//! puzzle's identity, propagation, solution counting and the [`Analysis`]
//! the archive stores.
//!
//! A puzzle is its cages (4-connected regions of one colour, one sum each)
//! plus any placed digits; colours carry no meaning, so the identity
//! ([`Killer::identity`]) recolours canonically. Pure: strings and arrays in,
//! values out; no I/O. Submodules: `format` (characters), `cages` (geometry,
//! combinations, colouring), `solve` (propagation and search), `version_b`
//! (the `L9B` string).

pub(crate) mod cages;
mod format;
mod solve;
pub mod version_b;

use std::fmt;

use crate::core::grid::{CELLS, Cell, UNITS};
use crate::core::mask::{Digit, Mask};
use crate::core::puzzle::KILLER_SEARCH_LIMIT;
use crate::core::puzzle::{Analysis, PuzzleType, Status};

pub use cages::{MAX_SUM, combinations, sum_range};

use solve::{Board, Conflict, Solver};

/// The most colours a Killer string can draw with.
pub const COLOURS: u8 = 5;

/// Which reader or builder met a problem: the first words of its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `81 colours,162 decimal sums`.
    Legacy,
    /// `162,162` base-32.
    Packed,
    /// Cage ids and sums ([`Killer::from_cages`]).
    Cages,
    /// `L9B`, four base-36 characters per cell (`version_b`).
    VersionB,
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Form::Legacy => "killer legacy",
            Form::Packed => "killer packed",
            Form::Cages => "killer cages",
            Form::VersionB => "killer version b",
        })
    }
}

/// Why a Killer string (or cage list) was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("{}", length_message(*.first, *.second))]
    Length { first: usize, second: Option<usize> },
    #[error("{form}: character {pos} (cell {}, {cell}) is {found:?}, expected {expected}", cell.index())]
    Character {
        form: Form,
        pos: usize,
        cell: Cell,
        found: char,
        expected: &'static str,
    },
    #[error("{form}: cell {} ({cell}) has colour {found:?}, expected {expected}", cell.index())]
    Colour {
        form: Form,
        cell: Cell,
        found: String,
        expected: &'static str,
    },
    #[error("{form}: cell {} ({cell}) has sum {found} ({text:?}), at most 45", cell.index())]
    Sum {
        form: Form,
        cell: Cell,
        found: u16,
        text: String,
    },
    #[error("killer packed: cell {} ({cell}) has candidates {found} ({text:?}), expected an even value (mask << 1)", cell.index())]
    Mask {
        cell: Cell,
        found: u16,
        text: String,
    },
    #[error("{form}: cage at {first} ({size} cells) has no sum")]
    NoSum {
        form: Form,
        first: Cell,
        size: usize,
    },
    #[error("{form}: cage at {first} has {count} sums ({a} at {at_a}, {b} at {at_b}), expected one", a = .sums.0, at_a = .sums.1, b = .sums.2, at_b = .sums.3)]
    Sums {
        form: Form,
        first: Cell,
        count: usize,
        sums: (u8, Cell, u8, Cell),
    },
    #[error("{form}: cage at {first} has {size} cells, at most 9")]
    CageSize {
        form: Form,
        first: Cell,
        size: usize,
    },
    #[error("{form}: cage at {first} has {size} cells and sum {sum}, but {size} distinct digits make {min} to {max}", min = sum_range(*.size).0, max = sum_range(*.size).1)]
    CageRange {
        form: Form,
        first: Cell,
        size: usize,
        sum: u8,
    },
    #[error("{form}: cage sums total {total}, expected 405")]
    Total { form: Form, total: u32 },
    #[error("{form}: digit {digit} at {cell} repeats the one at {other} in {place}")]
    Duplicate {
        form: Form,
        digit: Digit,
        cell: Cell,
        other: Cell,
        place: String,
    },
    #[error("killer cages: cell {} ({cell}) has cage id {id}, expected below {count} (one id per sum)", cell.index())]
    CageId { cell: Cell, id: u8, count: usize },
    #[error("killer cages: cage id {id} has no cell")]
    UnusedId { id: u8 },
    #[error("killer cages: cage id {id} is split: {at} is not connected to {first}")]
    Split { id: u8, first: Cell, at: Cell },
    #[error("killer cages: cannot colour {count} cages with 5 colours")]
    Colouring { count: usize },
}

fn length_message(first: usize, second: Option<usize>) -> String {
    match second {
        None => format!(
            "killer: {first} characters and no comma, expected 81,162 (legacy) or 162,162 (packed)"
        ),
        Some(b) => {
            format!("killer: {first},{b} characters, expected 81,162 (legacy) or 162,162 (packed)")
        }
    }
}

impl Error {
    /// A short stable code for the archive's `rejects.reason` column.
    pub fn code(&self) -> &'static str {
        match self {
            Error::Length { .. } => "length",
            Error::Character { .. } => "character",
            Error::Colour { .. } | Error::Colouring { .. } => "colour",
            Error::Sum { .. } => "sum",
            Error::Mask { .. } => "mask",
            Error::NoSum { .. } | Error::Sums { .. } => "cage-sum",
            Error::CageSize { .. } => "cage-size",
            Error::CageRange { .. } => "cage-range",
            Error::Total { .. } => "total",
            Error::Duplicate { .. } => "duplicate",
            Error::CageId { .. } | Error::UnusedId { .. } | Error::Split { .. } => "cage-id",
        }
    }
}

/// One cage: its cells in reading order and its sum. A cage has at most
/// nine cells (a larger region is rejected), kept in place, not on the heap.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cage {
    /// The first `len` are the cage's cells; the rest repeat its first
    /// cell. Read them through [`Cage::cells`].
    slots: [Cell; 9],
    len: u8,
    sum: u8,
}

impl Cage {
    /// A cage of the given cells (1 to 9, reading order) and sum.
    fn new(region: &[u8], sum: u8) -> Cage {
        let first = cell(region.first().map_or(0, |&c| usize::from(c)));
        let mut slots = [first; 9];
        for (slot, &c) in slots.iter_mut().zip(region) {
            *slot = cell(usize::from(c));
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
    colour: [u8; CELLS],
    clue: [u8; CELLS],
    cells: [Mask; CELLS],
    cage_of: [u8; CELLS],
    cages: Vec<Cage>,
    adjacency: Vec<u128>,
}

/// The board after propagation: candidates of every cell (one bit = placed)
/// and the contradiction, if one was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Propagated {
    pub candidates: [Mask; CELLS],
    pub contradiction: Option<String>,
}

impl Killer {
    /// Parses and validates a bare (URL-free) Killer string of either form.
    pub fn parse(s: &str) -> Result<Killer, Error> {
        let f = format::read(s)?;
        Killer::build(f.form, f.colour, f.clue, f.cells)
    }

    /// Builds a puzzle from cage ids (`cage_of[cell]`, ids `0..sums.len()`,
    /// each id one connected cage) and each id's sum, with no placed digits.
    /// Cages are coloured with at most five colours so touching cages differ
    /// (never merging two into one region); each sum sits at its first cell.
    pub fn from_cages(cage_of: &[u8; CELLS], sums: &[u8]) -> Result<Killer, Error> {
        let form = Form::Cages;
        for (i, &id) in cage_of.iter().enumerate() {
            if usize::from(id) >= sums.len() {
                return Err(Error::CageId {
                    cell: cell(i),
                    id,
                    count: sums.len(),
                });
            }
        }
        let regions = cages::Regions::new(cage_of);
        let mut seen = vec![None; sums.len()];
        for cells in regions.iter() {
            let first = usize::from(cells[0]);
            let id = cage_of[first];
            if let Some(other) = seen[usize::from(id)] {
                return Err(Error::Split {
                    id,
                    first: cell(other),
                    at: cell(first),
                });
            }
            seen[usize::from(id)] = Some(first);
        }
        if let Some(id) = seen.iter().position(Option::is_none) {
            return Err(Error::UnusedId { id: id as u8 });
        }
        let adjacency = cages::adjacency(&regions.of, regions.count());
        let colours = cages::bounded_colours(&adjacency, COLOURS).ok_or(Error::Colouring {
            count: regions.count(),
        })?;
        let mut colour = [0u8; CELLS];
        let mut clue = [0u8; CELLS];
        for (k, cells) in regions.iter().enumerate() {
            for &c in cells {
                colour[usize::from(c)] = colours[k];
            }
            let first = usize::from(cells[0]);
            let sum = sums[usize::from(cage_of[first])];
            if sum > MAX_SUM {
                return Err(Error::Sum {
                    form,
                    cell: cell(first),
                    found: sum.into(),
                    text: sum.to_string(),
                });
            }
            clue[first] = sum;
        }
        Killer::build(form, colour, clue, [Mask::EMPTY; CELLS])
    }

    /// [`Killer::build`] for the other string readers of this crate.
    pub(crate) fn from_parts(
        form: Form,
        colour: [u8; CELLS],
        clue: [u8; CELLS],
        cells: [Mask; CELLS],
    ) -> Result<Killer, Error> {
        Killer::build(form, colour, clue, cells)
    }

    /// Finds the cages of a decoded board and checks every rule across cells.
    fn build(
        form: Form,
        colour: [u8; CELLS],
        clue: [u8; CELLS],
        cells: [Mask; CELLS],
    ) -> Result<Killer, Error> {
        let regions = cages::Regions::new(&colour);
        let cage_of = regions.of;
        let mut list = Vec::with_capacity(regions.count());
        let mut total = 0u32;
        for region in regions.iter() {
            let first = cell(usize::from(region[0]));
            let size = region.len();
            let mut sums = region
                .iter()
                .map(|&c| (clue[usize::from(c)], cell(usize::from(c))))
                .filter(|s| s.0 != 0);
            let sum = match (sums.next(), sums.next()) {
                (None, _) => return Err(Error::NoSum { form, first, size }),
                (Some(a), Some(b)) => {
                    let count = 2 + sums.count();
                    return Err(Error::Sums {
                        form,
                        first,
                        count,
                        sums: (a.0, a.1, b.0, b.1),
                    });
                }
                (Some((sum, _)), None) => sum,
            };
            if size > 9 {
                return Err(Error::CageSize { form, first, size });
            }
            if combinations(size, sum).is_empty() {
                return Err(Error::CageRange {
                    form,
                    first,
                    size,
                    sum,
                });
            }
            total += u32::from(sum);
            list.push(Cage::new(region, sum));
        }
        if total != 405 {
            return Err(Error::Total { form, total });
        }
        let adjacency = cages::adjacency(&cage_of, list.len());
        let killer = Killer {
            colour,
            clue,
            cells,
            cage_of,
            cages: list,
            adjacency,
        };
        killer.check_placed(form)?;
        Ok(killer)
    }

    /// Placed digits may not repeat in a row, column, box or cage. The
    /// place is named only for the error: every Killer line passes here.
    fn check_placed(&self, form: Form) -> Result<(), Error> {
        // Most lines place nothing (every legacy one): nothing can repeat.
        if !self.places_digits() {
            return Ok(());
        }
        let duplicate =
            |(digit, c, other): (Digit, usize, usize), place: String| Error::Duplicate {
                form,
                digit,
                cell: cell(c),
                other: cell(other),
                place,
            };
        for (u, unit) in UNITS.iter().enumerate() {
            if let Some(repeat) = self.repeat(unit.iter().map(|&c| usize::from(c))) {
                let place = match u {
                    0..9 => format!("row {}", u + 1),
                    9..18 => format!("column {}", u - 8),
                    _ => format!("box {}", u - 17),
                };
                return Err(duplicate(repeat, place));
            }
        }
        for cage in &self.cages {
            if let Some(repeat) = self.repeat(cage.cells().iter().map(|c| c.index())) {
                return Err(duplicate(repeat, format!("cage at {}", cage.first())));
            }
        }
        Ok(())
    }

    /// The first placed digit of `cells` that an earlier one already holds:
    /// the digit, its cell, and the earlier cell.
    fn repeat(&self, cells: impl Iterator<Item = usize>) -> Option<(Digit, usize, usize)> {
        let mut seen: [Option<usize>; 9] = [None; 9];
        for c in cells {
            let Some(digit) = self.cells[c].single() else {
                continue;
            };
            let slot = &mut seen[usize::from(digit.get() - 1)];
            if let Some(other) = *slot {
                return Some((digit, c, other));
            }
            *slot = Some(c);
        }
        None
    }

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
    fn identity_in(&self, colours: &[u8]) -> String {
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
    fn encode_in(&self, canonical: &[u8], candidates: &[Mask; CELLS]) -> String {
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
    fn first_clues(&self) -> [u8; CELLS] {
        let mut clue = [0u8; CELLS];
        for cage in &self.cages {
            clue[cage.first().index()] = cage.sum;
        }
        clue
    }

    /// Whether the string placed any digit.
    fn places_digits(&self) -> bool {
        self.cells.iter().any(|m| m.single().is_some())
    }

    fn solver(&self) -> Solver {
        let lines: Vec<(CageCells, u8)> = self
            .cages
            .iter()
            .map(|cage| {
                let mut cells = CageCells([0; 9], cage.len);
                for (slot, c) in cells.0.iter_mut().zip(cage.cells()) {
                    *slot = c.index() as u8;
                }
                (cells, cage.sum)
            })
            .collect();
        Solver::new(&lines)
    }

    /// The starting board: what the string said, all nine where it said nothing.
    fn board(&self) -> Board {
        Board::new(self.cells.map(|m| {
            if m.is_empty() {
                Mask::ALL.bits()
            } else {
                m.bits()
            }
        }))
    }

    /// Propagates to a fixpoint (docs/formats.md "Propagation", cages as lines).
    pub fn propagate(&self) -> Propagated {
        let solver = self.solver();
        let mut board = self.board();
        let result = solver.propagate(&mut board);
        Propagated {
            candidates: masks(board.cand()),
            contradiction: result.err().map(|c| self.describe(&solver, c)),
        }
    }

    /// Propagates, then counts solutions up to two.
    pub fn solve(&self) -> Status {
        self.propagate_and_solve().1
    }

    /// The board to store and the status. A contradiction stops propagation
    /// part way, at a board that is no fixpoint (analysing it again narrows
    /// further) and may hold a cell with no candidate, which the packed form
    /// cannot tell from "nothing written". So, as for Sudoku and Str8ts, a
    /// contradiction keeps the board as read: its encoding reads back and
    /// re-analyses to itself.
    fn propagate_and_solve(&self) -> (Board, Status) {
        let mut solver = self.solver();
        let mut board = self.board();
        if let Err(conflict) = solver.propagate(&mut board) {
            return (
                self.board(),
                Status::Contradiction(self.describe(&solver, conflict)),
            );
        }
        if board.cand().iter().any(|m| m & m.wrapping_sub(1) != 0) {
            solver.add_unit_sums();
        }
        let count = solver.count(&board);
        let status = match count.found {
            0 | 1 if count.nodes > KILLER_SEARCH_LIMIT => Status::GaveUp,
            0 => Status::Unsolvable,
            1 => Status::Unique(count.solution.iter().map(|&m| digit_char(m)).collect()),
            _ => Status::Multiple,
        };
        (board, status)
    }

    /// Everything the archive stores about this puzzle. `encoding` is the
    /// packed string of `candidates`: the propagated board, or the board as
    /// read when propagation contradicts itself.
    pub fn analysis(&self) -> Analysis {
        let (board, status) = self.propagate_and_solve();
        let candidates = masks(board.cand());
        let mut shading = [0u8; CELLS];
        for (s, &k) in shading.iter_mut().zip(&self.cage_of) {
            *s = k + 1;
        }
        let colours = self.canonical_colours();
        Analysis {
            kind: PuzzleType::Killer,
            clues: self.clues(),
            givens: self.identity_in(&colours),
            encoding: self.encode_in(&colours, &candidates),
            status,
            candidates,
            given: self.cells.map(|m| m.single().is_some()),
            shading,
        }
    }

    fn describe(&self, solver: &Solver, conflict: Conflict) -> String {
        let digit = |d: u32| d + 1;
        let cage = |k: usize| {
            let first = solver.cage_cells(k).first().map_or(0, |&c| usize::from(c));
            let sum = self.cages.get(k).map_or(0, |c| c.sum);
            format!(
                "cage at {} (sum {sum}, {} cells)",
                cell(first),
                solver.cage_cells(k).len()
            )
        };
        match conflict {
            Conflict::Cell(c) => format!("killer: {} has no candidate left", cell(c)),
            Conflict::Unit(u, d) => {
                let unit = match u {
                    0..9 => format!("row {}", u + 1),
                    9..18 => format!("column {}", u - 8),
                    _ => format!("box {}", u - 17),
                };
                format!("killer: {unit} has no place for {}", digit(d))
            }
            Conflict::Cage(k) => format!("killer: {} has no combination that fits", cage(k)),
            Conflict::CageDigit(k, d) => format!(
                "killer: {} has no place for {}, which every combination needs",
                cage(k),
                digit(d)
            ),
        }
    }
}

/// A cage's cell indexes as the solver takes them, without an allocation.
struct CageCells([u8; 9], u8);

impl AsRef<[u8]> for CageCells {
    fn as_ref(&self) -> &[u8] {
        &self.0[..usize::from(self.1).min(9)]
    }
}

/// The cell of an index known to be below 81.
fn cell(i: usize) -> Cell {
    Cell::new(i % CELLS).unwrap_or_else(|| unreachable!("cell index below 81"))
}

fn masks(cand: &[u16; CELLS]) -> [Mask; CELLS] {
    cand.map(Mask::from_bits_truncate)
}

fn digit_char(m: u16) -> char {
    Mask::from_bits_truncate(m)
        .single()
        .map_or('0', |d| char::from(d.to_ascii()))
}

/// Parses, validates, propagates and solves a bare Killer string.
pub fn analyse(s: &str) -> Result<Analysis, Error> {
    Ok(Killer::parse(s)?.analysis())
}

/// The identity ([`Killer::identity`]) of a bare Killer string.
pub fn identity(s: &str) -> Result<String, Error> {
    Ok(Killer::parse(s)?.identity())
}

/// The identity of a legacy string (`81 colours,162 sums`), which carries
/// nothing but its cages and sums, so its analysis is a function of the
/// identity alone. `None` for the packed form (its candidates count too)
/// and for strings that do not parse.
pub fn legacy_identity(s: &str) -> Option<String> {
    let legacy = s.len() == CELLS + 1 + 2 * CELLS && s.find(',') == Some(CELLS);
    legacy
        .then(|| Killer::parse(s).ok())
        .flatten()
        .map(|k| k.identity())
}

/// krazydad's CSV rows (SOURCES.md "killer/"), read for the tests of the
/// Killer modules.
#[cfg(test)]
pub(crate) mod krazydad {
    use crate::core::grid::CELLS;

    /// The first 500 rows, the repository's own copy.
    pub const FIRST500: &str =
        include_str!("../../tests/data/killer/krazydad_intermediate_first500.csv");

    /// One row: each cell's cage letter (A-Z then a-z, as 0..52), the sums
    /// in letter order, and the solution.
    pub struct Row {
        pub ids: [u8; CELLS],
        pub sums: Vec<u8>,
        pub solved: String,
    }

    /// The rows of a krazydad CSV, its header skipped.
    pub fn rows(text: &str) -> impl Iterator<Item = Row> + '_ {
        text.lines().skip(1).map(row)
    }

    pub fn row(line: &str) -> Row {
        let fields: Vec<&str> = line.splitn(6, ',').collect();
        let (layout, rest) = fields[5].split_once(",\"").unwrap();
        let (hints, rest) = rest.split_once("\",").unwrap();
        let solved = rest.split(',').next().unwrap().to_string();
        let mut ids = [0u8; CELLS];
        for (id, ch) in ids.iter_mut().zip(layout[1..].bytes()) {
            *id = if ch.is_ascii_uppercase() {
                ch - b'A'
            } else {
                26 + ch - b'a'
            };
        }
        let sums = hints.split(',').map(|h| h.parse().unwrap()).collect();
        Row { ids, sums, solved }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::box_of;
    use krazydad::{FIRST500, Row, rows};
    use proptest::prelude::*;

    /// The legacy real example of docs/formats.md "Killer Sudoku".
    const EXAMPLE: &str = "212112111212112223213331443231221241134412231124133132322122212344411312111411312,171510200026110000000000000000000011000011000017160000001101060000090016110017000900000900001800160800040010160000001100002100001800001800140000080000000000000000";

    fn krazydad() -> Vec<Row> {
        rows(FIRST500).collect()
    }

    fn solution_fits_cages(k: &Killer, solution: &str) -> bool {
        let digits = solution.as_bytes();
        k.cages().iter().all(|cage| {
            let ds: Vec<u8> = cage
                .cells()
                .iter()
                .map(|c| digits[c.index()] - b'0')
                .collect();
            let set: Mask = ds.iter().filter_map(|&d| Digit::new(d)).collect();
            set.len() as usize == ds.len()
                && ds.iter().map(|&d| u32::from(d)).sum::<u32>() == u32::from(cage.sum())
        })
    }

    fn is_sudoku(solution: &str) -> bool {
        let b = solution.as_bytes();
        b.len() == 81
            && UNITS.iter().all(|u| {
                u.iter()
                    .map(|&c| Digit::from_ascii(b[c as usize]))
                    .collect::<Option<Mask>>()
                    == Some(Mask::ALL)
            })
    }

    #[test]
    fn the_formats_md_example_is_valid_unique_and_its_solution_fits_every_cage() {
        let k = Killer::parse(EXAMPLE).unwrap();
        let a = k.analysis();
        assert_eq!(a.kind, PuzzleType::Killer);
        assert_eq!(a.clues, k.cages().len() as u32);
        let Status::Unique(solution) = &a.status else {
            panic!("status {:?}", a.status)
        };
        assert!(is_sudoku(solution), "{solution}");
        assert!(solution_fits_cages(&k, solution));
        assert_eq!(k.to_legacy(), EXAMPLE);
        assert_eq!(analyse(EXAMPLE).unwrap(), a);
    }

    #[test]
    fn the_analysis_encoding_reads_back_as_the_same_cages_and_candidates() {
        let a = analyse(EXAMPLE).unwrap();
        let back = Killer::parse(&a.encoding).unwrap();
        assert_eq!(back.to_packed(), a.encoding);
        assert_eq!(back.cages(), Killer::parse(EXAMPLE).unwrap().cages());
        assert_eq!(back.cells, a.candidates);
        assert_eq!(a.shading[0], 1);
        assert_eq!(
            a.shading.iter().max().map(|&n| usize::from(n)),
            Some(back.cages().len())
        );
    }

    #[test]
    fn the_identity_is_the_greedy_layout_and_the_sums_at_first_cells() {
        // Nine row cages: greedy colours alternate 1,2,1,2...; sums 45 at column 1.
        let layout: String = (0..9)
            .map(|r| if r % 2 == 0 { "111111111" } else { "222222222" })
            .collect();
        let sums: String = (0..9).map(|_| format!("45{}", "00".repeat(8))).collect();
        let s = format!("{},{}", layout.replace('1', "3").replace('2', "5"), sums);
        assert_eq!(identity(&s).unwrap(), format!("{layout},{sums}"));
        let k = Killer::parse(&s).unwrap();
        assert_eq!(k.clues(), 9);
        // A placed digit adds the third part and counts as a clue.
        let mut cells = [Mask::EMPTY; CELLS];
        cells[4] = Digit::new(7).unwrap().mask();
        let packed = format::write_packed(&k.colour, &k.clue, &cells);
        let k = Killer::parse(&packed).unwrap();
        assert_eq!(
            k.identity(),
            format!("{layout},{sums},{}7{}", "0".repeat(4), "0".repeat(76))
        );
        assert_eq!(k.clues(), 10);
        assert!(k.analysis().given[4]);
    }

    #[test]
    fn a_sum_written_away_from_the_first_cell_is_accepted_and_written_back_there() {
        // The example's first cage (colour 2 at r1c1) also holds r2c1; move its 17 there.
        let k = Killer::parse(EXAMPLE).unwrap();
        assert_eq!(k.cage_of(cell(0)), k.cage_of(cell(9)));
        let mut b = EXAMPLE.as_bytes().to_vec();
        b[82..84].copy_from_slice(b"00");
        b[82 + 18..84 + 18].copy_from_slice(b"17");
        let moved = String::from_utf8(b).unwrap();
        let m = Killer::parse(&moved).unwrap();
        assert_eq!(m.to_legacy(), moved);
        assert_eq!(m.identity(), k.identity());
        assert_eq!(m.cages(), k.cages());
    }

    #[test]
    fn each_rejection_has_its_reason_code() {
        let rows_layout: String = (0..9)
            .map(|r| char::from(b'1' + (r % 2) as u8).to_string().repeat(9))
            .collect();
        let row_sums: String = (0..9).map(|_| format!("45{}", "00".repeat(8))).collect();
        let rows = format!("{rows_layout},{row_sums}");
        assert!(Killer::parse(&rows).is_ok());
        let at = |s: &str, pos: usize, with: &str| {
            let mut t = s.to_string();
            t.replace_range(pos..pos + with.len(), with);
            t
        };
        // Packed rows: colour 1 = field 0, colour 2 = field 1, sum 45 at column 1.
        let packed_row = |colour: u16| {
            let mut out = String::new();
            crate::core::base32::encode_into(45 << 3 | (colour - 1), 2, &mut out);
            for _ in 0..8 {
                crate::core::base32::encode_into(colour - 1, 2, &mut out);
            }
            out
        };
        let packed_first: String = (0..9).map(|r| packed_row(1 + r % 2)).collect();
        let packed = format!("{packed_first},{}", "00".repeat(81));
        assert!(Killer::parse(&packed).is_ok());
        let five = |i: usize| {
            let mut cells = [Mask::EMPTY; CELLS];
            cells[0] = Digit::new(5).unwrap().mask();
            cells[i] = Digit::new(5).unwrap().mask();
            let k = Killer::parse(&packed).unwrap();
            format::write_packed(&k.colour, &k.clue, &cells)
        };
        let cases: Vec<(&str, String, &str)> = vec![
            ("no comma", "123".into(), "length"),
            ("short second part", format!("{rows_layout},45"), "length"),
            ("legacy letter colour", at(&rows, 3, "x"), "character"),
            ("legacy letter sum", at(&rows, 100, "x"), "character"),
            ("packed letter w", at(&packed, 170, "w"), "character"),
            ("legacy colour 6", at(&rows, 0, "6"), "colour"),
            ("legacy colour 0", at(&rows, 80, "0"), "colour"),
            ("packed colour field 5", at(&packed, 2, "05"), "colour"),
            ("legacy sum 46", at(&rows, 82, "46"), "sum"),
            ("packed sum 46", at(&packed, 0, "bg"), "sum"),
            ("packed odd candidates", at(&packed, 163, "01"), "mask"),
            ("a cage with no sum", at(&rows, 82, "00"), "cage-sum"),
            ("a cage with two sums", at(&rows, 84, "01"), "cage-sum"),
            (
                "a cage of 18 cells",
                at(
                    &at(&at(&rows, 9, &"1".repeat(9)), 18, &"3".repeat(9)),
                    100,
                    "00",
                ),
                "cage-size",
            ),
            (
                "a single cell with sum 10",
                format!("{},{}", at(&rows_layout, 1, "2"), at(&row_sums, 2, "10")),
                "cage-range",
            ),
            ("sums totalling 404", at(EXAMPLE, 82, "16"), "total"),
            ("a digit twice in a row and cage", five(1), "duplicate"),
            ("a digit twice in a column", five(9), "duplicate"),
            ("a digit twice in a box", five(10), "duplicate"),
        ];
        for (name, s, code) in &cases {
            match Killer::parse(s) {
                Ok(_) => panic!("{name}: accepted"),
                Err(e) => {
                    assert_eq!(e.code(), *code, "{name}: {e}");
                    assert!(e.to_string().starts_with("killer"), "{name}: {e}");
                    assert_eq!(e.to_string(), e.to_string().to_lowercase(), "{name}: {e}");
                }
            }
        }
    }

    #[test]
    fn a_repeated_digit_names_its_unit_or_else_its_cage() {
        let k = Killer::parse(EXAMPLE).unwrap();
        let with_fives = |a: usize, b: usize| {
            let mut cells = [Mask::EMPTY; CELLS];
            cells[a] = Digit::new(5).unwrap().mask();
            cells[b] = Digit::new(5).unwrap().mask();
            let s = format::write_packed(&k.colour, &k.clue, &cells);
            Killer::parse(&s).unwrap_err().to_string()
        };
        let units = [
            (0, 8, "r1c9", "row 1"),
            (0, 72, "r9c1", "column 1"),
            (0, 20, "r3c3", "box 1"),
            (80, 60, "r9c9", "box 9"),
        ];
        for (a, b, later, place) in units {
            let (a, b) = (a.min(b), a.max(b));
            let earlier = Cell::new(a).unwrap();
            assert_eq!(
                with_fives(a, b),
                format!(
                    "killer packed: digit 5 at {later} repeats the one at {earlier} in {place}"
                )
            );
        }
        // Two cells of one cage that share no row, column or box.
        let (cage, a, b) = (k.cages.iter())
            .find_map(|cage| {
                let cells: Vec<usize> = cage.cells().iter().map(|c| c.index()).collect();
                cells.iter().find_map(|&a| {
                    let apart = |b: &&usize| {
                        a / 9 != **b / 9 && a % 9 != **b % 9 && box_of(a) != box_of(**b)
                    };
                    cells
                        .iter()
                        .find(apart)
                        .map(|&b| (cage, a.min(b), a.max(b)))
                })
            })
            .expect("the example has a cage across boxes");
        assert_eq!(
            with_fives(a, b),
            format!(
                "killer packed: digit 5 at {} repeats the one at {} in cage at {}",
                Cell::new(b).unwrap(),
                Cell::new(a).unwrap(),
                cage.first()
            )
        );
    }

    #[test]
    fn messages_name_the_cage_the_cell_and_the_value() {
        let msg = |s: &str| Killer::parse(s).unwrap_err().to_string();
        let mut b = EXAMPLE.to_string();
        b.replace_range(82..84, "00");
        assert_eq!(msg(&b), "killer legacy: cage at r1c1 (4 cells) has no sum");
        let mut b = EXAMPLE.to_string();
        b.replace_range(5..6, "7");
        assert_eq!(
            msg(&b),
            "killer legacy: cell 5 (r1c6) has colour \"7\", expected 1-5"
        );
        let mut b = EXAMPLE.to_string();
        b.replace_range(84..85, "z");
        assert_eq!(
            msg(&b),
            "killer legacy: character 84 (cell 1, r1c2) is 'z', expected a decimal digit"
        );
        assert_eq!(
            msg("1,2"),
            "killer: 1,1 characters, expected 81,162 (legacy) or 162,162 (packed)"
        );
    }

    #[test]
    fn from_cages_rejects_bad_ids() {
        let row = krazydad().swap_remove(0);
        let mut ids = row.ids;
        ids[0] = 60;
        assert_eq!(
            Killer::from_cages(&ids, &row.sums).unwrap_err().code(),
            "cage-id"
        );
        let mut sums = row.sums.clone();
        sums.push(0);
        assert_eq!(
            Killer::from_cages(&row.ids, &sums).unwrap_err().to_string(),
            format!("killer cages: cage id {} has no cell", row.sums.len())
        );
        // Give r9c9 the id of the cage at r1c1: that id becomes two regions.
        let mut ids = row.ids;
        ids[80] = ids[0];
        assert_eq!(
            Killer::from_cages(&ids, &row.sums).unwrap_err().code(),
            "cage-id"
        );
    }

    /// A loose layout built from a solution grid (so solvable) whose count
    /// does not settle within the Killer's own node limit: it gives up, and
    /// is never called unsolvable because the search stopped early.
    #[test]
    fn a_count_past_the_killer_node_limit_gives_up() {
        let s = "122222111112122113133442333133444433122411123222111222134444111114124111111144111,334500000000280000000000030000000038001800350000000000000000000000000000002100003500001400000000000000000000380740000000450000000000000500000000000000000000000000";
        assert_eq!(analyse(s).unwrap().status, Status::GaveUp);
    }

    #[test]
    fn propagation_reports_where_a_contradiction_is() {
        // Rows as cages, a 5 placed in r1c1 and a 5 forced... use two placed
        // digits that leave r1c3 with nothing: place 1..8 around it in its row.
        let k = Killer::parse(EXAMPLE).unwrap();
        let mut cells = [Mask::EMPTY; CELLS];
        // The example's r1c1 + r2c1 cage sums to 17 (8+9); a 1 in r1c1 cannot fit.
        cells[0] = Digit::new(1).unwrap().mask();
        let s = format::write_packed(&k.colour, &k.clue, &cells);
        let a = analyse(&s).unwrap();
        let Status::Contradiction(msg) = &a.status else {
            panic!("{:?}", a.status)
        };
        assert!(msg.starts_with("killer: "), "{msg}");
        assert_eq!(a.status.count(), 0);
    }

    #[test]
    fn a_contradiction_keeps_the_board_as_read_so_its_encoding_reanalyses_to_itself() {
        // A 1 in r1c1, whose cage sums to 17 (8+9): propagation stops part way,
        // at a board that is no fixpoint and has a cell with no candidate (which
        // would be written "00", read back as "anything").
        let k = Killer::parse(EXAMPLE).unwrap();
        let mut cells = [Mask::EMPTY; CELLS];
        cells[0] = Digit::new(1).unwrap().mask();
        let s = format::write_packed(&k.colour, &k.clue, &cells);
        let a = analyse(&s).unwrap();
        assert!(
            matches!(a.status, Status::Contradiction(_)),
            "{:?}",
            a.status
        );
        let read = *Killer::parse(&s).unwrap().board().cand();
        assert_eq!(a.candidates, masks(&read));
        let b = analyse(&a.encoding).unwrap();
        assert_eq!(b.encoding, a.encoding);
        assert_eq!(b.status, a.status);
        assert_eq!(b.candidates, a.candidates);
    }

    #[test]
    fn every_krazydad_row_converts_reads_back_and_has_its_one_solution() {
        let mut several = 0;
        for (n, row) in krazydad().iter().enumerate() {
            let k =
                Killer::from_cages(&row.ids, &row.sums).unwrap_or_else(|e| panic!("row {n}: {e}"));
            let legacy = k.to_legacy();
            let back = Killer::parse(&legacy).unwrap_or_else(|e| panic!("row {n}: {e}"));
            assert_eq!(back.cages(), k.cages(), "row {n}");
            assert_eq!(back.cages().len(), row.sums.len(), "row {n}");
            for (c, &id) in row.ids.iter().enumerate() {
                let cage = &back.cages()[back.cage_of(cell(c))];
                assert_eq!(row.sums[usize::from(id)], cage.sum(), "row {n} cell {c}");
            }
            match back.solve() {
                Status::Unique(s) => assert_eq!(s, row.solved, "row {n}"),
                Status::Multiple => several += 1,
                other => panic!("row {n}: {other:?}"),
            }
        }
        assert_eq!(several, 0);
    }

    #[test]
    fn the_committed_krazydad_legacy_file_is_the_conversion_of_the_csv() {
        let file =
            include_str!("../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
        let converted: Vec<String> = krazydad()
            .iter()
            .map(|row| Killer::from_cages(&row.ids, &row.sums).unwrap().to_legacy())
            .collect();
        assert_eq!(file.lines().collect::<Vec<_>>(), converted);
    }

    proptest! {
        #[test]
        fn recolouring_keeps_the_identity(perm in Just([1u8, 2, 3, 4, 5]).prop_shuffle()) {
            let k = Killer::parse(EXAMPLE).unwrap();
            let colour = k.colour.map(|c| perm[usize::from(c - 1)]);
            let recoloured = format::write_legacy(&colour, &k.clue);
            prop_assert_eq!(identity(&recoloured).unwrap(), k.identity());
            let by_ids = Killer::from_cages(&k.cage_of, &k.cages.iter().map(Cage::sum).collect::<Vec<_>>()).unwrap();
            prop_assert_eq!(by_ids.identity(), k.identity());
        }

        #[test]
        fn legal_strings_round_trip_and_keep_the_solution(
            row in 0usize..500,
            perm in Just([1u8, 2, 3, 4, 5]).prop_shuffle(),
            place in prop::collection::vec(0usize..9, 81),
            noise in prop::collection::vec(0u16..512, 81),
            upper in any::<bool>(),
        ) {
            let row = krazydad::row(FIRST500.lines().nth(row + 1).unwrap());
            let k = Killer::from_cages(&row.ids, &row.sums).unwrap();
            let colour = k.colour.map(|c| perm[usize::from(c - 1)]);
            // Each sum at some cell of its cage; candidates always hold the solution's
            // digit, so a single candidate is that digit and nothing repeats.
            let mut clue = [0u8; CELLS];
            for (i, cage) in k.cages().iter().enumerate() {
                clue[cage.cells()[place[i] % cage.cells().len()].index()] = cage.sum();
            }
            let solution: Vec<u16> = row.solved.bytes().map(|d| 1 << (d - b'1')).collect();
            let cells: [Mask; CELLS] = std::array::from_fn(|c| {
                let m = if noise[c] == 0 { 0 } else { noise[c] | solution[c] };
                Mask::new(m).unwrap()
            });
            let legacy = format::write_legacy(&colour, &clue);
            let packed = format::write_packed(&colour, &clue, &cells);
            let l = Killer::parse(&legacy).unwrap();
            prop_assert_eq!(l.to_legacy(), legacy);
            prop_assert_eq!(l.identity(), k.identity());
            let read = if upper { packed.to_uppercase() } else { packed.clone() };
            let p = Killer::parse(&read).unwrap();
            prop_assert_eq!(p.to_packed(), packed);
            let a = p.analysis();
            for (c, (m, &digit)) in a.candidates.iter().zip(&solution).enumerate() {
                prop_assert!(m.bits() & digit != 0, "cell {} lost its digit", c);
            }
            prop_assert_eq!(a.status, Status::Unique(row.solved.clone()));
        }
    }
}
