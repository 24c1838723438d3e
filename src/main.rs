use std::process::ExitCode;

fn main() -> ExitCode {
    sudoku_archive::cli::huge_pages::enable();
    sudoku_archive::cli::run(sudoku_archive::cli::parse())
}
