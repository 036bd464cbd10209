//! The three camera presets (`scan`, `photo`, `hard`) and the concrete effect strengths a seed
//! draws from one. It only chooses numbers; `effects`, `geometry` and `clutter` apply them.

use serde_json::{json, Value};

use super::exif::ORIENTATIONS;
use super::rng::Rng;

/// How hard the simulated photo is to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Nearly flat and clean, like a flatbed scan.
    Scan,
    /// A careful phone photo: moderate tilt, light and blur.
    Photo,
    /// Strong everything: steep tilt, any rotation, shadows, curl, blur, noise, low quality.
    Hard,
}

impl Preset {
    pub const ALL: [Preset; 3] = [Preset::Scan, Preset::Photo, Preset::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Scan => "scan",
            Preset::Photo => "photo",
            Preset::Hard => "hard",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The resolution range of the preset, in megapixels.
    pub fn megapixels(self) -> (f32, f32) {
        match self {
            Preset::Scan => (1.0, 4.0),
            Preset::Photo => (2.0, 8.0),
            Preset::Hard => (4.0, 12.0),
        }
    }
}

/// Every effect strength for one photo, drawn once from the seed.
#[derive(Debug, Clone, PartialEq)]
pub struct Effects {
    /// Output size before any EXIF rotation, in pixels.
    pub width: u32,
    pub height: u32,
    /// Tilt of the paper away from the camera, about its horizontal and vertical axes (degrees).
    pub tilt_x: f32,
    pub tilt_y: f32,
    /// In-plane rotation of the paper (degrees, any angle).
    pub rotation: f32,
    /// EXIF orientation written instead of turning the pixels, when set.
    pub exif_orientation: Option<u16>,
    /// Fraction of the frame's shorter side the sheet's longer side spans.
    pub fill: f32,
    /// Offset of the sheet centre from the frame centre, as fractions of the frame.
    pub shift: (f32, f32),
    /// 0..1: how much printed matter surrounds the puzzle.
    pub clutter: f32,
    /// 0..1: brightness falloff across the frame.
    pub light: f32,
    /// 0..1: darkness of a soft shadow across part of the frame.
    pub shadow: f32,
    /// Page curl: amplitude of the smooth warp as a fraction of the sheet size.
    pub curl: f32,
    /// Gaussian defocus sigma in output pixels.
    pub defocus: f32,
    /// Motion blur length in output pixels and its direction (degrees).
    pub motion: f32,
    pub motion_angle: f32,
    /// Sensor noise standard deviation in 8-bit levels.
    pub noise: f32,
    pub jpeg_quality: u8,
}

impl Effects {
    /// Draws effect strengths for `preset`; `megapixels` overrides the preset's range (samples
    /// for the repository are kept small this way).
    pub fn draw(preset: Preset, rng: &mut Rng, megapixels: Option<(f32, f32)>) -> Effects {
        let (low_mp, high_mp) = megapixels.unwrap_or_else(|| preset.megapixels());
        let pixels = rng.range(low_mp, high_mp.max(low_mp)) * 1.0e6;
        let aspect = [4.0 / 3.0, 3.0 / 2.0, 16.0 / 9.0, 1.0][rng.below(4)];
        let landscape = rng.chance(0.4);
        let long = (pixels * aspect).sqrt();
        let short = pixels / long;
        let (width, height) = if landscape {
            (long, short)
        } else {
            (short, long)
        };
        let scale = (pixels / 2.0e6).sqrt(); // blur sizes are chosen for a 2 MP frame
        let sign = |rng: &mut Rng| if rng.chance(0.5) { 1.0 } else { -1.0 };
        let mut effects = match preset {
            Preset::Scan => Effects {
                width: 0,
                height: 0,
                tilt_x: rng.range(-2.0, 2.0),
                tilt_y: rng.range(-2.0, 2.0),
                rotation: rng.range(-2.0, 2.0),
                exif_orientation: None,
                fill: rng.range(1.0, 1.2),
                shift: (rng.range(-0.02, 0.02), rng.range(-0.02, 0.02)),
                clutter: rng.range(0.0, 0.3),
                light: rng.range(0.0, 0.08),
                shadow: 0.0,
                curl: rng.range(0.0, 0.002),
                defocus: rng.range(0.3, 0.7) * scale,
                motion: 0.0,
                motion_angle: 0.0,
                noise: rng.range(1.0, 2.5),
                jpeg_quality: 85 + rng.below(11) as u8,
            },
            Preset::Photo => Effects {
                width: 0,
                height: 0,
                tilt_x: sign(rng) * rng.range(4.0, 22.0),
                tilt_y: rng.range(-12.0, 12.0),
                rotation: rng.range(-12.0, 12.0),
                exif_orientation: rng.chance(0.3).then(|| ORIENTATIONS[rng.below(3)]),
                fill: rng.range(0.85, 1.15),
                shift: (rng.range(-0.06, 0.06), rng.range(-0.06, 0.06)),
                clutter: rng.range(0.3, 0.8),
                light: rng.range(0.15, 0.4),
                shadow: rng.range(0.0, 0.35),
                curl: rng.range(0.004, 0.015),
                defocus: rng.range(0.5, 1.3) * scale,
                motion: rng.range(0.0, 3.0) * scale,
                motion_angle: rng.range(0.0, 180.0),
                noise: rng.range(2.5, 6.0),
                jpeg_quality: 70 + rng.below(23) as u8,
            },
            Preset::Hard => Effects {
                width: 0,
                height: 0,
                tilt_x: sign(rng) * rng.range(20.0, 40.0),
                tilt_y: rng.range(-25.0, 25.0),
                rotation: rng.range(0.0, 360.0),
                exif_orientation: rng.chance(0.35).then(|| ORIENTATIONS[rng.below(3)]),
                fill: rng.range(0.9, 1.3),
                shift: (rng.range(-0.1, 0.1), rng.range(-0.1, 0.1)),
                clutter: rng.range(0.7, 1.0),
                light: rng.range(0.3, 0.6),
                shadow: rng.range(0.3, 0.6),
                curl: rng.range(0.015, 0.035),
                defocus: rng.range(1.0, 2.2) * scale,
                motion: rng.range(1.5, 5.0) * scale,
                motion_angle: rng.range(0.0, 180.0),
                noise: rng.range(5.0, 12.0),
                jpeg_quality: 50 + rng.below(26) as u8,
            },
        };
        effects.width = width.round().max(64.0) as u32;
        effects.height = height.round().max(64.0) as u32;
        effects
    }

    /// The strengths as JSON, for the ground truth.
    pub fn to_json(&self) -> Value {
        json!({
            "width": self.width, "height": self.height,
            "tilt_x": self.tilt_x, "tilt_y": self.tilt_y, "rotation": self.rotation,
            "exif_orientation": self.exif_orientation,
            "fill": self.fill, "shift": [self.shift.0, self.shift.1],
            "clutter": self.clutter, "light": self.light, "shadow": self.shadow, "curl": self.curl,
            "defocus": self.defocus, "motion": self.motion, "motion_angle": self.motion_angle,
            "noise": self.noise, "jpeg_quality": self.jpeg_quality,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_stay_in_their_ranges() {
        for preset in Preset::ALL {
            let (low, high) = preset.megapixels();
            for seed in 0..200 {
                let effects = Effects::draw(preset, &mut Rng::new(seed), None);
                let mp = effects.width as f32 * effects.height as f32 / 1.0e6;
                assert!(
                    mp > low * 0.98 && mp < high * 1.02,
                    "{} {mp}",
                    preset.name()
                );
                assert!(effects.tilt_x.abs() <= 40.0 && (50..=95).contains(&effects.jpeg_quality));
            }
            assert_eq!(Preset::from_name(preset.name()), Some(preset));
        }
    }
}
