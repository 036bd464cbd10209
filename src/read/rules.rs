//! Wipes a printed rule that runs straight through a cell crop: the column rule of a page laid
//! out in columns, printed across a puzzle that has no grid lines of its own (the jump maze).
//! Such a line crosses the whole cell, where no digit does; left in, it reads as an extra "1"
//! beside the digit, or as a "1" in an empty cell. Lines at the crop's border (the cell's own
//! grid or box lines) are left to the glyph finder, which wipes them itself; this does not find
//! glyphs or read anything.

use image::GrayImage;

use super::glyphs::{median, percentile, value_at_rank};

/// Share of a line's pixels (the brightest ones) looked at to tell a rule from a digit's
/// stroke: a rule darkens the whole line, a digit at most about 0.7 of it, so the line's level
/// at this rank from the darkest is ink for a rule and paper for a digit.
const RANK: f32 = 0.85;
/// The widest band (at half its depth), as a share of the crop, taken for a line; wider dark
/// bands are shadows or black cells.
const MAX_WIDTH: f32 = 0.2;
/// Bands within this share of the crop from its border are the cell's own lines.
const BORDER: f32 = 0.06;
/// How much darker than the crop's typical line a rule's line must be, as a share of the
/// crop's contrast, and at least [`MIN_DIP`] gray levels.
const DIP: f32 = 0.2;
const MIN_DIP: f32 = 8.0;

/// `crop` with every rule crossing it from side to side (vertical or horizontal) painted over
/// by the paper beside it; the crop itself when there is none.
pub fn without_rules(crop: &GrayImage) -> GrayImage {
    let mut cleaned: Option<GrayImage> = None;
    for vertical in [true, false] {
        let current = cleaned.as_ref().unwrap_or(crop);
        if let Some(bands) = rule_bands(current, vertical, BORDER) {
            let mut image = current.clone();
            for band in bands {
                paint_between(&mut image, band, vertical);
            }
            cleaned = Some(image);
        }
    }
    cleaned.unwrap_or_else(|| crop.clone())
}

/// A band of lines across a crop: its first and last line index.
type Band = (usize, usize);

/// A grid's cell crops with the rules crossing them wiped, and which cells had one wiped.
pub struct Unruled {
    pub crops: Vec<Vec<GrayImage>>,
    /// Rows of cells: whether a rule was wiped from the cell's crop. A 1 printed on a rule is
    /// all but wiped with it.
    pub ruled: Vec<Vec<bool>>,
}

/// Every cell crop of a grid (rows of crops, all one size) with the rules crossing it wiped. A
/// band is taken for a rule only when the cells before and after it along the band (above and
/// below for a vertical band, left and right for a horizontal one) show one at the same place
/// too: a rule runs on across the page, while a digit's stroke stops in its cell, and a tall 1
/// can cross its cell's crop from top to bottom.
pub fn grid_without_rules(crops: &[Vec<GrayImage>]) -> Unruled {
    grid_wiped(crops, BORDER, lift)
}

/// [`grid_without_rules`] for crops reaching past their cells: bands within `border` (a share
/// of the crop) of its edges are the cells' own lines and are left alone.
pub fn grid_without_rules_inside(crops: &[Vec<GrayImage>], border: f32) -> Vec<Vec<GrayImage>> {
    grid_wiped(crops, border, lift).crops
}

/// How a rule's band is wiped from a crop: the band (first, last line across) along vertical
/// or horizontal lines.
type Wipe = fn(&mut GrayImage, Band, bool);

/// [`grid_without_rules_inside`] with each rule wiped by `wipe`, and which cells had one.
fn grid_wiped(crops: &[Vec<GrayImage>], border: f32, wipe: Wipe) -> Unruled {
    let bands: Vec<Vec<[Vec<Band>; 2]>> = crops
        .iter()
        .map(|row| {
            row.iter()
                .map(|crop| [true, false].map(|v| rule_bands(crop, v, border).unwrap_or_default()))
                .collect()
        })
        .collect();
    let rows = crops.len() as i64;
    let continues = |r: i64, c: i64, direction: usize, (first, last): (usize, usize)| {
        let slack = crops[0][0].width() as usize / 8;
        let neighbours: Vec<(i64, i64)> = if direction == 0 {
            vec![(r - 1, c), (r + 1, c)]
        } else {
            vec![(r, c - 1), (r, c + 1)]
        };
        let inside: Vec<&Vec<(usize, usize)>> = neighbours
            .into_iter()
            .filter(|&(i, j)| {
                i >= 0 && i < rows && j >= 0 && (j as usize) < crops[i as usize].len()
            })
            .map(|(i, j)| &bands[i as usize][j as usize][direction])
            .collect();
        !inside.is_empty()
            && inside.iter().all(|others| {
                others
                    .iter()
                    .any(|&(a, b)| a <= last + slack && first <= b + slack)
            })
    };
    let (crops, ruled) = crops
        .iter()
        .enumerate()
        .map(|(r, row)| {
            row.iter()
                .enumerate()
                .map(|(c, crop)| {
                    let mut cleaned = crop.clone();
                    let mut ruled = false;
                    for (direction, vertical) in [(0, true), (1, false)] {
                        for &band in &bands[r][c][direction] {
                            if continues(r as i64, c as i64, direction, band) {
                                wipe(&mut cleaned, band, vertical);
                                ruled = true;
                            }
                        }
                    }
                    (cleaned, ruled)
                })
                .unzip()
        })
        .unzip();
    Unruled { crops, ruled }
}

/// Clue bands (strips of one size, each `side` pixels across, laid side by side when
/// `across` and one under another otherwise, as they lie on the page) with the rules crossing
/// them wiped: a page's column rule running along a band joins its numbers into one blob too
/// tall to be a digit. Each band is cut into squares `side` long, and these are cleaned as one
/// grid of cells (see [`grid_without_rules`]), from the band's end at the grid (right or
/// bottom) out; the far end, shorter than a square, is left.
pub fn bands_without_rules(bands: &[GrayImage], side: u32, across: bool) -> Vec<GrayImage> {
    // A rule near a square's edge is taken for a cell's own line and left; the squares carry no
    // lines of their own, so a second pass over squares shifted by half a square finds it in the
    // middle of one.
    let once = bands_without_rules_from(bands, side, across, 0);
    bands_without_rules_from(&once, side, across, side / 2)
}

/// [`bands_without_rules`] over squares ending `short` pixels before the band's end at the grid.
fn bands_without_rules_from(
    bands: &[GrayImage],
    side: u32,
    across: bool,
    short: u32,
) -> Vec<GrayImage> {
    let Some(first) = bands.first() else {
        return Vec::new();
    };
    let length = if across {
        first.height()
    } else {
        first.width()
    };
    let squares = (length.saturating_sub(short) / side) as usize;
    if squares == 0 || bands.iter().any(|b| b.dimensions() != first.dimensions()) {
        return bands.to_vec();
    }
    let offset = length - short - squares as u32 * side;
    let square = |band: &GrayImage, k: usize| {
        let at = offset + k as u32 * side;
        let (x, y) = if across { (0, at) } else { (at, 0) };
        image::imageops::crop_imm(band, x, y, side, side).to_image()
    };
    // Rows of squares as on the page: a row band's squares left to right, one band under the
    // next; a column band's squares top to bottom, the bands side by side.
    let grid: Vec<Vec<GrayImage>> = if across {
        (0..squares)
            .map(|k| bands.iter().map(|band| square(band, k)).collect())
            .collect()
    } else {
        bands
            .iter()
            .map(|band| (0..squares).map(|k| square(band, k)).collect())
            .collect()
    };
    // Painted over rather than lifted: a clue band's rule runs through numbers printed across
    // it, whose strokes lifting leaves cut (a 10 and a 3 read as 1 and 1 in a generated photo).
    // What lifting shows past the rule's core is kept: a 1 printed on the rule.
    let cleaned = grid_wiped(&grid, BORDER, paint_keeping_print).crops;
    bands
        .iter()
        .enumerate()
        .map(|(b, band)| {
            let mut band = band.clone();
            let pieces: Vec<&GrayImage> = if across {
                cleaned.iter().map(|row| &row[b]).collect()
            } else {
                cleaned[b].iter().collect()
            };
            for (k, piece) in pieces.into_iter().enumerate() {
                let at = i64::from(offset + k as u32 * side);
                let (x, y) = if across { (0, at) } else { (at, 0) };
                image::imageops::replace(&mut band, piece, x, y);
            }
            band
        })
        .collect()
}

/// The bands (first, last line index across the crop) of rules running along `vertical`
/// lines of `crop` and not within `border` (a share of the crop) of its edges, or `None` when
/// there are none.
fn rule_bands(crop: &GrayImage, vertical: bool, border: f32) -> Option<Vec<(usize, usize)>> {
    let (w, h) = (crop.width() as usize, crop.height() as usize);
    if w < 16 || h < 16 {
        return None;
    }
    let raw = crop.as_raw();
    let contrast = percentile(raw, 0.9) - percentile(raw, 0.02);
    let (across, along) = if vertical { (w, h) } else { (h, w) };
    // The crop line by line across the band direction: rows as they are, columns gathered.
    let by_line: Vec<u8> = if vertical {
        (0..w)
            .flat_map(|x| (0..h).map(move |y| raw[y * w + x]))
            .collect()
    } else {
        raw.to_vec()
    };
    let line_at = |line: usize| &by_line[line * along..][..along];
    // Each line's level at RANK, a pixel either side allowed for a line a little off square:
    // the value at that rank among its darkest-of-three pixels, as `percentile` would find it.
    let rank = (along as f32 * RANK) as usize;
    let mut darkest = vec![0u8; along];
    let levels: Vec<f32> = (0..across)
        .map(|line| {
            darkest.copy_from_slice(line_at(line));
            for other in [line.checked_sub(1), Some(line + 1).filter(|&l| l < across)]
                .into_iter()
                .flatten()
            {
                for (d, &v) in darkest.iter_mut().zip(line_at(other)) {
                    *d = (*d).min(v);
                }
            }
            f32::from(value_at_rank(&darkest, rank))
        })
        .collect();
    let typical = median(&mut levels.clone());
    let limit = typical - (DIP * contrast).max(MIN_DIP);
    let covered: Vec<bool> = levels.iter().map(|&level| level < limit).collect();
    let border = ((border * across as f32).ceil() as usize).max(2);
    let widest = (MAX_WIDTH * across as f32) as usize;
    let mut bands = Vec::new();
    let mut line = 0;
    while line < across {
        if !covered[line] {
            line += 1;
            continue;
        }
        let first = line;
        while line < across && covered[line] {
            line += 1;
        }
        let last = line - 1;
        // The band's width at half its depth: blur widens its foot, not its middle much.
        let deepest = levels[first..=last]
            .iter()
            .copied()
            .fold(f32::MAX, f32::min);
        let half = (typical + deepest) / 2.0;
        let core = levels[first..=last].iter().filter(|&&l| l <= half).count();
        if first >= border && last + border < across && core <= widest {
            bands.push((first, last));
        }
    }
    (!bands.is_empty()).then_some(bands)
}

/// Where a band (first, last line across) lies in an image read along `vertical` lines: its
/// lines from `low` to `high` reach a pixel past the band each side for the line's blurred edge
/// and one more, the band's sides.
struct BandLayout {
    width: usize,
    vertical: bool,
    across: usize,
    along: usize,
    low: usize,
    high: usize,
}

impl BandLayout {
    fn new(image: &GrayImage, (first, last): Band, vertical: bool) -> BandLayout {
        let (width, height) = (image.width() as usize, image.height() as usize);
        let (across, along) = if vertical {
            (width, height)
        } else {
            (height, width)
        };
        BandLayout {
            width,
            vertical,
            across,
            along,
            low: first.saturating_sub(2),
            high: (last + 2).min(across - 1),
        }
    }

    /// The pixel index of `position` along line `line`.
    fn index(&self, line: usize, position: usize) -> usize {
        if self.vertical {
            position * self.width + line
        } else {
            line * self.width + position
        }
    }
}

/// Lifts the band (first, last) of `image`, a pixel wider on each side for the line's blurred
/// edge, back to paper: each line across the band is lightened by how much darker than the
/// crop's typical line its paper-most pixels are (the rule's own darkness there), no pixel
/// past that paper. A digit's stroke under the rule stays as much darker than the rule as it
/// was, so a 1 printed along the rule survives, where painting the band over with the paper
/// beside it would wipe it. A stroke crossing a rule as dark as the print would be lifted away
/// with it (a 4's bar cut in two read as 44), so where the band's two sides are both darker
/// than half-way from paper to the rule, the band is also bridged between them
/// (`paint_between`) and keeps the darker of the two. Fainter sides are the rule's blurred edge,
/// and bridging them would leave a grey streak along it.
fn lift(image: &mut GrayImage, (first, last): (usize, usize), vertical: bool) {
    let mut bridged = image.clone();
    paint_between(&mut bridged, (first, last), vertical);
    let layout = BandLayout::new(image, (first, last), vertical);
    let (across, along, low, high) = (layout.across, layout.along, layout.low, layout.high);
    let index = |line: usize, position: usize| layout.index(line, position);
    let pixels: &mut [u8] = image;
    let rank = (along as f32 * RANK) as usize;
    let level = |pixels: &[u8], line: usize| {
        let values: Vec<u8> = (0..along).map(|p| pixels[index(line, p)]).collect();
        f32::from(value_at_rank(&values, rank.min(along - 1)))
    };
    let mut all: Vec<f32> = (0..across).map(|line| level(pixels, line)).collect();
    let lifts: Vec<f32> = (low..=high).map(|line| all[line]).collect();
    let typical = median(&mut all);
    let darkest = lifts.iter().copied().fold(typical, f32::min);
    let stroke = darkest + (typical - darkest) / 2.0;
    let crossed: Vec<bool> = (0..along)
        .map(|p| f32::from(pixels[index(low, p)]).max(f32::from(pixels[index(high, p)])) < stroke)
        .collect();
    for (line, rule) in (low..=high).zip(lifts) {
        let lift = (typical - rule).max(0.0);
        for (position, &crossed) in crossed.iter().enumerate() {
            let pixel = &mut pixels[index(line, position)];
            let value = f32::from(*pixel);
            let lifted = (value + lift).min(typical.max(value)).round() as u8;
            *pixel = if crossed {
                lifted.min(bridged.as_raw()[index(line, position)])
            } else {
                lifted
            };
        }
    }
}

/// Paints the band (first, last) of `image` over as [`paint_bridging_strokes`] does, but keeps
/// whatever [`lift`] shows darker there: a digit printed on a rule, which painting wipes with
/// it, lifted by the rule's own darkness still shows where it reaches past the rule's dark core.
fn paint_keeping_print(image: &mut GrayImage, band: Band, vertical: bool) {
    let mut painted = image.clone();
    paint_bridging_strokes(&mut painted, band, vertical);
    lift(image, band, vertical);
    for (pixel, &paint) in image.iter_mut().zip(painted.as_raw()) {
        *pixel = (*pixel).min(paint);
    }
}

/// Paints the band (first, last) of `image` over as [`paint_between`] does where a stroke
/// crosses it (both sides darker than half-way from the sides' paper to their darkest) or
/// none touches it, and with the paper side where a stroke ends at it on one side only: a 1
/// printed beside a rule, ramped into the paper across the band, left a grey wedge beside its
/// stem that read as a sure 3.
fn paint_bridging_strokes(image: &mut GrayImage, band: Band, vertical: bool) {
    let layout = BandLayout::new(image, band, vertical);
    let pixels: &[u8] = image;
    let mut sides: Vec<u8> = (0..layout.along)
        .flat_map(|p| [layout.index(layout.low, p), layout.index(layout.high, p)])
        .map(|i| pixels[i])
        .collect();
    sides.sort_unstable();
    let Some(&darkest) = sides.first() else {
        return;
    };
    let darkest = f32::from(darkest);
    let paper = f32::from(sides[((sides.len() - 1) as f32 * RANK) as usize]);
    let stroke = darkest + (paper - darkest) / 2.0;
    let dark = |value: u8| paper - darkest >= MIN_DIP && f32::from(value) < stroke;
    paint_across(image, band, vertical, |a, b, t| match (dark(a), dark(b)) {
        (true, false) => f32::from(b),
        (false, true) => f32::from(a),
        _ => ramp(a, b, t),
    });
}

/// Paints the band (first, last) of `image`, a pixel wider on each side for the line's blurred
/// edge, with a ramp between the pixels just outside it, line by line along the band: for a
/// band found in one crop alone, which may be a curved mark (the start cell's ring) rather
/// than a straight rule, so that its darkness along the band says nothing; and for rules
/// across clue bands (see [`bands_without_rules`]).
fn paint_between(image: &mut GrayImage, band: Band, vertical: bool) {
    paint_across(image, band, vertical, ramp);
}

/// The gray level `t` of the way from `a` to `b`.
fn ramp(a: u8, b: u8, t: f32) -> f32 {
    f32::from(a) + (f32::from(b) - f32::from(a)) * t
}

/// Paints the band (first, last) of `image`, a pixel wider on each side, line by line along
/// it: each pixel `t` of the way across gets `fill(a, b, t)`, `a` and `b` the pixels just
/// outside the band on that line.
fn paint_across(
    image: &mut GrayImage,
    band: Band,
    vertical: bool,
    fill: impl Fn(u8, u8, f32) -> f32,
) {
    let layout = BandLayout::new(image, band, vertical);
    let (low, high) = (layout.low, layout.high);
    let pixels: &mut [u8] = image;
    for position in 0..layout.along {
        let a = pixels[layout.index(low, position)];
        let b = pixels[layout.index(high, position)];
        for line in low + 1..high {
            let t = (line - low) as f32 / (high - low) as f32;
            pixels[layout.index(line, position)] = fill(a, b, t).round() as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64-pixel paper crop with a digit-like bar (rows 16..48 at columns 28..34).
    fn crop_with_stem() -> GrayImage {
        GrayImage::from_fn(64, 64, |x, y| {
            let stem = (28..34).contains(&x) && (16..48).contains(&y);
            image::Luma([if stem { 30 } else { 235 }])
        })
    }

    #[test]
    fn a_stem_ending_at_a_rule_is_not_smeared_across_it() {
        // A stem (columns 20..26) beside a rule (columns 26..30); the band painted over is
        // 24..32 and its left side (column 24) lies on the stem.
        let mut crop = GrayImage::from_fn(64, 64, |x, y| {
            let stem = (20..26).contains(&x) && (16..48).contains(&y);
            image::Luma([if stem { 30 } else { 235 }])
        });
        for y in 0..64 {
            for x in 26..30 {
                crop.put_pixel(x, y, image::Luma([120]));
            }
        }
        paint_bridging_strokes(&mut crop, (26, 29), true);
        assert!(
            (16..48).all(|y| crop.get_pixel(27, y).0[0] > 200),
            "no wedge"
        );
        assert_eq!(crop.get_pixel(22, 30).0[0], 30, "the stem stays");
    }

    #[test]
    fn wipes_a_rule_crossing_the_cell_and_keeps_the_digit() {
        let mut crop = crop_with_stem();
        for y in 0..64 {
            for x in 44..46 {
                crop.put_pixel(x, y, image::Luma([40]));
            }
        }
        let cleaned = without_rules(&crop);
        assert!((0..64).all(|y| cleaned.get_pixel(45, y).0[0] > 200));
        assert_eq!(cleaned.get_pixel(30, 30).0[0], 30, "the stem stays");
        assert_eq!(cleaned.get_pixel(30, 8).0[0], 235);
    }

    #[test]
    fn in_a_grid_only_a_band_running_on_into_the_next_cells_is_a_rule() {
        let ruled = |x0: u32| {
            GrayImage::from_fn(64, 64, |x, _| {
                image::Luma([if (x0..x0 + 2).contains(&x) { 40 } else { 235 }])
            })
        };
        let paper = GrayImage::from_pixel(64, 64, image::Luma([235]));
        // A rule down a column of three cells; beside it, a cell-high 1 alone in its column.
        let crops = vec![
            vec![ruled(44), paper.clone()],
            vec![ruled(45), ruled(30)],
            vec![ruled(44), paper.clone()],
        ];
        let Unruled {
            crops: cleaned,
            ruled,
        } = grid_without_rules(&crops);
        assert_eq!(ruled, vec![vec![true, false]; 3]);
        for row in &cleaned {
            assert!((0..64).all(|y| row[0].get_pixel(45, y).0[0] > 200));
        }
        assert_eq!(cleaned[1][1], crops[1][1], "the lone stroke stays");
    }

    #[test]
    fn a_stroke_crossing_a_rule_as_dark_as_the_print_stays_joined() {
        // A rule down a column of three cells; the middle cell's digit has a bar across it
        // (a 4's), printed as dark as the rule.
        let ruled = |bar: bool| {
            GrayImage::from_fn(64, 64, |x, y| {
                let rule = (44..46).contains(&x);
                let crossing = bar && (20..60).contains(&x) && (30..34).contains(&y);
                image::Luma([if rule || crossing { 30 } else { 235 }])
            })
        };
        let crops = vec![vec![ruled(false)], vec![ruled(true)], vec![ruled(false)]];
        let cleaned = grid_without_rules(&crops).crops;
        assert!((0..64).all(|y| cleaned[0][0].get_pixel(45, y).0[0] > 200));
        assert!((0..20).all(|y| cleaned[1][0].get_pixel(45, y).0[0] > 200));
        assert!(
            (20..60).all(|x| cleaned[1][0].get_pixel(x, 32).0[0] < 60),
            "the bar is not cut where it crosses the rule"
        );
    }

    #[test]
    fn leaves_digits_border_lines_and_black_cells_alone() {
        let stem = crop_with_stem();
        assert_eq!(without_rules(&stem), stem);
        let mut boxed = crop_with_stem();
        for y in 0..64 {
            boxed.put_pixel(1, y, image::Luma([30]));
        }
        assert_eq!(without_rules(&boxed), boxed);
        let half_black =
            GrayImage::from_fn(64, 64, |x, _| image::Luma([if x < 40 { 20 } else { 230 }]));
        assert_eq!(without_rules(&half_black), half_black);
    }

    #[test]
    fn a_rule_running_down_a_column_clue_band_is_wiped_from_the_band() {
        // Three column bands 48 wide and 200 tall (4 squares from the bottom, 8 rows left at
        // the top); the middle one has two digit-like bars and a rule from top to bottom.
        let band = |ruled: bool| {
            GrayImage::from_fn(48, 200, |x, y| {
                let bar =
                    (20..26).contains(&x) && ((110..140).contains(&y) || (160..190).contains(&y));
                let rule = ruled && (34..36).contains(&x);
                image::Luma([if bar || rule { 35 } else { 235 }])
            })
        };
        let bands = vec![band(false), band(true), band(false)];
        let cleaned = bands_without_rules(&bands, 48, true);
        assert_eq!(cleaned[0], bands[0]);
        assert_eq!(cleaned[2], bands[2]);
        assert!(
            (8..200).all(|y| cleaned[1].get_pixel(35, y).0[0] > 200),
            "rule wiped"
        );
        assert_eq!(cleaned[1].get_pixel(22, 120).0[0], 35, "digits stay");
        assert_eq!(cleaned[1].get_pixel(22, 170).0[0], 35);
    }
}
