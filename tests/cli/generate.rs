//! `completions`, `man` and `--version`: what every command-line tool has,
//! generated from the parser's own definitions.

use std::process::{Command, Stdio};

use crate::util::{Workdir, sample};

/// Every subcommand the parser knows, read from the top-level help.
fn subcommands(w: &Workdir) -> Vec<String> {
    let help = w.run(&["--help"]);
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

#[test]
fn bash_completion_is_valid_bash_and_knows_every_command_and_flag() {
    let w = Workdir::new();
    let script = w.run(&["completions", "bash"]);
    let commands = subcommands(&w);
    assert!(commands.len() >= 9, "{commands:?}");
    for c in &commands {
        assert!(script.contains(c.as_str()), "bash completion misses {c}");
    }
    for flag in [
        "--dedup",
        "--max-rejects",
        "--stdin-name",
        "--representatives",
    ] {
        assert!(script.contains(flag), "bash completion misses {flag}");
    }
    let path = w.write("complete.bash", &script);
    let status = Command::new("bash")
        .arg("-n")
        .arg(&path)
        .stdin(Stdio::null())
        .status()
        .expect("run bash");
    assert!(status.success(), "bash -n rejects the completion script");
}

#[test]
fn zsh_and_fish_completions_name_every_command() {
    let w = Workdir::new();
    let commands = subcommands(&w);
    for shell in ["zsh", "fish"] {
        let script = w.run(&["completions", shell]);
        for c in &commands {
            assert!(script.contains(c.as_str()), "{shell} completion misses {c}");
        }
    }
    assert!(
        w.run(&["completions", "zsh"])
            .starts_with("#compdef sudoku-archive")
    );
}

#[test]
fn an_unknown_shell_is_refused_with_the_known_ones() {
    let w = Workdir::new();
    let out = w.output(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bash") && err.contains("zsh") && err.contains("fish"),
        "{err}"
    );
}

#[test]
fn the_man_page_has_a_section_for_every_command_with_its_flags() {
    let w = Workdir::new();
    let page = w.run(&["man"]);
    assert!(page.contains(".TH sudoku-archive 1"), "{}", &page[..200]);
    for c in subcommands(&w) {
        let heading = format!(".SH \"SUDOKU-ARCHIVE {}\"", c.to_uppercase());
        assert!(page.contains(&heading), "the man page has no {heading}");
    }
    // roff escapes the dashes of flags.
    for flag in [
        "\\-\\-dedup",
        "\\-\\-max\\-rejects",
        "\\-\\-representatives",
    ] {
        assert!(page.contains(flag), "the man page misses {flag}");
    }
}

#[test]
fn version_names_the_archive_schema_and_the_sqlite_it_writes() {
    let w = Workdir::new();
    let version = w.run(&["--version"]);
    w.import(&[&sample("classic.txt")], &[]);
    let db = w.db();
    let schema: i64 = db
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("user_version");
    let sqlite: String = db
        .query_row("SELECT sqlite_version()", [], |r| r.get(0))
        .expect("sqlite_version");
    assert_eq!(
        version.trim(),
        format!(
            "sudoku-archive {} (archive schema {schema}, SQLite {sqlite})",
            env!("CARGO_PKG_VERSION")
        )
    );
}
