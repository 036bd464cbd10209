//! The detect stage: finds a printed puzzle's grid in a photo and its lattice of cell corners.
//!
//! Method: shrink to about 1000 pixels, mark ink by adaptive threshold (`threshold`), take the
//! largest connected pieces of ink (`components`), fit the largest quadrilateral to each one's
//! convex hull (`quad`), or failing that to the largest group of blank cells (`cells`); try
//! first the quadrilaterals that show a grid already in the shrunk image; warp one upright from
//! the full-resolution image (`rectify`), count the evenly spaced grid lines both ways and follow
//! each line near every crossing (`lines`), and map the crossings back into the photo. Loading
//! with EXIF orientation, and the grey image, are in `load` and `threshold`; `bands` spreads the
//! full-resolution passes over the cores; what it saw on the way, for debugging a photo, is
//! recorded by `inspect`. A puzzle printed as digits without a frame has its lattice found from
//! the digits themselves (`glyph_lattice`), `grow` extends a lattice into the clue boxes a boxed
//! nonogram's outline cut off, and `strips` cuts out the bands beside a grid where a nonogram's
//! clues are printed. When no outline holds evenly spaced lines, those with a dark band along
//! their sides (a drop shadow merged with the frame) are tried again with it cut off (`shadow`).
//! A grid whose border touches finer page rules or a frame has every outline of its ink reach
//! past it: the outlines of the bold ink alone (`bold`) are tried after the others.
//! An outline whose lines cannot be counted, or whose lattice leaves the ink in places (a page
//! curled so strongly its lines bow by a cell or more), has its border traced as curves and the
//! warp straightened along them (`unbow`) before the lines are counted and followed again.
//! An outer line that runs on past the grid's outer cells onto the frame's shadow is pulled
//! back to their inner neighbours' pitch (`overreach`).
//! A grid bowed further still, which no quadrilateral holds, is found from its cells one by one
//! (`cell_lattice`: the paper inside each ruled cell, grown into a lattice as a maze's digits
//! are); the pipeline asks for it only when the outline's lattice fails.
//!
//! It finds boxed grids (Sudoku, Nurikabe, a nonogram's cell grid when its clues are not boxed
//! in) and does not read cell contents. Row 0 is the grid side nearest the top of the image: a
//! puzzle photographed upside down or sideways comes out turned, and only the reader of the
//! digits can tell.

pub(crate) mod bands;
mod bend;
mod bold;
mod cell_lattice;
mod cells;
mod components;
mod glyph_lattice;
pub mod grow;
mod inspect;
mod lines;
mod load;
mod overreach;
mod quad;
mod rectify;
mod shadow;
pub mod strips;
mod threshold;
mod unbow;
mod uneven;

use std::borrow::Cow;
use std::ops::RangeInclusive;

use image::GrayImage;

use crate::photo::geometry::Homography;
pub use inspect::{upright_grid, Inspection};
use lines::Mask;
pub use load::{load_upright, MAX_PIXELS};
pub use threshold::grayscale;

/// What can go wrong while loading a photo or finding its grid.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DetectError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("the image is {width}x{height} pixels, more than the {MAX_PIXELS} allowed")]
    TooLarge { width: u32, height: u32 },
    #[error("cannot decode the image: {}", load::one_line(.0))]
    Corrupt(image::ImageError),
    #[error("no puzzle grid found: {0}")]
    NoPuzzle(String),
}

/// A grid's cell corners in image coordinates: `points[row][column]` for `rows + 1` by
/// `columns + 1` corners, row 0 at the top.
#[derive(Debug, Clone, PartialEq)]
pub struct Lattice {
    pub rows: usize,
    pub columns: usize,
    pub points: Vec<Vec<(f32, f32)>>,
}

#[cfg(test)]
impl Lattice {
    /// An upright lattice of `rows` x `columns` square cells of `side` pixels, its top-left
    /// corner at (`x`, `y`): for tests.
    pub(crate) fn even(x: f32, y: f32, rows: usize, columns: usize, side: f32) -> Lattice {
        Lattice {
            rows,
            columns,
            points: (0..=rows)
                .map(|r| {
                    (0..=columns)
                        .map(|c| (x + c as f32 * side, y + r as f32 * side))
                        .collect()
                })
                .collect(),
        }
    }
}

impl Lattice {
    /// The centre of a cell (the mean of its four corners); (0, 0) outside the lattice.
    pub fn cell_centre(&self, row: usize, column: usize) -> (f32, f32) {
        let Some(c) = self.corners(row, column) else {
            return (0.0, 0.0);
        };
        (
            c.iter().map(|p| p.0).sum::<f32>() / 4.0,
            c.iter().map(|p| p.1).sum::<f32>() / 4.0,
        )
    }

    /// The cell resampled to a `size` x `size` grey square through its own four corners
    /// (bilinear), shrunk by `inset` (a fraction of the cell on each side, e.g. 0.1) to drop the
    /// grid lines. A cell outside the lattice gives a white square.
    pub fn cell_image(
        &self,
        image: &GrayImage,
        row: usize,
        column: usize,
        size: u32,
        inset: f32,
    ) -> GrayImage {
        let Some([a, b, c, d]) = self.corners(row, column) else {
            return GrayImage::from_pixel(size, size, image::Luma([255]));
        };
        let inset = f64::from(inset.clamp(0.0, 0.49));
        let span = 1.0 - 2.0 * inset;
        let point = |p: (f32, f32)| (f64::from(p.0), f64::from(p.1));
        let (a, b, c, d) = (point(a), point(b), point(c), point(d));
        // Where each row and column of the crop falls between the cell's sides (0..1).
        let places: Vec<f64> = (0..size)
            .map(|k| inset + span * (f64::from(k) + 0.5) / f64::from(size))
            .collect();
        let mut pixels = Vec::with_capacity(size as usize * size as usize);
        for &t in &places {
            // Across one row of the crop the bilinear patch is a straight line, start + s * step.
            let start = (a.0 + (d.0 - a.0) * t, a.1 + (d.1 - a.1) * t);
            let end = (b.0 + (c.0 - b.0) * t, b.1 + (c.1 - b.1) * t);
            let step = (end.0 - start.0, end.1 - start.1);
            pixels.extend(
                places
                    .iter()
                    .map(|&s| rectify::sample(image, start.0 + step.0 * s, start.1 + step.1 * s)),
            );
        }
        GrayImage::from_raw(size, size, pixels).unwrap_or_default()
    }

    /// The mean length of its cells' sides, in the photo's pixels (0 without cells).
    pub fn mean_cell_side(&self) -> f32 {
        let distance = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
        let (mut sum, mut sides) = (0.0, 0usize);
        for r in 0..=self.rows {
            for c in 0..=self.columns {
                if c < self.columns {
                    sum += distance(self.points[r][c], self.points[r][c + 1]);
                    sides += 1;
                }
                if r < self.rows {
                    sum += distance(self.points[r][c], self.points[r + 1][c]);
                    sides += 1;
                }
            }
        }
        if sides == 0 {
            0.0
        } else {
            sum / sides as f32
        }
    }

    /// Whether `other` has as many rows and columns and each of its corners lies within
    /// `share` of this lattice's mean cell side of this one's.
    pub fn lies_near(&self, other: &Lattice, share: f32) -> bool {
        let reach = share * self.mean_cell_side();
        (self.rows, self.columns) == (other.rows, other.columns)
            && self
                .points
                .iter()
                .flatten()
                .zip(other.points.iter().flatten())
                .all(|(a, b)| (a.0 - b.0).hypot(a.1 - b.1) <= reach)
    }

    /// The same lattice seen turned `turns` quarter turns clockwise: its cell (row, column) is
    /// this one's `read::source_cell(row, column, turns, ..)`, with the corners relabelled so
    /// that row 0 is the turned grid's top. Anything cut out through the turned lattice comes
    /// out turned with it.
    pub fn turned(&self, turns: u8) -> Lattice {
        let (rows, columns) = (self.rows, self.columns);
        let (turned_rows, turned_columns) = if turns % 2 == 0 {
            (rows, columns)
        } else {
            (columns, rows)
        };
        let points = (0..=turned_rows)
            .map(|i| {
                (0..=turned_columns)
                    .map(|j| {
                        let (r, c) = match turns % 4 {
                            0 => (i, j),
                            1 => (rows - j, i),
                            2 => (rows - i, columns - j),
                            _ => (j, columns - i),
                        };
                        self.points[r][c]
                    })
                    .collect()
            })
            .collect();
        Lattice {
            rows: turned_rows,
            columns: turned_columns,
            points,
        }
    }

    /// The lattice that this one is [`Lattice::turned`] `turns` quarter turns of: what was
    /// worked out on a turned lattice, turned back to lie as the photo does.
    pub fn turned_back(&self, turns: u8) -> Lattice {
        self.turned((4 - turns % 4) % 4)
    }

    /// The lattice less its outermost row or column of cells at `edge`; `None` when that would
    /// leave fewer than two rows or columns.
    pub fn without_edge(&self, edge: Edge) -> Option<Lattice> {
        let mut points = self.points.clone();
        let (mut rows, mut columns) = (self.rows, self.columns);
        match edge {
            Edge::Top | Edge::Bottom if rows > 2 => {
                rows -= 1;
                if edge == Edge::Top {
                    points.remove(0);
                } else {
                    points.pop();
                }
            }
            Edge::Left | Edge::Right if columns > 2 => {
                columns -= 1;
                for row in &mut points {
                    if edge == Edge::Left {
                        row.remove(0);
                    } else {
                        row.pop();
                    }
                }
            }
            _ => return None,
        }
        Some(Lattice {
            rows,
            columns,
            points,
        })
    }

    /// The lattice with one more row or column of cells at `edge`: its outermost cells' sides
    /// carried on as far again; `None` for a lattice without cells.
    pub fn with_edge_carried_on(&self, edge: Edge) -> Option<Lattice> {
        if self.rows == 0 || self.columns == 0 {
            return None;
        }
        let past = |from: (f32, f32), away_from: (f32, f32)| {
            (2.0 * from.0 - away_from.0, 2.0 * from.1 - away_from.1)
        };
        let mut points = self.points.clone();
        let (mut rows, mut columns) = (self.rows, self.columns);
        match edge {
            Edge::Top | Edge::Bottom => {
                rows += 1;
                let last = points.len() - 1;
                let (outer, inner) = if edge == Edge::Top {
                    (0, 1)
                } else {
                    (last, last - 1)
                };
                let line = points[outer]
                    .iter()
                    .zip(&points[inner])
                    .map(|(&a, &b)| past(a, b))
                    .collect();
                if edge == Edge::Top {
                    points.insert(0, line);
                } else {
                    points.push(line);
                }
            }
            Edge::Left | Edge::Right => {
                columns += 1;
                for row in &mut points {
                    if edge == Edge::Left {
                        row.insert(0, past(row[0], row[1]));
                    } else {
                        let last = row.len() - 1;
                        row.push(past(row[last], row[last - 1]));
                    }
                }
            }
        }
        Some(Lattice {
            rows,
            columns,
            points,
        })
    }

    /// The lattice's outer corners in photo pixels: top-left, top-right, bottom-right,
    /// bottom-left.
    pub fn outer_corners(&self) -> [(f64, f64); 4] {
        let corner = |r: usize, c: usize| {
            let (x, y) = self.points[r][c];
            (f64::from(x), f64::from(y))
        };
        let (rows, columns) = (self.rows, self.columns);
        [
            corner(0, 0),
            corner(0, columns),
            corner(rows, columns),
            corner(rows, 0),
        ]
    }

    /// Top-left, top-right, bottom-right, bottom-left corners of a cell.
    fn corners(&self, row: usize, column: usize) -> Option<[(f32, f32); 4]> {
        let top = self.points.get(row)?;
        let bottom = self.points.get(row + 1)?;
        Some([
            *top.get(column)?,
            *top.get(column + 1)?,
            *bottom.get(column + 1)?,
            *bottom.get(column)?,
        ])
    }
}

/// A side of a lattice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Top,
    Right,
    Bottom,
    Left,
}

impl Edge {
    /// The edge's name as a message says it ("top").
    pub fn name(self) -> &'static str {
        match self {
            Edge::Top => "top",
            Edge::Right => "right",
            Edge::Bottom => "bottom",
            Edge::Left => "left",
        }
    }
}

/// A quadrilateral's four corners in photo pixels.
type Corners = [(f64, f64); 4];

/// Long side of the image the grid is first looked for in.
const WORKING_SIZE: u32 = 1000;
/// Long side of the rectified grid the lines are counted and followed in.
const RECTIFIED_SIZE: f64 = 1200.0;
/// How many of the largest ink pieces are tried as the grid's border.
const CANDIDATES: usize = 4;

/// Finds the main puzzle grid: (rows + 1) x (columns + 1) cell-corner points in the image's
/// coordinates, rows and columns counted from the image.
pub fn find_lattice(image: &GrayImage) -> Result<Lattice, DetectError> {
    find_lattice_inspected(image, None)
}

/// [`find_lattice`], recording what it saw on the way in `inspection` when given.
pub fn find_lattice_inspected(
    image: &GrayImage,
    inspection: Option<&mut Inspection>,
) -> Result<Lattice, DetectError> {
    find_lattice_or_last_resort(image, inspection).map_err(|none| none.error)
}

/// Why [`find_lattice_or_last_resort`] found no lattice, and the lattice it would take last.
#[derive(Debug)]
pub struct NoSureLattice {
    pub error: DetectError,
    /// A lattice whose lines leave the ink in places, found only with the lines followed from
    /// one end (a page curled toward one side): to be taken when nothing else is found, after
    /// the lattice of digits, which finds the right grid where this one may miss a line.
    pub last_resort: Option<Lattice>,
}

/// [`find_lattice_inspected`], with the last-resort lattice kept when none is found. Either
/// lattice has its outer lines pulled back off a frame's shadow (see [`overreach`]).
pub fn find_lattice_or_last_resort(
    image: &GrayImage,
    inspection: Option<&mut Inspection>,
) -> Result<Lattice, NoSureLattice> {
    outlined_lattice(image, inspection)
        .map(overreach::pulled_in)
        .map_err(|none| NoSureLattice {
            last_resort: none.last_resort.map(overreach::pulled_in),
            ..none
        })
}

/// [`find_lattice_or_last_resort`] before the outer lines are pulled back.
fn outlined_lattice(
    image: &GrayImage,
    mut inspection: Option<&mut Inspection>,
) -> Result<Lattice, NoSureLattice> {
    let none = |why: String| NoSureLattice {
        error: DetectError::NoPuzzle(why),
        last_resort: None,
    };
    let (width, height) = image.dimensions();
    if width.min(height) < 32 {
        return Err(none(format!("the image is only {width}x{height} pixels")));
    }
    let threshold::ShrunkInk {
        small,
        ink,
        width: sw,
        height: sh,
        factor,
    } = threshold::shrunk_ink(image, WORKING_SIZE);
    if let Some(seen) = inspection.as_deref_mut() {
        seen.record_ink(&ink, sw, sh, factor);
    }
    let min_side = sw.min(sh) / 8;
    let scale = f64::from(factor);
    let to_photo =
        |corners: [(f64, f64); 4]| corners.map(|(x, y)| ((x + 0.5) * scale, (y + 0.5) * scale));
    // Each piece's largest quadrilateral on its hull, and its hull's sides extended when they
    // meet elsewhere (an outline with a corner cut away, as a boxed nonogram's), largest first.
    let hull_outlines = |mask: &[bool]| {
        let mut hulls: Vec<(f64, Corners, Option<Corners>)> =
            components::components(mask, sw, sh, 4 * min_side, min_side)
                .into_iter()
                .filter_map(|piece| {
                    let hull = quad::convex_hull(&piece.outline);
                    let corners = to_photo(quad::largest_quad(&hull)?);
                    let sides = quad::sides_quad(&hull).map(to_photo).filter(|sides| {
                        !same_quad(sides, &corners) && sturdy(sides, min_side as f64 * scale)
                    });
                    Some((quad::area(&corners).abs(), corners, sides))
                })
                .collect();
        hulls.sort_by(|a, b| b.0.total_cmp(&a.0));
        hulls.truncate(CANDIDATES);
        hulls
    };
    let hulls = hull_outlines(&ink);
    // Extended sides are tried only after every other outline: they reach past the ink, so one
    // may show a wrong grid where another outline holds the right one.
    let mut extended: Vec<Corners> = hulls.iter().filter_map(|&(_, _, sides)| sides).collect();
    let mut reason = String::from("no large four-sided outline of ink");
    let mut trimmed = Vec::new();
    // A lattice whose lines run on ink is taken at once. One with lines on paper (an outline
    // bowed off a strongly curled grid, or holding a page rule beside it, gives a wrong count)
    // is kept while the other outlines are tried, and gives way to a lattice on ink.
    let mut best: Option<(f32, Lattice)> = None;
    let take = |tried: Result<(Lattice, f32), NoLattice>,
                best: &mut Option<(f32, Lattice)>|
     -> Result<Lattice, NoLattice> {
        let (lattice, cover) = tried?;
        if cover >= SURE_COVER {
            return Ok(lattice);
        }
        let why = format!(
            "its {}x{} lattice's lines leave the ink ({:.0}% on ink)",
            lattice.rows,
            lattice.columns,
            cover * 100.0
        );
        if best
            .as_ref()
            .is_none_or(|(most, _)| cover > most + BETTER_COVER)
        {
            *best = Some((cover, lattice));
        }
        Err(why.into())
    };
    // `take`, with the outline and what it gave recorded in the inspection.
    let mut take_recorded = |corners: Corners,
                             found: Result<(Lattice, f32), NoLattice>,
                             best: &mut Option<(f32, Lattice)>|
     -> Result<Lattice, NoLattice> {
        let tried = take(found, best);
        if let Some(seen) = inspection.as_deref_mut() {
            seen.record_outline(corners, &tried.as_ref().map_err(|no| no.why.clone()));
        }
        tried
    };
    // Whether an outline that failed held no evenly spaced lines. `nicked`: the cells' group's
    // outline counted both ways (see below), once it is found.
    let mut try_outline =
        |corners: Corners, nicked: Option<(Corners, Corners)>| -> Result<Lattice, bool> {
            let (corners, found) = match nicked {
                Some((largest, sides)) if corners == largest => more_on_ink(image, largest, sides),
                _ => (corners, lattice_in(image, corners, false)),
            };
            take_recorded(corners, found, &mut best).map_err(|no| {
                reason = no.why;
                trimmed.extend(no.trimmed);
                no.uncounted
            })
        };
    // Each outline is first looked at in the working image, where warping it costs a few
    // percent of the full-resolution warp: one that shows no grid there (the page's edge, a
    // block of text) is only tried at full resolution after every one that does. An outline
    // that shows one is tried at once, so the outlines after the grid's are never looked at.
    let mut others = Vec::new();
    let mut uncounted = Vec::new();
    let mut try_or_defer = |corners: Corners, nicked| {
        if !shows_grid(&small, factor, corners) {
            others.push(corners);
            return None;
        }
        match try_outline(corners, nicked) {
            Ok(lattice) => Some(lattice),
            Err(counted) => {
                if counted {
                    uncounted.push(corners);
                }
                None
            }
        }
    };
    for &(_, corners, _) in &hulls {
        if let Some(lattice) = try_or_defer(corners, None) {
            return Ok(lattice);
        }
    }
    // Last, the outline of the largest group of cells, for a grid whose border touches other print.
    // Grouping the blank pieces costs more than finding the ink's outlines, so it is done only
    // when none of those gave a lattice on ink.
    // A boxed nonogram's blank clue boxes group with its cells, so that group's hull has a corner
    // cut away as the ink's does: its sides extended are tried with the others' (a page rule
    // crossing the clue boxes joins the ink's outline to it, whose sides then reach off the grid).
    // The larger of the groups found with the grid's lines as thresholded and with their gaps
    // closed (a pixel's gap joins whole blocks of cells into one piece, left out of the group).
    let open_pieces = cells::BlankPieces::of(&ink, sw, sh, false);
    let group_hull = |pieces: &cells::BlankPieces| {
        let hull = quad::convex_hull(&pieces.largest_group(false)?);
        let area = quad::area(&quad::largest_quad(&hull)?).abs();
        Some((area, hull))
    };
    // A few cells missing at one corner of the group (cut by a page rule, merged through gaps
    // in a thin line) nick its hull there: the largest quadrilateral then cuts that corner off
    // the grid, and the lines counted in it are followed off the printed ones near it, while
    // the hull's sides extended meet at the grid's corner. Yet a curled side, or paper beside
    // the grid grouped with its cells, bends a side so its extension overshoots the corner: so
    // the group's outline, when its extended sides lie near it, is counted both ways and the
    // lattice with more of its lines on ink is taken.
    let mut nicked: Option<(Corners, Corners)> = None;
    let mut group_corners: Option<Corners> = None;
    if let Some((_, hull)) = [
        group_hull(&open_pieces),
        group_hull(&cells::BlankPieces::of(&ink, sw, sh, true)),
    ]
    .into_iter()
    .flatten()
    .max_by(|a, b| a.0.total_cmp(&b.0))
    {
        if let Some(corners) = quad::largest_quad(&hull).map(to_photo) {
            group_corners = Some(corners);
            let sides = quad::sides_quad(&hull).map(to_photo).filter(|sides| {
                !same_quad(sides, &corners)
                    && sturdy(sides, min_side as f64 * scale)
                    && !extended.iter().any(|tried| same_quad(sides, tried))
            });
            match sides {
                Some(sides) if near_quad(&sides, &corners, NICKED_CORNER) => {
                    nicked = Some((corners, sides));
                }
                sides => extended.extend(sides),
            }
        }
    }
    if let Some(corners) = group_corners {
        if let Some(lattice) = try_or_defer(corners, nicked) {
            return Ok(lattice);
        }
    }
    // Then the group of every box, those holding a clue digit with them: a boxed nonogram's
    // clue boxes next to the grid all hold digits, so the group above may lack whole bands of
    // them, cut where a page rule or paper leaking through a gap breaks the chain of cells.
    // Its hull is the L of the page, whose sides extended are its outline.
    if let Some(hull) = open_pieces
        .largest_group(true)
        .map(|points| quad::convex_hull(&points))
    {
        let tried_pieces: Vec<Corners> = hulls
            .iter()
            .map(|&(_, corners, _)| corners)
            .chain(group_corners)
            .collect();
        let outlines: Vec<Corners> = [quad::sides_quad(&hull), quad::largest_quad(&hull)]
            .into_iter()
            .flatten()
            .map(to_photo)
            .filter(|corners| {
                sturdy(corners, min_side as f64 * scale)
                    && !tried_pieces.iter().any(|tried| same_quad(corners, tried))
            })
            .collect();
        for corners in outlines {
            if !extended.iter().any(|tried| same_quad(&corners, tried)) {
                extended.push(corners);
            }
        }
    }
    // Then the outlines of the bold ink alone, for a grid whose border touches a page rule or a
    // frame printed finer than it: joined to the grid, these bend every outline above off it.
    let mut bold_outlines: Vec<Corners> = Vec::new();
    for radius in BOLD_RADII {
        for corners in hull_outlines(&bold::opened(&ink, sw, sh, radius))
            .into_iter()
            .flat_map(|(_, corners, sides)| std::iter::once(corners).chain(sides))
        {
            let seen = hulls.iter().any(|(_, tried, _)| same_quad(&corners, tried))
                || bold_outlines.iter().any(|tried| same_quad(&corners, tried));
            if !seen {
                bold_outlines.push(corners);
            }
        }
    }
    for corners in others.into_iter().chain(extended).chain(bold_outlines) {
        match try_outline(corners, nicked) {
            Ok(lattice) => return Ok(lattice),
            Err(true) => uncounted.push(corners),
            Err(false) => {}
        }
    }
    // A page curled toward one side only (a magazine's inner margin) moves the fine lines there
    // off their straight places by up to half a cell, and no outline's lines count. Only when no
    // lattice is sure are the outlines whose lines could not be counted counted again with each
    // line also followed from either end: a line followed that way finds ink elsewhere too, and
    // counted so from the start it put lattices on outlines beside the grid (sure ones, on a
    // Sudoku photo). Here when a lattice that is not sure would be taken next; when there is
    // none, after the outlines cut free of a shadow and the squared ones, which came first, and
    // then a lattice that is not sure is only kept as the last resort: the lattice of digits
    // comes before it (on a generated boxed photo, followed so, a lattice missed a cell column
    // the grid around the digits' crossings holds).
    if best.is_some() {
        for &corners in &uncounted {
            if let Ok(lattice) = take_recorded(corners, lattice_in(image, corners, true), &mut best)
            {
                return Ok(lattice);
            }
        }
    }
    if let Some((_, lattice)) = best {
        return Ok(lattice);
    }
    // Only then the outlines cut free of a shadow: cutting one can make a wrong grid fit where
    // another outline holds the right one.
    let mut trimmed_uncounted = Vec::new();
    for corners in trimmed {
        match take_recorded(corners, lattice_in(image, corners, false), &mut best) {
            Ok(lattice) => return Ok(lattice),
            Err(no) if no.uncounted => trimmed_uncounted.push(corners),
            Err(_) => {}
        }
    }
    // Last, each outline whose lines could not be counted, with one corner moved to complete
    // the parallelogram of the other three, where that shows a grid in the working image: a
    // grid's border joined at one corner to print beside it (a page rule, a neighbouring
    // puzzle's box lines) pulls that corner of the hull off the grid, and the lines no longer
    // run evenly across the warp.
    for &corners in uncounted.iter().take(SQUARED_OUTLINES) {
        for moved in 0..4 {
            let Some(squared) = squared_corner(corners, moved).filter(|squared| {
                sturdy(squared, min_side as f64 * scale) && shows_grid(&small, factor, *squared)
            }) else {
                continue;
            };
            let found = lattice_warped(image, squared, MARGIN, false, false, false);
            if let Ok(lattice) = take_recorded(squared, found, &mut best) {
                return Ok(lattice);
            }
        }
    }
    if let Some((_, lattice)) = best {
        return Ok(lattice);
    }
    for corners in trimmed_uncounted.into_iter().chain(uncounted) {
        if let Ok(lattice) = take_recorded(corners, lattice_in(image, corners, true), &mut best) {
            return Ok(lattice);
        }
    }
    Err(NoSureLattice {
        error: DetectError::NoPuzzle(reason),
        last_resort: best.map(|(_, lattice)| lattice),
    })
}

/// How many outlines whose lines could not be counted are tried again with a corner squared
/// (see [`squared_corner`]), first tried first: each costs up to four warps of the photo.
const SQUARED_OUTLINES: usize = 8;
/// The least distance a squared corner must move, as a share of the outline's shorter side,
/// for the squared outline to be worth trying.
const LEAST_SQUARING: f64 = 0.04;

/// `corners` (in order around the outline) with corner `moved` put where it completes the
/// parallelogram of the other three, or `None` when it would move less than
/// [`LEAST_SQUARING`] (the same outline) or lose half the outline's area (three corners
/// nearly in a line: no grid's).
fn squared_corner(corners: Corners, moved: usize) -> Option<Corners> {
    let [before, opposite, after] = [1, 2, 3].map(|k| corners[(moved + k) % 4]);
    let place = (
        before.0 + after.0 - opposite.0,
        before.1 + after.1 - opposite.1,
    );
    let shorter = {
        let (across, down) = sides(&upright_order(corners));
        across.min(down)
    };
    let (from, to) = (corners[moved], place);
    if (to.0 - from.0).hypot(to.1 - from.1) < LEAST_SQUARING * shorter {
        return None;
    }
    let mut squared = corners;
    squared[moved] = place;
    (quad::area(&squared).abs() >= quad::area(&corners).abs() / 2.0).then_some(squared)
}

/// The radii (working-image pixels) of the openings that leave a grid's bold border and drop
/// the finer rules touching it (see `bold`): how bold a border is in the working image depends
/// on the print and how much of the photo the grid fills.
const BOLD_RADII: [usize; 2] = [1, 2];

/// The share of a lattice's lines on ink (see [`line_cover`]) from which it is taken without
/// trying other outlines: a lattice followed along printed lines has nearly all of them on
/// ink, even blurred, while one led off the grid by a wrong outline has whole lines on paper.
const SURE_COVER: f32 = 0.9;
/// How much more of its lines on ink a later outline's lattice must have to replace an earlier
/// one that was not sure: small grids and boxed mazes have fine lines that show patchily, and
/// the first outline found is the likelier one.
const BETTER_COVER: f32 = 0.1;

/// Whether a quadrilateral's sides are all at least `shortest` pixels long and its sides across
/// and down within eight times each other, as a grid's outline (and the rectifier) needs.
fn sturdy(corners: &[(f64, f64); 4], shortest: f64) -> bool {
    let corners = upright_order(*corners);
    let length = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    let (across, down) = sides(&corners);
    (0..4).all(|k| length(corners[k], corners[(k + 1) % 4]) >= shortest)
        && across.max(down) <= 8.0 * across.min(down)
}

/// Whether every corner of quadrilateral `a` lies within 2% of its size of one of `b`'s.
fn same_quad(a: &[(f64, f64); 4], b: &[(f64, f64); 4]) -> bool {
    near_quad(a, b, 0.02)
}

/// How far the corners of the cells' group's extended sides may lie from its largest
/// quadrilateral's, as a share of its size, for both to be counted (see
/// `find_lattice_or_last_resort`): about a cell of a small grid.
const NICKED_CORNER: f64 = 0.08;

/// Whether every corner of quadrilateral `a` lies within `share` of its size of one of `b`'s.
fn near_quad(a: &[(f64, f64); 4], b: &[(f64, f64); 4], share: f64) -> bool {
    let size = quad::area(a).abs().sqrt();
    a.iter().all(|p| {
        b.iter()
            .any(|q| (p.0 - q.0).hypot(p.1 - q.1) <= share * size)
    })
}

/// How much more of its lines on ink the lattice in the group's extended sides must have to be
/// taken over its largest quadrilateral's: both hold nearly all on ink where the grid's corner
/// is not nicked, while a corner cut off the grid leaves a tenth of them off the printed lines.
const NICKED_BETTER: f32 = 0.05;

/// Of the lattices in outlines `first` and `second`, `second`'s when it has clearly more of its
/// lines on ink (or is the only one found), with its outline; else `first`'s.
fn more_on_ink(
    image: &GrayImage,
    first: Corners,
    second: Corners,
) -> (Corners, Result<(Lattice, f32), NoLattice>) {
    let (one, other) = (
        lattice_in(image, first, false),
        lattice_in(image, second, false),
    );
    let better = match (&one, &other) {
        (Ok((_, a)), Ok((_, b))) => *b > a + NICKED_BETTER,
        (Err(_), Ok(_)) => true,
        _ => false,
    };
    if better {
        (second, other)
    } else {
        (first, one)
    }
}

/// The lattice inside a known outline of the grid, `corners` in photo pixels in any order
/// around it: a generated photo's truth grid corners (to measure reading apart from finding
/// the outline), or a grown lattice's. The lines are counted and followed as for an outline
/// found in the photo.
pub fn find_lattice_in_outline(
    image: &GrayImage,
    corners: [(f64, f64); 4],
) -> Result<Lattice, DetectError> {
    lattice_in(image, corners, false)
        .map(|(lattice, _)| lattice)
        .map_err(|no| DetectError::NoPuzzle(no.why))
}

/// The grid whose line crossings a lattice of digits was found on: blurred, a grid's fine lines
/// fade but their crossings stay dark, evenly spaced blobs that pass for a puzzle printed as
/// digits, with a lattice half a cell off the grid's and one cell short each way. Its outline
/// is moved out by half a cell each side and the lines counted inside it; `None` unless they
/// are and nearly all of them run on ink (no grid there: digits, not crossings).
pub fn grid_around_crossings(image: &GrayImage, digits: &Lattice) -> Option<Lattice> {
    let (rows, columns) = (digits.rows, digits.columns);
    if rows == 0 || columns == 0 {
        return None;
    }
    let point = |r: usize, c: usize| {
        let (x, y) = digits.points[r][c];
        (f64::from(x), f64::from(y))
    };
    // Each outer corner moved out along both sides by half the neighbouring cell.
    let moved = |r: usize, c: usize, inward_r: usize, inward_c: usize| {
        let (x, y) = point(r, c);
        let (ax, ay) = point(inward_r, c);
        let (bx, by) = point(r, inward_c);
        (
            x + 0.5 * (x - ax) + 0.5 * (x - bx),
            y + 0.5 * (y - ay) + 0.5 * (y - by),
        )
    };
    let corners = [
        moved(0, 0, 1, 1),
        moved(0, columns, 1, columns - 1),
        moved(rows, columns, rows - 1, columns - 1),
        moved(rows, 0, rows - 1, 1),
    ];
    lattice_in(image, corners, false)
        .ok()
        .filter(|&(_, cover)| cover >= SURE_COVER)
        .map(|(lattice, _)| lattice)
}

/// The lattice of a puzzle printed as digits without a frame (the number-jump maze, plain or
/// each cell boxed): rows and columns the bounding box of the digits found. See `glyph_lattice`.
pub fn find_glyph_lattice(image: &GrayImage) -> Result<Lattice, DetectError> {
    glyph_lattice::find(image).map_err(|why| DetectError::NoPuzzle(why.to_string()))
}

/// The lattice of a grid's cells found one by one, for a page curled too strongly for any
/// outline to hold its grid: rows and columns the bounding box of the cells found. See
/// `cell_lattice`.
pub fn find_cell_lattice(image: &GrayImage) -> Result<Lattice, DetectError> {
    cell_lattice::find(image).map_err(|why| DetectError::NoPuzzle(why.to_string()))
}

/// Long side of the rectified preview an outline is first checked in.
const PREVIEW_SIZE: f64 = 400.0;

/// Whether the outline `corners` (photo pixels) shows evenly spaced lines both ways when warped
/// from `small`, the photo shrunk by `factor`, at no more than [`PREVIEW_SIZE`].
fn shows_grid(small: &GrayImage, factor: u32, corners: [(f64, f64); 4]) -> bool {
    let corners = upright_order(corners);
    let in_small = corners.map(|(x, y)| (x / f64::from(factor), y / f64::from(factor)));
    let (across, down) = sides(&in_small);
    let scale = (PREVIEW_SIZE / across.max(down)).min(1.0);
    let (rw, rh) = (
        (across * scale).round() as usize,
        (down * scale).round() as usize,
    );
    let rectangle = [
        (0.0, 0.0),
        (rw as f64, 0.0),
        (rw as f64, rh as f64),
        (0.0, rh as f64),
    ];
    Homography::from_points(rectangle, in_small)
        .and_then(|to_small| grid_mask(small, (0, 0), &to_small, rw, rh).ok())
        .is_some_and(|mask| cell_counts(&mask, false).is_ok())
}

/// The mean lengths of the quadrilateral's top and bottom sides (across) and of its left and
/// right sides (down), corners in upright order.
fn sides(corners: &[(f64, f64); 4]) -> (f64, f64) {
    let length = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    (
        (length(corners[0], corners[1]) + length(corners[3], corners[2])) / 2.0,
        (length(corners[0], corners[3]) + length(corners[1], corners[2])) / 2.0,
    )
}

/// The ink mask of the `width` x `height` rectangle `to_source` maps into `source` (whose top-left
/// pixel is the photo's `origin`), or why it cannot hold a grid.
fn grid_mask(
    source: &GrayImage,
    origin: (u32, u32),
    to_source: &Homography,
    width: usize,
    height: usize,
) -> Result<Mask, String> {
    let pixels = rectify::warp(source, origin, to_source, width, height);
    let mut ink = threshold::adaptive(&pixels, width, height, width.max(height) / 40 + 3, 6);
    clear_off_photo(&mut ink, source, origin, to_source, width, height);
    let mask = Mask::of_ink(ink, width, height);
    let density = mask.ink.iter().filter(|&&i| i).count() as f64 / mask.ink.len().max(1) as f64;
    if density > 0.45 {
        return Err(format!(
            "{:.0}% of the outline is ink: not a grid",
            density * 100.0
        ));
    }
    Ok(mask.without_solids(width.max(height) / 50))
}

/// Clears the ink of the `width` x `height` rectified mask where it shows no part of `source`
/// (a part of the photo whose top-left pixel is the photo's `origin`, as in `rectify::warp`):
/// the warp repeats the photo's edge pixels there, and their streaks threshold into long lines
/// beside a grid that fills the photo, which a curled border's trace would follow.
fn clear_off_photo(
    ink: &mut [bool],
    source: &GrayImage,
    origin: (u32, u32),
    to_source: &Homography,
    width: usize,
    height: usize,
) {
    let (ox, oy) = (f64::from(origin.0), f64::from(origin.1));
    let (w, h) = (f64::from(source.width()), f64::from(source.height()));
    let on_photo = |(u, v): (f64, f64)| {
        let (x, y) = to_source.apply((u, v));
        (0.0..=w).contains(&(x - ox)) && (0.0..=h).contains(&(y - oy))
    };
    // The rectangle maps to a convex quadrilateral: all of it is on the photo when its corners are.
    let (fw, fh) = (width as f64, height as f64);
    if [(0.0, 0.0), (fw, 0.0), (fw, fh), (0.0, fh)]
        .into_iter()
        .all(on_photo)
    {
        return;
    }
    for (y, row) in ink.chunks_exact_mut(width.max(1)).enumerate() {
        for (x, pixel) in row.iter_mut().enumerate() {
            if *pixel && !on_photo((x as f64 + 0.5, y as f64 + 0.5)) {
                *pixel = false;
            }
        }
    }
}

/// How many times longer than wide a cell may be. Printed grids have square cells or nearly;
/// one way counted right and the other only every third line (a Sudoku's box lines, in an
/// outline cut short or bent) gives cells three times too long.
const MOST_CELL_ASPECT: f64 = 2.0;

/// The rows and columns of evenly spaced cells in `mask`, or why there are none; with
/// `from_one_end`, lines are also followed from either end (see `lines::count_cells`).
fn cell_counts(mask: &Mask, from_one_end: bool) -> Result<(usize, usize), String> {
    let columns =
        lines::count_cells(mask, from_one_end).ok_or("no evenly spaced vertical lines")?;
    let rows = lines::count_rows(mask, from_one_end).ok_or("no evenly spaced horizontal lines")?;
    let aspect = (mask.width as f64 / columns as f64) / (mask.height as f64 / rows as f64);
    if aspect.max(1.0 / aspect) > MOST_CELL_ASPECT {
        return Err(format!(
            "{rows}x{columns} cells {aspect:.1} times as wide as tall: not a grid"
        ));
    }
    Ok((rows, columns))
}

/// A band narrower than this share of the rectified outline's long side is only a frame.
const SHADOW_SHARE: f64 = 1.0 / 150.0;

/// Why an outline holds no lattice, and the outline with a dark band along its sides cut off
/// (a drop shadow merged with the frame) when it has one, to try once every outline has failed.
struct NoLattice {
    why: String,
    trimmed: Option<Corners>,
    /// The outline was fine but no evenly spaced lines were counted in it.
    uncounted: bool,
}

impl From<String> for NoLattice {
    fn from(why: String) -> Self {
        NoLattice {
            why,
            trimmed: None,
            uncounted: false,
        }
    }
}

impl From<&str> for NoLattice {
    fn from(why: &str) -> Self {
        why.to_string().into()
    }
}

/// The margin warped around the outline, as a fraction of its longer side: a curled page bows
/// the grid's border lines out past the straight outline through its corners, and they are
/// followed there. Kept small: a wider one lets a boxed nonogram's border line wander onto its
/// clue boxes' rules.
const MARGIN: f64 = 0.02;

/// The margin warped around an outline whose border is traced as curves, for its border lines
/// bowed out past it by a strongly curled page (see `unbow`).
const CURL_MARGIN: f64 = 0.12;
/// How far (share of the rectified outline's long side) the traced border must bend off
/// straight before the mask is straightened: less is within what counting tolerates.
const LEAST_BOW: f64 = 0.01;
/// The share of its lines on ink (see [`line_cover`]) below which a lattice found in the
/// straight warp is found again in the straightened one: lines followed through a bend leave
/// the ink here and there where the curl is strongest (a lifted edge), and cells cut there
/// hold slivers of grid line that read as 1s.
const STRAIGHT_COVER: f32 = 0.97;

/// The lattice inside the quadrilateral `corners` (any order around it) and the share of its
/// lines on ink (see [`line_cover`]), or why there is none. When no evenly spaced lines show in
/// the straight warp, the outline's border is traced as curves and the warp straightened along
/// them (a strongly curled grid), and the lines counted again; a lattice whose lines leave the
/// ink in places is found again that way too, and the one whose lines run more on ink is kept
/// (when counted otherwise there, only as a recount, see below).
/// With `from_one_end`, lines are also followed from either end when counted (see
/// `lines::count_cells`).
fn lattice_in(
    image: &GrayImage,
    corners: [(f64, f64); 4],
    from_one_end: bool,
) -> Result<(Lattice, f32), NoLattice> {
    let unbowed = || lattice_warped(image, corners, CURL_MARGIN, true, false, from_one_end);
    let size = |lattice: &Lattice| (lattice.rows, lattice.columns);
    // The straightened warp's lattice when it counts the lines otherwise than the straight one.
    let mut counted_otherwise = None;
    let found = match lattice_warped(image, corners, MARGIN, false, false, from_one_end) {
        Err(no) if no.uncounted => unbowed().map_err(|_| no),
        Ok(straight) if straight.1 < STRAIGHT_COVER => match unbowed() {
            Ok(unbowed) if size(&unbowed.0) != size(&straight.0) => {
                counted_otherwise = Some(unbowed);
                Ok(straight)
            }
            Ok(unbowed) if unbowed.1 > straight.1 => Ok(unbowed),
            _ => Ok(straight),
        },
        found => found,
    };
    // Lines that leave the ink may be one too many or too few one way (a page rule beside the
    // border counted as one more line, a bend squeezing the spacing): a count one off that puts
    // clearly more of its lines on ink is the grid's. So is the straightened warp's count when
    // it differs and puts clearly more on ink: lines bowed most in the middle of a strongly
    // curled grid can be counted two off one way in the straight warp, or one off both ways,
    // past what a recount mends (a 16 x 21 nonogram photo: 18 rows straight, 77% on ink,
    // recounted 17, 88%; straightened, 16 with all its lines on ink). Neither is ever sure: in
    // an outline off the grid (the hull of a rule joined to it) a recount can fit lines beside
    // the grid's, so it only stands when no other outline's lattice is sure.
    match found {
        Ok(counted) if counted.1 < SURE_COVER => {
            Ok(
                lattice_warped(image, corners, MARGIN, false, true, from_one_end)
                    .ok()
                    .into_iter()
                    .chain(counted_otherwise)
                    .filter(|recounted| recounted.1 > counted.1 + RECOUNT_COVER)
                    .max_by(|a, b| a.1.total_cmp(&b.1))
                    .map(|(lattice, cover)| (lattice, cover.min(RECOUNTED_COVER)))
                    .unwrap_or(counted),
            )
        }
        found => found,
    }
}

/// [`lattice_in`] with `margin` (share of the outline's long side) warped around the outline,
/// its border traced and straightened first when `unbow`; with `recount`, the lattice of a
/// count one off the counted one either way whose lines run most on ink.
fn lattice_warped(
    image: &GrayImage,
    corners: [(f64, f64); 4],
    margin_share: f64,
    unbow: bool,
    recount: bool,
    from_one_end: bool,
) -> Result<(Lattice, f32), NoLattice> {
    let corners = upright_order(corners);
    let (across, down) = sides(&corners);
    if across.min(down) < 40.0 || across.max(down) > 8.0 * across.min(down) {
        return Err(
            format!("the outline ({across:.0}x{down:.0} pixels) is too small or thin").into(),
        );
    }
    // Sample from a box-shrunk copy when the grid is much larger than the rectified image, so
    // thin lines are averaged, not skipped between bilinear samples. Only the outline's box (and
    // a margin for the bilinear neighbours) is shrunk: the rest of the photo is never sampled.
    let shrink = (across.max(down) / RECTIFIED_SIZE).floor().max(1.0) as u32;
    let (source, origin): (Cow<GrayImage>, (u32, u32)) = if shrink > 1 {
        // Bilinear neighbours, and the margin warped around the outline (more than `MARGIN`
        // where perspective stretches it).
        let margin = 2.0 * f64::from(shrink) + 2.5 * margin_share * across.max(down);
        let low =
            |values: [f64; 4]| (values.into_iter().fold(f64::MAX, f64::min) - margin).max(0.0);
        let high = |values: [f64; 4]| (values.into_iter().fold(0.0, f64::max) + margin).ceil();
        let (xs, ys) = (corners.map(|c| c.0), corners.map(|c| c.1));
        let area = (
            low(xs) as u32,
            low(ys) as u32,
            high(xs).min(f64::from(u32::MAX)) as u32,
            high(ys).min(f64::from(u32::MAX)) as u32,
        );
        let (shrunk, origin) = threshold::shrink_area(image, shrink, area);
        (Cow::Owned(shrunk), origin)
    } else {
        (Cow::Borrowed(image), (0, 0))
    };
    let scale = (RECTIFIED_SIZE / across.max(down)).min(1.0);
    let (rw, rh) = (
        (across * scale).round() as usize,
        (down * scale).round() as usize,
    );
    let (fw, fh) = (rw as f64, rh as f64);
    let margin = (margin_share * fw.max(fh)).round();
    let m = margin as usize;
    let rectangle = [
        (margin, margin),
        (margin + fw, margin),
        (margin + fw, margin + fh),
        (margin, margin + fh),
    ];
    let in_source = corners.map(|(x, y)| (x / f64::from(shrink), y / f64::from(shrink)));
    let to_source =
        Homography::from_points(rectangle, in_source).ok_or("the outline is degenerate")?;
    let to_photo =
        Homography::from_points(rectangle, corners).ok_or("the outline is degenerate")?;
    let wide = grid_mask(&source, origin, &to_source, rw + 2 * m, rh + 2 * m)?;
    let (wide, unbowed) = if unbow {
        let traced = unbow::Unbow::trace(&wide, (margin, margin, fw, fh))
            .filter(|traced| traced.bends(LEAST_BOW * fw.max(fh)))
            .ok_or("the border cannot be traced as a bowed line")?;
        (traced.straightened(&wide), Some(traced))
    } else {
        (wide, None)
    };
    let to_photo = |point: (f64, f64)| {
        to_photo.apply(
            unbowed
                .as_ref()
                .map_or(point, |traced| traced.source(point)),
        )
    };
    // The lines are counted inside the outline only: the margin holds the print around it.
    let inside = wide.cropped(m, m, rw, rh);
    let (rows, columns) = cell_counts(&inside, from_one_end).map_err(|why| NoLattice {
        why,
        trimmed: shadow::trimmed(&inside, fw.max(fh) * SHADOW_SHARE)
            .filter(|_| !unbow)
            .map(|inner| inner.map(|(x, y)| to_photo((x + margin, y + margin)))),
        uncounted: true,
    })?;
    // Solids were wiped from the mask before the lines were counted by a square of a 50th of
    // it: a small grid's bold border is thicker than that (a 5x5 Nurikabe's, blurred, 0.14 of
    // a cell), and with it wiped its lines were followed onto the digits beside it. A black
    // cell fills a square of a third of a cell. Only by the border: inside, a blurred bold
    // digit fills the first square too, and left in, the lines near it were led onto it (two
    // Sudoku hard photos each read one more digit wrong).
    let cell = (fw / columns as f64).min(fh / rows as f64);
    let solid_side = (cell * SOLID_CELL_SHARE) as usize;
    let wide = if solid_side > (rw + 2 * m).max(rh + 2 * m) / 50 {
        let rim = (cell * BORDER_RIM).round() as usize;
        wide.with_larger_solids_by_border(solid_side, (m, m, rw, rh), rim)
    } else {
        wide
    };
    let across_wide = wide.transposed();
    // Lines starting at `xs` and `ys` (warp pixels, at either end), followed near every
    // crossing.
    let fit_at = |xs: &[(f64, f64)], ys: &[(f64, f64)]| {
        let straight = |ends: &[(f64, f64)]| -> Vec<f64> {
            ends.iter()
                .map(|&(first, last)| 0.5 * (first + last))
                .collect()
        };
        let vertical = lines::follow(&wide, xs, &straight(ys));
        let horizontal = lines::follow(&across_wide, ys, &straight(xs));
        // The lattice is judged by the lines held to their shared bend, and its cells cut
        // along the walked ones (see `lines::Followed`).
        let (kept_rows, kept_columns) =
            printed_lines(&wide, &across_wide, &vertical.held, &horizontal.held);
        let cover = line_cover(
            (&wide, &across_wide),
            (&vertical.held, &horizontal.held),
            &kept_rows,
            &kept_columns,
        );
        (
            cover,
            vertical.walked,
            horizontal.walked,
            kept_rows,
            kept_columns,
        )
    };
    let evenly = |cells: usize, length: f64| -> Vec<(f64, f64)> {
        (0..=cells)
            .map(|k| margin + k as f64 * length / cells as f64)
            .map(|x| (x, x))
            .collect()
    };
    // Evenly spaced lines `rows` and `columns` each way.
    let fit = |rows: usize, columns: usize| fit_at(&evenly(columns, fw), &evenly(rows, fh));
    let fitted = if recount {
        [
            (rows + 1, columns),
            (rows.saturating_sub(1), columns),
            (rows, columns + 1),
            (rows, columns.saturating_sub(1)),
        ]
        .into_iter()
        .filter(|&(rows, columns)| rows >= 2 && columns >= 2)
        .map(|(rows, columns)| fit(rows, columns))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .ok_or("too few lines to recount")?
    } else if from_one_end {
        uneven_fit(&inside, (rows, columns), margin, &fit_at, &evenly)
    } else {
        fit(rows, columns)
    };
    let (cover, vertical, horizontal, kept_rows, kept_columns) = fitted;
    let points = kept_rows
        .clone()
        .map(|r| {
            kept_columns
                .clone()
                .map(|c| {
                    let (x, y) = to_photo((vertical[c][r], horizontal[r][c]));
                    (x as f32, y as f32)
                })
                .collect()
        })
        .collect();
    Ok((
        Lattice {
            rows: kept_rows.end() - kept_rows.start(),
            columns: kept_columns.end() - kept_columns.start(),
            points,
        },
        cover,
    ))
}

/// A lattice's lines fitted in the warp: the share on ink (see [`line_cover`]), the vertical
/// and horizontal lines followed, and the rows and columns printed (see [`printed_lines`]).
type Fitted = (
    f32,
    Vec<Vec<f64>>,
    Vec<Vec<f64>>,
    RangeInclusive<usize>,
    RangeInclusive<usize>,
);

/// Fits a lattice through lines starting at the given places (see `lines::follow`), vertical
/// then horizontal.
type FitAt<'a> = &'a dyn Fn(&[(f64, f64)], &[(f64, f64)]) -> Fitted;

/// How much more of its lines on ink (see [`line_cover`]) a lattice through lines tracked one
/// by one (see `uneven`) must have than the one through evenly spaced lines to replace it.
const UNEVEN_BETTER: f32 = 0.01;

/// The lattice of `rows` and `columns` counted in the mask `inside` the outline (`margin`
/// pixels into the warp), fitted by `fit_at` through evenly spaced lines (`evenly`) or, when
/// that puts clearly fewer of them on ink, through lines tracked one by one along a quarter of
/// the mask at either end from either side (a page curled toward its inner margin squeezes
/// the cells there, see `uneven`), within a line of the count: first the columns, then the
/// rows through the columns kept.
fn uneven_fit(
    inside: &Mask,
    (rows, columns): (usize, usize),
    margin: f64,
    fit_at: FitAt,
    evenly: &dyn Fn(usize, f64) -> Vec<(f64, f64)>,
) -> Fitted {
    // Lines tracked in a band at each end of the mask, from either side, paired when both
    // ends track as many: each line's places in the two bands, taken as its places at its ends.
    let tracked = |mask: &Mask, cells: usize| -> Vec<Vec<(f64, f64)>> {
        let cell = mask.width as f64 / cells as f64;
        let band = (mask.height / TRACKED_BAND).max(1);
        let at_end = |band: (usize, usize)| -> Vec<Vec<f64>> {
            [true, false]
                .into_iter()
                .filter_map(|from_left| uneven::tracked_lines(mask, band, cell, from_left))
                .filter(|lines| lines.len().abs_diff(cells + 1) <= 1)
                .map(|lines| lines.into_iter().map(|x| x + margin).collect())
                .collect()
        };
        let (first, last) = (at_end((0, band)), at_end((mask.height - band, mask.height)));
        let mut pairs: Vec<Vec<(f64, f64)>> = Vec::new();
        for a in &first {
            for b in &last {
                if a.len() == b.len() {
                    pairs.push(a.iter().copied().zip(b.iter().copied()).collect());
                }
            }
        }
        for one in first.iter().chain(&last) {
            pairs.push(one.iter().map(|&x| (x, x)).collect());
        }
        pairs
    };
    let mut xs = evenly(columns, inside.width as f64);
    let ys = evenly(rows, inside.height as f64);
    let mut best = fit_at(&xs, &ys);
    for tracked_xs in tracked(inside, columns) {
        let fitted = fit_at(&tracked_xs, &ys);
        if fitted.0 > best.0 + UNEVEN_BETTER {
            best = fitted;
            xs = tracked_xs;
        }
    }
    for tracked_ys in tracked(&inside.transposed(), rows) {
        let fitted = fit_at(&xs, &tracked_ys);
        if fitted.0 > best.0 + UNEVEN_BETTER {
            best = fitted;
        }
    }
    best
}

/// The share of the mask's length, at each end, along which lines are tracked one by one (see
/// [`uneven_fit`]): one over this.
const TRACKED_BAND: usize = 4;

/// The side of the squares of ink, as a share of a cell, kept out of the mask the lines are
/// followed in (black cells), once the cells are counted.
const SOLID_CELL_SHARE: f64 = 1.0 / 3.0;

/// How far inside the outline (share of a cell) a bold border is looked for as a line.
const BORDER_RIM: f64 = 0.25;

/// How much more of its lines on ink (see [`line_cover`]) a count one off the counted one must
/// give to replace it.
const RECOUNT_COVER: f32 = 0.03;
/// The most a recounted lattice's share of lines on ink is taken as: below [`SURE_COVER`].
const RECOUNTED_COVER: f32 = SURE_COVER - 0.01;

/// The mean share of each line's length (the `rows` and `columns` kept, both ways) that runs on
/// ink, vertical lines in the first mask and horizontal ones in the second (transposed). Lines
/// are `[line][crossing]` as `lines::follow` gives them.
fn line_cover(
    (mask, across_mask): (&Mask, &Mask),
    (vertical, horizontal): (&[Vec<f64>], &[Vec<f64>]),
    rows: &RangeInclusive<usize>,
    columns: &RangeInclusive<usize>,
) -> f32 {
    // Each line is `lines[outer][inner]`, crossed at `crossing[inner][outer]`.
    let cover = |mask: &Mask,
                 lines: &[Vec<f64>],
                 crossing: &[Vec<f64>],
                 outer: &RangeInclusive<usize>,
                 inner: &RangeInclusive<usize>|
     -> Vec<f32> {
        outer
            .clone()
            .map(|o| {
                let (along, crossings): (Vec<f64>, Vec<f64>) =
                    inner.clone().map(|i| (lines[o][i], crossing[i][o])).unzip();
                lines::inked_along(mask, &along, &crossings)
            })
            .collect()
    };
    let down = cover(mask, vertical, horizontal, columns, rows);
    let across = cover(across_mask, horizontal, vertical, rows, columns);
    let count = (down.len() + across.len()).max(1);
    down.iter().chain(&across).sum::<f32>() / count as f32
}

/// How much of a row of cells' height its inner walls are inked at least, and how little in a
/// rim of cells that is not the grid's (see [`printed_lines`]), measured on the walls' middles.
/// The rims inside two boxed Sudokus' frames read 0.02-0.11 there (at 0.1, one was dropped
/// on two sides only and its 10x10 lattice taken); the frame around a third, nearer its grid
/// than a cell, read 0.19-0.26, and is best kept whole: its lattice is then not sure, and the
/// grid's own outline gives the grid (dropped on two sides, a 10x10 again).
const PRINTED_WALLS: f32 = 0.5;
const BLANK_WALLS: f32 = 0.15;
/// The share of a wall at each end left out when its ink is measured: a bold border, blurred,
/// spreads along the walls that meet it, and a rim of paper beside a curled grid's border
/// read 0.21 inked whole (a boxed Sudoku's right rim, kept as a tenth column), 0.07 without
/// its ends, where the grid's walls read 1.0 either way.
const WALL_END: f64 = 0.15;

/// The horizontal and vertical lines (indices) that bound the printed grid. A thin frame printed
/// around a puzzle about a cell away from its grid passes for one more row and column of cells
/// each side, and an outline through it holds them: but the grid's lines across that rim stop at
/// the grid's border, so a side row (or column) whose inner walls are blank beside one whose
/// walls are inked is dropped. Lines are `[line][crossing]` as `lines::follow` gives them,
/// vertical ones in `mask` and horizontal ones in `across_mask`.
fn printed_lines(
    mask: &Mask,
    across_mask: &Mask,
    vertical: &[Vec<f64>],
    horizontal: &[Vec<f64>],
) -> (RangeInclusive<usize>, RangeInclusive<usize>) {
    let (mut rows, mut columns) = (0..=horizontal.len() - 1, 0..=vertical.len() - 1);
    // The mean inked fraction of the walls between lines `a` and `b` one way (the other way's
    // lines inside `kept`, crossing them).
    let walls = |mask: &Mask,
                 ours: &[Vec<f64>],
                 theirs: &[Vec<f64>],
                 kept: &RangeInclusive<usize>,
                 a: usize,
                 b: usize| {
        let inner = kept.start() + 1..*kept.end();
        let count = inner.len().max(1) as f32;
        let between = |from: f64, to: f64, t: f64| from + (to - from) * t;
        inner
            .map(|k| {
                let (x0, x1) = (theirs[k][a], theirs[k][b]);
                let (y0, y1) = (ours[a][k], ours[b][k]);
                lines::inked_along(
                    mask,
                    &[between(x0, x1, WALL_END), between(x0, x1, 1.0 - WALL_END)],
                    &[between(y0, y1, WALL_END), between(y0, y1, 1.0 - WALL_END)],
                )
            })
            .sum::<f32>()
            / count
    };
    loop {
        let (c0, c1, r0, r1) = (*columns.start(), *columns.end(), *rows.start(), *rows.end());
        // A side row of cells: the vertical lines' walls between horizontal lines a and b.
        let row = |a: usize, b: usize| walls(mask, horizontal, vertical, &columns, a, b);
        let column = |a: usize, b: usize| walls(across_mask, vertical, horizontal, &rows, a, b);
        let rim = |outer: f32, inner: f32| outer < BLANK_WALLS && inner >= PRINTED_WALLS;
        if r1 - r0 > 3 && rim(row(r0, r0 + 1), row(r0 + 1, r0 + 2)) {
            rows = r0 + 1..=r1;
        } else if r1 - r0 > 3 && rim(row(r1 - 1, r1), row(r1 - 2, r1 - 1)) {
            rows = r0..=r1 - 1;
        } else if c1 - c0 > 3 && rim(column(c0, c0 + 1), column(c0 + 1, c0 + 2)) {
            columns = c0 + 1..=c1;
        } else if c1 - c0 > 3 && rim(column(c1 - 1, c1), column(c1 - 2, c1 - 1)) {
            columns = c0..=c1 - 1;
        } else {
            return (rows, columns);
        }
    }
}

/// The corners clockwise on screen, starting with the one whose edge to the next runs most
/// nearly left to right: top-left, top-right, bottom-right, bottom-left as seen in the image.
fn upright_order(mut corners: [(f64, f64); 4]) -> [(f64, f64); 4] {
    if quad::area(&corners) < 0.0 {
        corners.reverse();
    }
    let rightward = |i: usize| {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        (b.0 - a.0) / (b.0 - a.0).hypot(b.1 - a.1).max(1e-9)
    };
    let first = (0..4)
        .max_by(|&a, &b| rightward(a).total_cmp(&rightward(b)))
        .unwrap_or(0);
    corners.rotate_left(first);
    corners
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `rows` x `columns` lattice of unit cells from the origin.
    fn unit_lattice(rows: usize, columns: usize) -> Lattice {
        Lattice {
            rows,
            columns,
            points: (0..=rows)
                .map(|r| (0..=columns).map(|c| (c as f32, r as f32)).collect())
                .collect(),
        }
    }

    #[test]
    fn a_lattice_carried_on_at_an_edge_gains_a_line_as_far_out_again() {
        // A 2x3 lattice of 10-pixel squares from (100, 200), its right side 1 pixel lower.
        let points: Vec<Vec<(f32, f32)>> = (0..3)
            .map(|r| {
                (0..4)
                    .map(|c| {
                        (
                            100.0 + 10.0 * c as f32,
                            200.0 + 10.0 * r as f32 + (c / 3) as f32,
                        )
                    })
                    .collect()
            })
            .collect();
        let lattice = Lattice {
            rows: 2,
            columns: 3,
            points,
        };
        let left = lattice.with_edge_carried_on(Edge::Left).unwrap();
        assert_eq!((left.rows, left.columns), (2, 4));
        assert_eq!(left.points[1][..2], [(90.0, 210.0), (100.0, 210.0)]);
        let right = lattice.with_edge_carried_on(Edge::Right).unwrap();
        assert_eq!(right.points[2][3..], [(130.0, 221.0), (140.0, 222.0)]);
        let top = lattice.with_edge_carried_on(Edge::Top).unwrap();
        assert_eq!((top.rows, top.columns), (3, 3));
        assert_eq!(
            top.points[0],
            [
                (100.0, 190.0),
                (110.0, 190.0),
                (120.0, 190.0),
                (130.0, 191.0)
            ]
        );
        let bottom = lattice.with_edge_carried_on(Edge::Bottom).unwrap();
        assert_eq!(bottom.points[3][0], (100.0, 230.0));
        assert_eq!(bottom.points[..3], lattice.points[..]);
        let empty = Lattice {
            rows: 0,
            columns: 0,
            points: vec![vec![(0.0, 0.0)]],
        };
        assert!(empty.with_edge_carried_on(Edge::Top).is_none());
    }

    #[test]
    fn a_lattice_without_an_edge_loses_that_sides_outer_cells() {
        let square = unit_lattice(3, 3);
        let right = square.without_edge(Edge::Right).unwrap();
        assert_eq!((right.rows, right.columns), (3, 2));
        assert_eq!(right.points[3].last(), Some(&(2.0, 3.0)));
        let top = square.without_edge(Edge::Top).unwrap();
        assert_eq!((top.rows, top.columns), (2, 3));
        assert_eq!(top.points[0][0], (0.0, 1.0));
        let bottom = square.without_edge(Edge::Bottom).unwrap();
        assert_eq!(bottom.points.last().unwrap()[3], (3.0, 2.0));
        assert_eq!(
            square.without_edge(Edge::Left).unwrap().points[0][0],
            (1.0, 0.0)
        );
        // Two rows is the least a lattice keeps.
        assert_eq!(unit_lattice(2, 3).without_edge(Edge::Top), None);
        assert!(unit_lattice(2, 3).without_edge(Edge::Left).is_some());
    }

    #[test]
    fn lattices_lie_near_when_every_corner_is_within_the_share_of_a_cell() {
        let lattice = unit_lattice(3, 4);
        let mut moved = lattice.clone();
        moved.points[2][3].0 += 0.15;
        assert!(lattice.lies_near(&moved, 0.2));
        moved.points[1][1].1 -= 0.25;
        assert!(!lattice.lies_near(&moved, 0.2));
        assert!(!lattice.lies_near(&unit_lattice(3, 5), 0.2));
    }

    #[test]
    fn a_lattice_turned_and_turned_back_is_itself() {
        let lattice = unit_lattice(2, 3);
        for turns in 0..4u8 {
            let turned = lattice.turned(turns);
            assert_eq!(turned.turned_back(turns), lattice, "turned {turns}");
        }
        assert_ne!(lattice.turned(1).turned(1), lattice);
    }

    #[test]
    fn a_lattice_s_mean_cell_side_averages_its_cells_sides() {
        // Two cells side by side, 10 pixels wide and 20 tall: four sides of 10, three of 20.
        let lattice = Lattice {
            rows: 1,
            columns: 2,
            points: vec![
                vec![(0.0, 0.0), (10.0, 0.0), (20.0, 0.0)],
                vec![(0.0, 20.0), (10.0, 20.0), (20.0, 20.0)],
            ],
        };
        assert!((lattice.mean_cell_side() - 100.0 / 7.0).abs() < 1e-4);
    }

    #[test]
    fn a_rim_of_paper_inside_a_frame_is_not_the_grid_though_a_bold_border_blurs_into_it() {
        // A 5 x 5 grid of 20-pixel cells with a bold border blurred 3 pixels into each rim of
        // paper around it, and a frame a cell outside it: the lattice through the frame holds
        // 7 x 7 cells. Whole, a rim's walls read 0.24 inked (the border's spread and the
        // frame's line), above [`BLANK_WALLS`]: only their middles are weighed.
        let (cell, cells) = (20usize, 7usize);
        let side = cell * cells + 1;
        let on_a_line = |at: usize, lines: &[usize], half: usize| {
            lines
                .iter()
                .any(|&line| at + half >= line && at <= line + half)
        };
        let every_line: Vec<usize> = (0..=cells).map(|k| k * cell).collect();
        let (frame, border) = ([0, side - 1], [cell, side - 1 - cell]);
        let grid = cell..=side - 1 - cell;
        let ink: Vec<bool> = (0..side * side)
            .map(|i| (i % side, i / side))
            .map(|(x, y)| {
                on_a_line(x, &frame, 0)
                    || on_a_line(y, &frame, 0)
                    || (grid.contains(&y) && on_a_line(x, &border, 3))
                    || (grid.contains(&x) && on_a_line(y, &border, 3))
                    || (grid.contains(&x) && grid.contains(&y) && on_a_line(x, &every_line, 0))
                    || (grid.contains(&x) && grid.contains(&y) && on_a_line(y, &every_line, 0))
            })
            .collect();
        let mask = lines::Mask::of_ink(ink, side, side);
        // Line k runs straight at k cells from the edge, the same at every crossing.
        let lines: Vec<Vec<f64>> = every_line
            .iter()
            .map(|&place| vec![place as f64; cells + 1])
            .collect();
        let (rows, columns) = printed_lines(&mask, &mask.transposed(), &lines, &lines);
        assert_eq!((rows, columns), (1..=cells - 1, 1..=cells - 1));
    }

    #[test]
    fn a_corner_pulled_off_the_grid_is_put_back_square_with_the_other_three() {
        // A newspaper grid's bottom-right corner joined to the page's column rule: the hull's
        // corner sits 95 px right and 25 px below the grid's.
        let pulled = [(55.0, 285.0), (725.0, 285.0), (815.0, 965.0), (45.0, 940.0)];
        let squared = squared_corner(pulled, 2).unwrap();
        assert_eq!(squared[2], (715.0, 940.0));
        assert_eq!(&squared[..2], &pulled[..2]);
        assert_eq!(squared[3], pulled[3]);
        // A corner already nearly square is not moved; one squared off three corners nearly in
        // a line is refused.
        let square = [(0.0, 0.0), (100.0, 0.0), (101.0, 99.0), (0.0, 100.0)];
        assert_eq!(squared_corner(square, 2), None);
        let flat = [(0.0, 0.0), (100.0, 0.0), (200.0, 20.0), (50.0, 150.0)];
        assert_eq!(squared_corner(flat, 3), None);
    }

    #[test]
    fn no_ink_is_read_where_the_warp_runs_off_the_photo() {
        // A photo cut through a grid: its left edge is striped with the grid's rows, which the
        // warp repeats leftwards off the photo as long horizontal streaks.
        let photo = GrayImage::from_fn(200, 200, |x, y| {
            let line = x < 3 || y % 20 < 2;
            image::Luma([if line { 20 } else { 230 }])
        });
        let off = 40.0;
        let (w, h) = (200.0 + off, 200.0);
        let to_photo = Homography::from_points(
            [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)],
            [(-off, 0.0), (200.0, 0.0), (200.0, h), (-off, h)],
        )
        .unwrap();
        let mask = grid_mask(&photo, (0, 0), &to_photo, w as usize, h as usize).unwrap();
        let inked = |columns: std::ops::Range<usize>| {
            (0..mask.height)
                .filter(|&y| columns.clone().any(|x| mask.ink[y * mask.width + x]))
                .count()
        };
        assert_eq!(inked(0..38), 0, "streaks off the photo");
        // The photo's own lines stay: its edge line and the rows beside it.
        assert!(inked(40..43) > 150);
        assert!(inked(60..62) >= 15);
    }

    /// A `rows` x `columns` grid of `cell`-pixel cells, dark 3-pixel lines on paper, curled
    /// both ways: each line bows off straight by up to `bow` cells half-way along, the border
    /// lines by `edge` of that and the middle lines by all of it. With its outline's corners.
    fn curled_grid(
        rows: usize,
        columns: usize,
        cell: f64,
        bow: f64,
        edge: f64,
    ) -> (GrayImage, Corners) {
        let pad = 4.0 * cell;
        let (gw, gh) = (columns as f64 * cell, rows as f64 * cell);
        let pi = std::f64::consts::PI;
        // Line `k` of `n`'s place when `along` (0..1) its length.
        let place = |k: usize, n: usize, along: f64| {
            let share = edge + (1.0 - edge) * (pi * k as f64 / n as f64).sin();
            k as f64 * cell + bow * cell * share * (pi * along.clamp(0.0, 1.0)).sin()
        };
        let image = GrayImage::from_fn((gw + 2.0 * pad) as u32, (gh + 2.0 * pad) as u32, |x, y| {
            let (x, y) = (f64::from(x) + 0.5 - pad, f64::from(y) + 0.5 - pad);
            let on = |n: usize, along: f64, span: f64, across: f64| {
                (-2.0..=span + 2.0).contains(&along)
                    && (0..=n).any(|k| (across - place(k, n, along / span)).abs() < 1.5)
            };
            let line = on(rows, x, gw, y) || on(columns, y, gh, x);
            image::Luma([if line { 30 } else { 220 }])
        });
        let corners = [
            (pad, pad),
            (pad + gw, pad),
            (pad + gw, pad + gh),
            (pad, pad + gh),
        ];
        (image, corners)
    }

    #[test]
    fn a_curled_grid_counted_otherwise_straightened_is_taken_as_a_recount() {
        // Bowed by most of a cell in the middle, the grid's lines are counted one too few each
        // way in the straight warp; a recount mends only one way at a time, while the warp
        // straightened along the traced border counts the printed cells with its lines on ink.
        let (image, corners) = curled_grid(16, 21, 30.0, 0.85, 0.3);
        let (straight, _) = lattice_warped(&image, corners, MARGIN, false, false, false)
            .map_err(|no| no.why)
            .unwrap();
        assert!(
            straight.rows != 16 && straight.columns != 21,
            "{}x{}",
            straight.rows,
            straight.columns
        );
        let (lattice, cover) = lattice_in(&image, corners, false)
            .map_err(|no| no.why)
            .unwrap();
        assert_eq!((lattice.rows, lattice.columns), (16, 21));
        // Not sure: another outline's sure lattice would still come first.
        assert!(cover < SURE_COVER, "{cover}");
    }

    #[test]
    fn orders_corners_upright_whatever_the_start() {
        let square = [(10.0, 10.0), (90.0, 12.0), (88.0, 95.0), (8.0, 90.0)];
        for turn in 0..4 {
            let mut given = square;
            given.rotate_left(turn);
            assert_eq!(upright_order(given), square);
            given.reverse();
            assert_eq!(upright_order(given), square);
        }
    }

    #[test]
    fn cell_geometry_follows_the_corners() {
        let lattice = Lattice {
            rows: 1,
            columns: 1,
            points: vec![
                vec![(0.0, 0.0), (10.0, 0.0)],
                vec![(0.0, 10.0), (10.0, 10.0)],
            ],
        };
        assert_eq!(lattice.cell_centre(0, 0), (5.0, 5.0));
        assert_eq!(lattice.cell_centre(3, 0), (0.0, 0.0));
        let image = GrayImage::from_fn(10, 10, |x, _| image::Luma([if x < 5 { 0 } else { 200 }]));
        let cell = lattice.cell_image(&image, 0, 0, 4, 0.0);
        assert_eq!(cell.get_pixel(0, 0).0[0], 0);
        // Turned a quarter clockwise, the cell's left (dark) half is on top.
        let turned = lattice.turned(1).cell_image(&image, 0, 0, 4, 0.0);
        assert!(turned.get_pixel(0, 0).0[0] < 50 && turned.get_pixel(0, 3).0[0] > 150);
        assert_eq!(cell.get_pixel(3, 3).0[0], 200);
        assert_eq!(
            lattice.cell_image(&image, 1, 1, 2, 0.1).get_pixel(0, 0).0[0],
            255
        );
    }
}
