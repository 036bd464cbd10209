//! Trains the bundled digit classifier from rendered cells and reports its accuracy on fonts
//! held out from training and on all fonts. See `models/README.md`.
//!
//! ```text
//! cargo run --release --example train_digits -- --out models/digits.bin
//!     [--cells N] [--epochs N] [--seed N] [--threads N] [--test-cells N]
//!     [--shape C1,C2,H]  channels of the two convolutions and width of the hidden layer
//!     [--eval FILE]    evaluate an existing weights file instead of training
//!     [--dump DIR]     also write a sheet of training cells and their glyphs as PNG
//! ```

use std::time::Instant;

use gridsight::photo::rng::Rng;
use gridsight::read::classifier::{DigitClassifier, Shape};
use gridsight::read::glyphs::{read_cell, CellContent, SIDE};
use gridsight::read::synth::{self, LabelledGlyph};
use gridsight::read::train::{accuracy, train, TrainOptions};
use gridsight::read::typefaces::{self, Typeface};
use image::{GrayImage, Luma};

/// Seeds of the test sets; the model card and the tests use the same ones.
const HELD_OUT_SEED: u64 = 9001;
const ALL_FONTS_SEED: u64 = 9002;

struct Args {
    out: Option<String>,
    eval: Option<String>,
    dump: Option<String>,
    cells: usize,
    test_cells: usize,
    epochs: usize,
    seed: u64,
    threads: usize,
    shape: Shape,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        out: None,
        eval: None,
        dump: None,
        cells: 40_000,
        test_cells: 3_000,
        epochs: 8,
        seed: 1,
        threads: 2,
        shape: Shape {
            conv1: 8,
            conv2: 16,
            hidden: 64,
        },
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--out" => args.out = Some(value()?),
            "--eval" => args.eval = Some(value()?),
            "--dump" => args.dump = Some(value()?),
            "--cells" => args.cells = number(value()?)? as usize,
            "--test-cells" => args.test_cells = number(value()?)? as usize,
            "--epochs" => args.epochs = number(value()?)? as usize,
            "--seed" => args.seed = number(value()?)?,
            "--threads" => args.threads = number(value()?)?.max(1) as usize,
            "--shape" => args.shape = parse_shape(&value()?)?,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.out.is_none() && args.eval.is_none() {
        return Err("give --out FILE to train or --eval FILE to evaluate".into());
    }
    Ok(args)
}

/// A shape written `C1,C2,H`.
fn parse_shape(text: &str) -> Result<Shape, String> {
    let sizes: Vec<usize> = text
        .split(',')
        .map(|part| part.trim().parse::<usize>())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--shape {text}: {e}"))?;
    match sizes[..] {
        [conv1, conv2, hidden] if sizes.iter().all(|&n| (1..=256).contains(&n)) => Ok(Shape {
            conv1,
            conv2,
            hidden,
        }),
        _ => Err(format!(
            "--shape {text}: give three sizes 1..=256, as 8,16,64"
        )),
    }
}

/// `glyph_set` split over threads, each part with its own seed derived from `seed`.
fn glyphs(
    seed: u64,
    cells: usize,
    fonts: &[Typeface],
    threads: usize,
) -> (Vec<LabelledGlyph>, usize) {
    let share = cells.div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let count = share.min(cells.saturating_sub(t * share));
                scope.spawn(move || {
                    synth::glyph_set(seed.wrapping_mul(1000) + t as u64, count, fonts)
                })
            })
            .collect();
        handles
            .into_iter()
            .fold((Vec::new(), 0), |(mut all, missed), h| {
                let (part, m) = h.join().expect("generator thread");
                all.extend(part);
                (all, missed + m)
            })
    })
}

fn dump(dir: &str, seed: u64) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let mut rng = Rng::new(seed);
    let (cols, rows, tile) = (12u32, 10u32, 100u32);
    let mut sheet = GrayImage::from_pixel(cols * tile, rows * tile, Luma([128]));
    for k in 0..cols * rows / 2 {
        let cell = synth::render_cell(&mut rng.fork(), &typefaces::TRAINING);
        let (x0, y0) = ((2 * k % cols) * tile, (2 * k / cols) * tile);
        image::imageops::overlay(&mut sheet, &cell.image, i64::from(x0), i64::from(y0));
        if let CellContent::Glyphs(found) = read_cell(&cell.image) {
            for (g, glyph) in found.iter().enumerate() {
                let (gx, gy) = (x0 + tile + (g as u32 % 3) * 30, y0 + (g as u32 / 3) * 30);
                for (i, v) in glyph.pixels.iter().enumerate() {
                    let (x, y) = (gx + (i % SIDE) as u32, gy + (i / SIDE) as u32);
                    if x < sheet.width() && y < sheet.height() {
                        sheet.put_pixel(x, y, Luma([(255.0 * (1.0 - v)) as u8]));
                    }
                }
            }
        }
    }
    let path = format!("{dir}/cells.png");
    sheet.save(&path).map_err(|e| e.to_string())?;
    eprintln!("wrote {path}");
    Ok(())
}

fn report(model: &DigitClassifier, test_cells: usize, threads: usize) {
    let started = Instant::now();
    let (held, held_missed) = glyphs(HELD_OUT_SEED, test_cells, &typefaces::HELD_OUT, threads);
    let (all, all_missed) = glyphs(ALL_FONTS_SEED, test_cells, &typefaces::every(), threads);
    let timed = Instant::now();
    let held_accuracy = accuracy(model, &held);
    let per_glyph = timed.elapsed().as_secs_f64() * 1000.0 / held.len().max(1) as f64;
    println!(
        "held-out fonts: {:.2}% of {} glyphs ({} of {} cells cut wrongly)",
        100.0 * held_accuracy,
        held.len(),
        held_missed,
        test_cells
    );
    println!(
        "all fonts:      {:.2}% of {} glyphs ({} of {} cells cut wrongly)",
        100.0 * accuracy(model, &all),
        all.len(),
        all_missed,
        test_cells
    );
    println!(
        "inference {per_glyph:.3} ms per glyph; test sets made and read in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("train_digits: {message}");
            std::process::exit(2);
        }
    };
    if let Some(dir) = &args.dump {
        if let Err(message) = dump(dir, args.seed) {
            eprintln!("train_digits: {message}");
        }
    }
    if let Some(path) = &args.eval {
        let model = std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|bytes| DigitClassifier::from_bytes(&bytes).map_err(|e| e.to_string()));
        match model {
            Ok(model) => report(&model, args.test_cells, args.threads),
            Err(message) => {
                eprintln!("train_digits: {path}: {message}");
                std::process::exit(1);
            }
        }
        return;
    }
    let Some(out) = &args.out else { return };
    let started = Instant::now();
    let (data, missed) = glyphs(args.seed, args.cells, &typefaces::TRAINING, args.threads);
    println!(
        "{} training glyphs from {} cells ({} cut wrongly, skipped) in {:.1} s",
        data.len(),
        args.cells,
        missed,
        started.elapsed().as_secs_f64()
    );
    let options = TrainOptions {
        shape: args.shape,
        epochs: args.epochs,
        batch: 64,
        learning_rate: 2e-3,
        seed: args.seed,
        threads: args.threads,
    };
    let training = Instant::now();
    let model = train(&data, &options, |epoch, loss, acc| {
        println!(
            "epoch {epoch}: loss {loss:.4}, training accuracy {:.2}% ({:.0} s)",
            100.0 * acc,
            training.elapsed().as_secs_f64()
        );
    });
    println!(
        "{} parameters, trained in {:.1} s",
        model.shape().parameters(),
        training.elapsed().as_secs_f64()
    );
    if let Err(e) = std::fs::write(out, model.to_bytes()) {
        eprintln!("train_digits: cannot write {out}: {e}");
        std::process::exit(1);
    }
    println!("wrote {out}");
    report(&model, args.test_cells, args.threads);
}
