//! The bands of print beside a grid: a nonogram's row clues run left of each row and its column
//! clues above each column, outside the ruled lattice. Each band is resampled upright from the
//! photo through the perspective of its own row or column of cells (so curl bending one row
//! does not shift the next), extended outward cell by cell.
//!
//! It only cuts the bands out; finding and reading the numbers in them is `read::clues`.

use image::{GrayImage, Luma};

use super::{rectify, Lattice};
use crate::photo::geometry::Homography;

/// Which side of the grid a band lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Left of a row: the strip is `cells` x 1 cells, its right end against the grid.
    Left,
    /// Above a column: the strip is 1 x `cells` cells, its bottom end against the grid.
    Top,
}

/// The band beside row or column `index` of `lattice`, `cells` cells long, resampled at
/// `pixels` per cell, starting `gap` cells out from the grid's border line (to leave the line
/// out). Photo pixels outside the image come out white.
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
    let (image_width, image_height) = (f64::from(image.width()), f64::from(image.height()));
    let scale = 1.0 / f64::from(pixels);
    GrayImage::from_fn(width.max(1), height.max(1), |x, y| {
        let (along, across) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
        let unit_point = match side {
            Side::Left => (along * scale - cells - gap, across * scale),
            Side::Top => (along * scale, across * scale - cells - gap),
        };
        let (px, py) = to_photo.apply(unit_point);
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
}
