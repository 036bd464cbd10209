//! Finds a dark band along the sides of a rectified outline: a drop shadow printed against a
//! magazine nonogram's frame (or the dark page under it) merges with the frame into one piece of
//! ink, so the outline found around that piece reaches past the grid, further the further the
//! shadow runs, and the evenly spaced lines no longer fit between its sides. Each side is moved
//! in to just short of the inner edge of the band solid with ink along it (the frame stays in),
//! fitted as a straight line since the shadow's width grows along the side. It does not count
//! or follow lines; a side with no such band stays where it is.

use super::lines::Mask;

/// Pieces each side is cut into lengthwise; each gives one estimate of the band's inner edge.
const PIECES: usize = 12;
/// The share of a column within one piece that must be ink for it to belong to the band.
const SOLID: f32 = 0.75;
/// Pixels of the band's inner edge kept inside the trimmed outline: the frame line runs there,
/// and the grid's outer lines must stay in the outline to be followed.
const FRAME_KEPT: usize = 3;
/// How deep into the mask the band is looked for, as a share of its size across.
const DEPTH: f64 = 0.06;
/// The most pieces a side's line may miss (no band found, or one far off the line).
const MOST_MISSING: usize = 4;
/// How far (in pixels) an estimate may lie off the side's straight line and still be kept.
const MISFIT: f64 = 3.0;

/// The rectangle's sides moved in past any solid band along them but for its inner
/// [`FRAME_KEPT`] pixels, as a quadrilateral in the mask's pixels (top-left, top-right,
/// bottom-right, bottom-left); `None` when no side has a band wider than `least` pixels (a
/// plain frame, nothing worth trimming).
pub fn trimmed(mask: &Mask, least: f64) -> Option<[(f64, f64); 4]> {
    let (w, h) = (mask.width, mask.height);
    // A band wider than the mask's solid-patch side was moved from its ink to `solid`.
    let ink = |x: usize, y: usize| mask.ink[y * w + x] || mask.solid.get(y * w + x) == Some(&true);
    // Each side's inner edge as a line `across = a + b * along`, `across` measured inward from
    // that side and `along` in pixels from the side's start (top or left).
    let left = side_edge(w, h, &|across, along| ink(across, along));
    let right = side_edge(w, h, &|across, along| ink(w - 1 - across, along));
    let top = side_edge(h, w, &|across, along| ink(along, across));
    let bottom = side_edge(h, w, &|across, along| ink(along, h - 1 - across));
    let deepest = |edge: &Option<(f64, f64)>, length: usize| {
        edge.map_or(0.0, |(a, b)| a.max(a + b * length as f64))
    };
    let widest = [
        deepest(&left, h),
        deepest(&right, h),
        deepest(&top, w),
        deepest(&bottom, w),
    ]
    .into_iter()
    .fold(0.0, f64::max);
    if widest <= least {
        return None;
    }
    let (fw, fh) = (w as f64, h as f64);
    // Lines x = xa + xb * y (left, right) and y = ya + yb * x (top, bottom), in mask pixels.
    let line = |edge: Option<(f64, f64)>| edge.unwrap_or((0.0, 0.0));
    let (la, lb) = line(left);
    let (ra, rb) = line(right);
    let (ta, tb) = line(top);
    let (ba, bb) = line(bottom);
    let vertical = [(la, lb), (fw - ra, -rb)];
    let horizontal = [(ta, tb), (fh - ba, -bb)];
    // Where x = xa + xb * y meets y = ya + yb * x.
    let meet = |(xa, xb): (f64, f64), (ya, yb): (f64, f64)| {
        let y = (ya + yb * xa) / (1.0 - yb * xb);
        (xa + xb * y, y)
    };
    let corners = [
        meet(vertical[0], horizontal[0]),
        meet(vertical[1], horizontal[0]),
        meet(vertical[1], horizontal[1]),
        meet(vertical[0], horizontal[1]),
    ];
    // Steep fits through stray ink could meet far away: the cut outline lies inside the mask,
    // but for a fit's few pixels of scatter about a side the band leaves (put back on it).
    let inside = |&(x, y): &(f64, f64)| {
        (-MISFIT..=fw + MISFIT).contains(&x) && (-MISFIT..=fh + MISFIT).contains(&y)
    };
    corners
        .iter()
        .all(inside)
        .then(|| corners.map(|(x, y)| (x.clamp(0.0, fw), y.clamp(0.0, fh))))
}

/// The inner edge of the solid band along one side, as `(a, b)` with the edge `a + b * along`
/// pixels in from the side; `None` when too few pieces of the side have a band. `ink(across,
/// along)` reads the mask from that side, `depth` pixels across it and `length` along it.
fn side_edge(
    depth: usize,
    length: usize,
    ink: &dyn Fn(usize, usize) -> bool,
) -> Option<(f64, f64)> {
    let reach = ((depth as f64 * DEPTH).ceil() as usize).min(depth);
    let piece = length / PIECES;
    if piece == 0 || reach == 0 {
        return None;
    }
    let estimates: Vec<(f64, f64)> = (0..PIECES)
        .filter_map(|p| {
            let along = p * piece..(p + 1) * piece;
            let solid = |across: usize| {
                let inked = along.clone().filter(|&a| ink(across, a)).count();
                inked as f32 >= SOLID * piece as f32
            };
            // The band begins at the outermost solid column and ends where the solid run does.
            let start = (0..reach).find(|&across| solid(across))?;
            let end = (start..reach).find(|&across| !solid(across))?;
            let middle = (p as f64 + 0.5) * piece as f64;
            Some((middle, end.saturating_sub(FRAME_KEPT).max(start) as f64))
        })
        .collect();
    // The straight line through two estimates that most others lie near, refitted through
    // those: a piece where the band is broken finds the next line in, far off the side.
    let near = |(a, b): (f64, f64), &(x, y): &(f64, f64)| (y - (a + b * x)).abs() <= MISFIT;
    let best = estimates
        .iter()
        .enumerate()
        .flat_map(|(i, p)| estimates[i + 1..].iter().map(move |q| (*p, *q)))
        .filter_map(|(p, q)| fit(&[p, q]))
        .max_by_key(|&line| estimates.iter().filter(|e| near(line, e)).count())?;
    let kept: Vec<(f64, f64)> = estimates
        .iter()
        .copied()
        .filter(|e| near(best, e))
        .collect();
    if kept.len() + MOST_MISSING < PIECES {
        return None;
    }
    fit(&kept)
}

/// The least-squares line `y = a + b * x` through the points; `None` for fewer than two.
fn fit(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    if points.len() < 2 {
        return None;
    }
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let spread: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    if spread == 0.0 {
        return None;
    }
    let b = points
        .iter()
        .map(|p| (p.0 - mean_x) * (p.1 - mean_y))
        .sum::<f64>()
        / spread;
    Some((mean_y - b * mean_x, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 300x300 mask: a frame 2 pixels thick whose right side stands 12 pixels in from the
    /// mask's edge, with a shadow right of it growing from nothing at the top to all 12 pixels
    /// at the bottom.
    fn shadowed() -> Mask {
        let (w, h) = (300, 300);
        let ink = (0..w * h)
            .map(|i| {
                let (x, y) = (i % w, i / w);
                let shadow = 12 * y / h;
                let frame = x < 2 || y < 2 || y >= h - 2 || (w - 14..w - 12).contains(&x);
                let beside = x < w - 12 + shadow && x >= w - 12;
                (frame && x < w - 12) || beside
            })
            .collect();
        Mask::of_ink(ink, w, h)
    }

    #[test]
    fn a_shadow_growing_along_a_side_is_cut_off_and_a_plain_frame_is_not_worth_it() {
        let mask = shadowed();
        let corners = trimmed(&mask, 4.0).expect("a band wider than 4 pixels");
        // The right side moves in to the frame, 14 - 2 pixels in from the mask's edge.
        assert!((corners[1].0 - 288.0).abs() < 1.5, "{corners:?}");
        assert!((corners[2].0 - 288.0).abs() < 1.5, "{corners:?}");
        // The left side stays near the frame.
        assert!(corners[0].0 <= 0.5 && corners[3].0 <= 0.5, "{corners:?}");
        assert_eq!(trimmed(&mask, 20.0), None);
    }

    #[test]
    fn a_shadow_wiped_from_the_ink_as_solid_is_still_cut_off() {
        // Where the shadow is wider than 6 pixels it moves from `ink` to `solid`.
        let mask = shadowed().without_solids(6);
        assert!(mask.solid.iter().any(|&s| s));
        let corners = trimmed(&mask, 4.0).expect("a band wider than 4 pixels");
        assert!((corners[1].0 - 288.0).abs() < 1.5, "{corners:?}");
        assert!((corners[2].0 - 288.0).abs() < 1.5, "{corners:?}");
        // Every corner inside the mask, however the band's fitted edge runs past a side.
        assert!(corners
            .iter()
            .all(|&(x, y)| (0.0..=300.0).contains(&x) && (0.0..=300.0).contains(&y)));
    }
}
