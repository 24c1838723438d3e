//! Any bytes, read as a (lossy) string, into the dispatcher with every type
//! hint: no panic, and every accepted string re-encodes to a string that
//! analyses (as the same type) to the same encoding and the same puzzle.
//! The proptest suite `tests/properties.rs` checks the same with a case limit.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_archive::core::puzzle::{Analysis, PuzzleType, TypeHint, analyse};

/// Layout and sums of a Killer identity: a packed Killer cannot tell a given
/// digit from a deduced one, so re-analysis may add givens after them.
fn cages(givens: &str) -> &str {
    match givens.match_indices(',').nth(1) {
        Some((i, _)) => &givens[..i],
        None => givens,
    }
}

fn round_trip(input: &str, a: &Analysis) {
    let b = match analyse(&a.encoding, TypeHint::Only(a.kind)) {
        Ok(b) => b,
        Err(e) => panic!("{input:?} encodes to {:?}, rejected: {e}", a.encoding),
    };
    assert_eq!(b.encoding, a.encoding, "encoding of {input:?} moved");
    assert_eq!(b.status.count(), a.status.count(), "status of {input:?}");
    assert_eq!(
        b.status.solution(),
        a.status.solution(),
        "solution of {input:?}"
    );
    match a.kind {
        PuzzleType::Killer => assert_eq!(cages(&b.givens), cages(&a.givens), "{input:?}"),
        _ => {
            assert_eq!(b.givens, a.givens, "givens of {input:?}");
            assert_eq!(b.clues, a.clues, "clues of {input:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    for hint in [
        TypeHint::Auto,
        TypeHint::Only(PuzzleType::Sudoku),
        TypeHint::Only(PuzzleType::Killer),
        TypeHint::Only(PuzzleType::Str8ts),
    ] {
        match analyse(&s, hint) {
            Ok(a) => round_trip(&s, &a),
            Err(e) => assert!(!e.code().is_empty() && !e.to_string().is_empty()),
        }
    }
});
