//! A 12-megapixel photo through the pipeline, against the baselines the targets name, in one
//! run: decoding the JPEG (detection and reading should cost less), and decoding plus encoding
//! the annotated PNG (the whole run should cost at most twice that). The grey conversion, which
//! the whole run does before detecting, is measured on its own.
//!
//! Criterion measures one function after another, and on a shared machine the load can change
//! between them; so the run ends by timing the four in turn, round after round, and printing the
//! two target ratios of their medians, each pair measured under the same load.

use std::path::Path;
use std::time::{Duration, Instant};

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
        rules_through_puzzle: false,
        past_reading: false,
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
    group.bench_function("grayscale", |b| {
        b.iter(|| gridsight::detect::grayscale(&decoded))
    });
    group.bench_function("detect-and-read", |b| b.iter(|| detect_and_read(&gray)));
    group.bench_function("decode-and-encode-png", |b| {
        b.iter(|| decode_and_encode(&jpeg, &annotated))
    });
    group.bench_function("whole-pipeline", |b| {
        b.iter(|| whole_pipeline(&photo, &annotated))
    });
    group.finish();
    interleaved_ratios(&jpeg, &gray, &photo, &annotated);
    let _ = std::fs::remove_dir_all(&dir);
}

fn detect_and_read(gray: &image::GrayImage) -> gridsight::read::Reading {
    gridsight::read::classifier::forget_readings();
    let lattice = gridsight::detect::find_lattice(gray).expect("the grid is found");
    gridsight::read::read_puzzle(gray, &lattice, None)
}

fn decode_and_encode(jpeg: &[u8], annotated: &Path) {
    let image = image::load_from_memory(jpeg).expect("decodes").to_rgb8();
    gridsight::output::write_png(&image, annotated).expect("writes")
}

fn whole_pipeline(photo: &Path, annotated: &Path) {
    let report = gridsight::solve_image_file(
        &photo.to_string_lossy(),
        None,
        None,
        false,
        Some(annotated),
        None,
    );
    assert!(report.result.is_ok(), "{:?}", report.result.err());
}

/// Rounds of the four timings in turn, then the medians and the two target ratios.
fn interleaved_ratios(jpeg: &[u8], gray: &image::GrayImage, photo: &Path, annotated: &Path) {
    const ROUNDS: usize = 15;
    let mut times: [Vec<f64>; 4] = Default::default();
    for _ in 0..ROUNDS {
        let mut time = |slot: usize, run: &mut dyn FnMut()| {
            let started = Instant::now();
            run();
            times[slot].push(started.elapsed().as_secs_f64() * 1e3);
        };
        time(0, &mut || {
            std::hint::black_box(image::load_from_memory(jpeg).expect("decodes"));
        });
        time(1, &mut || {
            std::hint::black_box(detect_and_read(gray));
        });
        time(2, &mut || decode_and_encode(jpeg, annotated));
        time(3, &mut || whole_pipeline(photo, annotated));
    }
    let [decode, detect, baseline, whole] = times.map(|mut t| {
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    });
    eprintln!(
        "interleaved medians of {ROUNDS} rounds: decode {decode:.1} ms, detect and read \
         {detect:.1} ms ({:.2}x decode, target below 1); decode and encode PNG {baseline:.1} ms, \
         whole pipeline {whole:.1} ms ({:.2}x decode and encode, target at most 2)",
        detect / decode,
        whole / baseline
    );
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
