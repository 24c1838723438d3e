//! `completions` and `man`: shell completion scripts and the manual page,
//! generated from the same clap definitions as the parser, so they never
//! drift from the flags the binary takes. Prints to standard output only.

use std::io::Write;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;
use super::output::OutputError;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    sudoku-archive completions bash > ~/.local/share/bash-completion/completions/sudoku-archive\n  \
    sudoku-archive completions zsh > ~/.zfunc/_sudoku-archive\n  \
    sudoku-archive completions fish > ~/.config/fish/completions/sudoku-archive.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

#[derive(Debug, Args)]
#[command(after_help = "Example:\n  \
    sudoku-archive man > ~/.local/share/man/man1/sudoku-archive.1 && man sudoku-archive")]
pub struct ManArgs {}

/// The command line as the parser sees it, with the long version filled in.
pub fn command() -> clap::Command {
    Cli::command().long_version(super::long_version())
}

pub fn completions(a: CompletionsArgs) -> anyhow::Result<u8> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut command(), "sudoku-archive", &mut out);
    write_out(&out)
}

pub fn man(_: ManArgs) -> anyhow::Result<u8> {
    let mut out = Vec::new();
    let cmd = command();
    clap_mangen::Man::new(cmd.clone()).render(&mut out)?;
    // One page for the whole tool: after the top-level page, each
    // subcommand's synopsis, options and examples under a heading of its own.
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("sudoku-archive {}", sub.get_name());
        let man = clap_mangen::Man::new(sub.clone().name(name.clone()).bin_name(&name));
        writeln!(out, ".SH \"{}\"", name.to_uppercase())?;
        man.render_synopsis_section(&mut out)?;
        man.render_description_section(&mut out)?;
        man.render_options_section(&mut out)?;
        man.render_extra_section(&mut out)?;
    }
    write_out(&out)
}

fn write_out(bytes: &[u8]) -> anyhow::Result<u8> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(OutputError::from)?;
    Ok(0)
}
