//! Shows where a nonogram's clue reading goes wrong on generated photos with truth:
//! `cargo run --release --example clue_debug -- [--truth-outline] [--probabilities]
//! FILE_OR_DIR...`. For each nonogram photo it prints the lattice size, then every row or column
//! whose clues read differ from the truth (truth -> read, with each number's confidence and its
//! two likeliest alternatives; with `--probabilities` up to eight, each with its probability,
//! as the correctors weigh them), and a tally of the kinds of mistake. With `--truth-outline`
//! the grid is read inside the truth's grid corners instead of the outline found in the photo,
//! to measure the clue reading apart from finding the grid.

mod common;

use std::collections::BTreeMap;

use gridsight::read::clues::ClueRead;
use gridsight::read::Reading;
use serde_json::Value;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let truth_outline = args.iter().any(|a| a == "--truth-outline");
    let probabilities = args.iter().any(|a| a == "--probabilities");
    args.retain(|a| a != "--truth-outline" && a != "--probabilities");
    let photos = common::photos(&args, |file| {
        common::is_jpeg(file) && file.to_string_lossy().contains("nonogram")
    });
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for photo in &photos {
        let truth_path = photo.with_extension("truth.json");
        let Ok(text) = std::fs::read_to_string(&truth_path) else {
            continue;
        };
        let truth: Value = serde_json::from_str(&text).expect("truth JSON");
        let lines = |key: &str| -> Vec<Vec<u32>> {
            truth["puzzle"][key]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|l| {
                            l.as_array()
                                .unwrap()
                                .iter()
                                .map(|n| n.as_u64().unwrap() as u32)
                                .collect()
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (rows, columns) = (lines("rows"), lines("columns"));
        let name = photo.file_name().unwrap().to_string_lossy().into_owned();
        let read = if truth_outline {
            let corner = |i: usize| {
                let point = &truth["grid_corners_upright"][i];
                (
                    point[0].as_f64().unwrap_or(0.0),
                    point[1].as_f64().unwrap_or(0.0),
                )
            };
            let corners = [corner(0), corner(1), corner(2), corner(3)];
            gridsight::read_image_in_outline(photo, Some("nonogram"), corners)
        } else {
            gridsight::read_image(photo, Some("nonogram"))
        };
        let read = match read {
            Ok(Reading::Nonogram(read)) => read,
            Ok(_) => {
                println!("{name}: not read as a nonogram");
                *tally.entry("not a nonogram").or_default() += 1;
                continue;
            }
            Err(error) => {
                println!("{name}: {error}");
                *tally.entry("no grid").or_default() += 1;
                continue;
            }
        };
        let (rr, rc) = (read.clues.rows.len(), read.clues.columns.len());
        if rr != rows.len() || rc != columns.len() {
            println!(
                "{name}: read {rr}x{rc} lines, truth {}x{} (origin {:?}, turns {})",
                rows.len(),
                columns.len(),
                read.origin,
                read.quarter_turns
            );
            *tally.entry("wrong line count").or_default() += 1;
            continue;
        }
        let mut wrong = Vec::new();
        let mut compare = |label: &str, truth: &[Vec<u32>], read: &[Vec<ClueRead>]| {
            for (i, (t, r)) in truth.iter().zip(read).enumerate() {
                let values: Vec<u32> = r.iter().map(|c| c.value).collect();
                if &values == t {
                    continue;
                }
                let kind = match values.len().cmp(&t.len()) {
                    std::cmp::Ordering::Less => "number missed",
                    std::cmp::Ordering::Greater => "number extra",
                    std::cmp::Ordering::Equal => "value misread",
                };
                *tally.entry(kind).or_default() += 1;
                let shown: Vec<String> = r
                    .iter()
                    .map(|c| {
                        let alts: Vec<String> = c
                            .alternatives
                            .iter()
                            .take(if probabilities { 8 } else { 2 })
                            .map(|a| match probabilities {
                                true => format!("{}:{:.3}", a.0, a.1),
                                false => a.0.to_string(),
                            })
                            .collect();
                        format!("{}({:.2};{})", c.value, c.confidence, alts.join("/"))
                    })
                    .collect();
                wrong.push(format!(
                    "  {label} {}: {kind}: {:?} -> {}",
                    i + 1,
                    t,
                    shown.join(" ")
                ));
            }
        };
        compare("row", &rows, &read.clues.rows);
        compare("column", &columns, &read.clues.columns);
        let outcome = match read.correct(None) {
            Ok((puzzle, corrections)) => {
                let exact = puzzle.to_json()["rows"] == truth["puzzle"]["rows"]
                    && puzzle.to_json()["columns"] == truth["puzzle"]["columns"];
                format!("corrected {} -> exact {exact}", corrections.len())
            }
            Err(error) => error.to_string(),
        };
        println!(
            "{name}: {}x{} origin {:?} turns {}: {} wrong lines; {outcome}",
            rows.len(),
            columns.len(),
            read.origin,
            read.quarter_turns,
            wrong.len()
        );
        for line in wrong {
            println!("{line}");
        }
    }
    println!("{tally:?}");
}
