//! Any bytes as a text file (plain lines, and the layouts: grids,
//! delimited lines) and as a CSV file (delimiter sniffed, or a comma)
//! through the per-line pipeline (reader, extraction, analysis): no panic,
//! every rejection with a code and a message.

#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_archive::core::puzzle::TypeHint;
use sudoku_archive::input::ChunkReader;
use sudoku_archive::input::csv_file::CsvReader;
use sudoku_archive::input::layout::TextLayout;
use sudoku_archive::input::text::TextReader;
use sudoku_archive::pipeline::process::{Outcome, Settings, process};

fn run(mut reader: impl ChunkReader) {
    // A read error is reported by the CLI, not a crash.
    while let Ok(Some(chunk)) = reader.next_chunk() {
        for item in &chunk.items {
            let settings = Settings {
                hint: TypeHint::Auto,
                canonical: true,
            };
            // No archive: every line is analysed, none looked up as stored.
            if let Outcome::Rejected(r) = process(&chunk, item, settings, None) {
                assert!(!r.code.is_empty() && !r.message.is_empty(), "{r:?}");
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    run(TextReader::new(data));
    // A text file as the import reads one: grids, delimited lines.
    run(TextLayout::new(data));
    // A CSV file with its delimiter sniffed, and with a comma.
    run(CsvReader::new(data, None, None));
    run(CsvReader::new(data, Some(b','), None));
});
