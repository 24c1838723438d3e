//! Unique rectangles and loops (4.5-5.0), SE's types 1 to 4: cells that
//! share two digits, closed in a loop, would let them swap, so a puzzle
//! with one solution must break the loop through its extra cells. A
//! rectangle rates 4.5, loops of 6, 8, 10+ 4.6, 4.7, 5.0; type 3 adds 0.1
//! a digit beyond one. The easiest found is applied. SE's type 3 with a
//! hidden set is not here. In full: docs/difficulty.md "Module notes".

use crate::core::grid::{CELLS, PEERS};
use crate::core::logic::house::House;
use crate::core::logic::marks::{Marks, bit};
use crate::core::logic::step::{Rating10, Step, cell_list};
use crate::core::logic::technique::{Technique, Work};

use super::{digit_list, digits, members, subsets};

pub struct UniqueLoop;

/// The three houses of a cell in SE's order for loops: box, row, column.
fn houses_of(c: usize) -> [House; 3] {
    [
        House::Box(crate::core::grid::box_of(c) as u8),
        House::Row((c / 9) as u8),
        House::Column((c % 9) as u8),
    ]
}

/// One application found, with SE's sort key.
struct Found {
    rating: Rating10,
    kind: u8,
    step: Step,
}

impl Technique for UniqueLoop {
    fn name(&self) -> &'static str {
        "Unique Rectangles and Loops"
    }

    fn find(&self, marks: &Marks, work: &mut Work) -> Option<Step> {
        let mut found: Vec<Found> = Vec::new();
        for start in 0..CELLS {
            let m = marks.cands(start);
            if m.count_ones() != 2 {
                continue;
            }
            let pair = m;
            let mut loops = Vec::new();
            let mut path = Vec::new();
            if !search(marks, start, pair, &mut path, 2, 0, None, &mut loops, work) {
                return None;
            }
            for lp in loops {
                if is_valid_loop(&lp) {
                    hints_of(marks, &lp, pair, &mut found);
                }
            }
        }
        // SE sorts by rating, then type; the sort is stable.
        found.sort_by_key(|f| (f.rating, f.kind));
        found.into_iter().next().map(|f| f.step)
    }
}

/// SE's loop search from `cell`: through a house other than the one the
/// last two cells share, on to cells holding both digits, at most two of
/// them with more (unless all extras are one digit). Every loop of 4 or
/// more cells back to the start is kept. `false` when the work ran out.
#[allow(clippy::too_many_arguments)]
fn search(
    marks: &Marks,
    cell: usize,
    pair: u16,
    path: &mut Vec<usize>,
    allowed_extra: u32,
    extra: u16,
    last_house: Option<usize>,
    loops: &mut Vec<Vec<usize>>,
    work: &mut Work,
) -> bool {
    if !work.spend(1, 45) {
        return false;
    }
    path.push(cell);
    // SE gathers the extra digits across the siblings tried from one cell.
    let mut extra = extra;
    for (kind, h) in houses_of(cell).into_iter().enumerate() {
        if last_house == Some(kind) {
            continue;
        }
        for &next in h.cells() {
            let next = next as usize;
            if next == path[0] && path.len() >= 4 {
                loops.push(path.clone());
            } else if !path.contains(&next) {
                let m = marks.cands(next);
                if m & pair != pair {
                    continue;
                }
                extra |= m & !pair;
                let n = m.count_ones();
                if n == 2 || extra.count_ones() == 1 || allowed_extra > 0 {
                    let left = if n > 2 {
                        allowed_extra.saturating_sub(1)
                    } else {
                        allowed_extra
                    };
                    if !search(
                        marks,
                        next,
                        pair,
                        path,
                        left,
                        extra,
                        Some(kind),
                        loops,
                        work,
                    ) {
                        return false;
                    }
                }
            }
        }
    }
    path.pop();
    true
}

/// Every house a cell of the loop is in holds exactly two of its cells,
/// one at an even and one at an odd position of the loop.
fn is_valid_loop(lp: &[usize]) -> bool {
    let (mut even, mut odd) = (0u32, 0u32);
    for (i, &c) in lp.iter().enumerate() {
        for h in [c / 9, 9 + c % 9, 18 + crate::core::grid::box_of(c)] {
            let set = if i % 2 == 0 { &mut even } else { &mut odd };
            if *set & (1 << h) != 0 {
                return false;
            }
            *set |= 1 << h;
        }
    }
    even == odd
}

fn loop_rating(len: usize) -> Rating10 {
    match len {
        0..=5 => 45,
        6..=7 => 46,
        8..=9 => 47,
        _ => 50,
    }
}

fn step(rating: Rating10, lp: &[usize], pair: u16, kind: u8, eliminate: Vec<(u8, u8)>) -> Step {
    let what = if lp.len() == 4 { "rectangle" } else { "loop" };
    let cells: Vec<u8> = lp.iter().map(|&c| c as u8).collect();
    let technique = if lp.len() == 4 {
        [
            "Unique Rectangle type 1",
            "Unique Rectangle type 2",
            "Unique Rectangle type 3",
            "Unique Rectangle type 4",
        ]
    } else {
        [
            "Unique Loop type 1",
            "Unique Loop type 2",
            "Unique Loop type 3",
            "Unique Loop type 4",
        ]
    }[kind as usize - 1];
    Step {
        technique,
        rating,
        reason: format!(
            "unique {what} type {kind} on {} in {}",
            digit_list(pair),
            cell_list(&cells)
        ),
        cells,
        place: None,
        eliminate,
    }
}

/// The loop's applications by SE's types, added to `found`.
fn hints_of(marks: &Marks, lp: &[usize], pair: u16, found: &mut Vec<Found>) {
    let base = loop_rating(lp.len());
    let extra: Vec<usize> = lp
        .iter()
        .copied()
        .filter(|&c| marks.cands(c).count_ones() > 2)
        .collect();
    let mut push = |rating: Rating10, kind: u8, eliminate: Vec<(u8, u8)>| {
        if !eliminate.is_empty() {
            found.push(Found {
                rating,
                kind,
                step: step(rating, lp, pair, kind, eliminate),
            });
        }
    };
    match extra.len() {
        1 => {
            let c = extra[0];
            push(base, 1, digits(pair).map(|d| (c as u8, d)).collect());
        }
        0 => {}
        n => {
            let others: u16 = extra.iter().fold(0, |a, &c| a | marks.cands(c)) & !pair;
            if others.count_ones() == 1 {
                // Type 2: one of the extra cells holds the extra digit.
                let d = others.trailing_zeros() as u8 + 1;
                let eliminate = (0..CELLS)
                    .filter(|&c| !extra.contains(&c) && marks.cands(c) & others != 0)
                    .filter(|&c| extra.iter().all(|&e| PEERS[e].contains(&(c as u8))))
                    .map(|c| (c as u8, d))
                    .collect();
                push(base, 2, eliminate);
            } else if n == 2 {
                type3(marks, base, extra[0], extra[1], others, &mut push);
            }
            if n == 2 {
                type4(marks, base, extra[0], extra[1], pair, &mut push);
            }
        }
    }
}

/// Type 3: the extra digits of `a` and `b` act as one cell of a naked set
/// with `k - 1` other cells of a house both are in.
fn type3(
    marks: &Marks,
    base: Rating10,
    a: usize,
    b: usize,
    extra: u16,
    push: &mut impl FnMut(Rating10, u8, Vec<(u8, u8)>),
) {
    for degree in extra.count_ones()..=7 {
        for h in houses_of(a) {
            if !h.contains(b) {
                continue;
            }
            let cells = h.cells();
            let empty = marks.empty_count(h);
            if degree * 2 > empty || degree < 2 {
                continue;
            }
            let others: Vec<usize> = cells
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| c != a && c != b && marks.cands(c) != 0)
                .collect();
            // `degree - 1` other cells; subsets() covers sizes 2..=4 of 9.
            let k = degree - 1;
            let pick: Vec<Vec<usize>> = if k == 1 {
                others.iter().map(|&c| vec![c]).collect()
            } else if (2..=4).contains(&k) && others.len() <= 9 {
                subsets(k)
                    .filter(|s| members(*s).all(|i| i < others.len()))
                    .map(|s| members(s).map(|i| others[i]).collect())
                    .collect()
            } else {
                Vec::new()
            };
            for set in pick {
                let union = set.iter().fold(extra, |u, &c| u | marks.cands(c));
                if union.count_ones() != degree {
                    continue;
                }
                let eliminate: Vec<(u8, u8)> = cells
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|c| *c != a && *c != b && !set.contains(c))
                    .flat_map(|c| digits(marks.cands(c) & union).map(move |d| (c as u8, d)))
                    .collect();
                push(base + (degree as Rating10 - 1), 3, eliminate);
            }
        }
    }
}

/// Type 4: one digit of the pair has no place in a house of `a` and `b`
/// but them, so one of them holds it and the other digit leaves both.
fn type4(
    marks: &Marks,
    base: Rating10,
    a: usize,
    b: usize,
    pair: u16,
    push: &mut impl FnMut(Rating10, u8, Vec<(u8, u8)>),
) {
    let ds: Vec<u8> = digits(pair).collect();
    let mut lock: [bool; 2] = [false, false];
    for h in houses_of(a) {
        if !h.contains(b) {
            continue;
        }
        for (i, &d) in ds.iter().enumerate() {
            let elsewhere = h
                .cells()
                .iter()
                .filter(|&&c| {
                    c as usize != a && c as usize != b && marks.cands(c as usize) & bit(d) != 0
                })
                .count();
            if elsewhere == 0 {
                lock[i] = true;
            }
        }
    }
    let rem = if lock[0] {
        ds[1]
    } else if lock[1] {
        ds[0]
    } else {
        return;
    };
    push(base, 4, vec![(a as u8, rem), (b as u8, rem)]);
}
