//! Grid lines in a rectified ink mask: how many evenly spaced lines cross it one way (counted
//! from the ink, never assumed), and where each line really runs near every crossing, followed
//! locally so a curled page keeps cells on their lines. It only reads lines perpendicular to
//! the x axis; the caller transposes the mask for the other direction.

use std::cell::RefCell;

use super::bend;

/// A rectified ink mask, row-major. `solid` marks ink wiped from `ink` because it lay in a
/// solid patch (see [`Mask::without_solids`]); empty when none was.
pub struct Mask {
    pub ink: Vec<bool>,
    pub solid: Vec<bool>,
    pub width: usize,
    pub height: usize,
}

impl Mask {
    /// A mask of `ink`, `width` x `height`, no pixel marked solid.
    pub fn of_ink(ink: Vec<bool>, width: usize, height: usize) -> Mask {
        Mask {
            ink,
            solid: Vec::new(),
            width,
            height,
        }
    }

    /// The same mask with x and y swapped.
    pub fn transposed(&self) -> Mask {
        Mask {
            ink: transpose(&self.ink, self.width, self.height),
            solid: transpose(&self.solid, self.width, self.height),
            width: self.height,
            height: self.width,
        }
    }

    /// The `width` x `height` part of the mask whose top-left pixel is (`left`, `top`).
    pub fn cropped(&self, left: usize, top: usize, width: usize, height: usize) -> Mask {
        let cut = |values: &[bool]| -> Vec<bool> {
            if values.is_empty() {
                return Vec::new();
            }
            (top..top + height)
                .flat_map(|y| &values[y * self.width + left..y * self.width + left + width])
                .copied()
                .collect()
        };
        Mask {
            ink: cut(&self.ink),
            solid: cut(&self.solid),
            width,
            height,
        }
    }

    /// The same mask, no pixel marked solid (`solid` left empty).
    fn with_nothing_solid(&self) -> Mask {
        Mask::of_ink(self.ink.clone(), self.width, self.height)
    }

    /// The same mask with only the solid patches at least `side` square kept apart near the
    /// sides of the `outline` rectangle (left, top, width, height), up to `rim` pixels inside
    /// it and anywhere outside it: the ink of smaller ones wiped there before (see
    /// [`Mask::without_solids`]) is ink again. Once the cells are counted, a grid's bold
    /// border, thicker than the square first wiped when the grid is small, is a line to
    /// follow, while a black cell still fills a square of a third of a cell; further inside,
    /// blurred bold digits stay wiped as before, so no inner line is led onto them.
    pub fn with_larger_solids_by_border(
        &self,
        side: usize,
        outline: (usize, usize, usize, usize),
        rim: usize,
    ) -> Mask {
        if self.solid.len() != self.ink.len() {
            return self.with_nothing_solid();
        }
        let ink_and_solid = self
            .ink
            .iter()
            .zip(&self.solid)
            .map(|(&i, &s)| i | s)
            .collect();
        let larger = Mask::of_ink(ink_and_solid, self.width, self.height).without_solids(side);
        let (left, top, width, height) = outline;
        let deep_inside = |x: usize, y: usize| {
            x >= left + rim && x + rim < left + width && y >= top + rim && y + rim < top + height
        };
        let pick = |first: &[bool], second: &[bool], at: usize| {
            if deep_inside(at % self.width, at / self.width) {
                first.get(at).copied().unwrap_or(false)
            } else {
                second.get(at).copied().unwrap_or(false)
            }
        };
        let ink = (0..self.ink.len())
            .map(|at| pick(&self.ink, &larger.ink, at))
            .collect();
        let solid: Vec<bool> = (0..self.ink.len())
            .map(|at| pick(&self.solid, &larger.solid, at))
            .collect();
        Mask {
            ink,
            solid: if solid.iter().any(|&s| s) {
                solid
            } else {
                Vec::new()
            },
            width: self.width,
            height: self.height,
        }
    }

    /// The same mask with solid patches of ink moved from `ink` to `solid`: every pixel covered
    /// by a fully inked `side` x `side` square. A nonogram's black given cells are such patches;
    /// left in, they look like ink half-way between grid lines and hide the spacing. Grid lines,
    /// even thick ones, are thinner than `side` and stay. With no such patch `solid` is empty.
    pub fn without_solids(&self, side: usize) -> Mask {
        let (w, h) = (self.width, self.height);
        if side == 0 || side > w.min(h) {
            return self.with_nothing_solid();
        }
        // Most grids have no solid patch at all: then the mask stays as it is, found in one
        // pass without the summed-area tables below.
        let Some(corner) = full_square_corners(&self.ink, w, h, side) else {
            return self.with_nothing_solid();
        };
        let full = |values: &[bool]| -> Vec<u32> {
            // Summed-area table with a zero row and column in front.
            let mut table = vec![0u32; (w + 1) * (h + 1)];
            for y in 0..h {
                let mut row = 0;
                for x in 0..w {
                    row += u32::from(values[y * w + x]);
                    table[(y + 1) * (w + 1) + x + 1] = table[y * (w + 1) + x + 1] + row;
                }
            }
            table
        };
        // Sum over the pixels x0..x1, y0..y1 (ends exclusive).
        let sum = |table: &[u32], x0: usize, y0: usize, x1: usize, y1: usize| {
            table[y1 * (w + 1) + x1] + table[y0 * (w + 1) + x0]
                - table[y0 * (w + 1) + x1]
                - table[y1 * (w + 1) + x0]
        };
        // A pixel is solid when a full square covers it, that is when some full square's
        // bottom-right corner lies within side - 1 pixels right of and below it.
        let corner_table = full(&corner);
        let solid: Vec<bool> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .map(|(x, y)| {
                let (x1, y1) = ((x + side).min(w), (y + side).min(h));
                self.ink[y * w + x] && sum(&corner_table, x, y, x1, y1) > 0
            })
            .collect();
        Mask {
            ink: self
                .ink
                .iter()
                .zip(&solid)
                .map(|(&i, &s)| i && !s)
                .collect(),
            solid,
            width: w,
            height: h,
        }
    }
}

/// `values`, `width` x `height` row-major, with x and y swapped (empty stays empty). Whole
/// 8 x 8 blocks are turned as eight words of eight bytes (three rounds of swapping halves,
/// quarters and single bytes between word pairs); the ragged right and bottom edges one by one.
fn transpose(values: &[bool], width: usize, height: usize) -> Vec<bool> {
    if values.is_empty() {
        return Vec::new();
    }
    let mut turned = vec![false; values.len()];
    let (whole_x, whole_y) = (width / 8 * 8, height / 8 * 8);
    for y0 in (0..whole_y).step_by(8) {
        for x0 in (0..whole_x).step_by(8) {
            let mut rows: [u64; 8] = std::array::from_fn(|k| {
                let row = &values[(y0 + k) * width + x0..][..8];
                u64::from_le_bytes(std::array::from_fn(|i| u8::from(row[i])))
            });
            for (half, mask) in [
                (32, 0x0000_0000_FFFF_FFFF_u64),
                (16, 0x0000_FFFF_0000_FFFF),
                (8, 0x00FF_00FF_00FF_00FF),
            ] {
                let pair = half / 8;
                for k in (0..8).filter(|k| k & pair == 0) {
                    let swapped = ((rows[k] >> half) ^ rows[k + pair]) & mask;
                    rows[k] ^= swapped << half;
                    rows[k + pair] ^= swapped;
                }
            }
            for (k, row) in rows.iter().enumerate() {
                let out = &mut turned[(x0 + k) * height + y0..][..8];
                for (o, byte) in out.iter_mut().zip(row.to_le_bytes()) {
                    *o = byte != 0;
                }
            }
        }
    }
    for y in 0..height {
        let xs = if y < whole_y {
            whole_x..width
        } else {
            0..width
        };
        for x in xs {
            turned[x * height + y] = values[y * width + x];
        }
    }
    turned
}

/// For each pixel of a `w` x `h` mask, whether the `side` x `side` square with that pixel at
/// its bottom-right is all ink; `None` when no square is. A square is all ink when each of its
/// `side` rows ends in a run of at least `side` ink pixels: runs along each row, then how many
/// rows in a row have had such a run at each column.
fn full_square_corners(ink: &[bool], w: usize, h: usize, side: usize) -> Option<Vec<bool>> {
    let mut corner: Option<Vec<bool>> = None;
    let mut rows_with_run = vec![0usize; w];
    // Eight pixels at a time: most of a mask is paper, and a stretch without ink ends every
    // run in it at once.
    const STRETCH: usize = 8;
    for (y, line) in ink.chunks_exact(w).take(h).enumerate() {
        let mut run = 0;
        for (k, (pixels, rows)) in line
            .chunks(STRETCH)
            .zip(rows_with_run.chunks_mut(STRETCH))
            .enumerate()
        {
            if !pixels.iter().any(|&inked| inked) {
                run = 0;
                rows.fill(0);
                continue;
            }
            for (i, (&inked, rows)) in pixels.iter().zip(rows.iter_mut()).enumerate() {
                run = if inked { run + 1 } else { 0 };
                *rows = if run >= side { *rows + 1 } else { 0 };
                if *rows >= side {
                    let x = k * STRETCH + i;
                    corner.get_or_insert_with(|| vec![false; w * h])[y * w + x] = true;
                }
            }
        }
    }
    corner
}

/// Lengthwise pieces a line is cut into when scoring it: each piece may sit a little off the
/// straight line, which tolerates page curl and a slightly wrong outer quadrilateral.
const SEGMENTS: usize = 12;

/// The least mean ink fraction along its length of every line inside the border of a fit.
const LEAST_LINE: f32 = 0.45;

/// Segments left out when looking for a bent line inside the cells: half of them, as digits'
/// strokes fill a short segment's height too, but not most of one column's segments.
const BENT_SPARED: usize = SEGMENTS / 2;

/// How much more ink (mean ink fraction along its length) a line followed from one end must
/// find than the line followed from both ends inward to be taken instead.
const ONE_END_BETTER: f32 = 0.05;

/// How well `n` evenly spaced lines fit one way across a mask: ink where the lines should be
/// and paper half-way between them.
struct Fit {
    /// The least inked line inside the border (its mean ink fraction along its length).
    weakest: f32,
    line_mean: f32,
    mid_mean: f32,
    /// The half-way points' ink fractions, most inked first.
    mids: Vec<f32>,
    /// Each cell's most inked column clear of its two lines (ink fraction along the whole
    /// length), most inked first: a line standing inside the cells, as when a fine grid in a
    /// much larger outline aliases to a few wide cells.
    interiors: Vec<f32>,
}

impl Fit {
    /// Every inner line inked and the half-way points clear, all but the `forgiven` most inked
    /// of them.
    fn holds(&self, forgiven: usize) -> bool {
        let mid_most = self.mids.get(forgiven).copied().unwrap_or(0.0);
        self.weakest >= LEAST_LINE
            && self.mid_mean <= 0.5 * self.line_mean
            && mid_most <= self.hidden_line()
    }

    /// No line stands inside the cells, but in the `forgiven` most inked ones.
    fn cells_clear(&self, forgiven: usize) -> bool {
        self.interiors.get(forgiven).copied().unwrap_or(0.0) <= self.hidden_line()
    }

    /// The ink fraction above which a column between the lines counts as one more line.
    fn hidden_line(&self) -> f32 {
        0.85 * self.weakest.max(self.line_mean * 0.8)
    }
}

/// The number of cells across the mask, `n` >= 3, such that lines stand at all `n + 1` evenly
/// spaced positions and not half-way between them; the largest such `n` (a Sudoku's box lines
/// alone would also pass as 3). Then a multiple of it whose lines all stand, when only one
/// half-way point holds ink (a crease or a stray pen line along a column of cells, which hides
/// the finer grid and leaves only its thick box lines). `None` when no spacing fits. Solid
/// patches count as ink where lines should be (a line runs under a black cell's edge) and as
/// paper half-way between.
pub fn count_cells(mask: &Mask, from_one_end: bool) -> Option<usize> {
    let (w, h) = (mask.width, mask.height);
    if w < 12 || h < SEGMENTS {
        return None;
    }
    // Ink fraction of every column within each lengthwise segment, with and without solids
    // (the same when nothing is solid).
    let fractions = |with_solid: bool| {
        let mut columns = vec![vec![0f32; w]; SEGMENTS];
        let mut counts = vec![0u32; w];
        for (s, column) in columns.iter_mut().enumerate() {
            let (y0, y1) = (s * h / SEGMENTS, (s + 1) * h / SEGMENTS);
            counts.fill(0);
            for y in y0..y1 {
                let ink = &mask.ink[y * w..][..w];
                if with_solid {
                    let solid = &mask.solid[y * w..][..w];
                    for ((c, &i), &s) in counts.iter_mut().zip(ink).zip(solid) {
                        *c += u32::from(i | s);
                    }
                } else {
                    for (c, &i) in counts.iter_mut().zip(ink) {
                        *c += u32::from(i);
                    }
                }
            }
            let rows = (y1 - y0).max(1) as f32;
            for (c, &count) in column.iter_mut().zip(&counts) {
                *c = count as f32 / rows;
            }
        }
        columns
    };
    count_in_profiles(&segment_profiles(mask, fractions), from_one_end)
}

/// [`count_cells`] of the mask turned a quarter: the number of cells down it, between lines
/// perpendicular to y. It reads the rows where they lie instead of transposing the mask.
pub fn count_rows(mask: &Mask, from_one_end: bool) -> Option<usize> {
    let (w, h) = (mask.width, mask.height);
    if h < 12 || w < SEGMENTS {
        return None;
    }
    // Ink fraction of every row within each segment of columns: the transposed mask's column
    // fractions, summed along the rows as they lie in memory.
    let fractions = |with_solid: bool| {
        let mut rows = vec![vec![0f32; h]; SEGMENTS];
        for (s, row) in rows.iter_mut().enumerate() {
            let (x0, x1) = (s * w / SEGMENTS, (s + 1) * w / SEGMENTS);
            let columns = (x1 - x0).max(1) as f32;
            for (y, fraction) in row.iter_mut().enumerate() {
                let ink = &mask.ink[y * w..][x0..x1];
                let count: u32 = if with_solid {
                    let solid = &mask.solid[y * w..][x0..x1];
                    ink.iter().zip(solid).map(|(&i, &s)| u32::from(i | s)).sum()
                } else {
                    ink.iter().map(|&i| u32::from(i)).sum()
                };
                *fraction = count as f32 / columns;
            }
        }
        rows
    };
    count_in_profiles(&segment_profiles(mask, fractions), from_one_end)
}

/// Ink fractions across a mask, `[segment][position]`, without and with its solid patches.
struct Profiles {
    without_solids: Vec<Vec<f32>>,
    with_solids: Vec<Vec<f32>>,
}

/// The [`Profiles`] of `mask` as `fractions(with_solid)` measures them one way.
fn segment_profiles(mask: &Mask, fractions: impl Fn(bool) -> Vec<Vec<f32>>) -> Profiles {
    let without_solids = fractions(false);
    let with_solids = if mask.solid.len() == mask.ink.len() {
        fractions(true)
    } else {
        without_solids.clone()
    };
    Profiles {
        without_solids,
        with_solids,
    }
}

/// The count of [`count_cells`] from the ink fractions across the mask, each line followed from
/// both ends inward, and with `from_one_end` also from either end all the way to the other,
/// whichever finds clearly the most ink.
fn count_in_profiles(profiles: &Profiles, from_one_end: bool) -> Option<usize> {
    let Profiles {
        without_solids,
        with_solids,
    } = profiles;
    let w = without_solids[0].len();
    // The strongest column near `centre` in one segment: where the line really runs there.
    let snap = |column: &[f32], centre: f64, reach: usize| -> usize {
        let c = (centre.round().max(0.0) as usize).min(w - 1);
        let (lo, hi) = (c.saturating_sub(reach), (c + reach).min(w - 1));
        (lo..=hi)
            .max_by(|&a, &b| {
                column[a]
                    .total_cmp(&column[b])
                    .then(b.abs_diff(c).cmp(&a.abs_diff(c)))
            })
            .unwrap_or(c)
    };
    // Each column's ink fraction along the whole length, for the cells' interiors.
    let column_means: Vec<f32> = (0..w)
        .map(|x| (0..SEGMENTS).map(|s| without_solids[s][x]).sum::<f32>() / SEGMENTS as f32)
        .collect();
    // The fit of `n` cells, `None` when a line inside falls short of [`LEAST_LINE`] (no fit
    // holds then, and the rest is not worth measuring).
    let fit = |n: usize| {
        let cell = w as f64 / n as f64;
        let reach = (cell * 0.2).round().max(1.0) as usize;
        // Half-way between lines, look narrower: a blurred line spreads towards the middle.
        let mid_reach = (cell * 0.1).round() as usize;
        // Each line snapped to its strongest column within reach, segment by segment, so a
        // line bent by curl or a slightly wrong outline is scored where it is, and the
        // half-way points are measured between the lines as found. The outline's corners hold
        // the lines' ends near their straight places, and curl bends them most in the middle:
        // so each end segment snaps around the straight place and each next one inward around
        // where its neighbour found the line, never further than `bend` from straight. A page
        // curled toward one end only (a magazine's inner margin) moves that end's lines off
        // their straight places instead, by up to half a cell, where the end segment's snap
        // misses them: `from_one_end` then also follows each line from either end all along.
        // Each line is found on its own, `[segment]` for line `k`.
        let bend = cell * 0.4;
        let half = SEGMENTS / 2;
        // Line `k` followed segment by segment in `order`, each segment snapped around where
        // `before(s)` found it (the straight place for the first).
        let track = |k: usize,
                     order: &mut dyn Iterator<Item = usize>,
                     before: &dyn Fn(usize) -> Option<usize>| {
            let straight = k as f64 * cell - 0.5;
            let mut found = [0usize; SEGMENTS];
            for s in order {
                let guess = before(s).map_or(straight, |o| {
                    (found[o] as f64).clamp(straight - bend, straight + bend)
                });
                found[s] = snap(&with_solids[s], guess, reach);
            }
            found
        };
        let inked = |found: &[usize; SEGMENTS]| {
            (0..SEGMENTS).map(|s| with_solids[s][found[s]]).sum::<f32>()
        };
        let line_at = |k: usize| {
            // From each end inward, each segment around its neighbour toward the nearer end.
            let from_ends = track(k, &mut (0..half).chain((half..SEGMENTS).rev()), &|s| {
                if s < half {
                    s.checked_sub(1)
                } else {
                    Some(s + 1).filter(|&o| o < SEGMENTS)
                }
            });
            if !from_one_end {
                return from_ends;
            }
            // From either end all the way to the other.
            let from_first = track(k, &mut (0..SEGMENTS), &|s| s.checked_sub(1));
            let from_last = track(k, &mut (0..SEGMENTS).rev(), &|s| {
                Some(s + 1).filter(|&o| o < SEGMENTS)
            });
            let most = inked(&from_ends) + ONE_END_BETTER * SEGMENTS as f32;
            [from_first, from_last]
                .into_iter()
                .filter(|found| inked(found) > most)
                .max_by(|a, b| inked(a).total_cmp(&inked(b)))
                .unwrap_or(from_ends)
        };
        let mean_over_segments =
            |value: &dyn Fn(usize) -> f32| (0..SEGMENTS).map(value).sum::<f32>() / SEGMENTS as f32;
        // The inner lines first, one at a time: the first one short of ink settles it.
        let mut found = vec![[0usize; SEGMENTS]; n + 1];
        let mut lines = Vec::with_capacity(n - 1);
        for k in 1..n {
            found[k] = line_at(k);
            let line = mean_over_segments(&|s| with_solids[s][found[k][s]]);
            if line < LEAST_LINE {
                return None;
            }
            lines.push(line);
        }
        found[0] = line_at(0);
        found[n] = line_at(n);
        let weakest = lines.iter().copied().fold(f32::MAX, f32::min);
        let mut mids: Vec<f32> = (0..n)
            .map(|k| {
                mean_over_segments(&|s| {
                    let centre = (found[k][s] + found[k + 1][s]) / 2;
                    let (lo, hi) = (
                        centre.saturating_sub(mid_reach),
                        (centre + mid_reach).min(w - 1),
                    );
                    without_solids[s][lo..=hi]
                        .iter()
                        .copied()
                        .fold(0.0, f32::max)
                })
            })
            .collect();
        let mid_mean = mids.iter().sum::<f32>() / mids.len() as f32;
        mids.sort_by(|a, b| b.total_cmp(a));
        let mut interiors: Vec<f32> = (0..n)
            .map(|k| {
                // Clear of where the lines were found, on average along their length.
                let place = |k: usize| mean_over_segments(&|s| found[k][s] as f32) as usize;
                let (lo, hi) = (place(k) + reach + 1, place(k + 1).saturating_sub(reach));
                let straight = column_means
                    .get(lo..hi.min(w))
                    .unwrap_or_default()
                    .iter()
                    .copied()
                    .fold(0.0, f32::max);
                // A line bent by curl leaves any one column now and then, and its mean along
                // the column is low: so also each segment's most inked column between the lines
                // as found there, in all segments but the `BENT_SPARED` least inked.
                let mut bent: Vec<f32> = (0..SEGMENTS)
                    .map(|s| {
                        let (lo, hi) = (
                            found[k][s] + reach + 1,
                            found[k + 1][s].saturating_sub(reach),
                        );
                        without_solids[s]
                            .get(lo..hi.min(w))
                            .unwrap_or_default()
                            .iter()
                            .copied()
                            .fold(0.0, f32::max)
                    })
                    .collect();
                bent.sort_by(f32::total_cmp);
                straight.max(bent[BENT_SPARED])
            })
            .collect();
        interiors.sort_by(|a, b| b.total_cmp(a));
        Some(Fit {
            weakest,
            line_mean: lines.iter().sum::<f32>() / lines.len() as f32,
            mid_mean,
            mids,
            interiors,
        })
    };
    let most = (w / 6).min(60);
    // Each count's fit is measured once, however many of the questions below ask about it.
    let fits: RefCell<Vec<Option<Option<Fit>>>> = RefCell::new((0..=most).map(|_| None).collect());
    let judge = |n: usize, test: &dyn Fn(&Fit) -> bool| {
        fits.borrow_mut()[n]
            .get_or_insert_with(|| fit(n))
            .as_ref()
            .is_some_and(test)
    };
    let holds = |n: usize, forgiven: usize| judge(n, &|fit| fit.holds(forgiven));
    let cells_clear = |n: usize| judge(n, &|fit| fit.cells_clear(1));
    (3..=most)
        .rev()
        .filter(|&n| holds(n, 0))
        .find_map(|coarse| {
            // Each line of a finer grid is inked, so any stray ink half-way hides it only when it
            // falls in one place; and a coarse grid's multiple fails on its own half-way points,
            // which are blank cells' middles where the finer lines would be.
            let finer = (2..=most / coarse)
                .rev()
                .map(|k| k * coarse)
                .find(|&n| holds(n, 1));
            // Still lines inside the cells (other than one stray): the count is a fine grid's lines
            // aliased to a few of them, not the grid.
            Some(finer.unwrap_or(coarse)).filter(|&n| cells_clear(n))
        })
        // A stray line down the middle of a column of cells (a page's column rule across the
        // grid) is half-way for the grid and for its Sudoku boxes alike: then the largest count
        // that holds with that one half-way point forgiven and only that cell crossed.
        // A page's column rules can cross a grid more than once: then two such half-way points.
        .or_else(|| {
            (1..=2).find_map(|forgiven| {
                (3..=most)
                    .rev()
                    .find(|&n| judge(n, &|fit| fit.holds(forgiven) && fit.cells_clear(forgiven)))
            })
        })
}

/// How far (in cells) a followed place may stray from the lines' fitted bend, or from the
/// line's offset off it carried on from the crossing before, before it is looked for again
/// near it (see [`walk`]).
const OFF_BEND: f64 = 0.15;

/// Where each line perpendicular to x runs, sampled at the `crossings` positions along it (the
/// other direction's line positions, in pixels), each line starting from `ends[line]` (its x at
/// the first crossing and at the last: the same for a straight line, apart for lines tracked
/// one by one on a page curled toward one side, see `uneven`): the line's x position in pixels
/// at each crossing, `[line][crossing]`, walked and held (see [`Followed`]). Each line is
/// followed from either end inward, each estimate starting from its neighbour's, and the
/// result lightly smoothed; then the places
/// are settled against the bend all the lines share (see `bend`, fitted off the straight run
/// between each line's ends): walked outward from each line's middle, following its offset
/// off the bend where the print curls away from it at a corner (see [`walk`]), and each place
/// whose offset strays from its neighbouring lines' is looked for again close to theirs, or
/// put there; held, each place that left the bend is looked for again close to it, or put on
/// it. Last, a line carried from the crossing where the print lies flattest out to its ends
/// (see [`carry`]) replaces the walked one where more of it runs on ink. The lines' straight
/// places are taken half-way between their ends.
pub fn follow(mask: &Mask, ends: &[(f64, f64)], crossings: &[f64]) -> Followed {
    let lines: Vec<f64> = ends
        .iter()
        .map(|&(first, last)| 0.5 * (first + last))
        .collect();
    let lines = &lines[..];
    let h = mask.height;
    let cell = if lines.len() > 1 {
        (lines[lines.len() - 1] - lines[0]) / (lines.len() - 1) as f64
    } else {
        mask.width as f64
    };
    let gap = if crossings.len() > 1 {
        (crossings[crossings.len() - 1] - crossings[0]) / (crossings.len() - 1) as f64
    } else {
        h as f64
    };
    let reach = (cell * 0.3).max(2.0);
    let followed: Vec<Vec<f64>> = ends
        .iter()
        .map(|&(first, last)| {
            // From each end inward: the outline's corners hold the ends near straight, and curl
            // bends a line most in its middle. Each guess carries on half the bend of the step
            // before, so a strongly bowed line is not lost half-way.
            let mut found = vec![first; crossings.len()];
            let middle = crossings.len() / 2;
            let halves: [Vec<usize>; 2] = [
                (0..=middle).collect(),
                (middle + 1..crossings.len()).rev().collect(),
            ];
            for half in halves {
                for (step, &i) in half.iter().enumerate() {
                    let guess = match step {
                        0 if i == 0 => first,
                        0 => last,
                        1 => found[half[0]],
                        _ => {
                            let (before, last) = (found[half[step - 2]], found[half[step - 1]]);
                            last + 0.5 * (last - before)
                        }
                    };
                    found[i] = locate(mask, guess, reach, crossings[i], gap).unwrap_or(guess);
                }
            }
            smooth(&found)
        })
        .collect();
    // A line starting at two places runs straight between them: the bend is fitted to its
    // places off that, and put back on it.
    let detour = |k: usize, i: usize| {
        let (first, last) = ends[k];
        let t = i as f64 / (crossings.len() - 1).max(1) as f64;
        first + (last - first) * t - lines[k]
    };
    let off_ends: Vec<Vec<f64>> = followed
        .iter()
        .enumerate()
        .map(|(k, line)| {
            line.iter()
                .enumerate()
                .map(|(i, &place)| place - detour(k, i))
                .collect()
        })
        .collect();
    let Some(fitted) = bend::fit(lines, crossings, &off_ends) else {
        return Followed {
            walked: followed.clone(),
            held: followed,
        };
    };
    let bent: Vec<Vec<f64>> = fitted
        .iter()
        .enumerate()
        .map(|(k, bent)| {
            bent.iter()
                .enumerate()
                .map(|(i, &bent)| bent + detour(k, i))
                .collect()
        })
        .collect();
    let near = search_reach(cell);
    let held: Vec<Vec<f64>> = followed
        .iter()
        .zip(&bent)
        .map(|(line, bent)| {
            (0..line.len())
                .map(|i| {
                    if (line[i] - bent[i]).abs() <= OFF_BEND * cell {
                        line[i]
                    } else {
                        locate(mask, bent[i], near, crossings[i], gap).unwrap_or(bent[i])
                    }
                })
                .collect()
        })
        .collect();
    let walked: Vec<Vec<f64>> = (0..followed.len())
        .map(|k| {
            walk(
                mask,
                (&followed[k], &held[k]),
                &bent[k],
                crossings,
                (cell, gap),
            )
        })
        .collect();
    // A curl moves neighbouring lines off the bend alike, while a line led astray (walked onto
    // a digit beside it) leaves its neighbours: a walked place whose offset strays from the
    // median offset of the lines around it is looked for close to that offset, or put on it.
    let offset = |k: usize, i: usize| walked[k][i] - bent[k][i];
    let walked: Vec<Vec<f64>> = (0..walked.len())
        .map(|k| {
            let settled: Vec<f64> = (0..crossings.len())
                .map(|i| {
                    let mut around: Vec<f64> = (k.saturating_sub(NEIGHBOURS)
                        ..(k + NEIGHBOURS + 1).min(walked.len()))
                        .map(|j| offset(j, i))
                        .collect();
                    around.sort_by(f64::total_cmp);
                    let shared = bent[k][i] + around[around.len() / 2];
                    if (walked[k][i] - shared).abs() <= SHARED_OFFSET * cell {
                        walked[k][i]
                    } else {
                        locate(mask, shared, near, crossings[i], gap).unwrap_or(shared)
                    }
                })
                .collect();
            // Walked lines may yet wander off the print where the warp shears the grid (lines
            // led onto their neighbours' ink step by step): a line walked so that less of it
            // runs on ink than held to the bend is held.
            if inked_along(mask, &settled, crossings) >= inked_along(mask, &held[k], crossings) {
                settled
            } else {
                held[k].clone()
            }
        })
        .collect();
    // A corner curled more than a cell starts its lines' ends a row off, and each half
    // followed from such an end runs along its neighbour's print: carried instead from the
    // flat part of the print outward, a line keeps its own.
    let walked: Vec<Vec<f64>> = {
        let anchor = anchor_crossing(mask, &held, crossings, cell, gap);
        walked
            .into_iter()
            .enumerate()
            .map(|(k, walked)| {
                let carried = carry(mask, &held[k], anchor, crossings, (cell, gap));
                if inked_along(mask, &carried, crossings)
                    > inked_along(mask, &walked, crossings) + CARRIED_BETTER
                {
                    carried
                } else {
                    walked
                }
            })
            .collect()
    };
    Followed { walked, held }
}

/// Where the lines perpendicular to x run, `[line][crossing]` (see [`follow`]), two ways.
pub struct Followed {
    /// Walked through a curled corner (see [`walk`]): where a lattice's cells are cut.
    pub walked: Vec<Vec<f64>>,
    /// Held to the bend all the lines share: what a lattice is judged by (how much of it runs
    /// on ink, which rows and columns are printed). Walked one by one, the lines of a lattice
    /// one row too many also find the print's lines beside them, all but the few that lie
    /// between two printed lines: a 16-row grid's 17-row lattice ran 89% on ink held and 91%
    /// walked, and was taken as sure. The walk moves the cells; it never chooses the lattice.
    pub held: Vec<Vec<f64>>,
}

/// How far (in pixels) a line is looked for around where it is expected, for `cell`-pixel
/// cells (see [`locate`]).
fn search_reach(cell: f64) -> f64 {
    (cell * 0.12).max(1.5)
}

/// How far (in cells) a place walked off the bend may stray from the median offset of the
/// lines around it (see [`follow`]).
const SHARED_OFFSET: f64 = 0.15;
/// The farthest (in cells) a place is walked off the bend (see [`walk`]): a magazine page's
/// bottom corner curls a full cell off the bend of the rest of the grid.
const MOST_WALKED: f64 = 1.0;
/// How many lines either side of a line its walked places are compared with.
const NEIGHBOURS: usize = 2;

/// One line's places (`line`, as followed) settled against its fitted bend (`bent`, at each
/// crossing): from the line's middle crossing outward, each place taken where it continues the
/// line's offset off the bend at the crossing before, else looked for close to that
/// continuation; failing that, and at the middle, its place `held` to the bend (kept when on
/// the bend, else looked for close to it or put on it). A page curled at one corner moves the
/// lines there off any smooth bend of the whole grid by up to a cell: followed from the
/// edge inward, a line there is lost or found on the wrong side, and held to the bend it cuts
/// the boxes up to a box off the print; walked
/// outward from the grid's inside, its offset grows a little at each crossing and is followed.
fn walk(
    mask: &Mask,
    (line, held): (&[f64], &[f64]),
    bent: &[f64],
    crossings: &[f64],
    (cell, gap): (f64, f64),
) -> Vec<f64> {
    let near = search_reach(cell);
    let mut walked = held.to_vec();
    let middle = line.len() / 2;
    let outward = [
        (0..middle).rev().collect::<Vec<usize>>(),
        (middle + 1..line.len()).collect(),
    ];
    for crossings_out in &outward {
        let mut before = middle;
        for &i in crossings_out {
            let continued = bent[i] + (walked[before] - bent[before]);
            let place = if (line[i] - continued).abs() <= OFF_BEND * cell {
                Some(line[i])
            } else {
                locate(mask, continued, near, crossings[i], gap)
            };
            walked[i] = match place {
                // A line walked more than a cell off the bend is no curled corner: the outline is
                // sheared off the grid, and the line has run onto its neighbour's print. Taken
                // back to the bend and walked on, it would zig-zag between the two; the rest of
                // it is held.
                Some(place) if (place - bent[i]).abs() > MOST_WALKED * cell => break,
                Some(place) => place,
                None => held[i],
            };
            before = i;
        }
    }
    walked
}

/// How much more of its length a line carried from the anchor crossing (see [`carry`]) must
/// run on ink than walked to replace it: a place or two on ink where the walked line left it.
const CARRIED_BETTER: f32 = 0.01;

/// The crossing at which most lines' places held to the bend lie on the print (a line found
/// within the search reach), of those the nearest the middle: where the print lies flat.
fn anchor_crossing(
    mask: &Mask,
    held: &[Vec<f64>],
    crossings: &[f64],
    cell: f64,
    gap: f64,
) -> usize {
    let near = search_reach(cell);
    let middle = crossings.len() / 2;
    (0..crossings.len())
        .max_by_key(|&i| {
            let on = held
                .iter()
                .filter(|line| {
                    locate(mask, line[i], near, crossings[i], gap)
                        .is_some_and(|p| (p - line[i]).abs() <= near)
                })
                .count();
            (on, std::cmp::Reverse(i.abs_diff(middle)))
        })
        .unwrap_or(middle)
}

/// One line's places carried from its `held` place at the `anchor` crossing out to either end,
/// crossing by crossing: each looked for near the place before moved on by half the step
/// before (a curl steepens toward the corner), else put there. Unlike [`walk`] it has no
/// bend to go back to and no cap: it is taken only where more of it runs on ink.
fn carry(
    mask: &Mask,
    held: &[f64],
    anchor: usize,
    crossings: &[f64],
    (cell, gap): (f64, f64),
) -> Vec<f64> {
    let near = search_reach(cell);
    let mut carried = held.to_vec();
    let outward = [
        (0..anchor).rev().collect::<Vec<usize>>(),
        (anchor + 1..held.len()).collect(),
    ];
    for crossings_out in &outward {
        let (mut before, mut growth) = (anchor, 0.0);
        for &i in crossings_out {
            let guess = carried[before] + 0.5 * growth;
            carried[i] = locate(mask, guess, near, crossings[i], gap).unwrap_or(guess);
            growth = carried[i] - carried[before];
            before = i;
        }
    }
    carried
}

/// The fraction of a followed line's length that is inked within a pixel of it: the line at
/// x = `along[i]` where it crosses y = `crossings[i]`, straight between crossings.
pub fn inked_along(mask: &Mask, along: &[f64], crossings: &[f64]) -> f32 {
    let (mut inked, mut total) = (0usize, 0usize);
    for (x, y) in along.windows(2).zip(crossings.windows(2)) {
        let (y0, y1) = (y[0].min(y[1]), y[0].max(y[1]));
        let mut row = y0.ceil().max(0.0) as usize;
        while (row as f64) <= y1 && row < mask.height {
            let t = if y1 > y0 {
                (row as f64 - y[0]) / (y[1] - y[0])
            } else {
                0.0
            };
            let centre = x[0] + (x[1] - x[0]) * t;
            let near =
                (centre - 1.5).round().max(0.0) as usize..=(centre + 0.5).round().max(0.0) as usize;
            total += 1;
            if near
                .into_iter()
                .any(|c| c < mask.width && mask.ink[row * mask.width + c])
            {
                inked += 1;
            }
            row += 1;
        }
    }
    inked as f32 / total.max(1) as f32
}

/// The x position of the ink line near `guess` (within `reach`) in the band of half a cell
/// (`gap`) above and below `y`, leaving out the crossing line itself; `None` when too little
/// of the band is inked there.
fn locate(mask: &Mask, guess: f64, reach: f64, y: f64, gap: f64) -> Option<f64> {
    let (w, h) = (mask.width as isize, mask.height as isize);
    let lo = ((guess - reach).floor() as isize).max(0);
    let hi = ((guess + reach).ceil() as isize).min(w - 1);
    let skip = (gap * 0.2).max(2.0);
    let rows: Vec<usize> = (((y - gap / 2.0).floor() as isize).max(0)
        ..((y + gap / 2.0).ceil() as isize).min(h))
        .filter(|&r| (r as f64 + 0.5 - y).abs() > skip)
        .map(|r| r as usize)
        .collect();
    if hi <= lo || rows.len() < 3 {
        return None;
    }
    let counts: Vec<f64> = (lo..=hi)
        .map(|x| {
            rows.iter()
                .filter(|&&r| mask.ink[r * mask.width + x as usize])
                .count() as f64
        })
        .collect();
    let most = (0..counts.len()).max_by(|&a, &b| counts[a].total_cmp(&counts[b]))?;
    if counts[most] < 0.3 * rows.len() as f64 {
        return None;
    }
    // Of the columns inked nearly as much as the most, the nearest the guess: a line and a
    // page rule or the shadow beyond the grid beside it both fill the band.
    let nearest = guess - lo as f64 - 0.5;
    let peak = (0..counts.len())
        .filter(|&i| counts[i] >= 0.8 * counts[most])
        .min_by(|&a, &b| {
            (a as f64 - nearest)
                .abs()
                .total_cmp(&(b as f64 - nearest).abs())
        })
        .unwrap_or(most);
    // The centre of the run of strong columns around the peak: a thick line's middle.
    let strong = |i: usize| counts[i] >= 0.5 * counts[peak];
    let (mut a, mut b) = (peak, peak);
    while a > 0 && strong(a - 1) {
        a -= 1;
    }
    while b + 1 < counts.len() && strong(b + 1) {
        b += 1;
    }
    let total: f64 = counts[a..=b].iter().sum();
    let centre: f64 = (a..=b).map(|i| i as f64 * counts[i]).sum::<f64>() / total;
    Some(lo as f64 + centre + 0.5)
}

/// Median of each value with its two neighbours, ends kept: one bad estimate cannot bend a line.
fn smooth(values: &[f64]) -> Vec<f64> {
    (0..values.len())
        .map(|i| {
            if i == 0 || i + 1 == values.len() {
                return values[i];
            }
            let mut three = [values[i - 1], values[i], values[i + 1]];
            three.sort_by(f64::total_cmp);
            three[1]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid_mask(size: usize, n: usize, bend: f64) -> Mask {
        let mut ink = vec![false; size * size];
        let cell = size as f64 / n as f64;
        for y in 0..size {
            for k in 0..=n {
                let shift = bend * (y as f64 / size as f64 * 3.0).sin();
                let x = ((k as f64 * cell + shift).round() as usize).min(size - 1);
                ink[y * size + x] = true;
                ink[x * size + y] = true;
            }
        }
        Mask::of_ink(ink, size, size)
    }

    #[test]
    fn solid_patches_go_and_lines_stay() {
        let mut mask = grid_mask(300, 10, 0.0);
        for y in 60..90 {
            for x in 120..150 {
                mask.ink[y * 300 + x] = true;
            }
        }
        let cleaned = mask.without_solids(6);
        assert!(!cleaned.ink[75 * 300 + 135]);
        assert!(!cleaned.ink[61 * 300 + 121]);
        assert!(cleaned.ink[200 * 300 + 30] && cleaned.ink[30 * 300 + 200]);
        // Nothing outside the patch and the lines touching it is wiped.
        for (i, (&before, &after)) in mask.ink.iter().zip(&cleaned.ink).enumerate() {
            let (x, y) = (i % 300, i / 300);
            let near_patch = (119..=151).contains(&x) && (59..=91).contains(&y);
            assert!(before == after || near_patch, "({x}, {y}) wiped");
        }
        assert_eq!(count_cells(&mask.without_solids(6), false), Some(10));
    }

    #[test]
    fn a_bold_border_wiped_as_solid_is_ink_again_under_a_larger_square() {
        // A 300-pixel grid of 5 cells with an 8-pixel border and a black cell (60..120 square).
        let mut mask = grid_mask(300, 5, 0.0);
        for y in 0..300 {
            for x in 0..300 {
                let border = x < 8 || y < 8 || x >= 292 || y >= 292;
                let black = (60..120).contains(&x) && (60..120).contains(&y);
                mask.ink[y * 300 + x] |= border || black;
            }
        }
        let first = mask.without_solids(6);
        assert!(!first.ink[150 * 300 + 4], "the border first wiped");
        let larger = first.with_larger_solids_by_border(20, (0, 0, 300, 300), 15);
        assert!(larger.ink[150 * 300 + 4] && larger.ink[296 * 300 + 150]);
        assert!(!larger.ink[90 * 300 + 90] && larger.solid[90 * 300 + 90]);
        // Deeper inside than the rim, patches wiped by the first square stay wiped.
        let rimmed = first.with_larger_solids_by_border(20, (0, 0, 300, 300), 100);
        assert!(rimmed.ink[150 * 300 + 4] && !rimmed.ink[150 * 300 + 150]);
    }

    #[test]
    fn transposes_as_pixel_by_pixel() {
        let mut rng = crate::photo::rng::Rng::new(7);
        for (w, h) in [(0, 0), (1, 1), (8, 8), (16, 24), (13, 7), (37, 50), (64, 9)] {
            let values: Vec<bool> = (0..w * h).map(|_| rng.below(3) == 0).collect();
            let mut expected = vec![false; w * h];
            for y in 0..h {
                for x in 0..w {
                    expected[x * h + y] = values[y * w + x];
                }
            }
            assert_eq!(transpose(&values, w, h), expected, "{w}x{h}");
        }
    }

    #[test]
    fn full_squares_are_found_as_by_counting_each_square() {
        let mut rng = crate::photo::rng::Rng::new(11);
        for (w, h, side, period) in [
            (23, 17, 1, 12),
            (23, 17, 2, 12),
            (23, 17, 3, 12),
            (23, 17, 5, 12),
            // Blobs far apart: stretches of paper between them.
            (61, 20, 3, 25),
            (61, 20, 4, 25),
        ] {
            // Blobs of ink: dense enough for some full squares, not everywhere.
            let ink: Vec<bool> = (0..w * h)
                .map(|i| (i % w) % period < 6 && rng.below(10) > 0)
                .collect();
            let full = |x: usize, y: usize| {
                x + 1 >= side
                    && y + 1 >= side
                    && (y + 1 - side..=y).all(|yy| (x + 1 - side..=x).all(|xx| ink[yy * w + xx]))
            };
            let expected: Vec<bool> = (0..w * h).map(|i| full(i % w, i / w)).collect();
            let found = full_square_corners(&ink, w, h, side);
            if expected.iter().any(|&c| c) {
                assert_eq!(found, Some(expected), "side {side}");
            } else {
                assert_eq!(found, None, "side {side}");
            }
        }
    }

    #[test]
    fn rows_count_as_in_the_transposed_mask() {
        let mut rng = crate::photo::rng::Rng::new(5);
        for (size, n, bend) in [(300, 10, 0.0), (240, 8, 7.0), (270, 9, 3.0), (180, 12, 0.0)] {
            let mut mask = grid_mask(size, n, bend).transposed();
            // Stray ink and a black cell, so solids and noise take part.
            for i in 0..size * size {
                mask.ink[i] |= rng.below(40) == 0;
            }
            for y in size / 3..size / 3 + size / n {
                for x in size / 2..size / 2 + size / n {
                    mask.ink[y * size + x] = true;
                }
            }
            for cleaned in [mask.without_solids(size / 50), mask.without_solids(0)] {
                assert_eq!(
                    count_rows(&cleaned, false),
                    count_cells(&cleaned.transposed(), false),
                    "{size} {n} {bend}"
                );
                assert_eq!(
                    count_rows(&cleaned.transposed(), false),
                    count_cells(&cleaned, false)
                );
            }
            assert_eq!(count_rows(&mask.without_solids(size / 50), false), Some(n));
        }
        // Uneven sides and the smallest masks.
        let ink = (0..90 * 40)
            .map(|i| (i % 90) % 15 == 0 || (i / 90) % 10 == 0)
            .collect();
        let wide = Mask::of_ink(ink, 90, 40);
        assert_eq!(
            count_rows(&wide, false),
            count_cells(&wide.transposed(), false)
        );
        assert_eq!(
            count_rows(&wide.transposed(), false),
            count_cells(&wide, false)
        );
        assert_eq!(count_rows(&wide, false), Some(4));
        assert_eq!(count_cells(&wide, false), Some(6));
    }

    #[test]
    fn a_stray_line_half_way_does_not_hide_the_finer_grid() {
        let mut mask = grid_mask(270, 9, 0.0);
        // A crease down the middle of the last column: the 9 lines fail there, the 3 do not.
        for y in 0..270 {
            mask.ink[y * 270 + 255] = true;
        }
        assert_eq!(count_cells(&mask, false), Some(9));
    }

    #[test]
    fn lines_bowed_by_a_third_of_a_cell_are_counted() {
        assert_eq!(count_cells(&grid_mask(300, 10, 10.5), false), Some(10));
    }

    #[test]
    fn fine_lines_moved_off_straight_toward_one_end_are_counted() {
        // A fine grid curled toward its bottom edge only: the corners stay put, the middle
        // lines move sideways the more the lower, by over half a cell at the bottom.
        let (size, n) = (600usize, 30usize);
        let cell = size as f64 / n as f64;
        let mut ink = vec![false; size * size];
        for y in 0..size {
            let depth = y as f64 / size as f64;
            for k in 0..=n {
                let shift =
                    0.55 * cell * depth * (std::f64::consts::PI * k as f64 / n as f64).sin();
                let x = ((k as f64 * cell + shift).round() as usize).min(size - 1);
                ink[y * size + x] = true;
                ink[x * size + y] = true;
            }
        }
        let mask = Mask::of_ink(ink, size, size);
        assert_eq!(count_cells(&mask, false), None);
        assert_eq!(count_cells(&mask, true), Some(n));
        assert_eq!(count_rows(&mask.transposed(), true), Some(n));
    }

    #[test]
    fn counts_cells_and_follows_bent_lines() {
        let mask = grid_mask(300, 10, 0.0);
        assert_eq!(count_cells(&mask, false), Some(10));
        let bent = grid_mask(300, 12, 6.0);
        assert_eq!(count_cells(&bent, false), Some(12));
        let crossings: Vec<f64> = (0..=12).map(|k| k as f64 * 25.0).collect();
        let ends: Vec<(f64, f64)> = crossings.iter().map(|&x| (x, x)).collect();
        let lines = follow(&bent, &ends, &crossings).walked;
        let shift = 6.0 * (150.0f64 / 300.0 * 3.0).sin();
        assert!(
            (lines[5][6] - (125.0 + shift + 0.5)).abs() < 1.5,
            "{:?}",
            lines[5]
        );
        let empty = Mask::of_ink(vec![false; 90_000], 300, 300);
        assert_eq!(count_cells(&empty, false), None);
    }

    /// A 28x28 grid of 20-pixel cells, 40 pixels in from the mask's sides, whose first lines
    /// curl left over the last `rows` rows by up to `depth` pixels at the corner: a lifted page
    /// corner, which no smooth bend of the whole grid follows. The lines must be found on the
    /// print there.
    fn assert_curled_corner_followed(depth: f64, rows: usize) {
        let (size, n, cell, margin) = (640, 28, 20.0, 40.0);
        let place = |k: usize| margin + k as f64 * cell;
        let curl_from = place(n - rows);
        let curl = |k: usize, y: f64| {
            let down = ((y - curl_from) / (place(n) - curl_from)).max(0.0);
            let left = (6.0 - k as f64).max(0.0) / 6.0;
            -depth * down * down * left
        };
        let mut ink = vec![false; size * size];
        for y in 0..size {
            for k in 0..=n {
                let x = (place(k) + curl(k, y as f64)).round() as usize;
                ink[y * size + x] = true;
                ink[place(k) as usize * size + y] = true;
            }
        }
        let mask = Mask::of_ink(ink, size, size);
        let crossings: Vec<f64> = (0..=n).map(place).collect();
        let ends: Vec<(f64, f64)> = crossings.iter().map(|&x| (x, x)).collect();
        let lines = follow(&mask, &ends, &crossings).walked;
        for (k, line) in lines.iter().enumerate().take(6) {
            for (i, &x) in line.iter().enumerate().skip(n - rows) {
                let truth = (place(k) + curl(k, crossings[i])).round() + 0.5;
                assert!(
                    (x - truth).abs() < 3.0,
                    "line {k} crossing {i}: {x} for {truth}"
                );
            }
        }
    }

    #[test]
    fn lines_curled_off_the_bend_at_one_corner_are_followed_there() {
        assert_curled_corner_followed(9.0, 8);
    }

    #[test]
    fn lines_curled_most_of_a_cell_off_the_bend_are_followed_to_the_corner() {
        // As a magazine page's bottom corner: 17 pixels of a 20-pixel cell over 14 rows.
        assert_curled_corner_followed(17.0, 14);
    }

    #[test]
    fn lines_curled_over_a_cell_off_at_one_corner_are_carried_there() {
        // As magazine 8's bottom-left corner: its lines' ends there start a row off.
        assert_curled_corner_followed(24.0, 20);
    }
}
