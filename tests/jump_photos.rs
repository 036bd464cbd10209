//! Simulated photos of round number-jump mazes (as `gridsight generate` makes them) read
//! exactly: the jump solver accepts any way out, so only a reading with every digit right
//! may be trusted, and these photos once came out with a digit misread (a blurred 2 taken for
//! a 3 and trusted) or refused for too many unsure digits.

mod common;

use common::{photographed_and_solved, test_data};
use serde_json::Value;

/// The report of reading a photo of the maze `name` (in `tests/data/jump`) and its truth.
fn photograph_and_read(name: &str, preset: &str, seed: u64) -> (Value, Value) {
    photographed_and_solved(&test_data(&format!("jump/{name}")), preset, seed)
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
