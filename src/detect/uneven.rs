//! Grid lines that do not stand evenly spaced across a rectified ink mask: a magazine page
//! curled toward its inner margin squeezes the cells beside it by a tenth or more, and evenly
//! spaced lines fitted to the whole width drift over a cell off the lines there. Here the lines
//! are tracked one by one along one band of the mask, each a step from the one before, the
//! step adapting to the cells as they narrow. It only gives candidate places: the caller fits
//! and weighs the lattice through them against the evenly spaced one (see `lattice_warped`).
//! Lines perpendicular to x only; the caller transposes the mask for the other direction.

use super::lines::Mask;

/// How much shorter or longer than the step before the next step may be: a curl squeezes the
/// cells gradually, never from one cell to the next by a quarter.
const STEP_CHANGE: (f64, f64) = (0.75, 1.33);

/// The ink fraction of a column of the band below which a step finds no line there (a
/// nonogram's blank corner): the line is supposed one step on.
const FAINT_STEP: f32 = 0.2;

/// The places across `mask` (pixels from its left edge) of the lines perpendicular to x, tracked
/// along the rows `band` (top, bottom) from the left edge when `from_left`, else from the right:
/// the first line the most inked column within a fifth of a cell (`cell` pixels wide) of the
/// edge, each next the most inked column one step on (within [`STEP_CHANGE`] of the step
/// before, the first step `cell`), the last at the far edge when the step before ends within
/// half a step of it. `None` for a band holding no line at the edge.
pub fn tracked_lines(
    mask: &Mask,
    band: (usize, usize),
    cell: f64,
    from_left: bool,
) -> Option<Vec<f64>> {
    let (w, h) = (mask.width, mask.height);
    let (top, bottom) = (band.0.min(h), band.1.min(h));
    if bottom <= top || w < 12 || cell < 3.0 {
        return None;
    }
    let rows = (bottom - top) as f32;
    // Columns counted from the edge the tracking starts at.
    let column = |i: usize| if from_left { i } else { w - 1 - i };
    let profile: Vec<f32> = (0..w)
        .map(|i| {
            let x = column(i);
            (top..bottom).filter(|&y| mask.ink[y * w + x]).count() as f32 / rows
        })
        .collect();
    let strongest = |lo: usize, hi: usize, aim: f64| {
        (lo..=hi.min(w - 1)).max_by(|&a, &b| {
            profile[a]
                .total_cmp(&profile[b])
                .then((b as f64 - aim).abs().total_cmp(&(a as f64 - aim).abs()))
        })
    };
    let reach = (cell * 0.2).round().max(1.0) as usize;
    let first = strongest(0, reach, 0.0)?;
    if profile[first] < FAINT_STEP {
        return None;
    }
    let mut lines = vec![first as f64];
    let mut step = cell;
    loop {
        let x = lines[lines.len() - 1];
        let far = (w - 1) as f64;
        if far - x < 0.5 * step {
            break;
        }
        let (lo, hi) = (x + STEP_CHANGE.0 * step, x + STEP_CHANGE.1 * step);
        if lo > far {
            // The border stands at the edge, closer than a step can be short.
            lines.push(far);
            break;
        }
        let next = strongest(lo.round() as usize, hi.round() as usize, x + step)?;
        if profile[next] < FAINT_STEP {
            lines.push((x + step).min(far));
            continue;
        }
        step = 0.5 * step + 0.5 * (next as f64 - x);
        lines.push(next as f64);
    }
    // Pixel centres, from the left edge.
    Some(if from_left {
        lines.into_iter().map(|x| x + 0.5).collect()
    } else {
        lines
            .into_iter()
            .rev()
            .map(|x| w as f64 - 0.5 - x)
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mask of vertical lines at `places` (and no other ink), `size` square.
    fn lines_mask(size: usize, places: &[usize]) -> Mask {
        let mut ink = vec![false; size * size];
        for y in 0..size {
            for &x in places {
                ink[y * size + x.min(size - 1)] = true;
            }
        }
        Mask::of_ink(ink, size, size)
    }

    #[test]
    fn squeezed_cells_at_one_side_are_tracked_where_they_stand() {
        // Twenty columns, the five at the left four fifths as wide as the others (a page
        // curled there): the line between them stands two thirds of a cell off even spacing.
        let places: Vec<usize> = (0..=20)
            .map(|k| {
                if k <= 5 {
                    k * 25
                } else {
                    125 + (k - 5) * 474 / 15
                }
            })
            .collect();
        let mask = lines_mask(600, &places);
        for from_left in [true, false] {
            let lines = tracked_lines(&mask, (0, 150), 30.0, from_left).expect("tracked");
            assert_eq!(lines.len(), 21, "{from_left} {lines:?}");
            for (line, &truth) in lines.iter().zip(&places) {
                assert!(
                    (line - truth as f64 - 0.5).abs() <= 1.0,
                    "{line} for {truth}"
                );
            }
        }
    }

    #[test]
    fn a_blank_band_holds_no_lines() {
        let mask = lines_mask(300, &[]);
        assert_eq!(tracked_lines(&mask, (0, 300), 30.0, true), None);
    }
}
