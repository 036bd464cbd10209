//! Black-and-white nonogram solver with a uniqueness verdict.
//!
//! [`solve`] is complete: exact line solving (a dynamic programme over positions and blocks, done
//! with 128-bit masks for lines up to 126 cells and memoised per line state) run to a fixpoint from
//! a queue of changed lines, then probing (each open cell is tried both ways; a contradiction fixes
//! it the other way, and cells that come out the same in both branches are fixed too), then a
//! depth-first search that probes at every node and branches on the cell whose weaker probe fixed
//! the most cells. It stops at the second solution, so `Unique` means the whole search space was
//! exhausted. [`deduce`] runs the same logic without guessing and reports the cells it could fix.
//!
//! [`solve_traced`] runs the same search with a [`Recorder`] that writes each line deduction,
//! probe and guess on the path to the first solution; [`solve`] records nothing and pays nothing
//! for it. It does not handle coloured puzzles or use more than one thread. Its time is bounded only by the [`Deadline`], which is checked between line solves.

use std::cmp::Reverse;

use crate::grid::Rows;
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::trace::{cell_name, ranges, Cell, NoTrace, Recorder, Trace, Tracer};

/// Cell states are sets of the values still possible, so a line solve is an intersection and an
/// empty set is a contradiction.
pub const EMPTY: u8 = 1;
pub const FILLED: u8 = 2;
pub const UNKNOWN: u8 = EMPTY | FILLED;

/// Line solves between two looks at the clock: a line solve takes well under a microsecond (a
/// long line some microseconds), so this keeps the overshoot of a deadline far below a millisecond
/// without paying for the clock on every line.
const LINES_PER_CLOCK_CHECK: u32 = 64;

/// Up to two solutions. `rows[r]` holds the clue numbers of row `r` (top first; empty for an empty
/// row), `columns[c]` likewise (left first); `givens` are (row, column) cells known to be filled.
/// In the result, `grid[r][c] == true` means filled.
pub fn solve(
    rows: &[Vec<u32>],
    columns: &[Vec<u32>],
    givens: &[(usize, usize)],
    deadline: &Deadline,
) -> Result<Outcome<Vec<Vec<bool>>>, TimedOut> {
    let known: Vec<_> = givens.iter().map(|&(r, c)| (r, c, true)).collect();
    Ok(run(rows, columns, &known, deadline, NoTrace)?.0)
}

/// Like [`solve`], starting from the cells in `known` as (row, column, filled) (the givens, and
/// for a hint the cells a player has set), and also giving the steps to the first solution.
pub fn solve_traced(
    rows: &[Vec<u32>],
    columns: &[Vec<u32>],
    known: &[(usize, usize, bool)],
    deadline: &Deadline,
) -> Result<(Outcome<Rows>, Trace), TimedOut> {
    let tracer = Tracer::new(columns.len(), rows.len());
    let (outcome, tracer) = run(rows, columns, known, deadline, tracer)?;
    Ok((outcome, tracer.into_trace()))
}

fn run<R: Recorder>(
    rows: &[Vec<u32>],
    columns: &[Vec<u32>],
    known: &[(usize, usize, bool)],
    deadline: &Deadline,
    rec: R,
) -> Result<(Outcome<Rows>, R), TimedOut> {
    let puzzle = Puzzle::new(rows, columns);
    let Some(root) = puzzle.initial_grid(known) else {
        return Ok((Outcome::NoSolution, rec));
    };
    let mut engine = Engine::new(&puzzle, deadline, rec);
    let found = engine.search(root, 2)?;
    let to_bools = |grid: Vec<u8>| puzzle.to_rows(&grid, |cell| cell == FILLED);
    let outcome = match (found.first, found.count) {
        (None, _) => Outcome::NoSolution,
        (Some(grid), 1) => Outcome::Unique(to_bools(grid)),
        (Some(grid), _) => Outcome::Several(to_bools(grid)),
    };
    Ok((outcome, engine.rec))
}

/// The number of solutions, counting no further than `limit`.
pub fn count(
    rows: &[Vec<u32>],
    columns: &[Vec<u32>],
    givens: &[(usize, usize)],
    limit: usize,
    deadline: &Deadline,
) -> Result<usize, TimedOut> {
    let puzzle = Puzzle::new(rows, columns);
    let known: Vec<_> = givens.iter().map(|&(r, c)| (r, c, true)).collect();
    let Some(root) = puzzle.initial_grid(&known) else {
        return Ok(0);
    };
    Ok(Engine::new(&puzzle, deadline, NoTrace)
        .search(root, limit)?
        .count)
}

/// Logic only, no guessing: line solving to a fixpoint, then probing. Returns the cells known
/// (`None` = still open), or `None` when the clues contradict. It reports how far logic gets on
/// puzzles the search cannot finish.
pub fn deduce(
    rows: &[Vec<u32>],
    columns: &[Vec<u32>],
    givens: &[(usize, usize)],
    deadline: &Deadline,
) -> Result<Option<Vec<Vec<Option<bool>>>>, TimedOut> {
    let puzzle = Puzzle::new(rows, columns);
    let known: Vec<_> = givens.iter().map(|&(r, c)| (r, c, true)).collect();
    let Some(mut grid) = puzzle.initial_grid(&known) else {
        return Ok(None);
    };
    let mut engine = Engine::new(&puzzle, deadline, NoTrace);
    engine.queue_all();
    if engine.propagate(&mut grid)?.is_none() {
        return Ok(None);
    }
    if let Probed::Contradiction = engine.probe(&mut grid, false)? {
        return Ok(None);
    }
    Ok(Some(puzzle.to_rows(&grid, |cell| match cell {
        FILLED => Some(true),
        EMPTY => Some(false),
        _ => None,
    })))
}

/// Narrows `line` (each cell a set of [`EMPTY`] and [`FILLED`]) in place to the states some
/// arrangement of `clue`'s blocks allows; false when none does. The solver's exact line solve,
/// for callers that narrow lines of their own (the reader weighing possible clue readings).
pub fn narrow_line(clue: &[u32], line: &mut [u8]) -> bool {
    let blocks: Vec<u32> = clue.iter().copied().filter(|&b| b > 0).collect();
    LineSolver::default().solve(&blocks, line)
}

/// The clues in line order: rows first, then columns, so one index names any line.
struct Puzzle {
    width: usize,
    height: usize,
    clues: Vec<Vec<u32>>,
}

impl Puzzle {
    fn new(rows: &[Vec<u32>], columns: &[Vec<u32>]) -> Self {
        // A 0 in a clue is the usual spelling of an empty line, not a block.
        let clean = |clue: &Vec<u32>| clue.iter().copied().filter(|&b| b > 0).collect();
        Puzzle {
            width: columns.len(),
            height: rows.len(),
            clues: rows.iter().chain(columns).map(clean).collect(),
        }
    }

    fn lines(&self) -> usize {
        self.width + self.height
    }

    /// The starting grid, or None when the clues cannot fit at all: the filled cells counted by rows
    /// and by columns must agree, and each clue must fit in its line. Line solving would find these
    /// too, except a disagreement of sums on an otherwise open grid, which it cannot see.
    fn initial_grid(&self, known: &[(usize, usize, bool)]) -> Option<Vec<u8>> {
        let sum = |clues: &[Vec<u32>]| clues.iter().flatten().map(|&b| u64::from(b)).sum::<u64>();
        let (row_clues, column_clues) = self.clues.split_at(self.height);
        if sum(row_clues) != sum(column_clues) {
            return None;
        }
        let fits = |clue: &Vec<u32>, len: usize| {
            let needed: u64 = clue.iter().map(|&b| u64::from(b) + 1).sum();
            needed <= len as u64 + 1
        };
        if !row_clues.iter().all(|c| fits(c, self.width))
            || !column_clues.iter().all(|c| fits(c, self.height))
        {
            return None;
        }
        let mut grid = vec![UNKNOWN; self.width * self.height];
        for &(r, c, filled) in known {
            if r < self.height && c < self.width {
                grid[r * self.width + c] = if filled { FILLED } else { EMPTY };
            }
        }
        Some(grid)
    }

    fn to_rows<T>(&self, grid: &[u8], f: impl Fn(u8) -> T) -> Vec<Vec<T>> {
        (0..self.height)
            .map(|r| {
                grid[r * self.width..(r + 1) * self.width]
                    .iter()
                    .map(|&c| f(c))
                    .collect()
            })
            .collect()
    }
}

/// Exact line solver for lines longer than [`MAX_MASK_LINE`]. Each block is read as the token "one empty cell, then b filled cells" and a lone
/// empty cell is a token too; with an always-empty cell put in front of the line, every arrangement
/// is a sequence of tokens. `fwd[j][i]`: the first `i` padded cells can hold tokens with blocks
/// `0..j`; `bwd[j][i]`: the cells from `i` on can hold tokens with blocks `j..`. A value is possible in
/// a cell exactly when some token placed there joins a true `fwd` to a true `bwd`.
#[derive(Default)]
struct LineSolver {
    fwd: Vec<bool>,
    bwd: Vec<bool>,
    may_empty: Vec<bool>,
    /// `no_fill[i]`: cells before padded position `i` that cannot be filled, so that "all of a..b
    /// may be filled" is one subtraction.
    no_fill: Vec<u32>,
    can_empty: Vec<bool>,
    cover: Vec<i32>,
}

impl LineSolver {
    /// Narrows `line` in place to the values some arrangement of `clue` allows; false when none does.
    fn solve(&mut self, clue: &[u32], line: &mut [u8]) -> bool {
        let m = line.len() + 1;
        let k = clue.len();
        let stride = m + 1;
        self.may_empty.clear();
        self.may_empty.push(true);
        self.may_empty.extend(line.iter().map(|&c| c & EMPTY != 0));
        self.no_fill.clear();
        self.no_fill.extend([0, 1]);
        let mut count = 1;
        for &c in line.iter() {
            count += u32::from(c & FILLED == 0);
            self.no_fill.push(count);
        }
        let me = &self.may_empty;
        let nf = &self.no_fill;

        let fwd = &mut self.fwd;
        fwd.clear();
        fwd.resize((k + 1) * stride, false);
        fwd[0] = true;
        for i in 1..=m {
            fwd[i] = fwd[i - 1] && me[i - 1];
        }
        for j in 1..=k {
            let len = clue[j - 1] as usize + 1;
            let (before, row) = fwd.split_at_mut(j * stride);
            let prev = &before[(j - 1) * stride..];
            for i in 1..=m {
                let mut v = row[i - 1] && me[i - 1];
                if !v && i >= len {
                    let s = i - len;
                    v = prev[s] && me[s] && nf[i] == nf[s + 1];
                }
                row[i] = v;
            }
        }
        if !fwd[k * stride + m] {
            return false;
        }

        let bwd = &mut self.bwd;
        bwd.clear();
        bwd.resize((k + 1) * stride, false);
        bwd[k * stride + m] = true;
        for i in (0..m).rev() {
            bwd[k * stride + i] = bwd[k * stride + i + 1] && me[i];
        }
        for j in (0..k).rev() {
            let len = clue[j] as usize + 1;
            let (row, after) = bwd.split_at_mut((j + 1) * stride);
            let row = &mut row[j * stride..];
            for i in (0..m).rev() {
                let mut v = row[i + 1] && me[i];
                if !v && i + len <= m {
                    v = me[i] && nf[i + len] == nf[i + 1] && after[i + len];
                }
                row[i] = v;
            }
        }

        self.can_empty.clear();
        self.can_empty.resize(m, false);
        self.cover.clear();
        self.cover.resize(m + 1, 0);
        for t in 0..m {
            if me[t] && (0..=k).any(|j| fwd[j * stride + t] && bwd[j * stride + t + 1]) {
                self.can_empty[t] = true;
            }
        }
        for j in 0..k {
            let len = clue[j] as usize + 1;
            let before = &fwd[j * stride..(j + 1) * stride];
            let after = &bwd[(j + 1) * stride..(j + 2) * stride];
            for s in 0..=m - len.min(m) {
                if before[s] && me[s] && nf[s + len] == nf[s + 1] && after[s + len] {
                    self.can_empty[s] = true;
                    self.cover[s + 1] += 1;
                    self.cover[s + len] -= 1;
                }
            }
        }
        let mut covered = self.cover[0];
        for (t, cell) in line.iter_mut().enumerate() {
            covered += self.cover[t + 1];
            *cell = (u8::from(self.can_empty[t + 1]) * EMPTY) | (u8::from(covered > 0) * FILLED);
        }
        true
    }
}

/// Longest line [`MaskLineSolver`] takes: prefix lengths run up to `len + 1` and the carry that ends
/// a run of ones needs one more bit, all inside a `u128`.
const MAX_MASK_LINE: usize = 126;

/// At most this many blocks fit in a line of [`MAX_MASK_LINE`] cells.
const MAX_MASK_BLOCKS: usize = MAX_MASK_LINE.div_ceil(2);

/// The line solver's programme with one `u128` per block instead of one bool per position: bit `i`
/// of `fwd[j]` is `fwd[j][i]` of [`LineSolver`]. Moving a prefix end over cells that may be empty is
/// one carry chain, so a line costs a few dozen word operations per block. The suffix table is the
/// prefix table of the reversed line, read through bit reversal.
struct MaskLineSolver {
    fwd: [u128; MAX_MASK_BLOCKS + 1],
    bwd: [u128; MAX_MASK_BLOCKS + 1],
    /// `runs[j]` bit `s`: cells `s..s + clue[j]` may all be filled.
    runs: [u128; MAX_MASK_BLOCKS],
}

impl Default for MaskLineSolver {
    fn default() -> Self {
        MaskLineSolver {
            fwd: [0; MAX_MASK_BLOCKS + 1],
            bwd: [0; MAX_MASK_BLOCKS + 1],
            runs: [0; MAX_MASK_BLOCKS],
        }
    }
}

/// Bits reachable from `seeds` by stepping from `i` to `i + 1` wherever bit `i` of `allowed` is set.
/// Adding a seed to its run of `allowed` carries to the run's end, and the xor shows what flipped.
fn reach_up(seeds: u128, allowed: u128) -> u128 {
    seeds | ((seeds & allowed).wrapping_add(allowed) ^ allowed)
}

/// Bit `s` set when bits `s..s + len` of `mask` all are (len >= 1), by doubling the covered length.
fn runs_of(mask: u128, len: usize) -> u128 {
    let (mut runs, mut covered) = (mask, 1);
    while covered < len {
        let step = covered.min(len - covered);
        runs &= runs >> step;
        covered += step;
    }
    runs
}

/// Each set bit `s` widened to bits `s..s + len`.
fn widen(starts: u128, len: usize) -> u128 {
    let (mut cells, mut covered) = (starts, 1);
    while covered < len {
        let step = covered.min(len - covered);
        cells |= cells << step;
        covered += step;
    }
    cells
}

/// Bit `t` of the result is bit `n - t` of `mask`, for `t` in `0..=n`.
fn mirror(mask: u128, n: usize) -> u128 {
    mask.reverse_bits() >> (127 - n)
}

impl MaskLineSolver {
    /// Fills `table[j]` with the prefix lengths (bit `i`, counting the padding cell) that can hold
    /// the first `j` blocks; false when the whole line cannot hold them all.
    fn prefixes(
        clue: impl Iterator<Item = usize>,
        may_empty: u128,
        may_fill: u128,
        n: usize,
        table: &mut [u128],
        mut runs: Option<&mut [u128]>,
    ) -> bool {
        let padded_empty = (may_empty << 1) | 1;
        let mut reach = reach_up(1, padded_empty);
        table[0] = reach;
        for (j, b) in clue.enumerate() {
            let run = runs_of(may_fill, b);
            if let Some(runs) = runs.as_deref_mut() {
                runs[j] = run;
            }
            reach = reach_up((reach & padded_empty & run) << (b + 1), padded_empty);
            if reach == 0 {
                return false;
            }
            table[j + 1] = reach;
        }
        reach >> (n + 1) & 1 == 1
    }

    /// The values each cell of an `n`-cell line may take under `clue`, as masks of cells that may be
    /// empty and may be filled; None when no arrangement fits. `n` is at least 1.
    fn solve(
        &mut self,
        clue: &[u32],
        n: usize,
        may_empty: u128,
        may_fill: u128,
    ) -> Option<(u128, u128)> {
        let k = clue.len();
        let blocks = clue.iter().map(|&b| b as usize);
        if !Self::prefixes(
            blocks.clone(),
            may_empty,
            may_fill,
            n,
            &mut self.fwd,
            Some(&mut self.runs),
        ) {
            return None;
        }
        let (rev_empty, rev_fill) = (mirror(may_empty, n - 1), mirror(may_fill, n - 1));
        if !Self::prefixes(
            blocks.clone().rev(),
            rev_empty,
            rev_fill,
            n,
            &mut self.bwd,
            None,
        ) {
            return None;
        }
        let padded_empty = (may_empty << 1) | 1;
        let rev_padded_empty = (rev_empty << 1) | 1;
        let mut can_empty = 0;
        for j in 0..=k {
            can_empty |= (self.fwd[j] >> 1) & mirror(self.bwd[k - j], n);
        }
        can_empty &= may_empty;
        let mut can_fill = 0;
        for (j, b) in blocks.enumerate() {
            let after = mirror(self.bwd[k - 1 - j] & rev_padded_empty, n) >> b;
            let starts = self.fwd[j] & padded_empty & self.runs[j] & after;
            can_fill |= widen(starts, b);
        }
        Some((can_empty, can_fill))
    }
}

/// Remembers line results, since probing and search solve the same line states over and over. It
/// is direct-mapped: a colliding entry simply replaces the old one.
struct LineCache {
    /// Per slot: line index + 1 (0 = vacant), shifted left once, with the low bit set when the state
    /// is consistent. All-zero slots are vacant, so the table starts as untouched zeroed memory.
    keys: Vec<u64>,
    /// Per slot: the state's may-be-empty and may-be-filled masks, then the solved ones.
    masks: Vec<[u128; 4]>,
    shift: u32,
}

impl LineCache {
    fn new(lines: usize) -> Self {
        let bits = (lines * CACHE_SLOTS_PER_LINE)
            .next_power_of_two()
            .trailing_zeros()
            .clamp(10, 18);
        LineCache {
            keys: vec![0; 1 << bits],
            masks: vec![[0; 4]; 1 << bits],
            shift: 64 - bits,
        }
    }

    fn solve(
        &mut self,
        solver: &mut MaskLineSolver,
        line: usize,
        clue: &[u32],
        n: usize,
        may_empty: u128,
        may_fill: u128,
    ) -> Option<(u128, u128)> {
        let slot = self.slot(line, may_empty, may_fill);
        let key = (line as u64 + 1) << 1;
        let [e, f, can_empty, can_fill] = self.masks[slot];
        if self.keys[slot] | 1 == key | 1 && e == may_empty && f == may_fill {
            return (self.keys[slot] & 1 == 1).then_some((can_empty, can_fill));
        }
        let result = solver.solve(clue, n, may_empty, may_fill);
        let (can_empty, can_fill) = result.unwrap_or_default();
        self.keys[slot] = key | u64::from(result.is_some());
        self.masks[slot] = [may_empty, may_fill, can_empty, can_fill];
        result
    }

    fn slot(&self, line: usize, may_empty: u128, may_fill: u128) -> usize {
        let fold = |x: u128| (x as u64) ^ ((x >> 64) as u64).rotate_left(29);
        let h = (fold(may_empty).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ fold(may_fill).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ (line as u64).wrapping_mul(0x1656_67b1_9e37_79f9))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> self.shift) as usize
    }
}

/// Enough slots for a few dozen states of every line. The table starts as zeroed memory that the
/// system hands out lazily, so its size costs an easy puzzle nothing.
const CACHE_SLOTS_PER_LINE: usize = 64;

/// What probing a node ended with.
enum Probed {
    Contradiction,
    Solved,
    /// Still open; with a choice requested, the engine's `branch` holds the two probe results of
    /// the chosen cell, each already propagated.
    Open,
}

/// How many solutions a search found (up to its limit), with the first.
struct Found {
    first: Option<Vec<u8>>,
    count: usize,
}

/// Buffers for [`Engine::probe_with`].
#[derive(Default)]
struct ProbeScratch {
    /// The two probe results of the current cell.
    filled: Vec<u8>,
    empty: Vec<u8>,
    /// The grid before the latest change, to find the cells it fixed.
    before: Vec<u8>,
    /// Values of open cells that some probe since the last change implied: such a value cannot
    /// lead to a contradiction (its propagation is weaker than the probe that implied it), and
    /// when both values of a cell are implied, probing it can teach nothing new: what both of its
    /// probes would fix, the implying probes fixed in both branches already.
    implied: Vec<u8>,
    /// Open cells by decreasing priority, as (priority, cell).
    order: Vec<(usize, usize)>,
    /// Cells next to recent changes, probed before the rest of `order`.
    urgent: Vec<usize>,
    is_urgent: Vec<bool>,
    row_known: Vec<usize>,
    column_known: Vec<usize>,
}

/// Propagation, probing and search over grids of cell states, row-major.
struct Engine<'a, R> {
    puzzle: &'a Puzzle,
    deadline: &'a Deadline,
    /// Lines longer than [`MAX_MASK_LINE`] go to `line_solver`, the rest to `mask_solver`.
    line_solver: LineSolver,
    mask_solver: MaskLineSolver,
    cache: LineCache,
    line: Vec<u8>,
    /// Lines to re-solve, as a ring buffer: each line is queued at most once.
    queue: Vec<usize>,
    queue_head: usize,
    queue_len: usize,
    queued: Vec<bool>,
    until_clock_check: u32,
    /// Buffers for probing, kept to avoid allocating at every search node.
    scratch: ProbeScratch,
    /// The probe results of the cell chosen for branching.
    branch: [Vec<u8>; 2],
    /// The cell chosen for branching and its value in `branch[0]`.
    branch_cell: (usize, u8),
    /// The line whose solve found the latest contradiction, to name it in explanations.
    contradiction_line: usize,
    rec: R,
}

impl<'a, R: Recorder> Engine<'a, R> {
    fn new(puzzle: &'a Puzzle, deadline: &'a Deadline, rec: R) -> Self {
        let lines = puzzle.lines();
        Engine {
            puzzle,
            deadline,
            line_solver: LineSolver::default(),
            mask_solver: MaskLineSolver::default(),
            cache: LineCache::new(lines),
            line: Vec::with_capacity(puzzle.width.max(puzzle.height)),
            queue: vec![0; lines],
            queue_head: 0,
            queue_len: 0,
            queued: vec![false; lines],
            until_clock_check: LINES_PER_CLOCK_CHECK,
            scratch: ProbeScratch::default(),
            branch: [Vec::new(), Vec::new()],
            branch_cell: (0, UNKNOWN),
            contradiction_line: 0,
            rec,
        }
    }

    fn push(&mut self, line: usize) {
        if !self.queued[line] {
            self.queued[line] = true;
            let slot = (self.queue_head + self.queue_len) % self.queue.len();
            self.queue[slot] = line;
            self.queue_len += 1;
        }
    }

    fn pop(&mut self) -> Option<usize> {
        if self.queue_len == 0 {
            return None;
        }
        let line = self.queue[self.queue_head];
        self.queue_head = (self.queue_head + 1) % self.queue.len();
        self.queue_len -= 1;
        self.queued[line] = false;
        Some(line)
    }

    fn clear_queue(&mut self) {
        while self.pop().is_some() {}
    }

    fn queue_all(&mut self) {
        for line in 0..self.puzzle.lines() {
            self.push(line);
        }
    }

    fn queue_cell(&mut self, cell: usize) {
        let w = self.puzzle.width;
        self.push(cell / w);
        self.push(self.puzzle.height + cell % w);
    }

    /// Line solving to a fixpoint from the queued lines. Returns how many cells it fixed, or None
    /// on a contradiction.
    fn propagate(&mut self, grid: &mut [u8]) -> Result<Option<usize>, TimedOut> {
        let (w, h) = (self.puzzle.width, self.puzzle.height);
        let mut fixed = 0;
        // Lines left in the current pass over the queue; a snapshot ends each pass.
        let mut pass_left = self.queue_len;
        while let Some(index) = self.pop() {
            self.until_clock_check -= 1;
            if self.until_clock_check == 0 {
                self.until_clock_check = LINES_PER_CLOCK_CHECK;
                if let Err(e) = self.deadline.check() {
                    self.clear_queue();
                    return Err(e);
                }
            }
            let (start, step, len) = if index < h {
                (index * w, 1, w)
            } else {
                (index - h, w, h)
            };
            let cross = |i: usize| if index < h { h + i } else { i };
            let clue = &self.puzzle.clues[index];
            if len == 0 {
                if !clue.is_empty() {
                    self.contradiction_line = index;
                    self.clear_queue();
                    return Ok(None);
                }
            } else if len <= MAX_MASK_LINE {
                let (mut may_empty, mut may_fill) = (0u128, 0u128);
                for i in 0..len {
                    let c = grid[start + i * step];
                    may_empty |= u128::from(c & EMPTY) << i;
                    may_fill |= u128::from(c >> 1) << i;
                }
                let result =
                    self.cache
                        .solve(&mut self.mask_solver, index, clue, len, may_empty, may_fill);
                let Some((can_empty, can_fill)) = result else {
                    self.contradiction_line = index;
                    self.clear_queue();
                    return Ok(None);
                };
                let mut changed = (may_empty ^ can_empty) | (may_fill ^ can_fill);
                if changed != 0 {
                    if let Some(t) = self.rec.tracer() {
                        let bit = |mask: u128, i: usize| (mask >> i & 1) as u8;
                        let value = |i| (bit(can_empty, i) * EMPTY) | (bit(can_fill, i) * FILLED);
                        let changes: Vec<(usize, u8)> = (0..len)
                            .filter(|&i| changed >> i & 1 == 1)
                            .map(|i| (i, value(i)))
                            .collect();
                        let open = (0..len).all(|i| bit(may_empty & may_fill, i) == 1);
                        let done = can_empty & can_fill == 0;
                        line_step(t, self.puzzle, index, &changes, open, done);
                    }
                }
                while changed != 0 {
                    let i = changed.trailing_zeros() as usize;
                    changed &= changed - 1;
                    grid[start + i * step] =
                        ((can_empty >> i & 1) as u8 * EMPTY) | ((can_fill >> i & 1) as u8 * FILLED);
                    fixed += 1;
                    self.push(cross(i));
                }
            } else {
                self.line.clear();
                self.line.extend((0..len).map(|i| grid[start + i * step]));
                if !self.line_solver.solve(clue, &mut self.line) {
                    self.contradiction_line = index;
                    self.clear_queue();
                    return Ok(None);
                }
                if let Some(t) = self.rec.tracer() {
                    let old = |i: usize| grid[start + i * step];
                    let changes: Vec<(usize, u8)> = (0..len)
                        .filter(|&i| old(i) != self.line[i])
                        .map(|i| (i, self.line[i]))
                        .collect();
                    if !changes.is_empty() {
                        let open = (0..len).all(|i| old(i) == UNKNOWN);
                        let done = !self.line.contains(&UNKNOWN);
                        line_step(t, self.puzzle, index, &changes, open, done);
                    }
                }
                for i in 0..len {
                    let cell = start + i * step;
                    if grid[cell] != self.line[i] {
                        grid[cell] = self.line[i];
                        fixed += 1;
                        self.push(cross(i));
                    }
                }
            }
            if R::ENABLED {
                pass_left = pass_left.saturating_sub(1);
                if pass_left == 0 {
                    pass_left = self.queue_len;
                    if let Some(t) = self.rec.tracer() {
                        t.snapshot(grid.iter().map(|&c| cell_state(c)));
                    }
                }
            }
        }
        Ok(Some(fixed))
    }

    /// Sets `cell` to `value` in a copy of `grid` held in `into` and propagates it.
    fn try_value(
        &mut self,
        grid: &[u8],
        cell: usize,
        value: u8,
        into: &mut Vec<u8>,
    ) -> Result<Option<usize>, TimedOut> {
        into.clear();
        into.extend_from_slice(grid);
        into[cell] = value;
        self.queue_cell(cell);
        // A hypothesis's consequences are not facts: they stay out of the explanation.
        self.rec.mute(true);
        let result = self.propagate(into);
        self.rec.mute(false);
        result
    }

    /// For a traced solve: explains a probe whose other value contradicted, then sets `cell` to
    /// `value` and propagates with recording (the untraced solve copies the probe's result
    /// instead). False on a contradiction.
    fn settle_probe(&mut self, grid: &mut [u8], cell: usize, value: u8) -> Result<bool, TimedOut> {
        let w = self.puzzle.width;
        if let Some(t) = self.rec.tracer() {
            let (other, this) = if value == EMPTY {
                ("filled", "empty")
            } else {
                ("empty", "filled")
            };
            t.step(
                format!(
                    "{}: assuming {other} leads to a contradiction in {}, so it is {this}",
                    cell_name(cell / w, cell % w),
                    self.puzzle.line_name(self.contradiction_line)
                ),
                vec![(cell / w, cell % w, cell_state(value))],
            );
        }
        grid[cell] = value;
        self.queue_cell(cell);
        Ok(self.propagate(grid)?.is_some())
    }

    /// Probes every open cell until a whole pass fixes nothing. With `choose`, the last pass also
    /// picks the cell to branch on and leaves its two probe results in `branch`.
    fn probe(&mut self, grid: &mut [u8], choose: bool) -> Result<Probed, TimedOut> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let result = self.probe_with(grid, choose, &mut scratch);
        self.scratch = scratch;
        result
    }

    fn probe_with(
        &mut self,
        grid: &mut [u8],
        choose: bool,
        s: &mut ProbeScratch,
    ) -> Result<Probed, TimedOut> {
        let w = self.puzzle.width;
        let cells = grid.len();
        s.implied.clear();
        s.implied.resize(cells, 0);
        s.is_urgent.clear();
        s.is_urgent.resize(cells, false);
        loop {
            let mut changed = false;
            s.implied.fill(0);
            self.order_cells(grid, s);
            let mut in_order = 0;
            // The smaller number of cells the two probes fix counts first, and on a tie the more
            // balanced cell wins: a branch that fixes little is the one whose subtree is large.
            let mut best: Option<(usize, Reverse<usize>)> = None;
            loop {
                let cell = if let Some(cell) = s.urgent.pop() {
                    s.is_urgent[cell] = false;
                    cell
                } else if let Some(&(_, cell)) = s.order.get(in_order) {
                    in_order += 1;
                    cell
                } else {
                    break;
                };
                if grid[cell] != UNKNOWN || s.implied[cell] == UNKNOWN {
                    continue;
                }
                self.deadline.check()?;
                let if_filled = self.try_value(grid, cell, FILLED, &mut s.filled)?;
                let if_empty = self.try_value(grid, cell, EMPTY, &mut s.empty)?;
                s.before.clear();
                s.before.extend_from_slice(grid);
                match (if_filled, if_empty) {
                    (None, None) => return Ok(Probed::Contradiction),
                    (None, Some(_)) | (Some(_), None) if R::ENABLED => {
                        let value = if if_filled.is_none() { EMPTY } else { FILLED };
                        if !self.settle_probe(grid, cell, value)? {
                            return Ok(Probed::Contradiction);
                        }
                    }
                    // The surviving probe is already propagated, so it is the new state.
                    (None, Some(_)) => grid.copy_from_slice(&s.empty),
                    (Some(_), None) => grid.copy_from_slice(&s.filled),
                    (Some(n_filled), Some(n_empty)) => {
                        let mut common = false;
                        for (i, cell) in grid.iter_mut().enumerate() {
                            if *cell != UNKNOWN {
                                continue;
                            }
                            let (f, e) = (s.filled[i], s.empty[i]);
                            if f == e && f != UNKNOWN {
                                *cell = f;
                                self.queue_cell(i);
                                common = true;
                            }
                            for value in [f, e] {
                                if value != UNKNOWN {
                                    s.implied[i] |= value;
                                }
                            }
                        }
                        if common && R::ENABLED {
                            if let Some(t) = self.rec.tracer() {
                                either_way_step(t, w, cell, &s.before, grid);
                            }
                        }
                        if !common {
                            let score = (n_filled.min(n_empty), Reverse(n_filled.max(n_empty)));
                            if choose && best.is_none_or(|b| score > b) {
                                best = Some(score);
                                // The branch with more progress goes first: it is likelier to end
                                // quickly in a solution or a contradiction.
                                let (first, second) = if n_filled >= n_empty {
                                    (&s.filled, &s.empty)
                                } else {
                                    (&s.empty, &s.filled)
                                };
                                self.branch[0].clone_from(first);
                                self.branch[1].clone_from(second);
                                let value = if n_filled >= n_empty { FILLED } else { EMPTY };
                                self.branch_cell = (cell, value);
                            }
                            continue;
                        }
                        if self.propagate(grid)?.is_none() {
                            return Ok(Probed::Contradiction);
                        }
                    }
                }
                changed = true;
                s.implied.fill(0);
                // New facts make contradictions likeliest next to them, so their open neighbours
                // are probed next, even if this pass probed them already.
                for i in 0..cells {
                    if s.before[i] == UNKNOWN && grid[i] != UNKNOWN {
                        let (r, c) = (i / w, i % w);
                        let up = r.checked_sub(1).map(|r| r * w + c);
                        let left = c.checked_sub(1).map(|c| r * w + c);
                        let down = (i + w < cells).then_some(i + w);
                        let right = (c + 1 < w).then_some(i + 1);
                        for next in [up, left, down, right].into_iter().flatten() {
                            if grid[next] == UNKNOWN && !s.is_urgent[next] {
                                s.is_urgent[next] = true;
                                s.urgent.push(next);
                            }
                        }
                    }
                }
            }
            if !changed {
                return Ok(if grid.contains(&UNKNOWN) {
                    Probed::Open
                } else {
                    Probed::Solved
                });
            }
        }
    }

    /// Puts the open cells in probing order: cells with more known neighbours (the border counts
    /// as known) and in more complete lines first, as there a probe most often contradicts.
    fn order_cells(&self, grid: &[u8], s: &mut ProbeScratch) {
        let (w, h) = (self.puzzle.width, self.puzzle.height);
        s.row_known.clear();
        s.row_known.resize(h, 0);
        s.column_known.clear();
        s.column_known.resize(w, 0);
        for (i, &cell) in grid.iter().enumerate() {
            if cell != UNKNOWN {
                s.row_known[i / w] += 1;
                s.column_known[i % w] += 1;
            }
        }
        let known = |i: usize| grid[i] != UNKNOWN;
        s.order.clear();
        for (i, &cell) in grid.iter().enumerate() {
            if cell != UNKNOWN {
                continue;
            }
            let (r, c) = (i / w, i % w);
            let neighbours = usize::from(r == 0 || known(i - w))
                + usize::from(r + 1 == h || known(i + w))
                + usize::from(c == 0 || known(i - 1))
                + usize::from(c + 1 == w || known(i + 1));
            let completeness = s.row_known[r] * 1024 / w + s.column_known[c] * 1024 / h;
            s.order.push((neighbours * 4096 + completeness, i));
        }
        s.order.sort_unstable_by(|a, b| b.cmp(a));
    }

    /// Depth-first search for up to `limit` solutions. The stack holds grids still to explore,
    /// each already at a propagation fixpoint.
    fn search(&mut self, mut root: Vec<u8>, limit: usize) -> Result<Found, TimedOut> {
        let mut found = Found {
            first: None,
            count: 0,
        };
        self.queue_all();
        if limit == 0 || self.propagate(&mut root)?.is_none() {
            return Ok(found);
        }
        let mut stack = vec![root];
        let mut spare: Vec<Vec<u8>> = Vec::new();
        // Traced solves only: the guess each stacked grid stands for, beside `stack`.
        let mut guesses: Vec<Option<Guess>> = if R::ENABLED { vec![None] } else { Vec::new() };
        while let Some(mut grid) = stack.pop() {
            self.deadline.check()?;
            if R::ENABLED {
                if let Some(guess) = guesses.pop().flatten() {
                    if !self.take_guess(&mut grid, guess)? {
                        continue;
                    }
                }
            }
            match self.probe(&mut grid, true)? {
                Probed::Contradiction => spare.push(grid),
                Probed::Solved => {
                    if let Some(t) = self.rec.tracer() {
                        t.snapshot(grid.iter().map(|&c| cell_state(c)));
                        t.freeze();
                    }
                    found.count += 1;
                    found.first.get_or_insert(grid);
                    if found.count == limit {
                        return Ok(found);
                    }
                }
                Probed::Open if R::ENABLED => {
                    // The guessed cell is set in the node's grid and propagated when popped, so
                    // that the explanation shows the guess and then each line it moves.
                    let (cell, value) = self.branch_cell;
                    let mark = self.rec.tracer().map(|t| t.mark());
                    for (second, value) in [(true, UNKNOWN ^ value), (false, value)] {
                        let mut next = grid.clone();
                        next[cell] = value;
                        stack.push(next);
                        guesses.push(mark.map(|mark| Guess {
                            mark,
                            cell,
                            value,
                            second,
                        }));
                    }
                }
                Probed::Open => {
                    spare.push(grid);
                    for branch in self.branch.iter().rev() {
                        let mut next = spare.pop().unwrap_or_default();
                        next.clear();
                        next.extend_from_slice(branch);
                        stack.push(next);
                    }
                }
            }
        }
        Ok(found)
    }

    /// Traced solves: rewinds the explanation to the node `guess` branches from, records the
    /// guess and propagates it. False on a contradiction.
    fn take_guess(&mut self, grid: &mut [u8], guess: Guess) -> Result<bool, TimedOut> {
        let w = self.puzzle.width;
        let (r, c) = (guess.cell / w, guess.cell % w);
        if let Some(t) = self.rec.tracer() {
            t.rewind(guess.mark.steps, guess.mark.depth);
            let name = |v| if v == FILLED { "filled" } else { "empty" };
            let text = if guess.second {
                format!(
                    "{}: {} led to no solution, so it is {} (search depth {})",
                    cell_name(r, c),
                    name(UNKNOWN ^ guess.value),
                    name(guess.value),
                    guess.mark.depth + 1
                )
            } else {
                format!(
                    "{}: no deduction left; guess {} (search depth {})",
                    cell_name(r, c),
                    name(guess.value),
                    guess.mark.depth + 1
                )
            };
            t.guess(text, vec![(r, c, cell_state(guess.value))]);
            t.snapshot(grid.iter().map(|&c| cell_state(c)));
        }
        self.queue_cell(guess.cell);
        Ok(self.propagate(grid)?.is_some())
    }
}

/// A search branch of a traced solve: the cell it sets and where the trace stood before it.
#[derive(Clone, Copy)]
struct Guess {
    mark: crate::trace::Mark,
    cell: usize,
    value: u8,
    /// Whether the other value was tried first and failed.
    second: bool,
}

fn cell_state(value: u8) -> Cell {
    match value {
        FILLED => Cell::Filled,
        EMPTY => Cell::Empty,
        _ => Cell::Unknown,
    }
}

impl Puzzle {
    /// `row 7` or `column 3`, counted from 1.
    fn line_name(&self, index: usize) -> String {
        if index < self.height {
            format!("row {}", index + 1)
        } else {
            format!("column {}", index - self.height + 1)
        }
    }
}

/// Records a line solve that set `changes` (position in the line, new value): `open` when the
/// line was all unknown before, `done` when it is all known after.
fn line_step(
    t: &mut Tracer,
    puzzle: &Puzzle,
    index: usize,
    changes: &[(usize, u8)],
    open: bool,
    done: bool,
) {
    let is_row = index < puzzle.height;
    let at = |i: usize| {
        if is_row {
            (index, i)
        } else {
            (i, index - puzzle.height)
        }
    };
    let cells: Vec<(usize, usize, Cell)> = changes
        .iter()
        .map(|&(i, v)| {
            let (r, c) = at(i);
            (r, c, cell_state(v))
        })
        .collect();
    let clue = &puzzle.clues[index];
    let clue_text = if clue.is_empty() {
        "0".to_string()
    } else {
        clue.iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let name = puzzle.line_name(index);
    let text = if open && done {
        format!(
            "{name}: clue {clue_text} fits one way: all {} cells set",
            changes.len()
        )
    } else {
        let prefix = if is_row { "c" } else { "r" };
        let with = |value: u8| -> Vec<usize> {
            changes
                .iter()
                .filter(|&&(_, v)| v == value)
                .map(|&(i, _)| i)
                .collect()
        };
        let (filled, empty) = (with(FILLED), with(EMPTY));
        let mut parts = Vec::new();
        if !filled.is_empty() {
            parts.push(format!("fills {}", ranges(prefix, &filled)));
        }
        if !empty.is_empty() {
            parts.push(format!("leaves {} empty", ranges(prefix, &empty)));
        }
        let end = if done { "; the line is complete" } else { "" };
        format!(
            "{name}, clue {clue_text}: every way to fit it {}{end}",
            parts.join(" and ")
        )
    };
    t.step(text, cells);
}

/// Records the cells a probe of `cell` fixed because both of its values agree on them: the
/// cells open in `before` and known in `after`.
fn either_way_step(t: &mut Tracer, w: usize, cell: usize, before: &[u8], after: &[u8]) {
    let mut cells = Vec::new();
    let mut names = Vec::new();
    for (i, (&b, &a)) in before.iter().zip(after).enumerate() {
        if b == UNKNOWN && a != UNKNOWN {
            cells.push((i / w, i % w, cell_state(a)));
            let value = if a == FILLED { "filled" } else { "empty" };
            names.push(format!("{} {value}", cell_name(i / w, i % w)));
        }
    }
    t.step(
        format!(
            "{}: filled or empty, either way {}",
            cell_name(cell / w, cell % w),
            names.join(", ")
        ),
        cells,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unknown(n: usize) -> Vec<u8> {
        vec![UNKNOWN; n]
    }

    fn narrowed(cells: &[u8], clue: &[u32]) -> Option<Vec<u8>> {
        let mut line = cells.to_vec();
        narrow_line(clue, &mut line).then_some(line)
    }

    #[test]
    fn narrow_line_fixes_the_overlap_and_refuses_what_cannot_fit() {
        // 3 in 5 cells: the middle cell is filled whatever the placement.
        let states = narrowed(&unknown(5), &[3]).unwrap();
        assert_eq!(states, vec![UNKNOWN, UNKNOWN, FILLED, UNKNOWN, UNKNOWN]);
        // 2,1 in 5 cells with the first cell empty: only one placement.
        let mut cells = unknown(5);
        cells[0] = EMPTY;
        let states = narrowed(&cells, &[2, 1]).unwrap();
        assert_eq!(states, vec![EMPTY, FILLED, FILLED, EMPTY, FILLED]);
        assert!(narrowed(&cells, &[2, 2]).is_none());
        // An empty clue (or a 0, its usual spelling) leaves every cell empty; a filled cell
        // refuses it.
        assert_eq!(narrowed(&unknown(3), &[]).unwrap(), vec![EMPTY; 3]);
        assert_eq!(narrowed(&unknown(3), &[0]).unwrap(), vec![EMPTY; 3]);
        cells = unknown(3);
        cells[1] = FILLED;
        assert!(narrowed(&cells, &[]).is_none());
    }

    use crate::kinds::nonogram::clue_of;

    fn clues(text: &str) -> Vec<Vec<u32>> {
        text.split('|')
            .map(|line| {
                line.split(',')
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse().unwrap())
                    .collect()
            })
            .collect()
    }

    fn picture(grid: &[Vec<bool>]) -> Vec<String> {
        grid.iter()
            .map(|row| row.iter().map(|&f| if f { '#' } else { '.' }).collect())
            .collect()
    }

    fn run(rows: &str, columns: &str, givens: &[(usize, usize)]) -> Outcome<Vec<String>> {
        solve(&clues(rows), &clues(columns), givens, &Deadline::none())
            .unwrap()
            .map(|g| picture(&g))
    }

    #[test]
    fn line_solver_finds_overlaps_and_forced_gaps() {
        let mut solver = LineSolver::default();
        let mut line = vec![UNKNOWN; 5];
        assert!(solver.solve(&[3], &mut line));
        assert_eq!(line, [UNKNOWN, UNKNOWN, FILLED, UNKNOWN, UNKNOWN]);
        let mut line = vec![UNKNOWN, FILLED, UNKNOWN, UNKNOWN, UNKNOWN];
        assert!(solver.solve(&[1, 1], &mut line));
        assert_eq!(line, [EMPTY, FILLED, EMPTY, UNKNOWN, UNKNOWN]);
        let mut line = vec![UNKNOWN; 3];
        assert!(!solver.solve(&[2, 1], &mut line));
        let mut line = vec![FILLED, UNKNOWN];
        assert!(!solver.solve(&[], &mut line));
    }

    #[test]
    fn mask_solver_agrees_with_cell_by_cell_solver() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut solver = LineSolver::default();
        let mut masks = MaskLineSolver::default();
        for _ in 0..20_000 {
            let n = match next() % 4 {
                0 => (next() % 6) as usize,
                1 => 120 + (next() % 7) as usize,
                _ => (next() % 40) as usize,
            };
            let clue: Vec<u32> = (0..next() % 8).map(|_| 1 + (next() % 5) as u32).collect();
            let line: Vec<u8> = (0..n)
                .map(|_| match next() % 10 {
                    0 => EMPTY,
                    1 => FILLED,
                    _ => UNKNOWN,
                })
                .collect();
            let mut by_cells = line.clone();
            let ok = solver.solve(&clue, &mut by_cells);
            if n == 0 {
                assert_eq!(ok, clue.is_empty());
                continue;
            }
            let mask =
                |value: u8| (0..n).fold(0u128, |m, t| m | u128::from(line[t] & value != 0) << t);
            let by_masks = masks.solve(&clue, n, mask(EMPTY), mask(FILLED));
            let from_cells = ok.then(|| {
                let mask = |value: u8| {
                    (0..n).fold(0u128, |m, t| m | u128::from(by_cells[t] & value != 0) << t)
                };
                (mask(EMPTY), mask(FILLED))
            });
            assert_eq!(from_cells, by_masks, "{clue:?} {line:?}");
        }
    }

    #[test]
    fn unique_picture() {
        // A plus sign.
        let outcome = run("1|3|1", "1|3|1", &[]);
        assert_eq!(
            outcome,
            Outcome::Unique(vec![".#.".into(), "###".into(), ".#.".into()])
        );
    }

    #[test]
    fn probing_finishes_what_line_solving_cannot() {
        let (rows, columns) = (clues("1,1|2|2"), clues("1|1|2|2"));
        let puzzle = Puzzle::new(&rows, &columns);
        let mut grid = puzzle.initial_grid(&[]).unwrap();
        let deadline = Deadline::none();
        let mut engine = Engine::new(&puzzle, &deadline, NoTrace);
        engine.queue_all();
        assert_eq!(engine.propagate(&mut grid), Ok(Some(4)));
        assert_eq!(grid.iter().filter(|&&c| c == UNKNOWN).count(), 8);
        let outcome = run("1,1|2|2", "1|1|2|2", &[]);
        assert_eq!(
            outcome,
            Outcome::Unique(["#..#", "..##", ".##."].map(String::from).to_vec())
        );
    }

    #[test]
    fn lines_too_long_for_masks() {
        // Every column holds one filled cell, so row 1 takes the two columns row 0 leaves, which
        // must not touch: row 0 sits one cell in from the left.
        let rows = vec![vec![128], vec![1, 1]];
        let columns = vec![vec![1]; 130];
        let outcome = solve(&rows, &columns, &[], &Deadline::none()).unwrap();
        let Outcome::Unique(grid) = outcome else {
            panic!("{outcome:?}")
        };
        assert!(grid[0][1..129].iter().all(|&f| f) && !grid[0][0] && !grid[0][129]);
        assert!(grid[1][0] && grid[1][129] && grid[1][1..129].iter().all(|&f| !f));
    }

    #[test]
    fn two_diagonals_are_several() {
        let outcome = run("1|1", "1|1", &[]);
        assert!(matches!(outcome, Outcome::Several(_)), "{outcome:?}");
    }

    #[test]
    fn a_given_cell_makes_it_unique() {
        let outcome = run("1|1", "1|1", &[(0, 1)]);
        assert_eq!(outcome, Outcome::Unique(vec![".#".into(), "#.".into()]));
    }

    #[test]
    fn contradicting_given_has_no_solution() {
        assert_eq!(run("1|", "1|", &[(1, 1)]), Outcome::NoSolution);
    }

    #[test]
    fn empty_rows_and_zero_clues() {
        assert_eq!(
            run("|0|", "0|0|0", &[]),
            Outcome::Unique(vec!["...".into(); 3])
        );
    }

    #[test]
    fn inconsistent_sums_have_no_solution() {
        assert_eq!(run("2|1", "1|1", &[]), Outcome::NoSolution);
        let d = deduce(&clues("2|1"), &clues("1|1"), &[], &Deadline::none()).unwrap();
        assert_eq!(d, None);
    }

    #[test]
    fn clue_longer_than_line_has_no_solution() {
        assert_eq!(run("3|", "1|1", &[]), Outcome::NoSolution);
        assert_eq!(run("1,1|", "1|1", &[]), Outcome::NoSolution);
    }

    #[test]
    fn same_sums_but_no_arrangement() {
        // Rows want the middle column, the columns forbid it.
        assert_eq!(run("1|1", "2|0", &[(0, 1)]), Outcome::NoSolution);
    }

    #[test]
    fn zero_by_zero_and_degenerate_shapes() {
        assert_eq!(
            solve(&[], &[], &[], &Deadline::none()),
            Ok(Outcome::Unique(vec![]))
        );
        assert_eq!(deduce(&[], &[], &[], &Deadline::none()), Ok(Some(vec![])));
        // Three empty rows with no columns: three rows of nothing.
        let no_columns = solve(&clues("||"), &[], &[], &Deadline::none()).unwrap();
        assert_eq!(no_columns, Outcome::Unique(vec![vec![]; 3]));
        assert_eq!(
            solve(&[], &[vec![1]], &[], &Deadline::none()),
            Ok(Outcome::NoSolution)
        );
        assert_eq!(
            solve(&[], &[vec![]], &[], &Deadline::none()),
            Ok(Outcome::Unique(vec![]))
        );
    }

    #[test]
    fn deduce_leaves_ambiguous_cells_open() {
        let known = deduce(&clues("1|1"), &clues("1|1"), &[], &Deadline::none())
            .unwrap()
            .unwrap();
        assert_eq!(known, vec![vec![None, None], vec![None, None]]);
        let known = deduce(&clues("1|3|1"), &clues("1|3|1"), &[], &Deadline::none())
            .unwrap()
            .unwrap();
        assert!(known.iter().flatten().all(Option::is_some));
    }

    #[test]
    fn expired_deadline_times_out_on_open_puzzles() {
        let past = Deadline::after(std::time::Duration::ZERO);
        assert_eq!(
            solve(&clues("1|1"), &clues("1|1"), &[], &past),
            Err(TimedOut)
        );
    }

    /// Counts solutions up to two by trying every row that fits its clue.
    fn brute_force(rows: &[Vec<u32>], columns: &[Vec<u32>]) -> usize {
        let w = columns.len();
        let options: Vec<Vec<Vec<bool>>> = rows
            .iter()
            .map(|clue| {
                (0..1u32 << w)
                    .map(|bits| (0..w).map(|c| bits >> c & 1 == 1).collect::<Vec<_>>())
                    .filter(|row| clue_of(row.iter().copied()) == *clue)
                    .collect()
            })
            .collect();
        let mut count = 0;
        let mut pick = vec![0; rows.len()];
        'outer: loop {
            let grid: Vec<&Vec<bool>> = pick.iter().zip(&options).map(|(&i, o)| &o[i]).collect();
            if options.iter().all(|o| !o.is_empty())
                && (0..w).all(|c| clue_of(grid.iter().map(|row| row[c])) == columns[c])
            {
                count += 1;
                if count == 2 {
                    return count;
                }
            }
            for r in 0..rows.len() {
                if pick[r] + 1 < options[r].len() {
                    pick[r] += 1;
                    continue 'outer;
                }
                pick[r] = 0;
            }
            return count;
        }
    }

    #[test]
    fn random_puzzles_agree_with_brute_force() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..300 {
            let (w, h) = (2 + next() as usize % 5, 2 + next() as usize % 5);
            let density = next() % 100;
            let cells: Vec<Vec<bool>> = (0..h)
                .map(|_| (0..w).map(|_| next() % 100 < density).collect())
                .collect();
            let rows: Vec<Vec<u32>> = cells.iter().map(|r| clue_of(r.iter().copied())).collect();
            let mut columns: Vec<Vec<u32>> = (0..w)
                .map(|c| clue_of(cells.iter().map(|r| r[c])))
                .collect();
            if round % 3 == 0 {
                // Moving a block boundary keeps the sums but usually breaks the puzzle.
                let c = next() as usize % w;
                if let Some(last) = columns[c].pop() {
                    columns[c].push(1);
                    if last > 1 {
                        columns[c].push(last - 1);
                    }
                }
            }
            let expected = brute_force(&rows, &columns);
            let outcome = solve(&rows, &columns, &[], &Deadline::none()).unwrap();
            if let Some(grid) = outcome.solution() {
                assert_eq!(
                    rows,
                    grid.iter()
                        .map(|r| clue_of(r.iter().copied()))
                        .collect::<Vec<_>>()
                );
                let got: Vec<Vec<u32>> =
                    (0..w).map(|c| clue_of(grid.iter().map(|r| r[c]))).collect();
                assert_eq!(columns, got);
            }
            let count = match outcome {
                Outcome::NoSolution => 0,
                Outcome::Unique(_) => 1,
                Outcome::Several(_) => 2,
            };
            assert_eq!(count, expected, "rows {rows:?} columns {columns:?}");
            // Whatever deduce fixes must agree with every solution, here the one found.
            let known = deduce(&rows, &columns, &[], &Deadline::none()).unwrap();
            match (known, outcome.solution()) {
                (None, found) => assert_eq!(found, None),
                (Some(known), Some(grid)) => {
                    for (k, g) in known.iter().flatten().zip(grid.iter().flatten()) {
                        assert!(k.is_none_or(|k| k == *g));
                    }
                }
                (Some(_), None) => {}
            }
        }
    }
}
