//! Trains the bundled digit classifier from rendered cells and reports its accuracy on fonts
//! held out from training and on all fonts. See `models/README.md`.
//!
//! ```text
//! cargo run --release --example train_digits -- --out models/digits.bin
//!     [--cells N] [--epochs N] [--seed N] [--threads N] [--test-cells N]
//!     [--shape C1,C2,H]  channels of the two convolutions and width of the hidden layer
//!     [--eval FILES]   evaluate existing weights files instead of training, comma-separated
//!                      files as one reader combining them (with --photos, on the glyphs
//!                      harvested from the photos too: give another --photo-seed)
//!     [--dump DIR]     also write a sheet of training cells and their glyphs as PNG (and,
//!                      with --photos, one of harvested glyphs the bundled model reads otherwise)
//!     [--photos N]     also train on glyphs the reader cuts from N generated photos
//!     [--photo-seed S] seed of the first photo (at least 1,000,000: the dev sets use lower)
//!     [--photo-kind K] generate photos of these kinds only (e.g. nonogram, or nurikabe,jump),
//!                      kinds and presets in turn
//!     [--photo-preset P]  generate photos in this preset only (scan, photo or hard)
//!     [--photo-weight W]  train on each harvested glyph W times (default 1)
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
//! face held out from training give none. A Sudoku or other cell puzzle read with fewer than
//! half its numbers right (a lattice off the grid, or turned the wrong way) gives none; one
//! read turned gives the glyphs of its cells as read turned. A nonogram is labelled
//! clue line by clue line, however much of it was read right (its misread photos hold the hard
//! glyphs): its lattice, turned as the clues were read, must lie on the truth's grid corners,
//! and a line gives its glyphs when it was cut into as many numbers as the truth's line and
//! each number into as many glyphs as it has digits. The harvest reports how many labels the
//! bundled model reads otherwise: mostly its mistakes, not label noise (`--dump` shows them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gridsight::detect::Lattice;
use gridsight::eval::{clue_lines, images_with_truth, Truth};
use gridsight::photo::dataset;
use gridsight::photo::rng::Rng;
use gridsight::photo::Preset;
use gridsight::read::classifier::{DigitClassifier, DigitNetwork, Shape};
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
/// How far (in cells) a nonogram lattice's corner may lie from the truth's for its clues to
/// be labelled: a lattice a line off would pair clues with a neighbouring line's truth.
const CORNER_TOLERANCE: f32 = 0.5;
/// Disagreeing glyphs shown per digit in the dump's sheet.
const SHOWN_PER_DIGIT: usize = 40;

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
    photo_kinds: Vec<&'static str>,
    photo_presets: Vec<Preset>,
    photo_weight: usize,
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
        photo_kinds: dataset::KINDS.to_vec(),
        photo_presets: Preset::ALL.to_vec(),
        photo_weight: 1,
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
            "--photo-kind" => {
                args.photo_kinds = value()?
                    .split(',')
                    .map(|kind| {
                        let known = dataset::KINDS.iter().find(|k| **k == kind);
                        known.copied().ok_or(format!(
                            "--photo-kind {kind}: give one or more of {}, comma-separated",
                            dataset::KINDS.join(", ")
                        ))
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--photo-preset" => {
                let name = value()?;
                args.photo_presets = vec![Preset::from_name(&name).ok_or(format!(
                    "--photo-preset {name}: give one of scan, photo, hard"
                ))?];
            }
            "--photo-weight" => args.photo_weight = number(value()?)?.max(1) as usize,
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
    // Timed from nothing remembered, as a photo's reading starts.
    gridsight::read::classifier::forget_readings();
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
/// of where they came from and how many labels the bundled model reads otherwise.
fn harvest(args: &Args) -> Result<Vec<LabelledGlyph>, String> {
    let started = Instant::now();
    let temporary = args.photo_dir.is_none();
    let dir = match &args.photo_dir {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("train_digits-{}", std::process::id())),
    };
    // Each thread makes whole turns of kinds and presets, so the mix is as one run would make.
    let turn = args.photo_kinds.len() * args.photo_presets.len();
    let turns = args.photos.div_ceil(turn);
    let share = turns.div_ceil(args.threads) * turn;
    // Another mix of kinds or presets makes other photos from the same seeds: keep them apart.
    let kind_name = if args.photo_kinds == dataset::KINDS {
        String::new()
    } else {
        format!("-{}", args.photo_kinds.join("-"))
    };
    let preset_name = match &args.photo_presets[..] {
        [preset] => format!("-{}", preset.name()),
        _ => String::new(),
    };
    let part_name = kind_name + &preset_name;
    let parts: Vec<Result<Harvest, String>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..args.threads)
            .map(|t| {
                let count = share.min(args.photos.saturating_sub(t * share));
                let first = args.photo_seed + (t * share) as u64;
                let dir = dir.join(format!("part{t}{part_name}"));
                scope.spawn(move || {
                    harvest_part(&dir, count, first, &args.photo_kinds, &args.photo_presets)
                })
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
         truth's lattice) in {:.1} s; nonogram clue lines labelled: {} of {}",
        all.glyphs.len(),
        all.used,
        args.photos,
        all.held_out,
        all.off,
        started.elapsed().as_secs_f64(),
        all.lines_labelled,
        all.lines
    );
    for ((kind, preset), (count, disagree)) in &all.by_kind {
        println!(
            "  {kind} {preset}: {count} glyphs, {disagree} read otherwise by the bundled model"
        );
    }
    if let Some(dump) = &args.dump {
        disagreement_sheet(dump, &all.disagreeing)?;
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
    /// Nonogram clue lines labelled, of those of nonograms read on the truth's lattice.
    lines_labelled: usize,
    lines: usize,
    /// Glyphs and glyphs the bundled model reads otherwise, by kind and preset.
    by_kind: BTreeMap<(String, String), (usize, usize)>,
    /// Labelled glyphs the bundled model reads otherwise, with its reading.
    disagreeing: Vec<(LabelledGlyph, u8)>,
}

impl Harvest {
    fn add(&mut self, other: Harvest) {
        self.glyphs.extend(other.glyphs);
        self.used += other.used;
        self.held_out += other.held_out;
        self.off += other.off;
        self.lines_labelled += other.lines_labelled;
        self.lines += other.lines;
        for (key, (count, disagree)) in other.by_kind {
            let entry = self.by_kind.entry(key).or_default();
            entry.0 += count;
            entry.1 += disagree;
        }
        self.disagreeing.extend(other.disagreeing);
    }
}

/// Generates `count` photos of `kinds` from seed `first` into `dir` and harvests their glyphs.
fn harvest_part(
    dir: &Path,
    count: usize,
    first: u64,
    kinds: &[&'static str],
    presets: &[Preset],
) -> Result<Harvest, String> {
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
        dataset::generate_kinds(dir, count, first, kinds, presets).map_err(|e| e.to_string())?;
        photos = listed(dir)?;
    }
    let held_out: Vec<&str> = typefaces::HELD_OUT.iter().map(|face| face.name()).collect();
    let bundled = read::bundled_classifier();
    for (path, truth) in photos {
        let notes = truth_notes(&path);
        if held_out.contains(&notes.face.as_str()) {
            harvest.held_out += 1;
            continue;
        }
        let Ok((gray, lattice, reading)) =
            gridsight::read_image_on_lattice(&path, Some(&truth.kind))
        else {
            harvest.off += 1;
            continue;
        };
        let found = labelled(&gray, &lattice, &reading, &truth, notes.corners);
        if let Some((labelled, lines)) = found.lines {
            harvest.lines_labelled += labelled;
            harvest.lines += lines;
        }
        if found.glyphs.is_empty() {
            harvest.off += 1;
            continue;
        }
        harvest.used += 1;
        let mut disagree = 0;
        for labelled in &found.glyphs {
            let (read, _) = bundled.classify(&labelled.glyph).best();
            if read != labelled.digit {
                disagree += 1;
                harvest.disagreeing.push((labelled.clone(), read));
            }
        }
        let entry = harvest
            .by_kind
            .entry((truth.kind.clone(), truth.preset.clone()))
            .or_default();
        entry.0 += found.glyphs.len();
        entry.1 += disagree;
        harvest.glyphs.extend(found.glyphs);
    }
    Ok(harvest)
}

/// A sheet of up to `SHOWN_PER_DIGIT` disagreeing glyphs per true digit, a row per digit
/// (0 at the top), each glyph followed by a small glyph of the digit the bundled model read, so
/// that the labels can be checked by eye; written as `DIR/disagreeing.png`.
fn disagreement_sheet(dir: &str, disagreeing: &[(LabelledGlyph, u8)]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let tile = SIDE as u32 + 4;
    let width = SHOWN_PER_DIGIT as u32 * tile;
    let mut sheet = GrayImage::from_pixel(width, 10 * tile, Luma([160]));
    let mut shown = [0u32; 10];
    for (labelled, read) in disagreeing {
        let digit = usize::from(labelled.digit);
        if shown[digit] as usize >= SHOWN_PER_DIGIT {
            continue;
        }
        let (x0, y0) = (shown[digit] * tile, digit as u32 * tile);
        shown[digit] += 1;
        for (i, v) in labelled.glyph.pixels.iter().enumerate() {
            let (x, y) = (x0 + (i % SIDE) as u32, y0 + (i / SIDE) as u32);
            sheet.put_pixel(x, y, Luma([(255.0 * (1.0 - v)) as u8]));
        }
        // The model's reading as a bar of `read + 1` dark pixels under the glyph.
        for k in 0..=u32::from(*read) {
            sheet.put_pixel(x0 + 2 * k, y0 + SIDE as u32 + 1, Luma([0]));
        }
    }
    let path = format!("{dir}/disagreeing.png");
    sheet.save(&path).map_err(|e| e.to_string())?;
    eprintln!(
        "wrote {path}: harvested glyphs the bundled model reads otherwise, a row per label 0-9, \
         the dots under each counting its reading + 1"
    );
    Ok(())
}

/// What a generated photo's truth file says beyond the puzzle.
struct TruthNotes {
    /// The face the puzzle is printed in.
    face: String,
    /// The grid's corners in the upright photo (top left, top right, bottom right, bottom left).
    corners: Option<[(f32, f32); 4]>,
}

fn truth_notes(photo: &Path) -> TruthNotes {
    let value = std::fs::read_to_string(photo.with_extension("truth.json"))
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
        .unwrap_or_default();
    let corner = |i: usize| {
        let point = &value["grid_corners_upright"][i];
        Some((point[0].as_f64()? as f32, point[1].as_f64()? as f32))
    };
    TruthNotes {
        face: value["render"]["font"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
        corners: (|| Some([corner(0)?, corner(1)?, corner(2)?, corner(3)?]))(),
    }
}

/// Glyphs labelled from one photo, and for a nonogram how many of its clue lines were labelled
/// of how many.
struct Labelled {
    glyphs: Vec<LabelledGlyph>,
    lines: Option<(usize, usize)>,
}

/// The glyphs the reader cut from `gray` on `lattice`, paired with the truth's digits as the
/// module's doc says.
fn labelled(
    gray: &GrayImage,
    lattice: &Lattice,
    reading: &Reading,
    truth: &Truth,
    corners: Option<[(f32, f32); 4]>,
) -> Labelled {
    let classifier = read::bundled_classifier();
    let none = Labelled {
        glyphs: Vec::new(),
        lines: None,
    };
    match reading {
        Reading::Cells { grid, .. } => {
            if (grid.rows, grid.columns) != (truth.rows, truth.columns) {
                return none;
            }
            let cells = read::cell_glyphs(gray, lattice, grid.quarter_turns, classifier);
            // Per number: its glyphs, its true value and whether it was read right.
            let numbers: Vec<(&[NormalisedGlyph], u32, bool)> = truth
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
            if numbers.iter().filter(|n| n.2).count() * 2 < numbers.len() {
                return none;
            }
            Labelled {
                glyphs: numbers
                    .into_iter()
                    .flat_map(|(glyphs, n, _)| label(glyphs, n).unwrap_or_default())
                    .collect(),
                lines: None,
            }
        }
        Reading::Nonogram(nonogram) => {
            // The clues were read on the lattice turned so that they lie left of and above
            // the grid, the way the truth's corners run.
            let lattice = &lattice.turned(nonogram.quarter_turns);
            let (top, left) = nonogram.origin;
            if (lattice.rows - top, lattice.columns - left) != (truth.rows, truth.columns)
                || !corners.is_some_and(|c| on_corners(lattice, (top, left), c, truth.columns))
            {
                return none;
            }
            let true_lines = true_clues(truth);
            let clue_lines: Vec<Vec<Vec<NormalisedGlyph>>> = if (top, left) != (0, 0) {
                let cells = read::cell_glyphs(gray, lattice, 0, classifier);
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
                    .collect()
            } else {
                let (rows, columns) = read::clues::clue_glyphs(gray, lattice, classifier);
                rows.into_iter().chain(columns).collect()
            };
            let lines: Vec<Vec<LabelledGlyph>> = clue_lines
                .iter()
                .zip(&true_lines)
                .filter(|(numbers, line)| numbers.len() == line.len())
                .filter_map(|(numbers, line)| {
                    let labelled: Option<Vec<Vec<LabelledGlyph>>> = numbers
                        .iter()
                        .zip(line)
                        .map(|(glyphs, &n)| label(glyphs, n))
                        .collect();
                    labelled.map(|numbers| numbers.concat())
                })
                .collect();
            Labelled {
                lines: Some((lines.len(), true_lines.len())),
                glyphs: lines.concat(),
            }
        }
    }
}

/// `glyphs` paired with the digits of `number`, if there are as many.
fn label(glyphs: &[NormalisedGlyph], number: u32) -> Option<Vec<LabelledGlyph>> {
    let digits: Vec<u8> = number.to_string().bytes().map(|b| b - b'0').collect();
    (glyphs.len() == digits.len()).then(|| {
        glyphs
            .iter()
            .zip(digits)
            .map(|(glyph, digit)| LabelledGlyph {
                glyph: glyph.clone(),
                digit,
            })
            .collect()
    })
}

/// Whether the puzzle grid of `lattice` (its cells from `origin` on) has its four corners within
/// `CORNER_TOLERANCE` cells of the truth's `corners`, the grid being `columns` cells across.
fn on_corners(
    lattice: &Lattice,
    (top, left): (usize, usize),
    corners: [(f32, f32); 4],
    columns: usize,
) -> bool {
    let distance = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
    let cell = distance(corners[0], corners[1]) / columns.max(1) as f32;
    let (bottom, right) = (lattice.rows, lattice.columns);
    let found = [
        lattice.points[top][left],
        lattice.points[top][right],
        lattice.points[bottom][right],
        lattice.points[bottom][left],
    ];
    found
        .iter()
        .zip(corners)
        .all(|(&a, b)| distance(a, b) <= CORNER_TOLERANCE * cell)
}

/// A nonogram truth's clue lines, rows then columns (parsed when the truth was read, so
/// present).
fn true_clues(truth: &Truth) -> Vec<Vec<u32>> {
    ["rows", "columns"]
        .iter()
        .flat_map(|key| clue_lines(&truth.puzzle, key).unwrap_or_default())
        .collect()
}

/// The network in the weights file at `path`.
fn load(path: &str) -> Result<DigitNetwork, String> {
    std::fs::read(path)
        .map_err(|e| e.to_string())
        .and_then(|bytes| DigitNetwork::from_bytes(&bytes).map_err(|e| e.to_string()))
        .map_err(|message| format!("{path}: {message}"))
}

/// The reader combining the networks in the comma-separated weights files of `paths`.
fn load_reader(paths: &str) -> Result<DigitClassifier, String> {
    let members = paths.split(',').map(load).collect::<Result<Vec<_>, _>>()?;
    DigitClassifier::of(members).ok_or_else(|| "no weights file given".to_string())
}

/// `result`'s value, or the run ends here with its message and exit code 1.
fn or_exit<T>(result: Result<T, String>) -> T {
    result.unwrap_or_else(|message| {
        eprintln!("train_digits: {message}");
        std::process::exit(1);
    })
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
    if let Some(paths) = &args.eval {
        let model = or_exit(load_reader(paths));
        report(&model, args.test_cells, args.threads);
        if args.photos > 0 {
            let harvested = or_exit(harvest(&args));
            println!(
                "harvested glyphs: {:.2}% of {}",
                100.0 * accuracy(&model, &harvested),
                harvested.len()
            );
        }
        return;
    }
    let Some(out) = &args.out else { return };
    // Read before the data is made, which can take half an hour with photos.
    let start = args.from.as_deref().map(|path| or_exit(load(path)));
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
        let harvested = or_exit(harvest(&args));
        for _ in 0..args.photo_weight {
            data.extend(harvested.iter().cloned());
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
    let model = match start {
        Some(start) => train_from(start, &data, &options, report_epoch),
        None => train(&data, &options, report_epoch),
    };
    println!(
        "{} parameters, trained in {:.1} s",
        model.shape().parameters(),
        training.elapsed().as_secs_f64()
    );
    or_exit(std::fs::write(out, model.to_bytes()).map_err(|e| format!("cannot write {out}: {e}")));
    println!("wrote {out}");
    report(&model.into(), args.test_cells, args.threads);
}
