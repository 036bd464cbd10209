//! Tells the cells that hold a printed number from blank paper by how dark a patch of ink their
//! centre shows, judged against the whole grid, and makes blank the numbers read in cells that
//! show none.
//!
//! On a heavily blurred, noisy photo a digit is a soft grey blob only a little darker than the
//! paper, and the glyph finder's ink floor, set from the page's ink, is low enough that paper
//! grain and JPEG noise in blank cells become "digits" too (a hard Nurikabe photo read 150 of
//! its 195 blank cells as numbers). Grain is fine and scattered, a blurred digit is a solid
//! patch: averaged over a window a sixth of the cell wide, the darkest patch of a cell's centre
//! stays high for a digit and falls for grain. Over a grid those patch darknesses fall into two
//! groups, split by Otsu's threshold. It does not read digits, and in a grid whose patches are
//! all alike it makes blank only the numbers far fainter than the rest.

use super::{source_cell, CellValue, GridRead};

/// Side of the averaging window, as a share of the crop's side: about a digit's stroke
/// blurred, wider than grain.
const WINDOW_SHARE: usize = 6;
/// Share of the crop's side left out at each edge: grid lines' remnants live there.
const EDGE_SHARE: usize = 8;
/// A number is made blank only when its patch is below the grid's split and under this share
/// of the typical (median) patch of the cells above the split: a faint but real digit in a
/// shadow is well above it, grain well below.
const MARK_SHARE: f32 = 0.7;

/// The share of its probability a number made blank for want of a patch of ink keeps: the
/// missing patch is evidence of its own. Kept whole, the change back to the number was the
/// cheapest the corrector had, and a hard Nurikabe photo was answered wrongly with exit 0 (a
/// mark read 9 at 0.49 made a clue where two printed clues were missed, and the puzzle so read
/// had one solution). At half that photo is refused; at a fifth, two hard maze photos answered
/// rightly before were refused by their answer check (half, one).
const MARK_NUMBER_SHARE: f32 = 0.5;

/// The darkest patch in the centre of a square crop's flattened darkness (`side` x `side`,
/// row-major): the most darkness a window of [`WINDOW_SHARE`] averages, away from the edges.
pub fn patch_darkness(darkness: &[f32], side: usize) -> f32 {
    let window = (side / WINDOW_SHARE).max(1);
    let edge = side / EDGE_SHARE;
    if darkness.len() != side * side || side < 2 * edge + window {
        return 0.0;
    }
    // Summed-area table, so each window is four lookups.
    let stride = side + 1;
    let mut sums = vec![0f32; stride * stride];
    for y in 0..side {
        let mut row = 0f32;
        for x in 0..side {
            row += darkness[y * side + x];
            sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1] + row;
        }
    }
    let area = (window * window) as f32;
    let mut darkest = 0f32;
    for y in edge..=side - edge - window {
        for x in edge..=side - edge - window {
            let total = sums[(y + window) * stride + x + window]
                - sums[y * stride + x + window]
                - sums[(y + window) * stride + x]
                + sums[y * stride + x];
            darkest = darkest.max(total / area);
        }
    }
    darkest
}

/// The value splitting `values` into two groups with the most variance between them (Otsu's
/// criterion on the exact values), or `None` for fewer than two distinct values.
fn otsu_split(values: &[f32]) -> Option<f32> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f32::total_cmp);
    let n = sorted.len() as f64;
    let total: f64 = sorted.iter().map(|&v| f64::from(v)).sum();
    let mut low_sum = 0f64;
    let mut best: Option<(f64, f32)> = None;
    for i in 1..sorted.len() {
        low_sum += f64::from(sorted[i - 1]);
        if sorted[i] == sorted[i - 1] {
            continue;
        }
        let (low, high) = (i as f64, n - i as f64);
        let between = low * high * (low_sum / low - (total - low_sum) / high).powi(2);
        if best.is_none_or(|(b, _)| between > b) {
            best = Some((between, (sorted[i - 1] + sorted[i]) / 2.0));
        }
    }
    best.map(|(_, split)| split)
}

/// `read` with each number whose cell shows no patch of ink made blank, the number kept as its
/// likeliest alternative for the corrector at [`MARK_NUMBER_SHARE`] of its probability.
/// `darkness` is each crop's flattened darkness in the unturned lattice's cells (`side` x
/// `side` each); `read` may be turned.
pub fn without_paper_marks(
    mut read: GridRead,
    darkness: &[Vec<Vec<f32>>],
    side: usize,
) -> GridRead {
    let (rows, columns) = (darkness.len(), darkness.first().map_or(0, Vec::len));
    let patches: Vec<f32> = read
        .cells
        .iter()
        .map(|cell| {
            let (r, c) = source_cell(cell.row, cell.column, read.quarter_turns, rows, columns);
            darkness
                .get(r)
                .and_then(|row| row.get(c))
                .map_or(0.0, |d| patch_darkness(d, side))
        })
        .collect();
    let Some(split) = otsu_split(&patches) else {
        return read;
    };
    let mut inked: Vec<f32> = patches.iter().copied().filter(|&p| p > split).collect();
    if inked.is_empty() {
        return read;
    }
    let middle = inked.len() / 2;
    let typical = *inked.select_nth_unstable_by(middle, f32::total_cmp).1;
    let faintest_mark = split.min(MARK_SHARE * typical);
    for (cell, &patch) in read.cells.iter_mut().zip(&patches) {
        if matches!(cell.value, CellValue::Number(_)) && patch < faintest_mark {
            cell.make_blank_weighing_number(MARK_NUMBER_SHARE);
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::CellRead;

    /// A `side` x `side` crop of paper grain: every fourth pixel dark, the rest paper.
    fn grain(side: usize, dark: f32) -> Vec<f32> {
        (0..side * side)
            .map(|i| if i % 4 == 0 { dark } else { 0.0 })
            .collect()
    }

    /// A crop with a soft square blob of `dark` ink in its centre, a quarter of the side wide.
    fn blob(side: usize, dark: f32) -> Vec<f32> {
        let (from, to) = (side * 3 / 8, side * 5 / 8);
        (0..side * side)
            .map(|i| {
                let (x, y) = (i % side, i / side);
                if (from..to).contains(&x) && (from..to).contains(&y) {
                    dark
                } else {
                    0.0
                }
            })
            .collect()
    }

    #[test]
    fn a_faint_blob_outweighs_darker_grain() {
        assert!(patch_darkness(&blob(64, 0.25), 64) > 2.0 * patch_darkness(&grain(64, 0.4), 64));
    }

    #[test]
    fn a_number_read_in_grain_is_made_blank_its_reading_weighed_down() {
        // Three blurred digits and one cell of grain, all read as numbers; the grain's 7 stays
        // as the blank's alternative at half its probability.
        let side = 64;
        let darkness = vec![vec![
            blob(side, 0.3),
            blob(side, 0.35),
            grain(side, 0.4),
            blob(side, 0.3),
        ]];
        let cells = (0..4)
            .map(|column| CellRead {
                row: 0,
                column,
                value: CellValue::Number(7),
                confidence: 0.6,
                alternatives: vec![(CellValue::Number(1), 0.3)],
            })
            .collect();
        let read = without_paper_marks(GridRead::new(1, 4, cells, 0), &darkness, side);
        let values: Vec<CellValue> = read.cells.iter().map(|c| c.value).collect();
        let seven = CellValue::Number(7);
        assert_eq!(values, [seven, seven, CellValue::Blank, seven]);
        let grain = &read.cells[2];
        assert!((grain.confidence - 0.7).abs() < 1e-6, "{grain:?}");
        assert_eq!(grain.alternatives[0].0, seven);
        assert!((grain.alternatives[0].1 - 0.3).abs() < 1e-6, "{grain:?}");
    }

    #[test]
    fn the_split_falls_between_two_groups() {
        let split = otsu_split(&[0.1, 0.12, 0.11, 0.3, 0.32]).unwrap();
        assert!(split > 0.12 && split < 0.3, "{split}");
        assert_eq!(otsu_split(&[0.2, 0.2]), None);
    }
}
