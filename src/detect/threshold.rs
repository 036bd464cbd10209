//! Grey-level preparation: the grey image of a colour photo, shrinking by an integer box filter
//! and adaptive thresholding against the local mean (box sums kept in running windows), which
//! copes with uneven light and shadow. It only marks ink; it does not decide what the ink is.

use image::{GrayImage, RgbImage};

/// The grey image of `image` with the `image` crate's own weights (Rec. 709 luma in integers,
/// `(2126 r + 7152 g + 722 b) / 10000`), so it matches `image::imageops::grayscale` pixel for
/// pixel, about twice as fast on a 12-megapixel photo: eight pixels at a time over plain slices,
/// the division a multiplication and shift, rows in parallel bands.
pub fn grayscale(image: &RgbImage) -> GrayImage {
    let luma = |p: &[u8]| {
        let l = 2126 * u32::from(p[0]) + 7152 * u32::from(p[1]) + 722 * u32::from(p[2]);
        ((u64::from(l) * TENTH_THOUSANDTH) >> 35) as u8
    };
    let (width, height) = (image.width() as usize, image.height() as usize);
    let rgb = image.as_raw();
    let mut grey = vec![0u8; width * height];
    super::bands::fill_rows(&mut grey, width, |first_row, band| {
        let colour = &rgb[first_row * width * 3..][..band.len() * 3];
        let mut eights = band.chunks_exact_mut(8);
        let mut colours = colour.chunks_exact(24);
        for (g, p) in (&mut eights).zip(&mut colours) {
            for (i, slot) in g.iter_mut().enumerate() {
                *slot = luma(&p[3 * i..3 * i + 3]);
            }
        }
        let rest = eights.into_remainder();
        for (g, p) in rest.iter_mut().zip(colours.remainder().chunks_exact(3)) {
            *g = luma(p);
        }
    });
    GrayImage::from_raw(image.width(), image.height(), grey).unwrap_or_default()
}

/// `l * TENTH_THOUSANDTH >> 35` is `l / 10000` for every `l` below 21 million (2^35 / 10000
/// rounded up, off by so little); a pixel's weighted sum in [`grayscale`] is at most 2.55 million.
const TENTH_THOUSANDTH: u64 = 3_435_974;

/// `image` shrunk by the integer `factor` (each output pixel the mean of a factor x factor
/// block; a partial block at the right or bottom edge is dropped).
pub fn shrink(image: &GrayImage, factor: u32) -> GrayImage {
    shrink_area(image, factor, (0, 0, image.width(), image.height())).0
}

/// The part of `image` within `area` (x0, y0, x1, y1, pixels, clamped to the image) shrunk by
/// `factor` as [`shrink`] does, with the blocks aligned as in the whole image; also the shrunk
/// image's top-left corner in whole-image shrunk pixels. Shrinking only the grid's box spares
/// the rest of a large photo.
pub fn shrink_area(
    image: &GrayImage,
    factor: u32,
    area: (u32, u32, u32, u32),
) -> (GrayImage, (u32, u32)) {
    let factor = factor.max(1);
    let (x0, y0) = (
        area.0.min(image.width()) / factor,
        area.1.min(image.height()) / factor,
    );
    let (x1, y1) = (
        area.2.min(image.width()) / factor,
        area.3.min(image.height()) / factor,
    );
    let (w, h) = (
        x1.saturating_sub(x0) as usize,
        y1.saturating_sub(y0) as usize,
    );
    let (f, src_w) = (factor as usize, image.width() as usize);
    let src = image.as_raw();
    // A block's mean as a float quotient: its floor is the integer quotient (the quotient is at
    // least 1 / block away from the next integer), and it costs far less than integer division.
    let block = (f * f) as f64;
    let mut out = vec![0u8; w * h];
    super::bands::fill_rows(&mut out, w, |first_row, band| {
        // Column sums over a block's rows first (contiguous, vectorised), then across each block.
        let mut column_sums = vec![0u32; w * f];
        for (y, row) in band.chunks_exact_mut(w).enumerate() {
            column_sums.fill(0);
            let top = (y0 as usize + first_row + y) * f;
            for sy in top..top + f {
                let line = &src[sy * src_w + x0 as usize * f..][..w * f];
                for (sum, &p) in column_sums.iter_mut().zip(line) {
                    *sum += u32::from(p);
                }
            }
            for (pixel, sums) in row.iter_mut().zip(column_sums.chunks_exact(f)) {
                *pixel = (f64::from(sums.iter().sum::<u32>()) / block) as u8;
            }
        }
    });
    let shrunk = GrayImage::from_raw(w as u32, h as u32, out).unwrap_or_default();
    (shrunk, (x0, y0))
}

/// Largest window radius [`adaptive`] uses (larger ones are cut to it): window sums of up to
/// 2001 x 2001 pixels, times the 510 a darkened level can reach, stay within u32.
const MAX_RADIUS: usize = 1000;

/// An image shrunk by a whole factor, and its ink (see [`shrunk_ink`]).
pub struct ShrunkInk {
    pub small: GrayImage,
    pub ink: Vec<bool>,
    pub width: usize,
    pub height: usize,
    pub factor: u32,
}

/// `image` shrunk by a whole factor to at most `long_side` pixels along its longer side, its
/// ink marked as every lattice finder marks it: a window a 50th of the shrunk image, 10 grey
/// levels darker than its mean.
pub fn shrunk_ink(image: &GrayImage, long_side: u32) -> ShrunkInk {
    let (width, height) = image.dimensions();
    let factor = width.max(height).div_ceil(long_side.max(1)).max(1);
    let small = shrink(image, factor);
    let (sw, sh) = (small.width() as usize, small.height() as usize);
    let ink = adaptive(small.as_raw(), sw, sh, sw.max(sh) / 50 + 2, 10);
    ShrunkInk {
        small,
        ink,
        width: sw,
        height: sh,
        factor,
    }
}

/// Ink mask of a `width` x `height` grey image: a pixel is ink when it is darker than the mean
/// of the (2 radius + 1)-wide square around it (cut at the edges) by more than `offset` grey
/// levels.
pub fn adaptive(
    pixels: &[u8],
    width: usize,
    height: usize,
    radius: usize,
    offset: u8,
) -> Vec<bool> {
    if pixels.len() != width * height || width == 0 || height == 0 {
        return vec![false; pixels.len()];
    }
    let radius = radius.min(MAX_RADIUS);
    // Window sums in integers, so the result is exact: a sum of each column over the window's
    // rows, kept running as the window moves down (whole rows at a time, vectorised), then
    // across those through prefix sums.
    let offset = u32::from(offset);
    let mut ink = vec![false; pixels.len()];
    let mut columns = vec![0u32; width];
    let mut prefix = vec![0u32; width + 1];
    let mut sums = vec![0u32; width];
    // How many columns each pixel's window spans, cut at the edges.
    let spans: Vec<u32> = (0..width)
        .map(|x| ((x + radius + 1).min(width) - x.saturating_sub(radius)) as u32)
        .collect();
    let (mut top, mut bottom) = (0, 0); // rows in the column sums: top..bottom
    for (y, (line, out)) in pixels
        .chunks_exact(width)
        .zip(ink.chunks_exact_mut(width))
        .enumerate()
    {
        let (y0, y1) = (y.saturating_sub(radius), (y + radius + 1).min(height));
        while bottom < y1 {
            let row = &pixels[bottom * width..][..width];
            columns
                .iter_mut()
                .zip(row)
                .for_each(|(c, &p)| *c += u32::from(p));
            bottom += 1;
        }
        while top < y0 {
            let row = &pixels[top * width..][..width];
            columns
                .iter_mut()
                .zip(row)
                .for_each(|(c, &p)| *c -= u32::from(p));
            top += 1;
        }
        let mut running = 0;
        for (p, &c) in prefix[1..].iter_mut().zip(&columns) {
            running += c;
            *p = running;
        }
        // Windows whole in the row take plain differences (vectorised); the few cut by an
        // edge are clamped one by one.
        let whole = if width > 2 * radius {
            radius..width - radius
        } else {
            0..0
        };
        // With no whole window (a row narrower than one) both are empty and unused.
        let ahead = prefix.get(whole.start + radius + 1..).unwrap_or_default();
        let behind = &prefix[whole.start - whole.start.min(radius)..];
        for ((sum, &hi), &lo) in sums[whole.clone()].iter_mut().zip(ahead).zip(behind) {
            *sum = hi - lo;
        }
        for x in (0..whole.start).chain(whole.end..width) {
            sums[x] = prefix[(x + radius + 1).min(width)] - prefix[x.saturating_sub(radius)];
        }
        let rows = (y1 - y0) as u32;
        for (((mark, &p), &sum), &span) in out.iter_mut().zip(line).zip(&sums).zip(&spans) {
            // p < mean - offset, kept in integers: p * area + offset * area < sum.
            *mark = (u32::from(p) + offset) * rows * span < sum;
        }
    }
    ink
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shrink_averages_blocks() {
        let image =
            GrayImage::from_fn(5, 4, |x, _| image::Luma([if x % 2 == 0 { 0 } else { 200 }]));
        let small = shrink(&image, 2);
        assert_eq!(small.dimensions(), (2, 2));
        assert!(small.pixels().all(|p| p.0[0] == 100));
    }

    fn noise(width: u32, height: u32, seed: u64) -> GrayImage {
        let mut rng = crate::photo::rng::Rng::new(seed);
        GrayImage::from_fn(width, height, |_, _| image::Luma([rng.below(256) as u8]))
    }

    #[test]
    fn grayscale_matches_the_image_crate() {
        let mut rng = crate::photo::rng::Rng::new(3);
        for (w, h) in [(0, 0), (7, 3), (700, 500)] {
            let colour = RgbImage::from_fn(w, h, |_, _| {
                image::Rgb([0; 3].map(|_: u8| rng.below(256) as u8))
            });
            assert_eq!(grayscale(&colour), image::imageops::grayscale(&colour));
        }
        let white = RgbImage::from_pixel(3, 2, image::Rgb([255; 3]));
        assert!(grayscale(&white).pixels().all(|p| p.0[0] == 255));
        // Every weighted sum a pixel can have is divided exactly.
        for l in 0..=255 * 10_000u32 {
            assert_eq!(
                (u64::from(l) * TENTH_THOUSANDTH) >> 35,
                u64::from(l / 10_000)
            );
        }
    }

    #[test]
    fn shrinking_an_area_keeps_the_whole_image_blocks() {
        let image = noise(203, 151, 1);
        for factor in [1, 3, 4] {
            let whole = shrink(&image, factor);
            let (part, origin) = shrink_area(&image, factor, (50, 31, 170, 400));
            assert_eq!(origin, (50 / factor, 31 / factor));
            assert_eq!(part.height(), whole.height() - origin.1);
            for (x, y, p) in part.enumerate_pixels() {
                assert_eq!(p, whole.get_pixel(x + origin.0, y + origin.1));
            }
        }
        let big = shrink(&noise(4000, 40, 2), 4);
        assert_eq!(big.dimensions(), (1000, 10));
    }

    #[test]
    fn adaptive_agrees_with_the_window_means_computed_directly() {
        // The narrow image is thinner than a window's reach past its edge (a sliver of an
        // outline warped upright).
        for ((w, h), radius) in [(37, 23), (3, 40)]
            .into_iter()
            .flat_map(|size| [0, 1, 4, 30].map(|radius| (size, radius)))
        {
            let image = noise(w as u32, h as u32, 5);
            let pixels = image.as_raw();
            let ink = adaptive(pixels, w, h, radius, 10);
            for y in 0..h {
                for x in 0..w {
                    let (xs, ys) = (
                        x.saturating_sub(radius)..(x + radius + 1).min(w),
                        y.saturating_sub(radius)..(y + radius + 1).min(h),
                    );
                    let area = (xs.len() * ys.len()) as f64;
                    let sum: f64 = ys
                        .flat_map(|yy| xs.clone().map(move |xx| f64::from(pixels[yy * w + xx])))
                        .sum();
                    let darker = f64::from(pixels[y * w + x]) + 10.0 < sum / area;
                    assert_eq!(ink[y * w + x], darker, "radius {radius} at {x},{y}");
                }
            }
        }
    }

    #[test]
    fn adaptive_marks_a_dark_line_under_a_light_gradient() {
        let (w, h) = (60, 40);
        let pixels: Vec<u8> = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let light = 100 + (x * 2) as u8; // uneven light, left to right
                if y == 20 {
                    light - 60
                } else {
                    light
                }
            })
            .collect();
        let ink = adaptive(&pixels, w, h, 5, 10);
        assert!((0..w).all(|x| ink[20 * w + x]));
        assert_eq!(ink.iter().filter(|&&i| i).count(), w);
        assert!(adaptive(&[], 0, 0, 3, 10).is_empty());
    }
}
