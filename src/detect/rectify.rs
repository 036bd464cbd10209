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

/// A `width` x `height` image whose pixel (u, v) shows the photo at `to_photo(u + 0.5, v + 0.5)`.
pub fn warp(image: &GrayImage, to_photo: &Homography, width: usize, height: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(width * height);
    for v in 0..height {
        for u in 0..width {
            let (x, y) = to_photo.apply((u as f64 + 0.5, v as f64 + 0.5));
            out.push(if x.is_finite() && y.is_finite() {
                sample(image, x, y).round() as u8
            } else {
                255
            });
        }
    }
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
        assert_eq!(warp(&image, &half, 2, 1), vec![30, 150]);
    }
}
