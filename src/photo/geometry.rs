//! Where the paper lands in the frame: a camera looking at a tilted, rotated sheet (a
//! homography from sheet pixels to frame pixels) and a smooth page-curl warp of the sheet.
//!
//! Pure geometry on points; it never touches pixels.

use super::rng::Rng;

/// A 3x3 projective transform, row-major, acting on (x, y, 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Homography(pub [f64; 9]);

/// Solves `N` linear equations in `N` unknowns, given as augmented rows of `M` = `N` + 1
/// values, by Gauss-Jordan elimination with partial pivoting; `None` when they are (nearly)
/// singular. A homography has eight unknowns, from four point pairs exactly or from many by
/// least squares; a curled grid's bend (`detect::bend`) ten.
pub fn solve_linear<const N: usize, const M: usize>(mut a: [[f64; M]; N]) -> Option<[f64; N]> {
    assert_eq!(
        M,
        N + 1,
        "each row holds the coefficients and the right-hand side"
    );
    for col in 0..N {
        let pivot = (col..N).max_by(|&p, &q| a[p][col].abs().total_cmp(&a[q][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        let pivot_row = a[col];
        for (row, equation) in a.iter_mut().enumerate() {
            if row != col {
                let factor = equation[col] / pivot_row[col];
                for (value, pivot_value) in equation.iter_mut().zip(pivot_row).skip(col) {
                    *value -= factor * pivot_value;
                }
            }
        }
    }
    Some(std::array::from_fn(|i| a[i][N] / a[i][i]))
}

/// The coefficients minimising the weighted squared error over `rows`, each the `N` basis
/// values at a place, the value there and its weight, by the normal equations (`M` = `N` + 1,
/// as for [`solve_linear`]); `None` when they are (nearly) singular.
pub fn weighted_least_squares<const N: usize, const M: usize>(
    rows: impl IntoIterator<Item = ([f64; N], f64, f64)>,
) -> Option<[f64; N]> {
    let mut system = [[0.0f64; M]; N];
    for (basis, value, weight) in rows {
        for (row, equation) in system.iter_mut().enumerate() {
            for (column, entry) in equation.iter_mut().take(N).enumerate() {
                *entry += weight * basis[row] * basis[column];
            }
            equation[N] += weight * basis[row] * value;
        }
    }
    solve_linear(system)
}

impl Homography {
    /// The transform taking each `from[i]` to `to[i]`; `None` when the points are degenerate.
    pub fn from_points(from: [(f64, f64); 4], to: [(f64, f64); 4]) -> Option<Homography> {
        let mut a = [[0.0f64; 9]; 8];
        for i in 0..4 {
            let ((x, y), (u, v)) = (from[i], to[i]);
            a[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u];
            a[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v];
        }
        let h = solve_linear(a)?;
        Some(Homography([
            h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0,
        ]))
    }

    pub fn apply(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let m = &self.0;
        let w = m[6] * x + m[7] * y + m[8];
        (
            (m[0] * x + m[1] * y + m[2]) / w,
            (m[3] * x + m[4] * y + m[5]) / w,
        )
    }

    /// The inverse transform; `None` if singular.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.0;
        let cofactor = [
            m[4] * m[8] - m[5] * m[7],
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8],
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6],
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        let det = m[0] * cofactor[0] + m[1] * cofactor[3] + m[2] * cofactor[6];
        (det.abs() > 1e-12).then(|| Homography(cofactor.map(|c| c / det)))
    }
}

/// The corners of a `width` x `height` sheet as seen by a pinhole camera after rotating it by
/// `rotation` in its plane and tilting it by `tilt_x`, `tilt_y` (degrees), centred at the origin
/// and scaled so the sheet's longer side is about 1. Order: top-left, top-right, bottom-right,
/// bottom-left of the sheet.
pub fn projected_corners(
    width: f64,
    height: f64,
    rotation: f64,
    tilt_x: f64,
    tilt_y: f64,
) -> [(f64, f64); 4] {
    let unit = width.max(height);
    let (hw, hh) = (width / unit / 2.0, height / unit / 2.0);
    let (rz, rx, ry) = (
        rotation.to_radians(),
        tilt_x.to_radians(),
        tilt_y.to_radians(),
    );
    // A phone camera's field of view: the camera sits about two sheet lengths away.
    let distance = 2.2;
    [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map(|(x, y)| {
        let (x, y) = (x * rz.cos() - y * rz.sin(), x * rz.sin() + y * rz.cos());
        let (y, z) = (y * rx.cos(), y * rx.sin());
        let (x, z) = (x * ry.cos() + z * ry.sin(), -x * ry.sin() + z * ry.cos());
        (x * distance / (distance + z), y * distance / (distance + z))
    })
}

/// A smooth non-linear warp of the sheet: gentle waves plus one edge lifting like a curled
/// page. Displacements are in sheet pixels; the output samples the sheet at `p + at(p)`.
#[derive(Debug, Clone)]
pub struct Curl {
    size: (f64, f64),
    amplitude: f64,
    waves: [(f64, f64); 2],
    edge: usize,
}

impl Curl {
    pub fn new(width: f64, height: f64, strength: f32, rng: &mut Rng) -> Curl {
        let mut wave = || {
            (
                f64::from(rng.range(0.3, 1.2)),
                f64::from(rng.range(0.0, std::f32::consts::TAU)),
            )
        };
        let waves = [wave(), wave()];
        Curl {
            size: (width, height),
            amplitude: f64::from(strength) * width.max(height),
            waves,
            edge: rng.below(4),
        }
    }

    /// The displacement at sheet point `p`.
    pub fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        if self.amplitude == 0.0 {
            return (0.0, 0.0);
        }
        let (u, v) = (x / self.size.0, y / self.size.1);
        let tau = std::f64::consts::TAU;
        let mut dx = self.amplitude * (tau * self.waves[0].0 * v + self.waves[0].1).sin();
        let mut dy = self.amplitude * (tau * self.waves[1].0 * u + self.waves[1].1).sin();
        // The lifted edge: the last 35% of the sheet towards one side bends away quadratically.
        let towards = |t: f64| ((t - 0.65) / 0.35).max(0.0).powi(2) * self.amplitude * 2.5;
        match self.edge {
            0 => dy += towards(u) * (v - 0.5),
            1 => dy += towards(1.0 - u) * (v - 0.5),
            2 => dx += towards(v) * (u - 0.5),
            _ => dx += towards(1.0 - v) * (u - 0.5),
        }
        (dx, dy)
    }

    /// Where the output shows sheet point `q`: the `p` with `p + at(p) = q`, by fixed-point
    /// iteration (the warp is small and smooth, so this converges quickly).
    pub fn undo(&self, q: (f64, f64)) -> (f64, f64) {
        let mut p = q;
        for _ in 0..30 {
            let d = self.at(p);
            p = (q.0 - d.0, q.1 - d.1);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_systems_of_any_size_are_solved_and_singular_ones_refused() {
        // 2x + y - z = 8, -3x - y + 2z = -11, -2x + y + 2z = -3: x = 2, y = 3, z = -1, found
        // only by swapping rows (the first pivot is not the largest).
        let solved = solve_linear([
            [2.0, 1.0, -1.0, 8.0],
            [-3.0, -1.0, 2.0, -11.0],
            [-2.0, 1.0, 2.0, -3.0],
        ])
        .unwrap();
        for (got, want) in solved.iter().zip([2.0, 3.0, -1.0]) {
            assert!((got - want).abs() < 1e-12, "{solved:?}");
        }
        assert_eq!(solve_linear([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0]]), None);
    }

    #[test]
    fn a_weighted_least_squares_fit_ignores_what_weighs_nothing() {
        // The line 1 + 2t through four places, and a stray value weighed 0.
        let rows = [
            (0.0, 1.0, 1.0),
            (1.0, 3.0, 1.0),
            (2.0, 5.0, 1.0),
            (3.0, 7.0, 1.0),
            (1.5, 40.0, 0.0),
        ]
        .map(|(t, value, weight)| ([1.0, t], value, weight));
        let [a, b] = weighted_least_squares::<2, 3>(rows).unwrap();
        assert!((a - 1.0).abs() < 1e-9 && (b - 2.0).abs() < 1e-9, "{a} {b}");
        // One place cannot fix a line.
        assert_eq!(
            weighted_least_squares::<2, 3>([([1.0, 2.0], 5.0, 1.0)]),
            None
        );
    }

    #[test]
    fn homography_maps_its_points_and_inverts() {
        let from = [(0.0, 0.0), (100.0, 0.0), (100.0, 50.0), (0.0, 50.0)];
        let to = [(10.0, 20.0), (200.0, 5.0), (220.0, 160.0), (-5.0, 140.0)];
        let h = Homography::from_points(from, to).unwrap();
        let back = h.inverse().unwrap();
        for (f, t) in from.iter().zip(to) {
            let (x, y) = h.apply(*f);
            assert!((x - t.0).abs() < 1e-6 && (y - t.1).abs() < 1e-6);
            let (x, y) = back.apply(t);
            assert!((x - f.0).abs() < 1e-6 && (y - f.1).abs() < 1e-6);
        }
    }

    #[test]
    fn curl_undo_inverts_the_warp() {
        let curl = Curl::new(1000.0, 800.0, 0.03, &mut Rng::new(3));
        for q in [(100.0, 100.0), (900.0, 700.0), (500.0, 400.0)] {
            let p = curl.undo(q);
            let d = curl.at(p);
            assert!((p.0 + d.0 - q.0).abs() < 1e-3 && (p.1 + d.1 - q.1).abs() < 1e-3);
        }
    }
}
