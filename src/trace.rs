//! What a solver did, step by step: the record behind `--explain` and `--hint`.
//!
//! A [`Trace`] is a list of [`Step`]s in the order the solver made them, each naming its rule and
//! the cells it set, with grid snapshots for a later animation. Solvers write it through the
//! [`Recorder`] trait: the unrecorded solve uses [`NoTrace`], whose methods are empty and inlined,
//! so recording costs nothing unless asked for. Steps on search branches that failed are dropped,
//! so the trace is the path to the first solution. This module does not solve or print anything.

use std::fmt::Write;

/// One cell's state in a step or snapshot. Nonogram cells are filled or empty; Nurikabe land is
/// `Filled` and water `Empty`; Sudoku cells hold digits; a jump-maze cell holds the number of the
/// jump that reached it (0 for the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    Unknown,
    Filled,
    Empty,
    Digit(u8),
    Jump(u32),
}

impl Cell {
    /// A Sudoku cell from its digit, 0 being open.
    pub fn from_digit(digit: u8) -> Cell {
        if digit == 0 {
            Cell::Unknown
        } else {
            Cell::Digit(digit)
        }
    }

    /// The cell as the solution text prints it: `#`, `.`, a digit or a jump number; `?` unknown.
    pub fn symbol(self) -> String {
        match self {
            Cell::Unknown => "?".into(),
            Cell::Filled => "#".into(),
            Cell::Empty => ".".into(),
            Cell::Digit(d) => d.to_string(),
            Cell::Jump(j) => j.to_string(),
        }
    }
}

/// A whole grid at one moment, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Cell>,
}

/// One deduction (or guess) and the cells it set, as (row, column, value), 0-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The deduction in words; cells are named `r3c4`, counted from 1 as puzzle fans do.
    pub text: String,
    pub cells_set: Vec<(usize, usize, Cell)>,
    /// How many guesses this step rests on: 0 means it follows from the puzzle alone.
    pub depth: usize,
    /// Whether the step is itself a guess (the solver branched here).
    pub guess: bool,
    /// The grid after this step, present at the end of each round of deductions (nonogram: each
    /// full line-solving pass and search decision; jump maze: each jump).
    pub snapshot: Option<Snapshot>,
}

/// The steps a solver took to its (first) solution.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Trace {
    pub steps: Vec<Step>,
}

/// `r3c4` for the 0-based cell (2, 3).
pub fn cell_name(row: usize, column: usize) -> String {
    format!("r{}c{}", row + 1, column + 1)
}

/// 0-based indices as compact 1-based ranges: `[0, 1, 2, 5]` with prefix `c` gives `c1-c3 c6`.
pub fn ranges(prefix: &str, indices: &[usize]) -> String {
    let mut text = String::new();
    let mut i = 0;
    while i < indices.len() {
        let mut j = i;
        while j + 1 < indices.len() && indices[j + 1] == indices[j] + 1 {
            j += 1;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        let _ = write!(text, "{prefix}{}", indices[i] + 1);
        if j > i {
            let _ = write!(text, "-{prefix}{}", indices[j] + 1);
        }
        i = j + 1;
    }
    text
}

/// How a solver reports its steps. Solvers are generic over it so that the unrecorded path
/// (with [`NoTrace`]) compiles to nothing; they call it only at step boundaries.
pub(crate) trait Recorder {
    /// The tracer to write to, or `None` when not recording (or while trying a hypothesis whose
    /// deductions must not appear as facts).
    fn tracer(&mut self) -> Option<&mut Tracer>;
    /// Stops (`true`) or resumes recording, around trial propagations.
    fn mute(&mut self, _muted: bool) {}
    /// Whether this recorder records at all; a constant, so checks on it fold away.
    const ENABLED: bool;
}

/// The recorder of an ordinary solve: records nothing.
pub(crate) struct NoTrace;

impl Recorder for NoTrace {
    #[inline(always)]
    fn tracer(&mut self) -> Option<&mut Tracer> {
        None
    }
    const ENABLED: bool = false;
}

/// The recorder of a traced solve: builds the [`Trace`].
pub(crate) struct Tracer {
    pub width: usize,
    pub height: usize,
    pub steps: Vec<Step>,
    /// Guesses the current search node rests on.
    pub depth: usize,
    muted: bool,
    /// Set at the first solution: the uniqueness search after it must not change the trace.
    frozen: bool,
    /// The step [`Tracer::merge`] last started and its reason.
    merging: Option<(usize, String)>,
}

impl Recorder for Tracer {
    fn tracer(&mut self) -> Option<&mut Tracer> {
        (!self.muted && !self.frozen).then_some(self)
    }
    fn mute(&mut self, muted: bool) {
        self.muted = muted;
    }
    const ENABLED: bool = true;
}

impl Tracer {
    pub fn new(width: usize, height: usize) -> Self {
        Tracer {
            width,
            height,
            steps: Vec::new(),
            depth: 0,
            muted: false,
            frozen: false,
            merging: None,
        }
    }

    /// Records a deduction at the current depth.
    pub fn step(&mut self, text: String, cells_set: Vec<(usize, usize, Cell)>) {
        self.merging = None;
        self.steps.push(Step {
            text,
            cells_set,
            depth: self.depth,
            guess: false,
            snapshot: None,
        });
    }

    /// Records a guess; the steps after it rest on one more guess.
    pub fn guess(&mut self, text: String, cells_set: Vec<(usize, usize, Cell)>) {
        self.depth += 1;
        self.step(text, cells_set);
        if let Some(last) = self.steps.last_mut() {
            last.guess = true;
        }
    }

    /// Records `cell` as set for `reason`, adding it to the last step when that step was made by
    /// this method for the same reason and no snapshot has closed it: a rule that sets several
    /// cells in one sweep gives one line, `reason (r1c2, r1c3)`.
    pub fn merge(&mut self, reason: &str, cell: (usize, usize, Cell)) {
        let open = self.steps.len().checked_sub(1);
        let same = matches!(&self.merging, Some((i, r)) if Some(*i) == open && r == reason);
        match self.steps.last_mut() {
            Some(last) if same && last.snapshot.is_none() => last.cells_set.push(cell),
            _ => {
                self.step(String::new(), vec![cell]);
                self.merging = Some((self.steps.len() - 1, reason.to_string()));
            }
        }
        if let Some(last) = self.steps.last_mut() {
            let names: Vec<String> = last
                .cells_set
                .iter()
                .map(|&(r, c, _)| cell_name(r, c))
                .collect();
            last.text = format!("{reason} ({})", names.join(", "));
        }
    }

    /// Attaches the grid to the last step, unless it already has one (nothing happened since).
    pub fn snapshot(&mut self, cells: impl Iterator<Item = Cell>) {
        let (width, height) = (self.width, self.height);
        if let Some(last) = self.steps.last_mut() {
            if last.snapshot.is_none() {
                last.snapshot = Some(Snapshot {
                    width,
                    height,
                    cells: cells.collect(),
                });
            }
        }
    }

    /// Goes back to a search node: drops the steps of the branch that failed.
    pub fn rewind(&mut self, steps: usize, depth: usize) {
        self.merging = None;
        self.steps.truncate(steps);
        self.depth = depth;
    }

    /// Ends recording at the first solution.
    pub fn freeze(&mut self) {
        self.frozen = true;
    }

    pub fn into_trace(self) -> Trace {
        Trace { steps: self.steps }
    }
}

/// Where a search node's branches start in the trace, to rewind to when one fails.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    pub steps: usize,
    pub depth: usize,
}

impl Tracer {
    pub fn mark(&self) -> Mark {
        Mark {
            steps: self.steps.len(),
            depth: self.depth,
        }
    }
}

impl Trace {
    /// The hint a player asked for: the first step, or a note that nothing is left when the
    /// solver had nothing to do.
    pub fn first_step(mut self) -> Step {
        if self.steps.is_empty() {
            return Step {
                text: "nothing left to deduce: every cell is already set".into(),
                cells_set: Vec::new(),
                depth: 0,
                guess: false,
                snapshot: None,
            };
        }
        let mut step = self.steps.swap_remove(0);
        // The picture after the step belongs to the round, which a hint does not reveal.
        step.snapshot = None;
        step
    }

    /// `start` (a row-major grid `width` wide: the puzzle's givens, the rest unknown) after
    /// replaying every step's cells onto it. `None` when a step sets a cell outside the grid or
    /// sets a known cell to another value.
    pub fn replay(&self, mut grid: Vec<Cell>, width: usize) -> Option<Vec<Cell>> {
        for step in &self.steps {
            for &(r, c, value) in &step.cells_set {
                if c >= width || r * width + c >= grid.len() {
                    return None;
                }
                let cell = &mut grid[r * width + c];
                if *cell != Cell::Unknown && *cell != value {
                    return None;
                }
                *cell = value;
            }
        }
        Some(grid)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_compact() {
        assert_eq!(ranges("c", &[0, 1, 2, 5, 7, 8]), "c1-c3 c6 c8-c9");
        assert_eq!(ranges("r", &[]), "");
    }

    #[test]
    fn rewind_drops_failed_branches_and_freeze_keeps_the_path() {
        let mut t = Tracer::new(2, 1);
        t.step("a".into(), vec![(0, 0, Cell::Filled)]);
        let mark = t.mark();
        t.guess("g".into(), vec![(0, 1, Cell::Filled)]);
        assert_eq!(t.depth, 1);
        t.rewind(mark.steps, mark.depth);
        t.guess("h".into(), vec![(0, 1, Cell::Empty)]);
        t.freeze();
        assert!(t.tracer().is_none());
        let trace = t.into_trace();
        assert_eq!(trace.steps.len(), 2);
        assert!(trace.steps[1].guess);
        assert_eq!(
            trace.replay(vec![Cell::Unknown; 2], 2),
            Some(vec![Cell::Filled, Cell::Empty])
        );
    }

    #[test]
    fn merge_groups_one_rule_and_replay_catches_clashes() {
        let mut t = Tracer::new(2, 1);
        t.merge("x", (0, 0, Cell::Empty));
        t.merge("x", (0, 1, Cell::Empty));
        assert_eq!(t.steps.len(), 1);
        t.merge("y", (0, 1, Cell::Filled));
        assert_eq!(t.into_trace().replay(vec![Cell::Unknown; 2], 2), None);
    }
}
