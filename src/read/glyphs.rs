//! Finds the printed glyphs in one grid cell and normalises each for the digit classifier.
//!
//! Input is a grayscale crop of a single cell (resampled square from a photo, grid lines mostly
//! cut off). The steps: decide whether the cell is a filled black given; flatten uneven light by
//! dividing by a local paper estimate; binarise (Otsu, with a floor so paper noise is never ink);
//! wipe grid-line slivers at the border; label connected components; drop specks and line
//! remnants; group the rest into glyphs left to right (splitting blobs too wide for one digit);
//! and scale each glyph's box to fit [`BOX`]x[`BOX`], centred by mass in [`SIDE`]x[`SIDE`], in
//! shades of its ink's darkness rather than ink or not.
//! For crops reaching past a clue's box, [`without_thin_ink_off_the_digits`] first paints over
//! the pieces of box line left above or below the digits.
//!
//! Training data goes through this same code (see `synth`), so train and run time see the same
//! normalisation. It does not classify glyphs, find the grid, or know what a puzzle is; a cell
//! crop much smaller than [`MIN_CELL`] pixels reads as blank.

use image::GrayImage;

/// Side of a normalised glyph image.
pub const SIDE: usize = 28;
/// Side of the box a glyph's ink is scaled to fit inside, keeping its aspect.
pub const BOX: usize = 20;
/// Smallest cell side (pixels) that is read at all; below it nothing legible fits.
pub const MIN_CELL: u32 = 10;

/// A glyph's ink box in the cell crop's pixels; the max sides are exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// One glyph ready for the classifier: ink darkness 0..1 (1 as dark as its strokes) on a
/// [`SIDE`]x[`SIDE`] grid, row-major, and where the glyph sat in the cell.
#[derive(Debug, Clone, PartialEq)]
pub struct NormalisedGlyph {
    pub pixels: Vec<f32>,
    pub bounds: Bounds,
}

/// What a cell holds.
#[derive(Debug, Clone, PartialEq)]
pub enum CellContent {
    /// Paper only (specks and grid-line remnants are ignored).
    Blank,
    /// Mostly ink: a cell printed black.
    Black,
    /// Glyphs, left to right.
    Glyphs(Vec<NormalisedGlyph>),
}

/// Share of the cell's centre that must be dark for a filled cell; a bold digit covers well
/// under half of it.
const BLACK_SHARE: f32 = 0.6;
/// A pixel is ink when it is at least this much darker than the local paper (relative), even if
/// Otsu picks a lower split: a blank cell's noise must not become ink.
const MIN_CONTRAST: f32 = 0.25;
/// In a faint photo (dim, defocused: digits only 15-25% darker than the paper) the floor drops
/// to this share of the page's typical ink darkness, see [`ink_darkness`], but never below
/// [`FAINT_CONTRAST`], under which paper texture and JPEG noise would become ink.
const FAINT_SHARE: f32 = 0.45;
const FAINT_CONTRAST: f32 = 0.12;
/// Otsu's split is capped here so that faint, blurred strokes next to dark ones survive.
const MAX_THRESHOLD: f32 = 0.55;
/// The smallest glyph height, as a share of the cell side.
const MIN_GLYPH_HEIGHT: f32 = 0.18;
/// The widest a blob of ink may be and still be read as one digit, in tenths of its height: a
/// wider one is cut at its thinnest columns into as many digits as its width holds. Kept in
/// tenths so the comparison is exact in integers.
pub const WIDEST_DIGIT_TENTHS: u32 = 12;

/// Reads one cell crop, judging dark cells against the crop's own brightest paper (or a dim
/// default when the crop has none). See [`read_cell_with_paper`] when the caller knows the
/// page's paper level.
pub fn read_cell(cell: &GrayImage) -> CellContent {
    let brightest = percentile(cell.as_raw(), 0.95);
    read_cell_with_paper(cell, brightest.max(120.0))
}

/// Reads one cell crop; `paper` is the gray level of blank paper near the cell (0..255), which
/// tells a black given from a blank cell when the whole crop is one flat tone.
pub fn read_cell_with_paper(cell: &GrayImage, paper: f32) -> CellContent {
    read_cell_with_levels(cell, paper, 1.0)
}

/// How dark a cell's darkest ink is against its paper (0..1): a high percentile of the
/// flattened darkness, so a few noisy pixels do not count. Over a whole grid, the cells with
/// digits tell how strongly this photo shows ink at all.
pub fn ink_darkness(cell: &GrayImage) -> f32 {
    peak_darkness(&flattened(cell))
}

/// [`ink_darkness`] of a crop whose [`flattened`] darkness is given.
pub fn peak_darkness(flattened: &[f32]) -> f32 {
    if flattened.is_empty() {
        return 0.0;
    }
    let mut darkness = flattened.to_vec();
    let index = darkness.len() * 99 / 100;
    *darkness.select_nth_unstable_by(index, f32::total_cmp).1
}

/// A crop's ink darkness relative to its local paper, 0..1 per pixel (empty for a crop under
/// [`MIN_CELL`]): worked out once, it serves both [`peak_darkness`] and [`read_flattened`].
pub fn flattened(cell: &GrayImage) -> Vec<f32> {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    if cell.width().min(cell.height()) < MIN_CELL {
        return Vec::new();
    }
    flattened_darkness(cell.as_raw(), w, h, w.min(h) as f32)
}

/// Reads one cell crop as [`read_cell_with_paper`] does, in a photo whose digits are `ink` dark
/// (see [`ink_darkness`]; 1 for full contrast): fainter ink lowers the least contrast that
/// counts as ink.
pub fn read_cell_with_levels(cell: &GrayImage, paper: f32, ink: f32) -> CellContent {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    if cell.width().min(cell.height()) < MIN_CELL {
        return CellContent::Blank;
    }
    if is_black(cell.as_raw(), w, h, paper) {
        return CellContent::Black;
    }
    read_flattened(cell, &flattened(cell), paper, ink)
}

/// [`read_cell_with_levels`] of a crop whose [`flattened`] darkness is given.
pub fn read_flattened(cell: &GrayImage, darkness: &[f32], paper: f32, ink: f32) -> CellContent {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    if cell.width().min(cell.height()) < MIN_CELL || darkness.len() != w * h {
        return CellContent::Blank;
    }
    if is_black(cell.as_raw(), w, h, paper) {
        return CellContent::Black;
    }
    find_glyphs(cell, darkness, ink)
}

/// The glyphs of a crop whose [`flattened`] darkness is given, without first asking whether
/// the cell is a black given: a cell in deep shadow is darker than the page's paper all over,
/// yet its digit still stands out against its own paper.
pub fn find_glyphs(cell: &GrayImage, darkness: &[f32], ink: f32) -> CellContent {
    find_glyphs_cut_wider_than(cell, darkness, ink, WIDEST_DIGIT_TENTHS)
}

/// [`find_glyphs`], with blobs cut into digits once they are wider than `widest_tenths` tenths
/// of their height instead of [`WIDEST_DIGIT_TENTHS`]: for a second look at a crop where two
/// narrow digits printed close together may have run into one blob.
pub fn find_glyphs_cut_wider_than(
    cell: &GrayImage,
    darkness: &[f32],
    ink: f32,
    widest_tenths: u32,
) -> CellContent {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    if cell.width().min(cell.height()) < MIN_CELL || darkness.len() != w * h {
        return CellContent::Blank;
    }
    glyphs_above(w, h, darkness, ink_floor(ink), widest_tenths)
}

/// The sides of the crop (left, top, right, bottom) that a glyph runs off: ink reaching from
/// the border well into the cell, as when the lattice sits off the printed grid and cuts a
/// digit in two. Grid-line slivers along the border do not count.
pub fn cut_sides(cell: &GrayImage, darkness: &[f32], ink: f32) -> [bool; 4] {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    let mut sides = [false; 4];
    if cell.width().min(cell.height()) < MIN_CELL || darkness.len() != w * h {
        return sides;
    }
    let side = w.min(h) as f32;
    let mask = border_cleared_ink(w, h, darkness, ink_split(darkness, ink));
    let inset = ((side / 7.0).round() as usize).max(1);
    for component in components(&mask, w, h) {
        let b = component.bounds;
        let inside = component
            .pixels
            .iter()
            .filter(|&&i| {
                let (x, y) = (i % w, i / w);
                x >= inset && y >= inset && x + inset < w && y + inset < h
            })
            .count();
        if (inside as f32) < side * side / 150.0 || !plausible_part(&component, w, h, side) {
            continue;
        }
        let touching = [b.x0 == 0, b.y0 == 0, b.x1 as usize == w, b.y1 as usize == h];
        for (cut, touches) in sides.iter_mut().zip(touching) {
            *cut |= touches;
        }
    }
    sides
}

/// Whether ink cut on the `cut` sides (see [`cut_sides`]) stands off the crop's centre: cut on
/// some side, and not on two opposite ones (ink cut so is too big for the cell, not off it).
pub fn cut_off_centre(cut: [bool; 4]) -> bool {
    cut.contains(&true) && !(cut[0] && cut[2]) && !(cut[1] && cut[3])
}

/// The least contrast [`find_faint_glyph`] takes for ink.
const FAINTEST_CONTRAST: f32 = 0.05;

/// The one glyph of a crop whose [`flattened`] darkness is given, with ink taken down to a
/// contrast at which paper texture and JPEG noise in most cells become ink too: for a second
/// look at a cell that reads blank, in case glare has washed out its digit. `None` unless
/// exactly one glyph shows (several are noise, and are not worth normalising).
pub fn find_faint_glyph(cell: &GrayImage, darkness: &[f32]) -> Option<NormalisedGlyph> {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    if cell.width().min(cell.height()) < MIN_CELL || darkness.len() != w * h {
        return None;
    }
    match glyph_parts(w, h, darkness, FAINTEST_CONTRAST, WIDEST_DIGIT_TENTHS).as_slice() {
        [glyph] => Some(normalise(glyph, w, darkness)),
        _ => None,
    }
}

/// The glyphs in a `w` x `h` crop's `darkness`, ink being darker than Otsu's split but no
/// fainter than `floor`, blobs wider than `widest_tenths` tenths of their height cut.
fn glyphs_above(
    w: usize,
    h: usize,
    darkness: &[f32],
    floor: f32,
    widest_tenths: u32,
) -> CellContent {
    content(
        &glyph_parts(w, h, darkness, floor, widest_tenths),
        w,
        darkness,
    )
}

/// A crop `w` pixels wide, of ink `darkness`, holding `glyphs`: blank without any, else each
/// normalised.
fn content(glyphs: &[GlyphParts], w: usize, darkness: &[f32]) -> CellContent {
    if glyphs.is_empty() {
        return CellContent::Blank;
    }
    CellContent::Glyphs(
        glyphs
            .iter()
            .map(|glyph| normalise(glyph, w, darkness))
            .collect(),
    )
}

/// The ink of each glyph in a `w` x `h` crop's `darkness`, as [`glyphs_above`] finds them.
fn glyph_parts(
    w: usize,
    h: usize,
    darkness: &[f32],
    floor: f32,
    widest_tenths: u32,
) -> Vec<GlyphParts> {
    let threshold = otsu(darkness).clamp(floor, MAX_THRESHOLD);
    glyph_parts_at(w, h, darkness, threshold, widest_tenths)
}

/// The glyphs of a crop whose [`flattened`] darkness is given, ink being darker than `split`
/// (contrast against the paper, 0..1) instead of Otsu's split: for reading print again where
/// one split does not suit every stroke, as when blur leaves a serif digit's thin arms far
/// fainter than its stem. Blobs wider than `widest_tenths` tenths of their height are cut (see
/// [`WIDEST_DIGIT_TENTHS`]).
pub fn find_glyphs_split_at(
    cell: &GrayImage,
    darkness: &[f32],
    split: f32,
    widest_tenths: u32,
) -> CellContent {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    if cell.width().min(cell.height()) < MIN_CELL || darkness.len() != w * h {
        return CellContent::Blank;
    }
    content(
        &glyph_parts_at(w, h, darkness, split, widest_tenths),
        w,
        darkness,
    )
}

/// The least contrast taken for ink on a page whose typical ink darkness is `ink` (see
/// [`FAINT_SHARE`]).
fn ink_floor(ink: f32) -> f32 {
    (FAINT_SHARE * ink).clamp(FAINT_CONTRAST, MIN_CONTRAST)
}

/// Otsu's split of a crop's `darkness`, no lower than the page's [`ink_floor`].
fn ink_split(darkness: &[f32], ink: f32) -> f32 {
    otsu(darkness).clamp(ink_floor(ink), MAX_THRESHOLD)
}

/// The ink of a `w` x `h` crop's `darkness` (darker than `threshold`), with the grid-line
/// slivers along its border wiped (see [`clear_border_lines`]).
fn border_cleared_ink(w: usize, h: usize, darkness: &[f32], threshold: f32) -> Vec<bool> {
    let mut ink: Vec<bool> = darkness.iter().map(|&d| d > threshold).collect();
    clear_border_lines(&mut ink, w, h);
    ink
}

/// The ink of each glyph in a `w` x `h` crop's `darkness`, ink being darker than `threshold`,
/// blobs wider than `widest_tenths` tenths of their height cut.
fn glyph_parts_at(
    w: usize,
    h: usize,
    darkness: &[f32],
    threshold: f32,
    widest_tenths: u32,
) -> Vec<GlyphParts> {
    let side = w.min(h) as f32;
    let mut ink = border_cleared_ink(w, h, darkness, threshold);
    let components = kept_components(&mut ink, w, h, side);
    group_glyphs(components, &ink, w, side, widest_tenths)
}

/// How far past the rows of a crop's digits' thick strokes their thin ink may reach (a serif, a
/// hairline bar, a blurred tip), as a share of the crop's side.
const THIN_INK_REACH: f32 = 0.04;

/// `cell` with the ink lying above or below its digits that is no part of them painted over as
/// paper: the remnant of a box line the lattice sits a little off, too deep in the crop to be
/// wiped at its border, which would join a digit's blob and stretch its bounds (a boxed "20"
/// with a sliver of the box's left line read as one tall blob, an 8; a 1 under a piece of the
/// box's top line read as 3). The digits are told by their thick strokes (the ink left after
/// one-pixel strokes are opened away): the blobs at least half as tall as the tallest, and short
/// ones within their columns (a 2's foot). Ink more than [`THIN_INK_REACH`] above or below
/// those strokes' rows is painted when it is thin, or part of a piece running on past the
/// digits' columns (a thick line). A crop whose digits show no thick stroke is left as it is.
pub fn without_thin_ink_off_the_digits(cell: &GrayImage, darkness: &[f32], ink: f32) -> GrayImage {
    let (w, h) = (cell.width() as usize, cell.height() as usize);
    let mut painted = cell.clone();
    if cell.width().min(cell.height()) < MIN_CELL || darkness.len() != w * h {
        return painted;
    }
    let side = w.min(h) as f32;
    let mut mask = border_cleared_ink(w, h, darkness, ink_split(darkness, ink));
    let mut kept = vec![false; w * h];
    for component in kept_components(&mut mask, w, h, side) {
        for i in component.pixels {
            kept[i] = true;
        }
    }
    let thick = opened(&kept, w, h);
    let blobs = components(&thick, w, h);
    let Some(tallest) = blobs.iter().map(Component::height).max() else {
        return painted;
    };
    let tall: Vec<&Component> = blobs.iter().filter(|b| b.height() * 2 >= tallest).collect();
    let left = tall.iter().map(|b| b.bounds.x0).min().unwrap_or(0);
    let right = tall.iter().map(|b| b.bounds.x1).max().unwrap_or(0);
    let within = |b: Bounds| b.x0 >= left && b.x1 <= right;
    // A short thick stroke within the tall strokes' columns is the digits' too (a 2's foot, its
    // thin neck opened away), unless no thicker than a line's piece; a thick piece of box line
    // runs on past them.
    let stroke = (tallest / 12).max(3);
    let digits: Vec<&Component> = blobs
        .iter()
        .filter(|b| within(b.bounds) && b.height() >= stroke)
        .collect();
    let mut in_digits = vec![false; w * h];
    for blob in &digits {
        for &i in &blob.pixels {
            in_digits[i] = true;
        }
    }
    let top = digits.iter().map(|b| b.bounds.y0).min().unwrap_or(0) as usize;
    let bottom = digits.iter().map(|b| b.bounds.y1).max().unwrap_or(0) as usize;
    let reach = (THIN_INK_REACH * side).round() as usize;
    let off = |y: usize| y + reach < top || y >= bottom + reach;
    let mut past_digits = vec![false; w * h];
    for piece in components(&kept, w, h) {
        if !within(piece.bounds) {
            for i in piece.pixels {
                past_digits[i] = true;
            }
        }
    }
    let paper = percentile(cell.as_raw(), 0.9) as u8;
    let remnant =
        |i: usize| kept[i] && !in_digits[i] && off(i / w) && (!thick[i] || past_digits[i]);
    for i in (0..w * h).filter(|&i| remnant(i)) {
        let (x, y) = (i % w, i / w);
        // The stroke's blurred edge, fainter than the split, goes with it.
        for ny in y.saturating_sub(1)..(y + 2).min(h) {
            for nx in x.saturating_sub(1)..(x + 2).min(w) {
                if !in_digits[ny * w + nx] {
                    painted.as_mut()[ny * w + nx] = paper;
                }
            }
        }
    }
    painted
}

/// `ink` opened by a 2x2 square: without the strokes one pixel thin.
fn opened(ink: &[bool], w: usize, h: usize) -> Vec<bool> {
    let square = |x: usize, y: usize| {
        x + 1 < w && y + 1 < h && [0, 1, w, w + 1].iter().all(|&d| ink[y * w + x + d])
    };
    let eroded: Vec<bool> = (0..w * h).map(|i| square(i % w, i / w)).collect();
    (0..w * h)
        .map(|i| {
            let (x, y) = (i % w, i / w);
            (y.saturating_sub(1)..=y)
                .any(|ny| (x.saturating_sub(1)..=x).any(|nx| eroded[ny * w + nx]))
        })
        .collect()
}

/// The boxes of the ink blobs in a strip of print outside any cell (a nonogram's clue band),
/// binarised as cells are (flattened light, Otsu with the `ink`-dependent floor) but with no
/// grid lines to wipe. Specks smaller than `min_area` pixels are left out. Otsu's split is taken
/// piece by piece along the strip, each piece [`STRIP_PIECE`] times as long as the strip is
/// wide: a strip running off the page onto a dark table, or over a heavy frame, has an edge far
/// darker than its print, and one split over it all would lie above faint digits elsewhere.
pub fn ink_boxes(strip: &GrayImage, ink: f32, min_area: usize) -> Vec<Bounds> {
    let (w, h) = (strip.width() as usize, strip.height() as usize);
    if w.min(h) < 2 {
        return Vec::new();
    }
    let darkness = flattened_darkness(strip.as_raw(), w, h, w.min(h) as f32);
    let floor = ink_floor(ink);
    let along_x = w >= h;
    let (length, piece) = if along_x {
        (w, h * STRIP_PIECE)
    } else {
        (h, w * STRIP_PIECE)
    };
    let at = |position: usize| position / piece;
    let thresholds: Vec<f32> = (0..length.div_ceil(piece))
        .map(|k| {
            let span = k * piece..((k + 1) * piece).min(length);
            let values: Vec<f32> = if along_x {
                (0..h)
                    .flat_map(|y| {
                        darkness[y * w + span.start..y * w + span.end]
                            .iter()
                            .copied()
                    })
                    .collect()
            } else {
                darkness[span.start * w..span.end * w].to_vec()
            };
            otsu(&values).clamp(floor, MAX_THRESHOLD)
        })
        .collect();
    let mask: Vec<bool> = darkness
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let position = if along_x { i % w } else { i / w };
            d > thresholds[at(position)]
        })
        .collect();
    components(&mask, w, h)
        .into_iter()
        .filter(|c| c.pixels.len() >= min_area)
        .map(|c| c.bounds)
        .collect()
}

/// How many times as long as the strip is wide each piece of a clue strip binarised on its own
/// is (see [`ink_boxes`]).
const STRIP_PIECE: usize = 2;

/// The middle of `values` (the upper middle of an even count), leaving them sorted. Panics
/// when there are none.
pub fn median(values: &mut [f32]) -> f32 {
    values.sort_by(f32::total_cmp);
    values[values.len() / 2]
}

/// The value below which `share` of the pixels fall.
pub fn percentile(values: &[u8], share: f32) -> f32 {
    histogram_percentile(&level_counts(values), share)
}

/// The value at `rank` (from 0) among `values` sorted, as `select_nth_unstable` finds it, by
/// counting each level: several times as fast on the few dozen to few hundred pixels of a
/// cell's line, which the rule finder ranks by the thousand on every lattice read. Panics
/// when `rank` is not below the count.
pub fn value_at_rank(values: &[u8], rank: usize) -> u8 {
    level_at_rank(&level_counts(values), rank)
        .unwrap_or_else(|| panic!("rank {rank} of {} values", values.len()))
}

/// How many of `values` are at each level.
fn level_counts(values: &[u8]) -> [usize; 256] {
    let mut histogram = [0usize; 256];
    for &v in values {
        histogram[usize::from(v)] += 1;
    }
    histogram
}

/// The level below which `share` of the pixels counted in `histogram` (one count per level)
/// fall; 255 when it counts none.
pub fn histogram_percentile(histogram: &[usize; 256], share: f32) -> f32 {
    let wanted = (histogram.iter().sum::<usize>() as f32 * share) as usize;
    level_at_rank(histogram, wanted).map_or(255.0, f32::from)
}

/// The level of the pixel at `rank` (from 0) among those `histogram` counts, sorted; `None`
/// when it counts no more than `rank`.
fn level_at_rank(histogram: &[usize; 256], rank: usize) -> Option<u8> {
    let mut seen = 0;
    let level = histogram.iter().position(|&count| {
        seen += count;
        seen > rank
    })?;
    Some(level as u8)
}

/// True when the centre of the cell is mostly far darker than paper.
fn is_black(values: &[u8], w: usize, h: usize, paper: f32) -> bool {
    let (mx, my) = (w / 5, h / 5);
    let mut dark = 0usize;
    let mut total = 0usize;
    for y in my..h - my {
        for x in mx..w - mx {
            total += 1;
            if f32::from(values[y * w + x]) < 0.5 * paper {
                dark += 1;
            }
        }
    }
    total > 0 && dark as f32 > BLACK_SHARE * total as f32
}

/// Ink darkness 0..1 relative to the local paper: the paper is a max filter wide enough to step
/// over any stroke, smoothed by a box filter, so gradients and shadows divide out. Both filters
/// are square windows of `radius` either side, cut at the edges, and kept in integers, which
/// makes the result the same for a crop turned by quarter turns.
fn flattened_darkness(values: &[u8], w: usize, h: usize, side: f32) -> Vec<f32> {
    if w == 0 || values.len() != w * h {
        return vec![0.0; values.len()];
    }
    let radius = ((side / 8.0).round() as usize).max(2);
    let sums = box_sums(&max_filter(values, w, h, radius), w, h, radius);
    let span = |i: usize, n: usize| ((i + radius + 1).min(n) - i.saturating_sub(radius)) as f32;
    let columns: Vec<f32> = (0..w).map(|x| span(x, w)).collect();
    let mut darkness = vec![0.0; values.len()];
    for (y, out) in darkness.chunks_exact_mut(w).enumerate() {
        let rows = span(y, h);
        let line = &values[y * w..][..w];
        let paper = &sums[y * w..][..w];
        for (((d, &v), &total), &across) in out.iter_mut().zip(line).zip(paper).zip(&columns) {
            let p = total as f32 / (rows * across);
            *d = ((p - f32::from(v)) / p.max(8.0)).clamp(0.0, 1.0);
        }
    }
    darkness
}

/// The maximum of each pixel's window of `radius` either side, cut at the edges: along rows
/// (the row padded with zeros, which no maximum notices), then down columns, whole rows at a
/// time so both passes vectorise.
fn max_filter(values: &[u8], w: usize, h: usize, radius: usize) -> Vec<u8> {
    let mut rows = vec![0u8; values.len()];
    let mut padded = vec![0u8; w + 2 * radius];
    for (line, out) in values.chunks_exact(w).zip(rows.chunks_exact_mut(w)) {
        padded[radius..radius + w].copy_from_slice(line);
        for d in 0..=2 * radius {
            for (o, &v) in out.iter_mut().zip(&padded[d..]) {
                *o = (*o).max(v);
            }
        }
    }
    let mut out = vec![0u8; values.len()];
    for (y, target) in out.chunks_exact_mut(w).enumerate() {
        let window = &rows[y.saturating_sub(radius) * w..(y + radius + 1).min(h) * w];
        for line in window.chunks_exact(w) {
            for (t, &v) in target.iter_mut().zip(line) {
                *t = (*t).max(v);
            }
        }
    }
    out
}

/// The sum of each pixel's window of `radius` either side, cut at the edges: running sums along
/// each row, then running sums of whole rows down the columns (vectorised), all in integers.
fn box_sums(values: &[u8], w: usize, h: usize, radius: usize) -> Vec<u32> {
    let mut rows = vec![0u32; values.len()];
    for (line, out) in values.chunks_exact(w).zip(rows.chunks_exact_mut(w)) {
        let mut sum: u32 = line[..radius.min(w)].iter().map(|&v| u32::from(v)).sum();
        for (x, slot) in out.iter_mut().enumerate() {
            if let Some(&entering) = line.get(x + radius) {
                sum += u32::from(entering);
            }
            if x > radius {
                sum -= u32::from(line[x - radius - 1]);
            }
            *slot = sum;
        }
    }
    let mut out = vec![0u32; values.len()];
    let mut running = vec![0u32; w];
    let (mut top, mut bottom) = (0, 0); // rows in the running sums: top..bottom
    for (y, target) in out.chunks_exact_mut(w).enumerate() {
        while bottom < (y + radius + 1).min(h) {
            running
                .iter_mut()
                .zip(&rows[bottom * w..][..w])
                .for_each(|(r, &v)| *r += v);
            bottom += 1;
        }
        while top < y.saturating_sub(radius) {
            running
                .iter_mut()
                .zip(&rows[top * w..][..w])
                .for_each(|(r, &v)| *r -= v);
            top += 1;
        }
        target.copy_from_slice(&running);
    }
    out
}

/// Otsu's threshold over values in 0..1 (64 bins).
fn otsu(values: &[f32]) -> f32 {
    const BINS: usize = 64;
    // Counted in integers (exact in f64 too, so the split is the same), which spares a chain
    // of floating-point additions on the same bin.
    let mut counts = [0u32; BINS];
    for &v in values {
        counts[((v * BINS as f32) as usize).min(BINS - 1)] += 1;
    }
    let histogram = counts.map(f64::from);
    let total: f64 = histogram.iter().sum();
    let sum_all: f64 = histogram
        .iter()
        .enumerate()
        .map(|(i, c)| i as f64 * c)
        .sum();
    let (mut weight_low, mut sum_low) = (0.0, 0.0);
    let (mut best, mut best_split) = (-1.0, 0);
    for (i, count) in histogram.iter().enumerate() {
        weight_low += count;
        sum_low += i as f64 * count;
        let weight_high = total - weight_low;
        if weight_low == 0.0 || weight_high == 0.0 {
            continue;
        }
        let mean_low = sum_low / weight_low;
        let mean_high = (sum_all - sum_low) / weight_high;
        let between = weight_low * weight_high * (mean_low - mean_high).powi(2);
        if between > best {
            best = between;
            best_split = i;
        }
    }
    (best_split + 1) as f32 / BINS as f32
}

/// Wipes rows and columns near the border that are mostly ink: grid-line slivers, which would
/// otherwise join a digit standing close to the line. A line a degree or two off square spreads
/// over neighbouring rows, so a row's cover counts ink in the row or either neighbour, and the
/// three rows go together.
fn clear_border_lines(ink: &mut [bool], w: usize, h: usize) {
    let covered = |ink: &[bool], horizontal: bool, k: usize| {
        let (length, across) = if horizontal { (w, h) } else { (h, w) };
        let at = |along: usize, line: usize| {
            if horizontal {
                ink[line * w + along]
            } else {
                ink[along * w + line]
            }
        };
        let lines = k.saturating_sub(1)..(k + 2).min(across);
        (0..length)
            .filter(|&along| lines.clone().any(|line| at(along, line)))
            .count()
            * 10
            > length * 7
    };
    for horizontal in [true, false] {
        let across = if horizontal { h } else { w };
        let depth = (across / 6).max(1);
        let hits: Vec<usize> = (0..depth)
            .chain(across - depth..across)
            .filter(|&k| covered(ink, horizontal, k))
            .collect();
        for k in hits {
            for line in k.saturating_sub(1)..(k + 2).min(across) {
                if horizontal {
                    ink[line * w..(line + 1) * w].fill(false);
                } else {
                    for y in 0..h {
                        ink[y * w + line] = false;
                    }
                }
            }
        }
    }
}

/// A connected blob of ink: its pixel indices and box.
#[derive(Debug, Clone)]
struct Component {
    pixels: Vec<usize>,
    bounds: Bounds,
}

impl Component {
    fn width(&self) -> u32 {
        self.bounds.x1 - self.bounds.x0
    }
    fn height(&self) -> u32 {
        self.bounds.y1 - self.bounds.y0
    }
}

/// The components of `ink` that may be part of a glyph. Blobs touching the border are line
/// remnants unless they reach into the cell's interior; if they do (a digit run into a line, or
/// a digit cut by the crop), only their part in the border strip is wiped.
fn kept_components(ink: &mut [bool], w: usize, h: usize, side: f32) -> Vec<Component> {
    let inset = ((side / 7.0).round() as usize).max(1);
    let interior = |i: usize| {
        let (x, y) = (i % w, i / w);
        x >= inset && y >= inset && x + inset < w && y + inset < h
    };
    for component in components(ink, w, h) {
        let b = component.bounds;
        if !(b.x0 == 0 || b.y0 == 0 || b.x1 as usize == w || b.y1 as usize == h) {
            continue;
        }
        let inside = component.pixels.iter().filter(|&&i| interior(i)).count();
        let keep_inside = inside as f32 >= side * side / 150.0;
        for &i in &component.pixels {
            if !keep_inside || !interior(i) {
                ink[i] = false;
            }
        }
    }
    let (slivers, solid): (Vec<Component>, Vec<Component>) = components(ink, w, h)
        .into_iter()
        .filter(|c| plausible_part(c, w, h, side))
        .partition(|c| is_sliver(c, w, h, side));
    // A thin straight stroke by the border is a "1" only when it stands level with the other
    // glyphs and as tall; alone it is a piece of grid line (blank cells are far commoner than
    // a lone "1" printed against the line).
    let Some(tallest) = solid.iter().max_by_key(|c| c.height()) else {
        return Vec::new();
    };
    let band = (tallest.bounds.y0, tallest.bounds.y1);
    let level = |c: &Component| {
        let overlap = c
            .bounds
            .y1
            .min(band.1)
            .saturating_sub(c.bounds.y0.max(band.0));
        c.height() * 5 >= tallest.height() * 4 && overlap * 10 >= c.height() * 7
    };
    let kept_slivers: Vec<Component> = slivers.into_iter().filter(level).collect();
    solid.into_iter().chain(kept_slivers).collect()
}

/// A thin straight stroke lying by a border it runs along: a grid-line piece or a "1".
fn is_sliver(c: &Component, w: usize, h: usize, side: f32) -> bool {
    let b = c.bounds;
    let near = (side / 8.0).max(2.0) as u32;
    let (bw, bh) = (c.width() as f32, c.height() as f32);
    let area = c.pixels.len() as f32;
    let straight_thin = |length: f32, across: f32| {
        length >= 0.15 * side && area / length <= side / 7.0 && across <= 0.3 * length
    };
    let near_side = b.x0 <= near || b.x1 + near >= w as u32;
    let near_top = b.y0 <= near || b.y1 + near >= h as u32;
    (near_side && straight_thin(bh, bw)) || (near_top && straight_thin(bw, bh))
}

/// The 8-connected components of `ink`, in the order of their first pixel.
fn components(ink: &[bool], w: usize, h: usize) -> Vec<Component> {
    // Ink not yet reached: one look per neighbour, and positions carried as (x, y) so no pixel
    // but a component's first is divided by the width.
    let mut open = ink.to_vec();
    let mut found = Vec::new();
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for start in 0..open.len() {
        if !open[start] {
            continue;
        }
        open[start] = false;
        let (sx, sy) = (start % w, start / w);
        stack.push((sx, sy));
        let mut pixels = Vec::new();
        let (mut x0, mut y0, mut x1, mut y1) = (sx, sy, sx + 1, sy + 1);
        while let Some((x, y)) = stack.pop() {
            pixels.push(y * w + x);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
            let (left, right) = (x.saturating_sub(1), (x + 1).min(w - 1));
            for ny in y.saturating_sub(1)..(y + 2).min(h) {
                let row = &mut open[ny * w..][..w];
                for (nx, unreached) in row[left..=right].iter_mut().enumerate() {
                    if *unreached {
                        *unreached = false;
                        stack.push((left + nx, ny));
                    }
                }
            }
        }
        found.push(Component {
            pixels,
            bounds: Bounds {
                x0: x0 as u32,
                y0: y0 as u32,
                x1: x1 as u32,
                y1: y1 as u32,
            },
        });
    }
    found
}

/// False for specks and line remnants: thin blobs running most of the way across the cell, and
/// small blobs in contact with the border (line crossings). Slivers by the border are judged
/// later, against the other glyphs.
fn plausible_part(c: &Component, w: usize, h: usize, side: f32) -> bool {
    let area = c.pixels.len() as f32;
    if area < (side * side / 500.0).max(3.0) {
        return false;
    }
    let b = c.bounds;
    let (bw, bh) = (c.width() as f32, c.height() as f32);
    if bw.max(bh) >= 0.8 * side && area / bw.max(bh) <= side / 7.0 {
        return false;
    }
    let touches = b.x0 == 0 || b.y0 == 0 || b.x1 as usize == w || b.y1 as usize == h;
    !(touches && area < side * side / 60.0)
}

/// A glyph's own ink pixels (indices into the crop) and their box; ink of other glyphs or of
/// dropped specks inside the box is not part of it.
#[derive(Debug, Clone)]
struct GlyphParts {
    pixels: Vec<usize>,
    bounds: Bounds,
}

/// Groups components into glyphs left to right: overlapping columns join (a broken stroke), a
/// blob wider than `widest_tenths` tenths of its height is cut at its thinnest columns, and
/// parts much shorter than the tallest glyph (dots, specks) are dropped.
fn group_glyphs(
    mut components: Vec<Component>,
    ink: &[bool],
    w: usize,
    side: f32,
    widest_tenths: u32,
) -> Vec<GlyphParts> {
    components.sort_by_key(|c| c.bounds.x0);
    let mut merged: Vec<Component> = Vec::new();
    for component in components {
        if let Some(last) = merged.last_mut() {
            let overlap = last.bounds.x1.min(component.bounds.x1) as i64
                - last.bounds.x0.max(component.bounds.x0) as i64;
            let narrower = last.width().min(component.width()) as i64;
            if overlap * 2 > narrower {
                last.pixels.extend(component.pixels);
                let (a, b) = (last.bounds, component.bounds);
                last.bounds = Bounds {
                    x0: a.x0.min(b.x0),
                    y0: a.y0.min(b.y0),
                    x1: a.x1.max(b.x1),
                    y1: a.y1.max(b.y1),
                };
                continue;
            }
        }
        merged.push(component);
    }
    let tallest = merged.iter().map(Component::height).max().unwrap_or(0);
    if (tallest as f32) < MIN_GLYPH_HEIGHT * side {
        return Vec::new();
    }
    let mut glyphs = Vec::new();
    for component in merged {
        if component.height() * 5 < tallest * 2 {
            continue;
        }
        for (lo, hi) in split_columns(&component, ink, w, widest_tenths) {
            let pixels: Vec<usize> = component
                .pixels
                .iter()
                .copied()
                .filter(|&i| (lo..hi).contains(&((i % w) as u32)))
                .collect();
            if let Some(bounds) = tight_bounds(&pixels, w) {
                glyphs.push(GlyphParts { pixels, bounds });
            }
        }
    }
    glyphs
}

/// Column ranges of the digits in a blob: one range unless it is wider than `widest_tenths`
/// tenths of its height, then cuts at the columns with least ink near evenly spaced positions.
fn split_columns(c: &Component, ink: &[bool], w: usize, widest_tenths: u32) -> Vec<(u32, u32)> {
    let (width, height) = (c.width(), c.height());
    if width * 10 <= height * widest_tenths {
        return vec![(c.bounds.x0, c.bounds.x1)];
    }
    let pieces = ((width as f32 / (0.62 * height as f32)).round() as u32).clamp(2, 4);
    let mut cuts = vec![c.bounds.x0];
    let reach = (width / (3 * pieces)).max(1);
    for k in 1..pieces {
        let expected = c.bounds.x0 + k * width / pieces;
        let column_ink = |x: u32| {
            (c.bounds.y0..c.bounds.y1)
                .filter(|&y| ink[y as usize * w + x as usize])
                .count()
        };
        let best = (expected.saturating_sub(reach)..(expected + reach).min(c.bounds.x1 - 1))
            .min_by_key(|&x| (column_ink(x), x.abs_diff(expected)))
            .unwrap_or(expected);
        cuts.push(best.max(cuts[cuts.len() - 1] + 1));
    }
    cuts.push(c.bounds.x1);
    cuts.windows(2)
        .filter(|pair| pair[1] > pair[0])
        .map(|pair| (pair[0], pair[1]))
        .collect()
}

/// The box of some pixels; `None` if there are none.
fn tight_bounds(pixels: &[usize], w: usize) -> Option<Bounds> {
    pixels
        .iter()
        .map(|&i| ((i % w) as u32, (i / w) as u32))
        .fold(None, |acc: Option<Bounds>, (x, y)| {
            Some(match acc {
                None => Bounds {
                    x0: x,
                    y0: y,
                    x1: x + 1,
                    y1: y + 1,
                },
                Some(b) => Bounds {
                    x0: b.x0.min(x),
                    y0: b.y0.min(y),
                    x1: b.x1.max(x + 1),
                    y1: b.y1.max(y + 1),
                },
            })
        })
}

/// A normalised glyph cut in two at its faintest column in the middle third of its ink, each
/// part normalised again as a glyph of its own (its crop bounds estimated from the cut): two
/// digits that blur has joined into one blob (a number's 11 read as a 3), read apart. `None`
/// when the glyph has too little ink to cut.
pub fn halves(glyph: &NormalisedGlyph) -> Option<[NormalisedGlyph; 2]> {
    let column = |x: usize| (0..SIDE).map(|y| glyph.pixels[y * SIDE + x]).sum::<f32>();
    let inked: Vec<usize> = (0..SIDE).filter(|&x| column(x) > 0.0).collect();
    let (&first, &last) = (inked.first()?, inked.last()?);
    let width = last + 1 - first;
    if width < 6 {
        return None;
    }
    let middle = first + width / 3..last + 1 - width / 3;
    let centre = (first + last) as f32 / 2.0;
    let cut = middle.min_by(|&a, &b| {
        column(a).total_cmp(&column(b)).then(
            (a as f32 - centre)
                .abs()
                .total_cmp(&(b as f32 - centre).abs()),
        )
    })?;
    let b = glyph.bounds;
    let crop_x =
        |x: usize| b.x0 + ((x - first) as f32 / width as f32 * (b.x1 - b.x0) as f32).round() as u32;
    let part = |lo: usize, hi: usize| {
        let bounds = Bounds {
            x0: crop_x(lo),
            y0: b.y0,
            x1: crop_x(hi).max(crop_x(lo) + 1),
            y1: b.y1,
        };
        renormalised(&glyph.pixels, lo..hi, bounds)
    };
    Some([part(first, cut), part(cut, last + 1)])
}

/// The ink of `pixels` (a normalised glyph) in `columns`, scaled to fit [`BOX`] keeping its
/// aspect (bilinear) and centred by mass as [`normalise`] does.
fn renormalised(
    pixels: &[f32],
    columns: std::ops::Range<usize>,
    bounds: Bounds,
) -> NormalisedGlyph {
    let rows: Vec<usize> = (0..SIDE)
        .filter(|&y| columns.clone().any(|x| pixels[y * SIDE + x] > 0.0))
        .collect();
    let (Some(&top), Some(&bottom)) = (rows.first(), rows.last()) else {
        return NormalisedGlyph {
            pixels: vec![0.0; SIDE * SIDE],
            bounds,
        };
    };
    let (bw, bh) = (columns.len() as f32, (bottom + 1 - top) as f32);
    let scale = BOX as f32 / bw.max(bh);
    let tw = ((bw * scale).round() as usize).clamp(1, BOX);
    let th = ((bh * scale).round() as usize).clamp(1, BOX);
    let at = |x: isize, y: isize| {
        if x < 0 || y < 0 || x >= bw as isize || y >= bh as isize {
            0.0
        } else {
            pixels[(top + y as usize) * SIDE + columns.start + x as usize]
        }
    };
    let mut patch = vec![0f32; tw * th];
    let (mut mass, mut mx, mut my) = (0f32, 0f32, 0f32);
    for ty in 0..th {
        for tx in 0..tw {
            let (fx, fy) = (
                (tx as f32 + 0.5) / scale - 0.5,
                (ty as f32 + 0.5) / scale - 0.5,
            );
            let (x0, y0) = (fx.floor(), fy.floor());
            let (dx, dy) = (fx - x0, fy - y0);
            let (x0, y0) = (x0 as isize, y0 as isize);
            let value = at(x0, y0) * (1.0 - dx) * (1.0 - dy)
                + at(x0 + 1, y0) * dx * (1.0 - dy)
                + at(x0, y0 + 1) * (1.0 - dx) * dy
                + at(x0 + 1, y0 + 1) * dx * dy;
            patch[ty * tw + tx] = value;
            mass += value;
            mx += value * (tx as f32 + 0.5);
            my += value * (ty as f32 + 0.5);
        }
    }
    placed(&patch, tw, th, (mass, mx, my), bounds)
}

/// The share of a glyph's own ink pixels lighter than the level its tones are measured against:
/// the darkest tenth, its strokes' cores, come out full black, whatever the print's contrast.
const STROKE_SHARE: f32 = 0.9;

/// Scales a glyph to fit [`BOX`] keeping its aspect (area-averaged by 4x4 supersampling) and
/// centres it by mass in [`SIDE`]x[`SIDE`]. Each pixel is the glyph's ink darkness against its
/// strokes' (see [`STROKE_SHARE`]), not a yes or no of ink: blur closes a small digit's
/// counters and gaps into one blob at any split (a 3 or a 0 cut as a solid oval), yet they stay
/// lighter than its strokes. Only the glyph's own ink and the pixels touching it count, so a
/// neighbour's ink or a speck inside its box does not.
fn normalise(glyph: &GlyphParts, w: usize, darkness: &[f32]) -> NormalisedGlyph {
    const SUB: usize = 4;
    let bounds = glyph.bounds;
    let (bw, bh) = (
        (bounds.x1 - bounds.x0) as usize,
        (bounds.y1 - bounds.y0) as usize,
    );
    let mut own = vec![false; bw * bh];
    for &i in &glyph.pixels {
        own[(i / w - bounds.y0 as usize) * bw + (i % w - bounds.x0 as usize)] = true;
    }
    let mut strokes: Vec<f32> = glyph.pixels.iter().map(|&i| darkness[i]).collect();
    let index = ((strokes.len() as f32 * STROKE_SHARE) as usize).min(strokes.len() - 1);
    let stroke = strokes
        .select_nth_unstable_by(index, f32::total_cmp)
        .1
        .max(f32::EPSILON);
    let mut tone = vec![0f32; bw * bh];
    for y in 0..bh {
        for x in 0..bw {
            let touching = (y.saturating_sub(1)..(y + 2).min(bh))
                .any(|ny| (x.saturating_sub(1)..(x + 2).min(bw)).any(|nx| own[ny * bw + nx]));
            if touching {
                let at = (bounds.y0 as usize + y) * w + bounds.x0 as usize + x;
                tone[y * bw + x] = (darkness[at] / stroke).clamp(0.0, 1.0);
            }
        }
    }
    let (bw, bh) = (bw as f32, bh as f32);
    let scale = BOX as f32 / bw.max(bh);
    let tw = ((bw * scale).round() as usize).clamp(1, BOX);
    let th = ((bh * scale).round() as usize).clamp(1, BOX);
    let mut patch = vec![0f32; tw * th];
    let (mut mass, mut mx, mut my) = (0f32, 0f32, 0f32);
    for ty in 0..th {
        for tx in 0..tw {
            let mut dark = 0.0;
            for sy in 0..SUB {
                for sx in 0..SUB {
                    let fx = (tx as f32 + (sx as f32 + 0.5) / SUB as f32) / scale;
                    let fy = (ty as f32 + (sy as f32 + 0.5) / SUB as f32) / scale;
                    let x = (fx as usize).min(bw as usize - 1);
                    let y = (fy as usize).min(bh as usize - 1);
                    dark += tone[y * bw as usize + x];
                }
            }
            let value = dark / (SUB * SUB) as f32;
            patch[ty * tw + tx] = value;
            mass += value;
            mx += value * (tx as f32 + 0.5);
            my += value * (ty as f32 + 0.5);
        }
    }
    placed(&patch, tw, th, (mass, mx, my), bounds)
}

/// A `tw` x `th` patch of ink placed in a [`SIDE`]x[`SIDE`] glyph with its centre of mass
/// (`mass`, and the mass-weighted x and y sums) at the middle, as far as the patch fits.
fn placed(
    patch: &[f32],
    tw: usize,
    th: usize,
    (mass, mx, my): (f32, f32, f32),
    bounds: Bounds,
) -> NormalisedGlyph {
    let (cx, cy) = if mass > 0.0 {
        (mx / mass, my / mass)
    } else {
        (tw as f32 / 2.0, th as f32 / 2.0)
    };
    let half = SIDE as f32 / 2.0;
    let ox = ((half - cx).round().max(0.0) as usize).min(SIDE - tw);
    let oy = ((half - cy).round().max(0.0) as usize).min(SIDE - th);
    let mut pixels = vec![0f32; SIDE * SIDE];
    for ty in 0..th {
        let row = (oy + ty) * SIDE + ox;
        pixels[row..row + tw].copy_from_slice(&patch[ty * tw..(ty + 1) * tw]);
    }
    NormalisedGlyph { pixels, bounds }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::photo::rng::Rng;
    use crate::render::canvas::{self, HAlign};
    use crate::render::FontName;
    use image::{Luma, Rgb, RgbImage};

    #[test]
    fn the_value_at_a_rank_is_the_one_sorting_puts_there() {
        let mut rng = Rng::new(28);
        for _ in 0..500 {
            let count = 1 + rng.below(300);
            // Narrow spreads too, so that ranks fall among runs of equal values.
            let spread = 1 + rng.below(256);
            let values: Vec<u8> = (0..count).map(|_| rng.below(spread) as u8).collect();
            let mut sorted = values.clone();
            sorted.sort_unstable();
            for rank in [0, rng.below(count), count * 17 / 20, count - 1] {
                assert_eq!(
                    value_at_rank(&values, rank),
                    sorted[rank],
                    "{values:?} at {rank}"
                );
            }
        }
    }

    /// A clean printed cell of side `side` with `text` centred and, if `lines`, a sliver of
    /// grid line along the left and top borders; plus a little noise.
    fn printed(side: u32, text: &str, font: FontName, lines: bool, seed: u64) -> GrayImage {
        let mut page = RgbImage::from_pixel(side, side, Rgb([235; 3]));
        let ink = Rgb([30; 3]);
        if lines {
            canvas::fill_rect(&mut page, 0.0, 0.0, 2.0, side as f32, ink);
            canvas::fill_rect(&mut page, 0.0, 0.0, side as f32, 1.5, ink);
        }
        let size = side as f32 * 0.6 / 0.72;
        let size =
            size.min(size * side as f32 * 0.8 / canvas::text_width(&font.font(), size, text));
        let centre = (side as f32 / 2.0, side as f32 / 2.0);
        canvas::draw_label(
            &mut page,
            &font.font(),
            size,
            text,
            centre,
            HAlign::Centre,
            ink,
        );
        let mut rng = Rng::new(seed);
        GrayImage::from_fn(side, side, |x, y| {
            let v = f32::from(page.get_pixel(x, y).0[0]) + rng.normal() * 4.0;
            Luma([v.clamp(0.0, 255.0) as u8])
        })
    }

    #[test]
    fn counts_the_digits_of_one_and_two_digit_numbers() {
        for font in FontName::EVERY {
            for side in [28, 48, 80] {
                for (k, text) in ["7", "1", "4", "10", "11", "23", "40", "38"]
                    .iter()
                    .enumerate()
                {
                    let cell = printed(side, text, font, k % 2 == 0, k as u64);
                    match read_cell(&cell) {
                        CellContent::Glyphs(found) => {
                            assert_eq!(found.len(), text.len(), "{text} in {font:?} at {side}");
                            assert!(found.windows(2).all(|p| p[0].bounds.x0 < p[1].bounds.x0));
                            for glyph in &found {
                                assert_eq!(glyph.pixels.len(), SIDE * SIDE);
                                assert!(glyph.pixels.iter().all(|v| (0.0..=1.0).contains(v)));
                            }
                        }
                        other => panic!("{text} in {font:?} at {side}: {other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn two_narrow_touching_rings_are_one_glyph_unless_cut_narrower() {
        // Two upright ellipse rings (0s of a condensed face) touching side by side: the blob
        // is about as wide as tall, within what one digit may be at the usual cut.
        let ring = |x: f32, y: f32, cx: f32| {
            let d = (((x - cx) / 10.0).powi(2) + ((y - 32.0) / 20.0).powi(2)).sqrt();
            (0.75..=1.0).contains(&d)
        };
        let cell = GrayImage::from_fn(64, 64, |x, y| {
            let (x, y) = (x as f32 + 0.5, y as f32 + 0.5);
            Luma([if ring(x, y, 21.0) || ring(x, y, 41.0) {
                30
            } else {
                230
            }])
        });
        let darkness = flattened(&cell);
        let count = |content: CellContent| match content {
            CellContent::Glyphs(found) => found.len(),
            other => panic!("{other:?}"),
        };
        assert_eq!(count(find_glyphs(&cell, &darkness, 1.0)), 1);
        assert_eq!(
            count(find_glyphs_cut_wider_than(&cell, &darkness, 1.0, 9)),
            2
        );
        assert_eq!(
            count(find_glyphs_cut_wider_than(
                &cell,
                &darkness,
                1.0,
                WIDEST_DIGIT_TENTHS
            )),
            1
        );
    }

    #[test]
    fn blank_and_black_cells() {
        let mut rng = Rng::new(4);
        for side in [20, 40, 64] {
            for lines in [false, true] {
                let blank = printed(side, "", FontName::Sans, lines, rng.next_u64());
                assert_eq!(read_cell(&blank), CellContent::Blank, "{side} {lines}");
            }
            // Paper under a soft shadow is still blank.
            let shaded = GrayImage::from_fn(side, side, |x, _| {
                Luma([(230.0 - 100.0 * x as f32 / side as f32 + rng.normal() * 5.0) as u8])
            });
            assert_eq!(read_cell(&shaded), CellContent::Blank);
            let black = GrayImage::from_fn(side, side, |x, y| {
                let border = x < 3 || y < 3;
                Luma([if border {
                    220
                } else {
                    (35.0 + rng.normal() * 6.0) as u8
                }])
            });
            assert_eq!(read_cell(&black), CellContent::Black);
        }
    }

    #[test]
    fn darkness_turns_with_the_crop() {
        let cell = printed(48, "47", FontName::Serif, true, 9);
        let darkness = |image: &GrayImage| {
            let values = flattened(image);
            image::ImageBuffer::<Luma<f32>, Vec<f32>>::from_raw(
                image.width(),
                image.height(),
                values,
            )
            .unwrap()
        };
        let upright = darkness(&cell);
        assert!(upright.pixels().any(|p| p.0[0] > 0.5));
        assert_eq!(
            darkness(&image::imageops::rotate90(&cell)),
            image::imageops::rotate90(&upright)
        );
        assert_eq!(
            darkness(&image::imageops::rotate180(&cell)),
            image::imageops::rotate180(&upright)
        );
        assert_eq!(peak_darkness(&flattened(&cell)), ink_darkness(&cell));
        assert!(flattened(&GrayImage::new(9, 30)).is_empty());
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let mut rng = Rng::new(8);
        for (w, h) in [
            (0, 0),
            (1, 1),
            (9, 9),
            (10, 10),
            (10, 3),
            (3, 40),
            (40, 12),
            (13, 13),
        ] {
            for fill in [0u8, 255] {
                read_cell(&GrayImage::from_pixel(w, h, Luma([fill])));
            }
            read_cell(&GrayImage::from_fn(w, h, |_, _| {
                Luma([rng.below(256) as u8])
            }));
            read_cell_with_paper(&GrayImage::from_pixel(w, h, Luma([9])), 0.0);
        }
    }

    #[test]
    fn a_blob_of_two_stems_is_cut_between_them_into_two_upright_glyphs() {
        // Two stems 4 columns wide, 18 tall, joined at their feet by a faint bridge: an 11.
        let mut pixels = vec![0f32; SIDE * SIDE];
        for y in 5..23 {
            for x in (4..8).chain(16..20) {
                pixels[y * SIDE + x] = 1.0;
            }
        }
        for x in 8..16 {
            pixels[22 * SIDE + x] = 0.3;
        }
        let bounds = Bounds {
            x0: 10,
            y0: 20,
            x1: 26,
            y1: 38,
        };
        let [left, right] = halves(&NormalisedGlyph { pixels, bounds }).unwrap();
        // Cut in the bridge, between the stems (crop columns 10..14 and 22..26).
        assert_eq!((left.bounds.x0, right.bounds.x1), (10, 26));
        assert_eq!(left.bounds.x1, right.bounds.x0);
        assert!((15..=21).contains(&left.bounds.x1), "{:?}", left.bounds);
        for part in [&left, &right] {
            // Scaled up to fill the box's height, narrow, and centred.
            let inked_rows = (0..SIDE)
                .filter(|&y| (0..SIDE).any(|x| part.pixels[y * SIDE + x] > 0.5))
                .count();
            let inked_columns = (0..SIDE)
                .filter(|&x| (0..SIDE).any(|y| part.pixels[y * SIDE + x] > 0.5))
                .count();
            assert!((BOX - 1..=BOX).contains(&inked_rows), "{inked_rows}");
            assert!(inked_columns <= 8, "{inked_columns}");
            assert!(part.pixels[14 * SIDE + 14] > 0.5);
        }
        assert!(halves(&NormalisedGlyph {
            pixels: vec![0.0; SIDE * SIDE],
            bounds
        })
        .is_none());
    }

    #[test]
    fn a_box_lines_piece_above_the_digits_is_painted_over_and_no_longer_joins_them() {
        // A boxed clue "16" cropped past its box from a lattice sitting a few pixels above the
        // printed box: the box's left line lies at the crop's border, where the glyph finder
        // wipes it, but its top line runs too deep into the crop for that, a thin piece of it
        // over the 1, and the 1's blob grows up to it (it read as 3).
        let mut page = RgbImage::from_pixel(80, 80, Rgb([235; 3]));
        let ink = Rgb([25; 3]);
        canvas::fill_rect(&mut page, 3.0, 0.0, 10.0, 80.0, ink);
        canvas::fill_rect(&mut page, 10.0, 14.0, 46.0, 16.0, ink);
        let font = FontName::SansBold.font();
        canvas::draw_label(
            &mut page,
            &font,
            44.0,
            "16",
            (36.0, 46.0),
            HAlign::Centre,
            ink,
        );
        let crop = image::imageops::grayscale(&page);
        let tops = |crop: &GrayImage| match read_cell_with_levels(crop, 235.0, 0.85) {
            CellContent::Glyphs(found) => found.iter().map(|g| g.bounds.y0).collect::<Vec<_>>(),
            other => panic!("{other:?}"),
        };
        let before = tops(&crop);
        assert!(before[0] < 20, "{before:?}");
        let cleaned = without_thin_ink_off_the_digits(&crop, &flattened(&crop), 0.85);
        let after = tops(&cleaned);
        assert_eq!(after.len(), 2, "{after:?}");
        assert!(after[0].abs_diff(after[1]) <= 1, "{after:?}");
        let CellContent::Glyphs(found) = read_cell_with_levels(&cleaned, 235.0, 0.85) else {
            panic!("no glyphs");
        };
        let classifier = crate::read::bundled_classifier();
        let digits: Vec<u8> = found
            .iter()
            .map(|g| classifier.classify(g).best().0)
            .collect();
        assert_eq!(digits, [1, 6]);
    }

    #[test]
    fn digits_with_nothing_off_their_rows_are_left_as_they_are() {
        for font in FontName::EVERY {
            for side in [48, 80] {
                for (k, text) in ["20", "16", "7", "45", "2", "38", "11"].iter().enumerate() {
                    let cell = printed(side, text, font, k % 2 == 0, k as u64);
                    let cleaned = without_thin_ink_off_the_digits(&cell, &flattened(&cell), 1.0);
                    assert!(cleaned == cell, "{text} in {font:?} at {side}");
                }
            }
        }
    }
}
