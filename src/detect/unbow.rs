//! A strongly curled grid's border lines traced as curves in the rectified ink mask, and the
//! mask resampled so that they run straight (a Coons patch between the four traced sides):
//! a page's curl bends a grid's lines by a cell or more, too far for evenly spaced lines to be
//! counted in the straight warp, but smoothly, so straightening its border straightens the
//! lines inside as well. It only moves mask pixels and maps points back; counting and
//! following the lines is `lines`'s.

use super::lines::Mask;
use crate::photo::geometry::weighted_least_squares;

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
    let smoothed: Vec<f64> = (0..=STEPS)
        .map(|i| {
            if i == 0 || i == STEPS {
                return found[i];
            }
            let mut three = [found[i - 1], found[i], found[i + 1]];
            three.sort_by(f64::total_cmp);
            three[1]
        })
        .collect();
    Some(without_kinks(
        &smoothed,
        (KINK_STEPS * step).max(KINK_PIXELS),
    ))
}

/// How far (in steps along the side, or [`KINK_PIXELS`] if more) a traced place may lie off
/// the smooth curve through the side's places: a page's curl bows a border smoothly, while a
/// place led astray (an outline's corner set on the clue digits beside the grid, its trace
/// then started there) kinks it. A bottom side started 14 pixels (most of a 16-pixel step)
/// off the grid's line at its left corner moved that corner's rows' lines a quarter of a cell
/// and carried the kink into their clue bands (a 15x19 photo lost six rows' clues).
const KINK_STEPS: f64 = 0.4;
/// The least distance (pixels) off the curve that counts as a kink, for short steps.
const KINK_PIXELS: f64 = 3.0;
/// How many places at either end of a side may be kinked and mended. A side's trace starts at
/// the outline's corners, so that is where it is led astray; a side off its curve elsewhere
/// was traced from its two ends along two different lines, and no curve mends it (its halves
/// met 75 pixels apart in a hard 17x15 photo, whose lattice the straight warp found).
const KINKED_END_PLACES: usize = 3;
/// Reweighting rounds of the robust curve fit.
const CURVE_ROUNDS: usize = 10;

/// `offsets` (at even places along a side) with each place lying more than `farthest` off a
/// cubic fitted through them all by least absolute deviations put on that cubic, a few kinked
/// places pulling such a fit very little; unchanged when any such place lies away from the
/// side's ends (see [`KINKED_END_PLACES`]).
fn without_kinks(offsets: &[f64], farthest: f64) -> Vec<f64> {
    let last = (offsets.len() - 1).max(1) as f64;
    let basis = |i: usize| {
        let t = 2.0 * i as f64 / last - 1.0;
        [1.0, t, t * t, t * t * t]
    };
    let mut weights = vec![1.0; offsets.len()];
    let mut curve: Option<[f64; 4]> = None;
    for _ in 0..CURVE_ROUNDS {
        let Some(fitted) = cubic_fit(offsets, &weights, basis) else {
            break;
        };
        for (i, weight) in weights.iter_mut().enumerate() {
            let residual = offsets[i] - dot(fitted, basis(i));
            *weight = 1.0 / residual.abs().max(0.5);
        }
        curve = Some(fitted);
    }
    let Some(curve) = curve else {
        return offsets.to_vec();
    };
    let smooth = |i: usize| dot(curve, basis(i));
    let kinked: Vec<usize> = (0..offsets.len())
        .filter(|&i| (offsets[i] - smooth(i)).abs() > farthest)
        .collect();
    let at_an_end = |i: usize| i < KINKED_END_PLACES || i + KINKED_END_PLACES >= offsets.len();
    if !kinked.iter().all(|&i| at_an_end(i)) {
        return offsets.to_vec();
    }
    offsets
        .iter()
        .enumerate()
        .map(|(i, &offset)| {
            if kinked.contains(&i) {
                smooth(i)
            } else {
                offset
            }
        })
        .collect()
}

fn dot(a: [f64; 4], b: [f64; 4]) -> f64 {
    a.iter().zip(b).map(|(a, b)| a * b).sum()
}

/// The weighted least-squares cubic through `values` (at places `basis` gives the powers of);
/// `None` when its normal equations are singular.
fn cubic_fit(
    values: &[f64],
    weights: &[f64],
    basis: impl Fn(usize) -> [f64; 4],
) -> Option<[f64; 4]> {
    weighted_least_squares::<4, 5>(
        values
            .iter()
            .zip(weights)
            .enumerate()
            .map(|(i, (&value, &weight))| (basis(i), value, weight)),
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

    /// A side bowed by a curl: `bow` pixels half-way along, none at the corners, at
    /// `STEPS + 1` places.
    fn bowed_side(bow: f64) -> Vec<f64> {
        (0..=STEPS)
            .map(|i| bow * (std::f64::consts::PI * i as f64 / STEPS as f64).sin())
            .collect()
    }

    #[test]
    fn a_smoothly_bowed_side_is_kept_as_traced() {
        // A bow of 40 pixels (over a cell on most grids): the cubic misses a sine by under 2
        // pixels, inside the 3-pixel least kink.
        let side = bowed_side(40.0);
        assert_eq!(without_kinks(&side, 3.0), side);
    }

    #[test]
    fn a_side_kinked_at_its_corner_is_put_back_on_its_bow() {
        // As the bottom side of a 15x19 photo's grid was traced: started 14 pixels off at its
        // corner, the first two places kinked off a side that runs level at 10 pixels.
        let mut side: Vec<f64> = (0..=STEPS)
            .map(|i| 10.0 - 14.0 * (i as f64 / STEPS as f64).powi(3))
            .collect();
        let level = side.clone();
        side[0] = -4.0;
        side[1] = -4.0;
        let mended = without_kinks(&side, 6.4);
        // The two kinked places come back within a pixel and a half; the rest stay as traced.
        for i in 0..=STEPS {
            let off = if i < 2 { 1.5 } else { 0.0 };
            assert!((mended[i] - level[i]).abs() <= off, "{i}: {mended:?}");
        }
    }

    #[test]
    fn a_side_traced_along_two_lines_is_left_as_traced() {
        // Its halves, traced from either end, met 75 pixels apart: no curve mends that, and
        // a cubic through it would move a dozen places in the middle.
        let side: Vec<f64> = (0..=STEPS)
            .map(|i| {
                if i <= STEPS / 2 {
                    10.0
                } else {
                    -65.0 + 2.0 * (i - STEPS / 2) as f64
                }
            })
            .collect();
        assert_eq!(without_kinks(&side, 14.3), side);
    }
}
