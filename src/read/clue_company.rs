//! Reads a nonogram's clue glyphs by the company they keep: every clue of one puzzle is printed
//! in the same face and size and photographed with the same blur, so a glyph looks most like
//! the other copies of its digit in the photo's clue bands. Where the classifier, reading one
//! glyph alone, is unsure or wrong, the glyphs that look most like it mostly still read their
//! digit; a glyph's digits are weighed by theirs. In a held-out bold serif face a "10" read as
//! 18, with 10 third at 0.05 alone and second at 0.13 in company, where the line corrector
//! could reach it.
//!
//! The clue counterpart of `page_digits`, which re-reads a maze's digits so; glyphs compare
//! the same way, in the photo's own grey levels around each glyph, which keep the faint
//! strokes that blur cuts off the glyph the classifier sees (a 3's arms beside its spine). It
//! does not find or cut glyphs (`glyphs`, `splits`), nor decide how far a company's reading
//! may overrule the glyph's own (`splits::with_company`).

use super::glyphs::NormalisedGlyph;
use super::page_digits::{distance, look, nearest_first};

/// How many of the most alike glyphs inform each glyph's reading.
const NEIGHBOURS: usize = 8;
/// The fewest glyphs a company is gathered from: fewer give no typical distance to trust.
const FEWEST: usize = 20;
/// How much the company's reading weighs against the glyph's own (1). At 0.5 the 160 nonogram
/// `photo` dev photos read one more exactly; a first trial weighing the company several times
/// the glyph pulled a photo's faint 3s to the 1s around them, and lost a photo.
const COMPANY_WEIGHT: f32 = 0.5;
/// Probabilities are floored here before taking logs, so that one glyph ruling a digit all but
/// out cannot veto it against the rest.
const FLOOR: f32 = 1e-3;

/// A glyph where it was found: the glyph and its crop's flattened darkness (see
/// `glyphs::flattened`), `width` pixels wide.
#[derive(Debug, Clone, Copy)]
pub struct GlyphInCrop<'a> {
    pub glyph: &'a NormalisedGlyph,
    pub darkness: &'a [f32],
    pub width: usize,
}

/// The photo's clue glyphs as compared: each one's look and its classifier reading, the
/// typical distance between a glyph and its nearest look-alike, and the typical glyph height.
#[derive(Debug, Clone)]
pub struct GlyphCompany {
    looks: Vec<Vec<f32>>,
    probabilities: Vec<[f32; 10]>,
    typical: f32,
    height: f32,
}

impl GlyphCompany {
    /// The company of `read` glyphs with their classifier probabilities; `None` when there are
    /// fewer than [`FEWEST`] or no two differ.
    pub fn gather<'a>(
        read: impl Iterator<Item = (GlyphInCrop<'a>, [f32; 10])>,
    ) -> Option<GlyphCompany> {
        let read: Vec<(GlyphInCrop, [f32; 10])> = read
            .filter(|(found, _)| !found.darkness.is_empty())
            .collect();
        if read.len() < FEWEST {
            return None;
        }
        let mut heights: Vec<u32> = read
            .iter()
            .map(|(found, _)| found.glyph.bounds.y1 - found.glyph.bounds.y0)
            .collect();
        heights.sort_unstable();
        let height = heights[heights.len() / 2].max(1) as f32;
        let (looks, probabilities): (Vec<Vec<f32>>, Vec<[f32; 10]>) = read
            .iter()
            .map(|(found, p)| (look_of(found, height), *p))
            .unzip();
        let mut nearest: Vec<f32> = looks
            .iter()
            .filter_map(|a| {
                looks
                    .iter()
                    .map(|b| distance(a, b))
                    .filter(|&d| d > 0.0)
                    .min_by(f32::total_cmp)
            })
            .collect();
        nearest.sort_by(f32::total_cmp);
        let typical = *nearest.get(nearest.len() / 2)?;
        Some(GlyphCompany {
            looks,
            probabilities,
            typical,
            height,
        })
    }

    /// `probabilities` (the classifier's reading of `found`) combined with its company's: the
    /// weighted geometric mean of its [`NEIGHBOURS`] most alike glyphs' readings, a
    /// neighbour's weight falling off with its distance in units of the typical distance (1
    /// for a copy), weighing [`COMPANY_WEIGHT`] against the glyph's own reading's 1. The
    /// result is no surer than its parts: a mean, not a product. A copy of the glyph itself
    /// (distance 0: the company was gathered from the same cuts) is not its own company.
    pub fn weighed(&self, found: GlyphInCrop, probabilities: [f32; 10]) -> [f32; 10] {
        if found.darkness.is_empty() {
            return probabilities;
        }
        let own = look_of(&found, self.height);
        let mut near: Vec<(usize, f32)> = self
            .looks
            .iter()
            .enumerate()
            .map(|(j, other)| (j, distance(&own, other)))
            .filter(|&(_, d)| d > 0.0)
            .collect();
        nearest_first(&mut near, NEIGHBOURS);
        let mut company = [0.0f32; 10];
        let mut weights = 0.0;
        for (j, d) in near {
            let weight = (-0.5 * (d / self.typical).powi(2)).exp();
            weights += weight;
            for (log, p) in company.iter_mut().zip(self.probabilities[j]) {
                *log += weight * p.max(FLOOR).ln();
            }
        }
        if weights <= 0.0 {
            return probabilities;
        }
        let logs: [f32; 10] = std::array::from_fn(|d| {
            (probabilities[d].max(FLOOR).ln() + COMPANY_WEIGHT * company[d] / weights)
                / (1.0 + COMPANY_WEIGHT)
        });
        let top = logs.iter().copied().fold(f32::MIN, f32::max);
        let mut combined = logs.map(|l| (l - top).exp());
        let total: f32 = combined.iter().sum();
        combined.iter_mut().for_each(|p| *p /= total);
        combined
    }
}

/// What `found` looks like, as `page_digits` compares a maze's digits.
fn look_of(found: &GlyphInCrop, height: f32) -> Vec<f32> {
    look(found.darkness, found.width, &found.glyph.bounds, height)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::glyphs::Bounds;

    /// Side of the synthetic crops.
    const CROP: usize = 40;
    /// A 1: a stem. A 3: three bars and a spine. A ring, unlike either.
    const ONE: &[(usize, usize, usize, usize)] = &[(18, 8, 22, 32)];
    const THREE: &[(usize, usize, usize, usize)] = &[
        (12, 8, 28, 11),
        (14, 18, 28, 21),
        (12, 29, 28, 32),
        (25, 8, 28, 32),
    ];
    const RING: &[(usize, usize, usize, usize)] = &[
        (12, 8, 28, 11),
        (12, 29, 28, 32),
        (12, 8, 15, 32),
        (25, 8, 28, 32),
    ];

    /// A crop's darkness with ink in the `strokes` (boxes x0, y0, x1, y1, ends exclusive) and
    /// a faint speck of its own at a place set by `copy` (so that copies of one digit lie a
    /// little apart, as a photo's do), and the glyph found over the strokes.
    fn crop(strokes: &[(usize, usize, usize, usize)], copy: usize) -> (Vec<f32>, NormalisedGlyph) {
        let mut darkness = vec![0.0; CROP * CROP];
        for &(x0, y0, x1, y1) in strokes {
            for y in y0..y1 {
                for x in x0..x1 {
                    darkness[y * CROP + x] = 1.0;
                }
            }
        }
        darkness[(3 + copy * 7 % 34) * CROP + 3 + copy * 13 % 34] += 0.4;
        let bounds = strokes.iter().fold(
            Bounds {
                x0: CROP as u32,
                y0: CROP as u32,
                x1: 0,
                y1: 0,
            },
            |b, &(x0, y0, x1, y1)| Bounds {
                x0: b.x0.min(x0 as u32),
                y0: b.y0.min(y0 as u32),
                x1: b.x1.max(x1 as u32),
                y1: b.y1.max(y1 as u32),
            },
        );
        let glyph = NormalisedGlyph {
            pixels: Vec::new(),
            bounds,
        };
        (darkness, glyph)
    }

    /// A reading of `digit` at `p`, the rest spread evenly.
    fn reading(digit: usize, p: f32) -> [f32; 10] {
        let mut probabilities = [(1.0 - p) / 9.0; 10];
        probabilities[digit] = p;
        probabilities
    }

    /// A company of 12 copies of a 1, read 1 at 0.95, and 12 of a 3, read 3 at 0.9.
    fn company() -> GlyphCompany {
        let crops: Vec<(Vec<f32>, NormalisedGlyph, [f32; 10])> = (0..24)
            .map(|copy| {
                let (strokes, read) = if copy % 2 == 0 {
                    (ONE, reading(1, 0.95))
                } else {
                    (THREE, reading(3, 0.9))
                };
                let (darkness, glyph) = crop(strokes, copy);
                (darkness, glyph, read)
            })
            .collect();
        GlyphCompany::gather(crops.iter().map(|(darkness, glyph, read)| {
            let found = GlyphInCrop {
                glyph,
                darkness,
                width: CROP,
            };
            (found, *read)
        }))
        .expect("24 glyphs make a company")
    }

    fn weighed(
        company: &GlyphCompany,
        strokes: &[(usize, usize, usize, usize)],
        read: [f32; 10],
    ) -> [f32; 10] {
        let (darkness, glyph) = crop(strokes, 30);
        let found = GlyphInCrop {
            glyph: &glyph,
            darkness: &darkness,
            width: CROP,
        };
        company.weighed(found, read)
    }

    #[test]
    fn a_glyph_misread_alone_reads_as_its_look_alikes_do() {
        let mut read = reading(1, 0.6);
        read[3] = 0.35;
        let weighed = weighed(&company(), THREE, read);
        assert!(weighed[3] > weighed[1], "{weighed:?}");
    }

    #[test]
    fn a_glyph_read_surely_keeps_its_digit_first_against_a_company_of_others() {
        // Its nearest glyphs are 1s and 3s, none like it: the company weighs less than the
        // glyph's own reading.
        let weighed = weighed(&company(), RING, reading(7, 0.8));
        let first = (0..10).max_by(|&a, &b| weighed[a].total_cmp(&weighed[b]));
        assert_eq!(first, Some(7), "{weighed:?}");
    }

    #[test]
    fn a_company_reading_as_the_glyph_does_makes_it_no_surer() {
        let weighed = weighed(&company(), ONE, reading(1, 0.95));
        assert!((weighed[1] - 0.95).abs() < 0.01, "{weighed:?}");
    }

    #[test]
    fn too_few_glyphs_make_no_company() {
        let crops: Vec<(Vec<f32>, NormalisedGlyph)> =
            (0..FEWEST - 1).map(|copy| crop(ONE, copy)).collect();
        let read = crops.iter().map(|(darkness, glyph)| {
            let found = GlyphInCrop {
                glyph,
                darkness,
                width: CROP,
            };
            (found, reading(1, 0.9))
        });
        assert!(GlyphCompany::gather(read).is_none());
    }
}
