//! Finds the puzzle string in one text line: skips blank and `#` lines,
//! strips a byte-order mark and trailing text (ratings, comments), and keeps
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
/// and a 162-character second part is a Killer string's own comma. URLs end
/// at whitespace or `;` (their `&`/`#` tails are stripped later).
pub fn puzzle_token(line: &str) -> Extracted<'_> {
    let line = line.trim_start_matches(BOM).trim();
    if line.is_empty() || line.starts_with('#') {
        return Extracted::Skip;
    }
    if line.contains("bd=") {
        let end = line
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(line.len());
        return Extracted::Puzzle(&line[..end]);
    }
    let end = line.find(is_separator).unwrap_or(line.len());
    if line[end..].starts_with(',') && (end == 81 || end == 162) {
        let rest = &line[end + 1..];
        let second = rest.find(is_separator).unwrap_or(rest.len());
        if second == 162 {
            return Extracted::Puzzle(&line[..end + 1 + second]);
        }
    }
    Extracted::Puzzle(&line[..end])
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
    fn urls_keep_their_query_and_stop_at_whitespace() {
        let u = "https://www.sudokuwiki.org/killersudoku.aspx?bd=1,2&x=#y";
        assert_eq!(puzzle_token(&format!("{u} rated 5")), Extracted::Puzzle(u));
    }
}
