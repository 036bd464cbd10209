//! Reading a number-jump maze: its start cell, which is printed with a ring around its digit
//! (read with the grid's usual margin, the ring's arcs become extra glyphs, "3" reads as "233"),
//! is re-read with the ring erased (see `start_ring`), or from a crop cut inside where it should
//! be when none is found; and a maze read with a hole in it (a blank cell
//! with numbers on all four sides) is found, a digit the reader missed. It does not find the
//! start (the centre cell, as the text format has it) or judge whether the grid is a maze.

use image::GrayImage;

use super::classifier::DigitClassifier;
use super::glyphs::CellContent;
use super::{
    glyphs, read_cell, rules, source_cell, start_ring, CellValue, GridRead, Levels, CELL_PIXELS,
};
use crate::detect::Lattice;

/// Fraction of the cell cut from each side for the start cell: the ring runs at about a tenth
/// of the cell from its edge, the digit (about 0.45 of the cell high) stays inside.
const START_INSET: f32 = 0.21;

/// How far (share of the crop's width) a glyph's middle may stand from the crop's middle and
/// still be part of the start's number: the ring runs round the number, so where the lattice
/// is a little off the ring's arc shows at a side of the crop (a "4" read as "40"), while the
/// digits of a two-digit number stand about a fifth of the crop either side of the middle.
const RING_ARC_OFFSET: f32 = 0.3;

/// `content` without the glyphs standing off the crop's middle by more than
/// [`RING_ARC_OFFSET`] of its `width`, when some glyph stands nearer.
fn without_ring_arcs(content: CellContent, width: u32) -> CellContent {
    let CellContent::Glyphs(found) = content else {
        return content;
    };
    let near_middle = |g: &glyphs::NormalisedGlyph| {
        let centre = (g.bounds.x0 + g.bounds.x1) as f32 / 2.0;
        (centre - width as f32 / 2.0).abs() <= RING_ARC_OFFSET * width as f32
    };
    if found.iter().any(near_middle) {
        CellContent::Glyphs(found.into_iter().filter(near_middle).collect())
    } else {
        CellContent::Glyphs(found)
    }
}

/// The side of the whole start cell's crop the ring is looked for in: the crop inside the ring
/// cut from it is then [`CELL_PIXELS`] wide, as every other cell's is.
const WHOLE_CELL_PIXELS: u32 = (CELL_PIXELS as f32 / (1.0 - 2.0 * START_INSET)) as u32;

/// The [`CELL_PIXELS`] square of `whole` (the whole start cell, ring erased) centred on the
/// ring's middle: where the lattice is a little off, the digit stands in the ring, not in the
/// cell's middle.
fn inside_ring(whole: &GrayImage, ring: &start_ring::Ring) -> GrayImage {
    let most = whole.width().saturating_sub(CELL_PIXELS) as f32;
    let corner = |middle: f32| (middle - CELL_PIXELS as f32 / 2.0).round().clamp(0.0, most) as u32;
    image::imageops::crop_imm(
        whole,
        corner(ring.x),
        corner(ring.y),
        CELL_PIXELS,
        CELL_PIXELS,
    )
    .to_image()
}

/// `read` with its centre cell re-read from inside the ring around it, in the orientation the
/// grid was read in.
pub fn reread_start(
    image: &GrayImage,
    lattice: &Lattice,
    read: &GridRead,
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let (row, column) = (read.rows / 2, read.columns / 2);
    let (r, c) = source_cell(
        row,
        column,
        read.quarter_turns,
        lattice.rows,
        lattice.columns,
    );
    let turned = |crop: GrayImage| match read.quarter_turns % 4 {
        0 => crop,
        1 => image::imageops::rotate90(&crop),
        2 => image::imageops::rotate180(&crop),
        _ => image::imageops::rotate270(&crop),
    };
    let whole = turned(lattice.cell_image(image, r, c, WHOLE_CELL_PIXELS, 0.0));
    let mut reread = read.clone();
    let crop = match start_ring::find(&whole) {
        Some(ring) => inside_ring(&start_ring::erased(&whole, &ring), &ring),
        None => {
            reread.start_off_centre = ring_beside(image, lattice, read, (row, column));
            turned(rules::without_rules(&lattice.cell_image(
                image,
                r,
                c,
                CELL_PIXELS,
                START_INSET,
            )))
        }
    };
    reread.cells[row * read.columns + column] = read_cell(
        without_ring_arcs(
            glyphs::read_cell_with_levels(&crop, levels.paper, levels.ink),
            crop.width(),
        ),
        &crop,
        row,
        column,
        classifier,
    );
    reread
}

/// The cell (row, column, as `read`) next to `middle` that holds the start's ring, if one
/// does: a lattice fitted to the digits that missed a row or column of the maze's edge (a page
/// rule joined that column's digits into one blob) is not centred on the start, and the grid
/// read in it is not the maze, though every digit in it may read surely.
fn ring_beside(
    image: &GrayImage,
    lattice: &Lattice,
    read: &GridRead,
    (row, column): (usize, usize),
) -> Option<(usize, usize)> {
    let near = |centre: usize, count: usize| centre.saturating_sub(1)..=(centre + 1).min(count - 1);
    near(row, read.rows)
        .flat_map(|r| near(column, read.columns).map(move |c| (r, c)))
        .filter(|&place| place != (row, column))
        .find(|&(r, c)| {
            let (source_row, source_column) =
                source_cell(r, c, read.quarter_turns, lattice.rows, lattice.columns);
            let whole =
                lattice.cell_image(image, source_row, source_column, WHOLE_CELL_PIXELS, 0.0);
            start_ring::find(&whole).is_some()
        })
}

/// The first cell (row, column) of a maze's `values` (`rows` x `columns`, row-major) that is
/// read blank with numbers on both sides of it in its row and in its column, if any. A maze is
/// one solid shape, so such a hole is a digit the reader missed (a faint 1 taken for a speck);
/// its solver cannot tell (a way out is found around it), so the reading is refused instead.
pub fn hole(values: &[CellValue], rows: usize, columns: usize) -> Option<(usize, usize)> {
    let number = |r: usize, c: usize| matches!(values[r * columns + c], CellValue::Number(_));
    if values.len() != rows * columns {
        return None;
    }
    (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .find(|&(r, c)| {
            values[r * columns + c] == CellValue::Blank
                && (0..c).any(|k| number(r, k))
                && (c + 1..columns).any(|k| number(r, k))
                && (0..r).any(|k| number(k, c))
                && (r + 1..rows).any(|k| number(k, c))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::glyphs::{Bounds, NormalisedGlyph};

    fn glyph(x0: u32, x1: u32) -> NormalisedGlyph {
        NormalisedGlyph {
            pixels: Vec::new(),
            bounds: Bounds {
                x0,
                y0: 10,
                x1,
                y1: 50,
            },
        }
    }

    fn spans(content: &CellContent) -> Vec<(u32, u32)> {
        match content {
            CellContent::Glyphs(found) => {
                found.iter().map(|g| (g.bounds.x0, g.bounds.x1)).collect()
            }
            _ => Vec::new(),
        }
    }

    #[test]
    fn the_rings_arc_at_the_side_of_the_start_is_dropped() {
        // A generated hard photo read its start "4" as "40": the ring's arc by the crop's edge.
        let arc = CellContent::Glyphs(vec![glyph(22, 42), glyph(54, 63)]);
        assert_eq!(spans(&without_ring_arcs(arc, 64)), vec![(22, 42)]);
        // Both digits of a two-digit start stay.
        let number = CellContent::Glyphs(vec![glyph(10, 30), glyph(34, 54)]);
        assert_eq!(spans(&without_ring_arcs(number, 64)).len(), 2);
        // With nothing near the middle, the reading is left as it is.
        let aside = CellContent::Glyphs(vec![glyph(0, 8)]);
        assert_eq!(spans(&without_ring_arcs(aside, 64)), vec![(0, 8)]);
    }

    /// A maze's values from rows of text: digits are jumps, `.` outside the shape.
    fn maze(rows: &[&str]) -> Vec<CellValue> {
        rows.iter()
            .flat_map(|row| row.chars())
            .map(|ch| match ch.to_digit(10) {
                Some(n) => CellValue::Number(n),
                None => CellValue::Blank,
            })
            .collect()
    }

    #[test]
    fn a_blank_inside_the_maze_is_a_hole_and_the_blanks_around_it_are_not() {
        // A generated hard photo read two 1s inside its maze as blank, and the maze, with a
        // way out around them, was accepted wrong.
        let holed = maze(&[".212.", "13.22", "22131", ".312."]);
        assert_eq!(hole(&holed, 4, 5), Some((1, 2)));
        let whole = maze(&[".212.", "13122", "22131", ".312."]);
        assert_eq!(hole(&whole, 4, 5), None);
        // A notch in the maze's edge is no hole: nothing beyond it in its column.
        let notched = maze(&[".2.2.", "13122", "22131", ".312."]);
        assert_eq!(hole(&notched, 4, 5), None);
    }
}
