//! Finds the puzzle string in one text line: skips blank and `#` lines
//! (and a DOS end-of-file byte), strips a byte-order mark and trailing text (ratings, comments), and keeps
//! a Killer string's comma. Pure string handling, no decoding of the puzzle.

/// What a text line holds.
#[derive(Debug, PartialEq, Eq)]
pub enum Extracted<'a> {
    /// Blank or a comment: not a puzzle, not an error.
    Skip,
    /// The puzzle string (maybe a URL), without trailing fields.
    Puzzle(&'a str),
}

const BOM: char = '\u{feff}';

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, '#' | ';' | ',')
}

/// The first token of `line` as the pipeline should parse it.
///
/// Anything after the puzzle, separated by whitespace, `#`, `,` or `;`, is
/// ignored, except that a comma between an 81- or 162-character first part
/// and a 162-character second part is a Killer string's own comma. A first
/// word (up to whitespace or `;`) holding `bd=` is a URL, taken whole (its
/// `&`/`#` tails are stripped later).
pub fn puzzle_token(line: &str) -> Extracted<'_> {
    split(line, None).unwrap_or(Extracted::Skip)
}

/// The token of a line that is valid UTF-8 up to `valid` and goes on with
/// `rest` (starting at its first bad byte): `None` when the bad byte is (or
/// may be) part of the puzzle. A puzzle followed by a separator and then
/// anything at all, however encoded, is the same token as in a clean line.
pub fn puzzle_token_before_bad_bytes<'a>(valid: &'a str, rest: &[u8]) -> Option<Extracted<'a>> {
    split(valid, Some(rest))
}

/// [`puzzle_token`] of `line`, or, with `rest`, of a line that goes on with
/// those bytes; `None` if they would be part of the token.
fn split<'a>(line: &'a str, rest: Option<&[u8]>) -> Option<Extracted<'a>> {
    let whole = rest.is_none();
    let line = line.trim_start_matches(BOM).trim_start();
    // DOS's end-of-file byte (0x1A, Ctrl-Z) ends many old collections:
    // the end of the text, not a character of it.
    let line = if whole {
        line.trim_end().trim_end_matches('\u{1a}').trim_end()
    } else {
        line
    };
    if line.starts_with('#') {
        return Some(Extracted::Skip);
    }
    if line.is_empty() {
        // Not whole: the bad byte starts the token.
        return whole.then_some(Extracted::Skip);
    }
    // Where a token ends: the first separator, or the end of a whole line.
    let end_of = |s: &str, sep: fn(char) -> bool| s.find(sep).or(whole.then_some(s.len()));
    let word = end_of(line, |c| c.is_whitespace() || c == ';');
    if line[..word.unwrap_or(line.len())].contains("bd=") {
        return Some(Extracted::Puzzle(&line[..word?]));
    }
    let end = end_of(line, is_separator)?;
    if line[end..].starts_with(',') && (end == 81 || end == 162) {
        let second_part = &line[end + 1..];
        // The second part's length, counted on past the bad byte if it
        // runs into it (to an ASCII separator there).
        let second = end_of(second_part, is_separator).unwrap_or_else(|| {
            let tail = rest.unwrap_or_default();
            second_part.len()
                + tail
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || matches!(b, b'#' | b';' | b','))
                    .unwrap_or(tail.len())
        });
        if second == 162 {
            if second_part.len() < 162 {
                // The bad byte is in the Killer string's second half.
                return None;
            }
            return Some(Extracted::Puzzle(&line[..end + 1 + second]));
        }
    }
    Some(Extracted::Puzzle(&line[..end]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_comment_and_bom_lines() {
        assert_eq!(puzzle_token(""), Extracted::Skip);
        assert_eq!(puzzle_token("   \t"), Extracted::Skip);
        assert_eq!(puzzle_token("# top95"), Extracted::Skip);
        assert_eq!(puzzle_token("\u{feff}# x"), Extracted::Skip);
        assert_eq!(puzzle_token("\u{feff}123"), Extracted::Puzzle("123"));
        assert_eq!(puzzle_token("\u{1a}"), Extracted::Skip, "DOS end of file");
        assert_eq!(puzzle_token("123\u{1a}"), Extracted::Puzzle("123"));
    }

    #[test]
    fn trailing_text_is_dropped() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        for tail in [
            "",
            " 11.2",
            "\t#rating",
            "#c",
            ";x",
            ",1,2",
            "  box duplicate",
        ] {
            assert_eq!(
                puzzle_token(&format!("{p}{tail}")),
                Extracted::Puzzle(p),
                "tail {tail:?}"
            );
        }
    }

    #[test]
    fn killer_comma_is_kept_but_a_short_second_field_is_not() {
        let k = format!("{},{}", "1".repeat(81), "0".repeat(162));
        assert_eq!(puzzle_token(&format!("{k} # note")), Extracted::Puzzle(&k));
        let p = "0".repeat(81);
        assert_eq!(
            puzzle_token(&format!("{p},{}", "1".repeat(81))),
            Extracted::Puzzle(&p)
        );
    }

    #[test]
    fn before_bad_bytes_the_token_counts_only_if_a_separator_ended_it() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        fn cut(s: &str) -> Option<Extracted<'_>> {
            puzzle_token_before_bad_bytes(s, b"\xff")
        }
        for sep in [" ", "\t", " note ", "#", ";", ","] {
            assert_eq!(
                cut(&format!("{p}{sep}")),
                Some(Extracted::Puzzle(p)),
                "{sep:?}"
            );
        }
        // The bad byte is in the puzzle, or starts it, or may be its URL.
        assert_eq!(cut(p), None);
        assert_eq!(cut(&p[..40]), None);
        assert_eq!(cut("  "), None);
        assert_eq!(cut("https://x/sudoku.htm?bd=12"), None);
        // A comment stays a comment whatever follows.
        assert_eq!(cut("# note "), Some(Extracted::Skip));
        // A Killer's second half is measured past the bad byte.
        let colours = "1".repeat(81);
        let half = format!("{colours},{}", "0".repeat(100));
        let tail = |n| [&b"\xff"[..], &b"0".repeat(n), b" note"].concat();
        assert_eq!(puzzle_token_before_bad_bytes(&half, &tail(61)), None);
        assert_eq!(
            puzzle_token_before_bad_bytes(&half, &tail(60)),
            Some(Extracted::Puzzle(&colours))
        );
    }

    #[test]
    fn only_a_first_word_with_bd_is_a_url() {
        let p = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        assert_eq!(
            puzzle_token(&format!("{p}#see ?bd=1")),
            Extracted::Puzzle(p)
        );
    }

    #[test]
    fn urls_keep_their_query_and_stop_at_whitespace() {
        let u = "https://www.sudokuwiki.org/killersudoku.aspx?bd=1,2&x=#y";
        assert_eq!(puzzle_token(&format!("{u} rated 5")), Extracted::Puzzle(u));
    }
}
