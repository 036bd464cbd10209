//! The bands of print beside a grid: a nonogram's row clues run left of each row and its column
//! clues above each column, outside the ruled lattice. Each band is resampled upright from the
//! photo through the perspective of its own row or column of cells (so curl bending one row
//! does not shift the next), extended outward cell by cell. A curled page bends the row (or
//! column) away from the straight perspective through its end corners; that bend, measured on
//! the lattice's points near the band, is carried on into the band, so the clues printed along
//! the bent line stay in it.
//!
//! It only cuts the bands out; finding and reading the numbers in them is `read::clues`.

use image::{GrayImage, Luma};

use super::{rectify, Lattice};
use crate::photo::geometry::{weighted_least_squares, Homography};

/// Which side of the grid a band lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Left of a row: the strip is `cells` x 1 cells, its right end against the grid.
    Left,
    /// Above a column: the strip is 1 x `cells` cells, its bottom end against the grid.
    Top,
}

/// How many cells from the band's end at the grid the bend is measured over. A curl is not one
/// parabola across a wide grid: fitted over all of a 25-cell row it misplaces the far end's
/// bend, and the band beside it. Over 74 generated nonogram photos, 10 cells read 12 more
/// exactly than the whole line and 1 more than 6 or 14 cells.
const BEND_CELLS: usize = 10;

/// The band beside row or column `index` of `lattice`, `cells` cells long, resampled at
/// `pixels` per cell, starting `gap` cells out from the grid's border line (to leave the line
/// out), bent as its line bends by the grid (see [`bend`]). Photo pixels outside the image come
/// out white.
pub fn strip(
    image: &GrayImage,
    lattice: &Lattice,
    side: Side,
    index: usize,
    cells: f64,
    gap: f64,
    pixels: u32,
) -> GrayImage {
    let p = &lattice.points;
    let (rows, columns) = (lattice.rows, lattice.columns);
    let to_f64 = |(x, y): (f32, f32)| (f64::from(x), f64::from(y));
    // The band's own row (or column) of cells, in cell units, mapped to the photo.
    let (unit, corners) = match side {
        Side::Left => (
            [
                (0.0, 0.0),
                (columns as f64, 0.0),
                (columns as f64, 1.0),
                (0.0, 1.0),
            ],
            [
                p[index][0],
                p[index][columns],
                p[index + 1][columns],
                p[index + 1][0],
            ],
        ),
        Side::Top => (
            [
                (0.0, 0.0),
                (1.0, 0.0),
                (1.0, rows as f64),
                (0.0, rows as f64),
            ],
            [
                p[0][index],
                p[0][index + 1],
                p[rows][index + 1],
                p[rows][index],
            ],
        ),
    };
    let (width, height) = match side {
        Side::Left => ((cells * f64::from(pixels)).round() as u32, pixels),
        Side::Top => (pixels, (cells * f64::from(pixels)).round() as u32),
    };
    let Some(to_photo) = Homography::from_points(unit, corners.map(to_f64)) else {
        return GrayImage::from_pixel(width.max(1), height.max(1), Luma([255]));
    };
    // Each lattice point of the band's two edge lines near the grid: its place along the line
    // (cells from the grid's edge) and how far it lies from where the straight perspective puts
    // it.
    let near = match side {
        Side::Left => columns,
        Side::Top => rows,
    }
    .min(BEND_CELLS);
    let offsets: Vec<(f64, (f64, f64))> = (0..=near)
        .flat_map(|k| [(k, 0), (k, 1)])
        .map(|(k, edge)| {
            let (point, unit_point) = match side {
                Side::Left => (p[index + edge][k], (k as f64, edge as f64)),
                Side::Top => (p[k][index + edge], (edge as f64, k as f64)),
            };
            let (x, y) = to_f64(point);
            let (sx, sy) = to_photo.apply(unit_point);
            (k as f64, (x - sx, y - sy))
        })
        .collect();
    let bend = bend(&offsets);
    let (image_width, image_height) = (f64::from(image.width()), f64::from(image.height()));
    let scale = 1.0 / f64::from(pixels);
    GrayImage::from_fn(width.max(1), height.max(1), |x, y| {
        let (along, across) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
        let unit_point = match side {
            Side::Left => (along * scale - cells - gap, across * scale),
            Side::Top => (along * scale, across * scale - cells - gap),
        };
        let along_line = match side {
            Side::Left => unit_point.0,
            Side::Top => unit_point.1,
        };
        let (px, py) = to_photo.apply(unit_point);
        let (px, py) = match bend {
            Some([bx, by]) => (px + parabola(bx, along_line), py + parabola(by, along_line)),
            None => (px, py),
        };
        let inside = px.is_finite()
            && py.is_finite()
            && (0.0..image_width).contains(&px)
            && (0.0..image_height).contains(&py);
        if inside {
            return Luma([rectify::sample(image, px, py)]);
        }
        Luma([255])
    })
}

/// The bend of a line of lattice points away from its straight perspective, from `offsets`
/// (each point's place along the line and its offset in the photo, x and y): a parabola in the
/// place fitted to each offset, to be carried on past the line's end. `None` when the points do
/// not fix one (fewer than three places along the line).
fn bend(offsets: &[(f64, (f64, f64))]) -> Option<[[f64; 3]; 2]> {
    let x: Vec<(f64, f64)> = offsets.iter().map(|&(t, (dx, _))| (t, dx)).collect();
    let y: Vec<(f64, f64)> = offsets.iter().map(|&(t, (_, dy))| (t, dy)).collect();
    Some([parabola_fit(&x)?, parabola_fit(&y)?])
}

/// `a + b t + c t²` for `[a, b, c]`.
fn parabola([a, b, c]: [f64; 3], t: f64) -> f64 {
    a + b * t + c * t * t
}

/// The least-squares parabola `[a, b, c]` through `points` (t, value), `None` when they lie at
/// fewer than three places t.
fn parabola_fit(points: &[(f64, f64)]) -> Option<[f64; 3]> {
    weighted_least_squares::<3, 4>(
        points
            .iter()
            .map(|&(t, value)| ([1.0, t, t * t], value, 1.0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_extend_the_rows_and_columns_outward() {
        // A 2x2 lattice of 10-pixel cells at (50, 50); a dark dot 15 pixels left of row 1's
        // middle and one 25 pixels above column 0's middle.
        let lattice = Lattice {
            rows: 2,
            columns: 2,
            points: (0..3)
                .map(|r| {
                    (0..3)
                        .map(|c| (50.0 + 10.0 * c as f32, 50.0 + 10.0 * r as f32))
                        .collect()
                })
                .collect(),
        };
        let mut image = GrayImage::from_pixel(100, 100, Luma([255]));
        image.put_pixel(35, 65, Luma([0]));
        image.put_pixel(55, 25, Luma([0]));
        let left = strip(&image, &lattice, Side::Left, 1, 3.0, 0.0, 10);
        assert_eq!(left.dimensions(), (30, 10));
        let darkest = |strip: &GrayImage| {
            strip
                .enumerate_pixels()
                .min_by_key(|(_, _, p)| p.0[0])
                .map(|(x, y, _)| (x, y))
                .unwrap()
        };
        // Row 1's band spans x 20..50 and y 60..70 of the image.
        assert_eq!(darkest(&left), (15, 5));
        let top = strip(&image, &lattice, Side::Top, 0, 3.0, 0.0, 10);
        assert_eq!(top.dimensions(), (10, 30));
        // Column 0's band spans x 50..60 and y 20..50.
        assert_eq!(darkest(&top), (5, 5));
        // Out of the photo: white.
        let far = strip(&image, &lattice, Side::Left, 0, 9.0, 0.0, 10);
        assert_eq!(far.get_pixel(0, 5).0[0], 255);
    }

    #[test]
    fn a_bent_row_carries_its_bend_into_its_band() {
        // One row of ten 10-pixel cells from (50, 50), its lines sagging by 0.2 c² pixels at
        // column line c: the straight perspective through its corners rises 2 pixels a cell, the
        // bent line near the grid runs level. Two cells left of the grid the bent line's middle
        // is at y 55.8, where a dark dot is printed; the straight one puts y 51 there.
        let sag = |c: usize| 0.2 * (c * c) as f32;
        let lattice = Lattice {
            rows: 1,
            columns: 10,
            points: (0..2)
                .map(|r| {
                    (0..=10)
                        .map(|c| (50.0 + 10.0 * c as f32, 50.0 + 10.0 * r as f32 + sag(c)))
                        .collect()
                })
                .collect(),
        };
        let mut image = GrayImage::from_pixel(200, 120, Luma([255]));
        image.put_pixel(30, 56, Luma([0]));
        let band = strip(&image, &lattice, Side::Left, 0, 3.0, 0.0, 10);
        let (x, y, _) = band
            .enumerate_pixels()
            .min_by_key(|(_, _, p)| p.0[0])
            .unwrap();
        assert!(
            (9..=10).contains(&x) && (4..=6).contains(&y),
            "dot at ({x}, {y})"
        );
    }

    #[test]
    fn parabola_fit_recovers_a_parabola_and_needs_three_places() {
        let points: Vec<(f64, f64)> = (0..5)
            .map(|t| (t as f64, 1.0 - 2.0 * t as f64 + 0.5 * (t * t) as f64))
            .collect();
        let [a, b, c] = parabola_fit(&points).unwrap();
        assert!((a - 1.0).abs() < 1e-9 && (b + 2.0).abs() < 1e-9 && (c - 0.5).abs() < 1e-9);
        assert_eq!(parabola_fit(&[(0.0, 1.0), (1.0, 2.0), (1.0, 3.0)]), None);
    }
}
