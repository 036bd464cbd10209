//! The committed samples are golden files: `samples` must reproduce them byte for byte, and every
//! truth file must describe a puzzle its own solution solves. `REGENERATE=1 cargo test --release
//! --test samples` rewrites them on purpose after a deliberate change to the renderer.

use std::path::Path;

use gridsight::photo::{dataset, truth};

#[test]
fn samples_reproduce_byte_for_byte() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let fresh = std::env::temp_dir().join(format!("gridsight-samples-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    let written = dataset::write_samples(&fresh).unwrap();
    assert!(
        written.len() >= 12,
        "at least one scan, photo and hard sample per kind"
    );
    let regenerate = std::env::var_os("REGENERATE").is_some();
    let mut names: Vec<_> = std::fs::read_dir(&fresh)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    for name in names {
        let name = name.to_string_lossy().into_owned();
        let committed = if name == "contact-sheet.png" {
            root.join("docs").join(&name)
        } else {
            root.join("samples").join(&name)
        };
        let new = std::fs::read(fresh.join(&name)).unwrap();
        if regenerate {
            std::fs::write(&committed, &new).unwrap();
        } else {
            let old = std::fs::read(&committed)
                .unwrap_or_else(|e| panic!("{}: {e}", committed.display()));
            assert!(
                old == new,
                "{name} differs from the committed file: regenerate on purpose with REGENERATE=1"
            );
        }
    }
    std::fs::remove_dir_all(&fresh).unwrap();
}

#[test]
fn committed_truth_files_parse_and_their_solutions_solve_their_puzzles() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&samples).unwrap() {
        let path = entry.unwrap().path();
        if path.to_string_lossy().ends_with(".truth.json") {
            let text = std::fs::read_to_string(&path).unwrap();
            let value: serde_json::Value = serde_json::from_str(&text).unwrap();
            truth::verify(&value).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            checked += 1;
        }
    }
    assert!(checked >= 12);
}
