//! What the detect stage saw on its way to a lattice, recorded only when asked (for
//! `--debug-dir`): the working-size ink mask and every outline tried with why it failed; and the
//! grid warped upright through its lattice's outer corners. It draws nothing and writes nothing.

use image::GrayImage;

use super::{rectify, Lattice};
use crate::photo::geometry::Homography;

/// The record `find_lattice_inspected` fills in.
#[derive(Debug, Clone, Default)]
pub struct Inspection {
    /// The ink mask of the shrunk image the outlines were looked for in: ink black, paper white.
    pub ink: Option<GrayImage>,
    /// How many photo pixels one pixel of `ink` spans, each way.
    pub ink_scale: u32,
    /// Every outline tried as the grid's border, in the order tried.
    pub outlines: Vec<Outline>,
}

/// One outline tried as the grid's border.
#[derive(Debug, Clone)]
pub struct Outline {
    /// Its corners in the photo.
    pub corners: [(f64, f64); 4],
    /// Why no lattice was found inside it; `None` for the one that held the lattice.
    pub failure: Option<String>,
}

/// The grid warped upright, and the lattice's points in that picture.
#[derive(Debug, Clone)]
pub struct UprightGrid {
    pub picture: GrayImage,
    pub points: Vec<Vec<(f32, f32)>>,
}

impl Inspection {
    pub(super) fn record_ink(&mut self, ink: &[bool], width: usize, height: usize, scale: u32) {
        let pixels = ink.iter().map(|&i| if i { 0 } else { 255 }).collect();
        self.ink = GrayImage::from_raw(width as u32, height as u32, pixels);
        self.ink_scale = scale;
    }

    pub(super) fn record_outline<T>(
        &mut self,
        corners: [(f64, f64); 4],
        tried: &Result<T, String>,
    ) {
        self.outlines.push(Outline {
            corners,
            failure: tried.as_ref().err().cloned(),
        });
    }
}

/// The grid of `lattice` warped upright from `image` through its four outer corners, with the
/// long side `long_side` pixels, and every lattice point's place in that picture. Where curl or a
/// misfit bends the lattice, its points leave the straight lines the warp makes of the border.
pub fn upright_grid(image: &GrayImage, lattice: &Lattice, long_side: f64) -> Option<UprightGrid> {
    let outer = lattice.outer_corners();
    let length = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
    let across = (length(outer[0], outer[1]) + length(outer[3], outer[2])) / 2.0;
    let down = (length(outer[0], outer[3]) + length(outer[1], outer[2])) / 2.0;
    let scale = long_side / across.max(down).max(1.0);
    let (width, height) = (
        (across * scale).round().max(1.0),
        (down * scale).round().max(1.0),
    );
    let rectangle = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)];
    let to_photo = Homography::from_points(rectangle, outer)?;
    let to_upright = to_photo.inverse()?;
    let pixels = rectify::warp(image, (0, 0), &to_photo, width as usize, height as usize);
    let picture = GrayImage::from_raw(width as u32, height as u32, pixels)?;
    let points = lattice
        .points
        .iter()
        .map(|row| {
            row.iter()
                .map(|&(x, y)| {
                    let (u, v) = to_upright.apply((f64::from(x), f64::from(y)));
                    (u as f32, v as f32)
                })
                .collect()
        })
        .collect();
    Some(UprightGrid { picture, points })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_tilted_grid_comes_out_square_with_its_points_on_the_warp() {
        // A 2 x 2 grid of 40-pixel cells, sheared: its corners go to the picture's corners and
        // its inner points, evenly spaced along straight lines, stay evenly spaced.
        let lattice = Lattice {
            rows: 2,
            columns: 2,
            points: (0..=2)
                .map(|r| {
                    (0..=2)
                        .map(|c| {
                            (
                                20.0 + 40.0 * c as f32 + 10.0 * r as f32,
                                10.0 + 40.0 * r as f32,
                            )
                        })
                        .collect()
                })
                .collect(),
        };
        let image = GrayImage::from_pixel(140, 100, Luma([200]));
        let upright = upright_grid(&image, &lattice, 80.0).unwrap();
        // The slanted sides are the longer ones: sqrt(80^2 + 20^2) pixels, drawn 80 long.
        let (width, height) = upright.picture.dimensions();
        assert_eq!((width, height), (78, 80));
        let (cell_w, cell_h) = (width as f32 / 2.0, height as f32 / 2.0);
        for (r, row) in upright.points.iter().enumerate() {
            for (c, &(u, v)) in row.iter().enumerate() {
                assert!((u - cell_w * c as f32).abs() < 0.01, "{r} {c}: {u}");
                assert!((v - cell_h * r as f32).abs() < 0.01, "{r} {c}: {v}");
            }
        }
        assert_eq!(upright.picture.get_pixel(40, 40).0, [200]);
    }
}
