//! Simulated nonogram photos whose clue numbers used to be read wrongly, each made with
//! `gridsight photo` from a puzzle file in `tests/data` (the same seed gives the same bytes) and
//! read exactly by `gridsight solve`: a page's column rule running down a column's clue band,
//! and small blurred clue digits read surely as others, which only the disagreeing row and
//! column totals give away.

mod common;

use std::path::{Path, PathBuf};

use common::gridsight;
use serde_json::Value;

/// Photographs `tests/data/PUZZLE` under the photo preset with `seed` into a scratch folder and
/// returns the photo's path (its truth beside it).
fn photographed(puzzle: &str, seed: u64) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gridsight-clue-photos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let photo = dir.join(format!("{puzzle}-{seed}.jpg"));
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(puzzle);
    let output = gridsight()
        .args([
            "photo",
            "--preset",
            "photo",
            "--seed",
            &seed.to_string(),
            "-o",
        ])
        .arg(&photo)
        .arg(&source)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    photo
}

/// The JSON report of solving `photo`, and its truth.
fn solved(photo: &Path) -> (Value, Value) {
    let output = gridsight()
        .args(["solve", "--json", "--no-image"])
        .arg(photo)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report = serde_json::from_slice(&output.stdout).unwrap();
    let truth = std::fs::read_to_string(photo.with_extension("truth.json")).unwrap();
    (report, serde_json::from_str(&truth).unwrap())
}

#[test]
fn a_column_rule_running_down_a_clue_band_does_not_hide_its_numbers() {
    // The page's column rule runs down column 10's clue band ("10 3"), through both numbers.
    let (report, truth) = solved(&photographed("nonogram-21x14.non", 70));
    assert_eq!(report["puzzle"], truth["puzzle"]);
    assert_eq!(report["solution"], truth["solution"]);
    assert!(report.get("corrections").is_none(), "{report}");
}

#[test]
fn clue_digits_misread_surely_are_corrected_by_the_row_and_column_totals() {
    // Blurred 1s in rows 3 and 9 read as 8s with confidence over 0.9, too sure to be among the
    // least sure numbers; the totals differ by 21 and three changes make them agree.
    let (report, truth) = solved(&photographed("nonogram-15x19.non", 6692));
    assert_eq!(report["puzzle"], truth["puzzle"]);
    assert_eq!(report["solution"], truth["solution"]);
    assert!(report["corrections"]
        .as_array()
        .is_some_and(|c| !c.is_empty()));
}
