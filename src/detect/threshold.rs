//! Grey-level preparation: shrinking by an integer box filter and adaptive thresholding against
//! the local mean (an integral image), which copes with uneven light and shadow. It only marks
//! ink; it does not decide what the ink is.

use image::GrayImage;

/// `image` shrunk by the integer `factor` (each output pixel the mean of a factor x factor
/// block; a partial block at the right or bottom edge is dropped).
pub fn shrink(image: &GrayImage, factor: u32) -> GrayImage {
    let factor = factor.max(1);
    if factor == 1 {
        return image.clone();
    }
    let (w, h) = (image.width() / factor, image.height() / factor);
    let (f, src_w) = (factor as usize, image.width() as usize);
    let src = image.as_raw();
    let mut row_sums = vec![0u32; w as usize];
    let mut out = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h as usize {
        row_sums.iter_mut().for_each(|s| *s = 0);
        for sy in y * f..(y + 1) * f {
            let line = &src[sy * src_w..sy * src_w + w as usize * f];
            for (sum, block) in row_sums.iter_mut().zip(line.chunks_exact(f)) {
                *sum += block.iter().map(|&p| u32::from(p)).sum::<u32>();
            }
        }
        let area = (f * f) as u32;
        out.extend(row_sums.iter().map(|&s| (s / area) as u8));
    }
    GrayImage::from_raw(w, h, out).unwrap_or_default()
}

/// Ink mask of a `width` x `height` grey image: a pixel is ink when it is darker than the mean
/// of the (2 radius + 1)-wide square around it by more than `offset` grey levels.
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
    // Integral image with a zero row and column in front, so window sums need no edge cases.
    let stride = width + 1;
    let mut integral = vec![0u64; stride * (height + 1)];
    for y in 0..height {
        let mut run = 0u64;
        for x in 0..width {
            run += u64::from(pixels[y * width + x]);
            integral[(y + 1) * stride + x + 1] = integral[y * stride + x + 1] + run;
        }
    }
    let offset = u64::from(offset);
    let mut ink = vec![false; pixels.len()];
    for y in 0..height {
        let (y0, y1) = (y.saturating_sub(radius), (y + radius + 1).min(height));
        for x in 0..width {
            let (x0, x1) = (x.saturating_sub(radius), (x + radius + 1).min(width));
            let sum = integral[y1 * stride + x1] + integral[y0 * stride + x0]
                - integral[y0 * stride + x1]
                - integral[y1 * stride + x0];
            let area = ((y1 - y0) * (x1 - x0)) as u64;
            // p < mean - offset, kept in integers: p * area + offset * area < sum.
            ink[y * width + x] = (u64::from(pixels[y * width + x]) + offset) * area < sum;
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
