//! Finds a lattice of printed digits without any frame: the number-jump maze, printed as bare
//! digits or each in its own box, whose outline is an irregular (roughly round) shape.
//!
//! Method: mark ink as the grid finder does, take the digit-sized pieces as glyphs, pick seed
//! glyphs whose eight neighbours sit where a lattice puts them, and grow a lattice from the best
//! seeds one neighbour at a time, each step predicted from the local cell vectors. The glyphs
//! found, snapped to integer (row, column), then fit a homography; its residuals, followed by a
//! plane fitted over the digits within a cell or so of each place, follow a curled page.
//! Positions are re-predicted and glyphs re-assigned a few times, and the lattice returned
//! covers the bounding box of the glyphs found. A grid's cells (`cell_lattice`) are fitted the
//! same way, their residuals followed by a quadratic surface over a couple of cells instead (a
//! boxed maze's boxes by a plane) (`fit_lattice_following`). It works from
//! the glyphs alone, so cell borders are neither needed nor used; it does not read the digits,
//! and cells of the box outside the shape are simply cells without a glyph.

use image::GrayImage;

use super::components::components;
use super::threshold;
use super::Lattice;
use crate::photo::geometry::weighted_least_squares;

/// Long side of the image the glyphs are looked for in.
const WORKING_SIZE: u32 = 1000;
/// Fewest glyphs a lattice must hold to be taken for a puzzle.
const MIN_GLYPHS: usize = 12;
/// How many seeds are grown into lattices; the one holding most glyphs wins.
const SEEDS_TRIED: usize = 4;
/// How far (in cells) a glyph centre may sit from where the lattice predicts it.
const TOLERANCE: f64 = 0.28;
/// How far (in cells) the glyph residuals are smoothed over the lattice where too few glyphs
/// lie near a place for a plane or surface through them (see [`Fit::point`]).
const SMOOTHING: f64 = 2.0;
/// How far (cells) around a place the digits that place it weigh, their residuals followed by a
/// plane (see [`Following::Plane`]). A mean of the residuals (smoothed over 2 cells, as first
/// done) is pulled inward at the maze's edge: on a page curled toward one edge the outer rows'
/// places sat a quarter of a cell off their digits, the crops took in the box line beside each
/// digit, and 2s read 3 or 13. Of 240 hard generated mazes (`tests/data/jump` at three seed
/// sets), 201 read exactly smoothed; 222 with a plane over 1.25 cells, 217 over 2 cells, 220
/// with a quadratic surface over 2 cells (which lost six the mean read). Of 42 mazes failing one
/// way or another, 14, 29, 30, 24 and 22 read exactly with planes over 0.8, 1, 1.25, 1.5 and 2
/// cells. Of 60 hard mazes past reading, 41 read exactly smoothed, 54 over 1.25 cells.
const DIGITS_REACH: f64 = 1.25;

/// One digit-sized piece of ink: its box centre and its box's longer side, in working pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glyph {
    pub x: f64,
    pub y: f64,
    pub size: f64,
}

/// The lattice of cells around the printed digits in `image`, rows and columns the bounding box
/// of the digits found, or why there is none.
pub fn find(image: &GrayImage) -> Result<Lattice, String> {
    let threshold::ShrunkInk {
        ink,
        width: sw,
        height: sh,
        factor,
        ..
    } = threshold::shrunk_ink(image, WORKING_SIZE);
    let glyphs = glyphs_among(&pieces_in(&ink, sw, sh));
    let index = Index::new(&glyphs);
    let fit = fit_lattice(&glyphs).ok_or("no lattice of digits")?;
    let mut fit = with_bent_ends(fit, &glyphs, &index);
    if let Some(why) = digits_off(&fit, &glyphs, &index) {
        return Err(why.into());
    }
    if let Some(ring) = start_ring(&fit, &ink, sw) {
        fit.centre_on(ring);
    }
    let scale = f64::from(factor);
    Ok(fit.lattice(|(x, y)| ((x + 0.5) * scale, (y + 0.5) * scale)))
}

/// How far (in cells) from a place one step outside the lattice a glyph is taken for a digit
/// there, and how many such digits along one side mean the lattice stops short of the maze.
const BEYOND_REACH: f64 = 0.6;
const LEAST_DIGITS_BEYOND: usize = 2;
/// How many of the lattice's glyphs a lone glyph beyond its side must stand beside to be taken
/// for a digit of the maze: a diamond's tip stands on the three middle digits of its end row,
/// a stray mark beside a square maze's edge stands beside three as well, but only where it
/// falls on the lattice's next row.
const LEAST_NEIGHBOURS_BEYOND: usize = 3;

/// How many times the digits standing off the lattice are taken in and the fit redone: a
/// curled page bends each ring of the maze a little further off than the one inside it.
const BENT_ROUNDS: usize = 4;

/// `fit` with the digits standing off its places taken in, and fitted again so that its
/// followed residuals bend to them, until none is left: those beyond its sides (see
/// [`glyphs_beyond`]) as its next rows and columns out, and those at its empty places beside
/// two of its glyphs (see [`glyphs_off_inside`]). A curled page's corner bends the maze's end
/// rows a third to a half of a cell off the lattice's prediction; left out, the smaller maze
/// inside, or the maze with a corner's digits missing, would be read and solved.
fn with_bent_ends(mut fit: Fit, glyphs: &[Glyph], index: &Index) -> Fit {
    for _ in 0..BENT_ROUNDS {
        let Some(finder) = PlaceFinder::new(&fit, glyphs, index) else {
            break;
        };
        let mut places = fit.places.clone();
        let before = places.len();
        let beyond = taken_beyond(&finder);
        for (place, g) in beyond.into_iter().chain(glyphs_off_inside(&finder)) {
            if !places.values().any(|&taken| taken == g) {
                places.insert(place, g);
            }
        }
        if places.len() == before {
            break;
        }
        match fit_places(glyphs, &places, fit.following) {
            Some(bent) => fit = bent,
            None => break,
        }
    }
    fit
}

/// Why the lattice of `fit` is not the whole maze, if digits still stand off it: in a line
/// beyond one of its sides, or at one of its empty places.
fn digits_off(fit: &Fit, glyphs: &[Glyph], index: &Index) -> Option<&'static str> {
    let finder = PlaceFinder::new(fit, glyphs, index)?;
    if !taken_beyond(&finder).is_empty() {
        Some(
            "digits stand in a line beyond the lattice of digits found: part of the maze was not \
             found",
        )
    } else if !glyphs_off_inside(&finder).is_empty() {
        Some("a digit stands off the lattice of digits found: part of the maze was not found")
    } else {
        None
    }
}

/// The glyphs beyond the sides of the finder's fit (see [`glyphs_beyond`]) that belong to the
/// maze: each of a side holding [`LEAST_DIGITS_BEYOND`] of them, and one alone where it stands
/// beside [`LEAST_NEIGHBOURS_BEYOND`] of the lattice's glyphs (a diamond maze's tip).
fn taken_beyond(finder: &PlaceFinder) -> Vec<((i32, i32), usize)> {
    let fit = finder.fit;
    glyphs_beyond(finder)
        .into_iter()
        .flat_map(|side| {
            let whole = side.len() >= LEAST_DIGITS_BEYOND;
            side.into_iter().filter(move |&(place, _)| {
                whole || neighbours(&fit.places, place) >= LEAST_NEIGHBOURS_BEYOND
            })
        })
        .collect()
}

/// Looks for a glyph about where a place of a fit would hold one.
struct PlaceFinder<'a> {
    fit: &'a Fit,
    glyphs: &'a [Glyph],
    index: &'a Index,
    /// The members' glyph sizes in cells (their median), as `refine` measures them.
    size_ratio: f64,
}

impl<'a> PlaceFinder<'a> {
    /// `None` when no member's glyph is found where the fit puts it.
    fn new(fit: &'a Fit, glyphs: &'a [Glyph], index: &'a Index) -> Option<PlaceFinder<'a>> {
        let mut ratios: Vec<f64> = fit
            .members
            .iter()
            .filter_map(|&(r, c, _)| {
                let pitch = local_pitch(fit, r, c);
                let (x, y) = fit.point(f64::from(r), f64::from(c));
                let distance = |g: usize| (glyphs[g].x - x).hypot(glyphs[g].y - y);
                index
                    .within(x, y, TOLERANCE * pitch)
                    .min_by(|&a, &b| distance(a).total_cmp(&distance(b)))
                    .map(|g| glyphs[g].size / pitch)
            })
            .collect();
        if ratios.is_empty() {
            return None;
        }
        let middle = ratios.len() / 2;
        let size_ratio = *ratios.select_nth_unstable_by(middle, f64::total_cmp).1;
        Some(PlaceFinder {
            fit,
            glyphs,
            index,
            size_ratio,
        })
    }

    /// The glyph of the members' size nearest to where the fit puts `place`, within
    /// [`BEYOND_REACH`], unless it is a member already.
    fn glyph_at(&self, (r, c): (i32, i32)) -> Option<usize> {
        let pitch = local_pitch(self.fit, r, c);
        let g = self.index.nearest(
            self.glyphs,
            self.fit.point(f64::from(r), f64::from(c)),
            BEYOND_REACH * pitch,
            self.size_ratio * pitch,
        )?;
        (!self.fit.places.values().any(|&member| member == g)).then_some(g)
    }
}

/// The most glyphs along one side of `fit` standing about where the next row or column out
/// would hold digits (see [`glyphs_beyond`]).
#[cfg(test)]
fn digits_beyond(fit: &Fit, glyphs: &[Glyph]) -> usize {
    let index = Index::new(glyphs);
    PlaceFinder::new(fit, glyphs, &index).map_or(0, |finder| {
        glyphs_beyond(&finder)
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    })
}

/// Per side of the fit (top, bottom, left, right), the glyphs standing about where the next row
/// or column out would hold digits, each beside a glyph of the lattice and of its size, with
/// the place each stands for.
fn glyphs_beyond(finder: &PlaceFinder) -> [Vec<((i32, i32), usize)>; 4] {
    let fit = finder.fit;
    let count = |places: Vec<((i32, i32), (i32, i32))>| {
        places
            .into_iter()
            .filter(|&(_, inward)| fit.places.contains_key(&inward))
            .filter_map(|(beyond, _)| finder.glyph_at(beyond).map(|g| (beyond, g)))
            .collect::<Vec<_>>()
    };
    let (rows, columns) = (fit.rows, fit.columns);
    [
        count(
            (columns.0..=columns.1)
                .map(|c| ((rows.0 - 1, c), (rows.0, c)))
                .collect(),
        ),
        count(
            (columns.0..=columns.1)
                .map(|c| ((rows.1 + 1, c), (rows.1, c)))
                .collect(),
        ),
        count(
            (rows.0..=rows.1)
                .map(|r| ((r, columns.0 - 1), (r, columns.0)))
                .collect(),
        ),
        count(
            (rows.0..=rows.1)
                .map(|r| ((r, columns.1 + 1), (r, columns.1)))
                .collect(),
        ),
    ]
}

/// The glyphs standing about where an empty place inside the fit's bounding box, beside at
/// least two of its glyphs, would hold a digit, with those places.
fn glyphs_off_inside(finder: &PlaceFinder) -> Vec<((i32, i32), usize)> {
    let fit = finder.fit;
    (fit.rows.0..=fit.rows.1)
        .flat_map(|r| (fit.columns.0..=fit.columns.1).map(move |c| (r, c)))
        .filter(|place| !fit.places.contains_key(place) && neighbours(&fit.places, *place) >= 2)
        .filter_map(|place| finder.glyph_at(place).map(|g| (place, g)))
        .collect()
}

/// The `pieces` that stand apart from others of their size, as a maze's digits do and the
/// letters of running text do not.
fn glyphs_among(pieces: &[Glyph]) -> Vec<Glyph> {
    let index = Index::new(pieces);
    pieces
        .iter()
        .enumerate()
        .filter(|&(i, piece)| {
            !index.within(piece.x, piece.y, piece.size).any(|j| {
                let other = pieces[j];
                j != i
                    && similar(other.size, piece.size)
                    && (other.x - piece.x).hypot(other.y - piece.y) < 0.9 * piece.size
            })
        })
        .map(|(_, piece)| *piece)
        .collect()
}

/// The digit-sized ink pieces of a `width` x `height` mask.
fn pieces_in(ink: &[bool], width: usize, height: usize) -> Vec<Glyph> {
    let largest = (width.max(height) / 10).max(4);
    components(ink, width, height, 5, 1)
        .into_iter()
        .filter_map(|piece| {
            let (x0, y0, x1, y1) = piece.bounds;
            let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
            let side = w.max(h);
            let fill = piece.pixels as f64 / (w * h) as f64;
            // Thin strokes, dots and long rules are not digits.
            (side >= 4 && side <= largest && w.min(h) * 8 >= side && fill > 0.08).then(|| Glyph {
                x: (x0 + x1) as f64 / 2.0,
                y: (y0 + y1) as f64 / 2.0,
                size: side as f64,
            })
        })
        .collect()
}

/// Most rows or columns the lattice is widened by on one side to centre it on the start ring.
const MAX_WIDENING: i32 = 2;

/// The lattice place (row, column) of the maze's start, printed with a ring around its digit:
/// the one place in the box whose four diagonals, a little past halfway from its centre to its
/// corners, all cross ink. A digit does not reach that far into the corners, and a printed box
/// around a cell lies further out. `None` when not exactly one place does.
fn start_ring(fit: &Fit, ink: &[bool], width: usize) -> Option<(i32, i32)> {
    let height = ink.len() / width.max(1);
    let inked = |(x, y): (f64, f64)| {
        let (x, y) = (x.round(), y.round());
        x >= 0.0
            && y >= 0.0
            && (x as usize) < width
            && (y as usize) < height
            && ink[y as usize * width + x as usize]
    };
    let ringed = |(row, column): (i32, i32)| {
        let (r, c) = (f64::from(row), f64::from(column));
        let centre = fit.point(r, c);
        [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)]
            .iter()
            .all(|&(dr, dc)| {
                let corner = fit.point(r + dr, c + dc);
                let steps = ((corner.0 - centre.0).hypot(corner.1 - centre.1) * RING_REACH.1)
                    .ceil()
                    .max(2.0) as usize;
                (0..=steps).any(|k| {
                    let t = RING_REACH.0 + (RING_REACH.1 - RING_REACH.0) * k as f64 / steps as f64;
                    inked((
                        centre.0 + t * (corner.0 - centre.0),
                        centre.1 + t * (corner.1 - centre.1),
                    ))
                })
            })
    };
    let mut rings = (fit.rows.0..=fit.rows.1)
        .flat_map(|r| (fit.columns.0..=fit.columns.1).map(move |c| (r, c)))
        .filter(|&place| ringed(place));
    let ring = rings.next()?;
    rings.next().is_none().then_some(ring)
}

/// Where along the way from a cell's centre to its corner (0 the centre, 1 the corner) the start
/// ring is looked for: printed at about a tenth of the cell from its edges, it crosses the
/// diagonal at about 0.57.
const RING_REACH: (f64, f64) = (0.48, 0.68);

/// How a fit's residuals from its homography are followed between its glyphs (see
/// [`Fit::point`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Following {
    /// A plane through the residuals of the glyphs within about this many cells: a maze's
    /// digits, sparse at its edge, where a surface's curvature is a guess.
    Plane(f64),
    /// A quadratic surface through them: a grid whose cells stand on every place bows by cells
    /// where a page curls, within a few cells.
    Surface(f64),
}

/// A lattice fitted to glyphs: where each (row, column) of the lattice lies.
#[derive(Debug, Clone)]
pub struct Fit {
    /// Integer (row, column) to image point, before the curl correction.
    homography: Matrix,
    /// The glyphs assigned to lattice positions: (row, column, residual from the homography).
    members: Vec<(i32, i32, (f64, f64))>,
    /// The same assignment: (row, column) -> glyph index.
    places: std::collections::HashMap<(i32, i32), usize>,
    pub rows: (i32, i32),
    pub columns: (i32, i32),
    following: Following,
}

impl Fit {
    /// Where the lattice point (row, column) lies, the residuals fitted by a plane or a
    /// quadratic surface (as the fit follows them) weighted over the members within about its
    /// reach: a mean, unlike either, is pulled inward at the lattice's edge, and a page curled
    /// so strongly that its cells turn within a few cells needs the residuals followed that
    /// closely. Falls back on the smoothed residuals where too few members lie near.
    pub fn point(&self, row: f64, column: f64) -> (f64, f64) {
        let (x, y) = self.homography.apply(column, row);
        let reach = match self.following {
            Following::Plane(reach) | Following::Surface(reach) => reach,
        };
        let near: Vec<([f64; 6], (f64, f64), f64)> = self
            .members
            .iter()
            .filter_map(|&(r, c, residual)| {
                let (dr, dc) = (f64::from(r) - row, f64::from(c) - column);
                let d2 = dr * dr + dc * dc;
                let basis = [1.0, dr, dc, dr * dr, dc * dc, dr * dc];
                (d2 <= 9.0 * reach * reach)
                    .then(|| (basis, residual, (-d2 / (2.0 * reach * reach)).exp()))
            })
            .collect();
        let offset = match self.following {
            Following::Plane(_) => residual_fitted::<3, 4>(&near, 6),
            Following::Surface(_) => residual_fitted::<6, 7>(&near, 12),
        };
        match offset {
            Some((dx, dy)) => (x + dx, y + dy),
            None => self.smoothed_point(row, column),
        }
    }

    /// Where the lattice point (row, column) lies, with the smoothed residuals added.
    fn smoothed_point(&self, row: f64, column: f64) -> (f64, f64) {
        let (x, y) = self.homography.apply(column, row);
        let (mut sx, mut sy, mut weights) = (0.0, 0.0, 0.5);
        for &(r, c, (dx, dy)) in &self.members {
            let d2 = (f64::from(r) - row).powi(2) + (f64::from(c) - column).powi(2);
            let w = (-d2 / (2.0 * SMOOTHING * SMOOTHING)).exp();
            sx += w * dx;
            sy += w * dy;
            weights += w;
        }
        (x + sx / weights, y + sy / weights)
    }

    /// Widens the bounding box so that `centre` is its middle cell, as the start of a jump maze
    /// is: a rule printed through the outermost column of digits hides them from the glyph
    /// finder, and the box would otherwise stop a column short. Only a little widening is
    /// taken; more means the ring was something else.
    fn centre_on(&mut self, (row, column): (i32, i32)) {
        let symmetric = |(low, high): (i32, i32), middle: i32| {
            let reach = (middle - low).max(high - middle);
            let widened = (middle - reach, middle + reach);
            let fits = middle > low
                && middle < high
                && low - widened.0 <= MAX_WIDENING
                && widened.1 - high <= MAX_WIDENING;
            if fits {
                widened
            } else {
                (low, high)
            }
        };
        self.rows = symmetric(self.rows, row);
        self.columns = symmetric(self.columns, column);
    }

    /// How far (share of the local pitch) from the places the fit puts them the nearest
    /// `share` of the glyphs lie.
    pub fn scatter(&self, share: f64) -> f64 {
        let mut offsets: Vec<f64> = self
            .members
            .iter()
            .map(|&(r, c, (dx, dy))| {
                let (x, y) = self.homography.apply(f64::from(c), f64::from(r));
                let (px, py) = self.point(f64::from(r), f64::from(c));
                (x + dx - px).hypot(y + dy - py) / local_pitch(self, r, c)
            })
            .collect();
        offsets.sort_by(f64::total_cmp);
        let at = ((offsets.len() as f64 - 1.0) * share.clamp(0.0, 1.0)).round() as usize;
        offsets.get(at).copied().unwrap_or(f64::INFINITY)
    }

    /// How many places the bounding box holds.
    pub fn places(&self) -> usize {
        ((self.rows.1 - self.rows.0 + 1) * (self.columns.1 - self.columns.0 + 1)) as usize
    }

    /// How many glyphs the lattice holds.
    pub fn glyphs(&self) -> usize {
        self.members.len()
    }

    /// The cell corners of the bounding box, mapped through `to_image`.
    pub(super) fn lattice(&self, to_image: impl Fn((f64, f64)) -> (f64, f64)) -> Lattice {
        let rows = (self.rows.1 - self.rows.0 + 1) as usize;
        let columns = (self.columns.1 - self.columns.0 + 1) as usize;
        let points = (0..=rows)
            .map(|r| {
                (0..=columns)
                    .map(|c| {
                        let row = f64::from(self.rows.0) + r as f64 - 0.5;
                        let column = f64::from(self.columns.0) + c as f64 - 0.5;
                        let (x, y) = to_image(self.point(row, column));
                        (x as f32, y as f32)
                    })
                    .collect()
            })
            .collect();
        Lattice {
            rows,
            columns,
            points,
        }
    }
}

/// The lattice of digits holding most glyphs, or `None` when none holds [`MIN_GLYPHS`].
pub fn fit_lattice(glyphs: &[Glyph]) -> Option<Fit> {
    fit_lattice_following(glyphs, Following::Plane(DIGITS_REACH))
}

/// The lattice holding most glyphs, its residuals followed as `following` says (see
/// [`Fit::point`]) as the glyphs are assigned to places and in the lattice returned; `None`
/// when none holds [`MIN_GLYPHS`].
pub fn fit_lattice_following(glyphs: &[Glyph], following: Following) -> Option<Fit> {
    let index = Index::new(glyphs);
    let mut seeds: Vec<(usize, usize, Basis)> = (0..glyphs.len())
        .filter_map(|g| {
            let basis = local_basis(glyphs, &index, g)?;
            Some((basis_support(glyphs, &index, g, &basis), g, basis))
        })
        .filter(|&(support, _, _)| support >= 6)
        .collect();
    seeds.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut taken = vec![false; glyphs.len()];
    let mut best: Option<Fit> = None;
    let mut tried = 0;
    for (_, seed, basis) in seeds {
        if taken[seed] {
            continue;
        }
        tried += 1;
        if tried > SEEDS_TRIED {
            break;
        }
        let grown = grow(glyphs, &index, seed, basis);
        for &g in grown.keys() {
            taken[g] = true;
        }
        if let Some(fit) = refine(glyphs, &index, grown, following) {
            if best.as_ref().is_none_or(|b| fit.glyphs() > b.glyphs()) {
                best = Some(fit);
            }
        }
    }
    best.filter(|fit| fit.glyphs() >= MIN_GLYPHS)
}

/// Two cell vectors: one column to the right (`across`) and one row down (`down`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Basis {
    across: (f64, f64),
    down: (f64, f64),
}

impl Basis {
    fn offset(&self, rows: f64, columns: f64) -> (f64, f64) {
        (
            columns * self.across.0 + rows * self.down.0,
            columns * self.across.1 + rows * self.down.1,
        )
    }

    fn pitch(&self) -> f64 {
        length(self.across).min(length(self.down))
    }
}

fn length(v: (f64, f64)) -> f64 {
    v.0.hypot(v.1)
}

fn cross(a: (f64, f64), b: (f64, f64)) -> f64 {
    a.0 * b.1 - a.1 * b.0
}

/// Whether `size` is close enough to `expected` to be the same font's digit.
fn similar(size: f64, expected: f64) -> bool {
    size > expected * 0.6 && size < expected * 1.6
}

/// The cell vectors around glyph `g` from its nearest neighbours of similar size: the shortest
/// displacement, then the shortest one well off its line, reduced (Lagrange) to the most
/// nearly square pair and turned so `across` points most nearly rightward and `down` lies
/// clockwise of it (not mirrored).
fn local_basis(glyphs: &[Glyph], index: &Index, g: usize) -> Option<Basis> {
    let here = glyphs[g];
    let mut near: Vec<(f64, f64)> = index
        .within(here.x, here.y, 4.0 * here.size)
        .filter(|&n| n != g && similar(glyphs[n].size, here.size))
        .map(|n| (glyphs[n].x - here.x, glyphs[n].y - here.y))
        // Digits of one maze stand at least a digit and a half apart; letters of text do not.
        .filter(|&d| length(d) >= 1.3 * here.size)
        .collect();
    near.sort_by(|a, b| length(*a).total_cmp(&length(*b)));
    let mut a = *near.first()?;
    let mut b = *near
        .iter()
        .find(|&&d| cross(a, d).abs() > 0.5 * length(a) * length(d))?;
    // Each step shortens `b` strictly, so this ends; the bound only guards rounding.
    for _ in 0..32 {
        if length(b) < length(a) {
            std::mem::swap(&mut a, &mut b);
        }
        let k = ((a.0 * b.0 + a.1 * b.1) / (a.0 * a.0 + a.1 * a.1)).round();
        let shorter = (b.0 - k * a.0, b.1 - k * a.1);
        if length(shorter) >= length(b) {
            break;
        }
        b = shorter;
    }
    if length(b) > 1.6 * length(a) {
        return None;
    }
    Some(upright(Basis { across: a, down: b }))
}

/// The same lattice's basis turned so `across` points most nearly rightward, with `down`
/// clockwise of it on screen (y grows downward).
fn upright(basis: Basis) -> Basis {
    let Basis {
        across: a,
        mut down,
    } = basis;
    if cross(a, down) < 0.0 {
        down = (-down.0, -down.1);
    }
    let turns = [
        (a, down),
        (down, (-a.0, -a.1)),
        ((-a.0, -a.1), (-down.0, -down.1)),
        ((-down.0, -down.1), a),
    ];
    let (across, down) = turns
        .into_iter()
        .max_by(|p, q| (p.0 .0 / length(p.0)).total_cmp(&(q.0 .0 / length(q.0))))
        .unwrap_or((a, down));
    Basis { across, down }
}

/// The eight neighbours of a lattice cell, as (rows, columns).
const NEIGHBOURS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// How many of the eight places `basis` predicts around glyph `g` hold a glyph.
fn basis_support(glyphs: &[Glyph], index: &Index, g: usize, basis: &Basis) -> usize {
    let here = glyphs[g];
    NEIGHBOURS
        .iter()
        .filter(|&&(r, c)| {
            let (dx, dy) = basis.offset(f64::from(r), f64::from(c));
            index
                .nearest(
                    glyphs,
                    (here.x + dx, here.y + dy),
                    TOLERANCE * basis.pitch(),
                    here.size,
                )
                .is_some()
        })
        .count()
}

/// Steps of two cells along a row or column, tried where the neighbour between is missing: a
/// rule printed through a column of digits joins them to it, so none of them is a glyph.
const LEAPS: [(i32, i32); 4] = [(0, 2), (2, 0), (0, -2), (-2, 0)];

/// Glyphs reached from `seed` one lattice step at a time (or a leap over a missing one), each
/// step predicted from the cell vectors last seen near it: glyph -> (row, column).
fn grow(
    glyphs: &[Glyph],
    index: &Index,
    seed: usize,
    basis: Basis,
) -> std::collections::HashMap<usize, (i32, i32)> {
    use std::collections::{HashMap, VecDeque};
    let mut at: HashMap<(i32, i32), usize> = HashMap::from([((0, 0), seed)]);
    let mut found: HashMap<usize, (i32, i32)> = HashMap::from([(seed, (0, 0))]);
    let mut queue = VecDeque::from([(seed, basis)]);
    while let Some((g, basis)) = queue.pop_front() {
        let (row, column) = found[&g];
        let here = glyphs[g];
        for &(dr, dc) in NEIGHBOURS.iter().chain(&LEAPS) {
            let place = (row + dr, column + dc);
            let leap_over = (row + dr / 2, column + dc / 2);
            if at.contains_key(&place)
                || (dr.abs() == 2 || dc.abs() == 2) && at.contains_key(&leap_over)
            {
                continue;
            }
            let (dx, dy) = basis.offset(f64::from(dr), f64::from(dc));
            let Some(n) = index.nearest(
                glyphs,
                (here.x + dx, here.y + dy),
                TOLERANCE * basis.pitch(),
                here.size,
            ) else {
                continue;
            };
            if found.contains_key(&n) {
                continue;
            }
            let step = (glyphs[n].x - here.x, glyphs[n].y - here.y);
            // Half the old vector, half the new step: perspective changes the cell slowly,
            // glyph centres jitter quickly.
            let blend =
                |old: (f64, f64), new: (f64, f64)| ((old.0 + new.0) / 2.0, (old.1 + new.1) / 2.0);
            let next = match (dr, dc) {
                (0, c) => Basis {
                    across: blend(basis.across, (step.0 / f64::from(c), step.1 / f64::from(c))),
                    ..basis
                },
                (r, 0) => Basis {
                    down: blend(basis.down, (step.0 / f64::from(r), step.1 / f64::from(r))),
                    ..basis
                },
                _ => basis,
            };
            at.insert(place, n);
            found.insert(n, place);
            queue.push_back((n, next));
        }
    }
    found
}

/// Rounds of re-prediction and re-assignment after growing.
const REFINE_ROUNDS: usize = 3;

/// Fits a homography to the grown glyphs, then re-assigns glyphs to every lattice place in and
/// one beyond the bounding box from the fit's prediction, a few times. A new place outside the
/// box needs two neighbours already in the lattice, so print near the puzzle is not taken in.
fn refine(
    glyphs: &[Glyph],
    index: &Index,
    grown: std::collections::HashMap<usize, (i32, i32)>,
    following: Following,
) -> Option<Fit> {
    use std::collections::HashMap;
    let mut places: HashMap<(i32, i32), usize> = grown.into_iter().map(|(g, p)| (p, g)).collect();
    let mut fit = fit_places(glyphs, &places, following)?;
    for _ in 0..REFINE_ROUNDS {
        let size_ratio = {
            let mut ratios: Vec<f64> = places
                .iter()
                .map(|(&(r, c), &g)| glyphs[g].size / local_pitch(&fit, r, c))
                .collect();
            let middle = ratios.len() / 2;
            *ratios.select_nth_unstable_by(middle, f64::total_cmp).1
        };
        let mut next: HashMap<(i32, i32), usize> = HashMap::new();
        let mut used = vec![false; glyphs.len()];
        for r in fit.rows.0 - 1..=fit.rows.1 + 1 {
            for c in fit.columns.0 - 1..=fit.columns.1 + 1 {
                let inside = (fit.rows.0..=fit.rows.1).contains(&r)
                    && (fit.columns.0..=fit.columns.1).contains(&c);
                let pitch = local_pitch(&fit, r, c);
                let Some(g) = index.nearest(
                    glyphs,
                    fit.point(f64::from(r), f64::from(c)),
                    TOLERANCE * pitch,
                    size_ratio * pitch,
                ) else {
                    continue;
                };
                let supported = neighbours(&places, (r, c)) >= 2;
                if !used[g] && (inside || supported) {
                    used[g] = true;
                    next.insert((r, c), g);
                }
            }
        }
        // A lone glyph with fewer than two neighbours in the lattice is stray print.
        next.retain(|&place, _| neighbours(&places, place) >= 2);
        if next.len() < MIN_GLYPHS {
            return None;
        }
        places = next;
        fit = fit_places(glyphs, &places, following)?;
    }
    Some(fit)
}

/// How many of the eight places around `place` hold a glyph. Leaps over an empty place do not
/// count here: blurred words of running text, spaced like digits, would pass then.
fn neighbours(places: &std::collections::HashMap<(i32, i32), usize>, (r, c): (i32, i32)) -> usize {
    NEIGHBOURS
        .iter()
        .filter(|&&(dr, dc)| places.contains_key(&(r + dr, c + dc)))
        .count()
}

/// The shorter side of cell (row, column) under the homography alone, in working pixels.
fn local_pitch(fit: &Fit, row: i32, column: i32) -> f64 {
    let (r, c) = (f64::from(row), f64::from(column));
    let here = fit.homography.apply(c, r);
    let right = fit.homography.apply(c + 1.0, r);
    let below = fit.homography.apply(c, r + 1.0);
    length((right.0 - here.0, right.1 - here.1))
        .min(length((below.0 - here.0, below.1 - here.1)))
        .max(1.0)
}

/// The homography and residuals of glyphs at integer lattice places, the residuals followed as
/// `following` says.
fn fit_places(
    glyphs: &[Glyph],
    places: &std::collections::HashMap<(i32, i32), usize>,
    following: Following,
) -> Option<Fit> {
    let pairs: Vec<PointPair> = places
        .iter()
        .map(|(&(r, c), &g)| ((f64::from(c), f64::from(r)), (glyphs[g].x, glyphs[g].y)))
        .collect();
    let homography = Matrix::fit(&pairs)?;
    let members = places
        .iter()
        .map(|(&(r, c), &g)| {
            let (x, y) = homography.apply(f64::from(c), f64::from(r));
            (r, c, (glyphs[g].x - x, glyphs[g].y - y))
        })
        .collect::<Vec<_>>();
    let rows = places.keys().map(|p| p.0);
    let columns = places.keys().map(|p| p.1);
    Some(Fit {
        homography,
        members,
        places: places.clone(),
        rows: (rows.clone().min()?, rows.max()?),
        columns: (columns.clone().min()?, columns.max()?),
        following,
    })
}

/// The residual at the middle of `near` (each member's first `N` basis terms, residual and
/// weight) by weighted least squares, `M` = `N` + 1; `None` with fewer than `least` members or
/// singular equations.
fn residual_fitted<const N: usize, const M: usize>(
    near: &[([f64; 6], (f64, f64), f64)],
    least: usize,
) -> Option<(f64, f64)> {
    if near.len() < least {
        return None;
    }
    let part = |pick: fn((f64, f64)) -> f64| {
        weighted_least_squares::<N, M>(near.iter().map(|&(basis, residual, weight)| {
            let mut terms = [0.0; N];
            terms.copy_from_slice(&basis[..N]);
            (terms, pick(residual), weight)
        }))
    };
    Some((part(|r| r.0)?[0], part(|r| r.1)?[0]))
}

/// A point and where it maps to.
type PointPair = ((f64, f64), (f64, f64));

/// A 3x3 projective transform, row-major, acting on (x, y, 1).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix([f64; 9]);

impl Matrix {
    fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let m = &self.0;
        let w = m[6] * x + m[7] * y + m[8];
        (
            (m[0] * x + m[1] * y + m[2]) / w,
            (m[3] * x + m[4] * y + m[5]) / w,
        )
    }

    fn times(&self, other: &Matrix) -> Matrix {
        let (a, b) = (&self.0, &other.0);
        Matrix(std::array::from_fn(|i| {
            let (row, column) = (i / 3, i % 3);
            (0..3).map(|k| a[row * 3 + k] * b[k * 3 + column]).sum()
        }))
    }

    /// The least-squares homography taking each pair's first point to its second (the linear
    /// DLT equations on points normalised to mean distance sqrt 2 from their centroid); `None`
    /// with fewer than four pairs or degenerate points.
    fn fit(pairs: &[PointPair]) -> Option<Matrix> {
        if pairs.len() < 4 {
            return None;
        }
        let normaliser = |points: Vec<(f64, f64)>| -> Option<(Matrix, Matrix)> {
            let n = points.len() as f64;
            let (mx, my) = (
                points.iter().map(|p| p.0).sum::<f64>() / n,
                points.iter().map(|p| p.1).sum::<f64>() / n,
            );
            let spread = points
                .iter()
                .map(|p| (p.0 - mx).hypot(p.1 - my))
                .sum::<f64>()
                / n;
            if spread < 1e-9 {
                return None;
            }
            let s = std::f64::consts::SQRT_2 / spread;
            Some((
                Matrix([s, 0.0, -s * mx, 0.0, s, -s * my, 0.0, 0.0, 1.0]),
                Matrix([1.0 / s, 0.0, mx, 0.0, 1.0 / s, my, 0.0, 0.0, 1.0]),
            ))
        };
        let (from_norm, _) = normaliser(pairs.iter().map(|p| p.0).collect())?;
        let (to_norm, to_denorm) = normaliser(pairs.iter().map(|p| p.1).collect())?;
        let equations = pairs.iter().flat_map(|&(from, to)| {
            let (x, y) = from_norm.apply(from.0, from.1);
            let (u, v) = to_norm.apply(to.0, to.1);
            [
                ([x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y], u, 1.0),
                ([0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y], v, 1.0),
            ]
        });
        let h = weighted_least_squares::<8, 9>(equations)?;
        let fitted = Matrix([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0]);
        Some(to_denorm.times(&fitted).times(&from_norm))
    }
}

/// Glyphs bucketed by position, for nearest-glyph queries.
struct Index {
    bucket: f64,
    columns: usize,
    rows: usize,
    cells: Vec<Vec<usize>>,
}

impl Index {
    fn new(glyphs: &[Glyph]) -> Index {
        let mut sizes: Vec<f64> = glyphs.iter().map(|g| g.size).collect();
        let bucket = if sizes.is_empty() {
            8.0
        } else {
            let middle = sizes.len() / 2;
            sizes
                .select_nth_unstable_by(middle, f64::total_cmp)
                .1
                .max(4.0)
                * 2.0
        };
        let extent = |f: fn(&Glyph) -> f64| glyphs.iter().map(f).fold(0.0, f64::max);
        let columns = (extent(|g| g.x) / bucket) as usize + 1;
        let rows = (extent(|g| g.y) / bucket) as usize + 1;
        let mut cells = vec![Vec::new(); columns * rows];
        for (i, g) in glyphs.iter().enumerate() {
            cells[(g.y / bucket) as usize * columns + (g.x / bucket) as usize].push(i);
        }
        Index {
            bucket,
            columns,
            rows,
            cells,
        }
    }

    /// Glyphs in the buckets touching the square of half-side `radius` around (x, y).
    fn within(&self, x: f64, y: f64, radius: f64) -> impl Iterator<Item = usize> + '_ {
        let span = |centre: f64, count: usize| {
            let low = ((centre - radius) / self.bucket).floor().max(0.0) as usize;
            let high = ((centre + radius) / self.bucket).floor();
            (
                low,
                if high < 0.0 {
                    None
                } else {
                    Some((high as usize).min(count - 1))
                },
            )
        };
        let (x0, x1) = span(x, self.columns);
        let (y0, y1) = span(y, self.rows);
        let rows = match y1 {
            Some(y1) if y0 <= y1 => y0..y1 + 1,
            _ => 0..0,
        };
        let columns = match x1 {
            Some(x1) if x0 <= x1 => x0..x1 + 1,
            _ => 0..0,
        };
        rows.flat_map(move |r| {
            columns
                .clone()
                .flat_map(move |c| self.cells[r * self.columns + c].iter().copied())
        })
    }

    /// The glyph of about `size` nearest to `point` within `radius`.
    fn nearest(
        &self,
        glyphs: &[Glyph],
        point: (f64, f64),
        radius: f64,
        size: f64,
    ) -> Option<usize> {
        self.within(point.0, point.1, radius)
            .filter(|&g| similar(glyphs[g].size, size))
            .map(|g| (g, (glyphs[g].x - point.0).hypot(glyphs[g].y - point.1)))
            .filter(|&(_, d)| d <= radius)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(g, _)| g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glyph centres of a round maze of radius 6 seen through `homography` (lattice (column,
    /// row) to image), with a little deterministic jitter, plus a line of text below it.
    fn maze_glyphs(homography: &Matrix, size: f64) -> Vec<Glyph> {
        let mut glyphs = Vec::new();
        for r in -6i32..=6 {
            for c in -6i32..=6 {
                if f64::from(r * r + c * c).sqrt() > 6.3 {
                    continue;
                }
                let (x, y) = homography.apply(f64::from(c), f64::from(r));
                let jitter = f64::from((r * 7 + c * 13).rem_euclid(5) - 2) * 0.3;
                glyphs.push(Glyph {
                    x: x + jitter,
                    y: y - jitter,
                    size,
                });
            }
        }
        let (x, y) = homography.apply(-6.0, 9.0);
        for k in 0..30 {
            glyphs.push(Glyph {
                x: x + f64::from(k) * size * 0.7,
                y,
                size,
            });
        }
        glyphs
    }

    #[test]
    fn recovers_the_lattice_of_a_tilted_rotated_maze() {
        // Lattice (column, row) to image: rotated about 30 degrees, foreshortened in
        // perspective, 30 pixels a cell near the middle.
        let homography = Matrix([26.0, -15.0, 500.0, 15.0, 26.0, 400.0, 0.0004, 0.0006, 1.0]);
        let glyphs = maze_glyphs(&homography, 12.0);
        let fit = fit_lattice(&glyphs).expect("a lattice");
        assert_eq!(fit.rows.1 - fit.rows.0 + 1, 13);
        assert_eq!(fit.columns.1 - fit.columns.0 + 1, 13);
        let maze = glyphs.len() - 30;
        assert_eq!(fit.glyphs(), maze, "every maze glyph and no text");
        // Every lattice point on the maze or beside it lies within a tenth of a cell of the true
        // one, and the bounding box's corners, where the plane through the digits' residuals
        // reaches two cells past the nearest, within a fifth. The fit numbers its rows and
        // columns from the seed, so the bounding box's corner is row -6 column -6.
        for r in -6..=6 {
            for c in -6..=6 {
                let found = fit.point(
                    f64::from(r + 6 + fit.rows.0),
                    f64::from(c + 6 + fit.columns.0),
                );
                let truth = homography.apply(f64::from(c), f64::from(r));
                let error = (found.0 - truth.0).hypot(found.1 - truth.1);
                let beside_maze = f64::from(r * r + c * c).sqrt() <= 7.5;
                let most = if beside_maze { 3.0 } else { 6.0 };
                assert!(error < most, "r{r} c{c}: {found:?} vs {truth:?}");
            }
        }
    }

    #[test]
    fn digits_in_a_line_just_beyond_the_lattice_are_found() {
        // 30 pixels a cell; the maze's three-digit end rows moved 0.4 of a cell sideways, as a
        // curled page's edge bends them off the lattice, and left out of it.
        let homography = Matrix([30.0, 0.0, 500.0, 0.0, 30.0, 400.0, 0.0, 0.0, 1.0]);
        let whole = maze_glyphs(&homography, 12.0);
        let fit = fit_lattice(&whole).expect("a lattice");
        assert_eq!(
            (fit.rows.1 - fit.rows.0, digits_beyond(&fit, &whole)),
            (12, 0)
        );
        let (top, bottom) = (homography.apply(0.0, -6.0).1, homography.apply(0.0, 6.0).1);
        let bent: Vec<Glyph> = whole
            .iter()
            .map(|g| {
                let end_row = (g.y - top).abs() < 3.0 || (g.y - bottom).abs() < 3.0;
                Glyph {
                    x: if end_row { g.x + 12.0 } else { g.x },
                    ..*g
                }
            })
            .collect();
        let fit = fit_lattice(&bent).expect("a lattice");
        assert_eq!(fit.rows.1 - fit.rows.0, 10, "the end rows left out");
        assert_eq!(digits_beyond(&fit, &bent), 3);
        let whole_maze = with_bent_ends(fit, &bent, &Index::new(&bent));
        assert_eq!(
            (
                whole_maze.rows.1 - whole_maze.rows.0,
                whole_maze.columns.1 - whole_maze.columns.0,
                digits_beyond(&whole_maze, &bent),
                whole_maze.glyphs(),
            ),
            (12, 12, 0, whole.len() - 30),
            "the bent end rows taken in, and no text"
        );
    }

    #[test]
    fn digits_of_a_corner_curled_off_the_lattice_are_taken_in() {
        // The maze's lower right corner lifted with the page: its digits stand 0.4 of a cell
        // down and right of where the flat lattice puts them, inside its bounding box.
        let homography = Matrix([30.0, 0.0, 500.0, 0.0, 30.0, 400.0, 0.0, 0.0, 1.0]);
        let whole = maze_glyphs(&homography, 12.0);
        let maze = whole.len() - 30;
        let corner = homography.apply(3.5, 3.5);
        let curled: Vec<Glyph> = whole
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let lifted = i < maze && g.x > corner.0 && g.y > corner.1;
                let shift = if lifted { 12.0 } else { 0.0 };
                Glyph {
                    x: g.x + shift,
                    y: g.y + shift,
                    ..*g
                }
            })
            .collect();
        let flat = fit_lattice(&curled).expect("a lattice");
        assert!(flat.glyphs() < maze, "the corner's digits left out");
        let index = Index::new(&curled);
        assert!(digits_off(&flat, &curled, &index).is_some());
        let bent = with_bent_ends(flat, &curled, &index);
        assert_eq!(
            (bent.glyphs(), digits_off(&bent, &curled, &index)),
            (maze, None),
            "every maze glyph taken in, and no text"
        );
    }

    #[test]
    fn a_diamond_maze_s_tips_standing_off_the_lattice_are_taken_in() {
        // A diamond of radius 6 whose four lone tips stand 0.4 of a cell further out than the
        // lattice puts them, as a curled page bends them: left out, the maze's shape, and so
        // its way out, would be another's.
        let homography = Matrix([30.0, 0.0, 500.0, 0.0, 30.0, 400.0, 0.0, 0.0, 1.0]);
        let mut glyphs = Vec::new();
        for r in -6i32..=6 {
            for c in -6i32..=6 {
                if r.abs() + c.abs() > 6 {
                    continue;
                }
                let out = |k: i32| {
                    f64::from(k)
                        + if k.abs() == 6 {
                            0.4 * f64::from(k.signum())
                        } else {
                            0.0
                        }
                };
                let (x, y) = homography.apply(out(c), out(r));
                let jitter = f64::from((r * 7 + c * 13).rem_euclid(5) - 2) * 0.3;
                glyphs.push(Glyph {
                    x: x + jitter,
                    y: y - jitter,
                    size: 12.0,
                });
            }
        }
        let maze = glyphs.len();
        let flat = fit_lattice(&glyphs).expect("a lattice");
        assert_eq!(flat.glyphs(), maze - 4, "the tips left out");
        let index = Index::new(&glyphs);
        assert!(digits_off(&flat, &glyphs, &index).is_some());
        let bent = with_bent_ends(flat, &glyphs, &index);
        assert_eq!(
            (
                bent.glyphs(),
                bent.rows.1 - bent.rows.0,
                digits_off(&bent, &glyphs, &index)
            ),
            (maze, 12, None),
            "the four tips taken in"
        );
    }

    #[test]
    fn leaps_over_a_column_of_digits_lost_to_a_rule() {
        let homography = Matrix([30.0, 2.0, 400.0, -1.0, 28.0, 300.0, 0.0002, -0.0003, 1.0]);
        let at = |c: f64, r: f64| homography.apply(c, r);
        let lost = at(-2.0, 0.0).0;
        let glyphs: Vec<Glyph> = maze_glyphs(&homography, 12.0)
            .into_iter()
            .filter(|g| (g.x - lost).abs() > 8.0)
            .collect();
        let fit = fit_lattice(&glyphs).expect("a lattice");
        assert_eq!(
            (
                fit.rows.1 - fit.rows.0 + 1,
                fit.columns.1 - fit.columns.0 + 1
            ),
            (13, 13)
        );
    }

    #[test]
    fn fits_a_homography_exactly_to_clean_points() {
        let truth = Matrix([2.0, 0.3, 10.0, -0.2, 1.5, 20.0, 0.001, -0.002, 1.0]);
        let pairs: Vec<_> = (0..5)
            .flat_map(|r| (0..5).map(move |c| (f64::from(c), f64::from(r))))
            .map(|p| (p, truth.apply(p.0, p.1)))
            .collect();
        let fitted = Matrix::fit(&pairs).unwrap();
        for &(p, q) in &pairs {
            let got = fitted.apply(p.0, p.1);
            assert!((got.0 - q.0).abs() < 1e-6 && (got.1 - q.1).abs() < 1e-6);
        }
        assert!(Matrix::fit(&pairs[..3]).is_none());
    }
}
