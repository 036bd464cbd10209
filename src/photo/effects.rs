//! Pixel effects of a camera on a floating-point RGB frame: the desk surround, uneven light and
//! shadow, defocus and motion blur, and sensor noise. Geometry lives in `geometry`.

use image::RgbImage;

use super::rng::Rng;

/// An RGB frame with channels as f32 in 0..255, row-major, interleaved.
#[derive(Debug, Clone)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub data: Vec<f32>,
}

impl Frame {
    pub fn new(width: usize, height: usize) -> Frame {
        Frame {
            width,
            height,
            data: vec![0.0; width * height * 3],
        }
    }

    /// The frame as 8-bit pixels, clamped.
    pub fn to_image(&self) -> RgbImage {
        let bytes = self
            .data
            .iter()
            .map(|v| v.round().clamp(0.0, 255.0) as u8)
            .collect();
        RgbImage::from_raw(self.width as u32, self.height as u32, bytes).unwrap_or_default()
    }

    /// Bilinear sample of channel `c` at (x, y), clamped to the edge.
    fn sample(&self, x: f32, y: f32, c: usize) -> f32 {
        let x = x.clamp(0.0, (self.width - 1) as f32);
        let y = y.clamp(0.0, (self.height - 1) as f32);
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(self.width - 1), (y0 + 1).min(self.height - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let at = |x: usize, y: usize| self.data[(y * self.width + x) * 3 + c];
        let top = at(x0, y0) * (1.0 - fx) + at(x1, y0) * fx;
        let bottom = at(x0, y1) * (1.0 - fx) + at(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    }
}

/// Bilinear sample of an 8-bit image at (x, y), or `None` outside it.
pub fn sample_image(image: &RgbImage, x: f32, y: f32) -> Option<[f32; 3]> {
    let (w, h) = (image.width() as f32, image.height() as f32);
    if !(0.0..w - 1.0).contains(&x) || !(0.0..h - 1.0).contains(&y) {
        return None;
    }
    let (x0, y0) = (x as u32, y as u32);
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |dx, dy| image.get_pixel(x0 + dx, y0 + dy).0;
    let (a, b, c, d) = (p(0, 0), p(1, 0), p(0, 1), p(1, 1));
    Some(std::array::from_fn(|i| {
        let top = f32::from(a[i]) * (1.0 - fx) + f32::from(b[i]) * fx;
        let bottom = f32::from(c[i]) * (1.0 - fx) + f32::from(d[i]) * fx;
        top * (1.0 - fy) + bottom * fy
    }))
}

/// A desk surface: a base colour with a slow gradient and fine wood-like grain.
#[derive(Debug, Clone)]
pub struct Desk {
    colour: [f32; 3],
    grain_angle: f32,
    grain_scale: f32,
    grain_strength: f32,
}

impl Desk {
    pub fn new(rng: &mut Rng) -> Desk {
        const COLOURS: [[f32; 3]; 5] = [
            [150.0, 105.0, 70.0],
            [95.0, 70.0, 50.0],
            [185.0, 180.0, 170.0],
            [60.0, 62.0, 68.0],
            [200.0, 170.0, 130.0],
        ];
        Desk {
            colour: COLOURS[rng.below(COLOURS.len())],
            grain_angle: rng.range(0.0, std::f32::consts::PI),
            grain_scale: rng.range(0.02, 0.08),
            grain_strength: rng.range(0.03, 0.12),
        }
    }

    /// The desk colour at frame pixel (x, y).
    pub fn at(&self, x: f32, y: f32) -> [f32; 3] {
        let (s, c) = self.grain_angle.sin_cos();
        let across = x * c + y * s;
        let along = -x * s + y * c;
        let grain = (across * self.grain_scale + (along * 0.004).sin() * 3.0).sin() * 0.6
            + (across * self.grain_scale * 2.7 + 1.3).sin() * 0.4;
        let shade = 1.0 + self.grain_strength * grain;
        self.colour.map(|v| v * shade)
    }
}

/// Multiplies the frame by a smooth illumination field: a linear falloff of strength `light`,
/// a vignette, and a soft-edged shadow of darkness `shadow` over part of the frame.
pub fn light_and_shadow(frame: &mut Frame, light: f32, shadow: f32, rng: &mut Rng) {
    let (w, h) = (frame.width as f32, frame.height as f32);
    let angle = rng.range(0.0, std::f32::consts::TAU);
    let (gx, gy) = (angle.cos(), angle.sin());
    let shadow_angle = rng.range(0.0, std::f32::consts::TAU);
    let (sx, sy) = (shadow_angle.cos(), shadow_angle.sin());
    let shadow_offset = rng.range(0.15, 0.45) * w.max(h);
    let softness = rng.range(0.03, 0.12) * w.max(h);
    let warm = [1.0, rng.range(0.96, 1.0), rng.range(0.88, 0.98)];
    let diagonal = (w * w + h * h).sqrt() / 2.0;
    for y in 0..frame.height {
        for x in 0..frame.width {
            let (dx, dy) = (x as f32 - w / 2.0, y as f32 - h / 2.0);
            let along = (dx * gx + dy * gy) / diagonal; // -1..1
            let radius = (dx * dx + dy * dy).sqrt() / diagonal;
            let mut gain = 1.0 - light * (0.5 + 0.5 * along) - 0.25 * light * radius * radius;
            let beyond = (dx * sx + dy * sy - shadow_offset) / softness;
            gain *= 1.0 - shadow / (1.0 + (-beyond).exp());
            let i = (y * frame.width + x) * 3;
            for (value, tint) in frame.data[i..i + 3].iter_mut().zip(warm) {
                *value *= gain * tint;
            }
        }
    }
}

/// Gaussian blur of standard deviation `sigma` pixels, separable; nothing below 0.3.
pub fn defocus(frame: &mut Frame, sigma: f32) {
    if sigma < 0.3 {
        return;
    }
    let radius = (sigma * 3.0).ceil() as isize;
    let kernel: Vec<f32> = (-radius..=radius)
        .map(|i| (-((i * i) as f32) / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f32 = kernel.iter().sum();
    let kernel: Vec<f32> = kernel.iter().map(|k| k / total).collect();
    let (w, h) = (frame.width as isize, frame.height as isize);
    let pass = |frame: &mut Frame, horizontal: bool| {
        let mut out = vec![0.0f32; frame.data.len()];
        for y in 0..h {
            for x in 0..w {
                let mut sum = [0.0f32; 3];
                for (k, weight) in kernel.iter().enumerate() {
                    let offset = k as isize - radius;
                    let (sx, sy) = if horizontal {
                        ((x + offset).clamp(0, w - 1), y)
                    } else {
                        (x, (y + offset).clamp(0, h - 1))
                    };
                    let i = ((sy * w + sx) * 3) as usize;
                    for (total, value) in sum.iter_mut().zip(&frame.data[i..i + 3]) {
                        *total += value * weight;
                    }
                }
                let i = ((y * w + x) * 3) as usize;
                out[i..i + 3].copy_from_slice(&sum);
            }
        }
        frame.data = out;
    };
    pass(frame, true);
    pass(frame, false);
}

/// Motion blur: the average of the frame shifted along a line `length` pixels long at `angle`
/// degrees; nothing below half a pixel.
pub fn motion_blur(frame: &mut Frame, length: f32, angle: f32) {
    if length < 0.5 {
        return;
    }
    let steps = length.ceil() as usize + 1;
    let (dx, dy) = (angle.to_radians().cos(), angle.to_radians().sin());
    let offsets: Vec<(f32, f32)> = (0..steps)
        .map(|i| (i as f32 / (steps - 1) as f32 - 0.5) * length)
        .map(|t| (t * dx, t * dy))
        .collect();
    let mut out = vec![0.0f32; frame.data.len()];
    for y in 0..frame.height {
        for x in 0..frame.width {
            let i = (y * frame.width + x) * 3;
            for c in 0..3 {
                let sum: f32 = offsets
                    .iter()
                    .map(|&(ox, oy)| frame.sample(x as f32 + ox, y as f32 + oy, c))
                    .sum();
                out[i + c] = sum / steps as f32;
            }
        }
    }
    frame.data = out;
}

/// Sensor noise: per-pixel luminance noise of `sigma` levels plus weaker colour noise.
pub fn sensor_noise(frame: &mut Frame, sigma: f32, rng: &mut Rng) {
    for pixel in frame.data.chunks_exact_mut(3) {
        let luminance = rng.normal() * sigma;
        for value in pixel.iter_mut() {
            *value += luminance + rng.normal() * sigma * 0.35;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blur_keeps_a_flat_frame_flat() {
        let mut frame = Frame {
            width: 20,
            height: 10,
            data: vec![100.0; 600],
        };
        defocus(&mut frame, 1.5);
        motion_blur(&mut frame, 4.0, 30.0);
        assert!(frame.data.iter().all(|v| (v - 100.0).abs() < 1e-3));
    }
}
