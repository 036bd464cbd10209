//! The command-line definition (clap). Parsing only; `main` acts on it.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// Solve printed logic puzzles: nonogram, Nurikabe, number-jump maze, Sudoku.
#[derive(Debug, Parser)]
#[command(name = "gridsight", version, about, after_help = EXIT_CODES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

pub const EXIT_CODES: &str = "Exit codes: 0 solved uniquely, 1 several solutions (first shown), 2 bad usage or \
unreadable input, 3 no puzzle found in an image, 4 no solution, 5 time or size limit reached. With several \
inputs, the largest.";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzle files and print their solutions.
    Solve(SolveArgs),
}

#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Puzzle text files (`-` for stdin); the kind is detected from the content.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Treat every input as this kind instead of detecting it.
    #[arg(long, value_parser = ["nonogram", "nurikabe", "jump", "sudoku"])]
    pub kind: Option<String>,

    /// Print the JSON report instead of the solution text (one object per line for several inputs).
    #[arg(long)]
    pub json: bool,

    /// Print the solver's deductions, one numbered line per step, before the solution (with
    /// --json, an `explanation` array in the report).
    #[arg(long, conflicts_with = "hint")]
    pub explain: bool,

    /// Print only the next deduction a person could make, not the solution (one puzzle file).
    #[arg(long)]
    pub hint: bool,

    /// With --hint: a partly solved grid to continue from, in the solution text format with `?`
    /// for open cells (Sudoku: digits, 0 open; jump maze: the path so far as `R C` lines).
    #[arg(long, value_name = "FILE", requires = "hint")]
    pub state: Option<PathBuf>,

    /// Give up solving one puzzle after this many seconds (exit code 5); 0 means no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
}
