//! Pulls back an outer line of a lattice where it runs past the grid's outer row or column onto
//! the frame's shadow: there the outer cells come out far taller (or wider) than the cells
//! inside them. A puzzle's cells are one pitch all over, bent by perspective and curl a little
//! from one cell to the next, never by half a cell. It moves only outer lines' points, one pitch
//! of the cells inside beyond the next line in; it does not find lines or look at the image.

use super::Lattice;

/// How many times as tall (or wide) as the cell inside it an outer cell must be for its outer
/// line to be pulled back. Along the outer lines of the five magazine photos' lattices the
/// outer cells are 0.67-1.20 times their inner neighbours but where a line overreaches:
/// magazine-7's bottom row, its line along the far edge of the frame's drop shadow at the
/// curled bottom-left, up to 2.2 times (its row 45 read "7 7 7 7 3" off the shadow, 44 alone
/// printed there); magazine-8's bottom row, the shadow's own, up to 2.2; and magazine-6's
/// corner block beside the squeezed first clue column, up to 3.0 (no clue there).
const OVERREACH: f32 = 1.4;

/// `lattice` with each outer line's points that lie more than [`OVERREACH`] times the pitch
/// inside beyond the next line in moved back to one pitch beyond it, along the line from the
/// second line in through the first. A lattice under three lines a side is left as it is.
pub fn pulled_in(mut lattice: Lattice) -> Lattice {
    let (rows, columns) = (lattice.rows, lattice.columns);
    if rows < 3 || columns < 3 {
        return lattice;
    }
    let distance = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
    // Each side's k-th point, outer first, then the next two in: top, bottom, left, right.
    let along = |side: usize, k: usize| match side {
        0 => [(0, k), (1, k), (2, k)],
        1 => [(rows, k), (rows - 1, k), (rows - 2, k)],
        2 => [(k, 0), (k, 1), (k, 2)],
        _ => [(k, columns), (k, columns - 1), (k, columns - 2)],
    };
    for side in 0..4 {
        let length = if side < 2 { columns + 1 } else { rows + 1 };
        for k in 0..length {
            let at = along(side, k);
            let [outer, first, second] = at.map(|(r, c)| lattice.points[r][c]);
            let (beyond, pitch) = (distance(outer, first), distance(first, second));
            if pitch > 0.0 && beyond > OVERREACH * pitch {
                let (r, c) = at[0];
                lattice.points[r][c] = (2.0 * first.0 - second.0, 2.0 * first.1 - second.1);
            }
        }
    }
    lattice
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square lattice of `side` cells, `pitch` pixels each, from (10, 10).
    fn square(side: usize, pitch: f32) -> Lattice {
        Lattice::even(10.0, 10.0, side, side, pitch)
    }

    #[test]
    fn an_outer_line_on_the_frames_shadow_is_pulled_back_one_pitch_beyond_the_next() {
        let even = square(5, 20.0);
        let mut shadowed = even.clone();
        // The bottom line runs 36 px below the line above it at its left end (1.8 pitches), 24
        // px at the next point (1.2, as perspective may stretch a row), as printed elsewhere.
        shadowed.points[5][0].1 += 16.0;
        shadowed.points[5][1].1 += 4.0;
        let pulled = pulled_in(shadowed.clone());
        assert_eq!(pulled.points[5][0], even.points[5][0]);
        assert_eq!(pulled.points[5][1], shadowed.points[5][1]);
        assert_eq!(pulled_in(even.clone()), even);
        let small = square(2, 20.0);
        assert_eq!(pulled_in(small.clone()), small);
    }
}
