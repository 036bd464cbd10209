//! The `gridsight` command: argument handling around the library's pipeline.

mod cli;

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Parser;

use cli::{Cli, Command, DirectoryArgs, GenerateArgs, PhotoArgs, RenderArgs, SolveArgs};
use gridsight::error::EXIT_USAGE;
use gridsight::kinds::{self, Kind};
use gridsight::limits::Deadline;
use gridsight::photo::{dataset, photograph, PhotoOptions, Preset};
use gridsight::render::{render, Answer, Drawable, FontName, RenderOptions, Style};
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
        Command::Render(args) => render_page(&args).map(|()| 0),
        Command::Photo(args) => simulate_photo(&args).map(|()| 0),
        Command::Samples(args) => write_samples(&args).map(|()| 0),
        Command::Generate(args) => generate(&args).map(|()| 0),
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
    if several && args.solution_image.is_some() {
        bail!("--solution-image takes a single input");
    }
    if several && args.animate.is_some() {
        bail!("--animate takes a single input");
    }
    let mut stdout = io::stdout().lock();
    let mut exit_code = 0;
    for file in &args.files {
        let path = file.to_string_lossy();
        // The animation is drawn from the solver's trace, so it needs one recorded.
        let record = args.explain || args.animate.is_some();
        let mut reports = gridsight::solve_text_file(&path, kind, limit, record);
        if let Some(gif) = &args.animate {
            if reports.len() > 1 {
                bail!(
                    "--animate takes a single puzzle; {path} holds {}",
                    reports.len()
                );
            }
            if let Some(Ok((puzzle, solved))) = reports.first().map(|r| &r.result) {
                write_animation(puzzle.as_ref(), solved, gif)?;
            }
        }
        for report in &mut reports {
            if let (false, Ok((_, solved))) = (args.explain, &mut report.result) {
                // Recorded only for the animation: the output stays as without --explain.
                solved.trace = None;
            }
        }
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
                        if let Some(path) = &args.solution_image {
                            write_solution_image(puzzle.as_ref(), solved, path)?;
                        }
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

/// Draws the solution the solve stage found as a clean page.
fn write_solution_image(
    puzzle: &dyn kinds::Puzzle,
    solved: &gridsight::solve::Solved,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let drawable = Drawable::from_puzzle(puzzle)?;
    let answer = Answer::from_solution(solved.solution.as_ref())
        .context("this kind's solution cannot be drawn")?;
    let page = render(&drawable, Some(&answer), &RenderOptions::default())?;
    gridsight::output::write_png(&page.image, path)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Draws the solve as an animated GIF from the solver's trace.
fn write_animation(
    puzzle: &dyn kinds::Puzzle,
    solved: &gridsight::solve::Solved,
    path: &std::path::Path,
) -> anyhow::Result<()> {
    let trace = solved
        .trace
        .as_ref()
        .context("the solver recorded no steps to animate")?;
    let frames = gridsight::animate::frames(puzzle, solved.solution.as_ref(), trace)?;
    gridsight::output::write_gif(frames, path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Time allowed for solving a puzzle that is drawn solved or photographed with its truth.
const RENDER_SOLVE_LIMIT: Duration = Duration::from_secs(60);

/// The first puzzle in a puzzle text file, ready to draw.
fn read_drawable(path: &str) -> anyhow::Result<Drawable> {
    let text = gridsight::input::read_text(path)?;
    let puzzles = gridsight::input::parse_puzzles(&text, None).with_context(|| path.to_string())?;
    let first = puzzles
        .first()
        .with_context(|| format!("{path}: no puzzle in the file"))?;
    Ok(Drawable::from_puzzle(first.as_ref())?)
}

fn render_page(args: &RenderArgs) -> anyhow::Result<()> {
    let puzzle = read_drawable(&args.file)?;
    let answer = if args.solution {
        Some(puzzle.solve(&Deadline::after(RENDER_SOLVE_LIMIT))?)
    } else {
        None
    };
    let style = Style::from_name(&args.style).context("unknown style")?;
    let font = FontName::from_name(&args.font).context("unknown font")?;
    let options = RenderOptions {
        style,
        font,
        cell: args.cell,
        thick_every_five: true,
    };
    let page = render(&puzzle, answer.as_ref(), &options)?;
    page.image
        .save(&args.output)
        .with_context(|| format!("cannot write {}", args.output.display()))
}

fn simulate_photo(args: &PhotoArgs) -> anyhow::Result<()> {
    let puzzle = read_drawable(&args.file)?;
    let answer = puzzle.solve(&Deadline::after(RENDER_SOLVE_LIMIT))?;
    let preset = Preset::from_name(&args.preset).context("unknown preset")?;
    let photo = photograph(
        &puzzle,
        &answer,
        &PhotoOptions {
            preset,
            seed: args.seed,
            megapixels: None,
        },
    )?;
    Ok(dataset::write_photo(&args.output, &photo)?)
}

fn write_samples(args: &DirectoryArgs) -> anyhow::Result<()> {
    let written = dataset::write_samples(&args.directory)?;
    let total: usize = written.iter().map(|w| w.jpeg_bytes).sum();
    eprintln!(
        "{} samples, {:.1} MiB of JPEG, and contact-sheet.png in {}",
        written.len(),
        total as f64 / 1048576.0,
        args.directory.display()
    );
    Ok(())
}

fn generate(args: &GenerateArgs) -> anyhow::Result<()> {
    let written = dataset::generate(&args.directory, args.count, args.seed)?;
    eprintln!(
        "{} photos with truth in {}",
        written.len(),
        args.directory.display()
    );
    Ok(())
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
