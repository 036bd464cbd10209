//! The `gridsight` command: argument handling around the library's pipeline.

mod cli;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context};
use clap::Parser;

use cli::{
    Cli, Command, DirectoryArgs, EvalArgs, GenerateArgs, PhotoArgs, ReadArgs, RenderArgs, SolveArgs,
};
use gridsight::debug_images::DebugImages;
use gridsight::error::EXIT_USAGE;
use gridsight::eval::Outcome;
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
        Command::Read(args) => read_photo(&args),
        Command::Eval(args) => evaluate(&args).map(|()| 0),
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
    let inputs = gridsight::batch::expand_inputs(&args.files).context("cannot list a folder")?;
    let several = inputs.len() > 1;
    if several && args.solution_image.is_some() {
        bail!("--solution-image takes a single input");
    }
    if several && args.animate.is_some() {
        bail!("--animate takes a single input");
    }
    if several && args.output.is_some() {
        bail!("-o takes a single input; several photos each get NAME.solved.png beside them");
    }
    // The animation is drawn from the solver's trace, so it needs one recorded.
    let record = args.explain || args.animate.is_some();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut progress = Progress::new(inputs.len(), several && io::stderr().is_terminal());
    let mut stdout = io::stdout().lock();
    let mut exit_code = 0;
    gridsight::batch::run_in_order(
        &inputs,
        threads,
        |file| {
            let path = file.to_string_lossy();
            if gridsight::is_image_file(file) {
                let annotated = match (&args.output, args.no_image) {
                    (_, true) => None,
                    (Some(target), false) => Some(target.clone()),
                    (None, false) => Some(gridsight::default_annotated_path(file)),
                };
                let mut debug = args.debug_dir.as_ref().map(|_| DebugImages::default());
                let mut report = gridsight::solve_image_file(
                    &path,
                    kind,
                    limit,
                    record,
                    annotated.as_deref(),
                    debug.as_mut(),
                );
                if let (Some(dir), Some(debug)) = (&args.debug_dir, &debug) {
                    write_debug_images(&mut report, file, dir, debug);
                }
                vec![report]
            } else {
                gridsight::solve_text_file(&path, kind, limit, record)
            }
        },
        |_, mut reports| -> anyhow::Result<()> {
            if let Some(gif) = &args.animate {
                if reports.len() > 1 {
                    bail!(
                        "--animate takes a single puzzle; {} holds {}",
                        inputs[0].display(),
                        reports.len()
                    );
                }
                if let Some(Ok((puzzle, solved))) = reports.first().map(|r| &r.result) {
                    write_animation(puzzle.as_ref(), solved, gif)?;
                }
            }
            if !args.explain {
                // Recorded only for the animation: the output stays as without --explain.
                for report in &mut reports {
                    if let Ok((_, solved)) = &mut report.result {
                        solved.trace = None;
                    }
                }
            }
            progress.clear();
            for report in reports.iter().filter(|_| args.verbose) {
                for line in &report.stages {
                    eprintln!("gridsight: {}: {line}", report.input);
                }
            }
            for report in &reports {
                exit_code = exit_code.max(report.exit_code());
                progress.count(report);
                print_report(&mut stdout, args, report, several || reports.len() > 1)?;
            }
            progress.show();
            Ok(())
        },
    )?;
    progress.finish(several);
    Ok(exit_code)
}

/// Writes a photo's debug pictures into `dir`; failing that, the report becomes an output error.
fn write_debug_images(
    report: &mut report::Report,
    file: &std::path::Path,
    dir: &std::path::Path,
    debug: &DebugImages,
) {
    let name = file
        .file_stem()
        .map_or_else(|| "image".into(), |s| s.to_string_lossy());
    match gridsight::output::write_debug_images(dir, &name, debug) {
        Ok(paths) => report.stages.extend(
            paths
                .iter()
                .map(|path| format!("debug: wrote {}", path.display())),
        ),
        Err(error) => {
            report.result = Err(gridsight::Error::Output(format!(
                "cannot write debug pictures into {}: {error}",
                dir.display()
            )))
        }
    }
}

/// Prints one input's result: a JSON line, or its solution text (errors and notes on stderr).
fn print_report(
    stdout: &mut impl Write,
    args: &SolveArgs,
    report: &report::Report,
    header: bool,
) -> anyhow::Result<()> {
    if args.json {
        writeln!(stdout, "{}", report.to_json())?;
    } else {
        if header {
            writeln!(stdout, "# {}", report.input)?;
        }
        match &report.result {
            Ok((puzzle, solved)) => {
                for correction in &report.corrections {
                    eprintln!("gridsight: {}: {correction}", report.input);
                }
                if let Some(path) = &args.solution_image {
                    write_solution_image(puzzle.as_ref(), solved, path)?;
                }
                if let Some(trace) = &solved.trace {
                    stdout.write_all(report::trace_text(trace).as_bytes())?;
                }
                stdout.write_all(solved.to_text().as_bytes())?;
                if solved.ambiguous_for(puzzle.as_ref()) {
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
    Ok(())
}

/// The batch's running count, drawn on one stderr line when stderr is a terminal, and its summary.
struct Progress {
    total: usize,
    finished: usize,
    /// How many inputs ended with each exit code (0 to 5, per `FORMATS.md`).
    by_code: [usize; 6],
    visible: bool,
}

impl Progress {
    fn new(total: usize, visible: bool) -> Self {
        Progress {
            total,
            finished: 0,
            by_code: [0; 6],
            visible,
        }
    }

    fn count(&mut self, report: &report::Report) {
        self.finished += 1;
        self.by_code[usize::from(report.exit_code()).min(5)] += 1;
    }

    /// Solved (0), ambiguous (1), unreadable (2: the file, 3: no puzzle in it), without a
    /// solution (4), over a limit (5).
    fn counts(&self) -> String {
        let c = &self.by_code;
        format!(
            "{} solved, {} ambiguous, {} unreadable, {} without a solution, {} over a limit",
            c[0],
            c[1],
            c[2] + c[3],
            c[4],
            c[5]
        )
    }

    fn show(&self) {
        if self.visible {
            eprint!("\r[{}/{}] {}", self.finished, self.total, self.counts());
        }
    }

    fn clear(&self) {
        if self.visible {
            eprint!("\r\x1b[2K");
        }
    }

    /// The summary line after a batch of several inputs.
    fn finish(&self, several: bool) {
        self.clear();
        if several {
            eprintln!("gridsight: {} results: {}", self.finished, self.counts());
        }
    }
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
            megapixels: args.megapixels.map(|mp| (mp, mp)),
            rules_through_puzzle: args.rules_through_puzzle,
            past_reading: args.past_reading,
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
    // The named kinds and presets are taken in `generate`'s own order, whatever order they are
    // named in: one selection always makes one set.
    let kinds: Vec<&'static str> = dataset::KINDS
        .into_iter()
        .filter(|kind| args.kind.is_empty() || args.kind.iter().any(|k| k == kind))
        .collect();
    let presets: Vec<Preset> = Preset::ALL
        .into_iter()
        .filter(|preset| args.preset.is_empty() || args.preset.iter().any(|p| p == preset.name()))
        .collect();
    let written =
        dataset::generate_kinds(&args.directory, args.count, args.seed, &kinds, &presets)?;
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

fn read_photo(args: &ReadArgs) -> anyhow::Result<u8> {
    let path = args.image.to_string_lossy();
    let result = gridsight::solve_image(
        &args.image,
        args.kind.as_deref(),
        Some(Duration::from_secs(10)),
    )
    .and_then(|photo| {
        let corrected = photo.puzzle?;
        Ok((photo.reading, corrected.puzzle, corrected.corrections))
    });
    match result {
        Ok((reading, puzzle, corrections)) => {
            for doubt in reading.doubtful(gridsight::LOW_CONFIDENCE) {
                eprintln!("gridsight: {path}: {doubt}");
            }
            for correction in &corrections {
                eprintln!("gridsight: {path}: {correction}");
            }
            let mut stdout = io::stdout().lock();
            stdout.write_all(puzzle.to_text().as_bytes())?;
            stdout.flush()?;
            Ok(0)
        }
        Err(error) => {
            eprintln!("gridsight: {path}: {error}");
            Ok(error.exit_code())
        }
    }
}

fn evaluate(args: &EvalArgs) -> anyhow::Result<()> {
    let mut photos = Vec::new();
    for directory in &args.directories {
        photos.extend(
            gridsight::eval::images_with_truth(directory)
                .with_context(|| format!("cannot list {}", directory.display()))?,
        );
    }
    if photos.is_empty() {
        bail!("no photos with a truth file (NAME.truth.json or imageN.dat) in the folders given");
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut samples = Vec::with_capacity(photos.len());
    let limit = Some(Duration::from_secs(10));
    gridsight::batch::run_in_order(
        &photos,
        threads,
        |(image, truth)| gridsight::eval::evaluate(image, truth.clone(), limit, args.detect_kind),
        |_, sample| -> anyhow::Result<()> {
            samples.push(sample);
            Ok(())
        },
    )?;
    let mut stdout = io::stdout().lock();
    if args.failures {
        for sample in &samples {
            let Some(why) = sample.why_not_exact() else {
                continue;
            };
            let accepted = match sample.outcome() {
                Outcome::AnsweredWrong => " (accepted wrong: exit 0)",
                Outcome::AnsweredRight => " (answered right all the same: exit 0)",
                Outcome::ReadExactly | Outcome::NotAnswered => "",
            };
            eprintln!("{}: {why}{accepted}", sample.image.display());
        }
    }
    if args.per_photo {
        for sample in &samples {
            if args.json {
                writeln!(stdout, "{}", sample.to_json())?;
            } else {
                writeln!(
                    stdout,
                    "{}: {}, {:.0} ms",
                    sample.image.display(),
                    sample.outcome().name(),
                    sample.time.as_secs_f64() * 1000.0
                )?;
            }
        }
    }
    let summary = gridsight::eval::summarise(&samples);
    if args.json {
        for ((kind, preset), group) in &summary {
            writeln!(stdout, "{}", group.to_json(kind, preset))?;
        }
    } else {
        writeln!(
            stdout,
            "{:<9} {:<7} {:>6} {:>13} {:>16} {:>14} {:>9} {:>10} {:>8}",
            "kind",
            "preset",
            "photos",
            "read exactly",
            "solved correctly",
            "accepted wrong",
            "cells ok",
            "median ms",
            "max ms"
        )?;
        for ((kind, preset), group) in &summary {
            let percent = |n: usize| 100.0 * n as f64 / group.images.max(1) as f64;
            writeln!(
                stdout,
                "{:<9} {:<7} {:>6} {:>12.1}% {:>15.1}% {:>14} {:>8.2}% {:>10.0} {:>8.0}",
                kind,
                preset,
                group.images,
                percent(group.read_exactly),
                percent(group.solved_correctly),
                group.accepted_wrong,
                100.0 * group.cells_right as f64 / group.cells.max(1) as f64,
                group.median_time().as_secs_f64() * 1000.0,
                group.max_time().as_secs_f64() * 1000.0
            )?;
        }
    }
    stdout.flush()?;
    Ok(())
}
