//! A strongly curled grid's border lines traced as curves in the rectified ink mask, and the
//! mask resampled so that they run straight (a Coons patch between the four traced sides):
//! a page's curl bends a grid's lines by a cell or more, too far for evenly spaced lines to be
//! counted in the straight warp, but smoothly, so straightening its border straightens the
//! lines inside as well. It only moves mask pixels and maps points back; counting and
//! following the lines is `lines`'s.

use super::lines::Mask;

/// Places along each side where the border is looked for.
const STEPS: usize = 32;
/// How far (share of a step along the side) from where its neighbours lead the border is
/// looked for at the next step.
const REACH: f64 = 0.6;
/// The least share of a step's band of rows that must be inked for a column to be the border.
const LEAST_INK: f64 = 0.5;

/// How a straightened mask's points sit in the mask it was straightened from: the inside
/// rectangle `(left, top, width, height)` and each side's offset from straight (outward or
/// inward, in pixels) at `STEPS + 1` even places along it, corners first and last.
pub struct Unbow {
    inside: (f64, f64, f64, f64),
    left: Vec<f64>,
    right: Vec<f64>,
    top: Vec<f64>,
    bottom: Vec<f64>,
}

impl Unbow {
    /// Traces the border of the grid whose corners are the corners of the `inside` rectangle
    /// (left, top, width, height) of `mask`; `None` when a side is lost on the way.
    pub fn trace(mask: &Mask, inside: (f64, f64, f64, f64)) -> Option<Unbow> {
        let (left, top, width, height) = inside;
        let across = mask.transposed();
        Some(Unbow {
            inside,
            left: side(mask, left, top, height)?,
            right: side(mask, left + width, top, height)?,
            top: side(&across, top, left, width)?,
            bottom: side(&across, top + height, left, width)?,
        })
    }

    /// Whether the border bends off straight by at least `least` pixels anywhere: else the
    /// straight warp already holds the lines where they are.
    pub fn bends(&self, least: f64) -> bool {
        [&self.left, &self.right, &self.top, &self.bottom]
            .iter()
            .flat_map(|offsets| offsets.iter())
            .any(|offset| offset.abs() >= least)
    }

    /// The point of the original mask shown at `(x, y)` of the straightened one.
    pub fn source(&self, (x, y): (f64, f64)) -> (f64, f64) {
        let (left, top, width, height) = self.inside;
        let (u, v) = ((x - left) / width, (y - top) / height);
        let dx = (1.0 - u) * at(&self.left, v) + u * at(&self.right, v);
        let dy = (1.0 - v) * at(&self.top, u) + v * at(&self.bottom, u);
        (x + dx, y + dy)
    }

    /// `mask` resampled so the traced border runs straight along the inside rectangle.
    pub fn straightened(&self, mask: &Mask) -> Mask {
        let (w, h) = (mask.width, mask.height);
        let mut places = Vec::with_capacity(w * h);
        for y in 0..h {
            for x in 0..w {
                let (sx, sy) = self.source((x as f64 + 0.5, y as f64 + 0.5));
                let inside = sx >= 0.0 && sy >= 0.0 && (sx as usize) < w && (sy as usize) < h;
                places.push(inside.then(|| sy as usize * w + sx as usize));
            }
        }
        let resample = |values: &[bool]| -> Vec<bool> {
            if values.is_empty() {
                return Vec::new();
            }
            places
                .iter()
                .map(|place| place.is_some_and(|i| values[i]))
                .collect()
        };
        Mask {
            ink: resample(&mask.ink),
            solid: resample(&mask.solid),
            width: w,
            height: h,
        }
    }
}

/// The offset at `t` (0..1 along a side) of offsets sampled at even places, linear between
/// them and held at the ends.
fn at(offsets: &[f64], t: f64) -> f64 {
    let last = offsets.len() - 1;
    let place = (t * last as f64).clamp(0.0, last as f64);
    let i = (place.floor() as usize).min(last.saturating_sub(1));
    let f = place - i as f64;
    offsets[i] * (1.0 - f) + offsets[(i + 1).min(last)] * f
}

/// The offsets from `straight` (x) of the vertical border line of `mask` running from y =
/// `start` for `length` pixels, at `STEPS + 1` even places along it. The ends are the outline's
/// corners, on the border: the line is followed from each end to the middle, each place looked
/// for near where the places before it lead, then smoothed.
fn side(mask: &Mask, straight: f64, start: f64, length: f64) -> Option<Vec<f64>> {
    let step = length / STEPS as f64;
    let reach = (REACH * step).max(2.0);
    let mut found = vec![0.0f64; STEPS + 1];
    let middle = STEPS / 2;
    let halves: [Vec<usize>; 2] = [(0..=middle).collect(), (middle..=STEPS).rev().collect()];
    for half in halves {
        for (k, &i) in half.iter().enumerate() {
            let guess = match k {
                0 => 0.0,
                1 => found[half[0]],
                _ => {
                    let (before, last) = (found[half[k - 2]], found[half[k - 1]]);
                    2.0 * last - before
                }
            };
            let y = start + i as f64 * step;
            found[i] = column_near(mask, straight + guess, reach, y, step)? - straight;
        }
    }
    Some(
        (0..=STEPS)
            .map(|i| {
                if i == 0 || i == STEPS {
                    return found[i];
                }
                let mut three = [found[i - 1], found[i], found[i + 1]];
                three.sort_by(f64::total_cmp);
                three[1]
            })
            .collect(),
    )
}

/// The x of the inked column nearest `guess` (within `reach`) in the band of rows `band` high
/// around `y`, among those inked nearly as much as the most; `None` when none is inked over
/// [`LEAST_INK`] of the band.
fn column_near(mask: &Mask, guess: f64, reach: f64, y: f64, band: f64) -> Option<f64> {
    let (w, h) = (mask.width as isize, mask.height as isize);
    let lo = ((guess - reach).floor() as isize).clamp(0, w - 1);
    let hi = ((guess + reach).ceil() as isize).clamp(0, w - 1);
    let rows: Vec<usize> = (((y - band / 2.0).floor() as isize).max(0)
        ..((y + band / 2.0).ceil() as isize).min(h))
        .map(|r| r as usize)
        .collect();
    if hi <= lo || rows.len() < 3 {
        return None;
    }
    // A row counts for a column when inked within a pixel of it: a line slanting across the
    // band (the border where the curl turns it most) moves sideways along it.
    let counts: Vec<usize> = (lo..=hi)
        .map(|x| {
            let near = (x - 1).max(0) as usize..=(x + 1).min(w - 1) as usize;
            rows.iter()
                .filter(|&&r| mask.ink[r * mask.width..][near.clone()].contains(&true))
                .count()
        })
        .collect();
    let most = counts.iter().copied().max()?;
    if (most as f64) < LEAST_INK * rows.len() as f64 {
        return None;
    }
    let nearest = (0..counts.len())
        .filter(|&i| counts[i] * 10 >= most * 8)
        .min_by(|&a, &b| {
            let off = |i: usize| (lo as f64 + i as f64 + 0.5 - guess).abs();
            off(a).total_cmp(&off(b))
        })?;
    // The middle of the run of strong columns around it: a thick or blurred line's centre.
    let strong = |i: usize| counts[i] * 2 >= counts[nearest];
    let (mut a, mut b) = (nearest, nearest);
    while a > 0 && strong(a - 1) {
        a -= 1;
    }
    while b + 1 < counts.len() && strong(b + 1) {
        b += 1;
    }
    Some(lo as f64 + (a + b) as f64 / 2.0 + 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `size` square mask holding an `n` x `n` grid inside a `margin`, curled as a page is:
    /// the sheet's point (a, b) shows at (a + bow(b), b + bow(a)), `bow` reaching `bow` pixels
    /// half-way along and none at the corners.
    fn bowed_grid(size: usize, margin: usize, n: usize, bow: f64) -> Mask {
        let mut ink = vec![false; size * size];
        let span = (size - 2 * margin) as f64;
        let cell = span / n as f64;
        let shift = |t: f64| bow * (std::f64::consts::PI * t / span).sin();
        let mut dot = |a: f64, b: f64| {
            let x = (margin as f64 + a + shift(b)).round() as usize;
            let y = (margin as f64 + b + shift(a)).round() as usize;
            ink[y.min(size - 1) * size + x.min(size - 1)] = true;
        };
        for k in 0..=n {
            for s in 0..=(2 * span as usize) {
                let (along, line) = (s as f64 / 2.0, k as f64 * cell);
                dot(line, along);
                dot(along, line);
            }
        }
        Mask::of_ink(ink, size, size)
    }

    #[test]
    fn a_bowed_grid_is_straightened_and_counted() {
        let (size, margin, n) = (400, 60, 15);
        // Bowed by 1.5 cells: too far for the lines to be counted as they are.
        let cell = (size - 2 * margin) as f64 / n as f64;
        let mask = bowed_grid(size, margin, n, 1.5 * cell);
        let inside =
            |m: &Mask| m.cropped(margin, margin, size - 2 * margin + 1, size - 2 * margin + 1);
        assert_ne!(
            super::super::lines::count_cells(&inside(&mask), false),
            Some(n)
        );
        let span = (size - 2 * margin) as f64;
        let unbow = Unbow::trace(&mask, (margin as f64, margin as f64, span, span)).unwrap();
        assert!(unbow.bends(cell));
        let flat = unbow.straightened(&mask);
        assert_eq!(
            super::super::lines::count_cells(&inside(&flat), false),
            Some(n)
        );
        assert_eq!(
            super::super::lines::count_cells(&inside(&flat).transposed(), false),
            Some(n)
        );
        // The middle of the left border maps back onto the bowed line.
        let (x, _) = unbow.source((margin as f64, margin as f64 + span / 2.0));
        assert!((x - (margin as f64 + 1.5 * cell)).abs() < 2.0, "{x}");
    }

    #[test]
    fn a_side_with_no_ink_is_not_traced() {
        let empty = Mask::of_ink(vec![false; 200 * 200], 200, 200);
        assert!(Unbow::trace(&empty, (20.0, 20.0, 160.0, 160.0)).is_none());
    }
}
