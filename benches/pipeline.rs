//! A 12-megapixel photo through the pipeline, against the baselines the targets name, in one
//! run: decoding the JPEG (detection and reading should cost less), and decoding plus encoding
//! the annotated PNG (the whole run should cost at most twice that).

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use gridsight::limits::Deadline;
use gridsight::photo::{photograph, PhotoOptions, Preset};
use gridsight::render::Drawable;

fn twelve_megapixel_photo() -> Vec<u8> {
    let text = include_str!("../samples/classic.sudoku");
    let puzzle = gridsight::input::parse_puzzles(text, None)
        .expect("the sample parses")
        .remove(0);
    let drawable = Drawable::from_puzzle(puzzle.as_ref()).expect("a Sudoku can be drawn");
    let answer = drawable
        .solve(&Deadline::none())
        .expect("the sample solves");
    let options = PhotoOptions {
        preset: Preset::Photo,
        seed: 8,
        megapixels: Some((12.0, 12.0)),
    };
    photograph(&drawable, &answer, &options)
        .expect("the photo renders")
        .jpeg
}

fn pipeline(c: &mut Criterion) {
    let jpeg = twelve_megapixel_photo();
    let dir = std::env::temp_dir().join(format!("gridsight-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let photo = dir.join("photo.jpg");
    std::fs::write(&photo, &jpeg).expect("the photo is written");
    let annotated = dir.join("photo.solved.png");
    let decoded = image::load_from_memory(&jpeg)
        .expect("the photo decodes")
        .to_rgb8();
    let gray = image::imageops::grayscale(&decoded);
    eprintln!("photo: {}x{} pixels", decoded.width(), decoded.height());

    let mut group = c.benchmark_group("photo-12mp");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    group.bench_function("decode-jpeg", |b| {
        b.iter(|| image::load_from_memory(&jpeg).expect("decodes"))
    });
    group.bench_function("detect-and-read", |b| {
        b.iter(|| {
            let lattice = gridsight::detect::find_lattice(&gray).expect("the grid is found");
            gridsight::read::read_grid(&gray, &lattice, gridsight::read::bundled_classifier())
        })
    });
    group.bench_function("decode-and-encode-png", |b| {
        b.iter(|| {
            let image = image::load_from_memory(&jpeg).expect("decodes").to_rgb8();
            gridsight::output::write_png(&image, &annotated).expect("writes")
        })
    });
    group.bench_function("whole-pipeline", |b| {
        b.iter(|| {
            let report = gridsight::solve_image_file(
                &photo.to_string_lossy(),
                None,
                None,
                false,
                Some(&annotated),
                None,
            );
            assert!(report.result.is_ok(), "{:?}", report.result.err());
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
