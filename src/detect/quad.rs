//! The four corners of a grid's outer border: the convex hull of a component's outline and the
//! largest-area quadrilateral on that hull. It does not check that a grid lies inside.

/// The convex hull of `points`, counter-clockwise in x-right/y-down terms (monotone chain).
pub fn convex_hull(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut sorted = points.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    sorted.dedup();
    if sorted.len() < 3 {
        return sorted;
    }
    let cross = |o: (f64, f64), a: (f64, f64), b: (f64, f64)| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    let mut hull: Vec<(f64, f64)> = Vec::with_capacity(sorted.len() * 2);
    for pass in [
        &sorted[..],
        &sorted.iter().rev().copied().collect::<Vec<_>>()[..],
    ] {
        let base = hull.len();
        for &p in pass {
            while hull.len() >= base + 2
                && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0
            {
                hull.pop();
            }
            hull.push(p);
        }
        hull.pop();
    }
    hull
}

/// Area of a polygon (positive for the hull's orientation).
pub fn area(polygon: &[(f64, f64)]) -> f64 {
    let n = polygon.len();
    (0..n)
        .map(|i| {
            let (a, b) = (polygon[i], polygon[(i + 1) % n]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum::<f64>()
        / 2.0
}

/// The largest quadrilateral with corners on `hull` (in hull order), found by coordinate
/// ascent from the hull's points extreme along the two diagonals and the axes; `None` for a
/// hull of fewer than four points.
pub fn largest_quad(hull: &[(f64, f64)]) -> Option<[(f64, f64); 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let quad_area = |idx: &[usize; 4]| area(&idx.map(|i| hull[i])).abs();
    let extreme = |f: &dyn Fn((f64, f64)) -> f64| {
        (0..n)
            .max_by(|&a, &b| f(hull[a]).total_cmp(&f(hull[b])))
            .unwrap_or(0)
    };
    // Two starts: the diagonal extremes suit an upright grid, the axis extremes one turned 45 degrees.
    let starts = [
        [
            extreme(&|p| -p.0 - p.1),
            extreme(&|p| p.0 - p.1),
            extreme(&|p| p.0 + p.1),
            extreme(&|p| p.1 - p.0),
        ],
        [
            extreme(&|p| -p.0),
            extreme(&|p| -p.1),
            extreme(&|p| p.0),
            extreme(&|p| p.1),
        ],
    ];
    let mut best: Option<([usize; 4], f64)> = None;
    for mut idx in starts {
        idx.sort_unstable();
        let mut current = quad_area(&idx);
        for _ in 0..8 {
            let mut improved = false;
            for k in 0..4 {
                let (lo, hi) = (idx[(k + 3) % 4], idx[(k + 1) % 4]);
                // Candidates strictly between the neighbours, walking the hull circularly.
                let mut i = (lo + 1) % n;
                while i != hi {
                    let mut trial = idx;
                    trial[k] = i;
                    let a = quad_area(&trial);
                    if a > current + 1e-9 {
                        current = a;
                        idx = trial;
                        improved = true;
                    }
                    i = (i + 1) % n;
                }
            }
            if !improved {
                break;
            }
        }
        if best.is_none_or(|(_, a)| current > a) {
            best = Some((idx, current));
        }
    }
    best.map(|(idx, _)| idx.map(|i| hull[i]))
}

/// How far (degrees) the hull may turn along what is still one straight side.
const STRAIGHT_TURN: f64 = 8.0;

/// The quadrilateral of the hull's four longest straight sides, each extended until it meets
/// the next: for an outline with a corner cut away (a magazine nonogram's clue boxes leave the
/// top-left corner empty, an L whose hull cuts it diagonally) it restores the missing corner,
/// which no quadrilateral on the hull reaches. `None` when the hull has fewer than four sides
/// or they do not meet in a convex quadrilateral at most half as large again as the hull.
pub fn sides_quad(hull: &[(f64, f64)]) -> Option<[(f64, f64); 4]> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let direction = |i: usize| {
        let (a, b) = (hull[i], hull[(i + 1) % n]);
        (b.1 - a.1).atan2(b.0 - a.0)
    };
    let turn = |from: f64, to: f64| {
        let d = (to - from).rem_euclid(std::f64::consts::TAU);
        d.min(std::f64::consts::TAU - d).to_degrees()
    };
    // Start a run at the sharpest turn, so that no straight side is split at the hull's start.
    let start = (0..n)
        .max_by(|&a, &b| {
            let at = |i: usize| turn(direction((i + n - 1) % n), direction(i));
            at(a).total_cmp(&at(b))
        })
        .unwrap_or(0);
    // Runs of hull edges: (first point, last point), in hull order.
    let mut runs: Vec<((f64, f64), (f64, f64))> = Vec::new();
    let mut run_direction = f64::NAN;
    for k in 0..n {
        let i = (start + k) % n;
        let (a, b) = (hull[i], hull[(i + 1) % n]);
        match runs.last_mut() {
            Some(run) if turn(run_direction, direction(i)) <= STRAIGHT_TURN => run.1 = b,
            _ => {
                runs.push((a, b));
                run_direction = direction(i);
            }
        }
    }
    if runs.len() < 4 {
        return None;
    }
    let length = |run: &((f64, f64), (f64, f64))| (run.1 .0 - run.0 .0).hypot(run.1 .1 - run.0 .1);
    let mut longest: Vec<usize> = (0..runs.len()).collect();
    longest.sort_by(|&a, &b| length(&runs[b]).total_cmp(&length(&runs[a])));
    longest.truncate(4);
    longest.sort_unstable();
    let meet = |p: ((f64, f64), (f64, f64)), q: ((f64, f64), (f64, f64))| {
        let (d1, d2) = (
            (p.1 .0 - p.0 .0, p.1 .1 - p.0 .1),
            (q.1 .0 - q.0 .0, q.1 .1 - q.0 .1),
        );
        let denominator = d1.0 * d2.1 - d1.1 * d2.0;
        if denominator.abs() < 1e-9 * length(&p) * length(&q) {
            return None;
        }
        let t = ((q.0 .0 - p.0 .0) * d2.1 - (q.0 .1 - p.0 .1) * d2.0) / denominator;
        Some((p.0 .0 + d1.0 * t, p.0 .1 + d1.1 * t))
    };
    let mut corners = [(0.0, 0.0); 4];
    for k in 0..4 {
        corners[k] = meet(runs[longest[(k + 3) % 4]], runs[longest[k]])?;
    }
    let hull_area = area(hull);
    let turns_one_way = (0..4).all(|k| {
        let (a, b, c) = (corners[k], corners[(k + 1) % 4], corners[(k + 2) % 4]);
        ((b.0 - a.0) * (c.1 - b.1) - (b.1 - a.1) * (c.0 - b.0)) * hull_area > 0.0
    });
    (turns_one_way && area(&corners).abs() <= 1.5 * hull_area.abs()).then_some(corners)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_corners_of_a_tilted_square_outline() {
        let corners = [(50.0, 10.0), (90.0, 50.0), (50.0, 90.0), (10.0, 50.0)];
        let mut points = Vec::new();
        for i in 0..4 {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            for t in 0..=20 {
                let t = f64::from(t) / 20.0;
                points.push((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
            }
        }
        points.push((50.0, 50.0));
        let hull = convex_hull(&points);
        assert_eq!(hull.len(), 4);
        assert!((area(&hull).abs() - 3200.0).abs() < 1e-6);
        let quad = largest_quad(&hull).unwrap();
        for c in corners {
            assert!(quad.contains(&c));
        }
        assert!(largest_quad(&hull[..3]).is_none());
    }

    #[test]
    fn restores_the_corner_cut_from_an_l_shaped_outline() {
        // A 100x80 rectangle at (0, 0) with its top-left 30x20 corner missing.
        let outline = [
            (30.0, 0.0),
            (100.0, 0.0),
            (100.0, 80.0),
            (0.0, 80.0),
            (0.0, 20.0),
            (30.0, 20.0),
        ];
        let hull = convex_hull(&outline);
        let quad = sides_quad(&hull).unwrap();
        for corner in [(0.0, 0.0), (100.0, 0.0), (100.0, 80.0), (0.0, 80.0)] {
            assert!(quad.contains(&corner), "{quad:?}");
        }
        assert!(sides_quad(&hull[..3]).is_none());
    }
}
