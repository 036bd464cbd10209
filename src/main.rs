//! The `gridsight` command: argument handling around the library's pipeline.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Parser;

use cli::{Cli, Command, SolveArgs};
use gridsight::error::EXIT_USAGE;
use gridsight::kinds;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Solve(args) => solve(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) if is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gridsight: {error:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// A reader that closed our stdout (`gridsight ... | head`) ends the run quietly.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .downcast_ref::<io::Error>()
        .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

fn solve(args: &SolveArgs) -> anyhow::Result<u8> {
    let kind = args
        .kind
        .as_deref()
        .map(|name| kinds::by_name(name).context("unknown kind"))
        .transpose()?;
    if !(args.timeout.is_finite() && args.timeout >= 0.0) {
        bail!("--timeout must be a number of seconds, 0 or more");
    }
    let limit = (args.timeout > 0.0).then(|| Duration::from_secs_f64(args.timeout));
    let several = args.files.len() > 1;
    let mut stdout = io::stdout().lock();
    let mut exit_code = 0;
    for file in &args.files {
        let path = file.to_string_lossy();
        let reports = gridsight::solve_text_file(&path, kind, limit);
        for report in &reports {
            exit_code = exit_code.max(report.exit_code());
            if args.json {
                writeln!(stdout, "{}", report.to_json())?;
            } else {
                if several || reports.len() > 1 {
                    writeln!(stdout, "# {}", report.input)?;
                }
                match &report.result {
                    Ok((puzzle, solved)) => {
                        stdout.write_all(solved.to_text().as_bytes())?;
                        if !solved.unique && puzzle.ambiguity_matters() {
                            eprintln!(
                                "gridsight: {}: more than one solution; the first is shown",
                                report.input
                            );
                        }
                    }
                    Err(error) => eprintln!("gridsight: {}: {error}", report.input),
                }
            }
            stdout.flush()?;
        }
    }
    Ok(exit_code)
}
