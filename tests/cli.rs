//! The `gridsight` command end to end: outputs, JSON report, exit codes, errors, pipes.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

use common::{gridsight, ScratchDir};
use serde_json::Value;

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name)
}

fn run(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = gridsight()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch file holding `content`, in its own folder removed when dropped.
struct Scratch {
    path: PathBuf,
    _dir: ScratchDir,
}

impl Scratch {
    fn new(name: &str, content: &[u8]) -> Self {
        let dir = ScratchDir::new(&format!("cli-{name}"));
        let path = dir.join(name);
        std::fs::write(&path, content).unwrap();
        Scratch { path, _dir: dir }
    }

    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }
}

#[test]
fn gchq_prints_the_grid_and_the_url() {
    let gchq = sample("gchq.non");
    let output = run(&["solve", gchq.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 26);
    assert!(lines[..25]
        .iter()
        .all(|l| l.len() == 25 && l.chars().all(|c| c == '#' || c == '.')));
    assert_eq!(lines[0], "#######.###...#.#.#######");
    assert_eq!(lines[25], "www.gchq.gov.uk/puzz");
}

#[test]
fn json_report_has_every_field() {
    let gchq = sample("gchq.non");
    let output = run(&["solve", "--json", gchq.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["kind"], "nonogram");
    assert_eq!(
        (report["width"].as_u64(), report["height"].as_u64()),
        (Some(25), Some(25))
    );
    assert_eq!(report["unique"], true);
    assert_eq!(report["qr"], "www.gchq.gov.uk/puzz");
    assert_eq!(
        report["puzzle"]["rows"][0],
        serde_json::json!([7, 3, 1, 1, 7])
    );
    assert_eq!(report["puzzle"]["givens"].as_array().unwrap().len(), 22);
    assert_eq!(report["solution"].as_array().unwrap().len(), 25);
    assert!(report["annotated"].is_null());
    for stage in ["detect", "read", "solve", "render"] {
        assert!(report["timings_ms"][stage].is_number(), "{stage}");
    }
}

#[test]
fn sudoku_from_stdin() {
    let puzzle = std::fs::read_to_string(sample("classic.sudoku")).unwrap();
    let output = run(&["solve", "-"], Some(&puzzle));
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).lines().next(), Some("534678912"));
}

#[test]
fn several_inputs_keep_order_and_exit_with_the_largest_code() {
    let ambiguous = Scratch::new("two.non", b"width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n");
    let gchq = sample("gchq.non");
    let output = run(
        &[
            "solve",
            "--json",
            gchq.to_str().unwrap(),
            ambiguous.path(),
            "/nonexistent.non",
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    let reports: Vec<Value> = text(&output.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(reports.len(), 3);
    assert_eq!(reports[0]["unique"], true);
    assert_eq!(reports[1]["unique"], false);
    assert_eq!(reports[2]["error"]["stage"], "input");
    assert_eq!(reports[2]["input"], "/nonexistent.non");
}

#[test]
fn exit_codes_follow_the_contract() {
    let cases: [(&str, &[u8], i32, &str); 7] = [
        (
            "ambiguous.non",
            b"width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n",
            1,
            "more than one solution",
        ),
        (
            "unsolvable.non",
            b"width 2\nheight 1\nrows\n2\ncolumns\n1\n0\n",
            4,
            "no solution",
        ),
        (
            "clash.sudoku",
            b"11000000000000000000000000000000000000000000000000000000000000000000000000000000\n0",
            4,
            "no solution",
        ),
        ("pool.txt", b"3,3 1,0,0", 4, "no solution"),
        ("nowayout.jump", b"2", 4, "no solution"),
        ("several-exits.jump", b"1", 0, ""),
        (
            "junk.txt",
            b"this is no puzzle",
            2,
            "cannot tell the puzzle kind",
        ),
    ];
    for (name, content, code, message) in cases {
        let file = Scratch::new(name, content);
        let output = run(&["solve", file.path()], None);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{name}: {}",
            text(&output.stderr)
        );
        assert!(
            text(&output.stderr).contains(message),
            "{name}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn malformed_files_of_each_format_name_line_and_column() {
    let cases: [(&str, &[u8], &str); 6] = [
        (
            "bad.non",
            b"width 2\nheight 1\nrows\n1,?\ncolumns\n1\n1\n",
            "line 4, column 3",
        ),
        (
            "short.non",
            b"width 2\nheight 2\nrows\n1\ncolumns\n1\n1\n",
            "line 3, column 1",
        ),
        ("bad-line.txt", b"5,5 3,0,1 1,9,1", "line 1, column 11"),
        ("bad-grid.txt", b"1 . .\n. x .\n. . .\n", "line 2, column 3"),
        ("bad.sudoku", &[b'1'; 82], "line 1, column 82"),
        ("bad.jump", b"1 2 3\n4 5\n", "line 2, column 1"),
    ];
    for (name, content, position) in cases {
        let file = Scratch::new(name, content);
        let kind = match name {
            "bad.jump" => "jump",
            "bad.sudoku" => "sudoku",
            "bad-grid.txt" | "bad-line.txt" => "nurikabe",
            _ => "nonogram",
        };
        let output = run(&["solve", "--kind", kind, file.path()], None);
        assert_eq!(output.status.code(), Some(2), "{name}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(position), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: one line: {stderr}");
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    }
}

#[test]
fn unreadable_and_oversized_inputs() {
    let binary = Scratch::new("binary.non", &[0xff, 0xfe, 0x00, 0x80]);
    let output = run(&["solve", binary.path()], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("not UTF-8"));
    let huge = Scratch::new("huge.sudoku", &vec![b'0'; 5 << 20]);
    let output = run(&["solve", huge.path()], None);
    assert_eq!(output.status.code(), Some(5));
    assert!(text(&output.stderr).contains("larger than the limit"));
}

#[test]
fn bad_usage_is_exit_two() {
    assert_eq!(run(&["solve"], None).status.code(), Some(2));
    assert_eq!(
        run(&["solve", "--kind", "kakuro", "x"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&["solve", "--timeout", "-1", "x"], None).status.code(),
        Some(2)
    );
    assert_eq!(run(&["frobnicate"], None).status.code(), Some(2));
    assert_eq!(run(&["--help"], None).status.code(), Some(0));
}

#[test]
fn time_limit_is_exit_five() {
    let Some(shared) = common::shared("time limit") else {
        return;
    };
    let knotty = shared.join("nonogram/unsolved/knotty.non");
    let output = run(
        &["solve", "--timeout", "0.2", knotty.to_str().unwrap()],
        None,
    );
    if output.status.code() == Some(0) {
        return; // solved within the limit: nothing to time out
    }
    assert_eq!(output.status.code(), Some(5), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("time limit"));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let gchq = sample("gchq.non");
    let args: Vec<&str> = std::iter::once("solve")
        .chain(std::iter::repeat_n(gchq.to_str().unwrap(), 300))
        .collect();
    let mut child = gridsight()
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(text(&output.stderr).is_empty(), "{}", text(&output.stderr));
}

#[test]
fn gchq_solution_image_decodes_to_the_url() {
    let gchq = sample("gchq.non");
    let picture = Scratch::new("gchq-solution.png", b"");
    let output = run(
        &[
            "solve",
            gchq.to_str().unwrap(),
            "--solution-image",
            picture.path(),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let page = image::open(picture.path()).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare_from_greyscale(
        page.width() as usize,
        page.height() as usize,
        |x, y| page.get_pixel(x as u32, y as u32).0[0],
    );
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code on the page");
    assert_eq!(grids[0].decode().unwrap().1, "www.gchq.gov.uk/puzz");
}

#[test]
fn solution_image_takes_one_input() {
    let gchq = sample("gchq.non");
    let gchq = gchq.to_str().unwrap();
    let output = run(
        &[
            "solve",
            gchq,
            gchq,
            "--solution-image",
            "/tmp/never-written.png",
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(!Path::new("/tmp/never-written.png").exists());
}

#[test]
fn explain_prints_numbered_steps_then_the_solution() {
    let sudoku = sample("classic.sudoku");
    let output = run(&["solve", "--explain", sudoku.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines.len() > 9);
    let (steps, grid) = lines.split_at(lines.len() - 9);
    assert_eq!(grid[0], "534678912");
    assert!(steps[0].trim_start().starts_with("1. r"), "{}", steps[0]);
    assert!(steps.iter().any(|l| l.contains("only place for")));

    let output = run(
        &["solve", "--explain", "--json", sudoku.to_str().unwrap()],
        None,
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let explanation = report["explanation"].as_array().unwrap();
    assert_eq!(explanation.len(), steps.len());
    assert!(explanation[0]["text"].is_string());
    assert_eq!(explanation[0]["cells"][0].as_array().unwrap().len(), 3);
    assert_eq!(explanation[0]["guess"], false);
    // Without --explain the report has no explanation.
    let output = run(&["solve", "--json", sudoku.to_str().unwrap()], None);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report.get("explanation").is_none());
}

#[test]
fn hint_prints_one_step_from_the_puzzle_or_a_state() {
    let gchq = sample("gchq.non");
    let output = run(&["solve", "--hint", gchq.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("row ") || stdout.starts_with("column "));

    // A Sudoku with its first row filled in: the hint is about another cell.
    let mut state = std::fs::read_to_string(sample("classic.sudoku")).unwrap();
    state.replace_range(0..9, "534678912");
    let state = Scratch::new("state.sudoku", state.as_bytes());
    let sudoku = sample("classic.sudoku");
    let output = run(
        &[
            "solve",
            "--hint",
            "--json",
            "--state",
            state.path(),
            sudoku.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let hint: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(hint["kind"], "sudoku");
    let cell = &hint["hint"]["cells"][0];
    assert_ne!(cell[0], 0, "{hint}");
}

#[test]
fn bad_states_are_one_line_errors() {
    let sudoku = sample("classic.sudoku");
    let cases: [(&str, &[u8], i32, &str); 3] = [
        ("bad.state", b"12x", 2, "--state: line 1, column 3"),
        (
            "short.state",
            b"123",
            2,
            "--state: line 1, column 1: a Sudoku has 81 cells",
        ),
        ("clash.state", &[b'9'; 81], 4, "no solution agrees"),
    ];
    for (name, content, code, message) in cases {
        let state = Scratch::new(name, content);
        let output = run(
            &[
                "solve",
                "--hint",
                "--state",
                state.path(),
                sudoku.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(output.status.code(), Some(code), "{name}");
        let stderr = text(&output.stderr);
        assert!(stderr.contains(message), "{name}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
    }
    let missing = run(
        &[
            "solve",
            "--hint",
            "--state",
            "/nonexistent",
            sudoku.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read /nonexistent"));
    // --state needs --hint, and --hint one file.
    let output = run(&["solve", "--state", "x", sudoku.to_str().unwrap()], None);
    assert_eq!(output.status.code(), Some(2));
    let s = sudoku.to_str().unwrap();
    let output = run(&["solve", "--hint", s, s], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("one puzzle file"));
}

#[test]
fn animate_writes_a_gif_and_keeps_the_output_and_exit_code() {
    let gchq = sample("gchq.non");
    let gchq = gchq.to_str().unwrap();
    let gif = Scratch::new("gchq-solve.gif", b"");
    let plain = run(&["solve", gchq], None);
    let output = run(&["solve", gchq, "--animate", gif.path()], None);
    assert_eq!(output.status.code(), plain.status.code());
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        output.stdout, plain.stdout,
        "the animation adds nothing to stdout"
    );
    let bytes = std::fs::read(gif.path()).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));

    // Recorded for the animation only: the report has no explanation unless asked for.
    let output = run(&["solve", gchq, "--json", "--animate", gif.path()], None);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert!(report.get("explanation").is_none());
}

#[test]
fn animate_takes_one_input_and_writes_nothing_otherwise() {
    let gchq = sample("gchq.non");
    let gchq = gchq.to_str().unwrap();
    let target = std::env::temp_dir().join(format!("gridsight-never-{}.gif", std::process::id()));
    let target = target.to_str().unwrap();
    let output = run(&["solve", gchq, gchq, "--animate", target], None);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("--animate"));
    assert!(!Path::new(target).exists());

    // A folder that does not exist: exit 2, and no temporary file is left behind.
    let missing = std::env::temp_dir().join(format!("gridsight-missing-{}", std::process::id()));
    let inside = missing.join("x.gif");
    let output = run(
        &["solve", gchq, "--animate", inside.to_str().unwrap()],
        None,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(!missing.exists());
}

#[test]
fn the_readme_documents_every_solve_option() {
    let help = text(&run(&["solve", "--help"], None).stdout);
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|line| !line.starts_with("| option |"))
        .take_while(|line| line.starts_with('|'))
        .collect();
    let mut options: Vec<&str> = help
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|word| word.starts_with("--") && word.len() > 2 && *word != "--help")
        .collect();
    options.sort_unstable();
    options.dedup();
    assert!(options.len() >= 12, "{options:?}");
    for option in options {
        assert!(
            table
                .iter()
                .any(|row| row.starts_with(&format!("| `{option}"))
                    || row.contains(&format!(", `{option}"))),
            "{option} is not in the README's table of solve options"
        );
    }
}

#[test]
fn generate_makes_only_the_kinds_and_presets_named_each_photo_as_photo_makes_it() {
    let dir = ScratchDir::new("cli-generate-selected");
    let out = dir.join("set");
    let output = run(
        &[
            "generate",
            out.to_str().unwrap(),
            "--count",
            "2",
            "--seed",
            "300017",
            "--kind",
            "sudoku",
            "--kind",
            "nonogram",
            "--preset",
            "photo",
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    // The kinds in `generate`'s own order (nonogram before Sudoku), whatever order they are
    // named in, each photo seeded by its place.
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".jpg"))
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["00000-nonogram-photo.jpg", "00001-sudoku-photo.jpg"]
    );
    // Its first photo, at seed 300017, is the end-to-end test's whose puzzle is saved in
    // tests/data/generated, byte for byte.
    let photo = dir.join("photo.jpg");
    let puzzle = common::test_data("generated/nonogram-23x22.non");
    let output = run(
        &[
            "photo",
            puzzle.to_str().unwrap(),
            "--preset",
            "photo",
            "--seed",
            "300017",
            "-o",
            photo.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(
        std::fs::read(out.join("00000-nonogram-photo.jpg")).unwrap()
            == std::fs::read(&photo).unwrap(),
        "generate's photo differs from photo's"
    );
}
