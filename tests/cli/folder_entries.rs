//! A folder's entries that are plainly not text (an image, a copy of an
//! archive) are left out with a warning like an unreadable entry, the rest
//! imported; named on the command line, such a file is refused before
//! anything is written (issue 36, item 10's rule for folders).

use crate::util::{PUZZLE_ROWS, Workdir, sample};

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A nightly folder that holds an image and a copy of an archive beside
/// its puzzle files: each is named and left out, the rest imported, and
/// the status says something was left out (issue 36 item 10's rule for
/// unreadable entries). Named on the command line, such a file is refused
/// before anything is written.
#[test]
fn a_binary_file_in_a_folder_is_left_out_with_a_warning_and_named_it_is_refused() {
    let w = Workdir::new();
    std::fs::create_dir_all(w.path("nightly/img")).unwrap();
    let text = std::fs::read(sample("classic.txt")).unwrap();
    w.write("nightly/a.txt", &text);
    w.write("nightly/img/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    w.run(&["import", "--quiet", "--db", "old.sqlite", "nightly/a.txt"]);
    std::fs::copy(w.path("old.sqlite"), w.path("nightly/old.sqlite")).unwrap();
    for (args, says) in [
        (vec!["import", "--quiet", "--json", "nightly"], "import"),
        (vec!["check", "--quiet", "nightly"], "check"),
    ] {
        let out = w.output(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{says}: {err}");
        assert!(
            err.starts_with(
                "warning: nightly/img/logo.png: binary data, not puzzle text (a NUL byte at offset 8): \
                 left out, the rest of the folder is read (--glob chooses the files read)\n\
                 warning: nightly/old.sqlite: an SQLite database, not puzzle text: left out, the rest \
                 of the folder is read (--glob chooses the files read)\n"
            ),
            "{says}: {err}"
        );
        if says == "import" {
            let summary = String::from_utf8_lossy(&out.stdout);
            assert!(summary.contains(r#""unreadable_entries":2"#), "{summary}");
        } else {
            assert!(
                err.ends_with("; 2 folder entries could not be read\n"),
                "{err}"
            );
        }
    }
    assert_eq!(
        w.strings("SELECT path FROM files"),
        ["nightly/a.txt"],
        "only the text file was read"
    );
    assert_eq!(
        w.strings_in("puzzles.sqlite", PUZZLE_ROWS),
        w.strings_in("old.sqlite", PUZZLE_ROWS)
    );
    // Named, either is refused before anything is written.
    for named in ["nightly/img/logo.png", "nightly/old.sqlite"] {
        let out = w.output(&["import", "--db", "new.sqlite", "nightly/a.txt", named]);
        assert_eq!(out.status.code(), Some(2), "{named}: {}", stderr(&out));
        assert!(stderr(&out).starts_with(&format!("sudoku-archive: {named}: ")));
        assert!(!w.path("new.sqlite").exists(), "{named}");
    }
}
