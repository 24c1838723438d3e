//! What the commands say, word for word where a count or a length is in
//! it: one of a thing is singular, and lengths are characters, not bytes.

use crate::util::{Workdir, data};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn first_quiz() -> String {
    let text = std::fs::read_to_string(data("classic/kaggle_1m_first10k.csv")).unwrap();
    text.lines()
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn a_count_of_one_is_said_in_the_singular() {
    let w = Workdir::new();
    // Eleven rejected lines: ten are shown, and one more is counted.
    let bad: String = (1..=11).map(|i| format!("not a puzzle {i}\n")).collect();
    let f = w.write("bad.txt", bad);
    let out = w.output(&["import", "--db", "bad.sqlite", f.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(
        err.contains(
            "... and 1 more rejected line: SELECT * FROM rejected_lines WHERE import_id = 1\n"
        ),
        "{err}"
    );
    let one = w.write("one.txt", format!("{}\n", first_quiz()));
    let out = w.output(&["check", one.to_str().unwrap()]);
    assert!(
        stderr(&out).ends_with("1 line: 1 valid, 0 rejected, 0 skipped\n"),
        "{}",
        stderr(&out)
    );
    let out = w.output(&["import", "--db", "one.sqlite", one.to_str().unwrap()]);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), stderr(&out));
    assert!(
        said.contains("import 1 into one.sqlite: 1 line\n"),
        "{said}"
    );
    let stats = w.run(&["stats", "--db", "one.sqlite"]);
    assert!(
        stats.starts_with("one.sqlite: 1 puzzle from 1 accepted line\n"),
        "{stats}"
    );
}

#[test]
fn lengths_are_said_in_characters_also_under_a_forced_type() {
    let w = Workdir::new();
    // 81 characters, one of them a full-width digit (3 bytes in UTF-8).
    let q = first_quiz();
    let wide = format!("{}\u{ff11}{}", &q[..10], &q[11..]);
    let f = w.write("wide.txt", format!("{wide}\n5\n"));
    for t in ["sudoku", "killer", "str8ts"] {
        let out = w.output(&["check", "--type", t, f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stdout);
        assert!(
            err.contains(&format!(
                "wide.txt:1: {t}: '１' at character 11 is not ASCII (the string is 81 characters)\n"
            )),
            "{t}: {err}"
        );
        assert!(
            !err.contains("83 characters") && !err.contains("found 83"),
            "{t}: {err}"
        );
    }
    let out = w.output(&["check", f.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("wide.txt:2: unrecognised puzzle string: 1 character;"),
        "{said}"
    );
    // A one-character line under a forced type, in the singular too.
    for (t, says) in [
        ("killer", "wide.txt:2: killer: 1 character and no comma,"),
        ("str8ts", "wide.txt:2: str8ts: 1 character, expected 162"),
    ] {
        let out = w.output(&["check", "--type", t, f.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(says), "{t}: {said}");
    }
}
