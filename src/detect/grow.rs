//! Grows a lattice outward a row or column of cells at a time while ruled boxes continue beyond
//! it at the same spacing. A magazine nonogram prints its clues in boxes that share the grid's
//! lines but leave an empty corner, so the outline found around it is an L cut to a
//! quadrilateral and its lattice can miss a band of clue boxes (or hold only the clue boxes).
//!
//! A new column of cells left of the lattice is taken where, beside enough of its rows, a ruled
//! line runs one cell further out (looked for near where the rows' own spacing puts it) and
//! the rows' lines reach it. The other sides are the same seen turned. It only adds cells whose
//! box lines are printed and whose middle is not shaded (a drop shadow beside the frame); it
//! does not read them or decide the puzzle's kind.
//!
//! By the same test, [`ruled_through`] tells whether a lattice's outermost row or column is
//! ruled like the one inside it, as a grid's own row is and a line of cells beyond its frame
//! is not.

use image::GrayImage;

use super::{rectify, Edge, Lattice};

/// The share of a side's cells that must have a box beyond them for the lattice to grow there:
/// a magazine nonogram's clue boxes run beside every grid row, the empty corner is beside the
/// others, and the grid is the larger part.
const BOXED_SHARE: f32 = 0.3;
/// How far from the spacing's prediction a new line is looked for, in cells.
const SEARCH: f32 = 0.25;
/// How far a row's line may bend off its straight continuation over one cell, in cells. On a
/// curled page the clue boxes' lines bend most in the outer bands, far from the grid: at 0.12
/// five of 148 generated boxed nonograms, their grids grown from the truth's corners
/// (`examples/grow_eval`), stopped a band or more short of their clue boxes; at 0.25 all five
/// end at them, the 141 that ended there still do, and the two that did not still do not.
const BEND: f32 = 0.25;
/// Points sampled along a cell side to decide whether a line runs along it.
const SAMPLES: usize = 14;
/// The share of those points that must be ink: a digit 1 beside a plain grid covers less.
const INKED_SHARE: f32 = 0.8;
/// Ink is darker than this share of the paper level around it.
const INK_SHARE: f32 = 0.72;
/// Or, when the darkest level around is well below the paper, darker than halfway to it and
/// than this share of the paper.
const FAINT_INK_SHARE: f32 = 0.85;
/// The share of the paper level below which the profile averaged along a segment shows a line.
const DIP_SHARE: f32 = 0.9;
/// Pixels either side along the line averaged into each sample.
const RUN: i32 = 2;
/// A cell beyond the lattice whose middle is darker than this share of the middle of the cell
/// inside next to it is no box: it lies in a drop shadow beside the frame, where a ruled line
/// seems to run everywhere.
const SHADED_SHARE: f32 = 0.5;
/// The most cells added on all sides together, so that a ruled page cannot grow it forever.
const MOST_GROWTH: usize = 80;

/// `lattice` grown outward on every side while printed boxes continue beyond it.
pub fn grow(image: &GrayImage, lattice: &Lattice) -> Lattice {
    let mut current = lattice.clone();
    let mut added = 0;
    while added < MOST_GROWTH {
        let before = added;
        for edge in [Edge::Left, Edge::Bottom, Edge::Right, Edge::Top] {
            let turns = turns_to_left(edge);
            if let Some(wider) = grow_left(image, &current.turned(turns)) {
                current = wider.turned_back(turns);
                added += 1;
            }
        }
        if added == before {
            break;
        }
    }
    current
}

/// The quarter turns of a lattice (see `Lattice::turned`) that put its `edge` on the left: each
/// side is grown and measured as the left side of the lattice seen turned.
fn turns_to_left(edge: Edge) -> u8 {
    match edge {
        Edge::Left => 0,
        Edge::Bottom => 1,
        Edge::Right => 2,
        Edge::Top => 3,
    }
}

/// The share of the lines crossing the row or column of cells next inside that must run on
/// across the outermost one for it to be ruled through. A line of cells beyond the frame has
/// none: the grid's lines stop at the frame.
const RULED_THROUGH_SHARE: f32 = 0.8;

/// Whether `lattice`'s outermost row or column of cells at `edge` is ruled like the one next
/// inside it: the lattice lines crossing both are printed across it as often (at least
/// [`RULED_THROUGH_SHARE`] as many), most of them are printed across the inner one, and its
/// cells' middles are paper, not a drop shadow's shade. A grid's own edge row is; a row beyond
/// the printed frame (a lattice run onto the paper, a page rule or a shadow's edge) is not.
/// `false` for a lattice under three cells across that edge's lines.
pub fn ruled_through(image: &GrayImage, lattice: &Lattice, edge: Edge) -> bool {
    let seen = lattice.turned(turns_to_left(edge));
    let (rows, p) = (seen.rows, &seen.points);
    if seen.columns < 3 || rows < 2 {
        return false;
    }
    let printed = |k: usize, column: usize| {
        let (a, b) = (p[k][column], p[k][column + 1]);
        let across = minus(b, a);
        let pitch = length(across);
        let normal = (-across.1 / pitch.max(1.0), across.0 / pitch.max(1.0));
        line_along(image, a, b, normal, SEARCH * pitch).is_some()
    };
    let crossing = 1..rows;
    let outer = crossing.clone().filter(|&k| printed(k, 0)).count();
    let inner = crossing.clone().filter(|&k| printed(k, 1)).count();
    let paper = (0..rows).all(|r| {
        let cell = |c: usize| [p[r][c], p[r][c + 1], p[r + 1][c + 1], p[r + 1][c]];
        interior_level(image, &cell(0)) >= SHADED_SHARE * interior_level(image, &cell(1))
    });
    inner as f32 >= 0.5 * crossing.len() as f32
        && outer as f32 >= RULED_THROUGH_SHARE * inner as f32
        && paper
}

type Point = (f32, f32);

fn minus(a: Point, b: Point) -> Point {
    (a.0 - b.0, a.1 - b.1)
}

fn plus(a: Point, b: Point) -> Point {
    (a.0 + b.0, a.1 + b.1)
}

fn times(a: Point, k: f32) -> Point {
    (a.0 * k, a.1 * k)
}

fn length(a: Point) -> f32 {
    a.0.hypot(a.1)
}

/// `lattice` with one more column of cells on its left, or `None` when too few of its rows
/// have a box there.
fn grow_left(image: &GrayImage, lattice: &Lattice) -> Option<Lattice> {
    let (rows, p) = (lattice.rows, &lattice.points);
    if lattice.columns < 2 || rows < 2 {
        return None;
    }
    let (width, height) = (image.width() as f32, image.height() as f32);
    // One cell further out along each row line, and the direction and length of that step.
    let steps: Vec<Point> = (0..=rows).map(|r| minus(p[r][0], p[r][1])).collect();
    let predicted: Vec<Point> = (0..=rows).map(|r| plus(p[r][0], steps[r])).collect();
    let inside = |q: &Point| (0.0..width).contains(&q.0) && (0.0..height).contains(&q.1);
    if !predicted.iter().all(inside) {
        return None;
    }
    let offsets: Vec<Option<f32>> = (0..rows)
        .map(|r| {
            let step = plus(steps[r], steps[r + 1]);
            let pitch = length(step) / 2.0;
            if pitch < 4.0 {
                return None;
            }
            let outward = times(step, 1.0 / (2.0 * pitch));
            let (a, b) = (predicted[r], predicted[r + 1]);
            let offset = line_along(image, a, b, outward, SEARCH * pitch)?;
            let across = minus(b, a);
            let normal = times(across, 1.0 / length(across).max(1.0));
            let shifted = |q: Point| plus(q, times(outward, offset));
            let edge = |k: usize| {
                line_along(image, p[k][0], shifted(predicted[k]), normal, BEND * pitch).is_some()
            };
            let beyond = [
                p[r][0],
                p[r + 1][0],
                shifted(predicted[r]),
                shifted(predicted[r + 1]),
            ];
            let next_in = [p[r][0], p[r + 1][0], p[r][1], p[r + 1][1]];
            let paper =
                interior_level(image, &beyond) >= SHADED_SHARE * interior_level(image, &next_in);
            ((edge(r) || edge(r + 1)) && paper).then_some(offset)
        })
        .collect();
    let boxed = offsets.iter().flatten().count();
    if (boxed as f32) < (BOXED_SHARE * rows as f32).max(2.0) {
        return None;
    }
    let points = (0..=rows)
        .map(|r| {
            let beside: Vec<f32> = [r.checked_sub(1), (r < rows).then_some(r)]
                .into_iter()
                .flatten()
                .filter_map(|segment| offsets[segment])
                .collect();
            let offset = beside.iter().sum::<f32>() / beside.len().max(1) as f32;
            let unit = times(steps[r], 1.0 / length(steps[r]).max(1.0));
            let mut row = vec![plus(predicted[r], times(unit, offset))];
            row.extend_from_slice(&p[r]);
            row
        })
        .collect();
    Some(Lattice {
        rows,
        columns: lattice.columns + 1,
        points,
    })
}

/// The mean grey level over the middle of the cell with `corners` (any order around it): the
/// middle two fifths each way, where a box's lines do not reach.
fn interior_level(image: &GrayImage, corners: &[Point; 4]) -> f32 {
    let centre = times(
        corners.iter().fold((0.0, 0.0), |sum, &q| plus(sum, q)),
        0.25,
    );
    let (mut total, mut count) = (0.0, 0.0);
    for &corner in corners {
        for k in 0..=4 {
            // Points from the centre a fifth of the way toward each corner, and between.
            let q = plus(centre, times(minus(corner, centre), 0.4 * k as f32 / 4.0));
            total += f32::from(rectify::sample(image, f64::from(q.0), f64::from(q.1)));
            count += 1.0;
        }
    }
    total / count
}

/// Where a dark ruled line runs from near `a` to near `b`: its offset along the unit `normal`
/// (within `search` pixels either way) at which most points along the segment are ink.
fn line_along(image: &GrayImage, a: Point, b: Point, normal: Point, search: f32) -> Option<f32> {
    let span = minus(b, a);
    if length(span) < 4.0 {
        return None;
    }
    let along = times(span, 1.0 / length(span));
    let step = 0.5;
    let reach = (search / step).ceil() as i32;
    let offsets: Vec<f32> = (-reach..=reach).map(|k| k as f32 * step).collect();
    let profiles: Vec<Vec<u8>> = (0..SAMPLES)
        .map(|k| {
            let t = 0.1 + 0.8 * (k as f32 + 0.5) / SAMPLES as f32;
            let at = plus(a, times(span, t));
            offsets
                .iter()
                .map(|&o| {
                    let q = plus(at, times(normal, o));
                    let total: u32 = (-RUN..=RUN)
                        .map(|j| {
                            let r = plus(q, times(along, j as f32));
                            u32::from(rectify::sample(image, f64::from(r.0), f64::from(r.1)))
                        })
                        .sum();
                    (total / (2 * RUN as u32 + 1)) as u8
                })
                .collect()
        })
        .collect();
    let mut levels: Vec<u8> = profiles.iter().flatten().copied().collect();
    levels.sort_unstable();
    let paper = f32::from(levels[levels.len() * 3 / 4]);
    // A thin line blurred by focus or motion keeps less contrast than ink of a fixed share of
    // the paper; halfway to the darkest level seen still tells it from the paper's noise when
    // that level is itself well below the paper.
    let darkest = f32::from(levels[0]);
    // A line blurred wide keeps a clear dip in the profile averaged along it even where its
    // single samples, noisy, rise above those levels: then ink is darker than halfway to that dip.
    let deepest = (0..offsets.len())
        .map(|i| profiles.iter().map(|p| f32::from(p[i])).sum::<f32>() / SAMPLES as f32)
        .fold(f32::MAX, f32::min);
    let dip = if deepest <= paper * DIP_SHARE {
        (paper + deepest) / 2.0
    } else {
        0.0
    };
    let ink = ((paper + darkest) / 2.0)
        .min(paper * FAINT_INK_SHARE)
        .max(paper * INK_SHARE)
        .max(dip);
    let dark_near = |profile: &[u8], i: usize| {
        let (from, to) = (i.saturating_sub(1), (i + 1).min(profile.len() - 1));
        profile[from..=to].iter().any(|&v| f32::from(v) < ink)
    };
    let (best, count) = (0..offsets.len())
        .map(|i| (i, profiles.iter().filter(|p| dark_near(p, i)).count()))
        .max_by(|x, y| {
            x.1.cmp(&y.1)
                .then(offsets[y.0].abs().total_cmp(&offsets[x.0].abs()))
        })?;
    (count as f32 >= INKED_SHARE * SAMPLES as f32).then_some(offsets[best])
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A page of 10-pixel boxes: `columns` x `rows` of them at (`x0`, `y0`), lines 1 pixel.
    fn boxes(image: &mut GrayImage, x0: u32, y0: u32, columns: u32, rows: u32) {
        for r in 0..=rows {
            for x in x0..=x0 + 10 * columns {
                image.put_pixel(x, y0 + 10 * r, Luma([20]));
            }
        }
        for c in 0..=columns {
            for y in y0..=y0 + 10 * rows {
                image.put_pixel(x0 + 10 * c, y, Luma([20]));
            }
        }
    }

    fn lattice(x0: f32, y0: f32, columns: usize, rows: usize) -> Lattice {
        Lattice::even(x0 + 0.5, y0 + 0.5, rows, columns, 10.0)
    }

    #[test]
    fn grows_into_the_clue_boxes_of_an_l_shaped_grid() {
        // A 6x6 grid at (50, 50) with 3 columns of clue boxes left of it and 2 rows above it.
        let mut image = GrayImage::from_pixel(150, 150, Luma([230]));
        boxes(&mut image, 50, 50, 6, 6);
        boxes(&mut image, 20, 50, 3, 6);
        boxes(&mut image, 50, 30, 6, 2);
        // Found: the grid and one column of clue boxes.
        let grown = grow(&image, &lattice(40.0, 50.0, 7, 6));
        assert_eq!((grown.rows, grown.columns), (8, 9));
        let (x, y) = grown.points[0][0];
        assert!((x - 20.5).abs() < 1.0 && (y - 30.5).abs() < 1.0, "{x} {y}");
    }

    #[test]
    fn grows_into_clue_boxes_whose_lines_bend_away_on_a_curled_page() {
        // A 6x6 grid at (50, 50) with two columns of clue boxes left of it; the outer column's
        // lines run 3 pixels lower than its neighbour's (the page curls), 2.5 off the lattice's.
        let mut image = GrayImage::from_pixel(150, 150, Luma([230]));
        boxes(&mut image, 50, 50, 6, 6);
        boxes(&mut image, 40, 50, 1, 6);
        boxes(&mut image, 30, 53, 1, 6);
        let grown = grow(&image, &lattice(50.0, 50.0, 6, 6));
        assert_eq!((grown.rows, grown.columns), (6, 8));
        let (x, _) = grown.points[3][0];
        assert!((x - 30.5).abs() < 1.0, "{x}");
    }

    #[test]
    fn a_plain_grid_with_numbers_beside_it_does_not_grow() {
        let mut image = GrayImage::from_pixel(150, 150, Luma([230]));
        boxes(&mut image, 50, 50, 6, 6);
        // A column of 1s, 6 pixels tall, one cell left of the grid.
        for r in 0..6 {
            for y in 52..58 {
                image.put_pixel(40, y + 10 * r, Luma([20]));
            }
        }
        let found = lattice(50.0, 50.0, 6, 6);
        assert_eq!(grow(&image, &found), found);
    }

    #[test]
    fn a_grids_own_edge_rows_are_ruled_through_and_a_column_beyond_its_frame_is_not() {
        let mut image = GrayImage::from_pixel(150, 150, Luma([230]));
        boxes(&mut image, 50, 50, 6, 6);
        let grid = lattice(50.0, 50.0, 6, 6);
        for edge in [Edge::Top, Edge::Right, Edge::Bottom, Edge::Left] {
            assert!(ruled_through(&image, &grid, edge), "{edge:?}");
        }
        // One column more on the right, its outer line a page rule beside the frame: the
        // rows' lines stop at the frame.
        for y in 20..130 {
            image.put_pixel(120, y, Luma([20]));
        }
        let beyond = lattice(50.0, 50.0, 7, 6);
        assert!(!ruled_through(&image, &beyond, Edge::Right));
        assert!(ruled_through(&image, &beyond, Edge::Left));
    }
}
