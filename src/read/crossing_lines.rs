//! Finds the straight lines that cross a cell crop from one side to the opposite one and paints
//! them over with the crop's paper. Where a curled page bends a boxed maze's box lines away
//! from the lattice read on it, a box's side runs through the crop a fifth of a cell inside
//! its edge, deeper than the glyph finder's border wipe reaches: alone it reads as a sure "1"
//! in a blank cell, and joined to a box's top line and a digit it reads as a "5". No digit
//! crosses its crop from side to side, so a line that does is print around the digits.
//! This finds lines only; it does not read the crop or judge whether the cell is blank.

use image::GrayImage;

use super::glyphs;

/// A pixel is on a line when it is at least this share of the page's ink darkness: box lines
/// are printed as dark as the digits, but blur spreads them thinner.
const LINE_INK: f32 = 0.5;
/// The share of a line's places along the crop that must be on it; blur and noise leave gaps.
const COVERED: f32 = 0.97;
/// How far from square a line may run: its two ends at most this share of the side apart
/// across it (about eleven degrees), as far as curl was seen to tilt box lines against the
/// lattice's cell.
const MOST_TILT: f32 = 0.2;
/// The least darkness of each end tenth of a line, as a share of its middle half's: a printed
/// line is as dark all along, while a 1 smeared along its length by motion blur fades towards
/// its ends (a guard set by that reasoning, not measured apart from the rest).
const EVEN_ENDS: f32 = 0.75;
/// Only lines running at least this deep inside (share of the side, at their middle) are
/// painted: lines at the crop's edge are the glyph finder's to wipe, and painting them as well
/// wiped part of a digit standing beside one in a blurred photo.
const DEEPEST_EDGE: f32 = 0.1;
/// Lines whose ends both lie within this share of the side of a better one's are that line
/// found again: a blurred line is crossed by a fan of straight lines.
const SAME_LINE: f32 = 0.125;
/// Pixels either side of a line, as a share of its ink darkness, that are painted with it: the
/// blurred foot of the line.
const FOOT_INK: f32 = 0.35;
/// The widest a line's painted band reaches from its middle, as a share of the side.
const WIDEST_REACH: f32 = 0.125;

/// A straight line crossing a crop: where it meets the first side and the opposite one
/// (pixels across), and whether it runs top to bottom.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: f32,
    end: f32,
    vertical: bool,
}

impl Line {
    /// Where the line is across the crop at `along` pixels of a crop `side` long.
    fn across_at(&self, along: usize, side: usize) -> f32 {
        self.start + (self.end - self.start) * along as f32 / (side - 1) as f32
    }
}

/// `crop` (a square cell crop of a page whose digits are `ink` dark, see
/// [`glyphs::ink_darkness`]) with the straight lines crossing it from side to side deeper inside
/// than [`DEEPEST_EDGE`] painted over with its paper; `None` when there are none.
pub fn without_crossing_lines(crop: &GrayImage, ink: f32) -> Option<GrayImage> {
    let side = crop.width() as usize;
    if crop.height() as usize != side || side < glyphs::MIN_CELL as usize {
        return None;
    }
    let darkness = glyphs::flattened(crop);
    let lines: Vec<Line> = [true, false]
        .into_iter()
        .flat_map(|vertical| lines_one_way(&darkness, side, ink, vertical))
        .collect();
    let deep = DEEPEST_EDGE * side as f32;
    let inside = |line: &Line| {
        let middle = line.across_at(side / 2, side);
        middle >= deep && middle <= side as f32 - 1.0 - deep
    };
    let inner: Vec<Line> = lines.into_iter().filter(inside).collect();
    (!inner.is_empty()).then(|| painted(crop, &darkness, &inner, ink))
}

/// The darkness of `darkness` (a `side` square) at `along` pixels along a line and `across`
/// pixels across it, for lines running top to bottom when `vertical`.
fn at(darkness: &[f32], side: usize, vertical: bool, along: usize, across: usize) -> f32 {
    if vertical {
        darkness[along * side + across]
    } else {
        darkness[across * side + along]
    }
}

/// The lines crossing the crop one way, the best covered first, none within a few pixels of a
/// better one at both ends.
fn lines_one_way(darkness: &[f32], side: usize, ink: f32, vertical: bool) -> Vec<Line> {
    let most_tilt = (MOST_TILT * side as f32) as i64;
    let last = side as i64 - 1;
    // The darkest pixel within one of the line at each place along it: a line a pixel off
    // straight still counts.
    let level = |line: &Line, along: usize| {
        let middle = line.across_at(along, side).round() as i64;
        (middle - 1..=middle + 1)
            .filter(|&k| (0..=last).contains(&k))
            .map(|k| at(darkness, side, vertical, along, k as usize))
            .fold(0.0f32, f32::max)
    };
    let tenth = (side / 10).max(1);
    let mut candidates: Vec<(usize, Line)> = Vec::new();
    for start in 0..=last {
        for end in (start - most_tilt).max(0)..=(start + most_tilt).min(last) {
            let line = Line {
                start: start as f32,
                end: end as f32,
                vertical,
            };
            let on = |value: &f32| *value >= LINE_INK * ink;
            // Crossing means reaching both sides, whatever gaps it has between them; looked at
            // first, as it rules out nearly every line tried.
            if !(0..3)
                .chain(side - 3..side)
                .all(|along| on(&level(&line, along)))
            {
                continue;
            }
            let levels: Vec<f32> = (0..side).map(|along| level(&line, along)).collect();
            let covered = levels.iter().filter(|v| on(v)).count();
            if (covered as f32) < COVERED * side as f32 {
                continue;
            }
            let mean = |values: &[f32]| values.iter().sum::<f32>() / values.len().max(1) as f32;
            let middle = mean(&levels[side / 4..side - side / 4]);
            let ends = mean(&levels[..tenth]).min(mean(&levels[side - tenth..]));
            if ends >= EVEN_ENDS * middle {
                candidates.push((covered, line));
            }
        }
    }
    candidates.sort_by_key(|&(covered, _)| std::cmp::Reverse(covered));
    let mut lines: Vec<Line> = Vec::new();
    for (_, line) in candidates {
        let near = |other: &Line| {
            let apart = SAME_LINE * side as f32;
            (other.start - line.start).abs() <= apart && (other.end - line.end).abs() <= apart
        };
        if !lines.iter().any(near) {
            lines.push(line);
        }
    }
    lines
}

/// `crop` with each of `lines` painted over with the crop's paper, as wide at each place as
/// its ink runs there (at least [`FOOT_INK`] of `ink`, at most [`WIDEST_REACH`] of the side
/// from its middle) and a pixel more each side.
fn painted(crop: &GrayImage, darkness: &[f32], lines: &[Line], ink: f32) -> GrayImage {
    let side = crop.width() as usize;
    let last = side as i64 - 1;
    let paper = glyphs::percentile(crop.as_raw(), 0.9).round() as u8;
    let widest = (WIDEST_REACH * side as f32) as i64;
    let mut wiped = crop.clone();
    for line in lines {
        let inked = |along: usize, k: i64| {
            (0..=last).contains(&k)
                && at(darkness, side, line.vertical, along, k as usize) >= FOOT_INK * ink
        };
        for along in 0..side {
            let middle = line.across_at(along, side).round() as i64;
            let mut low = middle;
            while low > middle - widest && inked(along, low - 1) {
                low -= 1;
            }
            let mut high = middle;
            while high < middle + widest && inked(along, high + 1) {
                high += 1;
            }
            for k in (low - 1).max(0)..=(high + 1).min(last) {
                let (x, y) = if line.vertical {
                    (k as u32, along as u32)
                } else {
                    (along as u32, k as u32)
                };
                wiped.put_pixel(x, y, image::Luma([paper]));
            }
        }
    }
    wiped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::photo::rng::Rng;
    use crate::read::glyphs::{read_cell, CellContent};
    use crate::render::canvas::{self, HAlign};
    use crate::render::FontName;
    use image::{Luma, Rgb, RgbImage};

    const SIDE: u32 = 64;

    /// A line's two ends in a crop's pixels.
    type Segment = ((f32, f32), (f32, f32));

    /// A 64-pixel cell crop: `text` printed in its middle, and each of `lines` (from, to)
    /// drawn 3 pixels wide, blurred as a phone's photo is, with a little noise.
    fn crop(text: &str, lines: &[Segment]) -> GrayImage {
        let mut page = RgbImage::from_pixel(SIDE, SIDE, Rgb([230; 3]));
        let ink = Rgb([40; 3]);
        for &(from, to) in lines {
            canvas::line(&mut page, from, to, 3.0, ink);
        }
        let font = FontName::EVERY[0].font();
        let middle = SIDE as f32 / 2.0;
        canvas::draw_label(
            &mut page,
            &font,
            34.0,
            text,
            (middle, middle),
            HAlign::Centre,
            ink,
        );
        let gray = GrayImage::from_fn(SIDE, SIDE, |x, y| Luma([page.get_pixel(x, y).0[0]]));
        let blurred = image::imageops::blur(&gray, 1.5);
        let mut rng = Rng::new(7);
        GrayImage::from_fn(SIDE, SIDE, |x, y| {
            let v = f32::from(blurred.get_pixel(x, y).0[0]) + rng.normal() * 3.0;
            Luma([v.clamp(0.0, 255.0) as u8])
        })
    }

    fn glyph_count(content: &CellContent) -> usize {
        match content {
            CellContent::Glyphs(found) => found.len(),
            _ => 0,
        }
    }

    #[test]
    fn a_tilted_box_side_deep_in_a_blank_cell_is_painted_over() {
        let ruled = crop("", &[((18.0, -1.0), (12.0, 65.0))]);
        assert_eq!(
            glyph_count(&read_cell(&ruled)),
            1,
            "the line reads as a glyph"
        );
        let wiped = without_crossing_lines(&ruled, 1.0).expect("a line crosses the crop");
        assert_eq!(read_cell(&wiped), CellContent::Blank);
    }

    #[test]
    fn a_digit_beside_a_box_corner_keeps_its_strokes_and_loses_the_corner() {
        let cornered = crop(
            "1",
            &[((17.0, -1.0), (13.0, 65.0)), ((-1.0, 13.0), (65.0, 16.0))],
        );
        let wiped = without_crossing_lines(&cornered, 1.0).expect("two lines cross the crop");
        assert_eq!(glyph_count(&read_cell(&wiped)), 1);
        let ink = |image: &GrayImage| image.pixels().filter(|p| p.0[0] < 120).count();
        let digit_only = crop("1", &[]);
        assert!(ink(&wiped).abs_diff(ink(&digit_only)) * 5 < ink(&digit_only));
    }

    #[test]
    fn digits_and_lines_at_the_crop_edge_are_left_alone() {
        for text in ["1", "4", "7", "8"] {
            assert!(
                without_crossing_lines(&crop(text, &[]), 1.0).is_none(),
                "{text}"
            );
        }
        let edged = crop("2", &[((2.0, -1.0), (2.0, 65.0))]);
        assert!(without_crossing_lines(&edged, 1.0).is_none());
    }

    #[test]
    fn odd_crops_are_refused_without_panic() {
        assert!(without_crossing_lines(&GrayImage::new(64, 32), 1.0).is_none());
        assert!(without_crossing_lines(&GrayImage::new(4, 4), 1.0).is_none());
        assert!(without_crossing_lines(&GrayImage::from_pixel(64, 64, Luma([0])), 1.0).is_none());
    }
}
