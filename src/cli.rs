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
    /// Read a puzzle from a photo and print it in its text format, to check or correct by hand.
    Read(ReadArgs),
    /// Measure reading over a folder of photos with ground truth (NAME.truth.json or imageN.dat).
    Eval(EvalArgs),
    /// Draw a puzzle file as a printed page (PNG), or its solution with --solution.
    Render(RenderArgs),
    /// Simulate a phone photo of a puzzle file's printed page: NAME.jpg plus NAME.truth.json.
    Photo(PhotoArgs),
    /// Write the curated sample set (the one committed in samples/) and its contact sheet.
    Samples(DirectoryArgs),
    /// Write a larger generated set of photos with ground truth, for training and evaluation.
    Generate(GenerateArgs),
}

#[derive(Debug, clap::Args)]
pub struct ReadArgs {
    /// A photo or scan (JPEG or PNG).
    #[arg(value_name = "IMAGE")]
    pub image: PathBuf,

    /// Read the grid as this kind instead of guessing it.
    #[arg(long, value_parser = ["nonogram", "nurikabe", "jump", "sudoku"])]
    pub kind: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Folders of photos with their truth files.
    #[arg(required = true, value_name = "DIR")]
    pub directories: Vec<PathBuf>,

    /// Print the summary as JSON (one object per kind and preset, one per line).
    #[arg(long)]
    pub json: bool,

    /// List every photo that was not read exactly.
    #[arg(long)]
    pub failures: bool,

    /// Before the summary, print one line per photo: what `solve` would have made of it (read
    /// exactly, answered right, answered wrong, not answered) and how long it took; with --json
    /// one object per photo (with "photo", "outcome", "ms" and "why") before the summaries.
    #[arg(long)]
    pub per_photo: bool,

    /// Read each photo without telling its kind, as `solve` does without --kind (by default
    /// each photo is read as its truth's kind); a kind taken wrongly counts as a misread.
    #[arg(long)]
    pub detect_kind: bool,
}

#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// Puzzle text file.
    #[arg(value_name = "FILE")]
    pub file: String,

    /// Where to write the PNG page.
    #[arg(short, long, value_name = "PAGE.png")]
    pub output: PathBuf,

    /// Draw the solved puzzle instead of the blank one.
    #[arg(long)]
    pub solution: bool,

    /// Print style: plain (nonogram clues as text, jump digits only) or boxed (clues and jump
    /// cells in boxes; `magazine` and `digits` are aliases).
    #[arg(long, default_value = "plain", value_parser = ["plain", "boxed", "magazine", "digits"])]
    pub style: String,

    /// Typeface.
    #[arg(long, default_value = "sans", value_parser = ["sans", "sans-bold", "serif", "serif-bold", "wide-sans", "wide-sans-bold", "wide-serif", "mono", "mono-bold"])]
    pub font: String,

    /// Cell size in pixels.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(8..=200))]
    pub cell: u32,
}

#[derive(Debug, clap::Args)]
pub struct PhotoArgs {
    /// Puzzle text file (the truth needs the puzzle, so not an image).
    #[arg(value_name = "FILE")]
    pub file: String,

    /// Where to write the JPEG; the truth goes beside it as NAME.truth.json.
    #[arg(short, long, value_name = "NAME.jpg")]
    pub output: PathBuf,

    /// How hard a photo to simulate.
    #[arg(long, default_value = "photo", value_parser = ["scan", "photo", "hard"])]
    pub preset: String,

    /// The same seed gives the same bytes.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Photo size in megapixels (1 to 12); by default the preset picks one from its range.
    #[arg(long, value_parser = parse_megapixels)]
    pub megapixels: Option<f32>,

    /// Print the page's column rules through the puzzle too, as a pen stroke or a fold would
    /// cross it: a harder page than print layouts make, to test a reader against.
    #[arg(long)]
    pub rules_through_puzzle: bool,

    /// Keep the preset's framing and blur even where the puzzle's numbers come out too small
    /// or too blurred for a person to read (by default the camera moves closer and the blur is
    /// held within reading): to test that a reader refuses such a photo.
    #[arg(long)]
    pub past_reading: bool,
}

fn parse_megapixels(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(mp) if (1.0..=12.0).contains(&mp) => Ok(mp),
        _ => Err(format!("`{text}` is not a size from 1 to 12 megapixels")),
    }
}

#[derive(Debug, clap::Args)]
pub struct DirectoryArgs {
    /// Output folder.
    #[arg(value_name = "OUTDIR")]
    pub directory: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Output folder.
    #[arg(value_name = "OUTDIR")]
    pub directory: PathBuf,

    /// How many photos to write (kinds and presets in turn).
    #[arg(long)]
    pub count: usize,

    /// Seed of the first photo; the others follow.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// Only photos of this kind (repeat for several); every kind when not given.
    #[arg(long, value_parser = ["nonogram", "nurikabe", "jump", "sudoku"])]
    pub kind: Vec<String>,

    /// Only photos at this preset (repeat for several); every preset when not given.
    #[arg(long, value_parser = ["scan", "photo", "hard"])]
    pub preset: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// Puzzle text files (`-` for stdin), photos (JPEG, PNG) or folders of them; the kind is
    /// detected from the content.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,

    /// Treat every input as this kind instead of detecting it.
    #[arg(long, value_parser = ["nonogram", "nurikabe", "jump", "sudoku"])]
    pub kind: Option<String>,

    /// Print the JSON report instead of the solution text (one object per line for several inputs).
    #[arg(long)]
    pub json: bool,

    /// Where to write a photo's annotated copy (one input only); by default NAME.solved.png
    /// beside each photo.
    #[arg(short, long, value_name = "FILE.png")]
    pub output: Option<PathBuf>,

    /// Show on stderr what each stage found in a photo: lattice size, orientation, reads with
    /// low confidence, corrections.
    #[arg(short, long)]
    pub verbose: bool,

    /// Write the pictures of what detection and reading saw in each photo into this folder, as
    /// NAME.1-threshold.png (ink mask), NAME.2-outlines.png (outlines tried, lattice found),
    /// NAME.3-rectified.png (grid warped upright, lattice drawn) and NAME.4-cells.png (every
    /// cell with its reading and confidence); as far as the photo got.
    #[arg(long, value_name = "DIR")]
    pub debug_dir: Option<PathBuf>,

    /// Do not write annotated photos.
    #[arg(long, conflicts_with = "output")]
    pub no_image: bool,

    /// Also write the clean rendered solution to this PNG (one input only).
    #[arg(long, value_name = "FILE.png")]
    pub solution_image: Option<PathBuf>,

    /// Also write an animated GIF of the grid being solved, from the puzzle as given to the
    /// solution: one frame per round of the solver's deductions (one input only).
    #[arg(long, value_name = "FILE.gif", conflicts_with = "hint")]
    pub animate: Option<PathBuf>,

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
