use super::propagate::masks;
use super::*;
use crate::core::grid::UNITS;
use crate::core::grid::box_of;
use crate::core::grid::cell_at;
use crate::core::grid::{CELLS, Cell};
use crate::core::mask::Digit;
use crate::core::mask::Mask;
use crate::core::vocabulary::PuzzleType;
use crate::core::vocabulary::Status;
use krazydad::{FIRST500, Row, rows};
use proptest::prelude::*;

/// The legacy real example of docs/formats.md "Killer Sudoku".
const EXAMPLE: &str = "212112111212112223213331443231221241134412231124133132322122212344411312111411312,171510200026110000000000000000000011000011000017160000001101060000090016110017000900000900001800160800040010160000001100002100001800001800140000080000000000000000";

fn krazydad() -> Vec<Row> {
    rows(FIRST500).collect()
}

fn solution_fits_cages(k: &Killer, solution: &str) -> bool {
    let digits = solution.as_bytes();
    k.cages().iter().all(|cage| {
        let ds: Vec<u8> = cage
            .cells()
            .iter()
            .map(|c| digits[c.index()] - b'0')
            .collect();
        let set: Mask = ds.iter().filter_map(|&d| Digit::new(d)).collect();
        set.len() as usize == ds.len()
            && ds.iter().map(|&d| u32::from(d)).sum::<u32>() == u32::from(cage.sum())
    })
}

fn is_sudoku(solution: &str) -> bool {
    let b = solution.as_bytes();
    b.len() == 81
        && UNITS.iter().all(|u| {
            u.iter()
                .map(|&c| Digit::from_ascii(b[c as usize]))
                .collect::<Option<Mask>>()
                == Some(Mask::ALL)
        })
}

#[test]
fn the_formats_md_example_is_valid_unique_and_its_solution_fits_every_cage() {
    let k = Killer::parse(EXAMPLE).unwrap();
    let a = k.analysis();
    assert_eq!(a.kind, PuzzleType::Killer);
    assert_eq!(a.clues, k.cages().len() as u32);
    let Status::Unique(solution) = &a.status else {
        panic!("status {:?}", a.status)
    };
    assert!(is_sudoku(solution), "{solution}");
    assert!(solution_fits_cages(&k, solution));
    assert_eq!(k.to_legacy(), EXAMPLE);
    assert_eq!(analyse(EXAMPLE).unwrap(), a);
}

#[test]
fn the_analysis_encoding_reads_back_as_the_same_cages_and_candidates() {
    let a = analyse(EXAMPLE).unwrap();
    let back = Killer::parse(&a.encoding).unwrap();
    assert_eq!(back.to_packed(), a.encoding);
    assert_eq!(back.cages(), Killer::parse(EXAMPLE).unwrap().cages());
    assert_eq!(back.cells, a.candidates);
    assert_eq!(a.shading[0], 1);
    assert_eq!(
        a.shading.iter().max().map(|&n| usize::from(n)),
        Some(back.cages().len())
    );
}

#[test]
fn the_identity_is_the_greedy_layout_and_the_sums_at_first_cells() {
    // Nine row cages: greedy colours alternate 1,2,1,2...; sums 45 at column 1.
    let layout: String = (0..9)
        .map(|r| if r % 2 == 0 { "111111111" } else { "222222222" })
        .collect();
    let sums: String = (0..9).map(|_| format!("45{}", "00".repeat(8))).collect();
    let s = format!("{},{}", layout.replace('1', "3").replace('2', "5"), sums);
    assert_eq!(
        Killer::parse(&s).unwrap().identity(),
        format!("{layout},{sums}")
    );
    let k = Killer::parse(&s).unwrap();
    assert_eq!(k.clues(), 9);
    // A placed digit adds the third part and counts as a clue.
    let mut cells = [Mask::EMPTY; CELLS];
    cells[4] = Digit::new(7).unwrap().mask();
    let packed = format::write_packed(&k.colour, &k.clue, &cells);
    let k = Killer::parse(&packed).unwrap();
    assert_eq!(
        k.identity(),
        format!("{layout},{sums},{}7{}", "0".repeat(4), "0".repeat(76))
    );
    assert_eq!(k.clues(), 10);
    assert!(k.analysis().given[4]);
}

#[test]
fn a_sum_written_away_from_the_first_cell_is_accepted_and_written_back_there() {
    // The example's first cage (colour 2 at r1c1) also holds r2c1; move its 17 there.
    let k = Killer::parse(EXAMPLE).unwrap();
    assert_eq!(k.cage_of(cell_at(0)), k.cage_of(cell_at(9)));
    let mut b = EXAMPLE.as_bytes().to_vec();
    b[82..84].copy_from_slice(b"00");
    b[82 + 18..84 + 18].copy_from_slice(b"17");
    let moved = String::from_utf8(b).unwrap();
    let m = Killer::parse(&moved).unwrap();
    assert_eq!(m.to_legacy(), moved);
    assert_eq!(m.identity(), k.identity());
    assert_eq!(m.cages(), k.cages());
}

#[test]
fn each_rejection_has_its_reason_code() {
    let rows_layout: String = (0..9)
        .map(|r| char::from(b'1' + (r % 2) as u8).to_string().repeat(9))
        .collect();
    let row_sums: String = (0..9).map(|_| format!("45{}", "00".repeat(8))).collect();
    let rows = format!("{rows_layout},{row_sums}");
    assert!(Killer::parse(&rows).is_ok());
    let at = |s: &str, pos: usize, with: &str| {
        let mut t = s.to_string();
        t.replace_range(pos..pos + with.len(), with);
        t
    };
    // Packed rows: colour 1 = field 0, colour 2 = field 1, sum 45 at column 1.
    let packed_row = |colour: u16| {
        let mut out = String::new();
        crate::core::base32::encode_into(45 << 3 | (colour - 1), 2, &mut out);
        for _ in 0..8 {
            crate::core::base32::encode_into(colour - 1, 2, &mut out);
        }
        out
    };
    let packed_first: String = (0..9).map(|r| packed_row(1 + r % 2)).collect();
    let packed = format!("{packed_first},{}", "00".repeat(81));
    assert!(Killer::parse(&packed).is_ok());
    let five = |i: usize| {
        let mut cells = [Mask::EMPTY; CELLS];
        cells[0] = Digit::new(5).unwrap().mask();
        cells[i] = Digit::new(5).unwrap().mask();
        let k = Killer::parse(&packed).unwrap();
        format::write_packed(&k.colour, &k.clue, &cells)
    };
    let cases: Vec<(&str, String, &str)> = vec![
        ("no comma", "123".into(), "length"),
        ("short second part", format!("{rows_layout},45"), "length"),
        ("legacy letter colour", at(&rows, 3, "x"), "character"),
        ("legacy letter sum", at(&rows, 100, "x"), "character"),
        ("packed letter w", at(&packed, 170, "w"), "character"),
        ("legacy colour 6", at(&rows, 0, "6"), "colour"),
        ("legacy colour 0", at(&rows, 80, "0"), "colour"),
        ("packed colour field 5", at(&packed, 2, "05"), "colour"),
        ("legacy sum 46", at(&rows, 82, "46"), "sum"),
        ("packed sum 46", at(&packed, 0, "bg"), "sum"),
        ("packed odd candidates", at(&packed, 163, "01"), "mask"),
        ("a cage with no sum", at(&rows, 82, "00"), "cage-sum"),
        ("a cage with two sums", at(&rows, 84, "01"), "cage-sum"),
        (
            "a cage of 18 cells",
            at(
                &at(&at(&rows, 9, &"1".repeat(9)), 18, &"3".repeat(9)),
                100,
                "00",
            ),
            "cage-size",
        ),
        (
            "a single cell with sum 10",
            format!("{},{}", at(&rows_layout, 1, "2"), at(&row_sums, 2, "10")),
            "cage-range",
        ),
        ("sums totalling 404", at(EXAMPLE, 82, "16"), "total"),
        ("a digit twice in a row and cage", five(1), "repeated-digit"),
        ("a digit twice in a column", five(9), "repeated-digit"),
        ("a digit twice in a box", five(10), "repeated-digit"),
    ];
    for (name, s, code) in &cases {
        match Killer::parse(s) {
            Ok(_) => panic!("{name}: accepted"),
            Err(e) => {
                assert_eq!(e.code(), *code, "{name}: {e}");
                assert!(e.to_string().starts_with("killer"), "{name}: {e}");
                assert_eq!(e.to_string(), e.to_string().to_lowercase(), "{name}: {e}");
            }
        }
    }
}

#[test]
fn a_repeated_digit_names_its_unit_or_else_its_cage() {
    let k = Killer::parse(EXAMPLE).unwrap();
    let with_fives = |a: usize, b: usize| {
        let mut cells = [Mask::EMPTY; CELLS];
        cells[a] = Digit::new(5).unwrap().mask();
        cells[b] = Digit::new(5).unwrap().mask();
        let s = format::write_packed(&k.colour, &k.clue, &cells);
        Killer::parse(&s).unwrap_err().to_string()
    };
    let units = [
        (0, 8, "r1c9", "row 1"),
        (0, 72, "r9c1", "column 1"),
        (0, 20, "r3c3", "box 1"),
        (80, 60, "r9c9", "box 9"),
    ];
    for (a, b, later, place) in units {
        let (a, b) = (a.min(b), a.max(b));
        let earlier = Cell::new(a).unwrap();
        assert_eq!(
            with_fives(a, b),
            format!("killer packed: digit 5 at {later} repeats the one at {earlier} in {place}")
        );
    }
    // Two cells of one cage that share no row, column or box.
    let (cage, a, b) = (k.cages.iter())
        .find_map(|cage| {
            let cells: Vec<usize> = cage.cells().iter().map(|c| c.index()).collect();
            cells.iter().find_map(|&a| {
                let apart =
                    |b: &&usize| a / 9 != **b / 9 && a % 9 != **b % 9 && box_of(a) != box_of(**b);
                cells
                    .iter()
                    .find(apart)
                    .map(|&b| (cage, a.min(b), a.max(b)))
            })
        })
        .expect("the example has a cage across boxes");
    assert_eq!(
        with_fives(a, b),
        format!(
            "killer packed: digit 5 at {} repeats the one at {} in cage at {}",
            Cell::new(b).unwrap(),
            Cell::new(a).unwrap(),
            cage.first()
        )
    );
}

#[test]
fn messages_name_the_cage_the_cell_and_the_value() {
    let msg = |s: &str| Killer::parse(s).unwrap_err().to_string();
    let mut b = EXAMPLE.to_string();
    b.replace_range(82..84, "00");
    assert_eq!(msg(&b), "killer legacy: cage at r1c1 (4 cells) has no sum");
    let mut b = EXAMPLE.to_string();
    b.replace_range(5..6, "7");
    assert_eq!(
        msg(&b),
        "killer legacy: cell 5 (r1c6) has colour \"7\", expected 1-5"
    );
    let mut b = EXAMPLE.to_string();
    b.replace_range(84..85, "z");
    assert_eq!(
        msg(&b),
        "killer legacy: character 84 (cell 1, r1c2) is 'z', expected a decimal digit"
    );
    assert_eq!(
        msg("1,2"),
        "killer: 1,1 characters, expected 81,162 (legacy) or 162,162 (packed)"
    );
}

#[test]
fn from_cages_rejects_bad_ids() {
    let row = krazydad().swap_remove(0);
    let mut ids = row.ids;
    ids[0] = 60;
    assert_eq!(
        Killer::from_cages(&ids, &row.sums).unwrap_err().code(),
        "cage-id"
    );
    let mut sums = row.sums.clone();
    sums.push(0);
    assert_eq!(
        Killer::from_cages(&row.ids, &sums).unwrap_err().to_string(),
        format!("killer cages: cage id {} has no cell", row.sums.len())
    );
    // Give r9c9 the id of the cage at r1c1: that id becomes two regions.
    let mut ids = row.ids;
    ids[80] = ids[0];
    assert_eq!(
        Killer::from_cages(&ids, &row.sums).unwrap_err().code(),
        "cage-id"
    );
}

/// A loose layout built from a solution grid (so solvable) whose count
/// does not settle within the Killer's own node limit: it gives up, and
/// is never called unsolvable because the search stopped early.
#[test]
fn a_count_past_the_killer_node_limit_gives_up() {
    let s = "122222111112122113133442333133444433122411123222111222134444111114124111111144111,334500000000280000000000030000000038001800350000000000000000000000000000002100003500001400000000000000000000380740000000450000000000000500000000000000000000000000";
    assert_eq!(analyse(s).unwrap().status, Status::GaveUp);
}

#[test]
fn propagation_reports_where_a_contradiction_is() {
    // Rows as cages, a 5 placed in r1c1 and a 5 forced... use two placed
    // digits that leave r1c3 with nothing: place 1..8 around it in its row.
    let k = Killer::parse(EXAMPLE).unwrap();
    let mut cells = [Mask::EMPTY; CELLS];
    // The example's r1c1 + r2c1 cage sums to 17 (8+9); a 1 in r1c1 cannot fit.
    cells[0] = Digit::new(1).unwrap().mask();
    let s = format::write_packed(&k.colour, &k.clue, &cells);
    let a = analyse(&s).unwrap();
    let Status::Contradiction(msg) = &a.status else {
        panic!("{:?}", a.status)
    };
    assert!(msg.starts_with("killer: "), "{msg}");
    assert_eq!(a.status.count(), 0);
}

#[test]
fn a_contradiction_keeps_the_board_as_read_so_its_encoding_reanalyses_to_itself() {
    // A 1 in r1c1, whose cage sums to 17 (8+9): propagation stops part way,
    // at a board that is no fixpoint and has a cell with no candidate (which
    // would be written "00", read back as "anything").
    let k = Killer::parse(EXAMPLE).unwrap();
    let mut cells = [Mask::EMPTY; CELLS];
    cells[0] = Digit::new(1).unwrap().mask();
    let s = format::write_packed(&k.colour, &k.clue, &cells);
    let a = analyse(&s).unwrap();
    assert!(
        matches!(a.status, Status::Contradiction(_)),
        "{:?}",
        a.status
    );
    let read = *Killer::parse(&s).unwrap().board().cand();
    assert_eq!(a.candidates, masks(&read));
    let b = analyse(&a.encoding).unwrap();
    assert_eq!(b.encoding, a.encoding);
    assert_eq!(b.status, a.status);
    assert_eq!(b.candidates, a.candidates);
}

#[test]
fn every_krazydad_row_converts_reads_back_and_has_its_one_solution() {
    let mut several = 0;
    for (n, row) in krazydad().iter().enumerate() {
        let k = Killer::from_cages(&row.ids, &row.sums).unwrap_or_else(|e| panic!("row {n}: {e}"));
        let legacy = k.to_legacy();
        let back = Killer::parse(&legacy).unwrap_or_else(|e| panic!("row {n}: {e}"));
        assert_eq!(back.cages(), k.cages(), "row {n}");
        assert_eq!(back.cages().len(), row.sums.len(), "row {n}");
        for (c, &id) in row.ids.iter().enumerate() {
            let cage = &back.cages()[back.cage_of(cell_at(c))];
            assert_eq!(row.sums[usize::from(id)], cage.sum(), "row {n} cell {c}");
        }
        match back.solve() {
            Status::Unique(s) => assert_eq!(s, row.solved, "row {n}"),
            Status::Multiple => several += 1,
            other => panic!("row {n}: {other:?}"),
        }
    }
    assert_eq!(several, 0);
}

#[test]
fn the_committed_krazydad_legacy_file_is_the_conversion_of_the_csv() {
    let file = include_str!("../../../tests/data/killer/krazydad_intermediate_first500_legacy.txt");
    let converted: Vec<String> = krazydad()
        .iter()
        .map(|row| Killer::from_cages(&row.ids, &row.sums).unwrap().to_legacy())
        .collect();
    assert_eq!(file.lines().collect::<Vec<_>>(), converted);
}

proptest! {
    #[test]
    fn recolouring_keeps_the_identity(perm in Just([1u8, 2, 3, 4, 5]).prop_shuffle()) {
        let k = Killer::parse(EXAMPLE).unwrap();
        let colour = k.colour.map(|c| perm[usize::from(c - 1)]);
        let recoloured = format::write_legacy(&colour, &k.clue);
        prop_assert_eq!(Killer::parse(&recoloured).unwrap().identity(), k.identity());
        let by_ids = Killer::from_cages(&k.cage_of, &k.cages.iter().map(Cage::sum).collect::<Vec<_>>()).unwrap();
        prop_assert_eq!(by_ids.identity(), k.identity());
    }

    #[test]
    fn legal_strings_round_trip_and_keep_the_solution(
        row in 0usize..500,
        perm in Just([1u8, 2, 3, 4, 5]).prop_shuffle(),
        place in prop::collection::vec(0usize..9, 81),
        noise in prop::collection::vec(0u16..512, 81),
        upper in any::<bool>(),
    ) {
        let row = krazydad::row(FIRST500.lines().nth(row + 1).unwrap());
        let k = Killer::from_cages(&row.ids, &row.sums).unwrap();
        let colour = k.colour.map(|c| perm[usize::from(c - 1)]);
        // Each sum at some cell of its cage; candidates always hold the solution's
        // digit, so a single candidate is that digit and nothing repeats.
        let mut clue = [0u8; CELLS];
        for (i, cage) in k.cages().iter().enumerate() {
            clue[cage.cells()[place[i] % cage.cells().len()].index()] = cage.sum();
        }
        let solution: Vec<u16> = row.solved.bytes().map(|d| 1 << (d - b'1')).collect();
        let cells: [Mask; CELLS] = std::array::from_fn(|c| {
            let m = if noise[c] == 0 { 0 } else { noise[c] | solution[c] };
            Mask::new(m).unwrap()
        });
        let legacy = format::write_legacy(&colour, &clue);
        let packed = format::write_packed(&colour, &clue, &cells);
        let l = Killer::parse(&legacy).unwrap();
        prop_assert_eq!(l.to_legacy(), legacy);
        prop_assert_eq!(l.identity(), k.identity());
        let read = if upper { packed.to_uppercase() } else { packed.clone() };
        let p = Killer::parse(&read).unwrap();
        prop_assert_eq!(p.to_packed(), packed);
        let a = p.analysis();
        for (c, (m, &digit)) in a.candidates.iter().zip(&solution).enumerate() {
            prop_assert!(m.bits() & digit != 0, "cell {} lost its digit", c);
        }
        prop_assert_eq!(a.status, Status::Unique(row.solved.clone()));
    }
}
