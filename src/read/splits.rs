//! Reads a nonogram clue number at several ink splits and keeps, for every value, its surest
//! reading. Clue digits are small; blurred, a serif digit's thin strokes come out far fainter
//! than its stem, and at the one split a cell is read with a 3 loses its arms and reads as a 1,
//! while a split low enough to keep them fattens a true 1 into an 8. Each value's best reading
//! over the splits ranks them, the rest stay alternatives for the solver-in-the-loop corrector.
//!
//! Condensed clue digits printed close together run into one blob a little wider than it is
//! tall, narrower than the glyph finder cuts (a single wide digit may be as wide). Such a blob
//! is cut in two as well, and the cut kept when each half reads surer than the whole did.
//!
//! Each clue is read twice: its glyphs each alone, and weighed by their look-alikes among the
//! photo's clues (`clue_company`); the second may put another reading first, never make the
//! first surer (see [`with_company`]).
//!
//! Only for numbers whose reading the solver checks: nonogram clues, and the givens of a
//! Sudoku or Nurikabe grid, whose splits are averaged instead (see [`ranked_over_splits`]).

use image::GrayImage;

use super::clue_company::{GlyphCompany, GlyphInCrop};
use super::digit_widths::DigitWidths;
use super::glyphs::{self, CellContent, NormalisedGlyph};
use super::{ranked_from_content, CellValue, Levels};
use crate::read::classifier::{DigitClassifier, Reading};

/// The splits a clue is read at besides the usual one, as shares of its digits' peak ink
/// darkness.
const SPLITS: [f32; 3] = [0.3, 0.4, 0.6];

/// A reading at the usual split this sure, holding no 1 (see [`stands`]), is not read again:
/// most clues of a clean photo are, and the splits cost three more readings each.
const SURE: f32 = 0.97;

/// Whether `reading` is sure enough to stand without other splits or company: [`SURE`], and
/// no 1 among its digits, since a 1 is what a blurred 3 whose faint arms fell under the split
/// reads as, as surely as a printed 1 (a hard photo's row "4 3 3 13" read "4 1 1 11", its 3s
/// at 1.00 with no other reading).
fn stands(reading: (CellValue, f32)) -> bool {
    let holds_a_one = matches!(reading.0, CellValue::Number(n) if n.to_string().contains('1'));
    reading.1 >= SURE && !holds_a_one
}

/// Blobs wider than this many tenths of their height are tried cut into digits too: two
/// touching condensed digits measure 1.0-1.1, a single digit of a common face under 0.8.
const TOUCHING_PAIR_TENTHS: u32 = 9;

/// The readings of a clue crop, most likely first: each value with its highest probability at
/// the usual split (see [`ranked_from_content`]), its blobs cut where [`touching_digits_cut`]
/// finds two digits, or, unless that reading [`stands`] alone, at any of [`SPLITS`] that finds
/// as many glyphs. With the photo's `print` (see [`clue_print`]) each glyph's digits are
/// weighed by its width too, and the readings by the glyphs' company put first where it says
/// so (see [`with_company`]), unless the reading alone stands; with `largest`, the clue's line
/// length, numbers within it are kept first.
pub fn ranked_at_splits(
    crop: &GrayImage,
    levels: Levels,
    classifier: &DigitClassifier,
    print: Option<&PagePrint>,
    largest: Option<u32>,
) -> Vec<(CellValue, f32)> {
    let darkness = glyphs::flattened(crop);
    let found = CropGlyphs::of(crop, &darkness, levels, classifier);
    let widths = print.and_then(|print| print.widths.as_ref());
    let read = |company| found.ranked_by(classifier, widths, company, largest);
    let alone = read(None);
    // Another reading would have to be surer than that to go first.
    if stands(alone[0]) {
        return alone;
    }
    match print.and_then(|print| print.company.as_ref()) {
        Some(company) => with_company(alone, read(Some(company))),
        None => alone,
    }
}

/// The readings `alone` (the glyphs read each by itself) with those `in_company` (weighed by
/// their look-alikes, see [`GlyphCompany`]) added, each value at its higher probability, save
/// the value read likeliest alone, which keeps its own: the company may put another reading
/// first (a blurred 3 the classifier calls 1, among the photo's 3s) but never makes the reader
/// surer of what it read alone. A stray rule mark beside a line's clues reads as an unsure 1,
/// and among the photo's 1s it came out a sure one, which the line corrector could then no
/// longer afford to drop.
fn with_company(
    mut alone: Vec<(CellValue, f32)>,
    in_company: Vec<(CellValue, f32)>,
) -> Vec<(CellValue, f32)> {
    let first = alone[0];
    merge(&mut alone, in_company);
    if let Some(known) = alone.iter_mut().find(|(value, _)| *value == first.0) {
        known.1 = first.1;
    }
    alone.sort_by(|a, b| b.1.total_cmp(&a.1));
    alone
}

/// A clue crop's glyphs at the usual split, its wide blobs halved and at each of [`SPLITS`],
/// each found once for both of [`ranked_at_splits`]'s readings (alone and in company), which
/// weigh the same glyphs differently.
struct CropGlyphs<'a> {
    crop: &'a GrayImage,
    darkness: &'a [f32],
    usual: CellContent,
    widest_tenths: u32,
    fewer: Option<CellContent>,
    /// The contents found at [`SPLITS`] with as many glyphs as the usual split, found when a
    /// reading first asks for them.
    at_splits: std::cell::OnceCell<Vec<CellContent>>,
}

impl<'a> CropGlyphs<'a> {
    /// The glyphs of `crop`, whose [`glyphs::flattened`] darkness is `darkness`, at the usual
    /// split and its wide blobs halved (see [`wide_blobs_halved`]).
    fn of(
        crop: &'a GrayImage,
        darkness: &'a [f32],
        levels: Levels,
        classifier: &DigitClassifier,
    ) -> CropGlyphs<'a> {
        let (usual, widest_tenths) = usual_glyphs(crop, darkness, levels, classifier);
        let mut glyphs = CropGlyphs {
            crop,
            darkness,
            usual,
            widest_tenths,
            fewer: None,
            at_splits: std::cell::OnceCell::new(),
        };
        glyphs.fewer = wide_blobs_halved(crop, darkness, levels.ink, glyphs.found());
        glyphs
    }

    /// The glyphs found at the usual split, none when it shows none.
    fn found(&self) -> &[NormalisedGlyph] {
        match &self.usual {
            CellContent::Glyphs(found) => found,
            _ => &[],
        }
    }

    /// The readings of these glyphs (see [`ranked_at_splits`]), weighed by the photo's
    /// `widths` and, when given, their `company`: at the usual split and the wide blobs
    /// halved, and unless that reading [`stands`] alone, at each of [`SPLITS`] that finds as
    /// many glyphs.
    fn ranked_by(
        &self,
        classifier: &DigitClassifier,
        widths: Option<&DigitWidths>,
        company: Option<&GlyphCompany>,
        largest: Option<u32>,
    ) -> Vec<(CellValue, f32)> {
        let company = company.map(|company| (company, self.darkness));
        let rank = |content: &CellContent| {
            ranked_from_content(
                content.clone(),
                self.crop,
                classifier,
                widths,
                company,
                largest,
            )
        };
        let mut ranked = rank(&self.usual);
        if let Some(fewer) = &self.fewer {
            merge(&mut ranked, rank(fewer));
        }
        if stands(ranked[0]) || self.found().is_empty() {
            return ranked;
        }
        for content in self.at_splits.get_or_init(|| self.found_at_splits()) {
            merge(&mut ranked, rank(content));
        }
        ranked
    }

    /// The contents found at each of [`SPLITS`] with as many glyphs as the usual split.
    fn found_at_splits(&self) -> Vec<CellContent> {
        let found = self.found();
        let peak = digits_peak(found, self.darkness, self.crop.width());
        SPLITS
            .iter()
            .map(|share| {
                without_line_pieces(glyphs::find_glyphs_split_at(
                    self.crop,
                    self.darkness,
                    share * peak,
                    self.widest_tenths,
                ))
            })
            // A split that joins a number's digits into one blob or breaks a digit apart
            // reads another number, often surely (a blurred 10 as an 8).
            .filter(|content| {
                matches!(content, CellContent::Glyphs(other) if other.len() == found.len())
            })
            .collect()
    }
}

/// The glyphs of a clue crop (`darkness` its [`glyphs::flattened`] darkness) at the usual split,
/// pieces of line dropped and touching digits cut (see [`touching_digits_cut`]), and the widest
/// a digit was let be (tenths of its height).
fn usual_glyphs(
    crop: &GrayImage,
    darkness: &[f32],
    levels: Levels,
    classifier: &DigitClassifier,
) -> (CellContent, u32) {
    let content = without_line_pieces(glyphs::read_flattened(
        crop,
        darkness,
        levels.paper,
        levels.ink,
    ));
    match content {
        CellContent::Glyphs(whole) => {
            touching_digits_cut(crop, darkness, levels.ink, whole, classifier)
        }
        other => (other, glyphs::WIDEST_DIGIT_TENTHS),
    }
}

/// The glyphs [`ranked_at_splits`] reads a clue crop from first (at the usual split), none when
/// it shows no glyph.
pub fn clue_glyphs(
    crop: &GrayImage,
    levels: Levels,
    classifier: &DigitClassifier,
) -> Vec<NormalisedGlyph> {
    let darkness = glyphs::flattened(crop);
    match usual_glyphs(crop, &darkness, levels, classifier).0 {
        CellContent::Glyphs(found) => found,
        _ => Vec::new(),
    }
}

/// The readings of a grid cell's crop (`darkness` its [`glyphs::flattened`] darkness), each
/// value at its mean probability over the usual split and those of [`SPLITS`] that find as many
/// glyphs, most likely first; `None` when the crop shows no glyph. Unlike
/// [`ranked_at_splits`], which keeps each value's best, a value one split alone reads surely
/// does not overtake the usual reading: it comes close behind, for the corrector to try.
pub fn ranked_over_splits(
    crop: &GrayImage,
    darkness: &[f32],
    ink: f32,
    classifier: &DigitClassifier,
) -> Option<Vec<(CellValue, f32)>> {
    let CellContent::Glyphs(found) = glyphs::find_glyphs(crop, darkness, ink) else {
        return None;
    };
    let peak = digits_peak(&found, darkness, crop.width());
    let mut readings = vec![ranked_from_content(
        CellContent::Glyphs(found.clone()),
        crop,
        classifier,
        None,
        None,
        None,
    )];
    for share in SPLITS {
        let content =
            glyphs::find_glyphs_split_at(crop, darkness, share * peak, glyphs::WIDEST_DIGIT_TENTHS);
        if !matches!(&content, CellContent::Glyphs(other) if other.len() == found.len()) {
            continue;
        }
        readings.push(ranked_from_content(
            content, crop, classifier, None, None, None,
        ));
    }
    let count = readings.len() as f32;
    let mut mean: Vec<(CellValue, f32)> = Vec::new();
    for (value, p) in readings.into_iter().flatten() {
        match mean.iter_mut().find(|(v, _)| *v == value) {
            Some(known) => known.1 += p / count,
            None => mean.push((value, p / count)),
        }
    }
    mean.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some(mean)
}

/// `ranked` with the readings `more` added, each value at its higher probability, most likely
/// first again.
fn merge(ranked: &mut Vec<(CellValue, f32)>, more: Vec<(CellValue, f32)>) {
    for (value, p) in more {
        match ranked.iter_mut().find(|(v, _)| *v == value) {
            Some(known) => known.1 = known.1.max(p),
            None => ranked.push((value, p)),
        }
    }
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
}

/// Blobs the glyph finder cut into this many digits or more are read cut in two as well.
const MANY_PIECES: usize = 3;

/// Wider than this many tenths of its height a blob would be cut: never, for finding the
/// blobs whole.
const NEVER_CUT_TENTHS: u32 = 1000;

/// The glyphs `found` with the pieces of every blob they cut into [`MANY_PIECES`] or more
/// replaced by the blob cut in two at its faintest column (see [`glyphs::halves`]); `None`
/// when no blob was cut so. The glyph finder counts a blob's digits by its width alone, and a
/// bold 10 blurred into one blob (a wide 0, a 1 with flag and foot) measures as three digits:
/// the 0 cut down the middle reads as 49. A nonogram's clue has two digits at most, and the
/// readings of both cuts are ranked together.
fn wide_blobs_halved(
    crop: &GrayImage,
    darkness: &[f32],
    ink: f32,
    found: &[NormalisedGlyph],
) -> Option<CellContent> {
    let CellContent::Glyphs(blobs) =
        glyphs::find_glyphs_cut_wider_than(crop, darkness, ink, NEVER_CUT_TENTHS)
    else {
        return None;
    };
    let centre = |g: &NormalisedGlyph| (g.bounds.x0 + g.bounds.x1) / 2;
    let mut chosen: Vec<NormalisedGlyph> = Vec::new();
    let mut any_halved = false;
    let mut taken = vec![false; found.len()];
    for blob in &blobs {
        let inside: Vec<usize> = (0..found.len())
            .filter(|&i| (blob.bounds.x0..blob.bounds.x1).contains(&centre(&found[i])))
            .collect();
        if inside.len() < MANY_PIECES {
            continue;
        }
        let Some(halves) = glyphs::halves(blob) else {
            continue;
        };
        for &i in &inside {
            taken[i] = true;
        }
        chosen.extend(halves);
        any_halved = true;
    }
    if !any_halved {
        return None;
    }
    chosen.extend(
        found
            .iter()
            .zip(&taken)
            .filter(|(_, &taken)| !taken)
            .map(|(g, _)| g.clone()),
    );
    chosen.sort_by_key(|g| g.bounds.x0);
    Some(CellContent::Glyphs(chosen))
}

/// What the clue glyphs of one photo, read at the usual split, tell about each of them: the
/// widths of its 1s and its other digits (see [`DigitWidths`]) and its look-alikes (see
/// [`GlyphCompany`]), each where the photo has enough clues to measure it.
#[derive(Debug, Clone)]
pub struct PagePrint {
    pub widths: Option<DigitWidths>,
    pub company: Option<GlyphCompany>,
}

/// The [`PagePrint`] of the clue `crops` of one photo.
pub fn clue_print<'a>(
    crops: impl IntoIterator<Item = &'a GrayImage>,
    levels: Levels,
    classifier: &DigitClassifier,
) -> PagePrint {
    let found: Vec<(Vec<f32>, usize, Vec<NormalisedGlyph>)> = crops
        .into_iter()
        .map(|crop| {
            let darkness = glyphs::flattened(crop);
            let content = glyphs::read_flattened(crop, &darkness, levels.paper, levels.ink);
            let found = match without_line_pieces(content) {
                CellContent::Glyphs(found) => found,
                _ => Vec::new(),
            };
            (darkness, crop.width() as usize, found)
        })
        .collect();
    let read: Vec<(GlyphInCrop, [f32; 10])> = found
        .iter()
        .flat_map(|(darkness, width, found)| {
            found.iter().map(move |glyph| {
                let probabilities = classifier.classify(glyph).probabilities;
                (
                    GlyphInCrop {
                        glyph,
                        darkness,
                        width: *width,
                    },
                    probabilities,
                )
            })
        })
        .collect();
    let best = |probabilities: [f32; 10]| Reading { probabilities }.best();
    PagePrint {
        widths: DigitWidths::measure(read.iter().map(|(found, p)| (found.glyph, best(*p)))),
        company: GlyphCompany::gather(read.iter().copied()),
    }
}

/// A glyph this many times as tall as it is wide, or more, is a hair-thin stroke: no digit,
/// not even a 1 (its flag, foot or blurred stem make it wider), is that thin.
const HAIR_THIN: u32 = 8;

/// `content` without a hair-thin stroke first or last beside its other glyphs, each at least
/// three times as wide: a piece of the clue box's line. Where the lattice sits a few pixels off
/// a magazine's printed box, its far line lies inside the crop reaching past the box, neither
/// at the crop's border (where the glyph finder wipes lines) nor whole, and its piece would
/// read as one more digit ("32" as 321, and then as the larger glyph alone, 2).
fn without_line_pieces(content: CellContent) -> CellContent {
    let CellContent::Glyphs(mut found) = content else {
        return content;
    };
    let width = |g: &NormalisedGlyph| g.bounds.x1 - g.bounds.x0;
    let line_piece = |g: &NormalisedGlyph, others: &[NormalisedGlyph]| {
        let height = g.bounds.y1 - g.bounds.y0;
        !others.is_empty()
            && width(g) * HAIR_THIN < height
            && others.iter().all(|other| width(g) * 3 < width(other))
    };
    if found.len() > 1 && line_piece(&found[found.len() - 1], &found[..found.len() - 1]) {
        found.pop();
    }
    if found.len() > 1 && line_piece(&found[0], &found[1..]) {
        found.remove(0);
    }
    CellContent::Glyphs(found)
}

/// The glyphs `whole` found at the usual cut, with each blob wider than
/// [`TOUCHING_PAIR_TENTHS`] replaced by the digits cutting it there gives when every one of them
/// reads surer than the blob did; and the cut the glyphs are then found at (for reading the
/// crop again at other splits).
fn touching_digits_cut(
    crop: &GrayImage,
    darkness: &[f32],
    ink: f32,
    whole: Vec<NormalisedGlyph>,
    classifier: &DigitClassifier,
) -> (CellContent, u32) {
    let usual = glyphs::WIDEST_DIGIT_TENTHS;
    let wide = |g: &NormalisedGlyph| {
        let b = g.bounds;
        (b.x1 - b.x0) * 10 > (b.y1 - b.y0) * TOUCHING_PAIR_TENTHS
    };
    if !whole.iter().any(wide) {
        return (CellContent::Glyphs(whole), usual);
    }
    let CellContent::Glyphs(cut) =
        glyphs::find_glyphs_cut_wider_than(crop, darkness, ink, TOUCHING_PAIR_TENTHS)
    else {
        return (CellContent::Glyphs(whole), usual);
    };
    let sureness = |g: &NormalisedGlyph| classifier.classify(g).best().1;
    let mut chosen = Vec::new();
    let mut any_cut = false;
    for glyph in &whole {
        let (x0, x1) = (glyph.bounds.x0, glyph.bounds.x1);
        let parts: Vec<&NormalisedGlyph> = cut
            .iter()
            .filter(|part| (x0..x1).contains(&((part.bounds.x0 + part.bounds.x1) / 2)))
            .collect();
        let whole_sureness = sureness(glyph);
        if parts.len() > 1 && parts.iter().all(|part| sureness(part) > whole_sureness) {
            chosen.extend(parts.into_iter().cloned());
            any_cut = true;
        } else {
            chosen.push(glyph.clone());
        }
    }
    if any_cut {
        (CellContent::Glyphs(chosen), TOUCHING_PAIR_TENTHS)
    } else {
        (CellContent::Glyphs(whole), usual)
    }
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
    use crate::read::bundled_classifier;
    use crate::render::canvas::{self, HAlign};
    use crate::render::FontName;
    use image::{Rgb, RgbImage};

    #[test]
    fn only_a_sure_reading_without_a_1_stands_alone() {
        let n = CellValue::Number;
        assert!(stands((n(4), 0.99)));
        assert!(stands((n(26), SURE)));
        assert!(!stands((n(4), 0.9)));
        // A blurred 3 or 13 whose arms fell under the split reads 1 or 11 as surely.
        assert!(!stands((n(1), 1.0)));
        assert!(!stands((n(13), 1.0)));
        assert!(!stands((n(21), 0.99)));
    }

    #[test]
    fn company_puts_another_reading_first_but_never_makes_the_first_surer() {
        let n = CellValue::Number;
        // A blurred 3 read as 1 alone, and as 3 among the photo's 3s.
        let alone = vec![(n(1), 0.6), (n(3), 0.3), (CellValue::Blank, 0.0)];
        let ranked = with_company(alone, vec![(n(3), 0.7), (n(1), 0.25)]);
        assert_eq!(ranked[..2], [(n(3), 0.7), (n(1), 0.6)]);
        // A stray rule mark read as an unsure 1 alone, and surely among the photo's 1s.
        let alone = vec![(n(1), 0.65), (n(4), 0.2), (CellValue::Blank, 0.0)];
        let ranked = with_company(alone, vec![(n(1), 0.89), (n(4), 0.05)]);
        assert_eq!(ranked[..2], [(n(1), 0.65), (n(4), 0.2)]);
    }

    #[test]
    fn a_piece_of_the_clue_boxs_far_line_is_not_read_as_a_digit() {
        // A boxed clue "32" cropped past its box (as `clues::reread_boxed` crops it) from a
        // lattice sitting a few pixels right of the printed box: the box's left line lies at
        // the crop's border, where the glyph finder wipes it, but a broken piece of its right
        // line stands inside the crop beside the 2.
        let mut page = RgbImage::from_pixel(80, 80, Rgb([235; 3]));
        let ink = Rgb([25; 3]);
        canvas::fill_rect(&mut page, 2.0, 4.0, 5.0, 70.0, ink);
        canvas::fill_rect(&mut page, 2.0, 4.0, 66.0, 7.0, ink);
        canvas::fill_rect(&mut page, 2.0, 67.0, 66.0, 70.0, ink);
        canvas::fill_rect(&mut page, 63.0, 18.0, 65.0, 60.0, ink);
        let font = FontName::Sans.font();
        canvas::draw_label(
            &mut page,
            &font,
            40.0,
            "32",
            (33.0, 37.0),
            HAlign::Centre,
            ink,
        );
        let crop = image::imageops::grayscale(&page);
        let levels = Levels {
            paper: 235.0,
            ink: 0.85,
        };
        let ranked = ranked_at_splits(&crop, levels, bundled_classifier(), None, None);
        assert_eq!(ranked[0].0, CellValue::Number(32), "{ranked:?}");
    }

    #[test]
    fn a_cells_readings_over_the_splits_are_means_and_blank_paper_has_none() {
        let mut page = RgbImage::from_pixel(64, 64, Rgb([235; 3]));
        let ink = Rgb([25; 3]);
        let font = FontName::Sans.font();
        canvas::draw_label(
            &mut page,
            &font,
            40.0,
            "4",
            (32.0, 32.0),
            HAlign::Centre,
            ink,
        );
        let crop = image::imageops::grayscale(&page);
        let darkness = glyphs::flattened(&crop);
        let ranked =
            ranked_over_splits(&crop, &darkness, 0.85, bundled_classifier()).expect("a glyph");
        assert_eq!(ranked[0].0, CellValue::Number(4), "{ranked:?}");
        // Each split's probabilities sum to 1 (its blank fallback at 0), and so does the mean.
        let total: f32 = ranked.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 0.02, "{total}");
        let paper = image::imageops::grayscale(&RgbImage::from_pixel(64, 64, Rgb([235; 3])));
        let blank = glyphs::flattened(&paper);
        assert!(ranked_over_splits(&paper, &blank, 0.85, bundled_classifier()).is_none());
    }

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
