//! Finds a grid's lattice from its cells one by one: the paper inside each ruled cell is a
//! compact blank piece, and the pieces of one grid stand on a lattice that a strongly curled page
//! bends far from any quadrilateral. The pieces' centres are grown into a lattice as a jump
//! maze's digits are (`glyph_lattice`): a neighbour at a time, each step predicted from the cell
//! vectors near it, then fitted, its residuals from one homography followed by a quadratic
//! surface over the couple of cells around each lattice point (by a plane where the cells stand
//! in a boxed maze's shape). It needs no outline, so it finds a grid whose border bows too far
//! for any quadrilateral to hold it, a boxed nonogram's grid with its clue boxes (they hold
//! paper too) and a boxed maze's boxes. It does not read the cells.

use image::GrayImage;

use super::cells::BlankPieces;
use super::glyph_lattice::{self, Following, Glyph};
use super::threshold;
use super::Lattice;

/// Long side of the image the cells are looked for in, twice the outline finder's: a hard
/// 29x22 photo's cells of 22 pixels are 11 here, their paper inside the lines a little less.
const WORKING_SIZE: u32 = 2000;

/// A cell's paper stands for a glyph this much its size: the lattice finder looks for a
/// digit's neighbours 1.3 to 4 of its sizes away, and a cell's paper spans most of the pitch,
/// its neighbours 1 and 1.4 pitches away.
const PAPER_TO_DIGIT: f64 = 0.6;

/// How far (cells) around a lattice point the cells that place it weigh (see
/// [`glyph_lattice::fit_lattice_following`]). Measured on the 16 hard boxed photos of the two
/// strongest curls (seeds 80002 and 80005), 2 of them read exactly before this lattice, with
/// the lattice then also counted and followed again as an outline's (as first tried): 6, 10,
/// 12 and 11 read exactly at 1.5, 1.75, 2 and 2.5 cells; with a plane in place of the quadratic
/// surface at most 11 (at 1.5 cells); with the cells' centres of mass in place of their boxes'
/// centres, 9. As the pipeline reads it now (not followed again), 11 at 2 cells.
const REACH: f64 = 2.0;

/// The share of the lattice's places under which its cells are taken for a boxed maze's, whose
/// residuals are followed by a plane over the same [`REACH`], as its digits' are (see
/// `glyph_lattice`):
/// the boxes stand in the maze's shape (a round maze fills about 0.7 of its bounding box, a
/// diamond half), sparse at its edge, where a surface's curvature is a guess; a grid, its clue
/// boxes with it, fills over 0.9. Of 60 hard boxed and plain mazes (seeds 50001-50006), a plane
/// for every lattice of cells read 52 exactly and solved 59, a surface 50 and 56; but of 48
/// hard nonograms a plane read 38, a surface 42.
const SHAPED_FILL: f64 = 0.85;

/// The least share of the lattice's places its cells must fill: a grid's cells are paper but
/// for a boxed nonogram's empty corner, a nonogram's given black cells or a Nurikabe's cells
/// thick with digits (92% of a hard boxed 21x14 photo's lattice; 27% of a lattice found in
/// random noise).
const LEAST_FILLED: f64 = 0.5;

/// The share of a lattice's cells, and how far from where the lattice puts them (share of the
/// local pitch) at most they may lie: a ruled grid's cells stand where their neighbours lead
/// (9 in 10 within 0.04 on hard photos), blank pieces of random noise do not (0.18).
const MOST_SCATTERED: (f64, f64) = (0.9, 0.1);

/// The lattice of the cells found in `image`, rows and columns the bounding box of the cells
/// found, or why there is none.
pub fn find(image: &GrayImage) -> Result<Lattice, String> {
    let threshold::ShrunkInk {
        ink,
        width: sw,
        height: sh,
        factor,
        ..
    } = threshold::shrunk_ink(image, WORKING_SIZE);
    let best = [false, true]
        .into_iter()
        .filter_map(|closed| {
            let cells: Vec<Glyph> = BlankPieces::of(&ink, sw, sh, closed)
                .cell_like(true)
                .map(|(x, y, size)| Glyph {
                    x,
                    y,
                    size: size * PAPER_TO_DIGIT,
                })
                .collect();
            let fit = glyph_lattice::fit_lattice_following(&cells, Following::Surface(REACH))?;
            if fit.glyphs() as f64 >= SHAPED_FILL * fit.places() as f64 {
                return Some(fit);
            }
            glyph_lattice::fit_lattice_following(&cells, Following::Plane(REACH))
        })
        .filter(|fit| {
            fit.glyphs() as f64 >= LEAST_FILLED * fit.places() as f64
                && fit.scatter(MOST_SCATTERED.0) <= MOST_SCATTERED.1
        })
        .max_by_key(|fit| fit.glyphs())
        .ok_or("no lattice of cells")?;
    let scale = f64::from(factor);
    Ok(best.lattice(|(x, y)| ((x + 0.5) * scale, (y + 0.5) * scale)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A `size` square page holding an `n` x `n` grid inside a `margin`, its lines `line`
    /// pixels wide, curled as a page is: the sheet's point (a, b) shows at (a + bow(b),
    /// b + bow(a)), `bow` reaching `bow` pixels half-way along and none at the corners. Also
    /// where each grid corner (row, column) shows.
    fn bowed_page(size: u32, margin: f64, n: usize, bow: f64) -> (GrayImage, Vec<Vec<(f64, f64)>>) {
        let span = f64::from(size) - 2.0 * margin;
        let cell = span / n as f64;
        let shift = |t: f64| bow * (std::f64::consts::PI * t / span).sin();
        let shown = |a: f64, b: f64| (margin + a + shift(b), margin + b + shift(a));
        let mut page = GrayImage::from_pixel(size, size, Luma([225]));
        for k in 0..=n {
            for s in 0..=(4 * span as usize) {
                let (along, line) = (s as f64 / 4.0, k as f64 * cell);
                for (x, y) in [shown(line, along), shown(along, line)] {
                    for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
                        let (px, py) = ((x + dx) as u32, (y + dy) as u32);
                        if px < size && py < size {
                            page.put_pixel(px, py, Luma([30]));
                        }
                    }
                }
            }
        }
        let corners = (0..=n)
            .map(|r| {
                (0..=n)
                    .map(|c| shown(c as f64 * cell, r as f64 * cell))
                    .collect()
            })
            .collect();
        (page, corners)
    }

    #[test]
    fn a_grid_bowed_by_two_cells_is_found_cell_by_cell() {
        let n = 15;
        let (page, truth) = bowed_page(900, 120.0, n, 2.0 * 660.0 / 15.0);
        let lattice = find(&page).unwrap();
        assert_eq!(
            (lattice.rows, lattice.columns),
            (n, n),
            "{:?}",
            lattice.points[0]
        );
        let cell = 660.0 / n as f64;
        for (r, row) in truth.iter().enumerate() {
            for (c, &(x, y)) in row.iter().enumerate() {
                let (fx, fy) = lattice.points[r][c];
                let off = (f64::from(fx) - x).hypot(f64::from(fy) - y);
                assert!(off < 0.1 * cell, "corner ({r}, {c}) is {off:.1} px off");
            }
        }
    }

    #[test]
    fn a_page_without_a_grid_has_no_lattice_of_cells() {
        let mut page = GrayImage::from_pixel(600, 400, Luma([220]));
        // A few boxes and a rule: blank pieces, but too few and not on a lattice.
        for (x0, y0) in [(50, 50), (300, 80), (120, 250)] {
            for t in 0..60 {
                for (x, y) in [
                    (x0 + t, y0),
                    (x0 + t, y0 + 60),
                    (x0, y0 + t),
                    (x0 + 60, y0 + t),
                ] {
                    page.put_pixel(x, y, Luma([20]));
                }
            }
        }
        assert!(find(&page).is_err());
    }
}
