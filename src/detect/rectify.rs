//! Resampling: bilinear grey samples at real-valued points, and the perspective warp of a
//! quadrilateral of the photo into an upright rectangle. It does not find the quadrilateral.

use image::GrayImage;

use crate::photo::geometry::Homography;

/// The grey level at real coordinates (x, y) of `image`, pixel centres at half-integers,
/// bilinear with weights kept to 1/256 of a pixel and rounded to a level; points outside the
/// image take the nearest edge pixel, and white stands for an empty image or a point at no
/// finite place.
#[inline]
pub fn sample(image: &GrayImage, x: f64, y: f64) -> u8 {
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w == 0 || h == 0 || !(x.is_finite() && y.is_finite()) {
        return 255;
    }
    // In 1/256 pixel, clamped at the first and last pixel centres, so the casts are exact.
    let fx = ((x - 0.5).clamp(0.0, (w - 1) as f64) * 256.0) as i32;
    let fy = ((y - 0.5).clamp(0.0, (h - 1) as f64) * 256.0) as i32;
    let (x0, y0) = ((fx >> 8) as usize, (fy >> 8) as usize);
    let (tx, ty) = (fx & 255, fy & 255);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let raw = image.as_raw();
    let (top, bottom) = (&raw[y0 * w..][..w], &raw[y1 * w..][..w]);
    bilinear([top[x0], top[x1], bottom[x0], bottom[x1]], tx, ty)
}

/// The level between the four pixels `[top left, top right, bottom left, bottom right]` at
/// `tx`, `ty` 256ths of the way right and down, rounded.
#[inline]
fn bilinear(square: [u8; 4], tx: i32, ty: i32) -> u8 {
    let [a, b, c, d] = square.map(i32::from);
    let (upper, lower) = ((a << 8) + (b - a) * tx, (c << 8) + (d - c) * tx);
    (((upper << 8) + (lower - upper) * ty + (1 << 15)) >> 16) as u8
}

/// Output pixels between exact evaluations of the homography in [`warp`]: across so short a
/// span a perspective map bends by far less than a thousandth of a pixel, so the points between
/// are interpolated linearly, sparing a division per pixel.
const SPAN: usize = 8;

/// A `width` x `height` image whose pixel (u, v) shows the photo at `to_photo(u + 0.5, v + 0.5)`,
/// [`sample`]d from `image`, a part of the photo whose top-left pixel is the photo's `origin`.
/// The sample positions are exact every [`SPAN`] pixels and interpolated between. Rows are
/// filled in parallel bands.
pub fn warp(
    image: &GrayImage,
    origin: (u32, u32),
    to_photo: &Homography,
    width: usize,
    height: usize,
) -> Vec<u8> {
    let mut out = vec![255; width * height];
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w == 0 || h == 0 {
        return out;
    }
    let raw = image.as_raw();
    let m = &to_photo.0;
    // Positions are taken relative to the first pixel's centre, as `sample` does.
    let (ox, oy) = (f64::from(origin.0) + 0.5, f64::from(origin.1) + 0.5);
    let (last_x, last_y) = ((w - 1) as f64, (h - 1) as f64);
    // Fixed-point positions need the image under 32768 pixels a side.
    let fits = w.max(h) < 1 << 15;
    let inside = |p: (f64, f64)| fits && p.0 >= 0.0 && p.1 >= 0.0 && p.0 < last_x && p.1 < last_y;
    super::bands::fill_rows(&mut out, width, |first_row, band| {
        for (i, row) in band.chunks_exact_mut(width).enumerate() {
            let v = (first_row + i) as f64 + 0.5;
            let (x_row, y_row, w_row) = (m[1] * v + m[2], m[4] * v + m[5], m[7] * v + m[8]);
            let at = |u: f64| {
                let scale = 1.0 / (m[6] * u + w_row);
                (
                    (m[0] * u + x_row) * scale - ox,
                    (m[3] * u + y_row) * scale - oy,
                )
            };
            for (k, span) in row.chunks_mut(SPAN).enumerate() {
                let u = (k * SPAN) as f64 + 0.5;
                let (start, end) = (at(u), at(u + SPAN as f64));
                let step = (
                    (end.0 - start.0) / SPAN as f64,
                    (end.1 - start.1) / SPAN as f64,
                );
                if !(inside(start) && inside(end)) {
                    for (j, pixel) in span.iter_mut().enumerate() {
                        let j = j as f64;
                        *pixel = sample(
                            image,
                            start.0 + step.0 * j + 0.5,
                            start.1 + step.1 * j + 0.5,
                        );
                    }
                    continue;
                }
                // The whole span lies between pixel centres: no clamping, and positions stepped
                // in 1/65536 pixel (truncated toward the start, so they never pass the end).
                let fixed = |value: f64| (value * 65536.0) as i32;
                let (mut fx, mut fy) = (fixed(start.0), fixed(start.1));
                let (dx, dy) = (fixed(step.0), fixed(step.1));
                for pixel in span.iter_mut() {
                    let (x0, y0) = ((fx >> 16) as usize, (fy >> 16) as usize);
                    let (tx, ty) = ((fx >> 8) & 255, (fy >> 8) & 255);
                    let corner = y0 * w + x0;
                    let square = &raw[corner..corner + w + 2];
                    *pixel = bilinear([square[0], square[1], square[w], square[w + 1]], tx, ty);
                    fx += dx;
                    fy += dy;
                }
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_between_pixels_and_warps_by_a_scale() {
        let image = GrayImage::from_fn(4, 2, |x, _| image::Luma([(x * 60) as u8]));
        assert_eq!(sample(&image, 1.0, 1.0), 30);
        assert_eq!(sample(&image, 1.25, 1.0), 45);
        assert_eq!(sample(&image, -5.0, 0.5), 0);
        assert_eq!(sample(&image, 9.0, 7.0), 180);
        assert_eq!(sample(&image, f64::NAN, 1.0), 255);
        assert_eq!(sample(&GrayImage::new(0, 0), 1.0, 1.0), 255);
        let half = Homography([2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(warp(&image, (0, 0), &half, 2, 1), vec![30, 150]);
        let shifted = Homography([2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0]);
        let right_half = GrayImage::from_fn(2, 2, |x, _| image::Luma([(x * 60 + 120) as u8]));
        assert_eq!(warp(&right_half, (2, 0), &shifted, 1, 1), vec![150]);
    }
}
