//! Nurikabe solver: finds a solution and proves whether it is the only one.
//!
//! Each cell is unknown, land or water. Deduction rules run to a fixpoint (island merging and
//! completion, reachability of islands, water connectivity through articulation points, 2x2
//! pools, cell counts). Where they stall, each unknown cell next to an unfinished island is tried
//! both ways (a value that leads to a contradiction fixes the other), and only then does a
//! depth-first search branch on the most telling cell. The search stops after the second solution,
//! so the verdict is exact; every solution is checked against the rules before it is reported.
//!
//! [`solve_traced`] runs the same solver with a [`Recorder`] that writes each rule's cells, each
//! probe and each guess on the path to the first solution; [`solve`] records nothing and pays
//! nothing for it. It does not read or print puzzles or grade difficulty. Clues that
//! share a cell, lie outside the grid or have size 0 make the puzzle unsolvable.

use crate::grid::Rows;
use crate::limits::{Deadline, TimedOut};
use crate::outcome::Outcome;
use crate::trace::{cell_name, Cell, Mark, NoTrace, Recorder, Trace, Tracer};

const UNKNOWN: u8 = 0;
const LAND: u8 = 1;
const WATER: u8 = 2;
const NONE: u32 = u32::MAX;

/// A rule found the state impossible; the branch that produced it has no solution.
struct Contradiction;

type Step = Result<bool, Contradiction>;

/// clues = (row counted from the TOP, column from the left, island size). Result grid[r][c] == true means land (island), false water.
pub fn solve(
    width: usize,
    height: usize,
    clues: &[(usize, usize, u32)],
    deadline: &Deadline,
) -> Result<Outcome<Vec<Vec<bool>>>, TimedOut> {
    Ok(run(width, height, clues, &[], deadline, NoTrace)?.0)
}

/// Like [`solve`], starting from the cells in `known` as (row, column, land) besides the clues
/// (for a hint, the cells a player has set), and also giving the steps to the first solution.
pub fn solve_traced(
    width: usize,
    height: usize,
    clues: &[(usize, usize, u32)],
    known: &[(usize, usize, bool)],
    deadline: &Deadline,
) -> Result<(Outcome<Rows>, Trace), TimedOut> {
    let tracer = Tracer::new(width, height);
    let (outcome, tracer) = run(width, height, clues, known, deadline, tracer)?;
    Ok((outcome, tracer.into_trace()))
}

fn run<R: Recorder>(
    width: usize,
    height: usize,
    clues: &[(usize, usize, u32)],
    known: &[(usize, usize, bool)],
    deadline: &Deadline,
    rec: R,
) -> Result<(Outcome<Rows>, R), TimedOut> {
    let Some(puzzle) = Puzzle::new(width, height, clues) else {
        return Ok((Outcome::NoSolution, rec));
    };
    let mut solver = Solver::new(puzzle, rec);
    let mut first: Option<Vec<u8>> = None;
    let mut several = false;
    let mut root = solver.initial_cells();
    for &(r, c, land) in known {
        if r < height && c < width {
            let cell = &mut root[r * width + c];
            if *cell == LAND && !land {
                return Ok((Outcome::NoSolution, solver.rec));
            }
            *cell = if land { LAND } else { WATER };
        }
    }
    // Each stacked board is a branch still to explore; boards are small enough that copying
    // them is cheaper than undoing moves.
    let mut stack = vec![root];
    // Traced solves only: the guess each stacked board stands for, beside `stack`.
    let mut guesses: Vec<Option<(Mark, usize, u8)>> =
        if R::ENABLED { vec![None] } else { Vec::new() };
    while let Some(mut cells) = stack.pop() {
        deadline.check()?;
        if let Some((mark, cell, value)) = guesses.pop().flatten() {
            solver.record_guess(mark, cell, value);
        }
        if solver.propagate(&mut cells).is_err() {
            continue;
        }
        match solver.probe(&mut cells, deadline)? {
            Probe::Dead => {}
            Probe::Branch(cell) => {
                let mut water = cells.clone();
                water[cell] = WATER;
                cells[cell] = LAND;
                stack.push(water);
                stack.push(cells);
                if R::ENABLED {
                    let mark = solver.rec.tracer().map(|t| t.mark());
                    guesses.push(mark.map(|m| (m, cell, WATER)));
                    guesses.push(mark.map(|m| (m, cell, LAND)));
                }
            }
            Probe::Decided => {
                if !solver.p.is_solution(&cells) {
                    continue;
                }
                if let Some(t) = solver.rec.tracer() {
                    t.freeze();
                }
                if first.is_some() {
                    several = true;
                    break;
                }
                first = Some(cells);
            }
        }
    }
    let w = solver.p.w;
    let to_rows = |cells: Vec<u8>| -> Vec<Vec<bool>> {
        (0..solver.p.h)
            .map(|r| {
                cells[r * w..(r + 1) * w]
                    .iter()
                    .map(|&c| c == LAND)
                    .collect()
            })
            .collect()
    };
    let outcome = match first {
        None => Outcome::NoSolution,
        Some(cells) if several => Outcome::Several(to_rows(cells)),
        Some(cells) => Outcome::Unique(to_rows(cells)),
    };
    Ok((outcome, solver.rec))
}

fn cell_state(value: u8) -> Cell {
    match value {
        LAND => Cell::Filled,
        WATER => Cell::Empty,
        _ => Cell::Unknown,
    }
}

fn value_name(value: u8) -> &'static str {
    if value == LAND {
        "land"
    } else {
        "water"
    }
}

/// The fixed part of a puzzle: geometry and clues.
struct Puzzle {
    w: usize,
    h: usize,
    n: usize,
    adj: Vec<[u32; 4]>,
    deg: Vec<u8>,
    /// Index into `clue_size` of the clue in each cell, or `NONE`.
    clue_at: Vec<u32>,
    clue_size: Vec<u32>,
    clue_cell: Vec<u32>,
    max_size: u32,
    total_land: usize,
    total_water: usize,
}

impl Puzzle {
    /// `None` when the clues contradict each other or the grid before any search.
    fn new(w: usize, h: usize, clues: &[(usize, usize, u32)]) -> Option<Puzzle> {
        let n = w.checked_mul(h)?;
        u32::try_from(n).ok()?;
        let mut clue_at = vec![NONE; n];
        let mut clue_size = Vec::with_capacity(clues.len());
        let mut clue_cell = Vec::with_capacity(clues.len());
        let mut total_land: u64 = 0;
        for &(r, c, size) in clues {
            if r >= h || c >= w || size == 0 {
                return None;
            }
            let cell = r * w + c;
            if clue_at[cell] != NONE {
                return None;
            }
            clue_at[cell] = clue_size.len() as u32;
            clue_size.push(size);
            clue_cell.push(cell as u32);
            total_land += u64::from(size);
        }
        if total_land > n as u64 {
            return None;
        }
        let mut adj = vec![[0u32; 4]; n];
        let mut deg = vec![0u8; n];
        for r in 0..h {
            for c in 0..w {
                let i = r * w + c;
                let mut push = |j: usize| {
                    adj[i][deg[i] as usize] = j as u32;
                    deg[i] += 1;
                };
                if r > 0 {
                    push(i - w);
                }
                if c > 0 {
                    push(i - 1);
                }
                if c + 1 < w {
                    push(i + 1);
                }
                if r + 1 < h {
                    push(i + w);
                }
            }
        }
        let total_land = total_land as usize;
        Some(Puzzle {
            w,
            h,
            n,
            adj,
            deg,
            clue_at,
            max_size: clue_size.iter().copied().max().unwrap_or(0),
            clue_size,
            clue_cell,
            total_land,
            total_water: n - total_land,
        })
    }

    fn neighbours(&self, cell: usize) -> &[u32] {
        &self.adj[cell][..self.deg[cell] as usize]
    }

    /// Checks a fully decided grid against the rules, independently of the deductions.
    fn is_solution(&self, cells: &[u8]) -> bool {
        if cells.contains(&UNKNOWN) {
            return false;
        }
        let mut seen = vec![false; self.n];
        let mut queue = Vec::with_capacity(self.n);
        let mut water_regions = 0;
        for start in 0..self.n {
            if seen[start] {
                continue;
            }
            let kind = cells[start];
            seen[start] = true;
            queue.clear();
            queue.push(start as u32);
            let mut clue = NONE;
            let mut i = 0;
            while i < queue.len() {
                let c = queue[i] as usize;
                i += 1;
                if kind == LAND && self.clue_at[c] != NONE {
                    if clue != NONE {
                        return false;
                    }
                    clue = self.clue_at[c];
                }
                for &d in self.neighbours(c) {
                    let d = d as usize;
                    if !seen[d] && cells[d] == kind {
                        seen[d] = true;
                        queue.push(d as u32);
                    }
                }
            }
            if kind == LAND {
                if clue == NONE || self.clue_size[clue as usize] as usize != queue.len() {
                    return false;
                }
            } else {
                water_regions += 1;
            }
        }
        let pool = (1..self.h).any(|r| {
            (1..self.w).any(|c| {
                let i = r * self.w + c;
                [i, i - 1, i - self.w, i - self.w - 1]
                    .iter()
                    .all(|&j| cells[j] == WATER)
            })
        });
        water_regions <= 1 && !pool && self.clue_cell.iter().all(|&c| cells[c as usize] == LAND)
    }
}

/// Deduction engine: the puzzle plus scratch space reused across calls so that propagation does
/// not allocate.
struct Solver<R> {
    p: Puzzle,
    /// Land component of each land cell at the last labelling, or `NONE`.
    comp: Vec<u32>,
    comp_clue: Vec<u32>,
    comp_size: Vec<u32>,
    /// Cells of component `k` are `comp_cells[comp_start[k]..comp_start[k + 1]]`.
    comp_start: Vec<u32>,
    comp_cells: Vec<u32>,
    /// Generation stamps: `mark[i] == gen` means visited in the current sweep.
    mark: Vec<u32>,
    gen: u32,
    dist: Vec<u32>,
    queue: Vec<u32>,
    reached: Vec<bool>,
    /// Clued component next to each non-land cell, or `NONE`.
    owner_adj: Vec<u32>,
    /// Tarjan discovery times and low links, valid for cells with the current `articulate` stamp.
    disc: Vec<u32>,
    low: Vec<u32>,
    sub_water: Vec<u32>,
    sub_size: Vec<u32>,
    cut_size: Vec<u32>,
    cut_wet_pieces: Vec<u32>,
    /// Cells found to be land while other islands are still being examined.
    forced: Vec<u32>,
    cands: Vec<u32>,
    /// Boards for the two trials of a probe.
    trial_water: Vec<u8>,
    trial_land: Vec<u8>,
    dfs: Vec<(u32, u8)>,
    /// Traced solves only: for each cell of `forced`, its island and whether a cut forced it.
    forced_why: Vec<(u32, bool)>,
    rec: R,
}

impl<R: Recorder> Solver<R> {
    fn new(p: Puzzle, rec: R) -> Solver<R> {
        let n = p.n;
        Solver {
            comp: vec![NONE; n],
            comp_clue: Vec::new(),
            comp_size: Vec::new(),
            comp_start: Vec::new(),
            comp_cells: Vec::with_capacity(n),
            mark: vec![0; n],
            gen: 0,
            dist: vec![0; n],
            queue: Vec::with_capacity(n),
            reached: vec![false; n],
            owner_adj: vec![NONE; n],
            disc: vec![0; n],
            low: vec![0; n],
            sub_water: vec![0; n],
            sub_size: vec![0; n],
            cut_size: vec![0; n],
            cut_wet_pieces: vec![0; n],
            forced: Vec::new(),
            cands: Vec::new(),
            trial_water: vec![UNKNOWN; n],
            trial_land: vec![UNKNOWN; n],
            dfs: Vec::with_capacity(n),
            forced_why: Vec::new(),
            rec,
            p,
        }
    }

    fn initial_cells(&self) -> Vec<u8> {
        let mut cells = vec![UNKNOWN; self.p.n];
        for &c in &self.p.clue_cell {
            cells[c as usize] = LAND;
        }
        cells
    }

    fn next_gen(&mut self) -> u32 {
        if self.gen == u32::MAX {
            self.mark.fill(0);
            self.gen = 0;
        }
        self.gen += 1;
        self.gen
    }

    /// Records that `cell` was set to `value` for the reason `why` gives; consecutive cells with
    /// the same reason make one step. Free when not recording.
    #[inline(always)]
    fn note(&mut self, cell: usize, value: u8, why: impl FnOnce(&Self) -> String) {
        if R::ENABLED && self.rec.tracer().is_some() {
            let reason = why(self);
            let w = self.p.w;
            if let Some(t) = self.rec.tracer() {
                t.merge(&reason, (cell / w, cell % w, cell_state(value)));
            }
        }
    }

    /// `the island of 3 at r2c5`, or `unnumbered land at r4c4` for a component without a clue.
    fn island_name(&self, id: usize) -> String {
        let clue = self.comp_clue[id];
        if clue == NONE {
            let c = self.comp_cells[self.comp_start[id] as usize] as usize;
            format!("unnumbered land at {}", self.name(c))
        } else {
            let c = self.p.clue_cell[clue as usize] as usize;
            format!(
                "the island of {} at {}",
                self.p.clue_size[clue as usize],
                self.name(c)
            )
        }
    }

    fn name(&self, cell: usize) -> String {
        cell_name(cell / self.p.w, cell % self.p.w)
    }

    /// Records a search guess, first dropping the steps of the branch tried before it.
    fn record_guess(&mut self, mark: Mark, cell: usize, value: u8) {
        let name = self.name(cell);
        if let Some(t) = self.rec.tracer() {
            t.rewind(mark.steps, mark.depth);
            let text = if value == WATER {
                format!(
                    "{name}: land led to no solution, so it is water (search depth {})",
                    mark.depth + 1
                )
            } else {
                format!(
                    "{name}: no deduction left; guess land (search depth {})",
                    mark.depth + 1
                )
            };
            t.guess(
                text,
                vec![(cell / self.p.w, cell % self.p.w, cell_state(value))],
            );
        }
    }

    /// Runs all rules until none changes anything.
    fn propagate(&mut self, cells: &mut [u8]) -> Result<(), Contradiction> {
        loop {
            self.label_land(cells)?;
            // The local rules never read the labelling they may have made stale, so they run
            // together; the global ones need it fresh.
            let local =
                self.island_rules(cells)? | self.pool_rule(cells)? | self.count_rule(cells)?;
            let changed = local
                || self.water_rule(cells)?
                || self.reach_rule(cells, false)?
                || self.reach_rule(cells, true)?;
            if let Some(t) = self.rec.tracer() {
                t.snapshot(cells.iter().map(|&c| cell_state(c)));
            }
            if !changed {
                return Ok(());
            }
        }
    }

    fn comp_limit(&self, clue: u32) -> u32 {
        if clue == NONE {
            // A land region without a clue must still join one, adding at least that clue cell.
            self.p.max_size.saturating_sub(1)
        } else {
            self.p.clue_size[clue as usize]
        }
    }

    /// Labels land components; fails if one holds two clues or is too big for any island.
    fn label_land(&mut self, cells: &[u8]) -> Result<(), Contradiction> {
        self.comp.fill(NONE);
        self.comp_clue.clear();
        self.comp_size.clear();
        self.comp_start.clear();
        self.comp_cells.clear();
        for s in 0..self.p.n {
            if cells[s] != LAND || self.comp[s] != NONE {
                continue;
            }
            let id = self.comp_clue.len() as u32;
            let start = self.comp_cells.len();
            self.comp_start.push(start as u32);
            self.comp[s] = id;
            self.comp_cells.push(s as u32);
            let mut clue = NONE;
            let mut i = start;
            while i < self.comp_cells.len() {
                let c = self.comp_cells[i] as usize;
                i += 1;
                let k = self.p.clue_at[c];
                if k != NONE {
                    if clue != NONE {
                        return Err(Contradiction);
                    }
                    clue = k;
                }
                for &d in self.p.neighbours(c) {
                    let d = d as usize;
                    if cells[d] == LAND && self.comp[d] == NONE {
                        self.comp[d] = id;
                        self.comp_cells.push(d as u32);
                    }
                }
            }
            let size = (self.comp_cells.len() - start) as u32;
            if size > self.comp_limit(clue) {
                return Err(Contradiction);
            }
            self.comp_clue.push(clue);
            self.comp_size.push(size);
        }
        self.comp_start.push(self.comp_cells.len() as u32);
        Ok(())
    }

    /// Rules local to land components. Cells set land here are not yet labelled, so the
    /// frontier counts below treat any cell that is not water as a possible way out.
    #[allow(clippy::needless_range_loop)] // the index also addresses the neighbour table
    fn island_rules(&mut self, cells: &mut [u8]) -> Step {
        let mut changed = false;
        // A cell that would join two clues, or make an island too big, is water.
        for u in 0..self.p.n {
            if cells[u] != UNKNOWN {
                continue;
            }
            let mut seen = [NONE; 4];
            let mut ns = 0;
            let mut merged = 1;
            let mut clue = NONE;
            let mut two_clues = false;
            for &d in self.p.neighbours(u) {
                let id = self.comp[d as usize];
                if id == NONE || seen[..ns].contains(&id) {
                    continue;
                }
                seen[ns] = id;
                ns += 1;
                merged += self.comp_size[id as usize];
                let k = self.comp_clue[id as usize];
                if k != NONE {
                    two_clues |= clue != NONE && clue != k;
                    clue = k;
                }
            }
            if ns > 0 && (two_clues || merged > self.comp_limit(clue)) {
                cells[u] = WATER;
                changed = true;
                let first = seen[0] as usize;
                self.note(u, WATER, |s| {
                    if two_clues {
                        "cells touching two islands are water".to_string()
                    } else if ns == 1
                        && clue != NONE
                        && s.comp_size[first] == s.p.clue_size[clue as usize]
                    {
                        format!(
                            "{} is complete: its neighbours are water",
                            s.island_name(first)
                        )
                    } else if clue != NONE {
                        let c = s.p.clue_cell[clue as usize] as usize;
                        format!(
                            "land here would make the island of {} at {} too big: water",
                            s.p.clue_size[clue as usize],
                            s.name(c)
                        )
                    } else {
                        "land here would join unnumbered land larger than any island: water"
                            .to_string()
                    }
                });
            }
        }
        // An unfinished component with one way out takes it.
        for id in 0..self.comp_size.len() {
            let clue = self.comp_clue[id];
            if clue != NONE && self.comp_size[id] == self.p.clue_size[clue as usize] {
                continue;
            }
            let gen = self.next_gen();
            let (mut count, mut first, mut second) = (0, NONE, NONE);
            let range = self.comp_start[id] as usize..self.comp_start[id + 1] as usize;
            for &c in &self.comp_cells[range] {
                for &d in self.p.neighbours(c as usize) {
                    let du = d as usize;
                    if cells[du] == WATER || self.comp[du] == id as u32 || self.mark[du] == gen {
                        continue;
                    }
                    self.mark[du] = gen;
                    count += 1;
                    if first == NONE {
                        first = d;
                    } else if second == NONE {
                        second = d;
                    }
                }
            }
            match count {
                0 => return Err(Contradiction),
                1 if cells[first as usize] == UNKNOWN => {
                    cells[first as usize] = LAND;
                    changed = true;
                    self.note(first as usize, LAND, |s| {
                        format!("{} has one way to grow: land", s.island_name(id))
                    });
                }
                2 if clue != NONE && self.p.clue_size[clue as usize] - self.comp_size[id] == 1 => {
                    // One cell left and two diagonal candidates: the cell touching both would
                    // border the finished island either way.
                    let (a, b) = (first as usize, second as usize);
                    if cells[a] != UNKNOWN || cells[b] != UNKNOWN {
                        continue;
                    }
                    let w = self.p.w;
                    let (ra, ca, rb, cb) = (a / w, a % w, b / w, b % w);
                    if ra.abs_diff(rb) == 1 && ca.abs_diff(cb) == 1 {
                        for x in [ra * w + cb, rb * w + ca] {
                            if self.comp[x] != id as u32 && cells[x] == UNKNOWN {
                                cells[x] = WATER;
                                changed = true;
                                self.note(x, WATER, |s| {
                                    format!(
                                        "{} needs one more cell, at {} or {}; either way this cell borders it: water",
                                        s.island_name(id),
                                        s.name(a),
                                        s.name(b)
                                    )
                                });
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        Ok(changed)
    }

    /// No 2x2 block is all water.
    fn pool_rule(&mut self, cells: &mut [u8]) -> Step {
        let w = self.p.w;
        let mut changed = false;
        for r in 1..self.p.h {
            for c in 1..w {
                let block = [
                    r * w + c,
                    r * w + c - 1,
                    (r - 1) * w + c,
                    (r - 1) * w + c - 1,
                ];
                let mut water = 0;
                let mut unknown = NONE as usize;
                let mut unknowns = 0;
                for &i in &block {
                    match cells[i] {
                        WATER => water += 1,
                        UNKNOWN => {
                            unknowns += 1;
                            unknown = i;
                        }
                        _ => {}
                    }
                }
                if water == 4 {
                    return Err(Contradiction);
                }
                if water == 3 && unknowns == 1 {
                    cells[unknown] = LAND;
                    changed = true;
                    self.note(unknown, LAND, |_| {
                        "the other three cells of a 2x2 block are water; no pools: land".to_string()
                    });
                }
            }
        }
        Ok(changed)
    }

    /// The clues fix how many cells are land and how many water.
    fn count_rule(&mut self, cells: &mut [u8]) -> Step {
        let (mut land, mut water) = (0, 0);
        for &c in cells.iter() {
            match c {
                LAND => land += 1,
                WATER => water += 1,
                _ => {}
            }
        }
        if land > self.p.total_land || water > self.p.total_water {
            return Err(Contradiction);
        }
        let fill = if land == self.p.total_land {
            WATER
        } else if water == self.p.total_water {
            LAND
        } else {
            return Ok(false);
        };
        let mut changed = false;
        for (c, cell) in cells.iter_mut().enumerate() {
            if *cell == UNKNOWN {
                *cell = fill;
                changed = true;
                self.note(c, fill, |s| {
                    if fill == WATER {
                        format!(
                            "all {} land cells are found: the rest is water",
                            s.p.total_land
                        )
                    } else {
                        format!(
                            "all {} water cells are found: the rest is land",
                            s.p.total_water
                        )
                    }
                });
            }
        }
        Ok(changed)
    }

    /// Cells no unfinished island can reach within its remaining size are water; land without a
    /// clue that none can reach is a contradiction; an island whose reachable cells are too few
    /// fails, and a cell every way of completing it must pass through is land. Needs a fresh
    /// labelling.
    #[allow(clippy::needless_range_loop)] // the index also addresses the neighbour table
    fn reach_rule(&mut self, cells: &mut [u8], with_cuts: bool) -> Step {
        self.reached.fill(false);
        self.owner_adj.fill(NONE);
        self.forced.clear();
        self.forced_why.clear();
        let ncomp = self.comp_size.len();
        for id in 0..ncomp {
            if self.comp_clue[id] == NONE {
                continue;
            }
            for &c in
                &self.comp_cells[self.comp_start[id] as usize..self.comp_start[id + 1] as usize]
            {
                for &d in self.p.neighbours(c as usize) {
                    if cells[d as usize] != LAND {
                        self.owner_adj[d as usize] = id as u32;
                    }
                }
            }
        }
        for id in 0..ncomp {
            let clue = self.comp_clue[id];
            if clue == NONE {
                continue;
            }
            let room = self.p.clue_size[clue as usize] - self.comp_size[id];
            if room == 0 {
                continue;
            }
            let gen = self.next_gen();
            self.queue.clear();
            let (lo, hi) = (
                self.comp_start[id] as usize,
                self.comp_start[id + 1] as usize,
            );
            for &c in &self.comp_cells[lo..hi] {
                self.mark[c as usize] = gen;
                self.dist[c as usize] = 0;
                self.queue.push(c);
            }
            let mut i = 0;
            while i < self.queue.len() {
                let c = self.queue[i] as usize;
                i += 1;
                let next = self.dist[c] + 1;
                if next > room {
                    continue;
                }
                for &d in self.p.neighbours(c) {
                    let du = d as usize;
                    if self.mark[du] == gen || cells[du] == WATER {
                        continue;
                    }
                    let other = self.comp[du];
                    if other != NONE && self.comp_clue[other as usize] != NONE {
                        continue;
                    }
                    if self.owner_adj[du] != NONE && self.owner_adj[du] != id as u32 {
                        continue;
                    }
                    self.mark[du] = gen;
                    self.dist[du] = next;
                    self.reached[du] = true;
                    self.queue.push(d);
                }
            }
            let size = (hi - lo) as u32;
            let region = self.queue.len() as u32 - size;
            if region < room {
                return Err(Contradiction);
            }
            if region == room {
                // Every reachable cell is needed.
                self.forced.extend_from_slice(&self.queue[size as usize..]);
                if R::ENABLED {
                    let added = self.forced.len() - self.forced_why.len();
                    self.forced_why
                        .extend(std::iter::repeat_n((id as u32, false), added));
                }
                continue;
            }
            if !with_cuts {
                continue;
            }
            // Cells whose loss leaves too little room, ignoring distances (which only shrink the
            // room further), belong to this island.
            let visited = self.articulate(self.comp_cells[lo] as usize, gen, cells);
            for &x in &self.queue[size as usize..] {
                let x = x as usize;
                if self.cut_size[x] > 0 && visited - 1 - self.cut_size[x] - size < room {
                    self.forced.push(x as u32);
                    if R::ENABLED {
                        self.forced_why.push((id as u32, true));
                    }
                }
            }
        }
        let mut changed = false;
        for c in 0..self.p.n {
            if self.reached[c] {
                continue;
            }
            match cells[c] {
                UNKNOWN => {
                    cells[c] = WATER;
                    changed = true;
                    self.note(c, WATER, |_| {
                        "no island can reach these cells: water".to_string()
                    });
                }
                LAND if self.comp_clue[self.comp[c] as usize] == NONE => return Err(Contradiction),
                _ => {}
            }
        }
        for k in 0..self.forced.len() {
            let x = self.forced[k];
            match cells[x as usize] {
                UNKNOWN => {
                    cells[x as usize] = LAND;
                    changed = true;
                    self.note(x as usize, LAND, |s| {
                        let (id, cut) = s.forced_why[k];
                        if cut {
                            format!(
                                "every way to complete {} passes through this cell: land",
                                s.island_name(id as usize)
                            )
                        } else {
                            format!(
                                "{} can reach just enough cells: they are all land",
                                s.island_name(id as usize)
                            )
                        }
                    });
                }
                WATER => return Err(Contradiction),
                _ => {}
            }
        }
        Ok(changed)
    }

    /// Water must stay connected and have room for all of itself: with the non-land cells as a
    /// graph, an unknown cell whose loss would split the water, or leave the water's part too
    /// small, is water; unknown cells cut off from all water are land.
    #[allow(clippy::needless_range_loop)] // the index also addresses the neighbour table
    fn water_rule(&mut self, cells: &mut [u8]) -> Step {
        let Some(root) = cells.iter().position(|&c| c == WATER) else {
            return Ok(false);
        };
        let gen = self.next_gen();
        for (m, &c) in self.mark.iter_mut().zip(cells.iter()) {
            if c != LAND {
                *m = gen;
            }
        }
        let visited = self.articulate(root, gen, cells);
        let wet = self.sub_water[root] as usize;
        let water = cells.iter().filter(|&&c| c == WATER).count();
        if wet < water || (visited as usize) < self.p.total_water {
            return Err(Contradiction);
        }
        let mut changed = false;
        for u in 0..self.p.n {
            if cells[u] != UNKNOWN {
                continue;
            }
            if self.mark[u] == gen {
                cells[u] = LAND;
                changed = true;
                self.note(u, LAND, |_| {
                    "walled off from the sea by land: land".to_string()
                });
                continue;
            }
            // Removing u leaves the pieces cut off below it and the rest, which holds the root.
            let rest = (visited - 1 - self.cut_size[u]) as usize;
            if self.cut_wet_pieces[u] > 0 || rest < self.p.total_water {
                cells[u] = WATER;
                changed = true;
                let split = self.cut_wet_pieces[u] > 0;
                self.note(u, WATER, |_| {
                    if split {
                        "the sea would be split without this cell: water".to_string()
                    } else {
                        "the sea would have too little room without this cell: water".to_string()
                    }
                });
            }
        }
        Ok(changed)
    }

    /// Tarjan's articulation points over the cells stamped `allowed` that are connected to
    /// `root`. Visited cells get a newer stamp; for each, `cut_size` and `cut_wet_pieces` give
    /// the size and the number of water-holding pieces that its removal would cut off from the
    /// root. Returns the number of cells visited.
    fn articulate(&mut self, root: usize, allowed: u32, cells: &[u8]) -> u32 {
        let seen = self.next_gen();
        self.dfs.clear();
        let mut time = 1;
        self.visit(root, seen, cells, time);
        while let Some(top) = self.dfs.last_mut() {
            let (v, i) = (top.0 as usize, top.1 as usize);
            if i < self.p.deg[v] as usize {
                top.1 += 1;
                let d = self.p.adj[v][i] as usize;
                if self.mark[d] == allowed {
                    time += 1;
                    self.visit(d, seen, cells, time);
                } else if self.mark[d] == seen && self.disc[d] < self.low[v] {
                    self.low[v] = self.disc[d];
                }
                continue;
            }
            self.dfs.pop();
            if let Some(&(p, _)) = self.dfs.last() {
                let p = p as usize;
                self.low[p] = self.low[p].min(self.low[v]);
                self.sub_water[p] += self.sub_water[v];
                self.sub_size[p] += self.sub_size[v];
                if self.low[v] >= self.disc[p] {
                    self.cut_size[p] += self.sub_size[v];
                    self.cut_wet_pieces[p] += u32::from(self.sub_water[v] > 0);
                }
            }
        }
        time
    }

    fn visit(&mut self, v: usize, seen: u32, cells: &[u8], time: u32) {
        self.mark[v] = seen;
        self.disc[v] = time;
        self.low[v] = time;
        self.sub_water[v] = u32::from(cells[v] == WATER);
        self.sub_size[v] = 1;
        self.cut_size[v] = 0;
        self.cut_wet_pieces[v] = 0;
        self.dfs.push((v as u32, 0));
    }

    /// Tries both values of each unknown cell next to an unfinished island: a value whose
    /// propagation fails fixes the other, and a value both agree on is fixed too. When nothing is
    /// left to learn, picks the cell whose two trials decided the most cells to branch on.
    fn probe(&mut self, cells: &mut [u8], deadline: &Deadline) -> Result<Probe, TimedOut> {
        let mut as_water = std::mem::take(&mut self.trial_water);
        let mut as_land = std::mem::take(&mut self.trial_land);
        let result = self.probe_with(cells, &mut as_water, &mut as_land, deadline);
        self.trial_water = as_water;
        self.trial_land = as_land;
        result
    }

    fn probe_with(
        &mut self,
        cells: &mut [u8],
        as_water: &mut [u8],
        as_land: &mut [u8],
        deadline: &Deadline,
    ) -> Result<Probe, TimedOut> {
        loop {
            let unknown = cells.iter().filter(|&&c| c == UNKNOWN).count();
            if unknown == 0 {
                return Ok(Probe::Decided);
            }
            self.candidates(cells);
            let candidates = std::mem::take(&mut self.cands);
            let mut best = (None, 0, 0);
            let mut learned = false;
            for &x in &candidates {
                let x = x as usize;
                if cells[x] != UNKNOWN {
                    continue;
                }
                deadline.check()?;
                // A hypothesis's consequences are not facts: they stay out of the explanation.
                self.rec.mute(true);
                as_water.copy_from_slice(cells);
                as_water[x] = WATER;
                let water_ok = self.propagate(as_water).is_ok();
                as_land.copy_from_slice(cells);
                as_land[x] = LAND;
                let land_ok = self.propagate(as_land).is_ok();
                self.rec.mute(false);
                match (water_ok, land_ok) {
                    (false, false) => {
                        self.cands = candidates;
                        return Ok(Probe::Dead);
                    }
                    (true, false) | (false, true) if R::ENABLED => {
                        // Set the one cell and let the recorded propagation below explain the
                        // rest (the untraced solve copies the trial's result instead).
                        let value = if water_ok { WATER } else { LAND };
                        let name = self.name(x);
                        if let Some(t) = self.rec.tracer() {
                            t.step(
                                format!(
                                    "{name}: assuming {} leads to a contradiction, so it is {}",
                                    value_name(WATER ^ LAND ^ value),
                                    value_name(value)
                                ),
                                vec![(x / self.p.w, x % self.p.w, cell_state(value))],
                            );
                        }
                        cells[x] = value;
                    }
                    (true, false) => cells.copy_from_slice(as_water),
                    (false, true) => cells.copy_from_slice(as_land),
                    (true, true) => {
                        let mut agreed = false;
                        let (mut fixed_water, mut fixed_land) = (0, 0);
                        for i in 0..cells.len() {
                            if cells[i] != UNKNOWN {
                                continue;
                            }
                            fixed_water += u32::from(as_water[i] != UNKNOWN);
                            fixed_land += u32::from(as_land[i] != UNKNOWN);
                            if as_water[i] == as_land[i] && as_water[i] != UNKNOWN {
                                cells[i] = as_water[i];
                                agreed = true;
                                self.note(i, cells[i], |s| {
                                    format!("{}: land or water, either way", s.name(x))
                                });
                            }
                        }
                        if !agreed {
                            let score = (fixed_water.min(fixed_land), fixed_water.max(fixed_land));
                            if best.0.is_none() || score > (best.1, best.2) {
                                best = (Some(x), score.0, score.1);
                            }
                            continue;
                        }
                    }
                }
                learned = true;
                if self.propagate(cells).is_err() {
                    self.cands = candidates;
                    return Ok(Probe::Dead);
                }
            }
            self.cands = candidates;
            if !learned {
                let fallback = || cells.iter().position(|&c| c == UNKNOWN);
                return Ok(match best.0.or_else(fallback) {
                    Some(x) => Probe::Branch(x),
                    None => Probe::Decided,
                });
            }
        }
    }

    /// Unknown cells next to unfinished land, from a fresh labelling.
    fn candidates(&mut self, cells: &[u8]) {
        self.cands.clear();
        let gen = self.next_gen();
        for id in 0..self.comp_size.len() {
            let clue = self.comp_clue[id];
            if clue != NONE && self.comp_size[id] == self.p.clue_size[clue as usize] {
                continue;
            }
            for &c in
                &self.comp_cells[self.comp_start[id] as usize..self.comp_start[id + 1] as usize]
            {
                for &d in self.p.neighbours(c as usize) {
                    if cells[d as usize] == UNKNOWN && self.mark[d as usize] != gen {
                        self.mark[d as usize] = gen;
                        self.cands.push(d);
                    }
                }
            }
        }
    }
}

/// What probing left of a search node.
enum Probe {
    /// No solution below this node.
    Dead,
    /// Every cell is decided.
    Decided,
    /// Both values of this cell remain possible.
    Branch(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(width: usize, height: usize, clues: &[(usize, usize, u32)]) -> Outcome<Vec<String>> {
        solve(width, height, clues, &Deadline::none())
            .expect("no deadline")
            .map(|g| {
                g.iter()
                    .map(|r| r.iter().map(|&b| if b { '#' } else { '.' }).collect())
                    .collect()
            })
    }

    fn unique(width: usize, height: usize, clues: &[(usize, usize, u32)]) -> Vec<String> {
        match run(width, height, clues) {
            Outcome::Unique(g) => g,
            other => panic!("expected a unique solution, got {other:?}"),
        }
    }

    #[test]
    fn small_unique_puzzle() {
        // The code-golf example `5,5 3,0,1 1,4,1 2,0,4 2,2,4 2,4,4`, rows counted from the top.
        let clues = [(3, 0, 3), (3, 4, 1), (0, 0, 2), (0, 2, 2), (0, 4, 2)];
        assert_eq!(
            unique(5, 5, &clues),
            ["#.#.#", "#.#.#", ".....", "###.#", "....."]
        );
    }

    #[test]
    fn larger_unique_puzzle() {
        // Wikipedia's "hard" example (10x9).
        let rows = [
            "2........2",
            "......2...",
            ".2..7.....",
            "..........",
            "......3.3.",
            "..2....3..",
            "2..4......",
            "..........",
            ".1....2.4.",
        ];
        let mut clues = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if let Some(size) = ch.to_digit(10) {
                    clues.push((r, c, size));
                }
            }
        }
        let grid = unique(10, 9, &clues);
        let land = grid
            .iter()
            .flat_map(|r| r.chars())
            .filter(|&c| c == '#')
            .count();
        assert_eq!(land, clues.iter().map(|c| c.2 as usize).sum::<usize>());
    }

    #[test]
    fn several_solutions() {
        // A 2 in the corner of a 2x2 grid may grow right or down.
        match run(2, 2, &[(0, 0, 2)]) {
            Outcome::Several(g) => assert!(g == ["##", ".."] || g == ["#.", "#."]),
            other => panic!("expected several, got {other:?}"),
        }
    }

    #[test]
    fn no_solution() {
        // Adjacent clues would share an island.
        assert_eq!(run(3, 1, &[(0, 0, 1), (0, 1, 1)]), Outcome::NoSolution);
        // The water of two diagonal 1s is split in two.
        assert_eq!(run(2, 2, &[(0, 0, 1), (1, 1, 1)]), Outcome::NoSolution);
        // A lone 1 in a corner leaves a pool in the opposite corner.
        assert_eq!(run(3, 3, &[(0, 0, 1)]), Outcome::NoSolution);
        // The same 1 in the middle is fine.
        assert_eq!(
            run(3, 3, &[(1, 1, 1)]),
            Outcome::Unique(vec!["...".into(), ".#.".into(), "...".into()])
        );
    }

    #[test]
    fn grids_without_clues() {
        assert_eq!(run(1, 1, &[]), Outcome::Unique(vec![".".to_string()]));
        assert_eq!(run(3, 1, &[]), Outcome::Unique(vec!["...".to_string()]));
        assert_eq!(run(2, 2, &[]), Outcome::NoSolution);
        assert_eq!(run(0, 0, &[]), Outcome::Unique(vec![]));
    }

    #[test]
    fn all_land() {
        assert_eq!(
            run(1, 1, &[(0, 0, 1)]),
            Outcome::Unique(vec!["#".to_string()])
        );
        assert_eq!(
            run(2, 2, &[(0, 0, 4)]),
            Outcome::Unique(vec!["##".to_string(), "##".to_string()])
        );
    }

    #[test]
    fn degenerate_input() {
        assert_eq!(run(2, 2, &[(0, 0, 0)]), Outcome::NoSolution);
        assert_eq!(run(3, 3, &[(1, 1, 1), (1, 1, 1)]), Outcome::NoSolution);
        assert_eq!(run(2, 2, &[(0, 0, 3), (1, 1, 3)]), Outcome::NoSolution);
        assert_eq!(run(2, 2, &[(5, 0, 1)]), Outcome::NoSolution);
        assert_eq!(run(3, 3, &[(0, 0, u32::MAX)]), Outcome::NoSolution);
        assert_eq!(run(usize::MAX, 2, &[]), Outcome::NoSolution);
    }

    #[test]
    fn expired_deadline_times_out() {
        let clues = [(3, 0, 3), (3, 4, 1), (0, 0, 2), (0, 2, 2), (0, 4, 2)];
        let deadline = Deadline::after(std::time::Duration::ZERO);
        assert_eq!(solve(5, 5, &clues, &deadline), Err(TimedOut));
    }

    /// Every solution reported for random small puzzles obeys the rules, and the verdict agrees
    /// with brute force over all grids.
    #[test]
    fn agrees_with_brute_force() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % bound
        };
        for _ in 0..300 {
            let (w, h) = (1 + next(4) as usize, 1 + next(4) as usize);
            let mut clues = Vec::new();
            for _ in 0..1 + next(3) {
                let (r, c) = (next(h as u64) as usize, next(w as u64) as usize);
                if !clues.iter().any(|&(cr, cc, _)| (cr, cc) == (r, c)) {
                    clues.push((r, c, 1 + next(4) as u32));
                }
            }
            let outcome = run(w, h, &clues);
            let Some(puzzle) = Puzzle::new(w, h, &clues) else {
                assert_eq!(outcome, Outcome::NoSolution, "{w}x{h} {clues:?}");
                continue;
            };
            let mut count = 0;
            for bits in 0u32..1 << (w * h) {
                let cells: Vec<u8> = (0..w * h)
                    .map(|i| if bits >> i & 1 == 1 { LAND } else { WATER })
                    .collect();
                count += usize::from(puzzle.is_solution(&cells));
            }
            if let Some(g) = outcome.solution() {
                let cells: Vec<u8> = g
                    .iter()
                    .flat_map(|r| r.chars())
                    .map(|c| if c == '#' { LAND } else { WATER })
                    .collect();
                assert!(puzzle.is_solution(&cells), "{w}x{h} {clues:?}");
            }
            let expected = match count {
                0 => "none",
                1 => "unique",
                _ => "several",
            };
            let got = match outcome {
                Outcome::NoSolution => "none",
                Outcome::Unique(_) => "unique",
                Outcome::Several(_) => "several",
            };
            assert_eq!(got, expected, "{w}x{h} {clues:?}");
        }
    }
}
