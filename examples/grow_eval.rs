//! Measures how far `detect::grow` takes a boxed nonogram's lattice into its clue boxes, apart
//! from finding the outline: `cargo run --release --example grow_eval -- FILE...`. For each
//! generated photo whose truth says the clues are boxed, the lattice is found inside the
//! truth's grid corners, grown, and its size compared with the grid plus the widest row and
//! column clues (either way round). Prints one line per photo and how many grew exactly.

use gridsight::detect::{find_lattice_in_outline, grayscale, grow::grow, load_upright};
use serde_json::Value;

fn main() {
    let (mut exact, mut boxed) = (0, 0);
    for file in std::env::args().skip(1) {
        let path = std::path::Path::new(&file);
        let Some(truth) = std::fs::read_to_string(path.with_extension("truth.json"))
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        else {
            continue;
        };
        if truth["render"]["style"] != "boxed" {
            continue;
        }
        // Generated truths hold the puzzle as Python-style text.
        let puzzle: Value = match &truth["puzzle"] {
            Value::String(text) => {
                serde_json::from_str(&text.replace('\'', "\"")).unwrap_or_default()
            }
            other => other.clone(),
        };
        let widest = |key: &str| {
            puzzle[key].as_array().map_or(0, |lines| {
                lines
                    .iter()
                    .filter_map(|l| l.as_array())
                    .map(Vec::len)
                    .max()
                    .unwrap_or(0)
            })
        };
        let side = |key: &str| truth[key].as_u64().unwrap_or(0) as usize;
        let mut expected = [
            side("height") + widest("columns"),
            side("width") + widest("rows"),
        ];
        expected.sort_unstable();
        let corners: Vec<(f64, f64)> = truth["grid_corners_upright"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
            .collect();
        let Ok(outline) = <[(f64, f64); 4]>::try_from(corners) else {
            continue;
        };
        let Ok(image) = load_upright(path) else {
            continue;
        };
        boxed += 1;
        let gray = grayscale(&image);
        match find_lattice_in_outline(&gray, outline) {
            Ok(lattice) => {
                let grown = grow(&gray, &lattice);
                let mut size = [grown.rows, grown.columns];
                size.sort_unstable();
                exact += usize::from(size == expected);
                println!(
                    "{file}: {}x{} grown to {}x{}, clue boxes end at {}x{}{}",
                    lattice.rows,
                    lattice.columns,
                    grown.rows,
                    grown.columns,
                    expected[0],
                    expected[1],
                    if size == expected { "" } else { " WRONG" }
                );
            }
            Err(error) => println!("{file}: {error}"),
        }
    }
    println!("grown to exactly the clue boxes: {exact}/{boxed}");
}
