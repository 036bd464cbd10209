//! The photo simulator: turns a puzzle into a deterministic photo-like JPEG of it printed on a
//! page, with ground truth (the puzzle, its solution, where the grid's corners are in the image).
//!
//! One seed gives the same bytes every time. Stages, one module each: `presets` draws effect
//! strengths, `clutter` prints the sheet, `geometry` places it in the frame (tilt, rotation,
//! curl), `effects` adds light, blur and noise, `exif` tags rotations, `truth` writes and checks
//! the ground truth, `dataset` makes the curated samples and larger sets. The camera is brought
//! close enough, and the blur held low enough, that a person could read the puzzle's numbers,
//! unless a test asks for a photo past reading. It does not read photos back; that is the
//! recogniser's job.

pub mod clutter;
pub mod dataset;
pub mod effects;
pub mod exif;
pub mod geometry;
pub mod presets;
pub mod rng;
pub mod truth;

use image::imageops::{self, FilterType};
use serde_json::{json, Value};

use crate::render::{render, Answer, Drawable, FontName, RenderError, RenderOptions, Style};
use effects::{Desk, Frame};
use geometry::{Curl, Homography};
pub use presets::{Effects, Preset};
use rng::Rng;

/// The ink height, in frame pixels, of the smallest digits a person reads in a photo.
const LEGIBLE_DIGIT_PX: f64 = 8.0;

/// The most blur a person reads digits through, as the Gaussian sigma of defocus and motion
/// together (a motion streak of length L counting as sigma L/sqrt(12)) over the digits' height:
/// at a sixth, detail of two cycles per digit height, below which reading slows sharply, keeps
/// a tenth of its contrast.
const LEGIBLE_BLUR: f64 = 1.0 / 6.0;

/// What to simulate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhotoOptions {
    pub preset: Preset,
    pub seed: u64,
    /// Overrides the preset's resolution range (megapixels), e.g. to keep samples small.
    pub megapixels: Option<(f32, f32)>,
    /// Print the page's column rules through the puzzle too, as a pen stroke or a fold would
    /// cross its clues and grid: no page layout does, so only a test of the reader asks for it.
    pub rules_through_puzzle: bool,
    /// Keep the preset's framing and blur even where the puzzle's numbers come out too small or
    /// too blurred for a person to read: only a test of the reader's refusals asks for it.
    pub past_reading: bool,
}

/// A simulated photo: JPEG bytes and their ground truth.
#[derive(Debug, Clone)]
pub struct Photo {
    pub jpeg: Vec<u8>,
    pub truth: Value,
}

/// What can go wrong while simulating a photo.
#[derive(Debug, thiserror::Error)]
pub enum PhotoError {
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error("cannot encode the image: {0}")]
    Encode(#[from] image::ImageError),
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: String,
        source: std::io::Error,
    },
    #[error("the sheet could not be placed in the frame (degenerate geometry)")]
    Geometry,
}

/// Photographs `puzzle` printed on a page; `answer` goes into the ground truth.
pub fn photograph(
    puzzle: &Drawable,
    answer: &Answer,
    options: &PhotoOptions,
) -> Result<Photo, PhotoError> {
    let mut rng = Rng::new(
        options
            .seed
            .wrapping_mul(4)
            .wrapping_add(options.preset as u64),
    );
    let mut effects = Effects::draw(options.preset, &mut rng.fork(), options.megapixels);
    let mut look_rng = rng.fork();
    let look = RenderOptions {
        style: Style::ALL[look_rng.below(2)],
        font: FontName::ALL[look_rng.below(FontName::ALL.len())],
        cell: 30 + look_rng.below(20) as u32,
        thick_every_five: look_rng.chance(0.7),
    };
    let page = render(puzzle, None, &look)?;
    let mut sheet = clutter::compose(
        &page,
        puzzle.as_puzzle().kind(),
        effects.clutter,
        options.rules_through_puzzle,
        &mut rng.fork(),
    );
    let (width, height) = (effects.width as f64, effects.height as f64);

    // Place the sheet: the camera's view of it, scaled and shifted into the frame, shrunk until
    // the puzzle grid is well inside (the surrounding matter may be cut off).
    let (sw, sh) = (
        f64::from(sheet.image.width()),
        f64::from(sheet.image.height()),
    );
    let unit = geometry::projected_corners(
        sw,
        sh,
        f64::from(effects.rotation),
        f64::from(effects.tilt_x),
        f64::from(effects.tilt_y),
    );
    let sheet_corners = |w: f64, h: f64| [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)];
    let (min_x, max_x) = unit.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.0), hi.max(p.0))
    });
    let (min_y, max_y) = unit.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let mut scale =
        f64::from(effects.fill) * (width / (max_x - min_x)).min(height / (max_y - min_y));
    let mut shift = (
        f64::from(effects.shift.0) * width,
        f64::from(effects.shift.1) * height,
    );
    let place = |scale: f64, shift: (f64, f64)| {
        let centre = (
            width / 2.0 + shift.0 - (min_x + max_x) / 2.0 * scale,
            height / 2.0 + shift.1 - (min_y + max_y) / 2.0 * scale,
        );
        let dest = unit.map(|(x, y)| (centre.0 + x * scale, centre.1 + y * scale));
        Homography::from_points(sheet_corners(sw, sh), dest)
            .map(|h| (dest, h))
            .ok_or(PhotoError::Geometry)
    };
    let margin = 0.04 * width.min(height);
    let inside = |h: &Homography, points: &[(f32, f32); 4]| {
        points.iter().all(|&(x, y)| {
            let (u, v) = h.apply((f64::from(x), f64::from(y)));
            (margin..width - margin).contains(&u) && (margin..height - margin).contains(&v)
        })
    };
    let mut placed = None;
    for _ in 0..40 {
        let (dest, h) = place(scale, shift)?;
        if inside(&h, &sheet.grid_corners) {
            placed = Some((dest, h));
            break;
        }
        scale *= 0.93;
        shift = (shift.0 * 0.8, shift.1 * 0.8);
    }
    let (mut dest, mut placement) = placed.ok_or(PhotoError::Geometry)?;
    // A person photographing a puzzle to solve it frames it so its numbers can be read: when
    // they come out smaller than the smallest print a person reads, the camera moves closer,
    // as far as the whole puzzle, clues and all, stays in the frame.
    let digit = number_height_in_frame(&placement, &sheet);
    if !options.past_reading && digit > 0.0 && digit < LEGIBLE_DIGIT_PX {
        let mut closer = scale * LEGIBLE_DIGIT_PX / digit;
        while closer > scale * 1.01 {
            let (nearer, h) = place(closer, shift)?;
            if inside(&h, &sheet.puzzle_corners) {
                (dest, placement) = (nearer, h);
                break;
            }
            closer *= 0.97;
        }
    }
    // And it is retaken when blur smears the numbers past reading: the blur stays within what
    // a person reads through.
    let digit = number_height_in_frame(&placement, &sheet);
    let blur = (effects.defocus.powi(2) + effects.motion.powi(2) / 12.0).sqrt();
    let most = (digit * LEGIBLE_BLUR) as f32;
    if !options.past_reading && most > 0.0 && blur > most {
        effects.defocus *= most / blur;
        effects.motion *= most / blur;
    }

    // Shrink the sheet to about its size in the frame first: bilinear sampling of a much larger
    // sheet would alias thin grid lines away.
    let top_edge = ((dest[1].0 - dest[0].0).powi(2) + (dest[1].1 - dest[0].1).powi(2)).sqrt();
    let bottom_edge = ((dest[2].0 - dest[3].0).powi(2) + (dest[2].1 - dest[3].1).powi(2)).sqrt();
    let ratio = top_edge.max(bottom_edge) * 1.2 / sw;
    if ratio < 0.9 {
        let (nw, nh) = (
            (sw * ratio).round().max(2.0) as u32,
            (sh * ratio).round().max(2.0) as u32,
        );
        let factor = (f64::from(nw) / sw) as f32;
        sheet.image = imageops::resize(&sheet.image, nw, nh, FilterType::Triangle);
        sheet.grid_corners = sheet.grid_corners.map(|(x, y)| (x * factor, y * factor));
    }
    let (sw, sh) = (
        f64::from(sheet.image.width()),
        f64::from(sheet.image.height()),
    );
    let to_frame =
        Homography::from_points(sheet_corners(sw, sh), dest).ok_or(PhotoError::Geometry)?;
    let to_sheet = to_frame.inverse().ok_or(PhotoError::Geometry)?;
    let curl = Curl::new(sw, sh, effects.curl, &mut rng.fork());
    let desk = Desk::new(&mut rng.fork());

    let (w, h) = (effects.width as usize, effects.height as usize);
    let mut frame = Frame::new(w, h);
    for y in 0..h {
        for x in 0..w {
            let p = to_sheet.apply((x as f64 + 0.5, y as f64 + 0.5));
            let d = curl.at(p);
            let colour = effects::sample_image(
                &sheet.image,
                (p.0 + d.0 - 0.5) as f32,
                (p.1 + d.1 - 0.5) as f32,
            )
            .unwrap_or_else(|| desk.at(x as f32, y as f32));
            frame.data[(y * w + x) * 3..(y * w + x) * 3 + 3].copy_from_slice(&colour);
        }
    }
    effects::light_and_shadow(&mut frame, effects.light, effects.shadow, &mut rng.fork());
    effects::defocus(&mut frame, effects.defocus);
    effects::motion_blur(&mut frame, effects.motion, effects.motion_angle);
    effects::sensor_noise(&mut frame, effects.noise, &mut rng.fork());
    let upright = frame.to_image();

    let corners = sheet.grid_corners.map(|(x, y)| {
        let p = to_frame.apply(curl.undo((f64::from(x), f64::from(y))));
        (p.0 as f32, p.1 as f32)
    });
    let (fw, fh) = (effects.width as f32, effects.height as f32);
    // EXIF orientation: store the pixels turned the other way, so a viewer that applies the tag
    // shows the upright frame.
    let (stored, stored_corners) = match effects.exif_orientation {
        Some(3) => (
            imageops::rotate180(&upright),
            corners.map(|(x, y)| (fw - x, fh - y)),
        ),
        Some(6) => (
            imageops::rotate270(&upright),
            corners.map(|(x, y)| (y, fw - x)),
        ),
        Some(8) => (
            imageops::rotate90(&upright),
            corners.map(|(x, y)| (fh - y, x)),
        ),
        _ => (upright, corners),
    };
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, effects.jpeg_quality)
        .encode_image(&stored)?;
    if let Some(orientation) = effects.exif_orientation {
        jpeg = exif::with_orientation(&jpeg, orientation).ok_or(PhotoError::Geometry)?;
    }

    let mut truth = truth::report_fields(puzzle, answer);
    let points = |c: [(f32, f32); 4]| {
        json!(c.map(|(x, y)| [
            (f64::from(x) * 10.0).round() / 10.0,
            (f64::from(y) * 10.0).round() / 10.0
        ]))
    };
    truth.insert(
        "image".into(),
        json!({
            "width": stored.width(), "height": stored.height(),
            "exif_orientation": effects.exif_orientation.unwrap_or(1),
        }),
    );
    truth.insert("grid_corners".into(), points(stored_corners));
    truth.insert("grid_corners_upright".into(), points(corners));
    truth.insert(
        "number_height_px".into(),
        ((digit * 10.0).round() / 10.0).into(),
    );
    truth.insert("preset".into(), options.preset.name().into());
    truth.insert("seed".into(), options.seed.into());
    truth.insert(
        "render".into(),
        json!({ "style": look.style.name(), "font": look.font.name(), "cell": look.cell }),
    );
    truth.insert("effects".into(), effects.to_json());
    Ok(Photo {
        jpeg,
        truth: Value::Object(truth),
    })
}

/// The ink height of the sheet's smallest numbers where they come out smallest in the frame:
/// at the corner of the puzzle the tilt takes farthest from the camera.
fn number_height_in_frame(to_frame: &Homography, sheet: &clutter::Sheet) -> f64 {
    let height = f64::from(sheet.number_height);
    sheet
        .puzzle_corners
        .iter()
        .map(|&(x, y)| {
            let (x, y) = (f64::from(x), f64::from(y));
            let top = to_frame.apply((x, y - height / 2.0));
            let bottom = to_frame.apply((x, y + height / 2.0));
            ((bottom.0 - top.0).powi(2) + (bottom.1 - top.1).powi(2)).sqrt()
        })
        .fold(f64::INFINITY, f64::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Deadline;

    fn sudoku() -> (Drawable, Answer) {
        let text = include_str!("../../samples/classic.sudoku");
        let puzzle =
            Drawable::from_puzzle(crate::input::parse_puzzles(text, None).unwrap()[0].as_ref())
                .unwrap();
        let answer = puzzle.solve(&Deadline::none()).unwrap();
        (puzzle, answer)
    }

    #[test]
    fn a_seed_reproduces_identical_bytes() {
        let (puzzle, answer) = sudoku();
        let options = PhotoOptions {
            preset: Preset::Hard,
            seed: 11,
            megapixels: Some((0.3, 0.4)),
            rules_through_puzzle: false,
            past_reading: false,
        };
        let first = photograph(&puzzle, &answer, &options).unwrap();
        let second = photograph(&puzzle, &answer, &options).unwrap();
        assert_eq!(first.jpeg, second.jpeg);
        assert_eq!(first.truth, second.truth);
        let other = photograph(
            &puzzle,
            &answer,
            &PhotoOptions {
                seed: 12,
                ..options
            },
        )
        .unwrap();
        assert_ne!(first.jpeg, other.jpeg);
    }

    #[test]
    fn a_hard_photos_numbers_come_out_as_a_person_reads_them_unless_asked_past_reading() {
        let text = include_str!("../../tests/data/nonogram-10x30.non");
        let puzzle =
            Drawable::from_puzzle(crate::input::parse_puzzles(text, None).unwrap()[0].as_ref())
                .unwrap();
        let answer = puzzle.solve(&Deadline::none()).unwrap();
        let options = PhotoOptions {
            preset: Preset::Hard,
            seed: 80001,
            megapixels: None,
            rules_through_puzzle: false,
            past_reading: false,
        };
        let number = |photo: &Photo| photo.truth["number_height_px"].as_f64().unwrap();
        let blur = |photo: &Photo| {
            let effects = &photo.truth["effects"];
            let (defocus, motion) = (
                effects["defocus"].as_f64().unwrap(),
                effects["motion"].as_f64().unwrap(),
            );
            (defocus.powi(2) + motion.powi(2) / 12.0).sqrt()
        };
        let legible = photograph(&puzzle, &answer, &options).unwrap();
        assert!(number(&legible) >= LEGIBLE_DIGIT_PX);
        assert!(blur(&legible) <= number(&legible) * LEGIBLE_BLUR + 0.01);
        // Drawn as the preset draws it, this photo's blur is over a quarter of its clue digits'
        // height: blobs no one reads.
        let past = photograph(
            &puzzle,
            &answer,
            &PhotoOptions {
                past_reading: true,
                ..options
            },
        )
        .unwrap();
        assert!(blur(&past) > number(&past) / 4.0);
        assert_ne!(legible.jpeg, past.jpeg);
    }

    #[test]
    fn rules_through_the_puzzle_change_the_page_but_not_the_truth() {
        let (puzzle, answer) = sudoku();
        let mut crossed = 0;
        for seed in 0..6 {
            let laid_out = PhotoOptions {
                preset: Preset::Hard,
                seed,
                megapixels: Some((0.3, 0.4)),
                rules_through_puzzle: false,
                past_reading: false,
            };
            let ruled = PhotoOptions {
                rules_through_puzzle: true,
                ..laid_out
            };
            let first = photograph(&puzzle, &answer, &laid_out).unwrap();
            let second = photograph(&puzzle, &answer, &ruled).unwrap();
            assert_eq!(first.truth, second.truth);
            crossed += usize::from(first.jpeg != second.jpeg);
        }
        // A hard page is cluttered: most have a column rule where the puzzle is.
        assert!(crossed > 0);
    }

    #[test]
    fn every_preset_gives_its_stated_size_and_a_valid_truth() {
        let (puzzle, answer) = sudoku();
        for preset in Preset::ALL {
            for seed in 0..3 {
                let options = PhotoOptions {
                    preset,
                    seed,
                    megapixels: None,
                    rules_through_puzzle: false,
                    past_reading: false,
                };
                let photo = photograph(&puzzle, &answer, &options).unwrap();
                let decoded = image::load_from_memory(&photo.jpeg).unwrap();
                let effects = &photo.truth["effects"];
                let (w, h) = (
                    effects["width"].as_u64().unwrap() as u32,
                    effects["height"].as_u64().unwrap() as u32,
                );
                let turned = matches!(exif::orientation(&photo.jpeg), Some(6 | 8));
                let expected = if turned { (h, w) } else { (w, h) };
                assert_eq!(
                    (decoded.width(), decoded.height()),
                    expected,
                    "{}",
                    preset.name()
                );
                let (low, high) = preset.megapixels();
                let mp = f64::from(w) * f64::from(h) / 1e6;
                assert!(mp >= f64::from(low) * 0.98 && mp <= f64::from(high) * 1.02);
                truth::verify(&photo.truth).unwrap();
                for corner in photo.truth["grid_corners"].as_array().unwrap() {
                    let (x, y) = (corner[0].as_f64().unwrap(), corner[1].as_f64().unwrap());
                    assert!(
                        x > 0.0
                            && y > 0.0
                            && x < f64::from(decoded.width())
                            && y < f64::from(decoded.height())
                    );
                }
            }
        }
    }
}
