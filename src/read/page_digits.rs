//! Reads a number-jump maze's digits by the company they keep: every digit of one maze is
//! printed in the same face and size and photographed with the same blur, so a digit looks
//! most like the other copies of itself on the page. Under heavy defocus the classifier
//! misreads many glyphs one by one (a blurred 2 as 3, a 1 as 8), while the copies of a digit
//! still look alike; each glyph's reading is combined with those of the glyphs that look most
//! like it in the photo's own grey levels (not the binarised glyph, which blur reduces to a
//! blob).
//!
//! Used for jump mazes only, whose solver cannot catch a misread (any way out solves them);
//! Sudoku and Nurikabe readings are checked by their solvers instead. It does not find glyphs
//! or read them alone (`glyphs`, `classifier`), and leaves the start cell (its ring changes how
//! it looks) to `jump`.

use image::GrayImage;

use super::classifier::DigitClassifier;
use super::glyphs::{self, Bounds, CellContent};
use super::{source_cell, turned, CellRead, CellValue, GridRead, Levels, ALTERNATIVES};

/// How many of the most alike glyphs inform each glyph's reading.
const NEIGHBOURS: usize = 8;
/// The share of the page's typical glyph height a glyph may differ by and still be taken for
/// one of its digits: the digits of one maze are one height, while a rule's or a box line's
/// sliver, or two digits run together, are not.
const HEIGHTS: std::ops::RangeInclusive<f32> = 0.75..=1.3;
/// A glyph cut into parts (blur breaking a thin stroke) is still one digit when all its parts
/// together are no wider than this many times the page's typical digit; a real two-digit
/// number is about twice as wide.
const SPLIT_WIDTH: f32 = 1.4;
/// The share of the page's typical glyph height one glyph among several must be within to be
/// taken for the cell's digit, the others not (see [`digit_glyphs`]).
const DIGIT_HEIGHTS: std::ops::RangeInclusive<f32> = 0.85..=1.15;
/// A line piece (see [`is_line_piece`]) is taller than this share of the page's digits,
/// thinner than this share of their width, and further from the crop's middle than this share
/// of the crop. Measured on 56 hard photos of mazes: of 14 lone glyphs that tall and thin, 12
/// were lines in cells outside the maze and 2 digits in lattices misplaced by a whole column.
const LINE_HEIGHT: f32 = 1.15;
const LINE_WIDTH: f32 = 0.6;
const LINE_OFFSET: f32 = 0.2;
/// How sure a line piece's cell is read blank.
const LINE_CONFIDENCE: f32 = 0.9;
/// Side of the window compared, as a share of the typical glyph height, and its samples a side.
const WINDOW: f32 = 1.3;
const SAMPLES: usize = 20;
/// Probabilities are floored here before taking logs, so that one glyph ruling a digit all but
/// out cannot veto it against the rest of the page.
const FLOOR: f32 = 1e-3;
/// A glyph's company may move its reading only to a digit its own reading gives at least this
/// probability. Under heavy blur a digit printed only a few times on the page (a 5 or a 7 among
/// a maze of 1s, 2s and 3s) looks about as much like the common digits as their copies look
/// like each other, and its eight look-alikes outvoted a reading of 1.00. On 30 hard photos of
/// five mazes given three such digits each, keeping readings that sure took read exactly from
/// 33.3 to 63.3% and solved from 76.7 to 90%; the 96 hard dev mazes went from 86.5 to 87.5%
/// (0.05 measured the same; 0.2 lost two dev mazes).
const RULED_OUT: f32 = 0.01;

/// One glyph taking part: the cell it is in, what it looks like, the classifier's reading of
/// it, and whether it may inform other glyphs (a digit cut into parts only listens).
struct Sample {
    index: usize,
    look: Vec<f32>,
    probabilities: [f32; 10],
    informs: bool,
}

/// `read` (of `crops`, the cells as cut for reading, in the lattice's orientation) with each
/// single-digit number re-read from its own glyph and the glyphs most like it on the page.
/// Cells whose glyphs are not digit-sized, and the centre (start) cell, keep their reading.
pub fn read_by_company(
    crops: &[Vec<GrayImage>],
    read: &GridRead,
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let found = glyphs_of_numbers(crops, read, levels);
    let single = |glyphs: &[glyphs::NormalisedGlyph]| glyphs.len() == 1;
    let typical = |measure: fn(&Bounds) -> u32| {
        let mut sizes: Vec<u32> = found
            .iter()
            .filter(|(_, _, _, g)| single(g))
            .map(|(_, _, _, g)| measure(&g[0].bounds))
            .collect();
        sizes.sort_unstable();
        sizes.get(sizes.len() / 2).map_or(0.0, |&s| s as f32)
    };
    let height = typical(|b| b.y1 - b.y0);
    let width = typical(|b| b.x1 - b.x0);
    if height < 1.0 || width < 1.0 {
        return read.clone();
    }
    let samples: Vec<Sample> = found
        .iter()
        .filter_map(|(index, crop, darkness, glyphs)| {
            let digit = digit_glyphs(glyphs, height, width)?;
            let whole = union(digit);
            let largest = digit
                .iter()
                .max_by_key(|g| (g.bounds.x1 - g.bounds.x0) * (g.bounds.y1 - g.bounds.y0))?;
            Some(Sample {
                index: *index,
                look: look(darkness, crop.width() as usize, &whole, height),
                probabilities: classifier.classify(largest).probabilities,
                informs: single(glyphs),
            })
        })
        .collect();
    let mut reread = read.clone();
    for (sample, reading) in samples.iter().zip(combined(&samples)) {
        reread.cells[sample.index] = reading_of(&read.cells[sample.index], reading);
    }
    for (index, crop, _, glyphs) in &found {
        if let [glyph] = glyphs.as_slice() {
            if is_line_piece(&glyph.bounds, crop.width(), height, width) {
                reread.cells[*index] = blank_line_piece(&read.cells[*index]);
            }
        }
    }
    reread
}

/// The glyphs of a cell that make its digit: all of them when together they stand one
/// digit's height ([`HEIGHTS`]) and, when in parts, are no wider than [`SPLIT_WIDTH`] digits
/// (blur breaking a stroke); otherwise the one glyph of a digit's height ([`DIGIT_HEIGHTS`])
/// among glyphs that are not, which are pieces of a box's edge or a page rule that a lattice
/// a fraction of a cell off (a curled page) lets into the crop, read as an extra "1" or "7"
/// beside the digit. `None` when neither: several glyphs of a digit's height are a real
/// number of several digits, left as the classifier read it.
fn digit_glyphs(
    glyphs: &[glyphs::NormalisedGlyph],
    height: f32,
    width: f32,
) -> Option<&[glyphs::NormalisedGlyph]> {
    let whole = union(glyphs);
    let tall = (whole.y1 - whole.y0) as f32 / height;
    let wide = (whole.x1 - whole.x0) as f32 / width;
    if HEIGHTS.contains(&tall) && (glyphs.len() == 1 || wide <= SPLIT_WIDTH) {
        return Some(glyphs);
    }
    let digit_height = |g: &glyphs::NormalisedGlyph| {
        DIGIT_HEIGHTS.contains(&((g.bounds.y1 - g.bounds.y0) as f32 / height))
    };
    let mut digits = glyphs.iter().enumerate().filter(|(_, g)| digit_height(g));
    match (digits.next(), digits.next()) {
        (Some((i, _)), None) if glyphs.len() > 1 => Some(std::slice::from_ref(&glyphs[i])),
        _ => None,
    }
}

/// Whether a cell's lone glyph (its `bounds` in a crop `crop_width` wide) is a piece of a
/// vertical line rather than a digit: taller than the page's digits (`height`) by more than
/// [`LINE_HEIGHT`], thinner than [`LINE_WIDTH`] of their `width`, and standing off the cell's
/// middle by more than [`LINE_OFFSET`] of the crop, where no digit of a maze is printed. It is
/// the edge of a neighbour's box or a page rule, let into the crop of a cell outside the maze
/// when the lattice is a fraction of a cell off, and reads as a "1".
fn is_line_piece(bounds: &Bounds, crop_width: u32, height: f32, width: f32) -> bool {
    let tall = (bounds.y1 - bounds.y0) as f32 / height;
    let wide = (bounds.x1 - bounds.x0) as f32 / width;
    let centre = (bounds.x0 + bounds.x1) as f32 / 2.0;
    let offset = (centre - crop_width as f32 / 2.0).abs() / crop_width as f32;
    tall > LINE_HEIGHT && wide < LINE_WIDTH && offset > LINE_OFFSET
}

/// `cell`, whose lone glyph is a line piece, read blank; its number stays as the alternative.
fn blank_line_piece(cell: &CellRead) -> CellRead {
    let mut alternatives = vec![(cell.value, 1.0 - LINE_CONFIDENCE)];
    alternatives.extend(cell.alternatives.iter().copied());
    CellRead {
        value: CellValue::Blank,
        confidence: LINE_CONFIDENCE,
        alternatives,
        ..cell.clone()
    }
}

/// For every number cell but the centre: its index in `read`, its crop turned upright, that
/// crop's flattened darkness, and its glyphs.
fn glyphs_of_numbers(
    crops: &[Vec<GrayImage>],
    read: &GridRead,
    levels: Levels,
) -> Vec<(usize, GrayImage, Vec<f32>, Vec<glyphs::NormalisedGlyph>)> {
    let (source_rows, source_columns) = (crops.len(), crops.first().map_or(0, Vec::len));
    let centre = (read.rows / 2) * read.columns + read.columns / 2;
    read.cells
        .iter()
        .enumerate()
        .filter(|&(index, cell)| index != centre && matches!(cell.value, CellValue::Number(_)))
        .filter_map(|(index, _)| {
            let (row, column) = (index / read.columns, index % read.columns);
            let (r, c) = source_cell(row, column, read.quarter_turns, source_rows, source_columns);
            let source = crops.get(r)?.get(c)?;
            let crop = turned(source, read.quarter_turns);
            let darkness = glyphs::flattened(&crop);
            match glyphs::read_flattened(&crop, &darkness, levels.paper, levels.ink) {
                CellContent::Glyphs(found) if !found.is_empty() => {
                    Some((index, crop, darkness, found))
                }
                _ => None,
            }
        })
        .collect()
}

/// The box around all of `glyphs` (not empty).
fn union(glyphs: &[glyphs::NormalisedGlyph]) -> Bounds {
    glyphs.iter().skip(1).fold(glyphs[0].bounds, |a, g| Bounds {
        x0: a.x0.min(g.bounds.x0),
        y0: a.y0.min(g.bounds.y0),
        x1: a.x1.max(g.bounds.x1),
        y1: a.y1.max(g.bounds.y1),
    })
}

/// What a glyph looks like: the crop's flattened darkness (`w` pixels wide) in a square of
/// [`WINDOW`] times the page's glyph `height` around the glyph's box, sampled on a
/// [`SAMPLES`]-square grid, less its mean and scaled to unit length, so that glyphs compare
/// by shape whatever their contrast.
pub(super) fn look(darkness: &[f32], w: usize, bounds: &Bounds, height: f32) -> Vec<f32> {
    let h = darkness.len() / w.max(1);
    let at = |x: i64, y: i64| {
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            0.0
        } else {
            darkness[y as usize * w + x as usize]
        }
    };
    let centre = (
        (bounds.x0 + bounds.x1) as f32 / 2.0,
        (bounds.y0 + bounds.y1) as f32 / 2.0,
    );
    let side = WINDOW * height;
    let step = side / SAMPLES as f32;
    let mut values: Vec<f32> = (0..SAMPLES * SAMPLES)
        .map(|i| {
            let x = centre.0 - side / 2.0 + ((i % SAMPLES) as f32 + 0.5) * step - 0.5;
            let y = centre.1 - side / 2.0 + ((i / SAMPLES) as f32 + 0.5) * step - 0.5;
            let (x0, y0) = (x.floor(), y.floor());
            let (fx, fy) = (x - x0, y - y0);
            let (x0, y0) = (x0 as i64, y0 as i64);
            at(x0, y0) * (1.0 - fx) * (1.0 - fy)
                + at(x0 + 1, y0) * fx * (1.0 - fy)
                + at(x0, y0 + 1) * (1.0 - fx) * fy
                + at(x0 + 1, y0 + 1) * fx * fy
        })
        .collect();
    let mean = values.iter().sum::<f32>() / values.len() as f32;
    values.iter_mut().for_each(|v| *v -= mean);
    let length = values.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-6);
    values.iter_mut().for_each(|v| *v /= length);
    values
}

/// Running sums [`distance`] keeps side by side.
const LANES: usize = 8;

/// The distance between two looks (see [`look`]). Summed in [`LANES`] running sums, which the
/// compiler keeps in one vector register: one running sum fixes the order of every addition
/// and stays scalar, and a photo's clues ask for hundreds of thousands of distances (each
/// glyph against every other, at several splits).
pub(super) fn distance(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; LANES];
    let (a_lanes, b_lanes) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_lanes
        .remainder()
        .iter()
        .zip(b_lanes.remainder())
        .map(|(x, y)| (x - y) * (x - y))
        .sum();
    for (x, y) in a_lanes.zip(b_lanes) {
        for lane in 0..LANES {
            let d = x[lane] - y[lane];
            sums[lane] += d * d;
        }
    }
    (sums.iter().sum::<f32>() + tail).sqrt()
}

/// Keeps the `count` nearest of `near` (each an index and its distance), nearest first: a
/// selection, then a sort of those few, rather than a sort of all a photo's glyphs. Equal
/// distances go in index order, as a stable sort of `near` in index order would leave them.
pub(super) fn nearest_first(near: &mut Vec<(usize, f32)>, count: usize) {
    let order = |a: &(usize, f32), b: &(usize, f32)| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0));
    if near.len() > count && count > 0 {
        near.select_nth_unstable_by(count - 1, order);
    }
    near.truncate(count);
    near.sort_by(order);
}

/// A glyph's combined reading: each digit's probability, and its support (the classifier's
/// probability of it averaged over the glyph and its weighted neighbours).
struct Combined {
    probabilities: [f32; 10],
    support: [f32; 10],
}

/// Each sample's reading combined with its [`NEIGHBOURS`] most alike informing samples. A
/// neighbour's weight falls off with its distance in units of the page's typical distance
/// between a glyph and its nearest look-alike (copies of one digit lie about that far apart;
/// another digit, further): the log-probabilities add up with those weights. A glyph the
/// company would move to a digit its own reading rules out ([`RULED_OUT`]) keeps that reading.
fn combined(samples: &[Sample]) -> Vec<Combined> {
    let neighbours: Vec<Vec<(usize, f32)>> = samples
        .iter()
        .enumerate()
        .map(|(i, sample)| {
            let mut near: Vec<(usize, f32)> = samples
                .iter()
                .enumerate()
                .filter(|&(j, other)| j != i && other.informs)
                .map(|(j, other)| (j, distance(&sample.look, &other.look)))
                .collect();
            nearest_first(&mut near, NEIGHBOURS);
            near
        })
        .collect();
    let mut nearest: Vec<f32> = neighbours
        .iter()
        .filter_map(|near| near.first().map(|n| n.1))
        .collect();
    nearest.sort_by(f32::total_cmp);
    let Some(&typical) = nearest.get(nearest.len() / 2) else {
        return samples.iter().map(alone).collect();
    };
    let typical = typical.max(1e-3);
    samples
        .iter()
        .zip(&neighbours)
        .map(|(sample, near)| {
            let mut logs: [f32; 10] = sample.probabilities.map(|p| p.max(FLOOR).ln());
            let mut support = sample.probabilities;
            let mut weights = 1.0;
            for &(j, d) in near {
                let weight = (-0.5 * (d / typical).powi(2)).exp();
                weights += weight;
                for digit in 0..10 {
                    let p = samples[j].probabilities[digit];
                    logs[digit] += weight * p.max(FLOOR).ln();
                    support[digit] += weight * p;
                }
            }
            let top = logs.iter().copied().fold(f32::MIN, f32::max);
            let mut probabilities = logs.map(|l| (l - top).exp());
            let total: f32 = probabilities.iter().sum();
            probabilities.iter_mut().for_each(|p| *p /= total);
            let likeliest = (1..10)
                .max_by(|&a, &b| probabilities[a].total_cmp(&probabilities[b]))
                .unwrap_or(1);
            if sample.probabilities[likeliest] < RULED_OUT {
                return alone(sample);
            }
            Combined {
                probabilities,
                support: support.map(|s| s / weights),
            }
        })
        .collect()
}

/// A sample's reading with no company.
fn alone(sample: &Sample) -> Combined {
    Combined {
        probabilities: sample.probabilities,
        support: sample.probabilities,
    }
}

/// The reading of `cell` from its combined reading: the likeliest digit 1-9 (a jump is never
/// 0), trusted no more than its support allows. Where the glyph and its look-alikes disagree,
/// the page holds a digit the classifier cannot tell apart under this blur: the combined
/// probability alone would turn such a cluster's majority misreading into certainty, while a
/// support of 3/4 or more was right in all but a few of thousands of measured glyphs and one
/// under 2/3 about as often wrong as right.
fn reading_of(cell: &CellRead, combined: Combined) -> CellRead {
    let mut ranked: Vec<(u32, f32)> = (1..10u32)
        .map(|d| (d, combined.probabilities[d as usize]))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    let (digit, probability) = ranked[0];
    let trusted = (2.0 * combined.support[digit as usize] - 0.5).clamp(0.0, 1.0);
    let mut alternatives: Vec<(CellValue, f32)> = ranked[1..ALTERNATIVES]
        .iter()
        .map(|&(d, p)| (CellValue::Number(d), p))
        .collect();
    alternatives.push((CellValue::Blank, 0.0));
    CellRead {
        value: CellValue::Number(digit),
        confidence: probability.min(trusted),
        alternatives,
        ..cell.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_in_lanes_is_the_euclidean_distance_at_any_length() {
        for length in [0, 5, 8, 16, 400, 403] {
            let a: Vec<f32> = (0..length).map(|i| (i as f32 * 0.37).sin()).collect();
            let b: Vec<f32> = (0..length).map(|i| (i as f32 * 0.11).cos()).collect();
            let plain: f32 = a.iter().zip(&b).map(|(x, y)| (x - y) * (x - y)).sum();
            assert!((distance(&a, &b) - plain.sqrt()).abs() <= 1e-4 * plain.sqrt().max(1.0));
            assert_eq!(distance(&a, &a), 0.0);
        }
    }

    #[test]
    fn the_nearest_are_kept_as_a_stable_sort_would_keep_them() {
        let distances = [0.5, 0.2, 0.9, 0.2, 0.1, 0.5, 0.5, 0.3, 0.2];
        let all: Vec<(usize, f32)> = distances.iter().copied().enumerate().collect();
        for count in 0..=distances.len() + 1 {
            let mut sorted = all.clone();
            sorted.sort_by(|a, b| a.1.total_cmp(&b.1));
            sorted.truncate(count);
            let mut kept = all.clone();
            nearest_first(&mut kept, count);
            assert_eq!(kept, sorted, "{count} kept");
        }
    }

    /// A sample whose look is `base` nudged by `jitter` in a place of its own (so that copies
    /// lie apart as a page's do; unit length after), read by the classifier as `digit` with
    /// probability `p`, the rest spread evenly.
    fn sample(index: usize, base: usize, jitter: f32, digit: usize, p: f32) -> Sample {
        let mut look = vec![0.0; 16];
        look[base] = 1.0;
        look[(base + 1 + index) % 16] = jitter;
        let length = look.iter().map(|v: &f32| v * v).sum::<f32>().sqrt();
        look.iter_mut().for_each(|v| *v /= length);
        let mut probabilities = [(1.0 - p) / 9.0; 10];
        probabilities[digit] = p;
        Sample {
            index,
            look,
            probabilities,
            informs: true,
        }
    }

    fn cell(value: CellValue, confidence: f32) -> CellRead {
        CellRead {
            row: 0,
            column: 0,
            value,
            confidence,
            alternatives: Vec::new(),
        }
    }

    /// A glyph whose box spans `x0..x1` across and `y0..y1` down a 64-pixel crop.
    fn glyph(x0: u32, x1: u32, y0: u32, y1: u32) -> glyphs::NormalisedGlyph {
        glyphs::NormalisedGlyph {
            pixels: Vec::new(),
            bounds: Bounds { x0, y0, x1, y1 },
        }
    }

    #[test]
    fn a_digit_beside_a_piece_of_box_edge_is_read_alone() {
        // The page's digits are 36 pixels tall and 24 wide. A generated hard photo read the 3
        // of a maze's edge cell as "13": the neighbouring box's edge, taller than any digit,
        // stood beside it.
        let (height, width) = (36.0, 24.0);
        let glyphs = [glyph(10, 18, 9, 56), glyph(38, 62, 16, 53)];
        let digit = digit_glyphs(&glyphs, height, width).expect("one digit-height glyph");
        assert_eq!(digit.len(), 1);
        assert_eq!(digit[0].bounds, glyphs[1].bounds);
        // Two glyphs of a digit's height are a number of two digits, left as read.
        let number = [glyph(6, 30, 14, 50), glyph(34, 58, 14, 50)];
        assert!(digit_glyphs(&number, height, width).is_none());
        // A digit broken in two by blur is one digit still.
        let broken = [glyph(20, 30, 14, 50), glyph(31, 44, 14, 50)];
        assert_eq!(
            digit_glyphs(&broken, height, width).map(<[_]>::len),
            Some(2)
        );
    }

    #[test]
    fn a_tall_thin_stroke_beside_the_middle_is_a_line_not_a_one() {
        let (height, width) = (36.0, 24.0);
        let line = |left, right, top, bottom| {
            is_line_piece(&glyph(left, right, top, bottom).bounds, 64, height, width)
        };
        // A box's edge in a cell outside the maze: taller than the digits, off to one side.
        assert!(line(44, 53, 9, 55));
        // A printed 1: thin, but of the digits' height and in the middle.
        assert!(!line(27, 37, 14, 50));
        // A tall stroke in the middle is not taken for a line, nor a wide glyph off it.
        assert!(!line(28, 36, 9, 55));
        assert!(!line(36, 60, 9, 55));
        let cell = blank_line_piece(&cell(CellValue::Number(1), 0.9));
        assert_eq!(cell.value, CellValue::Blank);
        assert_eq!(cell.alternatives[0].0, CellValue::Number(1));
    }

    /// The reading of a ninth glyph, read by the classifier as `digit` at `p` and looking like
    /// `base`, among eight copies of `common` read at 0.95 that look like base 0.
    fn odd_one_among(common: usize, base: usize, digit: usize, p: f32) -> CellRead {
        let mut samples: Vec<Sample> = (0..8).map(|i| sample(i, 0, 0.2, common, 0.95)).collect();
        samples.push(sample(8, base, 0.2, digit, p));
        let odd = combined(&samples).pop().unwrap();
        reading_of(&cell(CellValue::Number(digit as u32), p), odd)
    }

    #[test]
    fn a_misread_glyph_among_copies_of_its_digit_reads_as_they_do() {
        let misread = odd_one_among(2, 0, 3, 0.9);
        assert_eq!(misread.value, CellValue::Number(2));
        assert!(misread.confidence > 0.9, "{}", misread.confidence);
    }

    #[test]
    fn a_digit_unlike_the_others_keeps_its_own_reading() {
        let lone = odd_one_among(1, 8, 7, 0.9);
        assert_eq!(lone.value, CellValue::Number(7));
        assert!(lone.confidence > 0.85, "{}", lone.confidence);
    }

    #[test]
    fn a_rare_digit_read_surely_is_not_outvoted_by_look_alikes() {
        // Blur makes a lone 5 look as much like the page's 3s as they look like each other;
        // the classifier, reading it at 0.998, all but rules the 3 out.
        let rare = odd_one_among(3, 0, 5, 0.998);
        assert_eq!(rare.value, CellValue::Number(5));
    }

    #[test]
    fn copies_the_classifier_reads_every_which_way_stay_unsure() {
        // A blurred digit the classifier cannot place: its copies read 8, 3 or 5, none surely.
        let samples: Vec<Sample> = (0..9)
            .map(|i| sample(i, 0, 0.2, [8, 3, 8, 5, 8][i % 5], 0.5))
            .collect();
        for (reading, s) in combined(&samples).into_iter().zip(&samples) {
            let digit = s.probabilities.iter().position(|&p| p == 0.5).unwrap();
            let read = reading_of(&cell(CellValue::Number(digit as u32), 0.5), reading);
            assert!(read.confidence < 0.6, "{read:?}");
        }
    }
}
