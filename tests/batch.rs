//! A batch run end to end: `gridsight solve samples/ corrupt.jpg` reports every input exactly
//! once and in order, each as it would be alone, solved photos as their truth says, the corrupt
//! photo as an input error, a summary that counts them, and the largest exit code.
//!
//! It asserts what each sample gives today against the same sample run alone, not a fixed list
//! of which samples read, so it keeps holding as reading improves.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::gridsight;
use serde_json::Value;

/// Long enough for any sample that solves; short enough that a misread puzzle the solver cannot
/// finish costs the test seconds, not minutes. Both runs use it, so their codes agree.
const TIMEOUT: &str = "20";

fn solve(inputs: &[&Path]) -> Output {
    gridsight()
        .args(["solve", "--json", "--no-image", "--timeout", TIMEOUT])
        .args(inputs)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The report without its timings, which differ from run to run.
fn untimed(report: &Value) -> Value {
    let mut report = report.clone();
    if let Some(object) = report.as_object_mut() {
        object.remove("timings_ms");
    }
    report
}

/// The inputs in the samples folder, as a folder argument expands to them: every file but the
/// truth files, sorted.
fn sample_inputs(samples: &Path) -> Vec<PathBuf> {
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(samples)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.to_string_lossy();
            !name.ends_with(".truth.json") && !name.ends_with(".solved.png")
        })
        .collect();
    inputs.sort();
    inputs
}

/// Every file in `folder` with its length and modification time.
fn folder_state(folder: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime)> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|entry| {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            (entry.path(), meta.len(), meta.modified().unwrap())
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_batch_over_the_samples_and_a_corrupt_photo_reports_each_and_exits_with_the_largest_code() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let scratch = std::env::temp_dir().join(format!("gridsight-batch-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let corrupt = scratch.join("corrupt.jpg");
    // A JPEG's signature, then bytes no decoder can make a picture of.
    std::fs::write(&corrupt, b"\xff\xd8\xff\xe0 this is not the rest of a JPEG").unwrap();

    // Compared, not assumed empty: the README's first command leaves an annotated photo there.
    let samples_before = folder_state(&samples);
    let batch = solve(&[&samples, &corrupt]);
    let stderr = text(&batch.stderr);
    let reports: Vec<Value> = text(&batch.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let mut inputs = sample_inputs(&samples);
    inputs.push(corrupt.clone());
    assert!(inputs.len() >= 14, "{} inputs", inputs.len());
    assert_eq!(
        reports.len(),
        inputs.len(),
        "one report per input: {stderr}"
    );

    let mut by_code = [0usize; 6];
    for (input, report) in inputs.iter().zip(&reports) {
        let name = input.to_str().unwrap();
        assert_eq!(report["input"], name);
        let alone = solve(&[input]);
        let code = alone.status.code().unwrap();
        by_code[usize::try_from(code).unwrap()] += 1;
        let alone_report: Value = serde_json::from_slice(&alone.stdout).unwrap();
        assert_eq!(
            untimed(report),
            untimed(&alone_report),
            "{name}: the batch reports it as a run on its own does"
        );
        assert_eq!(report.get("error").is_some(), code >= 2, "{name}: {report}");
        let truth_file = input.with_extension("truth.json");
        if report.get("solution").is_some() && truth_file.exists() {
            let truth: Value =
                serde_json::from_str(&std::fs::read_to_string(&truth_file).unwrap()).unwrap();
            assert_eq!(report["kind"], truth["kind"], "{name}");
            assert_eq!(report["solution"], truth["solution"], "{name}");
        }
    }

    let last = reports.last().unwrap();
    assert_eq!(last["error"]["stage"], "input", "{last}");
    let message = last["error"]["message"].as_str().unwrap();
    assert!(message.contains("cannot decode"), "{message}");
    assert!(!message.contains('\n'), "one line: {message:?}");
    assert!(by_code[2] >= 1);
    assert!(by_code[0] >= 1, "some sample solves");

    let largest = by_code.iter().rposition(|&n| n > 0).unwrap();
    assert_eq!(batch.status.code(), Some(largest as i32), "{stderr}");
    let summary = format!(
        "gridsight: {} results: {} solved, {} ambiguous, {} unreadable, {} without a solution, {} over a limit",
        inputs.len(),
        by_code[0],
        by_code[1],
        by_code[2] + by_code[3],
        by_code[4],
        by_code[5]
    );
    assert_eq!(stderr.lines().last(), Some(summary.as_str()), "{stderr}");
    assert_eq!(
        folder_state(&samples),
        samples_before,
        "--no-image writes nothing into samples/"
    );
    std::fs::remove_dir_all(&scratch).unwrap();
}
