//! Reads a nonogram's clue numbers printed as text beside its grid: each row's numbers in the
//! band to its left, each column's stacked in the band above it (see `detect::strips`).
//!
//! In a band, ink blobs are found as in cells (on the band smoothed when the photo is grainy),
//! joined into digits (a broken stroke is one digit), and digits into numbers: side by side
//! and closer than the photo's gap between numbers in a row band, on one text line in a column
//! band. Numbers are taken from the grid outward and the band ends at the
//! first wide gap, so a title or other print further out is not read as clues. Each number is
//! then read like a cell holding it, with its confidence and ranked alternatives. A number
//! printed on a page rule, wiped with it, is looked for in the gap it left (`lost_numbers`).
//!
//! Clues printed in their own boxed cells are lattice cells, read with the grid; [`boxed_clues`]
//! only sorts them into rows and columns, and [`boxed_turns`] tells how to turn a lattice whose
//! boxes lie below or right of its grid. It does not decide whether a photo is a nonogram.

use image::{GrayImage, Luma};

use super::lost_numbers::{self, Lost};
use super::{ink_level, paper_level, rules, splits, CellRead, CellValue, GridRead, Levels};
use crate::detect::strips::{strip, Side};
use crate::detect::Lattice;
use crate::read::classifier::DigitClassifier;
use crate::read::glyphs::{self, Bounds, NormalisedGlyph};

/// One clue number as read.
#[derive(Debug, Clone, PartialEq)]
pub struct ClueRead {
    pub value: u32,
    pub confidence: f32,
    /// Other readings, most likely first.
    pub alternatives: Vec<(u32, f32)>,
}

/// The clues read beside a grid: per row (top first) and per column (left first), each list in
/// reading order (left to right, top to bottom).
#[derive(Debug, Clone, PartialEq)]
pub struct CluesRead {
    pub rows: Vec<Vec<ClueRead>>,
    pub columns: Vec<Vec<ClueRead>>,
}

impl CluesRead {
    /// How many numbers were read in all.
    pub fn count(&self) -> usize {
        self.rows.iter().chain(&self.columns).map(Vec::len).sum()
    }

    /// These clues with every number longer than its line (a row's clue over the number of
    /// columns, a column's over the number of rows) read as its likeliest alternative that
    /// fits, the reading it replaces kept as an alternative: a clue box's line or a wide digit
    /// cut in two adds a digit (a 15 read 125), and the true value is often the next reading.
    /// A number of three digits or more led by a 1 whose other digits fit may be those digits,
    /// as likely as it was read, and such an alternative is those digits (see
    /// [`without_leading_one`]). A number with no alternative that fits stays, for the totals
    /// to refuse.
    pub fn within_lines(mut self) -> CluesRead {
        let (row_length, column_length) = (self.columns.len() as u32, self.rows.len() as u32);
        let fit = |numbers: &mut Vec<ClueRead>, length: u32| {
            let rest = |value: u32| without_leading_one(value).filter(|&rest| rest <= length);
            for number in numbers.iter_mut() {
                let mut alternatives: Vec<(u32, f32)> = Vec::new();
                let own_rest = (number.value > length)
                    .then(|| rest(number.value).map(|value| (value, number.confidence)))
                    .flatten();
                for &(value, p) in number.alternatives.iter().chain(&own_rest) {
                    let value = if value > length {
                        rest(value).unwrap_or(value)
                    } else {
                        value
                    };
                    if value == number.value {
                        continue;
                    }
                    match alternatives.iter_mut().find(|a| a.0 == value) {
                        Some(known) => known.1 = known.1.max(p),
                        None => alternatives.push((value, p)),
                    }
                }
                alternatives.sort_by(|a, b| b.1.total_cmp(&a.1));
                number.alternatives = alternatives;
            }
            for number in numbers.iter_mut().filter(|n| n.value > length) {
                let Some(at) = number.alternatives.iter().position(|a| a.0 <= length) else {
                    continue;
                };
                let (value, confidence) = number.alternatives.remove(at);
                number.alternatives.push((number.value, number.confidence));
                number.alternatives.sort_by(|a, b| b.1.total_cmp(&a.1));
                number.value = value;
                number.confidence = confidence;
            }
        };
        for numbers in &mut self.rows {
            fit(numbers, row_length);
        }
        for numbers in &mut self.columns {
            fit(numbers, column_length);
        }
        self
    }

    /// The mean confidence of the numbers read, 0 when none were.
    pub fn sureness(&self) -> f32 {
        let sum: f32 = self
            .rows
            .iter()
            .chain(&self.columns)
            .flatten()
            .map(|n| n.confidence)
            .sum();
        sum / self.count().max(1) as f32
    }
}

/// `value`'s digits after a leading 1, when it has three or more digits and those after the 1
/// make a number (no leading 0): a magazine's boxed 16 read 116, the neighbouring box's line
/// in its wider crop taken for a 1. Two-digit readings are left to their alternatives: a 10
/// read 15 is as likely there as a 5 beside a line.
fn without_leading_one(value: u32) -> Option<u32> {
    let digits = value.to_string();
    let rest = digits.strip_prefix('1')?;
    (digits.len() >= 3 && !rest.starts_with('0')).then(|| rest.parse().ok())?
}

/// The clues of a nonogram printed in boxed cells of the lattice itself: `rows_above` rows of
/// column clues over the grid and `columns_left` columns of row clues beside it, a block in
/// the corner without clues (blank or holding a picture). Recognised from where the numbers
/// are: the band's line next to the grid holds a number (or a 0) in most columns (rows) of the
/// grid's far half and the grid's first line next to it hardly any, and the grid is nearly
/// empty. A few numbers there are tolerated: on a photo, remnants of the grid's lines read as
/// 1s. The corner block is left alone: a magazine prints its logo or a picture there, and that
/// reads as anything. `None` when the numbers do not fall that way. Works on a grid read
/// upright.
pub fn boxed_clues(grid: &GridRead) -> Option<(CluesRead, usize, usize)> {
    let number = |r: usize, c: usize| match grid.get(r, c).value {
        CellValue::Number(n) if n >= 1 => Some(n),
        _ => None,
    };
    // A box read 0 holds print all the same: a 0 is printed only alone, and by the grid two
    // blurred 1s of an 11 run together into one (two of a band's seven boxes so kept a band
    // of 3s and 2s under its share of numbers).
    let printed = |r: usize, c: usize| matches!(grid.get(r, c).value, CellValue::Number(_));
    let (rows, columns) = (grid.rows, grid.columns);
    let share_where = |cells: &mut dyn Iterator<Item = (usize, usize)>,
                       counted: &dyn Fn(usize, usize) -> bool| {
        let (mut numbers, mut all) = (0usize, 0usize);
        for (r, c) in cells {
            numbers += usize::from(counted(r, c));
            all += 1;
        }
        numbers as f32 / all.max(1) as f32
    };
    let numbered = |r: usize, c: usize| number(r, c).is_some();
    let share = |cells: &mut dyn Iterator<Item = (usize, usize)>| share_where(cells, &numbered);
    // The band's width: where the share of numbers along lines, seen across the grid's far
    // half, drops the most from the band's last line (its boxes read 0 counted) to the grid's
    // first.
    let band = |lines: usize, across: usize, at: &dyn Fn(usize, usize) -> (usize, usize)| {
        let line_share = |line: usize, counted: &dyn Fn(usize, usize) -> bool| {
            share_where(&mut (across / 2..across).map(|k| at(line, k)), counted)
        };
        // A line of n cells holds at most ceil(n / 2) numbers, so no band is printed wider:
        // a Sudoku's digits fell so that its top four rows and left four columns passed for
        // the clues of a 5x5 grid.
        (1..lines.div_ceil(2))
            .filter(|&width| width <= (lines - width).div_ceil(2))
            .map(|width| {
                let band_line = line_share(width - 1, &printed);
                let grid_line = line_share(width, &numbered);
                (width, band_line, grid_line)
            })
            .filter(|&(_, band_line, grid_line)| {
                band_line >= BOXED_BAND_LINE && grid_line <= BOXED_STRAY
            })
            .max_by(|a, b| (a.1 - a.2).total_cmp(&(b.1 - b.2)))
            .map(|(width, _, _)| width)
    };
    let rows_above = band(rows, columns, &|line, k| (line, k))?;
    let columns_left = band(columns, rows, &|line, k| (k, line))?;
    let in_grid =
        share(&mut (rows_above..rows).flat_map(|r| (columns_left..columns).map(move |c| (r, c))));
    if in_grid > BOXED_STRAY {
        return None;
    }
    // A cell's alternatives come one glyph's readings first, then two glyphs': a blurred 11
    // read as one 0 lists 11 at 0.49 after 9 at 0.16.
    let others = |r: usize, c: usize| {
        let mut others = grid.get(r, c).alternatives.clone();
        others.sort_by(|a, b| b.1.total_cmp(&a.1));
        others
    };
    let clue = |r: usize, c: usize| -> Option<ClueRead> {
        let cell = grid.get(r, c);
        let others = others(r, c).into_iter();
        match number(r, c) {
            Some(_) => {
                clue_of_readings(std::iter::once((cell.value, cell.confidence)).chain(others))
            }
            None => clue_of_readings(others).filter(|lost| lost.confidence >= LOST_BOX_LEAST),
        }
    };
    let lone_zero_read = |cells: &[(usize, usize)]| -> Vec<ClueRead> {
        let Some(&(r, c)) = cells.last() else {
            return Vec::new();
        };
        let box_next_to_grid = grid.get(r, c);
        let unsure_zero = box_next_to_grid.value == CellValue::Number(0)
            && box_next_to_grid.confidence < UNSURE_LONE_ZERO;
        clue(r, c).filter(|_| unsure_zero).into_iter().collect()
    };
    // A line's boxes from its outermost number in to the grid all hold numbers: one read blank
    // or 0 there is read as its likeliest number (see `LOST_BOX_LEAST`). So is an unsure 0 in
    // the box next to the grid of a line with no number read (see `UNSURE_LONE_ZERO`).
    let line = |cells: &mut dyn Iterator<Item = (usize, usize)>| -> Vec<ClueRead> {
        let cells: Vec<(usize, usize)> = cells.collect();
        let Some(outermost) = cells.iter().position(|&(r, c)| number(r, c).is_some()) else {
            return lone_zero_read(&cells);
        };
        // A 0 is printed only alone, for an empty line: boxes read 0 just beyond a line's
        // outermost number hold a number the blur filled in (a bold 8 read 0 at 1.00), its
        // value unknown, the likeliest other reading taken however unsure. Not by the
        // lattice's outer frame, whose remnants read as anything.
        let zeros = cells[..outermost]
            .iter()
            .rev()
            .take_while(|&&(r, c)| grid.get(r, c).value == CellValue::Number(0) && r > 0 && c > 0)
            .count();
        cells[outermost - zeros..outermost]
            .iter()
            .filter_map(|&(r, c)| clue_of_readings(others(r, c)))
            .chain(cells[outermost..].iter().filter_map(|&(r, c)| clue(r, c)))
            .collect()
    };
    let clues = CluesRead {
        rows: (rows_above..rows)
            .map(|r| line(&mut (0..columns_left).map(|c| (r, c))))
            .collect(),
        columns: (columns_left..columns)
            .map(|c| line(&mut (0..rows_above).map(|r| (r, c))))
            .collect(),
    };
    Some((clues, rows_above, columns_left))
}

/// The clockwise quarter turns (1-3) of the lattice under `grid` (read upright) that put a
/// boxed nonogram's clue boxes above and left of its grid, judged by where the numbers are as
/// [`boxed_clues`] judges them; `None` when no turn does. A boxed page photographed sideways
/// or upside down has its clue bands below or right of the grid as the lattice runs, and is
/// read only once its lattice is turned: its digits must be read upright.
pub fn boxed_turns(grid: &GridRead) -> Option<u8> {
    (1..4u8).find(|&turns| {
        let (rows, columns) = if turns % 2 == 0 {
            (grid.rows, grid.columns)
        } else {
            (grid.columns, grid.rows)
        };
        let cells = (0..rows)
            .flat_map(|row| (0..columns).map(move |column| (row, column)))
            .map(|(row, column)| {
                let (r, c) = super::source_cell(row, column, turns, grid.rows, grid.columns);
                CellRead {
                    row,
                    column,
                    ..grid.get(r, c).clone()
                }
            })
            .collect();
        boxed_clues(&GridRead::new(rows, columns, cells, turns)).is_some()
    })
}

/// How likely a number must be among the other readings of a box read blank or 0 between a
/// boxed line's outermost number and the grid for it to be read there. Numbers are printed in
/// the boxes next to the grid, so such a box lost its number: a 1 by the frame wiped with it
/// in the wider crop (0.98-0.99 as an alternative), a blurred 8 read as 0 (8 at 0.59), a 10
/// wiped but for its 0 (10 at 0.22), on generated boxed photos.
const LOST_BOX_LEAST: f32 = 0.1;

/// How sure a 0 read in the box next to the grid of a line with no other number must be to be
/// taken as printed (an empty line's 0) rather than a number lost to blur: two blurred 1s of an
/// 11 run together read as one 0 at 0.54-0.69 (11 at 0.49), on a generated boxed photo.
const UNSURE_LONE_ZERO: f32 = 0.9;

/// The least share of a boxed clue band's line next to the grid holding numbers (or 0s).
const BOXED_BAND_LINE: f32 = 0.6;
/// The most share of cells in a boxed nonogram's grid (or its first line) read as numbers: line
/// remnants on a photo.
const BOXED_STRAY: f32 = 0.2;

/// How far past its box a boxed clue number is cropped, in cells on each side. Magazine clue
/// digits nearly fill their boxes: in a crop of the box alone they run into the border strip,
/// where the glyph finder wipes line remnants, and a 2 losing its foot reads as 9. With the
/// box's lines inside the crop they are wiped as lines and the digit stays whole.
const BOXED_MARGIN: f32 = 0.15;
/// How far a boxed clue by the lattice's outer edge is cropped past it: into the heavy frame
/// only, so that a number printed low against the frame keeps its 2's foot (in the box alone
/// it is wiped with the frame and the 2 reads as 9) while the frame's far side and the print
/// beyond stay out (over a whole [`BOXED_MARGIN`] they read as numbers). Both magazine photos
/// with boxed clues read alike from 0.03 to 0.11.
const BOXED_OUTER_MARGIN: f32 = 0.08;

/// How sure a number must read in a clue box the grid's reading left blank.
const BLANK_REREAD_SURENESS: f32 = 0.9;

/// `grid` with every number in a boxed nonogram's clue cells (the `top` rows and `left`
/// columns of `lattice`, read upright) read again from a crop reaching past its box, and every
/// box read blank but those by the lattice's outer frame too (kept blank unless a number reads
/// [`BLANK_REREAD_SURENESS`] there); a 1 read unsurely whose wider crop reads blank that surely
/// becomes blank.
pub fn reread_boxed(
    image: &GrayImage,
    lattice: &Lattice,
    grid: &GridRead,
    (top, left): (usize, usize),
    classifier: &DigitClassifier,
) -> GridRead {
    let in_clues = |r: usize, c: usize| (r < top) != (c < left);
    let numbered: Vec<(usize, usize)> = grid
        .cells
        .iter()
        .filter(|cell| matches!(cell.value, CellValue::Number(_)))
        .map(|cell| (cell.row, cell.column))
        .filter(|&(r, c)| in_clues(r, c))
        .collect();
    let crop_at = |r: usize, c: usize| {
        let corner = |i: usize, j: usize| lattice.points[r + i][c + j];
        let [a, b, cc, d] = [corner(0, 0), corner(0, 1), corner(1, 1), corner(1, 0)];
        // The box's own patch extended: (u, v) in cells from its top-left corner.
        let at = |u: f32, v: f32| {
            let top = (a.0 + (b.0 - a.0) * u, a.1 + (b.1 - a.1) * u);
            let bottom = (d.0 + (cc.0 - d.0) * u, d.1 + (cc.1 - d.1) * u);
            (
                top.0 + (bottom.0 - top.0) * v,
                top.1 + (bottom.1 - top.1) * v,
            )
        };
        // Past the lattice's edge lies its heavy outer border and whatever is printed
        // beyond: the crop reaches out that far only where another box is.
        let margin = |inside: bool| {
            if inside {
                BOXED_MARGIN
            } else {
                BOXED_OUTER_MARGIN
            }
        };
        let (left, right) = (margin(c > 0), margin(c + 1 < lattice.columns));
        let (up, down) = (margin(r > 0), margin(r + 1 < lattice.rows));
        let [a, b, c, d] = [
            at(-left, -up),
            at(1.0 + right, -up),
            at(1.0 + right, 1.0 + down),
            at(-left, 1.0 + down),
        ];
        let wider = Lattice {
            rows: 1,
            columns: 1,
            points: vec![vec![a, b], vec![d, c]],
        };
        wider.cell_image(image, 0, 0, BOXED_PIXELS, 0.0)
    };
    // A page's printed rule crossing the clue boxes lies inside these wider crops (the box alone
    // may have it at its edge, taken for the box's line): wiped where it runs on through the
    // boxes of a band, the bands' own lines at the crops' edges left.
    let boxes_only = (BOXED_MARGIN + 0.06) / (1.0 + 2.0 * BOXED_MARGIN);
    let band_crops = |rows: std::ops::Range<usize>, columns: std::ops::Range<usize>| {
        let crops: Vec<Vec<GrayImage>> = rows
            .clone()
            .map(|r| columns.clone().map(|c| crop_at(r, c)).collect())
            .collect();
        (
            rows.start,
            columns.start,
            rules::grid_without_rules_inside(&crops, boxes_only),
        )
    };
    let above = band_crops(0..top, left..lattice.columns);
    let beside = band_crops(top..lattice.rows, 0..left);
    let crops: Vec<GrayImage> = numbered
        .iter()
        .map(|&(r, c)| {
            let (r0, c0, band) = if r < top { &above } else { &beside };
            band[r - r0][c - c0].clone()
        })
        .collect();
    let all = [crops.clone()];
    let darkness: Vec<Vec<Vec<f32>>> = vec![crops.iter().map(glyphs::flattened).collect()];
    let levels = Levels {
        paper: paper_level(&all),
        ink: ink_level(&darkness),
    };
    // A box line's remnant too deep in a crop to be wiped at its border joins a digit's
    // blob and stretches its bounds: painted over, in the numbered boxes only (a blank box's
    // crop is read for a number filling it, and may have no digits to tell its lines by).
    let crops: Vec<GrayImage> = crops
        .iter()
        .zip(&darkness[0])
        .map(|(crop, darkness)| glyphs::without_thin_ink_off_the_digits(crop, darkness, levels.ink))
        .collect();
    // A box read blank is read again too: a number filling its box runs into the box's heavy
    // line, and in the box alone it is wiped with the line. Only a sure number counts there,
    // and not in a box by the lattice's outer edge, whose crop reaches onto the heavy frame:
    // the frame's remnant there reads as a 1, at times surely (0.99 in a 17x11 photo, an
    // extra 1 before a row's clues). Over 1,380 generated nonogram photos, leaving those boxes
    // out read 2 more exactly (one of them had been solved wrongly) and none less.
    let print = splits::clue_print(&crops, levels, classifier);
    let by_the_frame =
        |r: usize, c: usize| r == 0 || c == 0 || r + 1 == lattice.rows || c + 1 == lattice.columns;
    let blank = (0..lattice.rows)
        .flat_map(|r| (0..lattice.columns).map(move |c| (r, c)))
        .filter(|&(r, c)| in_clues(r, c) && !by_the_frame(r, c))
        .filter(|&(r, c)| grid.get(r, c).value == CellValue::Blank)
        .map(|(r, c)| {
            let (r0, c0, band) = if r < top { &above } else { &beside };
            ((r, c), &band[r - r0][c - c0], BLANK_REREAD_SURENESS, None)
        });
    let mut reread = grid.clone();
    // A box's line remnant is as narrow as a 1, and looks like one: the digits' widths and
    // look-alikes weigh numbers read in numbered boxes only.
    let numbered_crops = numbered
        .iter()
        .zip(&crops)
        .map(|(&at, crop)| (at, crop, 0.0, Some(&print)));
    for ((r, c), crop, least, print) in numbered_crops.chain(blank) {
        let line_length = if r < top {
            lattice.rows.saturating_sub(top)
        } else {
            lattice.columns.saturating_sub(left)
        };
        let ranked =
            splits::ranked_at_splits(crop, levels, classifier, print, Some(line_length as u32));
        if ranked[0].1 < least {
            continue;
        }
        let cell = &mut reread.cells[r * grid.columns + c];
        match ranked[0] {
            (CellValue::Number(n), confidence) if n >= 1 => {
                cell.value = CellValue::Number(n);
                cell.confidence = confidence;
                cell.alternatives = ranked[1..].to_vec();
            }
            // A 1 in the box alone that the wider crop, wiping the box's lines, finds no ink
            // for is a remnant of the box's line, where the lattice sits off the printed box.
            // Not a 1 read surely: 1s stacked in a band line up like a rule and are wiped with
            // it in the wider crops.
            (CellValue::Blank, confidence)
                if cell.value == CellValue::Number(1)
                    && cell.confidence < SURE_ONE
                    && confidence >= BLANK_REREAD_SURENESS =>
            {
                cell.alternatives = vec![(cell.value, cell.confidence)];
                cell.value = CellValue::Blank;
                cell.confidence = confidence;
            }
            _ => {}
        }
    }
    reread
}

/// Each cell of `first` and `second` (the same lattice read two ways) as the surer of its two
/// readings, the other one's value its likeliest alternative and the other's own alternatives
/// among the rest at the higher of their two probabilities, for the corrector to weigh. Per
/// cell, not the reading surer overall: on a photo whose lattice sits a little off the boxes,
/// the box alone holds a remnant of its line beside the digit (a 6 read 16 at 0.6), which the
/// wider crop wipes as a line (6 at 0.99), while elsewhere the wider crop takes in a
/// neighbour's print and reads less surely than the box alone. Where `first`'s crop was moved
/// off its box (`first_moved`, per cell in rows), `second` stands however sure `first` is: a
/// crop moved down onto the box's bottom line, joined to the digits standing on it, read a
/// magazine's 13 as a 1 at 0.997 and its 10 as a 3, which the wider crop on the box read right.
pub fn surer_of_each(first: &GridRead, second: &GridRead, first_moved: &[bool]) -> GridRead {
    let mut merged = first.clone();
    for (i, (cell, other)) in merged.cells.iter_mut().zip(&second.cells).enumerate() {
        if cell.value == other.value {
            continue;
        }
        let moved = first_moved.get(i).copied().unwrap_or(false);
        let (mut surer, less) = if moved || other.confidence > cell.confidence {
            (other.clone(), &*cell)
        } else {
            (cell.clone(), other)
        };
        for &(value, p) in &less.alternatives {
            if value == surer.value || value == less.value {
                continue;
            }
            match surer.alternatives.iter_mut().find(|a| a.0 == value) {
                Some(known) => known.1 = known.1.max(p),
                None => surer.alternatives.push((value, p)),
            }
        }
        surer.alternatives.retain(|a| a.0 != less.value);
        surer.alternatives.sort_by(|a, b| b.1.total_cmp(&a.1));
        surer.alternatives.insert(0, (less.value, less.confidence));
        *cell = surer;
    }
    merged
}

/// How sure a 1 read in its box alone must be to stay a number when its wider crop reads
/// blank: printed 1s read at 0.999 or more, box line remnants at 0.65-0.98 on a dev set.
const SURE_ONE: f32 = 0.99;

/// Side of the square a boxed clue and its margin are resampled to.
const BOXED_PIXELS: u32 = 80;

/// How far from the grid, in cells, the clue bands' paper and ink levels are measured.
const NEAR_CELLS: u32 = 3;

/// Pixels per cell the bands are resampled at.
const PIXELS: u32 = 48;
/// The share of a number's copy darker than its own paper level (see [`number_cell`]): the
/// paper's bright tail, as the photo's paper level is measured (its 90th percentile) but a
/// little higher, since the digits take a larger share of a number's copy than of a band.
const PAPER_SHARE: f32 = 0.95;
/// Cells left out next to the grid, where its border line runs.
const BORDER_GAP: f64 = 0.12;
/// The widest gap, in cells, between the grid and its first number or between two numbers of
/// one line; a wider gap ends the clues.
const LONGEST_GAP: f64 = 1.7;
/// Digits closer than this share of their height belong to one number.
const DIGIT_GAP: f32 = 0.65;
/// How far apart, in their height, two neighbouring digits' centres must be to be taken for
/// two numbers' when the photo's spacing is measured (see [`number_spacing`]): a number's own
/// digits are one digit's advance apart, under their height in the widest faces (DejaVu Sans
/// Bold's 0.95), and blur swells the height further; two numbers' are a gap wider.
const APART_PITCH: f32 = 1.15;
/// The fewest gaps between numbers the photo's spacing is measured from.
const SPACING_LEAST: usize = 5;

/// The clue bands left of every row and above every column of `lattice` with the page's rules
/// wiped, the crop of each number found in them (see [`number_cell`]), in reading order, where
/// numbers were lost on a rule, and the bands' levels.
struct ClueCuts {
    row_bands: Vec<GrayImage>,
    column_bands: Vec<GrayImage>,
    row_cells: Vec<Vec<GrayImage>>,
    column_cells: Vec<Vec<GrayImage>>,
    row_lost: Vec<Vec<Lost>>,
    column_lost: Vec<Vec<Lost>>,
    levels: Levels,
}

/// Reads the clue bands left of every row and above every column of `lattice`.
pub fn read_clues(image: &GrayImage, lattice: &Lattice, classifier: &DigitClassifier) -> CluesRead {
    let cuts = cut_clues(image, lattice);
    let levels = cuts.levels;
    let all_cells = cuts.row_cells.iter().chain(&cuts.column_cells).flatten();
    let print = splits::clue_print(all_cells, levels, classifier);
    // Each line's numbers read as at most its `length`, the cells across it.
    let read_band = |band: &GrayImage, cells: &Vec<GrayImage>, lost: &Vec<Lost>, length: usize| {
        let largest = Some(length as u32);
        let mut numbers: Vec<Option<ClueRead>> = cells
            .iter()
            .map(|cell| read_number(cell, levels, classifier, Some(&print), largest))
            .collect();
        // The marks met beyond the clues are pieces of rules, read as 1s (see
        // `clue_lines::could_be_stray`): past such a mark, the gap is the paper beyond the clues.
        let outermost_one = matches!(numbers.first(), Some(Some(n)) if n.value == 1);
        for place in lost {
            let number = if place.beside_outermost && outermost_one {
                None
            } else {
                let cell = number_cell(band, place.at, levels.paper);
                let read = read_number(&cell, levels, classifier, Some(&print), largest);
                lost_number(read, place.between, outermost_one)
            };
            numbers.insert(place.index, number);
        }
        numbers.into_iter().flatten().collect()
    };
    let read_bands = |bands: &[GrayImage], cells: &[Vec<GrayImage>], lost: &[Vec<Lost>], length| {
        bands
            .iter()
            .zip(cells)
            .zip(lost)
            .map(|((band, cells), lost)| read_band(band, cells, lost, length))
            .collect()
    };
    CluesRead {
        rows: read_bands(
            &cuts.row_bands,
            &cuts.row_cells,
            &cuts.row_lost,
            lattice.columns,
        ),
        columns: read_bands(
            &cuts.column_bands,
            &cuts.column_cells,
            &cuts.column_lost,
            lattice.rows,
        ),
    }
}

/// The glyphs of each number of one clue line, in reading order.
pub type LineGlyphs = Vec<Vec<NormalisedGlyph>>;

/// The glyphs the reader first classifies in each clue number beside `lattice`, per row (top
/// first) then per column (left first), numbers in reading order: the normalised inputs the
/// classifier sees at the usual split, before other splits, numbers lost on a rule (not listed)
/// or corrections. For tools that pair them with a photo's known clues (the digit trainer
/// harvests glyphs so); the reader does not use it.
pub fn clue_glyphs(
    image: &GrayImage,
    lattice: &Lattice,
    classifier: &DigitClassifier,
) -> (Vec<LineGlyphs>, Vec<LineGlyphs>) {
    let cuts = cut_clues(image, lattice);
    let line = |cells: &Vec<GrayImage>| -> LineGlyphs {
        cells
            .iter()
            .map(|cell| splits::clue_glyphs(cell, cuts.levels, classifier))
            .filter(|glyphs| !glyphs.is_empty())
            .collect()
    };
    (
        cuts.row_cells.iter().map(line).collect(),
        cuts.column_cells.iter().map(line).collect(),
    )
}

/// Cuts the clue bands beside `lattice` and the numbers in them (see [`ClueCuts`]).
fn cut_clues(image: &GrayImage, lattice: &Lattice) -> ClueCuts {
    // Room for the most numbers a line can have, each up to two digits wide.
    let reach = |cells: usize| cells.div_ceil(2) as f64 * 1.3 + 1.0;
    let row_bands: Vec<GrayImage> = (0..lattice.rows)
        .map(|r| {
            strip(
                image,
                lattice,
                Side::Left,
                r,
                reach(lattice.columns),
                BORDER_GAP,
                PIXELS,
            )
        })
        .collect();
    let column_bands: Vec<GrayImage> = (0..lattice.columns)
        .map(|c| {
            strip(
                image,
                lattice,
                Side::Top,
                c,
                reach(lattice.rows),
                BORDER_GAP,
                PIXELS,
            )
        })
        .collect();
    let (raw_row_bands, raw_column_bands) = (row_bands, column_bands);
    let row_bands = rules::bands_without_rules(&raw_row_bands, PIXELS, false);
    let column_bands = rules::bands_without_rules(&raw_column_bands, PIXELS, true);
    // The paper's and the ink's levels are measured next to the grid, where each line's first
    // numbers are: further out a band may run off the photo (white) or off the page onto the
    // table, or over a frame or text printed darker than the clues. Either would skew the
    // levels: a brighter paper than the band's own outlines each number's crop when it is set
    // on that paper to be read, and a darker ink raises the least contrast taken for ink past
    // faint digits.
    let near = |band: &GrayImage, across: bool| {
        let length = (NEAR_CELLS * PIXELS).min(if across { band.height() } else { band.width() });
        let (x, y, w, h) = if across {
            (0, band.height() - length, band.width(), length)
        } else {
            (band.width() - length, 0, length, band.height())
        };
        image::imageops::crop_imm(band, x, y, w, h).to_image()
    };
    let near_bands: [Vec<GrayImage>; 2] = [
        row_bands.iter().map(|b| near(b, false)).collect(),
        column_bands.iter().map(|b| near(b, true)).collect(),
    ];
    let darkness: Vec<Vec<Vec<f32>>> = near_bands
        .iter()
        .map(|bands| bands.iter().map(glyphs::flattened).collect())
        .collect();
    let levels = Levels {
        paper: paper_level(&near_bands),
        ink: ink_level(&darkness),
    };
    let smoothing = (pixel_noise(&row_bands) >= NOISY).then_some(SMOOTHING);
    let row_digits: Vec<Vec<Bounds>> = row_bands
        .iter()
        .map(|b| digits(b, levels.ink, smoothing))
        .collect();
    let column_digits: Vec<Vec<Bounds>> = column_bands
        .iter()
        .map(|b| digits(b, levels.ink, smoothing))
        .collect();
    let typical = typical_height(row_digits.iter().chain(&column_digits));
    let row_digits: Vec<Vec<Bounds>> = row_bands
        .iter()
        .zip(row_digits)
        .map(|(band, found)| on_the_middle(digit_sized(found, typical), band))
        .collect();
    let spacing = number_spacing(&row_bands, &row_digits);
    let row_found: Vec<Vec<Bounds>> = row_bands
        .iter()
        .zip(row_digits)
        .map(|(band, found)| row_numbers(found, band, spacing))
        .collect();
    let column_found: Vec<Vec<Bounds>> = column_bands
        .iter()
        .zip(column_digits)
        .map(|(band, found)| column_numbers(digit_sized(found, typical), band))
        .collect();
    let row_lost = lost_on_rules(&raw_row_bands, &row_bands, &row_found, typical, false);
    let column_lost = lost_on_rules(
        &raw_column_bands,
        &column_bands,
        &column_found,
        typical,
        true,
    );
    let number_cells = |band: &GrayImage, numbers: &[Bounds]| -> Vec<GrayImage> {
        numbers
            .iter()
            .map(|&number| number_cell(band, number, levels.paper))
            .collect()
    };
    let row_cells: Vec<Vec<GrayImage>> = row_bands
        .iter()
        .zip(&row_found)
        .map(|(band, found)| number_cells(band, found))
        .collect();
    let column_cells: Vec<Vec<GrayImage>> = column_bands
        .iter()
        .zip(&column_found)
        .map(|(band, found)| number_cells(band, found))
        .collect();
    ClueCuts {
        row_bands,
        column_bands,
        row_cells,
        column_cells,
        row_lost,
        column_lost,
        levels,
    }
}

/// The confidence of a 1 taken to be lost on a rule between two numbers: some other digit may
/// have left too little off the rule to be read, so the correctors may change it.
const LOST_ONE: f32 = 0.6;
/// How sure the reading of what is left where a number was lost on a rule must be to be taken
/// as that number rather than a 1 (between two numbers) or nothing (beyond a 1): the remnants
/// of a 1 on the rule read as other digits (serifs and foot as a 2).
const SURE_REMNANT: f32 = 0.8;

/// Per band, where a number was lost on a rule wiped from it (`raw` and `cleaned` bands, the
/// numbers `found` in each; column bands run `along_y`). See [`lost_numbers`].
fn lost_on_rules(
    raw: &[GrayImage],
    cleaned: &[GrayImage],
    found: &[Vec<Bounds>],
    typical: u32,
    along_y: bool,
) -> Vec<Vec<Lost>> {
    let Some(spacing) = lost_numbers::typical_spacing(found, along_y) else {
        return vec![Vec::new(); found.len()];
    };
    raw.iter()
        .zip(cleaned)
        .zip(found)
        .map(|((raw, cleaned), numbers)| {
            let rules = lost_numbers::wiped_rules(raw, cleaned, along_y);
            lost_numbers::lost_places(numbers, &rules, spacing, typical, along_y)
        })
        .collect()
}

/// The number taken where one was lost on a rule, from the reading of what is left there
/// (`read`): that reading when it is a sure digit other than 1. Otherwise, between two numbers
/// a 1 (the digit that leaves least off the rule); beyond the outermost number, the reading
/// when it is a digit other than 1 and the outermost number (`beyond_a_one`) is not a 1 (a 1
/// there may be a rule's piece beyond the clues, and past it is no clue), else nothing.
fn lost_number(read: Option<ClueRead>, between: bool, beyond_a_one: bool) -> Option<ClueRead> {
    match read {
        Some(read) if read.value != 1 && read.confidence >= SURE_REMNANT => Some(read),
        Some(read) if read.value != 1 && !between && !beyond_a_one => Some(read),
        _ if !between => None,
        read => {
            let alternatives = read
                .into_iter()
                .flat_map(|r| std::iter::once((r.value, r.confidence)).chain(r.alternatives))
                .filter(|&(value, _)| value != 1)
                .map(|(value, p)| (value, p * (1.0 - LOST_ONE)))
                .collect();
            Some(ClueRead {
                value: 1,
                confidence: LOST_ONE,
                alternatives,
            })
        }
    }
}

/// How noisy the photo's clue `bands` are: the mean difference between neighbouring pixels
/// along them, the largest quarter (the edges of print) left out. A band is resampled from the
/// photo, so this is the grain left at the bands' scale: measured on 33 of the nonogram `photo`
/// dev photos, 0.8-1.7 where the cells are small (bands upsampled) and up to 2.9 elsewhere;
/// 2.2-5.4 on the hard photos of seeds 80003 and 80004 (sensor noise sigma 11.5).
fn pixel_noise(bands: &[GrayImage]) -> f32 {
    // Differences are bytes: a count of each value ranks them without sorting a million.
    let mut counts = [0usize; 256];
    for band in bands {
        for row in band.as_raw().chunks_exact(band.width().max(1) as usize) {
            for pair in row.windows(2) {
                counts[usize::from(pair[0].abs_diff(pair[1]))] += 1;
            }
        }
    }
    let mut left = counts.iter().sum::<usize>() * 3 / 4;
    let (mut sum, kept) = (0usize, left);
    for (difference, &count) in counts.iter().enumerate() {
        let taken = count.min(left);
        sum += difference * taken;
        left -= taken;
    }
    sum as f32 / kept.max(1) as f32
}

/// The grain ([`pixel_noise`]) from which a photo's clue bands are smoothed before their digits
/// are found. In a noisy band the paper's level, taken from its brightest pixels nearby, lies
/// above most of the paper, and the noise's darker specks join into digit-sized blobs: the hard
/// photos' dark rows read five or six numbers beyond their clues. Smoothing a band whose grain
/// is finer than that only moves its digits' boxes a little, and that tipped three `photo` dev
/// photos (digits 8-10 px tall) whose many misreads the correctors had only just mended.
const NOISY: f32 = 2.0;
/// The sigma, in band pixels ([`PIXELS`] a cell), of the Gaussian a noisy band is smoothed with.
const SMOOTHING: f32 = 0.8;

/// The height of clue digits: the median over the bands of each one's tallest blob. Most lines
/// have clues, so that is a digit in most bands, however many specks of paper texture a photo
/// shows or however large a title a few bands run into.
fn typical_height<'a>(bands: impl Iterator<Item = &'a Vec<Bounds>>) -> u32 {
    let mut heights: Vec<u32> = bands
        .filter_map(|band| band.iter().map(|b| b.y1 - b.y0).max())
        .collect();
    heights.sort_unstable();
    heights.get(heights.len() / 2).copied().unwrap_or(0)
}

/// The blobs of a band as tall as clue digits (of `typical` height): specks are dropped, and so
/// are the letters of a title or a heading printed larger, which one band alone may hold more
/// of than digits.
fn digit_sized(mut found: Vec<Bounds>, typical: u32) -> Vec<Bounds> {
    found.retain(|b| {
        let height = b.y1 - b.y0;
        height * 2 >= typical && height * 2 <= typical * 3
    });
    found
}

/// The blobs of a band no larger than a cell, overlapping ones joined, lines left out; found on
/// the band blurred by `smoothing` (a Gaussian's sigma in pixels) when given.
fn digits(band: &GrayImage, ink: f32, smoothing: Option<f32>) -> Vec<Bounds> {
    let smoothed;
    let band = match smoothing {
        Some(sigma) => {
            smoothed = image::imageops::blur(band, sigma);
            &smoothed
        }
        None => band,
    };
    let cell = PIXELS;
    let min_area = (cell * cell / 300) as usize;
    let mut boxes = glyphs::ink_boxes(band, ink, min_area);
    if let Some((w, h)) = before_line_at_grid_end(&boxes, band) {
        boxes = glyphs::ink_boxes(
            &image::imageops::crop_imm(band, 0, 0, w, h).to_image(),
            ink,
            min_area,
        );
    }
    let mut boxes: Vec<Bounds> = boxes
        .into_iter()
        .filter(|b| {
            let (w, h) = (b.x1 - b.x0, b.y1 - b.y0);
            h * 20 <= cell * 19 && w * 5 <= cell * 6
        })
        .collect();
    boxes.sort_by_key(|b| (b.x0, b.y0));
    // Pieces of one digit (a broken stroke, the dot-like top of a thin 1, the faint bar of a 7
    // come apart from its stem) overlap both ways: joined before small pieces are left out.
    let mut joined: Vec<Bounds> = Vec::new();
    for b in boxes {
        let overlaps = |a: &Bounds| {
            let across = a.x1.min(b.x1) as i64 - a.x0.max(b.x0) as i64;
            let down = a.y1.min(b.y1) as i64 - a.y0.max(b.y0) as i64;
            across * 2 > (a.x1 - a.x0).min(b.x1 - b.x0) as i64 && down > -(cell as i64 / 10)
        };
        match joined.iter_mut().find(|a| overlaps(a)) {
            Some(a) => *a = union(*a, b),
            None => joined.push(b),
        }
    }
    // Too short to be a digit, or a sliver of ruled line too thin to be even a 1.
    joined.retain(|b| {
        let (w, h) = (b.x1 - b.x0 + 1, b.y1 - b.y0);
        h * 6 >= cell && w * 8 >= h
    });
    joined
}

/// The size of a clue band cut where a line piece at its grid end (a row band's right end, a
/// column band's bottom) starts, if one is there and lies within [`GRID_END_LINE`] of a cell
/// from the end: the grid's border, or a page rule running beside it. A number printed close to the grid
/// touches such a line and the two make one blob too tall for a digit, so the number was
/// lost ("4 4 6" read "4 4" where a rule ran along the grid's border); the band is cut there.
/// A piece is a thin box reaching the end, at least a third of a cell long across the band
/// and reaching one of its sides, as a line crossing the band does and a digit (a 1 printed
/// close to the grid, centred in its row) does not.
fn before_line_at_grid_end(boxes: &[Bounds], band: &GrayImage) -> Option<(u32, u32)> {
    let along_x = band.width() >= band.height();
    let (length, across) = if along_x {
        band.dimensions()
    } else {
        (band.height(), band.width())
    };
    let reach = (GRID_END_LINE * f64::from(PIXELS)) as u32;
    boxes
        .iter()
        .map(|b| {
            if along_x {
                (b.x0, b.x1, b.y0, b.y1)
            } else {
                (b.y0, b.y1, b.x0, b.x1)
            }
        })
        .filter(|&(start, end, side_start, side_end)| {
            end + 3 >= length
                && start + reach >= length
                && (end - start + 1) * 6 <= PIXELS
                && (side_end - side_start + 1) * 3 >= across
                && (side_start <= 1 || side_end + 2 >= across)
        })
        .map(|(start, ..)| start)
        .min()
        .map(|start| {
            if along_x {
                (start, band.height())
            } else {
                (band.width(), start)
            }
        })
}

/// How far from a clue band's grid end, in cells, a line piece is cut off (see
/// [`before_line_at_grid_end`]).
const GRID_END_LINE: f64 = 0.25;

fn union(a: Bounds, b: Bounds) -> Bounds {
    Bounds {
        x0: a.x0.min(b.x0),
        y0: a.y0.min(b.y0),
        x1: a.x1.max(b.x1),
        y1: a.y1.max(b.y1),
    }
}

/// The blobs of a row band on its middle, grid end (right) first: a row's numbers share its
/// middle, and blobs well above or below are neighbours' print.
fn on_the_middle(mut found: Vec<Bounds>, band: &GrayImage) -> Vec<Bounds> {
    let middle = band.height() as f32 / 2.0;
    found.retain(|b| ((b.y0 + b.y1) as f32 / 2.0 - middle).abs() < PIXELS as f32 * 0.3);
    found.sort_by_key(|b| std::cmp::Reverse(b.x1));
    found
}

/// The gap between two numbers of a row as this photo shows it: the median of the gaps
/// between neighbouring digits in the row `bands`' clues (blobs as [`on_the_middle`] gives
/// them, from the grid out to the first gap over [`LONGEST_GAP`]) whose centres are at least
/// [`APART_PITCH`] of their height apart, as a number's own digits are not. The printed gap
/// is the same on the whole page, but blur spreads every digit's ink into it, and in a
/// blurred photo it measures less than [`DIGIT_GAP`] of the digits' height (swollen by the
/// same blur): a row's "2 3 3" read as one number. The digits' centres stay where they were
/// printed. `None` when fewer than [`SPACING_LEAST`] such gaps are seen.
fn number_spacing(bands: &[GrayImage], found: &[Vec<Bounds>]) -> Option<f32> {
    let longest = (LONGEST_GAP * f64::from(PIXELS)) as f32;
    let centre = |b: &Bounds| (b.x0 + b.x1) as f32 / 2.0;
    let mut gaps: Vec<f32> = Vec::new();
    for (band, digits) in bands.iter().zip(found) {
        let Some(first) = digits.first() else {
            continue;
        };
        if band.width() as f32 - first.x1 as f32 > longest {
            continue;
        }
        for pair in digits.windows(2) {
            let (inner, outer) = (&pair[0], &pair[1]);
            let gap = inner.x0 as f32 - outer.x1 as f32;
            if gap > longest {
                break;
            }
            let height = (inner.y1 - inner.y0).max(outer.y1 - outer.y0) as f32;
            if centre(inner) - centre(outer) >= APART_PITCH * height {
                gaps.push(gap);
            }
        }
    }
    if gaps.len() < SPACING_LEAST {
        return None;
    }
    Some(glyphs::median(&mut gaps))
}

/// The numbers of a row band, left to right, each as the box of its digits (`found` by
/// [`on_the_middle`]): digits are taken from the grid (the band's right end) outward while
/// the gaps stay short. Two digits are of one number when their gap is under [`DIGIT_GAP`]
/// of their height and under half the photo's `spacing` between numbers.
fn row_numbers(found: Vec<Bounds>, band: &GrayImage, spacing: Option<f32>) -> Vec<Bounds> {
    let longest = (LONGEST_GAP * f64::from(PIXELS)) as i64;
    let mut numbers: Vec<Bounds> = Vec::new();
    let mut edge = band.width() as i64;
    let half_spacing = spacing.map_or(f32::MAX, |s| s / 2.0);
    for digit in found {
        let gap = edge - digit.x1 as i64;
        let joining = half_spacing.min(DIGIT_GAP * (digit.y1 - digit.y0) as f32);
        match numbers.last_mut() {
            Some(number) if (gap as f32) <= joining => {
                *number = union(*number, digit);
            }
            _ if gap <= longest => numbers.push(digit),
            _ => break,
        }
        edge = edge.min(digit.x0 as i64);
    }
    numbers.reverse();
    numbers
}

/// The numbers of a column band, top to bottom, each as the box of the digits on one text
/// line: lines are taken from the grid (the band's bottom) upward while the gaps stay short.
fn column_numbers(mut found: Vec<Bounds>, band: &GrayImage) -> Vec<Bounds> {
    found.sort_by_key(|b| std::cmp::Reverse(b.y1));
    let mut lines: Vec<Bounds> = Vec::new();
    for digit in found {
        let same_line = lines.last().is_some_and(|line| {
            let overlap = line.y1.min(digit.y1) as i64 - line.y0.max(digit.y0) as i64;
            overlap * 2 > (line.y1 - line.y0).min(digit.y1 - digit.y0) as i64
        });
        match lines.last_mut() {
            Some(line) if same_line => *line = union(*line, digit),
            _ => lines.push(digit),
        }
    }
    let longest = (LONGEST_GAP * f64::from(PIXELS)) as i64;
    let mut numbers = Vec::new();
    let mut edge = band.height() as i64;
    for line in lines {
        // A column's numbers stand in its middle, narrower than its cell: ink from one side
        // of the band to the other is a line of print beyond the clues (a title's letters or
        // a paragraph close above them, read as a dozen numbers on a generated photo).
        let side_to_side = line.x0 == 0 && line.x1 >= band.width();
        if edge - line.y1 as i64 > longest || side_to_side {
            break;
        }
        edge = edge.min(line.y0 as i64);
        numbers.push(line);
    }
    numbers.reverse();
    numbers
}

/// The number inside `number` (a box in `band`) as if it were printed alone in a cell: the box
/// and a margin copied onto blank paper, the photo's `paper` level or the copy's own where
/// that is darker. Where the page is shaded, the step from the copy to the photo's brighter
/// paper reads as a stroke beside the digits (a 10 in a shaded corner read 109).
fn number_cell(band: &GrayImage, number: Bounds, paper: f32) -> GrayImage {
    let margin = (number.y1 - number.y0) / 4 + 1;
    let (x0, y0) = (
        number.x0.saturating_sub(margin),
        number.y0.saturating_sub(margin),
    );
    let (x1, y1) = (
        (number.x1 + margin).min(band.width()),
        (number.y1 + margin).min(band.height()),
    );
    let side = PIXELS.max(x1 - x0).max(y1 - y0);
    let (ox, oy) = ((side - (x1 - x0)) / 2, (side - (y1 - y0)) / 2);
    let copied: Vec<u8> = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| band.get_pixel(x, y)[0]))
        .collect();
    let own_paper = glyphs::percentile(&copied, PAPER_SHARE);
    let paper = Luma([paper.min(own_paper).round().clamp(0.0, 255.0) as u8]);
    let mut cell = GrayImage::from_pixel(side, side, paper);
    for y in y0..y1 {
        for x in x0..x1 {
            cell.put_pixel(ox + x - x0, oy + y - y0, *band.get_pixel(x, y));
        }
    }
    cell
}

/// Reads the number in a `cell` made by [`number_cell`], its glyphs weighed by the photo's digit
/// `widths`, numbers up to `largest` (its line's length) kept first. `None` when it reads as no
/// number.
fn read_number(
    cell: &GrayImage,
    levels: Levels,
    classifier: &DigitClassifier,
    print: Option<&splits::PagePrint>,
    largest: Option<u32>,
) -> Option<ClueRead> {
    clue_of_readings(splits::ranked_at_splits(
        cell, levels, classifier, print, largest,
    ))
}

/// The clue number of a cell's `readings` (most likely first): the likeliest number (1 or
/// more) at its probability, the other numbers its alternatives, each value once. `None` when
/// no reading is a number.
fn clue_of_readings(readings: impl IntoIterator<Item = (CellValue, f32)>) -> Option<ClueRead> {
    let mut ranked = readings.into_iter().filter_map(|(value, p)| match value {
        CellValue::Number(n) if n >= 1 => Some((n, p)),
        _ => None,
    });
    let (value, confidence) = ranked.next()?;
    let mut alternatives: Vec<(u32, f32)> = Vec::new();
    for (n, p) in ranked {
        if n != value && alternatives.iter().all(|&(m, _)| m != n) {
            alternatives.push((n, p));
        }
    }
    Some(ClueRead {
        value,
        confidence,
        alternatives,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::grid_read;
    use crate::render::canvas::{self, HAlign};
    use crate::render::FontName;
    use image::{Rgb, RgbImage};

    #[test]
    fn a_number_lost_on_a_rule_is_a_1_between_numbers_and_beyond_them_what_is_left_reads() {
        let read = |value, confidence| {
            Some(ClueRead {
                value,
                confidence,
                alternatives: vec![(1, 0.3)],
            })
        };
        let value = |number: Option<ClueRead>| number.map(|n| (n.value, n.confidence));
        // Between two numbers: a 1 unless the remnant reads surely as another digit.
        assert_eq!(value(lost_number(None, true, false)), Some((1, LOST_ONE)));
        let unsure = lost_number(read(2, 0.5), true, false).unwrap();
        assert_eq!((unsure.value, unsure.alternatives.len()), (1, 1));
        assert_eq!(
            value(lost_number(read(2, 0.95), true, false)),
            Some((2, 0.95))
        );
        // Beyond the outermost number: what the remnant reads as, but a 1 (a rule's piece), and
        // past an outermost 1 only a sure reading.
        assert_eq!(
            value(lost_number(read(2, 0.4), false, false)),
            Some((2, 0.4))
        );
        assert_eq!(lost_number(read(2, 0.4), false, true), None);
        assert_eq!(
            value(lost_number(read(3, 0.9), false, true)),
            Some((3, 0.9))
        );
        assert_eq!(lost_number(read(1, 0.9), false, false), None);
        assert_eq!(lost_number(None, false, false), None);
    }

    #[test]
    fn a_number_longer_than_its_line_is_read_as_its_likeliest_alternative_that_fits() {
        let read = |value: u32, alternatives: Vec<(u32, f32)>| ClueRead {
            value,
            confidence: 0.6,
            alternatives,
        };
        // Two rows of 12 columns, twelve columns of 2 rows.
        let clues = CluesRead {
            rows: vec![
                vec![read(143, vec![(141, 0.3), (10, 0.2), (9, 0.1)])],
                vec![read(12, vec![(2, 0.3)])],
            ],
            columns: vec![vec![read(2, vec![]), read(999, vec![(300, 0.1)])]; 12],
        }
        .within_lines();
        assert_eq!(clues.rows[0][0].value, 10);
        assert_eq!(clues.rows[0][0].confidence, 0.2);
        assert_eq!(
            clues.rows[0][0].alternatives,
            vec![(143, 0.6), (141, 0.3), (9, 0.1)]
        );
        assert_eq!(clues.rows[1][0].value, 12, "as long as its line");
        assert_eq!(
            clues.columns[0][1].value, 999,
            "nothing fits: left for the totals"
        );
    }

    #[test]
    fn a_box_line_read_as_a_leading_one_is_dropped_where_the_rest_fits() {
        let read = |value: u32, confidence: f32, alternatives: Vec<(u32, f32)>| ClueRead {
            value,
            confidence,
            alternatives,
        };
        // Rows of 20 columns: a boxed 16 read 116, a 12 read 19 with 112 next, and a 10 read
        // 15 (two digits: its alternatives decide); columns of 3 rows.
        let clues = CluesRead {
            rows: vec![
                vec![read(116, 0.83, vec![(3, 0.74), (6, 0.1)])],
                vec![read(19, 0.73, vec![(112, 0.72), (2, 0.1)])],
                vec![read(25, 0.6, vec![(10, 0.3), (105, 0.2)])],
            ],
            columns: vec![vec![read(1, 1.0, vec![])]; 20],
        }
        .within_lines();
        assert_eq!(
            (clues.rows[0][0].value, clues.rows[0][0].confidence),
            (16, 0.83)
        );
        assert_eq!(clues.rows[0][0].alternatives[1], (3, 0.74));
        assert_eq!(clues.rows[1][0].value, 19);
        assert_eq!(clues.rows[1][0].alternatives, vec![(12, 0.72), (2, 0.1)]);
        assert_eq!(clues.rows[2][0].value, 10);
        assert_eq!(clues.rows[2][0].alternatives, vec![(25, 0.6), (105, 0.2)]);
        assert_eq!(without_leading_one(116), Some(16));
        assert_eq!(without_leading_one(105), None);
        assert_eq!(without_leading_one(16), None);
        assert_eq!(without_leading_one(216), None);
    }

    /// A row band with `texts` printed at the given cell positions (from the band's left).
    fn band(texts: &[(&str, f32)], cells: u32) -> GrayImage {
        let mut page = RgbImage::from_pixel(cells * PIXELS, PIXELS, Rgb([240; 3]));
        let font = FontName::Sans.font();
        for &(text, at) in texts {
            canvas::draw_label(
                &mut page,
                &font,
                PIXELS as f32 * 0.6,
                text,
                (at * PIXELS as f32, PIXELS as f32 / 2.0),
                HAlign::Centre,
                Rgb([20; 3]),
            );
        }
        image::imageops::grayscale(&page)
    }

    #[test]
    fn a_noisy_bands_specks_are_smoothed_away_before_its_digits_are_found() {
        // Row 10 ("4 3 3 2") of a generated hard 17x11 nonogram photo (seed 80003: sensor
        // noise sigma 11.5, dim light, defocus and motion blur) as the reader cuts its band.
        let band = image::load_from_memory(include_bytes!(
            "../../tests/data/clue-bands/hard-80003-row10.png"
        ))
        .expect("the band decodes")
        .to_luma8();
        let ink = ink_level(&[vec![glyphs::flattened(&band)]]);
        assert!(pixel_noise(std::slice::from_ref(&band)) >= NOISY);
        let count = |smoothing: Option<f32>| {
            let found = on_the_middle(digits(&band, ink, smoothing), &band);
            row_numbers(found, &band, Some(17.0)).len()
        };
        assert_eq!(count(Some(SMOOTHING)), 4);
        assert!(count(None) > 4, "{}", count(None));
    }

    #[test]
    fn numbers_in_a_shaded_part_of_the_page_read_as_in_the_light() {
        // Blurred faint digits on paper at 165, in a photo whose paper measured 240.
        let strip = band(&[("4", 4.5), ("10", 5.5), ("2", 6.5), ("9", 7.5)], 8);
        let mut strip = image::imageops::blur(&strip, 2.0);
        for pixel in strip.pixels_mut() {
            pixel[0] = (85.0 + (f32::from(pixel[0]) - 20.0) * 80.0 / 220.0) as u8;
        }
        let levels = Levels {
            paper: 240.0,
            ink: 0.4,
        };
        assert_eq!(band_numbers(&strip, levels), vec![4, 10, 2, 9]);
    }

    /// The numbers' boxes of a row band `strip` with its digits' ink at `ink`, unsmoothed and
    /// grouped without a photo's spacing.
    fn number_boxes(strip: &GrayImage, ink: f32) -> Vec<Bounds> {
        row_numbers(on_the_middle(digits(strip, ink, None), strip), strip, None)
    }

    /// The numbers read in a row band `strip` of a photo with these `levels`.
    fn band_numbers(strip: &GrayImage, levels: Levels) -> Vec<u32> {
        let classifier = crate::read::bundled_classifier();
        number_boxes(strip, levels.ink)
            .into_iter()
            .filter_map(|n| {
                read_number(
                    &number_cell(strip, n, levels.paper),
                    levels,
                    classifier,
                    None,
                    None,
                )
            })
            .map(|c| c.value)
            .collect()
    }

    #[test]
    fn each_cell_takes_the_surer_of_its_two_readings_the_other_its_first_alternative() {
        let mut first = grid_read(&["16", "1."]);
        let mut second = grid_read(&["66", ".."]);
        let set = |grid: &mut GridRead, i: usize, p: f32, alternatives: Vec<(CellValue, f32)>| {
            grid.cells[i].confidence = p;
            grid.cells[i].alternatives = alternatives;
        };
        set(&mut first, 0, 0.6, vec![(CellValue::Number(4), 0.3)]);
        set(&mut second, 0, 0.99, vec![(CellValue::Number(5), 0.01)]);
        set(&mut first, 2, 0.65, vec![]);
        set(&mut second, 2, 1.0, vec![]);
        let merged = surer_of_each(&first, &second, &[]);
        assert_eq!(merged.cells[0].value, CellValue::Number(6));
        assert_eq!(merged.cells[0].confidence, 0.99);
        assert_eq!(
            merged.cells[0].alternatives,
            vec![
                (CellValue::Number(1), 0.6),
                (CellValue::Number(4), 0.3),
                (CellValue::Number(5), 0.01)
            ]
        );
        assert_eq!(merged.cells[1], first.cells[1], "read alike");
        assert_eq!(merged.cells[2].value, CellValue::Blank);
        assert_eq!(
            merged.cells[2].alternatives,
            vec![(CellValue::Number(1), 0.65)]
        );
    }

    #[test]
    fn a_box_whose_first_crop_was_moved_takes_the_second_reading_however_sure() {
        // A 13 read as 1 at 0.997 from a crop moved onto its box's line, 13 at 0.95 from the
        // wider crop on the box; a box not moved keeps its surer reading.
        let mut first = grid_read(&["11"]);
        let mut second = grid_read(&["11"]);
        for grid in [&mut first, &mut second] {
            grid.cells[0].value = CellValue::Number(13);
            grid.cells[1].value = CellValue::Number(13);
        }
        first.cells[0].value = CellValue::Number(1);
        first.cells[0].confidence = 0.997;
        second.cells[0].confidence = 0.95;
        first.cells[1].value = CellValue::Number(18);
        first.cells[1].confidence = 0.997;
        second.cells[1].confidence = 0.95;
        let merged = surer_of_each(&first, &second, &[true, false]);
        assert_eq!(merged.cells[0].value, CellValue::Number(13));
        assert_eq!(merged.cells[0].confidence, 0.95);
        assert_eq!(
            merged.cells[0].alternatives,
            vec![(CellValue::Number(1), 0.997)]
        );
        assert_eq!(merged.cells[1].value, CellValue::Number(18));
    }

    #[test]
    fn boxed_clues_below_or_right_of_the_grid_are_found_at_the_turn_that_puts_them_above_and_left()
    {
        let upright = [
            "....2.....",
            "..12312311",
            "2.........",
            "11....1...",
            ".3........",
            "12........",
            ".4........",
            ".1........",
        ];
        assert_eq!(boxed_turns(&grid_read(&upright)), None);
        // The lattice of a photo in which `turns` clockwise quarter turns put the page upright:
        // the upright page turned the rest of the way round.
        let rows: Vec<Vec<char>> = upright.iter().map(|line| line.chars().collect()).collect();
        let (height, width) = (rows.len(), rows[0].len());
        for turns in 1..4u8 {
            let (seen_rows, seen_columns) = if turns % 2 == 0 {
                (height, width)
            } else {
                (width, height)
            };
            let seen: Vec<String> = (0..seen_rows)
                .map(|row| {
                    (0..seen_columns)
                        .map(|column| {
                            let (r, c) =
                                crate::read::source_cell(row, column, 4 - turns, height, width);
                            rows[r][c]
                        })
                        .collect()
                })
                .collect();
            let seen: Vec<&str> = seen.iter().map(String::as_str).collect();
            let seen = grid_read(&seen);
            assert!(boxed_clues(&seen).is_none(), "turned {turns}");
            assert_eq!(boxed_turns(&seen), Some(turns));
        }
    }

    #[test]
    fn boxed_clues_are_found_despite_line_remnants_read_in_the_grid() {
        // Two rows of column clues, two columns of row clues, and three 1s in the grid where a
        // photo's lattice sat off the printed lines.
        let grid = grid_read(&[
            "....2.....",
            "..12312311",
            "2.........",
            "11....1...",
            ".3........",
            "12....1...",
            ".4......1.",
            ".1........",
        ]);
        let (clues, top, left) = boxed_clues(&grid).expect("boxed clues");
        assert_eq!((top, left), (2, 2));
        let values = |lines: &[Vec<ClueRead>]| -> Vec<Vec<u32>> {
            lines
                .iter()
                .map(|line| line.iter().map(|n| n.value).collect())
                .collect()
        };
        assert_eq!(
            values(&clues.rows),
            vec![vec![2], vec![1, 1], vec![3], vec![1, 2], vec![4], vec![1]]
        );
        assert_eq!(values(&clues.columns)[2], vec![2, 3]);
        // Numbers all over the grid (a Sudoku) are no boxed nonogram.
        let sudoku = grid_read(&[
            "5.3..7....",
            "6..195....",
            ".98....6..",
            "8...6...3.",
            "4..8.3..1.",
            "7...2...6.",
            ".6....28..",
            "...419..5.",
        ]);
        assert!(boxed_clues(&sudoku).is_none());
    }

    #[test]
    fn boxes_read_0_count_toward_their_bands_line() {
        // Two rows of column clues over six grid rows, the second `band_line`; two columns of
        // row clues beside them.
        let grid_under = |band_line: &str| {
            let mut lines = vec!["...3....1.", band_line];
            lines.extend(["5.........", "21........", ".6........"]);
            lines.extend(["31........", ".2........", "1........."]);
            grid_read(&lines)
        };
        // Blurred 11s by the grid read as 0s in two of the far half's five boxes: only two of
        // them hold a number from 1 up, under the band's least share, but all four read print.
        let (_, top, left) = boxed_clues(&grid_under("..10102.01")).expect("boxed clues");
        assert_eq!((top, left), (2, 2));
        // Read blank there, those boxes leave the band too few numbers.
        assert!(boxed_clues(&grid_under("..1.1.2..1")).is_none());
    }

    /// A boxed nonogram of 8 columns and 6 rows read with two columns of row clues, under the
    /// two rows of column clues `above`.
    fn boxed_grid_under(above: [&str; 2]) -> GridRead {
        grid_read(&[
            above[0],
            above[1],
            "2.........",
            "11........",
            ".3........",
            "12........",
            ".4........",
            ".1........",
        ])
    }

    #[test]
    fn a_boxed_lines_box_read_blank_or_0_inside_its_numbers_is_read_as_its_likeliest_number() {
        let mut grid = boxed_grid_under(["....2.....", "..12312311"]);
        fn set(grid: &mut GridRead, (r, c): (usize, usize), value: CellValue, p: Option<f32>) {
            let cell = &mut grid.cells[r * grid.columns + c];
            cell.value = value;
            cell.alternatives = p.map(|p| (CellValue::Number(8), p)).into_iter().collect();
        }
        // Column 4's number next to the grid wiped with the frame but kept as the box's
        // alternative; row 5's outer number a blurred 8 read as 0; an unlikely alternative in a box
        // inside row 2's clue is no number, nor is any in a box beyond a line's outermost number.
        set(&mut grid, (1, 4), CellValue::Blank, Some(0.98));
        set(&mut grid, (5, 0), CellValue::Number(0), Some(0.59));
        set(&mut grid, (2, 1), CellValue::Blank, Some(0.05));
        set(&mut grid, (0, 3), CellValue::Blank, Some(0.9));
        let values = |line: &[ClueRead]| line.iter().map(|n| n.value).collect::<Vec<u32>>();
        let (clues, _, _) = boxed_clues(&grid).expect("boxed clues");
        assert_eq!(values(&clues.columns[2]), [2, 8]);
        assert_eq!(clues.columns[2][1].confidence, 0.98);
        assert_eq!(
            values(&clues.rows[3]),
            [2],
            "a 0 beyond the outermost number"
        );
        assert_eq!(values(&clues.rows[0]), [2]);
        assert_eq!(values(&clues.columns[1]), [2]);
        set(&mut grid, (5, 0), CellValue::Number(1), None);
        set(&mut grid, (5, 1), CellValue::Number(0), Some(0.59));
        let (clues, _, _) = boxed_clues(&grid).expect("boxed clues");
        assert_eq!(values(&clues.rows[3]), [1, 8]);
        assert_eq!(clues.rows[3][1].confidence, 0.59);
    }

    #[test]
    fn an_unsure_lone_0_by_the_grid_is_read_as_its_likeliest_number_a_sure_one_as_printed() {
        let mut grid = boxed_grid_under(["..........", "..12302311"]);
        // Column 4's only box, by the grid: an 11 whose blurred 1s ran together into a 0, the
        // 11 listed after the one-glyph readings.
        let mut lone_zero = |confidence: f32| {
            let cell = &mut grid.cells[grid.columns + 5];
            cell.confidence = confidence;
            cell.alternatives = vec![
                (CellValue::Number(9), 0.16),
                (CellValue::Number(8), 0.06),
                (CellValue::Number(11), 0.49),
            ];
            let (clues, _, _) = boxed_clues(&grid).expect("boxed clues");
            clues.columns[3].clone()
        };
        let unsure = lone_zero(0.67);
        assert_eq!(unsure.len(), 1);
        assert_eq!((unsure[0].value, unsure[0].confidence), (11, 0.49));
        assert_eq!(unsure[0].alternatives, [(9, 0.16), (8, 0.06)]);
        assert!(lone_zero(0.95).is_empty(), "an empty line's printed 0");
    }

    #[test]
    fn a_0_just_beyond_a_boxed_lines_outermost_number_is_a_number_read_unknown() {
        let mut grid = grid_read(&[
            "...2.......",
            "...12312311",
            "..2........",
            ".11........",
            "..3........",
            ".12........",
            "..4........",
            "..1........",
        ]);
        // Row 4's outer number, a bold 8 the blur filled in, read 0 at 1.00.
        let cell = &mut grid.cells[5 * grid.columns + 1];
        cell.value = CellValue::Number(0);
        cell.confidence = 1.0;
        cell.alternatives = vec![
            (CellValue::Number(6), 0.002),
            (CellValue::Number(8), 0.0007),
        ];
        let (clues, top, left) = boxed_clues(&grid).expect("boxed clues");
        assert_eq!((top, left), (2, 3));
        let row: Vec<(u32, f32)> = clues.rows[3]
            .iter()
            .map(|n| (n.value, n.confidence))
            .collect();
        assert_eq!(row[0], (6, 0.002));
        assert_eq!(row[1].0, 2);
        assert_eq!(clues.rows[3][0].alternatives, [(8, 0.0007)]);
    }

    #[test]
    fn no_band_of_boxed_clues_is_wider_than_half_the_lines_it_serves() {
        // A Sudoku's digits fallen so that its top four rows and left four columns look like
        // the clue bands of a 5x5 grid left empty; a 5-cell line holds at most 3 numbers.
        let sudoku = grid_read(&[
            "....1.2.3",
            "....4.5.6",
            ".....7.8.",
            "....9.1.2",
            "12.3.....",
            "...4.....",
            "5.6......",
            "...7.....",
            "8.9......",
        ]);
        assert!(boxed_clues(&sudoku).is_none());
    }

    #[test]
    fn row_numbers_group_digits_and_stop_at_a_wide_gap() {
        // "12" and "3" near the grid (right end), then a gap of 4 cells and stray print.
        let strip = band(&[("7", 0.5), ("12", 6.5), ("3", 7.5)], 8);
        let numbers = number_boxes(&strip, 1.0);
        assert_eq!(numbers.len(), 2, "{numbers:?}");
        assert!(numbers[0].x1 - numbers[0].x0 > numbers[1].x1 - numbers[1].x0);
        let empty = band(&[("5", 1.5)], 8);
        assert!(number_boxes(&empty, 1.0).is_empty());
    }

    /// A blob from `x0` to `x1` across and `y0` to `y1` down.
    fn blob(x0: u32, x1: u32, (y0, y1): (u32, u32)) -> Bounds {
        Bounds { x0, y0, x1, y1 }
    }

    #[test]
    fn digits_are_told_apart_by_the_photos_own_spacing_between_numbers() {
        // Blobs of a blurred photo's row bands (`hard` nonogram 17x11, seed 80003): digits 25
        // px tall in 48 px rows, the gaps between numbers narrowed to 14-19 px, under the
        // fixed share of the height (16 px) that joined "1 5" into 15 and "2 3 3" into 233.
        let digit = |x0: u32, x1: u32| blob(x0, x1, (11, 36));
        let band = GrayImage::from_pixel(610, 48, Luma([255]));
        let rows = vec![
            vec![
                digit(586, 603),
                digit(559, 572),
                digit(526, 540),
                digit(495, 509),
            ],
            vec![digit(587, 602), digit(558, 572), digit(524, 541)],
            vec![digit(586, 602), digit(557, 569), digit(525, 541)],
            vec![digit(588, 602), digit(577, 587)],
        ];
        let bands = vec![band.clone(); rows.len()];
        let spacing = number_spacing(&bands, &rows);
        assert_eq!(spacing, Some(17.0));
        let counts: Vec<usize> = rows
            .iter()
            .map(|found| row_numbers(found.clone(), &band, spacing).len())
            .collect();
        // The last row's two digits, a gap of 1 px, are one number: 14.
        assert_eq!(counts, vec![4, 3, 3, 1]);
        assert_eq!(row_numbers(rows[0].clone(), &band, None).len(), 3);
    }

    #[test]
    fn a_photos_many_two_digit_numbers_do_not_set_its_spacing() {
        // A page of 12s (serif 1 and 2 five px apart, 20 px tall): their digits are one
        // advance apart, so only the gaps between numbers (20 px) measure the spacing.
        let digit = |x0: u32, x1: u32| blob(x0, x1, (16, 36));
        let band = GrayImage::from_pixel(420, 48, Luma([255]));
        let twelve = vec![digit(401, 414), digit(388, 396)];
        let two_numbers = vec![digit(400, 414), digit(367, 380)];
        let mut rows = vec![twelve.clone(); 8];
        rows.extend(vec![two_numbers.clone(); 5]);
        let bands = vec![band.clone(); rows.len()];
        let spacing = number_spacing(&bands, &rows);
        assert_eq!(spacing, Some(20.0));
        assert_eq!(row_numbers(twelve, &band, spacing).len(), 1);
        assert_eq!(row_numbers(two_numbers, &band, spacing).len(), 2);
    }

    #[test]
    fn a_number_touching_a_rule_at_the_grid_end_is_kept() {
        // "4 4 6" with a rule down the band's last pixels, broken as a faint rule is, and
        // blurred into the 6 below the break: the 6 and the lower piece made one blob too tall
        // for a digit.
        let mut strip = band(&[("4", 5.9), ("4", 6.8), ("6", 7.75)], 8);
        let (w, h) = strip.dimensions();
        let six_right = (0..w)
            .rev()
            .find(|&x| (0..h).any(|y| strip.get_pixel(x, y).0[0] < 128))
            .expect("the 6 is printed");
        for y in (0..h).filter(|y| !(20..26).contains(y)) {
            let from = if (28..31).contains(&y) {
                six_right
            } else {
                six_right + 2
            };
            for x in from..w {
                strip.put_pixel(x, y, image::Luma([20]));
            }
        }
        let numbers = number_boxes(&strip, 1.0);
        assert_eq!(numbers.len(), 3, "{numbers:?}");
        let heights: Vec<u32> = numbers.iter().map(|n| n.y1 - n.y0).collect();
        assert!(
            heights.iter().max() <= Some(&(heights[0] + 2)),
            "{numbers:?}"
        );
    }

    #[test]
    fn a_title_printed_larger_does_not_hide_the_clues_beside_it() {
        // A column band holding two clue digits near the grid and, far out, two title letters
        // twice as tall: in that band alone the letters are half the blobs.
        let digit = |y: u32| Bounds {
            x0: 18,
            y0: y,
            x1: 30,
            y1: y + 19,
        };
        let letter = |x: u32| Bounds {
            x0: x,
            y0: 20,
            x1: x + 20,
            y1: 62,
        };
        let title_band = vec![letter(0), letter(24), digit(410), digit(448)];
        let others: Vec<Vec<Bounds>> = (0..5).map(|_| vec![digit(448)]).collect();
        let typical = typical_height(std::iter::once(&title_band).chain(&others));
        assert_eq!(typical, 19);
        let kept = digit_sized(title_band, typical);
        assert_eq!(kept, vec![digit(410), digit(448)]);
    }

    #[test]
    fn a_column_band_ends_at_print_running_from_side_to_side() {
        // Blobs of a generated photo's column band (48 px a cell): three clue numbers in the
        // band's middle by the grid, then lines of a paragraph printed close above the clues
        // (and one of its words' ends, off to one side, past a gap).
        let band = GrayImage::from_pixel(48, 859, Luma([255]));
        let clues = vec![
            blob(17, 30, (747, 768)),
            blob(18, 31, (785, 805)),
            blob(19, 27, (822, 843)),
        ];
        let mut found = clues.clone();
        found.extend([blob(0, 48, (710, 731)), blob(0, 33, (672, 694))]);
        assert_eq!(column_numbers(found, &band), clues);
        // A two-digit number reaching one side only stays: the lattice may sit a little off.
        let mut found = clues.clone();
        found.push(blob(0, 30, (710, 731)));
        assert_eq!(column_numbers(found, &band).len(), 4);
    }

    #[test]
    fn faint_numbers_are_found_in_a_band_running_off_the_page() {
        // A row band of faint print (ink 25% darker than the paper) whose far end runs off the
        // page onto a dark table and off the photo (white): one Otsu split over the whole band
        // lies at the table's edge, above the digits.
        let mut strip = band(&[("2", 12.5), ("5", 13.5), ("5", 14.5), ("1", 15.5)], 16);
        for (x, _, pixel) in strip.enumerate_pixels_mut() {
            pixel.0[0] = if x < PIXELS {
                255
            } else if x < 4 * PIXELS {
                60
            } else {
                (200.0 - f32::from(240 - pixel.0[0]) * 0.25) as u8
            };
        }
        let numbers = number_boxes(&strip, 0.3);
        assert_eq!(numbers.len(), 4, "{numbers:?}");
    }

    #[test]
    fn reads_the_numbers_of_a_printed_band() {
        let strip = band(&[("4", 4.5), ("10", 5.5), ("2", 6.5), ("9", 7.5)], 8);
        let levels = Levels {
            paper: 240.0,
            ink: 1.0,
        };
        assert_eq!(band_numbers(&strip, levels), vec![4, 10, 2, 9]);
    }
}
