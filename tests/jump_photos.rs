//! Simulated photos of round number-jump mazes (as `gridsight generate` makes them) read
//! exactly: the jump solver accepts any way out, so only a reading with every digit right
//! may be trusted, and these photos once came out with a digit misread (a blurred 2 taken for
//! a 3 and trusted) or refused for too many unsure digits.

mod common;

use std::path::{Path, PathBuf};

use common::gridsight;
use serde_json::Value;

fn maze(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/jump")
        .join(name)
}

/// Photographs the maze `name` with `preset` and `seed` into a scratch folder, reads the photo
/// back with `solve --json` and returns the report and the photo's truth.
fn photograph_and_read(name: &str, preset: &str, seed: u64) -> (Value, Value) {
    let dir = std::env::temp_dir().join(format!("gridsight-jump-photos-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let photo = dir.join(format!("{name}-{preset}-{seed}.jpg"));
    let made = gridsight()
        .args(["photo", maze(name).to_str().unwrap(), "--preset", preset])
        .args(["--seed", &seed.to_string(), "-o", photo.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let read = gridsight()
        .args(["solve", "--json", "--no-image", photo.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(
        read.status.code(),
        Some(0),
        "{name} {preset} {seed}: {}",
        String::from_utf8_lossy(&read.stderr)
    );
    let report = serde_json::from_slice(&read.stdout).unwrap();
    let truth_path = photo.with_extension("truth.json");
    let truth = serde_json::from_str(&std::fs::read_to_string(&truth_path).unwrap()).unwrap();
    for written in [&photo, &truth_path] {
        std::fs::remove_file(written).unwrap();
    }
    (report, truth)
}

#[test]
fn a_blurred_photo_of_a_maze_of_ones_and_twos_reads_exactly() {
    let (report, truth) = photograph_and_read("round-11.jump", "photo", 906);
    assert_eq!(report["kind"], "jump");
    assert_eq!(report["puzzle"], truth["puzzle"]);
    assert_eq!(report["puzzle"]["grid"][5][1], 2, "the cell once read as 3");
}

#[test]
fn a_hard_photo_of_a_large_maze_reads_exactly() {
    let (report, truth) = photograph_and_read("round-17.jump", "hard", 982);
    assert_eq!(report["kind"], "jump");
    assert_eq!(report["puzzle"], truth["puzzle"]);
}
