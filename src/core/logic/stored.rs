//! The rating the archive keeps of a puzzle, for every type: one number in
//! tenths on the type's own scale (classic: Sudoku Explainer's ER), the
//! name of the hardest technique, whether the number is a bound, and the
//! version of the rater that made it ([`version`]). A type with no rater
//! yet has no version and gets no rating; its rater plugs in here.
//!
//! Bump a type's version whenever a change to its rater can change a
//! rating: the archive then knows its stored ratings as old, and `rate`
//! redoes them. Pure, like the rest of `logic`.

use crate::core::grid::CELLS;
use crate::core::puzzle::canonical;
use crate::core::vocabulary::PuzzleType;

use crate::core::killer::Killer;
use crate::core::str8ts::Str8ts;

use super::step::{Rating10, Step};
use super::{Budget, Outcome, solve};

/// The classic rater's version (`core::logic`'s solver and ladder).
pub const CLASSIC_VERSION: u32 = 1;
/// The Killer rater's version (`logic::killer`, docs/difficulty.md).
pub const KILLER_VERSION: u32 = 1;
/// The Str8ts rater's version (`logic::str8ts`, docs/difficulty.md).
pub const STR8TS_VERSION: u32 = 1;

/// The name a classic bound from techniques not here is given: the lowest
/// missing rung ([`lowest_missing`]).
pub const BEYOND_CLASSIC: &str = "Nested Forcing Chains";

/// What the archive stores of one puzzle's rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stored {
    /// In tenths (72 is 7.2) on the type's scale.
    pub rating: Rating10,
    /// The technique that set the rating: the hardest step's, or for a
    /// bound above every step the one the bound stands for.
    pub technique: &'static str,
    /// The rating is only "at least".
    pub bound: bool,
}

/// The version of `kind`'s rater, or `None` while it has none.
pub const fn version(kind: PuzzleType) -> Option<u32> {
    match kind {
        PuzzleType::Sudoku => Some(CLASSIC_VERSION),
        PuzzleType::Killer => Some(KILLER_VERSION),
        PuzzleType::Str8ts => Some(STR8TS_VERSION),
    }
}

/// The short name of `kind`'s rating scale, as people read a rating:
/// `ER 7.2` for classic (Sudoku Explainer's), `rating 4.5` for the others.
pub const fn scale(kind: PuzzleType) -> &'static str {
    match kind {
        PuzzleType::Sudoku => "ER",
        PuzzleType::Killer | PuzzleType::Str8ts => "rating",
    }
}

/// Rates a stored puzzle: its canonical `form` when it has one, else the
/// form computed from its `givens`, so that isomorphs, which share it, get
/// the same rating by construction (SE's scan order is not symmetric, so
/// two isomorphs could take different steps; the tests found no rating
/// that differs, but do not prove none does). A puzzle whose form meets the canonical search's bound
/// is rated on its givens (it has no isomorph in the archive either).
pub fn rate_stored(kind: PuzzleType, givens: &str, form: Option<&str>) -> Option<Stored> {
    version(kind)?;
    match form {
        Some(form) => rate(kind, form),
        None => match canonical(kind, givens) {
            Ok(form) => rate(kind, &form),
            Err(_) => rate(kind, givens),
        },
    }
}

/// Rates the puzzle `form` of type `kind` (the archive gives its canonical
/// form, so every isomorph gets the same rating; for classic 81 characters,
/// `1`-`9` a given). `None`: the type has no rater, the text is not a
/// puzzle of it, or the rater found no solution (not a puzzle with one).
pub fn rate(kind: PuzzleType, form: &str) -> Option<Stored> {
    match kind {
        PuzzleType::Sudoku => rate_classic(form),
        PuzzleType::Killer => {
            let k = Killer::parse(form).ok()?;
            let sol = super::killer::solve(&k, Budget::default());
            stored(
                &sol.steps,
                sol.rating,
                sol.outcome,
                sol.ran_out_in,
                BEYOND_KILLER,
            )
        }
        PuzzleType::Str8ts => {
            let b = Str8ts::parse(form).ok()?;
            let sol = super::str8ts::solve(&b, Budget::default());
            stored(
                &sol.steps,
                sol.rating,
                sol.outcome,
                sol.ran_out_in,
                BEYOND_STR8TS,
            )
        }
    }
}

/// What a Killer bound from techniques not here is called (nested chains,
/// or chains through cages: `logic::killer::STUCK_FLOOR`).
pub const BEYOND_KILLER: &str = "Beyond this rater";
/// What a Str8ts bound from techniques not here is called (a trial inside
/// a trial: `logic::str8ts::lowest_missing`).
pub const BEYOND_STR8TS: &str = "Beyond this rater";

/// The stored rating of a solution: its ER, the hardest step's technique
/// (or what a bound stands for), and whether it is a bound; `None` when
/// the rater found no solution.
fn stored(
    steps: &[Step],
    r: super::Rating,
    outcome: Outcome,
    ran_out_in: Option<&'static str>,
    beyond: &'static str,
) -> Option<Stored> {
    let hardest = steps.iter().find(|s| s.rating == r.er);
    let technique = match (hardest, outcome) {
        (_, Outcome::Invalid) => return None,
        (Some(step), _) => step.technique,
        (None, Outcome::Stuck) => beyond,
        (None, Outcome::OverBudget) => ran_out_in?,
        // Every step is rated, and ER is their highest or a bound.
        (None, _) => return None,
    };
    Some(Stored {
        rating: r.er,
        technique,
        bound: r.bound,
    })
}

fn rate_classic(form: &str) -> Option<Stored> {
    let bytes = form.as_bytes();
    if bytes.len() != CELLS {
        return None;
    }
    let mut givens = [0u8; CELLS];
    for (g, &b) in givens.iter_mut().zip(bytes) {
        *g = if (b'1'..=b'9').contains(&b) {
            b - b'0'
        } else {
            0
        };
    }
    let sol = solve(&givens, Budget::default());
    let r = sol.rating;
    stored(&sol.steps, r, sol.outcome, sol.ran_out_in, BEYOND_CLASSIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: &str =
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

    #[test]
    fn an_easy_classic_puzzle_gets_its_er_and_hardest_technique() {
        let s = rate(PuzzleType::Sudoku, EASY).unwrap();
        assert!(!s.bound);
        assert!(s.rating >= 10 && s.rating < 30, "{s:?}");
        assert!(!s.technique.is_empty());
    }

    #[test]
    fn text_that_is_not_a_puzzle_of_the_type_gets_none() {
        assert_eq!(rate(PuzzleType::Sudoku, "123"), None);
        assert_eq!(rate(PuzzleType::Killer, EASY), None);
        assert_eq!(rate(PuzzleType::Str8ts, EASY), None);
        assert_eq!(version(PuzzleType::Str8ts), Some(STR8TS_VERSION));
        assert_eq!(version(PuzzleType::Sudoku), Some(CLASSIC_VERSION));
    }

    /// Random disguises (relabelling, transposition, band, stack, row and
    /// column swaps) of hard puzzles: the stored rating, made on the form
    /// they share, is the same for every one of them.
    #[test]
    fn every_isomorph_of_a_puzzle_gets_the_same_stored_rating() {
        use crate::core::sudoku::canon::tests::{SplitMix, corpus, line_order, transform};
        let top = include_str!("../../../tests/data/classic/magictour_top95.txt");
        let mut rng = SplitMix(38);
        let (mut differed, mut tried) = (0, 0);
        for grid in corpus(top, 12) {
            let text = |g: &[u8; 81]| g.iter().map(|&d| char::from(b'0' + d)).collect::<String>();
            let first = rate_stored(PuzzleType::Sudoku, &text(&grid), None).unwrap();
            for _ in 0..3 {
                let mut digits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
                rng.shuffle(&mut digits[1..]);
                let (rows, cols) = (line_order(&mut rng), line_order(&mut rng));
                let g = transform(&grid, rng.below(2) == 1, &rows, &cols, &digits);
                assert_eq!(
                    rate_stored(PuzzleType::Sudoku, &text(&g), None),
                    Some(first)
                );
                tried += 1;
                differed += usize::from(rate(PuzzleType::Sudoku, &text(&g)) != Some(first));
            }
        }
        eprintln!("{differed} of {tried} disguises rated on their own givens differ");
    }

    #[test]
    fn givens_that_clash_get_none() {
        let clash = format!("11{}", &EASY[2..]);
        assert_eq!(rate(PuzzleType::Sudoku, &clash), None);
    }

    /// Killer and Str8ts are rated on their own scales, on the form the
    /// archive gives them (the canonical form of the identity).
    #[test]
    fn a_killer_and_a_str8ts_get_their_ratings_on_their_canonical_forms() {
        const STR8TS: &str = "069000000000000000001900006100000000000000000800000002000000000003000800000000070110010011000000000001100100000010011100000001110010000001001100000000000110010011";
        let killer = include_str!("../../../samples/killer.txt")
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .unwrap_or_default();
        for (kind, s) in [
            (PuzzleType::Killer, killer.trim()),
            (PuzzleType::Str8ts, STR8TS),
        ] {
            let a = crate::core::puzzle::analyse(s, crate::core::puzzle::TypeHint::Auto).unwrap();
            assert_eq!(a.kind, kind);
            let form = canonical(kind, &a.givens).unwrap();
            let r = rate_stored(kind, &a.givens, Some(&form)).unwrap();
            assert!(!r.bound && r.rating > 0, "{kind}: {r:?}");
            assert_eq!(rate_stored(kind, &a.givens, None), Some(r));
        }
    }
}
