//! Resampling: bilinear grey samples at real-valued points, and the perspective warp of a
//! quadrilateral of the photo into an upright rectangle. It does not find the quadrilateral.

use image::GrayImage;

use crate::photo::geometry::Homography;

/// The grey level at real coordinates (x, y), pixel centres at half-integers; points outside
/// the image take the nearest edge pixel. White for an empty image.
pub fn sample(image: &GrayImage, x: f64, y: f64) -> f64 {
    let (w, h) = (image.width() as usize, image.height() as usize);
    if w == 0 || h == 0 {
        return 255.0;
    }
    let raw = image.as_raw();
    let (fx, fy) = (
        (x - 0.5).clamp(0.0, (w - 1) as f64),
        (y - 0.5).clamp(0.0, (h - 1) as f64),
    );
    let (x0, y0) = (fx as usize, fy as usize);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (tx, ty) = (fx - x0 as f64, fy - y0 as f64);
    let at = |x: usize, y: usize| f64::from(raw[y * w + x]);
    let top = at(x0, y0) * (1.0 - tx) + at(x1, y0) * tx;
    let bottom = at(x0, y1) * (1.0 - tx) + at(x1, y1) * tx;
    top * (1.0 - ty) + bottom * ty
}

/// A grey level rounded to the nearest integer, halves up: `f64::round` is a library call on
/// the baseline x86-64 target, and this runs once per pixel of a warp.
#[inline]
pub fn to_level(value: f64) -> u8 {
    (value + 0.5) as u8
}

/// A `width` x `height` image whose pixel (u, v) shows the photo at `to_photo(u + 0.5, v + 0.5)`,
/// sampled bilinearly (as [`sample`] does) from `image`, a part of the photo whose top-left
/// pixel is the photo's `origin`. Rows are filled in parallel bands; along a row only the
/// homography's terms in u change.
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
    // The photo's origin and the pixel centre folded into the translation terms.
    let (ox, oy) = (f64::from(origin.0) + 0.5, f64::from(origin.1) + 0.5);
    let (max_x, max_y) = ((w - 1) as f64, (h - 1) as f64);
    super::bands::fill_rows(&mut out, width, |first_row, band| {
        for (i, row) in band.chunks_exact_mut(width).enumerate() {
            let v = (first_row + i) as f64 + 0.5;
            let (x_row, y_row, w_row) = (m[1] * v + m[2], m[4] * v + m[5], m[7] * v + m[8]);
            for (u, pixel) in row.iter_mut().enumerate() {
                let u = u as f64 + 0.5;
                let scale = 1.0 / (m[6] * u + w_row);
                let (x, y) = (
                    (m[0] * u + x_row) * scale - ox,
                    (m[3] * u + y_row) * scale - oy,
                );
                if !(x.is_finite() && y.is_finite()) {
                    continue;
                }
                let (fx, fy) = (x.clamp(0.0, max_x), y.clamp(0.0, max_y));
                // Both are at least 0 and below the image size: the i32 cast is exact and cheap.
                let (x0, y0) = (fx as i32 as usize, fy as i32 as usize);
                let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
                let (tx, ty) = (fx - x0 as f64, fy - y0 as f64);
                let (top, bottom) = (&raw[y0 * w..][..w], &raw[y1 * w..][..w]);
                let upper = f64::from(top[x0]) + (f64::from(top[x1]) - f64::from(top[x0])) * tx;
                let lower =
                    f64::from(bottom[x0]) + (f64::from(bottom[x1]) - f64::from(bottom[x0])) * tx;
                *pixel = to_level(upper + (lower - upper) * ty);
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
        assert_eq!(sample(&image, 1.0, 1.0), 30.0);
        assert_eq!(sample(&image, -5.0, 0.5), 0.0);
        assert_eq!(sample(&GrayImage::new(0, 0), 1.0, 1.0), 255.0);
        let half = Homography([2.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0]);
        assert_eq!(warp(&image, (0, 0), &half, 2, 1), vec![30, 150]);
        let shifted = Homography([2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 0.0, 0.0, 1.0]);
        let right_half = GrayImage::from_fn(2, 2, |x, _| image::Luma([(x * 60 + 120) as u8]));
        assert_eq!(warp(&right_half, (2, 0), &shifted, 1, 1), vec![150]);
    }
}
