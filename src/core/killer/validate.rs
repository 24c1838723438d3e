//! Building a Killer puzzle from a string or from cage ids, and every rule
//! it must pass across cells: each cage one sum that its size can make,
//! at most nine cells, sums adding to 405, no placed digit twice in a row,
//! column, box or cage. Each failure is a typed [`Error`] that names the
//! cage or cell.

use crate::core::grid::cell_at;
use crate::core::grid::{CELLS, UNITS};
use crate::core::mask::{Digit, Mask};

use super::board::{Cage, Killer};
use super::cages::{self, MAX_SUM, combinations};
use super::{COLOURS, Error, Form, format};

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
                    cell: cell_at(i),
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
                    first: cell_at(other),
                    at: cell_at(first),
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
                    cell: cell_at(first),
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
            let first = cell_at(usize::from(region[0]));
            let size = region.len();
            let mut sums = region
                .iter()
                .map(|&c| (clue[usize::from(c)], cell_at(usize::from(c))))
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
                cell: cell_at(c),
                other: cell_at(other),
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
}
