//! Reading a number-jump maze: its start cell, which is printed with a ring around its digit
//! (read with the grid's usual margin, the ring's arcs become extra glyphs, "3" reads as "233"),
//! is re-read with the ring erased (see `start_ring`), from inside the ring and from the whole
//! cell at the other cells' scale, the two readings agreed, or from a crop cut inside where it
//! should be when none is found; and a maze read with a hole in it (a blank cell
//! with numbers on all four sides) is found, a digit the reader missed, which is read as the 1
//! it likely is where a page rule was wiped from the cell; and a digit standing just beyond the
//! lattice's edge, part of the maze the lattice missed, is found; and each number is read
//! again with the box lines a curled page bends across its crop wiped, a lone glyph that is a
//! piece of a line running on past the crop is read blank, and a blank at the shape's edge
//! whose ink runs off its crop is read again from the crop moved onto it. It does not find the
//! start (the centre cell, as the text format has it) or judge whether the grid is a maze.

use image::GrayImage;

use super::classifier::DigitClassifier;
use super::glyphs::CellContent;
use super::{
    crossing_lines, glyphs, moved_crop, read_cell, rules, source_cell, start_ring, turned,
    CellRead, CellValue, GridRead, Levels, ALTERNATIVES, CELL_INSET, CELL_PIXELS,
};
use crate::detect::{Edge, Lattice};

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

/// `read` with its centre cell re-read with the ring around it erased, in the orientation the
/// grid was read in: from inside the ring and from the whole cell, agreed (see [`agreed`]).
/// The start is on every way through the maze, and under heavy blur either crop alone read a
/// 5 as a 3 or a 1 as a 4 surely.
pub fn reread_start(
    image: &GrayImage,
    lattice: &Lattice,
    read: &GridRead,
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let (row, column) = read.middle();
    let (r, c) = source_cell(
        row,
        column,
        read.quarter_turns,
        lattice.rows,
        lattice.columns,
    );
    let turned = |crop: GrayImage| turned(&crop, read.quarter_turns);
    let whole = turned(lattice.cell_image(image, r, c, WHOLE_CELL_PIXELS, 0.0));
    let mut reread = read.clone();
    let read_crop = |crop: &GrayImage| {
        read_cell(
            without_ring_arcs(
                glyphs::read_cell_with_levels(crop, levels.paper, levels.ink),
                crop.width(),
            ),
            crop,
            row,
            column,
            classifier,
        )
    };
    let start = match start_ring::find(&whole) {
        Some(ring) => {
            let erased = start_ring::erased(&whole, &ring);
            let inside = read_crop(&inside_ring(&erased, &ring));
            let at_cell_scale = image::imageops::resize(
                &erased,
                CELL_PIXELS,
                CELL_PIXELS,
                image::imageops::FilterType::Triangle,
            );
            agreed(&inside, &read_crop(&at_cell_scale))
        }
        None => {
            reread.start_off_centre = ring_beside(image, lattice, read, (row, column));
            read_crop(&turned(rules::without_rules(&lattice.cell_image(
                image,
                r,
                c,
                CELL_PIXELS,
                START_INSET,
            ))))
        }
    };
    reread.cells[row * read.columns + column] = start;
    reread
}

/// The least probability a reading missing from one crop's ranked readings is given there.
const UNRANKED: f32 = 1e-3;

/// One reading of a cell from two readings of it (two crops of one digit): each value's
/// probabilities' geometric mean, normalised over the values either ranks. Under heavy blur
/// each crop alone may read a digit surely and wrongly; where they disagree the mean keeps the
/// one the other crop least rules out, less sure. Two crops of one print are not independent
/// witnesses, so where they agree the reading is about as sure as they are (a plain product made
/// a blurred start read 63 by both sure enough to pass).
fn agreed(first: &CellRead, second: &CellRead) -> CellRead {
    let ranked = |read: &CellRead| -> Vec<(CellValue, f32)> {
        std::iter::once((read.value, read.confidence))
            .chain(read.alternatives.iter().copied())
            .collect()
    };
    let (a, b) = (ranked(first), ranked(second));
    let probability = |ranked: &[(CellValue, f32)], value: CellValue| {
        ranked
            .iter()
            .find(|(v, _)| *v == value)
            .map_or(UNRANKED, |&(_, p)| p.max(UNRANKED))
    };
    let mut values: Vec<CellValue> = Vec::new();
    for &(value, _) in a.iter().chain(&b) {
        if !values.contains(&value) {
            values.push(value);
        }
    }
    // A value both crops give no more than the floor is no alternative: the start's two
    // crops listed four or five such (each at 0.001 of the reading), and the answer check,
    // weighing each as at least the correctors' least probability (0.01), took them for 5% of
    // doubt and refused a 4 read at 0.99. Each crop's own reading stays, however unsure.
    let above_floor = |value: CellValue| {
        value == a[0].0
            || value == b[0].0
            || probability(&a, value) > UNRANKED
            || probability(&b, value) > UNRANKED
    };
    let mut means: Vec<(CellValue, f32)> = values
        .into_iter()
        .filter(|&value| above_floor(value))
        .map(|value| {
            (
                value,
                (probability(&a, value) * probability(&b, value)).sqrt(),
            )
        })
        .collect();
    let total: f32 = means.iter().map(|(_, p)| p).sum();
    for mean in &mut means {
        mean.1 /= total;
    }
    means.sort_by(|x, y| y.1.total_cmp(&x.1));
    means.truncate(ALTERNATIVES);
    let (value, confidence) = means[0];
    CellRead {
        value,
        confidence,
        alternatives: means[1..].to_vec(),
        ..first.clone()
    }
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
    if values.len() != rows * columns {
        return None;
    }
    (0..rows)
        .flat_map(|r| (0..columns).map(move |c| (r, c)))
        .find(|&place| is_hole(values, columns, place))
}

/// Whether each cell of `read` (row-major) lies within the maze's shape as read: numbers on
/// both sides of it in its row, or in its column. A maze's shapes (diamonds, discs) have no
/// bays, so such a cell read blank is a digit missed, while a cell outside the shape is not.
pub fn within_shape(read: &GridRead) -> Vec<bool> {
    let (rows, columns) = (read.rows, read.columns);
    let values: Vec<CellValue> = read.cells.iter().map(|c| c.value).collect();
    if values.len() != rows * columns {
        return vec![false; values.len()];
    }
    (0..rows * columns)
        .map(|i| {
            let (across, down) = between_numbers(&values, columns, (i / columns, i % columns));
            across || down
        })
        .collect()
}

/// Whether the cell at (`row`, `column`) of `values` (`columns` wide, row-major) has numbers
/// on both sides of it in its row, and in its column.
fn between_numbers(
    values: &[CellValue],
    columns: usize,
    (row, column): (usize, usize),
) -> (bool, bool) {
    let rows = values.len() / columns;
    let number = |r: usize, c: usize| matches!(values[r * columns + c], CellValue::Number(_));
    (
        (0..column).any(|k| number(row, k)) && (column + 1..columns).any(|k| number(row, k)),
        (0..row).any(|k| number(k, column)) && (row + 1..rows).any(|k| number(k, column)),
    )
}

/// Whether none of the four cells beside cell `index` of a maze's `values` (`columns` wide,
/// row-major) holds a number: a maze is one solid shape, every cell of it beside another (a
/// diamond's stepped edge too), so a digit there would lie apart from it, not printed in it
/// (page grain beyond the shape read as a digit).
pub fn apart(values: &[CellValue], columns: usize, index: usize) -> bool {
    if columns == 0 || index >= values.len() {
        return false;
    }
    let (row, column) = (index / columns, index % columns);
    let number = |r: usize, c: usize| {
        c < columns && matches!(values.get(r * columns + c), Some(CellValue::Number(_)))
    };
    let above = row > 0 && number(row - 1, column);
    let left = column > 0 && number(row, column - 1);
    !(above || left || number(row + 1, column) || number(row, column + 1))
}

/// Whether the cell at (`row`, `column`) of `values` is a hole (see [`hole`]).
fn is_hole(values: &[CellValue], columns: usize, (row, column): (usize, usize)) -> bool {
    values[row * columns + column] == CellValue::Blank
        && between_numbers(values, columns, (row, column)) == (true, true)
}

/// `read` (a maze) with each hole (see [`hole`]) in a cell a page rule was wiped from
/// (`ruled`: rows of the unturned lattice's cells, as [`rules::grid_without_rules`] gives
/// them) read as a 1, when 1 is the likeliest number left in it. A 1 is a single stroke: printed
/// on the rule (running along it on the page), it is wiped with the rule but for its serifs or
/// flag, and the cell reads blank or as a speck; any other digit leaves its strokes off the rule
/// and reads as itself. A maze has no holes, so the cell holds a digit, and of the digits only
/// the 1 leaves so little: the 1 is as sure as its share of the cell's number readings.
pub fn ones_on_rules(mut read: GridRead, ruled: &[Vec<bool>]) -> GridRead {
    let columns = read.columns;
    let (lattice_rows, lattice_columns) = read.unturned_shape();
    let values: Vec<CellValue> = read.cells.iter().map(|c| c.value).collect();
    for (index, cell) in read.cells.iter_mut().enumerate() {
        let place = (index / columns, index % columns);
        let (source_row, source_column) = source_cell(
            place.0,
            place.1,
            read.quarter_turns,
            lattice_rows,
            lattice_columns,
        );
        let on_rule = ruled
            .get(source_row)
            .and_then(|row| row.get(source_column))
            .copied()
            .unwrap_or(false);
        if !on_rule || !is_hole(&values, columns, place) {
            continue;
        }
        let mut numbers: Vec<(CellValue, f32)> = cell
            .alternatives
            .iter()
            .copied()
            .filter(|&(value, p)| matches!(value, CellValue::Number(_)) && p > 0.0)
            .collect();
        numbers.sort_by(|a, b| b.1.total_cmp(&a.1));
        let total: f32 = numbers.iter().map(|&(_, p)| p).sum();
        let Some(&(CellValue::Number(1), p)) = numbers.first() else {
            continue;
        };
        cell.value = CellValue::Number(1);
        cell.confidence = p / total;
        cell.alternatives = numbers[1..]
            .iter()
            .map(|&(value, q)| (value, q / total))
            .chain([(CellValue::Blank, 0.0)])
            .collect();
    }
    read
}

/// The least confidence a digit read in a cell beyond the lattice's edge must have to count as
/// part of the maze left out of it (see [`digits_beyond`]).
const BEYOND_CONFIDENCE: f32 = 0.9;

/// Digits standing just beyond a maze's lattice: part of the maze the lattice missed.
#[derive(Debug, Clone, PartialEq)]
pub struct DigitsBeyond {
    /// The first cell (row, column, as read) at the lattice's edge with a digit beyond it.
    pub cell: (usize, usize),
    /// The lattice's edges (as it lies in the photo) with a digit beyond them.
    pub edges: Vec<Edge>,
}

/// The digits beyond the edges of a maze's `lattice`: for each cell of `read` at the edge that
/// holds a digit, the cell beyond it (the lattice's outermost cells carried on, see
/// [`Lattice::with_edge_carried_on`]) read with the grid's levels, a digit at least
/// [`BEYOND_CONFIDENCE`] sure there counting. `None` when there are none. A boxed diamond's
/// lone tip boxes at its widest row, one each side, were left out of its lattice of digits,
/// which held the 15 columns between them, its middle cell still the start, and the maze was
/// solved out through a missing tip with exit 0.
pub fn digits_beyond(
    image: &GrayImage,
    lattice: &Lattice,
    read: &GridRead,
    levels: Levels,
    classifier: &DigitClassifier,
) -> Option<DigitsBeyond> {
    let (rows, columns) = (lattice.rows, lattice.columns);
    let digits: Vec<(usize, usize)> = (0..read.rows)
        .flat_map(|row| (0..read.columns).map(move |column| (row, column)))
        .filter(|&(row, column)| {
            matches!(
                read.cells[row * read.columns + column].value,
                CellValue::Number(_)
            )
        })
        .collect();
    let mut found: Option<DigitsBeyond> = None;
    for edge in [Edge::Top, Edge::Right, Edge::Bottom, Edge::Left] {
        let Some(wider) = lattice.with_edge_carried_on(edge) else {
            continue;
        };
        // The cell of `wider` beyond the lattice's cell (r, c), when that lies at `edge`.
        let beyond = |(r, c): (usize, usize)| match edge {
            Edge::Top => (r == 0).then_some((0, c)),
            Edge::Bottom => (r + 1 == rows).then_some((rows, c)),
            Edge::Left => (c == 0).then_some((r, 0)),
            Edge::Right => (c + 1 == columns).then_some((r, columns)),
        };
        let first = digits.iter().copied().find(|&(row, column)| {
            let source = source_cell(row, column, read.quarter_turns, rows, columns);
            beyond(source).is_some_and(|(r, c)| {
                let crop = turned(
                    &rules::without_rules(&wider.cell_image(image, r, c, CELL_PIXELS, CELL_INSET)),
                    read.quarter_turns,
                );
                let cell = read_at_levels(&crop, levels, (row, column), classifier);
                matches!(cell.value, CellValue::Number(_)) && cell.confidence >= BEYOND_CONFIDENCE
            })
        });
        if let Some(cell) = first {
            found
                .get_or_insert(DigitsBeyond {
                    cell,
                    edges: Vec::new(),
                })
                .edges
                .push(edge);
        }
    }
    found
}

/// The share of its probability a number keeps, as the cell's alternative, when the cell reads
/// blank once the lines crossing it are wiped: a box's side read as a "1" and a 1 printed along
/// a line both leave nothing, so the cell stays in doubt (taken as sure blanks, a hard maze past
/// reading lost a 3 under a line and was answered wrongly).
const WIPED_NUMBER_SHARE: f32 = 0.5;

/// `read` (a maze) with each cell read as a number read again from its crop (`crops`: rows of
/// the unturned lattice's cells, as the grid was cut) with the straight lines crossing it
/// wiped (see [`crossing_lines`]), that reading taken. On a curled page the box lines bend away
/// from the lattice read on them, and a box's side a fifth of a cell inside the crop reads as a
/// sure "1" in a blank cell, or joins a box's corner to a 1 or 3 that reads as a "5". The
/// start is left to [`reread_start`], which reads it again after this.
pub fn with_crossing_lines_wiped(
    mut read: GridRead,
    crops: &[Vec<GrayImage>],
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let (lattice_rows, lattice_columns) = read.unturned_shape();
    let turns = read.quarter_turns;
    for cell in read.cells.iter_mut() {
        if !matches!(cell.value, CellValue::Number(_)) {
            continue;
        }
        let (r, c) = source_cell(cell.row, cell.column, turns, lattice_rows, lattice_columns);
        let Some(wiped) = crossing_lines::without_crossing_lines(&crops[r][c], levels.ink) else {
            continue;
        };
        let again = read_at_levels(
            &turned(&wiped, turns),
            levels,
            (cell.row, cell.column),
            classifier,
        );
        if again.value == CellValue::Blank {
            cell.make_blank_weighing_number(WIPED_NUMBER_SHARE);
        } else {
            *cell = again;
        }
    }
    read
}

/// `read` (a maze) with each blank cell at the shape's edge whose ink runs off its crop
/// (`crops`, `darkness`: the unturned lattice's cells as the grid was cut) toward no cell
/// holding a number read again from the crop moved onto that ink (see [`moved_crop`]), taken
/// when that reads a digit at least [`BEYOND_CONFIDENCE`] sure. On a curled page the lattice's
/// last row, carried on from the rows inside it, sat half a cell off a boxed diamond's lone
/// bottom tip: its digit, in the crop's corner, was read blank at 1.00 and the maze was solved
/// out through it with exit 0. Ink running toward a number may be that number's, and is left.
pub fn with_edge_digits_recentred(
    mut read: GridRead,
    image: &GrayImage,
    lattice: &Lattice,
    (crops, darkness): (&[Vec<GrayImage>], &[Vec<Vec<f32>>]),
    levels: Levels,
    classifier: &DigitClassifier,
) -> GridRead {
    let (rows, columns) = read.unturned_shape();
    let turns = read.quarter_turns;
    let values: Vec<CellValue> = read.cells.iter().map(|cell| cell.value).collect();
    let mut number_at = vec![vec![false; columns]; rows];
    for cell in &read.cells {
        let (r, c) = source_cell(cell.row, cell.column, turns, rows, columns);
        number_at[r][c] = matches!(cell.value, CellValue::Number(_));
    }
    for (index, cell) in read.cells.iter_mut().enumerate() {
        if cell.value != CellValue::Blank || apart(&values, read.columns, index) {
            continue;
        }
        let (r, c) = source_cell(cell.row, cell.column, turns, rows, columns);
        let cut = glyphs::cut_sides(&crops[r][c], &darkness[r][c], levels.ink);
        if !glyphs::cut_off_centre(cut) {
            continue;
        }
        let step = |before: bool, after: bool| isize::from(after) - isize::from(before);
        let (dx, dy) = (step(cut[0], cut[2]), step(cut[1], cut[3]));
        let number_toward = [(dy, 0), (0, dx), (dy, dx)]
            .into_iter()
            .filter(|&toward| toward != (0, 0))
            .any(|(down, across)| {
                let (Some(row), Some(column)) =
                    (r.checked_add_signed(down), c.checked_add_signed(across))
                else {
                    return false;
                };
                number_at
                    .get(row)
                    .and_then(|cells| cells.get(column))
                    .copied()
                    .unwrap_or(false)
            });
        if number_toward {
            continue;
        }
        let mut again = None;
        moved_crop(
            image,
            lattice,
            (r, c),
            cut,
            levels.ink,
            |crop, _, still_cut| {
                if still_cut.contains(&true) {
                    return false;
                }
                let moved = read_at_levels(
                    &turned(crop, turns),
                    levels,
                    (cell.row, cell.column),
                    classifier,
                );
                let digit = matches!(moved.value, CellValue::Number(n) if n < 10)
                    && moved.confidence >= BEYOND_CONFIDENCE;
                if digit {
                    again = Some(moved);
                }
                digit
            },
        );
        if let Some(moved) = again {
            *cell = moved;
        }
    }
    read
}

/// How far (share of the crop) a lone glyph's middle stands off the crop's middle, across
/// the line it may be a piece of, for it to be taken for one: a maze's digits are printed in
/// their cells' middles. 0.15 and 0.2 read the hard dev mazes alike, and 0.15 read one more
/// of 60 mazes past reading exactly (38 against 37).
const LINE_PIECE_OFFSET: f32 = 0.15;

/// How far (share of the cell) the crop is moved onto the side a line's piece runs off, and
/// the share of that crop's rows (or columns) the line then runs through: a digit cut by the
/// crop's side ends within half a cell (about 0.45 of a cell tall), a box's side runs on.
const LINE_PIECE_SHIFT: f32 = 0.5;
const LINE_PIECE_RUN: f32 = 0.9;

/// How far (share of the crop) a line's piece may move across in the crop moved onto it: the
/// line slants across the lattice's cells on a curled page.
const LINE_PIECE_SLANT: f32 = 0.1;

/// The darkness, as a share of the page's ink, at which a line's piece counts as ink (as
/// [`crossing_lines`] counts a line's).
const LINE_PIECE_INK: f32 = 0.5;

/// The share of its probability a number keeps when its glyph is a line's piece.
const LINE_PIECE_NUMBER_SHARE: f32 = 0.1;

/// `read` (a maze) with each number but the start whose lone glyph is a piece of a line read
/// blank: the glyph stands off the crop's middle by more than [`LINE_PIECE_OFFSET`] across,
/// runs off the crop's top or bottom (or, off the middle down, its left or right side), and
/// its band of the crop moved [`LINE_PIECE_SHIFT`] of a cell that way holds ink through
/// [`LINE_PIECE_RUN`] of it. (`crops`, `darkness`: the unturned lattice's cells as the grid was
/// cut.) On a curled page a boxed maze's lattice sat a third of a cell off its boxes, and the
/// corner of a box beside the maze, a short line down from where two box sides meet, read as
/// a "1" at 1.00 in a cell outside the maze: too short in the crop to be told from a 1 by its
/// height, and not crossing the crop from side to side as [`with_crossing_lines_wiped`] wipes.
pub fn with_line_pieces_blank(
    mut read: GridRead,
    image: &GrayImage,
    lattice: &Lattice,
    (crops, darkness): (&[Vec<GrayImage>], &[Vec<Vec<f32>>]),
    levels: Levels,
) -> GridRead {
    let (rows, columns) = read.unturned_shape();
    let turns = read.quarter_turns;
    let start = read.middle();
    for cell in read.cells.iter_mut() {
        if !matches!(cell.value, CellValue::Number(_)) || (cell.row, cell.column) == start {
            continue;
        }
        let (r, c) = source_cell(cell.row, cell.column, turns, rows, columns);
        let (crop, dark) = (&crops[r][c], &darkness[r][c]);
        let CellContent::Glyphs(found) =
            glyphs::read_flattened(crop, dark, levels.paper, levels.ink)
        else {
            continue;
        };
        let [glyph] = found.as_slice() else {
            continue;
        };
        let cut = glyphs::cut_sides(crop, dark, levels.ink);
        if is_line_piece(image, lattice, (r, c), &glyph.bounds, cut, levels.ink) {
            cell.make_blank_weighing_number(LINE_PIECE_NUMBER_SHARE);
        }
    }
    read
}

/// Whether a glyph with `bounds` in the crop of `lattice`'s cell `at` (cut on the `cut` sides:
/// left, top, right, bottom) is a line's piece, see [`with_line_pieces_blank`].
fn is_line_piece(
    image: &GrayImage,
    lattice: &Lattice,
    at: (usize, usize),
    bounds: &glyphs::Bounds,
    cut: [bool; 4],
    ink: f32,
) -> bool {
    let side = CELL_PIXELS as f32;
    let off_middle = |low: u32, high: u32| ((low + high) as f32 / 2.0 - side / 2.0).abs() / side;
    let (across, down) = (
        off_middle(bounds.x0, bounds.x1),
        off_middle(bounds.y0, bounds.y1),
    );
    // A piece standing off the middle across is a piece of an upright line, and the other way.
    let upright = across >= down;
    let (toward_low, toward_high) = if upright {
        (cut[1], cut[3])
    } else {
        (cut[0], cut[2])
    };
    if across.max(down) <= LINE_PIECE_OFFSET || toward_low == toward_high {
        return false;
    }
    let step = if toward_high {
        LINE_PIECE_SHIFT
    } else {
        -LINE_PIECE_SHIFT
    };
    let shift = if upright { (0.0, step) } else { (step, 0.0) };
    let Some(moved) = super::shifted_crop(image, lattice, at, shift) else {
        return false;
    };
    let moved_dark = glyphs::flattened(&moved);
    let n = CELL_PIXELS as usize;
    if moved_dark.len() != n * n {
        return false;
    }
    let (low, high) = if upright {
        (bounds.x0, bounds.x1)
    } else {
        (bounds.y0, bounds.y1)
    };
    // The line may slant across the lattice's cells on a curled page.
    let slant = (LINE_PIECE_SLANT * side) as usize;
    let (band_low, band_high) = ((low as usize).saturating_sub(slant), high as usize + slant);
    let inked = |k: usize| {
        (band_low..band_high.min(n)).any(|j| {
            let index = if upright { k * n + j } else { j * n + k };
            moved_dark[index] >= LINE_PIECE_INK * ink
        })
    };
    (0..n).filter(|&k| inked(k)).count() as f32 >= LINE_PIECE_RUN * n as f32
}

/// The reading of `crop` (a cell's, turned as the grid was read) at the grid's `levels`, as
/// the cell at (`row`, `column`).
fn read_at_levels(
    crop: &GrayImage,
    levels: Levels,
    (row, column): (usize, usize),
    classifier: &DigitClassifier,
) -> CellRead {
    let content = glyphs::read_cell_with_levels(crop, levels.paper, levels.ink);
    read_cell(content, crop, row, column, classifier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::glyphs::{Bounds, NormalisedGlyph};

    /// A 3x3 maze of sure 2s whose centre reads blank with `alternatives`.
    fn maze_with_blank_centre(alternatives: Vec<(CellValue, f32)>) -> GridRead {
        let cells = (0..9)
            .map(|index| CellRead {
                row: index / 3,
                column: index % 3,
                value: if index == 4 {
                    CellValue::Blank
                } else {
                    CellValue::Number(2)
                },
                confidence: if index == 4 { 0.8 } else { 1.0 },
                alternatives: if index == 4 {
                    alternatives.clone()
                } else {
                    Vec::new()
                },
            })
            .collect();
        GridRead::new(3, 3, cells, 0)
    }

    #[test]
    fn cells_within_a_mazes_shape_are_those_between_its_numbers() {
        // A diamond of 2s in a 5x5 grid with three of its digits read blank: r3c2 and r3c4
        // inside it, and r3c1, its left tip.
        let shape = [
            "..2..", //
            ".222.", //
            "..2.2", //
            ".222.", //
            "..2..",
        ];
        let read = crate::read::grid_read(&shape);
        let within = within_shape(&read);
        let at = |row: usize, column: usize| within[row * 5 + column];
        // r3c4 lies between numbers in its row, r3c2 in its column. The tip has none beyond
        // it either way, like the corners and the cells beside the top digit.
        assert!(at(2, 3) && at(2, 1));
        assert!(!at(2, 0) && !at(0, 0) && !at(0, 1) && !at(4, 4));
    }

    #[test]
    fn a_box_side_across_a_cell_read_as_a_one_is_wiped_and_the_cell_read_blank_in_doubt() {
        // A curled page's box side runs through the first crop a fifth of a cell in, where the
        // glyph finder took it for a sure 1; the second crop holds nothing to wipe.
        let paper = image::Luma([225u8]);
        let mut ruled = GrayImage::from_pixel(CELL_PIXELS, CELL_PIXELS, paper);
        for y in 0..CELL_PIXELS {
            let x = 16 - y * 4 / CELL_PIXELS;
            for dx in 0..4 {
                ruled.put_pixel(x + dx, y, image::Luma([50]));
            }
        }
        let crops = vec![vec![
            image::imageops::blur(&ruled, 1.2),
            GrayImage::from_pixel(CELL_PIXELS, CELL_PIXELS, paper),
        ]];
        let cell = |column: usize, digit: u32, confidence: f32| CellRead {
            row: 0,
            column,
            value: CellValue::Number(digit),
            confidence,
            alternatives: vec![(CellValue::Number(7), 1.0 - confidence)],
        };
        let read = GridRead::new(1, 2, vec![cell(0, 1, 0.96), cell(1, 2, 0.9)], 0);
        let levels = Levels {
            paper: 225.0,
            ink: 1.0,
        };
        let wiped = with_crossing_lines_wiped(
            read.clone(),
            &crops,
            levels,
            super::super::bundled_classifier(),
        );
        let line = wiped.get(0, 0);
        assert_eq!(line.value, CellValue::Blank);
        assert!((line.confidence - 0.52).abs() < 1e-6);
        assert_eq!(line.alternatives[0], (CellValue::Number(1), 0.48));
        assert_eq!(wiped.get(0, 1), read.get(0, 1));
    }

    #[test]
    fn a_hole_where_a_rule_was_wiped_is_read_as_the_one_printed_on_it() {
        let ruled = vec![vec![false, true, false]; 3];
        let faint_one = vec![(CellValue::Number(1), 0.2)];
        let read = ones_on_rules(maze_with_blank_centre(faint_one.clone()), &ruled);
        assert_eq!(read.cells[4].value, CellValue::Number(1));
        assert!((read.cells[4].confidence - 1.0).abs() < 1e-6);
        assert_eq!(
            hole(
                &read.cells.iter().map(|c| c.value).collect::<Vec<_>>(),
                3,
                3
            ),
            None
        );
        // Shared with other numbers, the 1 is as sure as its share of them.
        let unsure = vec![(CellValue::Number(1), 0.6), (CellValue::Number(7), 0.2)];
        let read = ones_on_rules(maze_with_blank_centre(unsure), &ruled);
        assert!((read.cells[4].confidence - 0.75).abs() < 1e-6);
        // No rule wiped there, or another digit likelier: any other digit would have shown.
        let unruled = vec![vec![false; 3]; 3];
        let read = ones_on_rules(maze_with_blank_centre(faint_one), &unruled);
        assert_eq!(read.cells[4].value, CellValue::Blank);
        let four = vec![(CellValue::Number(4), 0.5), (CellValue::Number(1), 0.3)];
        let read = ones_on_rules(maze_with_blank_centre(four), &ruled);
        assert_eq!(read.cells[4].value, CellValue::Blank);
    }

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

    fn start_read(ranked: &[(u32, f32)]) -> CellRead {
        let ranked: Vec<(CellValue, f32)> = ranked
            .iter()
            .map(|&(n, p)| (CellValue::Number(n), p))
            .collect();
        CellRead {
            row: 5,
            column: 5,
            value: ranked[0].0,
            confidence: ranked[0].1,
            alternatives: ranked[1..].to_vec(),
        }
    }

    #[test]
    fn two_crops_of_the_start_read_surely_apart_agree_less_surely() {
        // A hard photo's blurred start 5: the crop inside its ring read 3 at 1.00 (5 at
        // 0.002), the whole cell with the ring erased 5 (3 at 0.00001).
        let inside = start_read(&[(3, 0.998), (5, 0.0019)]);
        let whole = start_read(&[(5, 0.99999), (3, 0.00001)]);
        let agreed = agreed(&inside, &whole);
        assert_eq!(agreed.value, CellValue::Number(5));
        assert!(agreed.confidence < 0.996, "{}", agreed.confidence);
        assert_eq!(agreed.alternatives[0].0, CellValue::Number(3));
        assert_eq!((agreed.row, agreed.column), (5, 5));
    }

    #[test]
    fn two_crops_of_the_start_read_alike_agree_at_least_as_surely() {
        let first = start_read(&[(4, 0.8), (1, 0.15), (7, 0.05)]);
        let second = start_read(&[(4, 0.9), (9, 0.1)]);
        let agreed = agreed(&first, &second);
        assert_eq!(agreed.value, CellValue::Number(4));
        assert!(agreed.confidence > 0.9, "{}", agreed.confidence);
    }

    #[test]
    fn values_both_crops_of_the_start_give_the_floor_are_no_alternatives() {
        // A start 4 read surely in both crops, each listing other digits at the floor or
        // below: only a value one crop gives more is kept as an alternative.
        let first = start_read(&[(4, 0.99), (1, 0.0004), (2, 0.0002), (7, 0.009)]);
        let second = start_read(&[(4, 0.995), (1, 0.0003), (5, 0.0001)]);
        let reading = agreed(&first, &second);
        assert_eq!(reading.value, CellValue::Number(4));
        let alternatives: Vec<CellValue> = reading.alternatives.iter().map(|a| a.0).collect();
        assert_eq!(alternatives, [CellValue::Number(7)]);
        // Crops that read nothing surely still agree on a reading.
        let unsure = |value: u32| start_read(&[(value, 0.0005)]);
        assert_eq!(agreed(&unsure(3), &unsure(8)).alternatives.len(), 1);
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

    /// A page of 3x3 cells of `CELL_PIXELS` with an upright bar 5 pixels wide at 0.2 of the
    /// middle cell from its left side, from `top` to `bottom` (pixels), and the lattice on it.
    fn page_with_bar(top: u32, bottom: u32) -> (GrayImage, Lattice) {
        let side = CELL_PIXELS;
        let mut page = GrayImage::from_pixel(3 * side, 3 * side, image::Luma([230]));
        let left = side + side / 5;
        for y in top..bottom {
            for x in left..left + 5 {
                page.put_pixel(x, y, image::Luma([40]));
            }
        }
        let at = |k: usize| (k as u32 * side) as f32;
        let points = (0..4)
            .map(|r| (0..4).map(|c| (at(c), at(r))).collect())
            .collect();
        let lattice = Lattice {
            rows: 3,
            columns: 3,
            points,
        };
        (page, lattice)
    }

    /// Whether the middle cell's lone glyph on `page` is taken for a line's piece.
    fn middle_glyph_is_line_piece(page: &GrayImage, lattice: &Lattice) -> bool {
        let crop = lattice.cell_image(page, 1, 1, CELL_PIXELS, CELL_INSET);
        let dark = glyphs::flattened(&crop);
        let ink = 0.5;
        let CellContent::Glyphs(found) = glyphs::read_flattened(&crop, &dark, 0.9, ink) else {
            panic!("the bar is found as a glyph");
        };
        let cut = glyphs::cut_sides(&crop, &dark, ink);
        assert!(cut[3], "the bar runs off the crop's bottom");
        is_line_piece(page, lattice, (1, 1), &found[0].bounds, cut, ink)
    }

    #[test]
    fn a_box_side_running_on_below_the_crop_is_a_line_piece() {
        // From the middle cell's middle down through the cell below: a box's side.
        let side = CELL_PIXELS;
        let (page, lattice) = page_with_bar(side + side / 2, 3 * side);
        assert!(middle_glyph_is_line_piece(&page, &lattice));
    }

    #[test]
    fn a_digit_the_crop_cuts_at_its_foot_is_not_a_line_piece() {
        // As tall as a digit, its foot a sixth of a cell into the cell below: it ends there.
        let side = CELL_PIXELS;
        let (page, lattice) = page_with_bar(side + side / 2, 2 * side + side / 6);
        assert!(!middle_glyph_is_line_piece(&page, &lattice));
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

    #[test]
    fn a_cell_beside_no_digit_lies_apart_from_the_maze() {
        // A diamond in a 5x5 grid: the grid's corner cells are beside none of its digits (only
        // diagonally past its stepped edge); its own cells and the blanks along its edge are.
        let diamond = maze(&["..2..", ".131.", "21312", ".131.", "..2.."]);
        let index = |row: usize, column: usize| row * 5 + column;
        for corner in [index(0, 0), index(0, 4), index(4, 0), index(4, 4)] {
            assert!(apart(&diamond, 5, corner), "{corner}");
        }
        for beside in [
            index(0, 1),
            index(1, 0),
            index(2, 0),
            index(0, 2),
            index(2, 2),
        ] {
            assert!(!apart(&diamond, 5, beside), "{beside}");
        }
    }
}
