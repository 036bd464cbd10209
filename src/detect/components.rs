//! Connected components of an ink mask (8-connected, union-find over runs of a row), with
//! each component's pixel count, bounding box and outline points (the leftmost and rightmost
//! pixel of every row it touches). It does not judge shapes; `quad` does.

/// One connected piece of ink.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    pub pixels: usize,
    /// Inclusive bounds: (min x, min y, max x, max y).
    pub bounds: (usize, usize, usize, usize),
    /// The leftmost and rightmost ink pixel of each row, enough for the convex hull.
    pub outline: Vec<(f64, f64)>,
}

/// The components of `ink` (`width` x `height`, row-major) with at least `min_pixels` pixels and
/// a bounding box at least `min_side` wide and high.
pub fn components(
    ink: &[bool],
    width: usize,
    height: usize,
    min_pixels: usize,
    min_side: usize,
) -> Vec<Component> {
    connected(ink, width, height, (min_pixels, min_side), true)
}

/// [`components`] 4-connected: pixels that touch only at a corner are apart. The paper between
/// 8-connected lines of ink: a blurred grid's thin lines threshold with gaps where only corners
/// meet, and 8-connected, the cells on either side of such a crossing would be one piece.
pub fn components_4(
    ink: &[bool],
    width: usize,
    height: usize,
    min_pixels: usize,
    min_side: usize,
) -> Vec<Component> {
    connected(ink, width, height, (min_pixels, min_side), false)
}

/// The components, 8-connected when `diagonal`, else 4-connected.
fn connected(
    ink: &[bool],
    width: usize,
    height: usize,
    (min_pixels, min_side): (usize, usize),
    diagonal: bool,
) -> Vec<Component> {
    if width == 0 || ink.len() != width * height {
        return Vec::new();
    }
    // Runs of ink per row: (row, start, end exclusive), labelled through union-find.
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut row_start = Vec::with_capacity(height + 1);
    for y in 0..height {
        row_start.push(runs.len());
        let row = &ink[y * width..(y + 1) * width];
        let mut x = 0;
        while x < width {
            if row[x] {
                let start = x;
                while x < width && row[x] {
                    x += 1;
                }
                runs.push((y, start, x));
            } else {
                x += 1;
            }
        }
    }
    row_start.push(runs.len());
    let mut parent: Vec<usize> = (0..runs.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for y in 1..height {
        let (above, here) = (
            row_start[y - 1]..row_start[y],
            row_start[y]..row_start[y + 1],
        );
        let mut a = above.start;
        for r in here {
            let (_, start, end) = runs[r];
            // 8-connected, a run above touches if it overlaps [start - 1, end + 1); 4-connected,
            // if it overlaps [start, end).
            let reach = usize::from(diagonal);
            while a < above.end && runs[a].2 + reach <= start {
                a += 1;
            }
            let mut b = a;
            while b < above.end && runs[b].1 < end + reach {
                let (p, q) = (root(&mut parent, b), root(&mut parent, r));
                parent[p.max(q)] = p.min(q);
                b += 1;
            }
        }
    }
    let mut index = vec![usize::MAX; runs.len()];
    let mut found: Vec<Component> = Vec::new();
    for (r, &(y, start, end)) in runs.iter().enumerate() {
        let label = root(&mut parent, r);
        if index[label] == usize::MAX {
            index[label] = found.len();
            found.push(Component {
                pixels: 0,
                bounds: (start, y, end - 1, y),
                outline: Vec::new(),
            });
        }
        let c = &mut found[index[label]];
        c.pixels += end - start;
        c.bounds = (
            c.bounds.0.min(start),
            c.bounds.1.min(y),
            c.bounds.2.max(end - 1),
            c.bounds.3.max(y),
        );
        // Runs come row by row, left to right: keep the row's first start and last end.
        let (left, right) = (start as f64, (end - 1) as f64);
        match c.outline.len() {
            n if n >= 2 && c.outline[n - 1].1 == y as f64 => c.outline[n - 1].0 = right,
            _ => c.outline.extend([(left, y as f64), (right, y as f64)]),
        }
    }
    found.retain(|c| {
        c.pixels >= min_pixels
            && c.bounds.2 - c.bounds.0 + 1 >= min_side
            && c.bounds.3 - c.bounds.1 + 1 >= min_side
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_ring_and_a_diagonal_as_separate_pieces() {
        let (w, h) = (20, 12);
        let mut ink = vec![false; w * h];
        for i in 2..10 {
            for &(x, y) in &[(i, 2), (i, 9), (2, i), (9, i)] {
                ink[y * w + x] = true;
            }
        }
        for i in 0..6 {
            ink[(3 + i) * w + 12 + i] = true; // diagonal: only 8-connected
        }
        let found = components(&ink, w, h, 1, 1);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].bounds, (2, 2, 9, 9));
        assert_eq!(found[0].pixels, 28);
        assert_eq!(found[1].pixels, 6);
        assert_eq!(found[0].outline.len(), 16);
        assert_eq!(components(&ink, w, h, 10, 1).len(), 1);
        // 4-connected, the diagonal is six pieces of one pixel.
        assert_eq!(components_4(&ink, w, h, 1, 1).len(), 7);
    }
}
