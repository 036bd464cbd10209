//! The `gridsight` command: argument handling around the library's pipeline.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Parser;

use cli::{Cli, Command, SolveArgs};
use gridsight::error::EXIT_USAGE;
use gridsight::kinds::{self, Kind};
use gridsight::report;

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
    if args.hint {
        return hint(args, kind, limit);
    }
    let several = args.files.len() > 1;
    let mut stdout = io::stdout().lock();
    let mut exit_code = 0;
    for file in &args.files {
        let path = file.to_string_lossy();
        let reports = gridsight::solve_text_file(&path, kind, limit, args.explain);
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
                        if let Some(trace) = &solved.trace {
                            stdout.write_all(report::trace_text(trace).as_bytes())?;
                        }
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

/// `--hint`: the next step for one puzzle, from its `--state` when given.
fn hint(args: &SolveArgs, kind: Option<&dyn Kind>, limit: Option<Duration>) -> anyhow::Result<u8> {
    let [file] = args.files.as_slice() else {
        bail!("--hint takes one puzzle file");
    };
    let path = file.to_string_lossy();
    let result = gridsight::input::read_text(&path)
        .and_then(|text| gridsight::input::parse_puzzles(&text, kind))
        .and_then(|mut puzzles| {
            if puzzles.len() != 1 {
                return Ok(Err(puzzles.len()));
            }
            let puzzle = puzzles.remove(0);
            let state = match &args.state {
                Some(state) => Some(gridsight::input::read_text(&state.to_string_lossy())?),
                None => None,
            };
            let step = gridsight::solve::hint(puzzle.as_ref(), state.as_deref(), limit)?;
            Ok(Ok((puzzle, step)))
        });
    let mut stdout = io::stdout().lock();
    match result {
        Ok(Ok((puzzle, step))) => {
            if args.json {
                let hint = serde_json::json!({
                    "input": path,
                    "kind": puzzle.kind(),
                    "hint": report::step_json(&step),
                });
                writeln!(stdout, "{hint}")?;
            } else {
                writeln!(stdout, "{}", step.text)?;
            }
            stdout.flush()?;
            Ok(0)
        }
        Ok(Err(count)) => bail!("{path}: --hint takes one puzzle, the file holds {count}"),
        Err(error) => {
            eprintln!("gridsight: {path}: {error}");
            Ok(error.exit_code())
        }
    }
}
