//! Reads a nonogram clue number at several ink splits and keeps, for every value, its surest
//! reading. Clue digits are small; blurred, a serif digit's thin strokes come out far fainter
//! than its stem, and at the one split a cell is read with a 3 loses its arms and reads as a 1,
//! while a split low enough to keep them fattens a true 1 into an 8. Each value's best reading
//! over the splits ranks them, the rest stay alternatives for the solver-in-the-loop corrector.
//!
//! Only for clue numbers, whose reading the solver checks: a grid's givens are read once, at
//! the usual split.

use image::GrayImage;

use super::glyphs::{self, CellContent, NormalisedGlyph};
use super::{ranked_from_content, ranked_readings, CellValue, Levels};
use crate::read::classifier::DigitClassifier;

/// The splits a clue is read at besides the usual one, as shares of its digits' peak ink
/// darkness.
const SPLITS: [f32; 3] = [0.3, 0.4, 0.6];

/// A reading at the usual split this sure is not read again: most clues of a clean photo are,
/// and the splits cost three more readings each.
const SURE: f32 = 0.97;

/// The readings of a clue crop, most likely first: each value with its highest probability at
/// the usual split (see [`ranked_readings`]) or, unless that reading is [`SURE`], at any of
/// [`SPLITS`] that finds as many glyphs.
pub fn ranked_at_splits(
    crop: &GrayImage,
    levels: Levels,
    classifier: &DigitClassifier,
) -> Vec<(CellValue, f32)> {
    let mut ranked = ranked_readings(crop, levels, classifier);
    if ranked[0].1 >= SURE {
        return ranked;
    }
    let darkness = glyphs::flattened(crop);
    let CellContent::Glyphs(found) =
        glyphs::read_flattened(crop, &darkness, levels.paper, levels.ink)
    else {
        return ranked;
    };
    let peak = digits_peak(&found, &darkness, crop.width());
    for share in SPLITS {
        let content = glyphs::find_glyphs_split_at(crop, &darkness, share * peak);
        // A split that joins a number's digits into one blob or breaks a digit apart reads
        // another number, often surely (a blurred 10 as an 8).
        if !matches!(&content, CellContent::Glyphs(other) if other.len() == found.len()) {
            continue;
        }
        for (value, p) in ranked_from_content(content, crop, classifier) {
            match ranked.iter_mut().find(|(v, _)| *v == value) {
                Some(known) => known.1 = known.1.max(p),
                None => ranked.push((value, p)),
            }
        }
    }
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranked
}

/// The darkest ink (a high percentile) inside the boxes of the glyphs `found`: the digits' own,
/// not that of a box line elsewhere in the crop.
fn digits_peak(found: &[NormalisedGlyph], darkness: &[f32], width: u32) -> f32 {
    let width = width as usize;
    let inside: Vec<f32> = found
        .iter()
        .flat_map(|glyph| {
            let b = glyph.bounds;
            (b.y0 as usize..b.y1 as usize).flat_map(move |y| {
                (b.x0 as usize..b.x1 as usize).map(move |x| darkness[y * width + x])
            })
        })
        .collect();
    glyphs::peak_darkness(&inside)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_taken_inside_the_digits_not_on_a_darker_line_beside_them() {
        // A 10x4 crop: a faint digit (0.4) in columns 2-4, a dark box line (0.9) in column 8.
        let width = 10;
        let darkness: Vec<f32> = (0..40)
            .map(|i| match i % width {
                2..=4 => 0.4,
                8 => 0.9,
                _ => 0.0,
            })
            .collect();
        let digit = NormalisedGlyph {
            pixels: Vec::new(),
            bounds: glyphs::Bounds {
                x0: 2,
                y0: 0,
                x1: 5,
                y1: 4,
            },
        };
        assert_eq!(digits_peak(&[digit], &darkness, width as u32), 0.4);
    }
}
