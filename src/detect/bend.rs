//! The smooth bend a page's curl and a slightly wrong outline give a grid's lines, fitted to the
//! places the lines were followed to: each line's offset from straight as one low-order surface
//! over (line, crossing), fitted robustly so a few places where a line was led astray (onto a
//! stray page rule, a digit, a neighbour) do not bend it. It only fits numbers; finding the lines
//! again near the fitted places is the caller's.

use crate::photo::geometry::weighted_least_squares;

/// Powers (of the position across the lines, of the position along them) in the surface: every
/// term up to degree three in all, enough for a page's gentle waves and a lifted edge over a
/// grid.
const TERMS: [(i32, i32); 10] = [
    (0, 0),
    (1, 0),
    (0, 1),
    (2, 0),
    (1, 1),
    (0, 2),
    (3, 0),
    (2, 1),
    (1, 2),
    (0, 3),
];

/// Reweighting rounds of the robust fit.
const ROUNDS: usize = 10;

/// The fitted places of `found[line][crossing]`, lines straight at `straight[line]` and crossed
/// at `crossings[crossing]`; `None` when there are too few points for the surface or its
/// equations are singular. The fit is least absolute deviations (by reweighting), so a minority
/// of places far off the bend pull it very little.
pub fn fit(straight: &[f64], crossings: &[f64], found: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let (lines, across) = (straight.len(), crossings.len());
    if lines < 3 || across < 3 || lines * across < 3 * TERMS.len() {
        return None;
    }
    // Positions scaled to -1..1 each way, so the powers stay comparable.
    let scaled = |values: &[f64]| -> Vec<f64> {
        let (lo, hi) = (values[0], values[values.len() - 1]);
        let half = ((hi - lo) / 2.0).abs().max(1e-9);
        values
            .iter()
            .map(|v| (v - (lo + hi) / 2.0) / half)
            .collect()
    };
    let (us, vs) = (scaled(straight), scaled(crossings));
    let basis = |u: f64, v: f64| TERMS.map(|(a, b)| u.powi(a) * v.powi(b));
    let points: Vec<([f64; 10], f64)> = (0..lines)
        .flat_map(|k| (0..across).map(move |i| (k, i)))
        .map(|(k, i)| (basis(us[k], vs[i]), found[k][i] - straight[k]))
        .collect();
    let spacing = ((straight[lines - 1] - straight[0]) / (lines - 1) as f64).abs();
    // Residuals below this count as exact: they do not get an unbounded weight.
    let floor = (spacing * 0.02).max(1e-6);
    let mut weights = vec![1.0; points.len()];
    let mut coefficients = [0.0; 10];
    for _ in 0..ROUNDS {
        coefficients = weighted_least_squares::<10, 11>(
            points
                .iter()
                .zip(&weights)
                .map(|(&(row, value), &weight)| (row, value, weight)),
        )?;
        for (weight, (row, value)) in weights.iter_mut().zip(&points) {
            let residual = value - dot(row, &coefficients);
            *weight = 1.0 / residual.abs().max(floor);
        }
    }
    Some(
        (0..lines)
            .map(|k| {
                (0..across)
                    .map(|i| straight[k] + dot(&basis(us[k], vs[i]), &coefficients))
                    .collect()
            })
            .collect(),
    )
}

fn dot(a: &[f64; 10], b: &[f64; 10]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_places_led_astray_do_not_bend_the_fit() {
        let straight: Vec<f64> = (0..=9).map(|k| k as f64 * 30.0).collect();
        let crossings = straight.clone();
        let bend = |k: usize, i: usize| {
            let (u, v) = (k as f64 / 9.0, i as f64 / 9.0);
            4.0 * (2.5 * v).sin() + 3.0 * u * v
        };
        let mut found: Vec<Vec<f64>> = (0..=9)
            .map(|k| (0..=9).map(|i| straight[k] + bend(k, i)).collect())
            .collect();
        // One line follows a stray rule for four crossings, half a cell off.
        for place in &mut found[3][3..7] {
            *place += 15.0;
        }
        let fitted = fit(&straight, &crossings, &found).unwrap();
        for (k, line) in fitted.iter().enumerate() {
            for (i, &place) in line.iter().enumerate() {
                let truth = straight[k] + bend(k, i);
                assert!((place - truth).abs() < 1.0, "{k} {i}: {place}");
            }
        }
        assert!(fit(&straight[..2], &crossings, &found).is_none());
    }
}
