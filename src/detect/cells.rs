//! A second way to find a grid's outline, for when its border touches other print (a rule
//! through the page, a frame around the puzzle): the grid's cells are the paper showing through
//! it, many compact blank pieces of about one size side by side. This groups such pieces and
//! returns the outline points of the largest group. It does not check the group's regularity;
//! the line count does.

use super::components::{components_4, Component};

/// The compact blank pieces of an ink mask that the cells' groups are made of, found once for
/// the groups measured both ways (see [`BlankPieces::largest_group`]).
pub struct BlankPieces {
    pieces: Vec<Component>,
    width: usize,
    height: usize,
}

impl BlankPieces {
    /// The blank pieces of `ink`, 4-connected and not too small for a cell. When `closed`, only
    /// paper with no ink beside it is blank: a blurred grid's thin lines threshold with gaps
    /// of a pixel, through which the paper of neighbouring cells joins into pieces too large
    /// to group.
    pub fn of(ink: &[bool], width: usize, height: usize, closed: bool) -> BlankPieces {
        let mut blank: Vec<bool> = ink.iter().map(|&inked| !inked).collect();
        if closed {
            for (i, _) in ink.iter().enumerate().filter(|(_, &inked)| inked) {
                let (x, y) = (i % width, i / width);
                if x > 0 {
                    blank[i - 1] = false;
                }
                if x + 1 < width {
                    blank[i + 1] = false;
                }
                if y > 0 {
                    blank[i - width] = false;
                }
                if y + 1 < height {
                    blank[i + width] = false;
                }
            }
        }
        let small = (width.min(height) / 120).max(3);
        // 4-connected: the grid's lines are 8-connected ink, and blurred, a thin line's pixels
        // may meet only at corners; 8-connected, the paper would leak through there and join
        // whole blocks of cells into pieces too large to group.
        BlankPieces {
            pieces: components_4(&blank, width, height, small * small / 2, small),
            width,
            height,
        }
    }

    /// The pieces compact enough to be a cell's paper: neither long nor large (a third of the
    /// mask), and filling two fifths of their box; each with its area, holes filled when
    /// `filled` (see [`spanned`]).
    fn compact(&self, filled: bool) -> impl Iterator<Item = (&Component, usize)> {
        let large = self.width.max(self.height) / 3;
        self.pieces.iter().filter_map(move |c| {
            let (w, h) = (c.bounds.2 - c.bounds.0 + 1, c.bounds.3 - c.bounds.1 + 1);
            let area = if filled { spanned(c) } else { c.pixels };
            let compact =
                w <= large && h <= large && w <= 3 * h && h <= 3 * w && area * 5 >= w * h * 2;
            compact.then_some((c, area))
        })
    }

    /// Each compact piece (see [`BlankPieces::compact`]) as its box's centre and the side of
    /// a square of its area, holes filled when `filled`.
    pub fn cell_like(&self, filled: bool) -> impl Iterator<Item = (f64, f64, f64)> + '_ {
        self.compact(filled).map(|(c, area)| {
            let (x, y) = centre(c);
            (x, y, (area as f64).sqrt())
        })
    }

    /// The outline points of the largest group of similar neighbouring pieces, grown outward by
    /// a little so the grid's outer lines fall inside; `None` with fewer than 9 pieces. When
    /// `filled`, each piece is measured with its holes filled (see [`spanned`]).
    pub fn largest_group(&self, filled: bool) -> Option<Vec<(f64, f64)>> {
        let (pieces, sizes): (Vec<&Component>, Vec<f64>) = self
            .compact(filled)
            .map(|(c, area)| (c, (area as f64).sqrt()))
            .unzip();
        let mut group: Vec<usize> = (0..pieces.len()).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for a in 0..pieces.len() {
            for b in a + 1..pieces.len() {
                let (sa, sb) = (sizes[a], sizes[b]);
                let (ca, cb) = (centre(pieces[a]), centre(pieces[b]));
                let near = (ca.0 - cb.0).hypot(ca.1 - cb.1) < 1.8 * sa.max(sb);
                if near && sa.max(sb) < 1.5 * sa.min(sb) {
                    let (p, q) = (root(&mut group, a), root(&mut group, b));
                    group[p.max(q)] = p.min(q);
                }
            }
        }
        let mut members = vec![Vec::new(); pieces.len()];
        for i in 0..pieces.len() {
            let r = root(&mut group, i);
            members[r].push(i);
        }
        let best = members.into_iter().max_by_key(Vec::len)?;
        if best.len() < 9 {
            return None;
        }
        let points: Vec<(f64, f64)> = best
            .iter()
            .flat_map(|&i| pieces[i].outline.iter().copied())
            .collect();
        let n = points.len() as f64;
        let middle = (
            points.iter().map(|p| p.0).sum::<f64>() / n,
            points.iter().map(|p| p.1).sum::<f64>() / n,
        );
        // The blank inside a cell stops half a line short of the line's centre, plus thresholding.
        let grow = 2.0 + 0.1 * best.iter().map(|&i| sizes[i]).sum::<f64>() / best.len() as f64;
        Some(
            points
                .into_iter()
                .map(|(x, y)| {
                    let (dx, dy) = (x - middle.0, y - middle.1);
                    let length = dx.hypot(dy).max(1e-9);
                    (x + dx / length * grow, y + dy / length * grow)
                })
                .collect(),
        )
    }
}

/// The middle of a piece's box.
fn centre(piece: &Component) -> (f64, f64) {
    (
        (piece.bounds.0 + piece.bounds.2) as f64 / 2.0,
        (piece.bounds.1 + piece.bounds.3) as f64 / 2.0,
    )
}

/// The pixels of a blank piece with its holes filled: each row's span between its outline's
/// ends. A clue box's paper is a ring around its digit: measured so, it is as large as an
/// empty box beside it and groups with it.
fn spanned(piece: &Component) -> usize {
    piece
        .outline
        .chunks(2)
        .map(|ends| (ends[ends.len() - 1].0 - ends[0].0) as usize + 1)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_the_cells_of_a_grid_and_ignores_a_lone_box() {
        let (w, h) = (400, 300);
        let mut ink = vec![false; w * h];
        let mut line = |x0: usize, y0: usize, x1: usize, y1: usize| {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    ink[y * w + x] = true;
                }
            }
        };
        for k in 0..=5 {
            line(20 + k * 30, 20, 21 + k * 30, 170);
            line(20, 20 + k * 30, 171, 21 + k * 30);
        }
        line(250, 50, 390, 51);
        line(250, 200, 390, 201);
        let outline = BlankPieces::of(&ink, w, h, false)
            .largest_group(false)
            .unwrap();
        let xs = outline.iter().map(|p| p.0);
        let (lo, hi) = (xs.clone().fold(f64::MAX, f64::min), xs.fold(0.0, f64::max));
        assert!(
            lo > 15.0 && lo < 23.0 && hi > 168.0 && hi < 176.0,
            "{lo} {hi}"
        );
    }
}
