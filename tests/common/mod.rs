//! Shared helpers for the end-to-end tests: where `../shared` is, and reading puzzles from it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use gridsight::kinds::Puzzle;

/// `../shared` beside the checkout, or `None` (with a note on stderr) when it is absent, as in a
/// user's clone: tests over it then skip.
pub fn shared(test: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping {test}: ../shared is not beside this checkout");
        None
    }
}

/// The files in `dir` whose names end in `suffix`, sorted, leaving out `*.solution.txt`.
pub fn files(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(suffix) && !name.ends_with(".solution.txt")
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no {suffix} files in {}", dir.display());
    paths
}

/// The one puzzle in a text file, its kind detected from the content.
pub fn puzzle(path: &Path) -> Box<dyn Puzzle> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut puzzles = gridsight::input::parse_puzzles(&text, None)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(puzzles.len(), 1);
    puzzles.remove(0)
}

/// The gridsight binary built for these tests.
pub fn gridsight() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_gridsight"))
}

/// The file `name` under `tests/data`.
pub fn test_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

/// A scratch folder under the system's temporary folder, named for the test and this process,
/// removed with all it holds when dropped (also when the test fails).
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    pub fn new(label: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("gridsight-{label}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        ScratchDir(dir)
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A photo made by `gridsight photo`, its truth beside it, in a scratch folder of its own that
/// is removed when the photo is dropped.
pub struct Photo {
    pub path: PathBuf,
    _dir: ScratchDir,
}

/// How `gridsight photo` is asked to photograph a page: its preset, whether the page's column
/// rules run through the puzzle, and whether the numbers may come out past reading. A preset
/// name alone is a page laid out as in print, photographed so a person could read it.
#[derive(Debug, Clone, Copy)]
pub struct Shot<'a> {
    pub preset: &'a str,
    pub rules_through_puzzle: bool,
    pub past_reading: bool,
}

impl<'a> From<&'a str> for Shot<'a> {
    fn from(preset: &'a str) -> Self {
        Shot {
            preset,
            rules_through_puzzle: false,
            past_reading: false,
        }
    }
}

/// A photo with preset `preset` of a page whose column rules run through the puzzle, as a pen
/// stroke or a fold would cross it (`gridsight photo --rules-through-puzzle`).
pub fn ruled(preset: &str) -> Shot<'_> {
    Shot {
        preset,
        rules_through_puzzle: true,
        past_reading: false,
    }
}

/// A photo with preset `preset` whose framing and blur are kept even where the puzzle's numbers
/// come out too small or blurred for a person to read (`gridsight photo --past-reading`).
pub fn past_reading(preset: &str) -> Shot<'_> {
    Shot {
        preset,
        rules_through_puzzle: false,
        past_reading: true,
    }
}

impl std::fmt::Display for Shot<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ruled = if self.rules_through_puzzle {
            " ruled"
        } else {
            ""
        };
        let past = if self.past_reading {
            " past reading"
        } else {
            ""
        };
        write!(f, "{}{ruled}{past}", self.preset)
    }
}

/// Photographs the puzzle file `source` with `gridsight photo` (`shot`: a preset, or [`ruled`];
/// `seed`: the same seed gives the same bytes) into a scratch folder.
pub fn photographed<'a>(source: &Path, shot: impl Into<Shot<'a>>, seed: u64) -> Photo {
    let shot = shot.into();
    let preset = shot.preset;
    let name = source.file_name().unwrap().to_string_lossy();
    let label = match (shot.rules_through_puzzle, shot.past_reading) {
        (true, true) => "ruled-past-",
        (true, false) => "ruled-",
        (false, true) => "past-",
        (false, false) => "",
    };
    let dir = ScratchDir::new(&format!("photographed-{name}-{label}{preset}-{seed}"));
    let path = dir.join(&format!("{name}-{preset}-{seed}.jpg"));
    let mut command = gridsight();
    command
        .args(["photo", source.to_str().unwrap(), "--preset", preset])
        .args(["--seed", &seed.to_string(), "-o", path.to_str().unwrap()]);
    if shot.rules_through_puzzle {
        command.arg("--rules-through-puzzle");
    }
    if shot.past_reading {
        command.arg("--past-reading");
    }
    let made = command.output().unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    Photo { path, _dir: dir }
}

/// Reads `photo` with `solve --json --no-image` and returns the run's output and the truth.
pub fn solved(photo: &Photo) -> (std::process::Output, serde_json::Value) {
    let read = gridsight()
        .args([
            "solve",
            "--json",
            "--no-image",
            photo.path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    (read, truth_beside(&photo.path))
}

/// The truth written beside the photo at `path` (`NAME.truth.json`).
pub fn truth_beside(path: &Path) -> serde_json::Value {
    let truth_path = path.with_extension("truth.json");
    serde_json::from_str(&std::fs::read_to_string(truth_path).unwrap()).unwrap()
}

/// The report of `solve --json --no-image` on the image at `path`, which must succeed.
pub fn solved_report(path: &Path) -> serde_json::Value {
    let read = gridsight()
        .args(["solve", "--json", "--no-image", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        read.status.code(),
        Some(0),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&read.stderr)
    );
    serde_json::from_slice(&read.stdout).unwrap()
}

/// Photographs the puzzle file `source` (see [`photographed`]), reads the photo back with
/// `solve --json --no-image`, which must succeed, and returns the report and the photo's
/// truth. The scratch files are removed.
pub fn photographed_and_solved<'a>(
    source: &Path,
    shot: impl Into<Shot<'a>>,
    seed: u64,
) -> (serde_json::Value, serde_json::Value) {
    let photo = photographed(source, shot, seed);
    (solved_report(&photo.path), truth_beside(&photo.path))
}

/// Photographs the puzzle file `source` (see [`photographed`]) and reads the photo back with
/// `solve --json --no-image`, which must refuse it as unreadable (exit code 3) with an error
/// message containing `reason`. The scratch files are removed.
pub fn assert_photographed_and_refused<'a>(
    source: &Path,
    shot: impl Into<Shot<'a>>,
    seed: u64,
    reason: &str,
) {
    let shot = shot.into();
    let photo = photographed(source, shot, seed);
    let (read, _) = solved(&photo);
    assert_refused(
        &read,
        &format!("{} {shot} {seed}", source.display()),
        reason,
    );
}

/// Asserts that the `solve --json` run `read` refused its photo as unreadable (exit code 3)
/// with an error message containing `reason`; `context` names the photo when it did not.
pub fn assert_refused(read: &std::process::Output, context: &str, reason: &str) {
    let report = String::from_utf8_lossy(&read.stdout).to_string();
    assert_eq!(read.status.code(), Some(3), "{context}: {report}");
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    let message = report["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains(reason), "{message}");
}
