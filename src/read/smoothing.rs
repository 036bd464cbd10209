//! Smooths a photo's sensor noise out of the part of it the read stage looks at: a Gaussian of
//! [`SIGMA`] pixels over the lattice and the clue strips beside it. Cells are resampled from the
//! photo at about their printed size or larger, so noise that is independent from pixel to pixel
//! reaches the glyph finder whole. On a dim, noisy hard photo it rose above the faint digits'
//! ink floor and read as digits in blank cells: a boxed grid's blank cells then held so many
//! "numbers" that its clue boxes were not told from its grid.
//!
//! It does not find the lattice (detect does, on the photo as taken) or decide when a photo is
//! read smoothed: the pipeline reads it so only when the photo as taken did not read (see
//! `solve_found` in `lib.rs`), since smoothing also softens the small, sharp digits of clean
//! photos.

use image::GrayImage;

use crate::detect::{bands, Lattice};

/// The Gaussian's standard deviation, in photo pixels. In a first trial (every photo smoothed
/// whole, by the `image` crate's blur) 1.0 read a little more of a fresh set of 60 hard
/// nonogram photos than 0.7 (63.3% against 60.0%, 56.7% unsmoothed) but answered two photos of
/// a scene blurred already wrongly.
const SIGMA: f32 = 0.7;

/// The Gaussian of [`SIGMA`] at -2..=2 pixels, in 256ths summing to 256 exactly (the taps
/// beyond weigh under 0.1%): 2, 53, 146, 53, 2.
fn weights() -> [u32; 5] {
    let gaussian = |x: f32| (-x * x / (2.0 * SIGMA * SIGMA)).exp();
    let total: f32 = (-2..=2).map(|x| gaussian(x as f32)).sum();
    let side = |x: f32| (256.0 * gaussian(x) / total).round() as u32;
    let (near, far) = (side(1.0), side(2.0));
    [far, near, 256 - 2 * (near + far), near, far]
}

/// How far past the lattice's box the photo is smoothed, as a share of the box's side: a
/// nonogram's clues printed beside its grid take at most half its side.
const CLUE_REACH: f32 = 0.6;

/// `image` with the box around `lattice` (and [`CLUE_REACH`] beyond it) smoothed; the rest of
/// the photo as it was.
pub fn smoothed_around(image: &GrayImage, lattice: &Lattice) -> GrayImage {
    let mut smoothed = image.clone();
    let Some((x0, y0, x1, y1)) = reach(image, lattice) else {
        return smoothed;
    };
    let weights = weights();
    let (w, h) = (x1 - x0, y1 - y0);
    let (width, height) = (image.width() as usize, image.height() as usize);
    let pixels = image.as_raw();
    let tap = |i: usize, k: usize, n: usize| (i + k).saturating_sub(2).min(n - 1);
    // Across first, over the rows the second pass reaches too (two beyond each end).
    let (r0, r1) = (y0.saturating_sub(2), (y1 + 2).min(height));
    let mut across = vec![0u16; w * (r1 - r0)];
    bands::fill_rows(&mut across, w, |first, band| {
        for (offset, out) in band.chunks_exact_mut(w).enumerate() {
            let row = &pixels[(r0 + first + offset) * width..][..width];
            for (x, value) in out.iter_mut().enumerate() {
                let sum: u32 = weights
                    .iter()
                    .enumerate()
                    .map(|(k, &weight)| weight * u32::from(row[tap(x0 + x, k, width)]))
                    .sum();
                *value = sum as u16;
            }
        }
    });
    let mut down = vec![0u8; w * h];
    bands::fill_rows(&mut down, w, |first, band| {
        for (offset, out) in band.chunks_exact_mut(w).enumerate() {
            let y = y0 + first + offset;
            for (x, value) in out.iter_mut().enumerate() {
                let sum: u32 = weights
                    .iter()
                    .enumerate()
                    .map(|(k, &weight)| {
                        weight * u32::from(across[(tap(y, k, height) - r0) * w + x])
                    })
                    .sum();
                *value = ((sum + (1 << 15)) >> 16) as u8;
            }
        }
    });
    for (row, line) in down.chunks_exact(w).enumerate() {
        let start = (y0 + row) * width + x0;
        smoothed.as_mut()[start..start + w].copy_from_slice(line);
    }
    smoothed
}

/// The pixel box (x0, y0, x1, y1; ends exclusive) around `lattice` and its clues, within
/// `image`; `None` when it holds no pixel.
fn reach(image: &GrayImage, lattice: &Lattice) -> Option<(usize, usize, usize, usize)> {
    let points = || {
        lattice
            .points
            .iter()
            .flatten()
            .filter(|p| p.0.is_finite() && p.1.is_finite())
    };
    let low = |pick: fn(&(f32, f32)) -> f32| points().map(pick).fold(f32::INFINITY, f32::min);
    let high = |pick: fn(&(f32, f32)) -> f32| points().map(pick).fold(f32::NEG_INFINITY, f32::max);
    let (left, right) = (low(|p| p.0), high(|p| p.0));
    let (top, bottom) = (low(|p| p.1), high(|p| p.1));
    if !(left <= right && top <= bottom) {
        return None;
    }
    let (reach_x, reach_y) = (CLUE_REACH * (right - left), CLUE_REACH * (bottom - top));
    let clamp = |v: f32, n: u32| v.clamp(0.0, n as f32) as usize;
    let (x0, x1) = (
        clamp(left - reach_x, image.width()),
        clamp(right + reach_x + 1.0, image.width()),
    );
    let (y0, y1) = (
        clamp(top - reach_y, image.height()),
        clamp(bottom + reach_y + 1.0, image.height()),
    );
    (x0 < x1 && y0 < y1).then_some((x0, y0, x1, y1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lattice(corners: [(f32, f32); 2]) -> Lattice {
        let [(left, top), (right, bottom)] = corners;
        Lattice {
            rows: 1,
            columns: 1,
            points: vec![
                vec![(left, top), (right, top)],
                vec![(left, bottom), (right, bottom)],
            ],
        }
    }

    #[test]
    fn the_weights_are_a_normalised_gaussian_of_sigma() {
        let weights = weights();
        assert_eq!(weights, [2, 53, 146, 53, 2]);
        assert_eq!(weights.iter().sum::<u32>(), 256);
        let gaussian = |x: f32| (-x * x / (2.0 * SIGMA * SIGMA)).exp();
        let total: f32 = (-2..=2).map(|x| gaussian(x as f32)).sum();
        for (k, &weight) in weights.iter().enumerate() {
            let exact = 256.0 * gaussian(k as f32 - 2.0) / total;
            assert!(
                (weight as f32 - exact).abs() <= 0.5,
                "tap {k}: {weight} vs {exact}"
            );
        }
    }

    #[test]
    fn noise_is_smoothed_near_the_lattice_and_left_far_from_it() {
        // A checkerboard of 100 and 200: the finest noise there is.
        let image = GrayImage::from_fn(400, 300, |x, y| {
            image::Luma([if (x + y) % 2 == 0 { 100 } else { 200 }])
        });
        let smoothed = smoothed_around(&image, &lattice([(100.0, 100.0), (150.0, 150.0)]));
        let spread = |x0: u32, y0: u32| {
            let values: Vec<u8> = (y0..y0 + 10)
                .flat_map(|y| (x0..x0 + 10).map(move |x| (x, y)))
                .map(|(x, y)| smoothed.get_pixel(x, y).0[0])
                .collect();
            values.iter().max().unwrap() - values.iter().min().unwrap()
        };
        // Inside and within the clue reach: 100 apart becomes a few levels.
        assert!(spread(120, 120) <= 25, "{}", spread(120, 120));
        assert!(spread(75, 120) <= 25, "{}", spread(75, 120));
        // Far off: untouched.
        assert_eq!(spread(300, 250), 100);
    }

    #[test]
    fn flat_paper_and_a_wide_stroke_keep_their_levels() {
        let image = GrayImage::from_fn(60, 60, |x, _| {
            image::Luma([if (20..30).contains(&x) { 40 } else { 220 }])
        });
        let smoothed = smoothed_around(&image, &lattice([(0.0, 0.0), (59.0, 59.0)]));
        for y in [0, 30, 59] {
            assert_eq!(smoothed.get_pixel(5, y).0[0], 220);
            assert_eq!(smoothed.get_pixel(25, y).0[0], 40);
            assert_eq!(smoothed.get_pixel(0, y).0[0], 220);
        }
    }

    #[test]
    fn a_lattice_off_the_photo_or_of_no_points_leaves_it_as_it_was() {
        let image = GrayImage::from_fn(50, 40, |x, y| {
            image::Luma([((x * 37 + y * 11) % 256) as u8])
        });
        let off = smoothed_around(&image, &lattice([(500.0, 500.0), (600.0, 600.0)]));
        assert_eq!(off, image);
        let empty = Lattice {
            rows: 0,
            columns: 0,
            points: Vec::new(),
        };
        assert_eq!(smoothed_around(&image, &empty), image);
        let nan = smoothed_around(&image, &lattice([(f32::NAN, 0.0), (f32::NAN, 10.0)]));
        assert_eq!(nan, image);
    }
}
