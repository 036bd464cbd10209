//! Solver speed on the shared seed and benchmark puzzles (`../shared`), one benchmark per
//! puzzle, each a full solve with the uniqueness search. Skips what `../shared` does not have.

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use gridsight::kinds::Puzzle;
use gridsight::limits::Deadline;

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

fn puzzles_in(dir: &Path, suffix: &str) -> Vec<(String, Box<dyn Puzzle>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("skipping {}: not found", dir.display());
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.to_string_lossy().ends_with(suffix) && !p.to_string_lossy().ends_with(".solution.txt")
        })
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable puzzle");
            let puzzle = gridsight::input::parse_puzzles(&text, None)
                .expect("parsable puzzle")
                .remove(0);
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                puzzle,
            )
        })
        .collect()
}

fn bench_group(c: &mut Criterion, group: &str, puzzles: Vec<(String, Box<dyn Puzzle>)>) {
    let mut group = c.benchmark_group(group);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (name, puzzle) in &puzzles {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| puzzle.solve(&Deadline::none()).expect("no deadline"))
        });
    }
    group.finish();
}

fn nonogram(c: &mut Criterion) {
    let mut seeds = puzzles_in(&shared().join("seeds"), ".non");
    if let Some((_, gchq)) = seeds.first() {
        let text = gchq.to_text();
        let without_givens: String = text
            .lines()
            .filter(|l| !l.starts_with("given"))
            .map(|l| format!("{l}\n"))
            .collect();
        let clues_only = gridsight::input::parse_puzzles(&without_givens, None)
            .expect("parsable")
            .remove(0);
        seeds.push(("gchq-clues-only".into(), clues_only));
    }
    bench_group(c, "nonogram-seeds", seeds);
    bench_group(
        c,
        "nonogram-wolter",
        puzzles_in(&shared().join("nonogram/wolter"), ".non"),
    );
}

fn nurikabe(c: &mut Criterion) {
    bench_group(
        c,
        "nurikabe-seeds",
        puzzles_in(&shared().join("seeds/nurikabe"), ".txt"),
    );
    // The corrected copies stand in for the shared grids whose two-digit clues were mis-transcribed
    // (see tests/data/lavavej-corrected/README.md).
    let corrected = puzzles_in(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/lavavej-corrected"),
        ".txt",
    );
    let mut lavavej = puzzles_in(&shared().join("nurikabe/lavavej"), ".txt");
    lavavej.retain(|(name, _)| !corrected.iter().any(|(fixed, _)| fixed == name));
    lavavej.extend(corrected);
    bench_group(c, "nurikabe-lavavej", lavavej);
}

fn jump(c: &mut Criterion) {
    bench_group(c, "jump", puzzles_in(&shared().join("seeds"), ".jump"));
}

fn sudoku(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
    bench_group(c, "sudoku", puzzles_in(&dir, ".sudoku"));
}

criterion_group!(benches, nonogram, nurikabe, jump, sudoku);
criterion_main!(benches);
