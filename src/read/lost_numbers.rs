//! Finds the clue numbers a page rule's wiping took out of a clue band (see
//! `rules::bands_without_rules`). A 1 is one stroke: printed on the rule, running along it, it
//! is wiped with the rule but for its serifs, and a digit whose spine lay on the rule (a 3's)
//! keeps only faint arms too short to be taken for a digit. Either way the line's numbers show a
//! gap where the rule was: one as wide as a number and the space on each side between two
//! numbers, or a number's place just beyond the outermost one.
//!
//! This finds those places from where the wiping lightened the band (across its width, or along
//! it for a rule running down the band); it does not read them (see `clues::read_clues`).

use image::GrayImage;

use super::glyphs::Bounds;

/// How much lighter (gray levels) wiping left a pixel for it to count as wiped.
const LIGHTENED: i16 = 12;
/// The share of a line across the band that must be wiped for a rule to have crossed it there.
const WIPED_SHARE: f32 = 0.6;
/// The fewest pixels across a band wiped at a position for a rule along the band to run there.
const RULE_WIDTH: u32 = 3;
/// The share of a band's length a rule must be wiped along for it to run along the band rather
/// than across it (which wipes a few positions only).
const ALONG_SHARE: f32 = 0.3;
/// The narrowest room left for a lost number between two others, as a share of the digits'
/// height: a 1 printed in a sans face is about a fifth of it wide.
const NARROWEST: f32 = 0.2;
/// The widest number looked for beyond the outermost one, as a share of the digits' height:
/// two digits side by side.
const WIDEST: f32 = 1.4;

/// A place in a band where a number was lost on a wiped rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Lost {
    /// Where the number is taken to be, in the band's pixels.
    pub at: Bounds,
    /// Its index among the band's numbers once inserted (reading order).
    pub index: usize,
    /// Whether it lies between two numbers (so a number was surely there) rather than beyond
    /// the outermost one (where the rule may run past the clues over bare paper).
    pub between: bool,
    /// Whether it lies between the outermost number found and the next.
    pub beside_outermost: bool,
}

/// The positions along a band (x for a row band, y for a column band, which is `along_y`)
/// where wiping a rule lightened it across its width: the middle of each run of wiped lines.
/// When a rule was wiped along the band itself (through all its numbers, straight or slanting
/// across it), every position it was wiped at.
pub fn wiped_rules(raw: &GrayImage, cleaned: &GrayImage, along_y: bool) -> Vec<u32> {
    let (width, height) = raw.dimensions();
    if cleaned.dimensions() != (width, height) {
        return Vec::new();
    }
    let (length, across) = if along_y {
        (height, width)
    } else {
        (width, height)
    };
    // Per position along the band, the pixels across it that wiping lightened.
    let wiped: Vec<u32> = (0..length)
        .map(|position| {
            (0..across)
                .filter(|&k| {
                    let (x, y) = if along_y {
                        (k, position)
                    } else {
                        (position, k)
                    };
                    i16::from(cleaned.get_pixel(x, y)[0]) - i16::from(raw.get_pixel(x, y)[0])
                        >= LIGHTENED
                })
                .count() as u32
        })
        .collect();
    let touched: Vec<u32> = (0..length)
        .filter(|&p| wiped[p as usize] >= RULE_WIDTH)
        .collect();
    if touched.len() as f32 >= ALONG_SHARE * length as f32 {
        return touched;
    }
    let mut rules = Vec::new();
    let mut run: Option<u32> = None;
    for position in 0..=length {
        let full =
            position < length && wiped[position as usize] as f32 >= WIPED_SHARE * across as f32;
        match (run, full) {
            (None, true) => run = Some(position),
            (Some(start), false) => {
                rules.push((start + position - 1) / 2);
                run = None;
            }
            _ => {}
        }
    }
    rules
}

/// The span of `b` along the band and across it.
fn spans(b: &Bounds, along_y: bool) -> ((u32, u32), (u32, u32)) {
    if along_y {
        ((b.y0, b.y1), (b.x0, b.x1))
    } else {
        ((b.x0, b.x1), (b.y0, b.y1))
    }
}

/// A box from its span along the band and across it.
fn from_spans(along: (u32, u32), across: (u32, u32), along_y: bool) -> Bounds {
    let ((x0, x1), (y0, y1)) = if along_y {
        (across, along)
    } else {
        (along, across)
    };
    Bounds { x0, y0, x1, y1 }
}

/// The space between two neighbouring numbers of a line, the median over `bands` (each its
/// numbers in reading order), `None` when no band has two.
pub fn typical_spacing(bands: &[Vec<Bounds>], along_y: bool) -> Option<u32> {
    let mut gaps: Vec<u32> = bands
        .iter()
        .flat_map(|numbers| {
            numbers.windows(2).map(move |pair| {
                let (first, second) = (spans(&pair[0], along_y).0, spans(&pair[1], along_y).0);
                second.0.saturating_sub(first.1)
            })
        })
        .collect();
    gaps.sort_unstable();
    gaps.get(gaps.len() / 2).copied()
}

/// The places in one band where a number was lost on a wiped rule (at `rules`, positions along
/// the band): between two numbers (in reading order, far end first) whose gap holds a rule with
/// room for a number and the usual `spacing` on each side of it, and beyond the outermost
/// number where a rule runs one `spacing` past it, within a number's width. `height` is the
/// digits' typical height.
pub fn lost_places(
    numbers: &[Bounds],
    rules: &[u32],
    spacing: u32,
    height: u32,
    along_y: bool,
) -> Vec<Lost> {
    let narrowest = (NARROWEST * height as f32).ceil() as u32;
    let mut lost = Vec::new();
    for (k, pair) in numbers.windows(2).enumerate() {
        let ((_, before), across_before) = spans(&pair[0], along_y);
        let ((after, _), across_after) = spans(&pair[1], along_y);
        let (low, high) = (before + spacing, after.saturating_sub(spacing));
        if high < low + narrowest {
            continue;
        }
        if rules.iter().any(|&rule| low <= rule && rule <= high) {
            let across = (
                across_before.0.min(across_after.0),
                across_before.1.max(across_after.1),
            );
            lost.push(Lost {
                at: from_spans((low, high), across, along_y),
                index: k + 1 + lost.len(),
                between: true,
                beside_outermost: k == 0,
            });
        }
    }
    if let Some(outermost) = numbers.first() {
        let ((start, _), across) = spans(outermost, along_y);
        let widest = (WIDEST * height as f32).round() as u32;
        let high = start.saturating_sub(spacing);
        let low = high.saturating_sub(widest);
        let on_rule = rules
            .iter()
            .any(|&rule| low < rule && rule + narrowest / 2 <= high);
        if on_rule && low > 0 {
            lost.insert(
                0,
                Lost {
                    at: from_spans((low, high), across, along_y),
                    index: 0,
                    between: false,
                    beside_outermost: false,
                },
            );
            for place in &mut lost[1..] {
                place.index += 1;
            }
        }
    }
    lost
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(x0: u32, x1: u32) -> Bounds {
        Bounds {
            x0,
            y0: 14,
            x1,
            y1: 34,
        }
    }

    #[test]
    fn a_rule_wiped_across_a_band_is_found_at_its_middle() {
        let raw = GrayImage::from_fn(100, 48, |x, _| {
            image::Luma([if (40..44).contains(&x) { 90 } else { 200 }])
        });
        let mut cleaned = GrayImage::from_pixel(100, 48, image::Luma([200]));
        // A digit's stroke kept on the rule over part of the band.
        for y in 20..30 {
            cleaned.put_pixel(41, y, image::Luma([90]));
        }
        assert_eq!(wiped_rules(&raw, &cleaned, false), vec![41]);
        assert!(wiped_rules(&raw, &raw, false).is_empty());
        // A rule along the band runs by every place it was wiped at (not where the stroke was
        // kept on it).
        let raw = GrayImage::from_fn(100, 48, |_, y| {
            image::Luma([if (22..26).contains(&y) { 90 } else { 200 }])
        });
        let along = wiped_rules(&raw, &cleaned, false);
        assert_eq!(along.len(), 99);
        assert!(!along.contains(&41));
    }

    #[test]
    fn a_gap_holding_a_rule_and_room_for_a_number_is_a_lost_number() {
        // Numbers 20 px apart; the rule at 776 in a 52 px gap, as in a generated photo.
        let numbers = [
            number(710, 720),
            number(741, 751),
            number(803, 816),
            number(836, 851),
        ];
        let lost = lost_places(&numbers, &[776], 20, 21, false);
        assert_eq!(lost.len(), 1);
        assert_eq!(lost[0].index, 2);
        assert!(lost[0].between && !lost[0].beside_outermost);
        assert_eq!((lost[0].at.x0, lost[0].at.x1), (771, 783));
        // No rule there, or no room for a number: nothing lost.
        assert!(lost_places(&numbers, &[], 20, 21, false).is_empty());
        assert!(lost_places(&numbers[..2], &[730], 20, 21, false).is_empty());
    }

    #[test]
    fn a_rule_one_spacing_beyond_the_outermost_number_may_have_taken_one() {
        let numbers = [number(808, 814), number(838, 845)];
        let lost = lost_places(&numbers, &[783], 20, 21, false);
        assert_eq!(lost.len(), 1);
        assert!(!lost[0].between);
        assert_eq!(lost[0].index, 0);
        // A rule further out runs past the clues.
        assert!(lost_places(&numbers, &[740], 20, 21, false).is_empty());
    }
}
