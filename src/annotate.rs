//! Draws a solution into the photo it was read from, through the lattice `detect` found, so the
//! answer sits on the printed cells in the photo's own perspective (and curl: every cell is
//! placed by its own four corners). Sudoku digits go into the empty cells, Nurikabe water and a
//! nonogram's filled cells are shaded, the jump maze's path is drawn as numbered arrows from the
//! start to the exit, and a legend names the kind, the verdict and any QR text. It does not
//! write files (`output` does).

use image::{Rgb, RgbImage};

use crate::detect::Lattice;
use crate::kinds::jump::JumpPath;
use crate::kinds::nonogram::NonogramSolution;
use crate::kinds::nurikabe::NurikabeSolution;
use crate::kinds::sudoku::{Sudoku, SudokuSolution};
use crate::kinds::Puzzle;
use crate::render::canvas::{self, HAlign};
use crate::render::FontName;
use crate::solve::Solved;

/// What the output stage needs of a photo: the upright image, its lattice and how the puzzle
/// is turned on it.
#[derive(Debug, Clone)]
pub struct PhotoGeometry {
    pub image: RgbImage,
    pub lattice: Lattice,
    /// Quarter turns clockwise from the lattice to the puzzle as read.
    pub quarter_turns: u8,
}

/// Ink for the solution's digits: a red that stands out against print.
pub const ANSWER_INK: Rgb<u8> = Rgb([210, 30, 40]);
/// Shade for Nurikabe water, laid translucently so the print shows through.
pub const WATER_SHADE: Rgb<u8> = Rgb([30, 110, 230]);
const WATER_OPACITY: f32 = 0.45;
/// Shade for a nonogram's filled cells: dark enough to read as filled, translucent so the
/// printed givens and grid lines show through.
pub const FILL_SHADE: Rgb<u8> = Rgb([20, 40, 150]);
const FILL_OPACITY: f32 = 0.6;

impl PhotoGeometry {
    /// The corners (top-left, top-right, bottom-right, bottom-left in the lattice) of the puzzle's
    /// cell (`row`, `column`) in the photo.
    pub fn cell_corners(&self, row: usize, column: usize) -> [(f32, f32); 4] {
        let (r, c) = crate::read::source_cell(
            row,
            column,
            self.quarter_turns,
            self.lattice.rows,
            self.lattice.columns,
        );
        let p = &self.lattice.points;
        [p[r][c], p[r][c + 1], p[r + 1][c + 1], p[r + 1][c]]
    }

    /// The centre of the puzzle's cell (`row`, `column`) in the photo.
    pub fn cell_centre(&self, row: usize, column: usize) -> (f32, f32) {
        let corners = self.cell_corners(row, column);
        (
            corners.iter().map(|p| p.0).sum::<f32>() / 4.0,
            corners.iter().map(|p| p.1).sum::<f32>() / 4.0,
        )
    }

    /// The centre of the puzzle's cell (`row`, `column`), which may lie outside the lattice (a
    /// jump maze's exit): its corners beyond the lattice continue the spacing of the lattice's
    /// edge nearest them.
    pub fn any_cell_centre(&self, row: i64, column: i64) -> (f32, f32) {
        let (rows, columns) = (self.lattice.rows as i64, self.lattice.columns as i64);
        let (r, c) = match self.quarter_turns % 4 {
            0 => (row, column),
            1 => (rows - 1 - column, row),
            2 => (rows - 1 - row, columns - 1 - column),
            _ => (column, columns - 1 - row),
        };
        let corners =
            [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)].map(|(i, j)| self.corner(i, j));
        (
            corners.iter().map(|p| p.0).sum::<f32>() / 4.0,
            corners.iter().map(|p| p.1).sum::<f32>() / 4.0,
        )
    }

    /// Lattice corner (`i`, `j`), extrapolated linearly from the nearest edge when outside.
    fn corner(&self, i: i64, j: i64) -> (f32, f32) {
        let p = &self.lattice.points;
        let (last_i, last_j) = (self.lattice.rows, self.lattice.columns);
        let (ci, cj) = (
            i.clamp(0, last_i as i64) as usize,
            j.clamp(0, last_j as i64) as usize,
        );
        let step = |a: (f32, f32), b: (f32, f32)| (b.0 - a.0, b.1 - a.1);
        let down = if ci == 0 {
            step(p[0][cj], p[1][cj])
        } else {
            step(p[ci - 1][cj], p[ci][cj])
        };
        let across = if cj == 0 {
            step(p[ci][0], p[ci][1])
        } else {
            step(p[ci][cj - 1], p[ci][cj])
        };
        let (di, dj) = ((i - ci as i64) as f32, (j - cj as i64) as f32);
        (
            p[ci][cj].0 + di * down.0 + dj * across.0,
            p[ci][cj].1 + di * down.1 + dj * across.1,
        )
    }

    /// The mean side of the puzzle's cell (`row`, `column`) in the photo, in pixels.
    fn cell_size(&self, row: usize, column: usize) -> f32 {
        let c = self.cell_corners(row, column);
        (0..4)
            .map(|i| {
                let (a, b) = (c[i], c[(i + 1) % 4]);
                (b.0 - a.0).hypot(b.1 - a.1)
            })
            .sum::<f32>()
            / 4.0
    }
}

/// The photo with `solved` drawn into `puzzle`'s cells.
pub fn annotate(photo: &PhotoGeometry, puzzle: &dyn Puzzle, solved: &Solved) -> RgbImage {
    let mut image = photo.image.clone();
    let font = FontName::SansBold.font();
    let solution = solved.solution.as_any();
    if let (Some(given), Some(SudokuSolution(cells))) = (
        puzzle.as_any().downcast_ref::<Sudoku>(),
        solution.downcast_ref::<SudokuSolution>(),
    ) {
        for index in (0..81).filter(|&i| given.cells[i] == 0) {
            let (row, column) = (index / 9, index % 9);
            let corners = photo.cell_corners(row, column);
            let height =
                ((corners[3].1 - corners[0].1).abs() + (corners[2].1 - corners[1].1).abs()) / 2.0;
            let digit = cells[index].to_string();
            canvas::draw_label(
                &mut image,
                &font,
                height * 0.7,
                &digit,
                photo.cell_centre(row, column),
                HAlign::Centre,
                ANSWER_INK,
            );
        }
    } else if let Some(path) = solution.downcast_ref::<JumpPath>() {
        draw_jump_path(&mut image, photo, path);
    } else if let Some(NonogramSolution(filled)) = solution.downcast_ref::<NonogramSolution>() {
        for row in 0..filled.height() {
            for column in (0..filled.width()).filter(|&c| filled.get(row, c)) {
                canvas::fill_quad(
                    &mut image,
                    photo.cell_corners(row, column),
                    FILL_SHADE,
                    FILL_OPACITY,
                );
            }
        }
    } else if let Some(NurikabeSolution(land)) = solution.downcast_ref::<NurikabeSolution>() {
        for row in 0..land.height() {
            for column in (0..land.width()).filter(|&c| !land.get(row, c)) {
                canvas::fill_quad(
                    &mut image,
                    photo.cell_corners(row, column),
                    WATER_SHADE,
                    WATER_OPACITY,
                );
            }
        }
    }
    draw_legend(image, &photo.lattice, puzzle, solved)
}

/// The path as one arrow per jump from cell centre to cell centre, each numbered in a badge at
/// its middle, the start ringed and the exit marked. Every arrow sits a little to its own left,
/// so a jump back along the line of an earlier one runs beside it rather than over it, and a
/// jump overlapping an earlier one in the same direction takes the nearest lane further out
/// that no jump it overlaps holds.
fn draw_jump_path(image: &mut RgbImage, photo: &PhotoGeometry, path: &JumpPath) {
    let Some(&start) = path.cells.first() else {
        return;
    };
    let font = FontName::SansBold.font();
    let stops: Vec<(i64, i64)> = path
        .cells
        .iter()
        .map(|&(r, c)| (r as i64, c as i64))
        .chain([path.exit])
        .collect();
    let jumps: Vec<[(i64, i64); 2]> = stops.windows(2).map(|w| [w[0], w[1]]).collect();
    let mut badges = Vec::with_capacity(jumps.len());
    let mut lanes: Vec<usize> = Vec::with_capacity(jumps.len());
    for (number, &[from, to]) in jumps.iter().enumerate() {
        let cell = photo.cell_size(path.cells[number].0, path.cells[number].1);
        let taken: Vec<usize> = (0..number)
            .filter(|&earlier| overlaps_ahead(jumps[earlier], [from, to]))
            .map(|earlier| lanes[earlier])
            .collect();
        let lane = (1..).find(|lane| !taken.contains(lane)).unwrap_or(1);
        lanes.push(lane);
        let (a, b) = (
            photo.any_cell_centre(from.0, from.1),
            photo.any_cell_centre(to.0, to.1),
        );
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let length = dx.hypot(dy).max(1.0);
        let (ux, uy) = (dx / length, dy / length);
        // Left of the direction of travel on screen (y runs down).
        let shift = cell * 0.18 * lane as f32;
        let (sx, sy) = (uy * shift, -ux * shift);
        let tail = (a.0 + ux * cell * 0.3 + sx, a.1 + uy * cell * 0.3 + sy);
        let tip = (b.0 - ux * cell * 0.3 + sx, b.1 - uy * cell * 0.3 + sy);
        arrow(image, tail, tip, cell);
        badges.push((((tail.0 + tip.0) / 2.0, (tail.1 + tip.1) / 2.0), cell));
    }
    let cell = photo.cell_size(start.0, start.1);
    canvas::ring(
        image,
        photo.cell_centre(start.0, start.1),
        cell * 0.46,
        (cell * 0.08).max(2.0),
        ANSWER_INK,
    );
    let exit = photo.any_cell_centre(path.exit.0, path.exit.1);
    let last = *path.cells.last().unwrap_or(&start);
    let cell = photo.cell_size(last.0, last.1);
    canvas::ring(image, exit, cell * 0.2, (cell * 0.1).max(2.0), ANSWER_INK);
    // Badges last, so no later arrow crosses a number.
    for (number, &(centre, cell)) in badges.iter().enumerate() {
        let radius = (cell * 0.28).max(8.0);
        canvas::ring(image, centre, radius / 2.0, radius, Rgb([255, 255, 255]));
        canvas::ring(image, centre, radius, (radius * 0.15).max(1.0), ANSWER_INK);
        let label = (number + 1).to_string();
        let size = if label.len() > 1 {
            radius * 1.1
        } else {
            radius * 1.4
        };
        canvas::draw_label(
            image,
            &font,
            size,
            &label,
            centre,
            HAlign::Centre,
            ANSWER_INK,
        );
    }
}

/// Whether jump `later` runs along the same line as `earlier`, in the same direction, over part
/// of the same stretch (in puzzle cells).
fn overlaps_ahead(earlier: [(i64, i64); 2], later: [(i64, i64); 2]) -> bool {
    let direction = |[a, b]: [(i64, i64); 2]| {
        let (dr, dc) = (b.0 - a.0, b.1 - a.1);
        let steps = dr.abs().max(dc.abs()).max(1);
        ((dr / steps, dc / steps), steps)
    };
    let ((dr, dc), length) = direction(earlier);
    let (same, _) = direction(later);
    if same != (dr, dc) {
        return false;
    }
    let offset = (later[0].0 - earlier[0].0, later[0].1 - earlier[0].1);
    if offset.0 * dc != offset.1 * dr {
        return false;
    }
    // Position of the later jump's start along the earlier one, in steps.
    let along = if dr != 0 {
        offset.0 / dr
    } else {
        offset.1 / dc
    };
    let (_, later_length) = direction(later);
    along < length && along + later_length > 0
}

/// An arrow from `tail` to `tip`: a line and a head scaled to the cell.
fn arrow(image: &mut RgbImage, tail: (f32, f32), tip: (f32, f32), cell: f32) {
    let (dx, dy) = (tip.0 - tail.0, tip.1 - tail.1);
    let length = dx.hypot(dy).max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let head = (cell * 0.32).max(6.0).min(length * 0.6);
    let base = (tip.0 - ux * head, tip.1 - uy * head);
    canvas::line(image, tail, base, (cell * 0.08).max(2.0), ANSWER_INK);
    let (px, py) = (-uy * head * 0.45, ux * head * 0.45);
    canvas::triangle(
        image,
        [tip, (base.0 + px, base.1 + py), (base.0 - px, base.1 - py)],
        ANSWER_INK,
    );
}

/// A white box naming the kind, the verdict and any QR text, in a corner of the photo clear of
/// the puzzle: clear of the lattice and of a margin around it as wide as half the lattice, where
/// a nonogram's clues and a jump maze's exit arrow lie. When no corner is clear (a puzzle that
/// fills the photo, a small image) the box goes on a white strip added below the photo, so it
/// never hides a cell or a clue.
fn draw_legend(
    image: RgbImage,
    lattice: &Lattice,
    puzzle: &dyn Puzzle,
    solved: &Solved,
) -> RgbImage {
    let font = FontName::Sans.font();
    let verdict = if solved.unique {
        "unique solution"
    } else {
        "several solutions, first shown"
    };
    let mut lines = vec![format!(
        "gridsight: {} {}x{}, {verdict}",
        puzzle.kind(),
        puzzle.width(),
        puzzle.height()
    )];
    lines.extend(solved.qr.iter().map(|qr| format!("QR: {qr}")));
    let box_width = |size: f32| {
        lines
            .iter()
            .map(|l| canvas::text_advance(&font, size, l))
            .fold(0.0, f32::max)
            + size
    };
    let natural = (image.width().min(image.height()) as f32 / 30.0).clamp(12.0, 60.0);
    // A legend wider than the photo is shrunk to fit its width, down to a still legible size.
    let size = (natural * image.width() as f32 / box_width(natural)).clamp(8.0, natural);
    let (width, height) = (
        box_width(size),
        size * 1.3 * lines.len() as f32 + size * 0.6,
    );
    let (mut image, left, top) = match clear_corner(
        (image.width() as f32, image.height() as f32),
        (width, height),
        lattice,
    ) {
        Some((left, top)) => (image, left, top),
        None => {
            let photo_height = image.height();
            (
                with_strip_below(image, height.ceil() as u32),
                0.0,
                photo_height as f32,
            )
        }
    };
    canvas::fill_rect(
        &mut image,
        left,
        top,
        left + width,
        top + height,
        Rgb([255, 255, 255]),
    );
    for (i, line) in lines.iter().enumerate() {
        canvas::draw_text(
            &mut image,
            &font,
            size,
            line,
            left + size * 0.5,
            top + size * (1.2 + 1.3 * i as f32),
            Rgb([20, 20, 20]),
        );
    }
    image
}

/// The photo with a white strip `height` pixels tall added below it.
fn with_strip_below(photo: RgbImage, height: u32) -> RgbImage {
    let mut taller =
        RgbImage::from_pixel(photo.width(), photo.height() + height, Rgb([255, 255, 255]));
    image::imageops::replace(&mut taller, &photo, 0, 0);
    taller
}

/// Top-left position of a `legend`-sized box in a corner of an `image`-sized photo that covers
/// neither `lattice` nor the margin around it (top-left first, then top-right, bottom-left,
/// bottom-right); `None` when every corner covers some of them or the box does not fit.
fn clear_corner(image: (f32, f32), legend: (f32, f32), lattice: &Lattice) -> Option<(f32, f32)> {
    if legend.0 > image.0 || legend.1 > image.1 {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in lattice.points.iter().flatten() {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (mx, my) = ((x1 - x0) / 2.0, (y1 - y0) / 2.0);
    let (a0, b0, a1, b1) = (x0 - mx, y0 - my, x1 + mx, y1 + my);
    [
        (0.0, 0.0),
        (image.0 - legend.0, 0.0),
        (0.0, image.1 - legend.1),
        (image.0 - legend.0, image.1 - legend.1),
    ]
    .into_iter()
    .find(|&(left, top)| left + legend.0 <= a0 || left >= a1 || top + legend.1 <= b0 || top >= b1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 x 3 lattice of 10-pixel cells, turned `quarter_turns` from the puzzle.
    fn geometry(quarter_turns: u8) -> PhotoGeometry {
        PhotoGeometry {
            image: RgbImage::new(1, 1),
            lattice: Lattice {
                rows: 2,
                columns: 3,
                points: (0..=2)
                    .map(|r| {
                        (0..=3)
                            .map(|c| (c as f32 * 10.0, r as f32 * 10.0))
                            .collect()
                    })
                    .collect(),
            },
            quarter_turns,
        }
    }

    /// A square lattice of `cells` x `cells` cells of `side` pixels from (`x`, `y`).
    fn square_lattice(x: f32, y: f32, cells: usize, side: f32) -> Lattice {
        Lattice::even(x, y, cells, cells, side)
    }

    #[test]
    fn the_legend_takes_a_corner_clear_of_the_puzzle_and_its_clues() {
        // Clear space all round: top-left.
        let centred = square_lattice(400.0, 400.0, 10, 20.0);
        assert_eq!(
            clear_corner((1000.0, 1000.0), (100.0, 40.0), &centred),
            Some((0.0, 0.0))
        );
        // A grid at the top-left: the top-right corner is past its margin.
        let top_left = square_lattice(20.0, 20.0, 9, 20.0);
        assert_eq!(
            clear_corner((400.0, 400.0), (80.0, 40.0), &top_left),
            Some((320.0, 0.0))
        );
        // A nonogram grid at the bottom-right with its clues above and left of it: only the
        // top-left corner is clear of the clue margin.
        let bottom_right = square_lattice(200.0, 200.0, 10, 15.0);
        assert_eq!(
            clear_corner((400.0, 400.0), (120.0, 40.0), &bottom_right),
            Some((0.0, 0.0))
        );
        // A puzzle filling the photo, or a box wider than it: no corner.
        let filling = square_lattice(10.0, 10.0, 9, 42.0);
        assert_eq!(clear_corner((400.0, 400.0), (80.0, 40.0), &filling), None);
        assert_eq!(clear_corner((100.0, 1000.0), (120.0, 40.0), &centred), None);
    }

    #[test]
    fn a_legend_with_no_clear_corner_goes_below_the_photo_leaving_it_untouched() {
        let photo = RgbImage::from_fn(300, 200, |x, y| Rgb([(x % 256) as u8, (y % 256) as u8, 7]));
        let sudoku = Sudoku { cells: [0; 81] };
        let solved = Solved {
            solution: Box::new(SudokuSolution([1; 81])),
            unique: true,
            qr: None,
            time: std::time::Duration::ZERO,
            trace: None,
        };
        let filling = square_lattice(5.0, 5.0, 9, 21.0);
        let drawn = draw_legend(photo.clone(), &filling, &sudoku, &solved);
        assert_eq!(drawn.width(), photo.width());
        assert!(drawn.height() > photo.height() + 8);
        assert!(photo
            .enumerate_pixels()
            .all(|(x, y, p)| drawn.get_pixel(x, y) == p));
        let inked = (photo.height()..drawn.height())
            .flat_map(|y| (0..drawn.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| drawn.get_pixel(x, y).0[0] < 128)
            .count();
        assert!(
            inked > 50,
            "the strip holds the legend's text ({inked} dark pixels)"
        );

        // With room beside the puzzle, the photo keeps its size and the box is white under
        // its text wherever it stands.
        let small = square_lattice(5.0, 5.0, 9, 8.0);
        let drawn = draw_legend(photo.clone(), &small, &sudoku, &solved);
        assert_eq!(drawn.dimensions(), photo.dimensions());
        let changed: Vec<(u32, u32)> = photo
            .enumerate_pixels()
            .filter(|&(x, y, p)| drawn.get_pixel(x, y) != p)
            .map(|(x, y, _)| (x, y))
            .collect();
        // The lattice spans 5..77 and its margin 36 more each way.
        assert!(
            changed.iter().all(|&(x, y)| x >= 113 || y >= 113),
            "the box stays off the puzzle and its margin"
        );
        assert!(
            changed
                .iter()
                .filter(|&&(x, y)| drawn.get_pixel(x, y).0 == [255; 3])
                .count()
                > 500
        );
    }

    #[test]
    fn cells_beyond_the_lattice_continue_its_spacing_whatever_the_turn() {
        for turns in 0..4 {
            let photo = geometry(turns);
            let (rows, columns) = if turns % 2 == 0 { (2, 3) } else { (3, 2) };
            for row in 0..rows {
                for column in 0..columns {
                    assert_eq!(
                        photo.any_cell_centre(row as i64, column as i64),
                        photo.cell_centre(row, column),
                        "turns {turns}"
                    );
                }
            }
            // Two cells past the last row and one before the first column: the step from
            // one cell to the next, continued.
            let inside = photo.cell_centre(rows - 1, 0);
            let down = {
                let above = photo.cell_centre(rows - 2, 0);
                (inside.0 - above.0, inside.1 - above.1)
            };
            let across = {
                let right = photo.cell_centre(rows - 1, 1);
                (right.0 - inside.0, right.1 - inside.1)
            };
            let beyond = photo.any_cell_centre(rows as i64 + 1, -1);
            let expected = (
                inside.0 + 2.0 * down.0 - across.0,
                inside.1 + 2.0 * down.1 - across.1,
            );
            assert_eq!(beyond, expected, "turns {turns}");
        }
    }

    #[test]
    fn only_jumps_over_the_same_stretch_in_the_same_direction_share_a_lane() {
        let earlier = [(2, 2), (2, 6)];
        assert!(overlaps_ahead(earlier, [(2, 4), (2, 8)]));
        assert!(overlaps_ahead(earlier, [(2, 0), (2, 3)]));
        assert!(!overlaps_ahead(earlier, [(2, 6), (2, 9)]), "end to end");
        assert!(!overlaps_ahead(earlier, [(2, 6), (2, 2)]), "opposite");
        assert!(!overlaps_ahead(earlier, [(3, 2), (3, 6)]), "parallel");
        assert!(overlaps_ahead([(0, 0), (3, 3)], [(1, 1), (5, 5)]));
        assert!(!overlaps_ahead([(0, 0), (3, 3)], [(1, 2), (5, 6)]));
    }
}
