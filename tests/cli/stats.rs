//! `stats`: counts a user can trust.

use crate::util::{Workdir, sample};

#[test]
fn stats_counts_types_clues_solutions_imports_and_rejects() {
    let w = Workdir::new();
    w.import(&[&sample("classic.txt"), &sample("bad.txt")], &[]);
    let s: serde_json::Value = serde_json::from_str(&w.run(&["stats", "--json"])).unwrap();
    assert_eq!(
        s["puzzles"].as_i64(),
        Some(w.count("SELECT count(*) FROM puzzles"))
    );
    let by_clues: i64 = s["by_clues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["count"].as_i64().unwrap())
        .sum();
    assert_eq!(by_clues, s["puzzles"].as_i64().unwrap());
    let rejects: i64 = s["rejects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["count"].as_i64().unwrap())
        .sum();
    assert_eq!(rejects, w.count("SELECT count(*) FROM rejects"));
    assert_eq!(s["imports"].as_array().unwrap().len(), 1);
    let text = w.run(&["stats"]);
    for word in [
        "by type and clues",
        "by solutions",
        "two or more",
        "rejects",
        "imports",
    ] {
        assert!(text.contains(word), "{word} missing:\n{text}");
    }
}
