//! Synthetic cell crops for training and testing the digit reader: a number printed in an
//! embedded font, photographed badly, cropped roughly, then cut into normalised glyphs by
//! `glyphs` exactly as at run time.
//!
//! Each cell draws, from one seed: cell size, typeface, ink height and position, stroke weight
//! (thinned, thickened or faux bold), rotation, shear, width scale (condensed print) and
//! perspective, grid lines at the border (thin or thick, cut or kept by a jittered crop), uneven
//! light and shadow, dimming, low camera resolution (a cell only 10-25 pixels across, resampled
//! up to the crop as at run time), defocus and motion blur, sensor noise and JPEG compression.
//! It renders no letters and no whole puzzles (that is `render` and `photo`).

use image::{GrayImage, Luma, Rgb, RgbImage};

use super::glyphs::{read_cell, CellContent, NormalisedGlyph};
use super::typefaces::Typeface;
use crate::photo::effects::{self, Frame};
use crate::photo::geometry::Homography;
use crate::photo::rng::Rng;
use crate::render::canvas::{self, HAlign};

/// A rendered cell crop and the number printed in it.
#[derive(Debug, Clone)]
pub struct SynthCell {
    pub image: GrayImage,
    pub number: u32,
}

/// A normalised glyph and its true digit.
#[derive(Debug, Clone)]
pub struct LabelledGlyph {
    pub glyph: NormalisedGlyph,
    pub digit: u8,
}

/// Glyphs from `count` cells rendered with `seed`, and how many cells `glyphs` cut into the
/// wrong number of glyphs (those are left out: their labels would not line up).
pub fn glyph_set(seed: u64, count: usize, fonts: &[Typeface]) -> (Vec<LabelledGlyph>, usize) {
    let mut rng = Rng::new(seed);
    let mut glyphs = Vec::with_capacity(count * 5 / 4);
    let mut missed = 0;
    for _ in 0..count {
        let cell = render_cell(&mut rng.fork(), fonts);
        let digits: Vec<u8> = cell.number.to_string().bytes().map(|b| b - b'0').collect();
        match read_cell(&cell.image) {
            CellContent::Glyphs(found) if found.len() == digits.len() => {
                glyphs.extend(
                    found
                        .into_iter()
                        .zip(digits)
                        .map(|(glyph, digit)| LabelledGlyph { glyph, digit }),
                );
            }
            _ => missed += 1,
        }
    }
    (glyphs, missed)
}

/// A random number as printed in puzzle cells: mostly one digit, a third two digits.
fn draw_number(rng: &mut Rng) -> u32 {
    if rng.chance(0.65) {
        rng.below(10) as u32
    } else {
        10 + rng.below(90) as u32
    }
}

/// One photographed cell holding a number in one of `fonts`.
pub fn render_cell(rng: &mut Rng, fonts: &[Typeface]) -> SynthCell {
    let number = draw_number(rng);
    let font = fonts[rng.below(fonts.len())].font();
    let side = rng.range(22.0, 80.0);
    // The page: the cell plus a margin of neighbouring paper, grid lines on the cell's edges.
    let margin = (side * 0.3).ceil();
    let page_side = (side + 2.0 * margin) as u32;
    let paper = rng.range(200.0, 255.0) as u8;
    let mut page = RgbImage::from_pixel(page_side, page_side, Rgb([paper; 3]));
    let ink_level = rng.range(0.0, 70.0) as u8;
    let ink = Rgb([ink_level; 3]);
    if rng.chance(0.8) {
        let width = rng.range(1.0, (side / 16.0).max(1.5));
        for k in [margin, margin + side] {
            let w = if rng.chance(0.2) { width * 2.0 } else { width };
            let far = page_side as f32;
            canvas::fill_rect(&mut page, k - w / 2.0, 0.0, k + w / 2.0, far, ink);
            canvas::fill_rect(&mut page, 0.0, k - w / 2.0, far, k + w / 2.0, ink);
        }
    }
    let text = number.to_string();
    let mut ink_height = side * rng.range(0.38, 0.75);
    // Cap heights of digits are about 0.72 of the font size in these faces.
    let mut size = ink_height / 0.72;
    let width = canvas::text_width(&font, size, &text);
    if width > side * 0.85 {
        size *= side * 0.85 / width;
        ink_height *= side * 0.85 / width;
    }
    let centre = (
        margin + side / 2.0 + rng.range(-0.08, 0.08) * side,
        margin + side / 2.0 + rng.range(-0.08, 0.08) * (side - ink_height).max(0.0),
    );
    draw_number_layer(&mut page, &font, size, &text, centre, ink, rng);
    // The crop: a square resampled from a slightly wrong quad around the cell, as a grid
    // detector's rectified cell would be (off by a few per cent, lines within a couple of
    // degrees of square), with the print itself a little rotated, sheared and stretched.
    // Low camera resolution: the page as a camera that gives the digits only 6-11 pixels of
    // height sees it, resampled up to a crop of 48-64 pixels as the reader's cells and clue
    // bands are.
    let low_res = rng.chance(0.25).then(|| rng.range(6.0, 11.0) / ink_height);
    let low_res = low_res.filter(|&scale| scale < 0.85);
    let out = if low_res.is_some() {
        rng.range(48.0, 64.0).round() as u32
    } else {
        (side * rng.range(0.8, 1.25)).round().clamp(16.0, 100.0) as u32
    };
    let angle = rng.range(-2.0f32, 2.0).to_radians();
    let shear = rng.range(-0.12, 0.12);
    let stretch = rng.range(0.88, 1.12);
    let (c, s) = (angle.cos(), angle.sin());
    let offset = (rng.range(-0.06, 0.06) * side, rng.range(-0.06, 0.06) * side);
    let centre = (
        margin + side / 2.0 + offset.0,
        margin + side / 2.0 + offset.1,
    );
    let jitter = 0.025 * side;
    let corner = |u: f32, v: f32, rng: &mut Rng| {
        let (x, y) = (u * stretch + shear * v, v);
        (
            f64::from(centre.0 + c * x - s * y + rng.range(-jitter, jitter)),
            f64::from(centre.1 + s * x + c * y + rng.range(-jitter, jitter)),
        )
    };
    let h = side / 2.0;
    let quad = [
        corner(-h, -h, rng),
        corner(h, -h, rng),
        corner(h, h, rng),
        corner(-h, h, rng),
    ];
    let mut quad = quad;
    if let Some(scale) = low_res {
        let small = ((page_side as f32 * scale).round() as u32).max(4);
        let filter = image::imageops::FilterType::Triangle;
        page = image::imageops::resize(&page, small, small, filter);
        let s = f64::from(small) / f64::from(page_side);
        quad = quad.map(|(x, y)| (x * s, y * s));
    }
    let o = f64::from(out);
    let Some(to_page) = Homography::from_points([(0.0, 0.0), (o, 0.0), (o, o), (0.0, o)], quad)
    else {
        return SynthCell {
            image: GrayImage::from_pixel(out, out, Luma([paper])),
            number,
        };
    };
    let n = out as usize;
    let mut frame = Frame::new(n, n);
    for y in 0..n {
        for x in 0..n {
            let (px, py) = to_page.apply((x as f64 + 0.5, y as f64 + 0.5));
            let value = effects::sample_image(&page, px as f32 - 0.5, py as f32 - 0.5)
                .map_or(f32::from(paper), |v| v[0]);
            frame.data[(y * n + x) * 3..][..3].fill(value);
        }
    }
    let dim = rng.range(0.45, 1.0);
    frame.data.iter_mut().for_each(|v| *v *= dim);
    let light = rng.range(0.0, 0.5);
    let shadow = if rng.chance(0.3) {
        rng.range(0.0, 0.5)
    } else {
        0.0
    };
    effects::light_and_shadow(&mut frame, light, shadow, &mut rng.fork());
    // Old phone cameras at close range often leave digits badly out of focus: strokes smeared
    // over a tenth of the cell, the "1"'s flag and foot merged into its stem.
    // A low-resolution cell is blurred enough by its upsampling.
    let blur = if low_res.is_some() {
        0.015
    } else if rng.chance(0.35) {
        0.08
    } else {
        0.035
    };
    effects::defocus(&mut frame, rng.range(0.0, blur * out as f32));
    if rng.chance(0.3) {
        effects::motion_blur(&mut frame, rng.range(0.0, 2.0), rng.range(0.0, 180.0));
    }
    effects::sensor_noise(&mut frame, rng.range(0.0, 10.0), &mut rng.fork());
    let mut image = GrayImage::from_fn(out, out, |x, y| {
        Luma([frame.data[(y as usize * n + x as usize) * 3]
            .round()
            .clamp(0.0, 255.0) as u8])
    });
    if rng.chance(0.7) {
        image = jpeg_round_trip(&image, rng.range(25.0, 95.0) as u8).unwrap_or(image);
    }
    SynthCell { image, number }
}

/// Supersampling of the number's own layer, so stroke weight can change by less than a pixel.
const LAYER_SCALE: u32 = 3;

/// Draws `text` onto `page` in `ink`, centred on `centre`, now and then squeezed across
/// (condensed print), with its strokes thinned (light print, a thin face), thickened (ink spread
/// on newsprint, a heavy face) or doubled a little to the side (faux bold).
fn draw_number_layer(
    page: &mut RgbImage,
    font: &ab_glyph::FontRef<'static>,
    size: f32,
    text: &str,
    centre: (f32, f32),
    ink: Rgb<u8>,
    rng: &mut Rng,
) {
    let k = LAYER_SCALE as f32;
    let (w, h) = (page.width() * LAYER_SCALE, page.height() * LAYER_SCALE);
    let mut layer = RgbImage::from_pixel(w, h, Rgb([255; 3]));
    let black = Rgb([0; 3]);
    let hi_centre = (centre.0 * k, centre.1 * k);
    canvas::draw_label(
        &mut layer,
        font,
        size * k,
        text,
        hi_centre,
        HAlign::Centre,
        black,
    );
    if rng.chance(0.25) {
        // Faux bold: the same text again a fraction of a stroke to the side.
        let shift = rng.range(0.3, (0.06 * size).max(0.31)) * k;
        let down = if rng.chance(0.5) { shift * 0.5 } else { 0.0 };
        let moved = (hi_centre.0 + shift, hi_centre.1 + down);
        canvas::draw_label(
            &mut layer,
            font,
            size * k,
            text,
            moved,
            HAlign::Centre,
            black,
        );
    }
    let mut coverage: Vec<f32> = layer
        .pixels()
        .map(|p| 1.0 - f32::from(p[0]) / 255.0)
        .collect();
    let weight = rng.unit();
    let radius = if weight < 0.2 {
        -(rng.range(0.0, 0.025 * size * k).round() as isize)
    } else if weight < 0.45 {
        rng.range(0.0, 0.025 * size * k).round() as isize
    } else {
        0
    };
    if radius != 0 {
        morph(&mut coverage, w as usize, h as usize, radius);
    }
    let squeeze = if rng.chance(0.2) {
        rng.range(0.65, 0.9)
    } else {
        1.0
    };
    // Each page pixel averages LAYER_SCALE x LAYER_SCALE points of the layer, spread wider
    // across by 1/squeeze about the centre.
    let samples = (LAYER_SCALE * LAYER_SCALE) as f32;
    for (x, y, pixel) in page.enumerate_pixels_mut() {
        let mut sum = 0.0;
        for dy in 0..LAYER_SCALE {
            let row = (y * LAYER_SCALE + dy) as usize * w as usize;
            for dx in 0..LAYER_SCALE {
                let px = x as f32 + (dx as f32 + 0.5) / k;
                let lx = ((px - centre.0) / squeeze + centre.0) * k;
                if (0.0..w as f32).contains(&lx) {
                    sum += coverage[row + lx as usize];
                }
            }
        }
        let c = sum / samples;
        for (channel, &ink_level) in pixel.0.iter_mut().zip(&ink.0) {
            *channel = (f32::from(*channel) * (1.0 - c) + f32::from(ink_level) * c).round() as u8;
        }
    }
}

/// Grows (positive `radius`) or shrinks (negative) the inked area of a `w` x `h` coverage map
/// by a square of that radius: a running max or min along rows, then along columns.
fn morph(coverage: &mut [f32], w: usize, h: usize, radius: isize) {
    let r = radius.unsigned_abs();
    let pick = |a: f32, b: f32| if radius > 0 { a.max(b) } else { a.min(b) };
    let mut line = Vec::new();
    for y in 0..h {
        line.clear();
        line.extend_from_slice(&coverage[y * w..][..w]);
        for x in 0..w {
            let (a, b) = (x.saturating_sub(r), (x + r).min(w - 1));
            coverage[y * w + x] = line[a..=b].iter().copied().fold(line[x], pick);
        }
    }
    for x in 0..w {
        line.clear();
        line.extend((0..h).map(|y| coverage[y * w + x]));
        for y in 0..h {
            let (a, b) = (y.saturating_sub(r), (y + r).min(h - 1));
            coverage[y * w + x] = line[a..=b].iter().copied().fold(line[y], pick);
        }
    }
}

/// The image after JPEG compression at `quality`.
fn jpeg_round_trip(image: &GrayImage, quality: u8) -> Option<GrayImage> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(image)
        .ok()?;
    Some(image::load_from_memory(&bytes).ok()?.to_luma8())
}
