//! Trains the bundled digit classifier from rendered cells and reports its accuracy on fonts
//! held out from training and on all fonts. See `models/README.md`.
//!
//! ```text
//! cargo run --release --example train_digits -- --out models/digits.bin
//!     [--cells N] [--epochs N] [--seed N] [--threads N] [--test-cells N]
//!     [--shape C1,C2,H]  channels of the two convolutions and width of the hidden layer
//!     [--eval FILE]    evaluate an existing weights file instead of training (with --photos,
//!                      on the glyphs harvested from the photos too: give another --photo-seed)
//!     [--dump DIR]     also write a sheet of training cells and their glyphs as PNG
//!     [--photos N]     also train on glyphs the reader cuts from N generated photos
//!     [--photo-seed S] seed of the first photo (at least 1,000,000: the dev sets use lower)
//!     [--photo-dir D]  where the photos are written (default a temporary folder, removed);
//!                      photos already there from an earlier run are read, not made again
//!     [--from FILE]    start from this model's weights (and shape) instead of random ones
//!     [--learning-rate R]  Adam's step size at the start (default 0.002)
//! ```
//!
//! With `--photos`, photos are generated as `gridsight generate` makes them (kinds and presets
//! in turn) and read by the real detect and read path (as their true kind). Where the lattice
//! read has the truth's shape, each cell's or clue number's glyphs that the classifier saw are
//! paired with the true number's digits when there are as many glyphs as digits. Photos in a
//! face held out from training, or read with fewer than half their numbers right (a lattice
//! off the grid or turned), give none.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gridsight::detect::Lattice;
use gridsight::eval::{clue_lines, images_with_truth, Truth};
use gridsight::photo::dataset;
use gridsight::photo::rng::Rng;
use gridsight::read::classifier::{DigitClassifier, Shape};
use gridsight::read::glyphs::{read_cell, CellContent, NormalisedGlyph, SIDE};
use gridsight::read::synth::{self, LabelledGlyph};
use gridsight::read::train::{accuracy, train, train_from, TrainOptions};
use gridsight::read::typefaces::{self, Typeface};
use gridsight::read::{self, CellValue, Reading};
use image::{GrayImage, Luma};

/// Seeds of the test sets; the model card and the tests use the same ones.
const HELD_OUT_SEED: u64 = 9001;
const ALL_FONTS_SEED: u64 = 9002;
/// The least seed of a harvested photo: the dev sets' photos all have lower seeds.
const FIRST_PHOTO_SEED: u64 = 1_000_000;
/// Photos are generated in runs of a whole turn of kinds and presets (4 x 3).
const KINDS_AND_PRESETS: usize = 12;

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
    photos: usize,
    photo_seed: u64,
    photo_dir: Option<String>,
    from: Option<String>,
    learning_rate: f32,
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
        photos: 0,
        photo_seed: FIRST_PHOTO_SEED,
        photo_dir: None,
        from: None,
        learning_rate: 2e-3,
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
            "--photos" => args.photos = number(value()?)? as usize,
            "--photo-seed" => args.photo_seed = number(value()?)?,
            "--photo-dir" => args.photo_dir = Some(value()?),
            "--from" => args.from = Some(value()?),
            "--learning-rate" => {
                args.learning_rate = value()?
                    .parse()
                    .map_err(|e| format!("--learning-rate: {e}"))?
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if args.out.is_none() && args.eval.is_none() {
        return Err("give --out FILE to train or --eval FILE to evaluate".into());
    }
    if args.photo_seed < FIRST_PHOTO_SEED {
        return Err(format!(
            "--photo-seed must be at least {FIRST_PHOTO_SEED}: the dev sets use lower seeds"
        ));
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

/// Glyphs harvested from `args.photos` generated photos (see the module's doc), with a report
/// of where they came from.
fn harvest(args: &Args) -> Result<Vec<LabelledGlyph>, String> {
    let started = Instant::now();
    let temporary = args.photo_dir.is_none();
    let dir = match &args.photo_dir {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("train_digits-{}", std::process::id())),
    };
    // Each thread makes whole turns of kinds and presets, so the mix is as one run would make.
    let turns = args.photos.div_ceil(KINDS_AND_PRESETS);
    let share = turns.div_ceil(args.threads) * KINDS_AND_PRESETS;
    let parts: Vec<Result<Harvest, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads)
            .map(|t| {
                let count = share.min(args.photos.saturating_sub(t * share));
                let first = args.photo_seed + (t * share) as u64;
                let dir = dir.join(format!("part{t}"));
                scope.spawn(move || harvest_part(&dir, count, first))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("harvest thread"))
            .collect()
    });
    if temporary {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut all = Harvest::default();
    for part in parts {
        all.add(part?);
    }
    println!(
        "{} glyphs harvested from {} of {} photos ({} in held-out faces, {} not read on the \
         truth's lattice) in {:.1} s",
        all.glyphs.len(),
        all.used,
        args.photos,
        all.held_out,
        all.off,
        started.elapsed().as_secs_f64()
    );
    for ((kind, preset), count) in &all.by_kind {
        println!("  {kind} {preset}: {count} glyphs");
    }
    Ok(all.glyphs)
}

/// What a share of the photos gave.
#[derive(Default)]
struct Harvest {
    glyphs: Vec<LabelledGlyph>,
    used: usize,
    held_out: usize,
    off: usize,
    by_kind: BTreeMap<(String, String), usize>,
}

impl Harvest {
    fn add(&mut self, other: Harvest) {
        self.glyphs.extend(other.glyphs);
        self.used += other.used;
        self.held_out += other.held_out;
        self.off += other.off;
        for (key, count) in other.by_kind {
            *self.by_kind.entry(key).or_default() += count;
        }
    }
}

/// Generates `count` photos from seed `first` into `dir` and harvests their glyphs.
fn harvest_part(dir: &Path, count: usize, first: u64) -> Result<Harvest, String> {
    let mut harvest = Harvest::default();
    if count == 0 {
        return Ok(harvest);
    }
    let listed = |dir: &Path| images_with_truth(dir).map_err(|e| format!("{}: {e}", dir.display()));
    // The same count and seed make the same photos: an earlier run's are read again as they are.
    let mut photos = if dir.is_dir() {
        listed(dir)?
    } else {
        Vec::new()
    };
    if photos.len() != count {
        dataset::generate(dir, count, first).map_err(|e| e.to_string())?;
        photos = listed(dir)?;
    }
    let held_out: Vec<&str> = typefaces::HELD_OUT.iter().map(|face| face.name()).collect();
    for (path, truth) in photos {
        if held_out.contains(&face_of(&path).as_str()) {
            harvest.held_out += 1;
            continue;
        }
        let found = gridsight::read_image_on_lattice(&path, Some(&truth.kind))
            .ok()
            .map(|(gray, lattice, reading)| labelled(&gray, &lattice, &reading, &truth))
            .unwrap_or_default();
        if found.is_empty() {
            harvest.off += 1;
            continue;
        }
        harvest.used += 1;
        *harvest
            .by_kind
            .entry((truth.kind.clone(), truth.preset.clone()))
            .or_default() += found.len();
        harvest.glyphs.extend(found);
    }
    Ok(harvest)
}

/// The face a generated photo's puzzle is printed in, from its truth file.
fn face_of(photo: &Path) -> String {
    let truth = photo.with_extension("truth.json");
    std::fs::read_to_string(truth)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .and_then(|value| value["render"]["font"].as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The glyphs of each number the reader cut from `gray` on `lattice`, paired with the true
/// number's digits where it has as many glyphs; none unless the lattice has the truth's shape
/// and at least half the true numbers were read right.
fn labelled(
    gray: &GrayImage,
    lattice: &Lattice,
    reading: &Reading,
    truth: &Truth,
) -> Vec<LabelledGlyph> {
    let classifier = read::bundled_classifier();
    // Per number: its glyphs, its true value and whether it was read right.
    let numbers: Vec<(&[NormalisedGlyph], u32, bool)>;
    let (cells, clue_lines);
    match reading {
        Reading::Cells { grid, .. } => {
            if grid.quarter_turns != 0 || (grid.rows, grid.columns) != (truth.rows, truth.columns) {
                return Vec::new();
            }
            cells = read::cell_glyphs(gray, lattice, classifier);
            numbers = truth
                .cells
                .iter()
                .zip(&grid.cells)
                .filter_map(|(truth, read)| match *truth {
                    CellValue::Number(n) => Some((
                        cells[read.row][read.column].as_slice(),
                        n,
                        read.value == CellValue::Number(n),
                    )),
                    _ => None,
                })
                .collect();
        }
        Reading::Nonogram(nonogram) => {
            let true_lines = true_clues(truth);
            let read_lines: Vec<Vec<u32>> = nonogram
                .clues
                .rows
                .iter()
                .chain(&nonogram.clues.columns)
                .map(|line| line.iter().map(|n| n.value).collect())
                .collect();
            let (top, left) = nonogram.origin;
            clue_lines = if (top, left) != (0, 0) {
                if nonogram.quarter_turns != 0
                    || (lattice.rows - top, lattice.columns - left) != (truth.rows, truth.columns)
                {
                    return Vec::new();
                }
                cells = read::cell_glyphs(gray, lattice, classifier);
                let boxes = |places: Vec<(usize, usize)>| -> Vec<Vec<NormalisedGlyph>> {
                    places
                        .into_iter()
                        .map(|(r, c)| cells[r][c].clone())
                        .filter(|glyphs| !glyphs.is_empty())
                        .collect()
                };
                (top..lattice.rows)
                    .map(|r| boxes((0..left).map(|c| (r, c)).collect()))
                    .chain(
                        (left..lattice.columns).map(|c| boxes((0..top).map(|r| (r, c)).collect())),
                    )
                    .collect::<Vec<_>>()
            } else {
                let turned = lattice.turned(nonogram.quarter_turns);
                if (turned.rows, turned.columns) != (truth.rows, truth.columns) {
                    return Vec::new();
                }
                let (rows, columns) = read::clues::clue_glyphs(gray, &turned, classifier);
                rows.into_iter().chain(columns).collect()
            };
            numbers = clue_lines
                .iter()
                .zip(&true_lines)
                .zip(&read_lines)
                .filter(|((glyphs, line), _)| glyphs.len() == line.len())
                .flat_map(|((glyphs, line), read)| {
                    glyphs
                        .iter()
                        .zip(line)
                        .enumerate()
                        .map(move |(k, (g, &n))| (g.as_slice(), n, read.get(k) == Some(&n)))
                })
                .collect();
            let total: usize = true_lines.iter().map(Vec::len).sum();
            if numbers.iter().filter(|n| n.2).count() * 2 < total {
                return Vec::new();
            }
        }
    }
    if numbers.iter().filter(|n| n.2).count() * 2 < numbers.len() {
        return Vec::new();
    }
    numbers
        .into_iter()
        .flat_map(|(glyphs, number, _)| {
            let digits: Vec<u8> = number.to_string().bytes().map(|b| b - b'0').collect();
            let matched = glyphs.len() == digits.len();
            glyphs
                .iter()
                .zip(digits)
                .filter(move |_| matched)
                .map(|(glyph, digit)| LabelledGlyph {
                    glyph: glyph.clone(),
                    digit,
                })
        })
        .collect()
}

/// A nonogram truth's clue lines, rows then columns (parsed when the truth was read, so
/// present).
fn true_clues(truth: &Truth) -> Vec<Vec<u32>> {
    ["rows", "columns"]
        .iter()
        .flat_map(|key| clue_lines(&truth.puzzle, key).unwrap_or_default())
        .collect()
}

/// The model in the weights file at `path`.
fn load(path: &str) -> Result<DigitClassifier, String> {
    std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| DigitClassifier::from_bytes(&bytes).map_err(|e| e.to_string()))
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
        let model = load(path).unwrap_or_else(|message| {
            eprintln!("train_digits: {path}: {message}");
            std::process::exit(1);
        });
        report(&model, args.test_cells, args.threads);
        if args.photos > 0 {
            match harvest(&args) {
                Ok(harvested) => println!(
                    "harvested glyphs: {:.2}% of {}",
                    100.0 * accuracy(&model, &harvested),
                    harvested.len()
                ),
                Err(message) => {
                    eprintln!("train_digits: {message}");
                    std::process::exit(1);
                }
            }
        }
        return;
    }
    let Some(out) = &args.out else { return };
    let started = Instant::now();
    let (mut data, missed) = glyphs(args.seed, args.cells, &typefaces::TRAINING, args.threads);
    println!(
        "{} training glyphs from {} cells ({} cut wrongly, skipped) in {:.1} s",
        data.len(),
        args.cells,
        missed,
        started.elapsed().as_secs_f64()
    );
    if args.photos > 0 {
        match harvest(&args) {
            Ok(harvested) => data.extend(harvested),
            Err(message) => {
                eprintln!("train_digits: {message}");
                std::process::exit(1);
            }
        }
    }
    let options = TrainOptions {
        shape: args.shape,
        epochs: args.epochs,
        batch: 64,
        learning_rate: args.learning_rate,
        seed: args.seed,
        threads: args.threads,
    };
    let training = Instant::now();
    let report_epoch = |epoch, loss, acc: f32| {
        println!(
            "epoch {epoch}: loss {loss:.4}, training accuracy {:.2}% ({:.0} s)",
            100.0 * acc,
            training.elapsed().as_secs_f64()
        );
    };
    let model = match &args.from {
        Some(path) => match load(path) {
            Ok(start) => train_from(start, &data, &options, report_epoch),
            Err(message) => {
                eprintln!("train_digits: {path}: {message}");
                std::process::exit(1);
            }
        },
        None => train(&data, &options, report_epoch),
    };
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
