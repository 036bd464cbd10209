//! How wide a photo's 1s are against its other digits, and what a glyph's width says about
//! whether it is a 1. Blurred small clue digits lose their shape: a serif 1 and an 8 both come
//! out of the glyph finder as an upright oval, and the classifier reads the oval as 8 or 0 about
//! as often as 1. Their widths still differ: within one photo, the clues the classifier reads
//! surely give the typeface's 1 width and its other digits' width (blur widens both alike), and
//! an unsure glyph's width, measured against those two, weighs 1 against the rest.
//!
//! Only the widths of one photo's own sure readings are used, never fixed shares: a condensed
//! face prints all its digits narrow, a wide one its 1s wide. It does not find or classify
//! glyphs; a photo with too few sure 1s or other digits, or whose 1s are not clearly narrower,
//! gives no measure and its readings are left as they are.

use super::glyphs::{median, NormalisedGlyph};

/// A reading this sure has its glyph's width taken as its digit's width.
const SURE: f32 = 0.97;
/// Where a photo has too few sure 1s, its 1s read this likely count too: in some blurred
/// typefaces the classifier is never sure of a 1 (its serifs blur into an oval it calls 8 as
/// often), yet the glyphs it does call 1 still show the 1s' width.
const LIKELY: f32 = 0.5;
/// The fewest 1s, and sure other digits, a measure is made from.
const FEWEST: usize = 3;
/// The typeface's other digits must be at least this many times as wide as its 1s (width over
/// height) for the width to tell them apart.
const LEAST_SPREAD: f32 = 1.25;
/// How sharply the weight of 1 turns from one side of the midway width to the other, per the
/// span from the 1s' width to the other digits'.
const STEEPNESS: f32 = 6.0;

/// The digits with a closed loop, wide in every typeface: a blurred 1's oval reads as one of
/// them.
const ROUND: [u8; 4] = [0, 6, 8, 9];

/// The median width over height of a photo's surely read 1s and of its other sure digits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DigitWidths {
    one: f32,
    other: f32,
}

/// A glyph's width over height, each side counted inclusively so a one-pixel stroke is not 0.
pub fn aspect(glyph: &NormalisedGlyph) -> f32 {
    let b = glyph.bounds;
    (b.x1 - b.x0 + 1) as f32 / (b.y1 - b.y0 + 1) as f32
}

impl DigitWidths {
    /// The measure from glyphs with their best readings (digit, probability); `None` when too
    /// few are sure or the 1s are not clearly narrower than the rest.
    pub fn measure<'a>(
        read: impl Iterator<Item = (&'a NormalisedGlyph, (u8, f32))>,
    ) -> Option<Self> {
        let (mut ones, mut likely_ones, mut others) = (Vec::new(), Vec::new(), Vec::new());
        for (glyph, (digit, p)) in read {
            match (digit, p) {
                (1, p) if p >= SURE => ones.push(aspect(glyph)),
                (1, p) if p >= LIKELY => likely_ones.push(aspect(glyph)),
                (_, p) if p >= SURE => others.push(aspect(glyph)),
                _ => {}
            }
        }
        if ones.len() < FEWEST {
            ones.extend(likely_ones);
        }
        if ones.len() < FEWEST || others.len() < FEWEST {
            return None;
        }
        let (one, other) = (median(&mut ones), median(&mut others));
        (other >= one * LEAST_SPREAD).then_some(Self { one, other })
    }

    /// How far `glyph`'s width lies from this photo's 1s (0) towards its other digits (1).
    fn towards_other(&self, glyph: &NormalisedGlyph) -> f32 {
        (aspect(glyph) - self.one) / (self.other - self.one)
    }

    /// Whether `glyph` is nearer this photo's other digits' width than its 1s': narrow against
    /// the typeface at large (under half as wide as tall) yet no 1 of this photo's.
    pub fn wider_than_ones(&self, glyph: &NormalisedGlyph) -> bool {
        self.towards_other(glyph) > 0.5
    }

    /// `ranked` (a glyph's digits, most likely first, probabilities summing to 1) with the
    /// probability it gives 1 and the [`ROUND`] digits shared out again by how far the glyph's
    /// width lies from this photo's 1s towards its other digits, most likely first again. A
    /// glyph as narrow as the 1s or as wide as the rest is weighed hardest; one midway is left
    /// as read, and so are the other digits' probabilities (a 3 whose faint arms are lost is as
    /// narrow as a 1) and glyphs narrower than the 1s (a box line's remnant beside a digit).
    pub fn weighed(&self, glyph: &NormalisedGlyph, ranked: [(u8, f32); 10]) -> [(u8, f32); 10] {
        let towards_other = self.towards_other(glyph);
        if towards_other < 0.0 {
            return ranked;
        }
        let one_weight = 1.0 / (1.0 + (STEEPNESS * (towards_other - 0.5)).exp());
        let shared = |digit: u8| digit == 1 || ROUND.contains(&digit);
        let before: f32 = ranked.iter().filter(|d| shared(d.0)).map(|d| d.1).sum();
        let mut weighed = ranked.map(|(digit, p)| match digit {
            1 => (digit, p * one_weight),
            d if ROUND.contains(&d) => (digit, p * (1.0 - one_weight)),
            _ => (digit, p),
        });
        let after: f32 = weighed.iter().filter(|d| shared(d.0)).map(|d| d.1).sum();
        if after > 0.0 {
            weighed
                .iter_mut()
                .filter(|d| shared(d.0))
                .for_each(|d| d.1 *= before / after);
        }
        weighed.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        weighed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::glyphs::Bounds;

    fn glyph(width: u32, height: u32) -> NormalisedGlyph {
        NormalisedGlyph {
            pixels: Vec::new(),
            bounds: Bounds {
                x0: 10,
                y0: 5,
                x1: 10 + width - 1,
                y1: 5 + height - 1,
            },
        }
    }

    fn ranked(first: (u8, f32), second: (u8, f32)) -> [(u8, f32); 10] {
        let rest = (1.0 - first.1 - second.1) / 8.0;
        let mut all = [(0u8, rest); 10];
        for (d, entry) in all.iter_mut().enumerate() {
            entry.0 = d as u8;
        }
        all[first.0 as usize].1 = first.1;
        all[second.0 as usize].1 = second.1;
        all.sort_by(|a, b| b.1.total_cmp(&a.1));
        all
    }

    fn photo() -> DigitWidths {
        let ones: Vec<NormalisedGlyph> = (0..4).map(|_| glyph(8, 20)).collect();
        let others: Vec<NormalisedGlyph> = (0..5).map(|_| glyph(14, 20)).collect();
        let read = ones
            .iter()
            .map(|g| (g, (1, 0.99)))
            .chain(others.iter().map(|g| (g, (4, 0.99))));
        DigitWidths::measure(read).expect("enough sure digits")
    }

    #[test]
    fn a_glyph_nearer_the_other_digits_width_is_wider_than_the_ones() {
        // 1s 0.4 of their height wide, other digits 0.7: a glyph 0.6 wide is no 1 here, one
        // at 0.5 is still nearer the 1s.
        let widths = photo();
        assert!(widths.wider_than_ones(&glyph(12, 20)));
        assert!(!widths.wider_than_ones(&glyph(10, 20)));
    }

    #[test]
    fn a_narrow_oval_read_unsurely_as_8_reads_as_1() {
        let weighed = photo().weighed(&glyph(9, 20), ranked((8, 0.35), (1, 0.19)));
        assert_eq!(weighed[0].0, 1);
    }

    #[test]
    fn a_glyph_as_wide_as_the_other_digits_stays_8_and_a_sure_narrow_8_stays_too() {
        let widths = photo();
        assert_eq!(
            widths.weighed(&glyph(14, 20), ranked((8, 0.35), (1, 0.3)))[0].0,
            8
        );
        assert_eq!(
            widths.weighed(&glyph(9, 20), ranked((8, 0.99), (1, 0.005)))[0].0,
            8
        );
    }

    #[test]
    fn a_photo_never_sure_of_its_1s_is_measured_from_its_likely_1s() {
        // Blurred serif 1s read as 1 at 0.6 at best, as in the seed-20007 GCHQ photo; their
        // width is the 1s' width all the same. Unlikely readings stay out.
        let (one, wide, odd) = (glyph(8, 20), glyph(14, 20), glyph(13, 20));
        let read: Vec<_> = [(&one, (1, 0.6)); 3]
            .into_iter()
            .chain([(&wide, (4, 0.99)); 3])
            .chain([(&odd, (1, 0.3)); 4])
            .collect();
        let widths = DigitWidths::measure(read.into_iter()).expect("likely 1s measured");
        assert_eq!(
            widths,
            DigitWidths {
                one: 0.4,
                other: 0.7
            }
        );
        let sure = [(&one, (1, 0.99)); 3]
            .into_iter()
            .chain([(&wide, (1, 0.6)); 3])
            .chain([(&wide, (4, 0.99)); 3]);
        assert_eq!(DigitWidths::measure(sure), Some(widths));
    }

    #[test]
    fn too_few_sure_digits_or_ones_as_wide_as_the_rest_give_no_measure() {
        let (one, wide) = (glyph(8, 20), glyph(14, 20));
        let few = [(&one, (1, 0.99)), (&wide, (4, 0.99)), (&wide, (4, 0.99))];
        assert_eq!(DigitWidths::measure(few.into_iter()), None);
        let alike: Vec<_> = (0..6)
            .map(|i| (&wide, (if i % 2 == 0 { 1 } else { 4 }, 0.99)))
            .collect();
        assert_eq!(DigitWidths::measure(alike.into_iter()), None);
    }
}
