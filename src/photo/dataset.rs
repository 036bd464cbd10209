//! Sample sets: the curated samples kept in the repository (every kind under every preset,
//! including the GCHQ puzzle drawn from its clues), larger generated sets for training and
//! evaluation, and a contact sheet of the samples.
//!
//! Puzzles come from the seeds in `assets/puzzles` and from variants of them that keep their
//! solutions unique (symmetries, digit relabelling) or new random ones that the solver confirms.

use std::path::Path;

use image::imageops::{self, FilterType};
use image::{Rgb, RgbImage};

use super::rng::Rng;
use super::{photograph, PhotoError, PhotoOptions, Preset};
use crate::input::parse_puzzles;
use crate::kinds::jump::JumpMaze;
use crate::kinds::nonogram::Nonogram;
use crate::kinds::nurikabe::Nurikabe;
use crate::kinds::sudoku::Sudoku;
use crate::limits::Deadline;
use crate::outcome::Outcome;
use crate::render::canvas::{self, HAlign};
use crate::render::{Drawable, FontName};

const GCHQ: &str = include_str!("../../samples/gchq.non");
const HLAVOLAM: &str = include_str!("../../assets/puzzles/hlavolam.jump");
const SUDOKU: &str = include_str!("../../samples/classic.sudoku");
const NURIKABE: [&str; 10] = [
    include_str!("../../assets/puzzles/nurikabe/5x5.txt"),
    include_str!("../../assets/puzzles/nurikabe/7x7.txt"),
    include_str!("../../assets/puzzles/nurikabe/15x15-5057541.txt"),
    include_str!("../../assets/puzzles/nurikabe/15x15-5122197.txt"),
    include_str!("../../assets/puzzles/nurikabe/15x15-5383030.txt"),
    include_str!("../../assets/puzzles/nurikabe/15x15-6275294.txt"),
    include_str!("../../assets/puzzles/nurikabe/15x15-6646970.txt"),
    include_str!("../../assets/puzzles/nurikabe/15x15-6944232.txt"),
    include_str!("../../assets/puzzles/nurikabe/20x20-3757659.txt"),
    include_str!("../../assets/puzzles/nurikabe/20x20-536628.txt"),
];
/// The kinds in the order samples and contact sheets list them.
pub const KINDS: [&str; 4] = ["nonogram", "nurikabe", "jump", "sudoku"];
/// Resolution of the curated samples by preset, kept modest so the set stays small; harder
/// presets get more pixels so their small, tilted grids stay legible.
const SAMPLE_MEGAPIXELS: [(f32, f32); 3] = [(1.0, 1.5), (1.5, 2.5), (2.5, 3.0)];
/// How long any one solver call may take while making a set.
const SOLVE_SECONDS: u64 = 10;

/// One sample written to disk.
#[derive(Debug, Clone)]
pub struct Written {
    pub name: String,
    pub kind: &'static str,
    pub preset: Preset,
    pub jpeg_bytes: usize,
}

/// Writes the curated samples (one per kind and preset) and `contact-sheet.png` to `dir`.
pub fn write_samples(dir: &Path) -> Result<Vec<Written>, PhotoError> {
    create_dir(dir)?;
    let mut written = Vec::new();
    for (k, kind) in KINDS.into_iter().enumerate() {
        for (p, preset) in Preset::ALL.into_iter().enumerate() {
            let seed = 1000 + (k * 3 + p) as u64;
            // The seed puzzles themselves: GCHQ, a 15x15 Nurikabe, the hlavolam maze, the classic.
            let puzzle = seed_puzzle(kind, 2)?;
            let options = PhotoOptions {
                preset,
                seed,
                megapixels: Some(SAMPLE_MEGAPIXELS[p]),
                rules_through_puzzle: false,
                past_reading: false,
            };
            written.push(write_one(
                dir,
                &format!("{kind}-{}", preset.name()),
                kind,
                &puzzle,
                &options,
            )?);
        }
    }
    let sheet = contact_sheet(dir, &written)?;
    let path = dir.join("contact-sheet.png");
    sheet.save(&path).map_err(PhotoError::Encode)?;
    Ok(written)
}

/// Writes `count` samples with seeds from `first_seed`, kinds and presets taken in turn and
/// puzzles varied by the seed, to `dir`.
pub fn generate(dir: &Path, count: usize, first_seed: u64) -> Result<Vec<Written>, PhotoError> {
    generate_kinds(dir, count, first_seed, &KINDS, &Preset::ALL)
}

/// [`generate`] with only `kinds` (names from [`KINDS`]) taken in turn, and `presets` in turn
/// after each round of them: a trainer that wants one kind's photos, or one preset's, makes no
/// others. No kinds or no presets make no photos.
pub fn generate_kinds(
    dir: &Path,
    count: usize,
    first_seed: u64,
    kinds: &[&'static str],
    presets: &[Preset],
) -> Result<Vec<Written>, PhotoError> {
    create_dir(dir)?;
    if kinds.is_empty() || presets.is_empty() {
        return Ok(Vec::new());
    }
    (0..count)
        .map(|i| {
            let seed = first_seed + i as u64;
            let kind = kinds[i % kinds.len()];
            let preset = presets[(i / kinds.len()) % presets.len()];
            let puzzle = variant(kind, &mut Rng::new(seed ^ 0xA5A5))?;
            let options = PhotoOptions {
                preset,
                seed,
                megapixels: None,
                rules_through_puzzle: false,
                past_reading: false,
            };
            write_one(
                dir,
                &format!("{i:05}-{kind}-{}", preset.name()),
                kind,
                &puzzle,
                &options,
            )
        })
        .collect()
}

fn create_dir(dir: &Path) -> Result<(), PhotoError> {
    std::fs::create_dir_all(dir).map_err(|source| PhotoError::Write {
        path: dir.display().to_string(),
        source,
    })
}

/// Photographs `puzzle` and writes `NAME.jpg` and `NAME.truth.json` into `dir`.
fn write_one(
    dir: &Path,
    name: &str,
    kind: &'static str,
    puzzle: &Drawable,
    options: &PhotoOptions,
) -> Result<Written, PhotoError> {
    let answer = puzzle.solve(&Deadline::after(std::time::Duration::from_secs(
        SOLVE_SECONDS,
    )))?;
    let photo = photograph(puzzle, &answer, options)?;
    write_photo(&dir.join(format!("{name}.jpg")), &photo)?;
    Ok(Written {
        name: name.to_string(),
        kind,
        preset: options.preset,
        jpeg_bytes: photo.jpeg.len(),
    })
}

/// Writes a photo to `path` (a `.jpg`) and its truth beside it as `NAME.truth.json`.
pub fn write_photo(path: &Path, photo: &super::Photo) -> Result<(), PhotoError> {
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|source| PhotoError::Write {
            path: path.display().to_string(),
            source,
        })
    };
    write(path, &photo.jpeg)?;
    let truth = serde_json::to_string_pretty(&photo.truth).unwrap_or_default() + "\n";
    write(&path.with_extension("truth.json"), truth.as_bytes())
}

/// The seed puzzle of `kind`; for Nurikabe, the `index`-th seed file.
fn seed_puzzle(kind: &str, index: usize) -> Result<Drawable, PhotoError> {
    let text = match kind {
        "nonogram" => GCHQ,
        "nurikabe" => NURIKABE[index % NURIKABE.len()],
        "jump" => HLAVOLAM,
        _ => SUDOKU,
    };
    let puzzles = parse_puzzles(text, None)
        .map_err(|e| crate::render::RenderError::UnsupportedKind(e.to_string()))?;
    let first = puzzles
        .first()
        .ok_or_else(|| crate::render::RenderError::UnsupportedKind(kind.to_string()))?;
    Ok(Drawable::from_puzzle(first.as_ref())?)
}

/// A puzzle of `kind` drawn from `rng`: a seed puzzle, transformed so its solution stays unique,
/// or a new random one that the solver confirms.
fn variant(kind: &str, rng: &mut Rng) -> Result<Drawable, PhotoError> {
    Ok(match seed_puzzle(kind, rng.below(NURIKABE.len()))? {
        Drawable::Nonogram(gchq) => {
            random_nonogram(rng).map_or(Drawable::Nonogram(gchq), Drawable::Nonogram)
        }
        Drawable::Nurikabe(map) => Drawable::Nurikabe(transform_nurikabe(&map, rng.below(8))),
        Drawable::Jump(maze) => random_maze(rng).map_or(Drawable::Jump(maze), Drawable::Jump),
        Drawable::Sudoku(sudoku) => Drawable::Sudoku(shuffle_sudoku(&sudoku, rng)),
    })
}

/// A random blobby picture turned into clues, kept only when its solution is unique. Large
/// blobs give runs of 10 and more, so multi-digit clues occur.
fn random_nonogram(rng: &mut Rng) -> Option<Nonogram> {
    for _ in 0..20 {
        let (width, height) = (10 + rng.below(21), 10 + rng.below(21));
        let noise: Vec<f32> = (0..width * height).map(|_| rng.unit()).collect();
        let smooth = |r: usize, c: usize| {
            let mut sum = 0.0;
            let mut n = 0.0;
            for rr in r.saturating_sub(1)..(r + 2).min(height) {
                for cc in c.saturating_sub(1)..(c + 2).min(width) {
                    sum += noise[rr * width + cc];
                    n += 1.0;
                }
            }
            sum / n
        };
        let threshold = rng.range(0.42, 0.52);
        let cells: Vec<Vec<bool>> = (0..height)
            .map(|r| (0..width).map(|c| smooth(r, c) > threshold).collect())
            .collect();
        let rows = (0..height)
            .map(|r| crate::kinds::nonogram::clue_of((0..width).map(|c| cells[r][c])))
            .collect();
        let columns = (0..width)
            .map(|c| crate::kinds::nonogram::clue_of((0..height).map(|r| cells[r][c])))
            .collect();
        let puzzle = Nonogram {
            rows,
            columns,
            givens: Vec::new(),
            goal: None,
        };
        if let Ok(Outcome::Unique(_)) =
            puzzle.solve_grid(&Deadline::after(std::time::Duration::from_secs(2)))
        {
            return Some(puzzle);
        }
    }
    None
}

/// One of the eight symmetries of the square applied to a Nurikabe (uniqueness is kept).
fn transform_nurikabe(map: &Nurikabe, symmetry: usize) -> Nurikabe {
    let (w, h) = (map.width, map.height);
    let swap = symmetry & 4 != 0;
    let clues = map
        .clues
        .iter()
        .map(|&(r, c, size)| {
            let r = if symmetry & 1 != 0 { h - 1 - r } else { r };
            let c = if symmetry & 2 != 0 { w - 1 - c } else { c };
            if swap {
                (c, r, size)
            } else {
                (r, c, size)
            }
        })
        .collect();
    let (width, height) = if swap { (h, w) } else { (w, h) };
    Nurikabe {
        width,
        height,
        clues,
    }
}

/// A Sudoku with relabelled digits and permuted rows, columns, bands and stacks, and maybe
/// transposed: the same puzzle in disguise, still with one solution.
fn shuffle_sudoku(sudoku: &Sudoku, rng: &mut Rng) -> Sudoku {
    let mut shuffled = |n: usize| {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, rng.below(i + 1));
        }
        order
    };
    let digits = shuffled(9);
    let lines = |bands: Vec<usize>, inner: [Vec<usize>; 3]| -> Vec<usize> {
        bands
            .iter()
            .flat_map(|&b| inner[b].iter().map(move |&i| b * 3 + i))
            .collect()
    };
    let rows = lines(shuffled(3), [shuffled(3), shuffled(3), shuffled(3)]);
    let columns = lines(shuffled(3), [shuffled(3), shuffled(3), shuffled(3)]);
    let transpose = rng.chance(0.5);
    let mut cells = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = if transpose {
                (columns[c], rows[r])
            } else {
                (rows[r], columns[c])
            };
            let value = sudoku.cells[sr * 9 + sc];
            cells[r * 9 + c] = if value == 0 {
                0
            } else {
                digits[usize::from(value) - 1] as u8 + 1
            };
        }
    }
    Sudoku { cells }
}

/// A random round maze with the start in the centre, kept when its way out takes 3 or more
/// jumps.
fn random_maze(rng: &mut Rng) -> Option<JumpMaze> {
    for _ in 0..50 {
        let radius = 3 + rng.below(6);
        let side = 2 * radius + 1;
        let roundness = rng.range(1.0, 2.0);
        let grid: Vec<Vec<u32>> = (0..side)
            .map(|r| {
                (0..side)
                    .map(|c| {
                        let (dr, dc) = (
                            (r as f32 - radius as f32).abs(),
                            (c as f32 - radius as f32).abs(),
                        );
                        let inside = (dr.powf(roundness) + dc.powf(roundness))
                            .powf(1.0 / roundness)
                            <= radius as f32 + 0.3;
                        if inside {
                            // Jumps under half the radius: no way out in one or two jumps.
                            1 + rng.below((radius / 2).clamp(2, 9)) as u32
                        } else {
                            0
                        }
                    })
                    .collect()
            })
            .collect();
        let maze = JumpMaze {
            grid,
            start: (radius, radius),
        };
        if let Ok(Some((path, _))) =
            crate::kinds::jump::solver::shortest_paths(&maze, &Deadline::none())
        {
            if path.cells.len() >= 3 {
                return Some(maze);
            }
        }
    }
    None
}

/// A grid of thumbnails of the written samples, kinds down and presets across, each labelled.
fn contact_sheet(dir: &Path, written: &[Written]) -> Result<RgbImage, PhotoError> {
    const THUMB: u32 = 220;
    const LABEL: u32 = 26;
    let columns = Preset::ALL.len() as u32;
    let rows = written.len().div_ceil(columns as usize) as u32;
    let mut sheet = RgbImage::from_pixel(
        columns * THUMB,
        rows * (THUMB + LABEL),
        Rgb([255, 255, 255]),
    );
    let font = FontName::Sans.font();
    for (i, sample) in written.iter().enumerate() {
        let path = dir.join(format!("{}.jpg", sample.name));
        let bytes = std::fs::read(&path).map_err(|source| PhotoError::Read {
            path: path.display().to_string(),
            source,
        })?;
        let decoded = image::load_from_memory(&bytes)?.to_rgb8();
        // Show the image as a viewer would, after its EXIF rotation.
        let upright = match super::exif::orientation(&bytes) {
            Some(3) => imageops::rotate180(&decoded),
            Some(6) => imageops::rotate90(&decoded),
            Some(8) => imageops::rotate270(&decoded),
            _ => decoded,
        };
        let scale = THUMB as f32 / upright.width().max(upright.height()) as f32;
        let thumb = imageops::resize(
            &upright,
            ((upright.width() as f32 * scale) as u32).max(1),
            ((upright.height() as f32 * scale) as u32).max(1),
            FilterType::Triangle,
        );
        let (x, y) = (
            (i as u32 % columns) * THUMB,
            (i as u32 / columns) * (THUMB + LABEL),
        );
        imageops::overlay(
            &mut sheet,
            &thumb,
            i64::from(x + (THUMB - thumb.width()) / 2),
            i64::from(y + LABEL),
        );
        let label = format!("{} / {}", sample.kind, sample.preset.name());
        canvas::draw_label(
            &mut sheet,
            &font,
            15.0,
            &label,
            (x as f32 + THUMB as f32 / 2.0, y as f32 + LABEL as f32 / 2.0),
            HAlign::Centre,
            Rgb([0, 0, 0]),
        );
    }
    Ok(sheet)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_keep_a_valid_unique_solution() {
        for kind in KINDS {
            for seed in 0..4 {
                let puzzle = variant(kind, &mut Rng::new(seed)).unwrap();
                let answer = puzzle.solve(&Deadline::none()).unwrap();
                let truth =
                    serde_json::Value::Object(super::super::truth::report_fields(&puzzle, &answer));
                super::super::truth::verify(&truth).unwrap();
                if let Drawable::Jump(maze) = &puzzle {
                    // Random mazes are at most 17 cells across; the bundled one is 21.
                    assert!(
                        maze.grid.len() <= 17,
                        "seed {seed}: fell back to the bundled maze"
                    );
                }
                if kind != "jump" {
                    let solution = puzzle.as_puzzle().solve(&Deadline::none()).unwrap();
                    assert!(matches!(solution, Outcome::Unique(_)), "{kind} {seed}");
                }
            }
        }
    }

    #[test]
    fn generated_set_truths_parse_and_verify() {
        let dir =
            std::env::temp_dir().join(format!("gridsight-generate-test-{}", std::process::id()));
        let written = generate(&dir, 4, 5).unwrap();
        for sample in &written {
            let text =
                std::fs::read_to_string(dir.join(format!("{}.truth.json", sample.name))).unwrap();
            let truth: serde_json::Value = serde_json::from_str(&text).unwrap();
            super::super::truth::verify(&truth).unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn generating_one_kind_takes_the_presets_in_turn() {
        let dir = std::env::temp_dir().join(format!("gridsight-kinds-test-{}", std::process::id()));
        let written = generate_kinds(&dir, 2, 5, &["nonogram"], &Preset::ALL).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let made: Vec<_> = written.iter().map(|w| (w.kind, w.preset)).collect();
        assert_eq!(
            made,
            [("nonogram", Preset::ALL[0]), ("nonogram", Preset::ALL[1])]
        );
    }

    #[test]
    fn generating_one_preset_makes_no_other() {
        let dir =
            std::env::temp_dir().join(format!("gridsight-preset-test-{}", std::process::id()));
        let written = generate_kinds(&dir, 2, 5, &["sudoku"], &[Preset::Photo]).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let made: Vec<_> = written.iter().map(|w| (w.kind, w.preset)).collect();
        assert_eq!(made, [("sudoku", Preset::Photo), ("sudoku", Preset::Photo)]);
    }

    #[test]
    fn curated_samples_cover_every_kind_and_preset_and_verify() {
        let dir =
            std::env::temp_dir().join(format!("gridsight-samples-test-{}", std::process::id()));
        let written = write_samples(&dir).unwrap();
        assert_eq!(written.len(), KINDS.len() * Preset::ALL.len());
        for sample in &written {
            let text =
                std::fs::read_to_string(dir.join(format!("{}.truth.json", sample.name))).unwrap();
            super::super::truth::verify(&serde_json::from_str(&text).unwrap()).unwrap();
        }
        assert!(
            std::fs::metadata(dir.join("contact-sheet.png"))
                .unwrap()
                .len()
                < 1 << 20
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_gchq_truth_carries_its_qr_text() {
        let puzzle = seed_puzzle("nonogram", 0).unwrap();
        let answer = puzzle.solve(&Deadline::none()).unwrap();
        let fields = super::super::truth::report_fields(&puzzle, &answer);
        assert_eq!(fields["qr"], "www.gchq.gov.uk/puzz");
    }
}
