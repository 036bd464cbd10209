//! Picks each nonogram clue line's reading from its possible readings by what the crossing lines
//! allow, so that many misread numbers can be corrected at once.
//!
//! A blurred photo can misread a dozen clue numbers, far more than a corrector trying sets of a
//! few changes can reach. But each line's possible readings (every number as read or as one of
//! its likelier alternatives, the outermost or innermost number dropped as a stray mark when
//! read as 1) are
//! few, and a line's cells must fit one of them: cells that every possible reading of a line
//! fills (or leaves empty) are known, which rules out readings of the crossing lines, and so on
//! to a fixpoint. Lines read surely have one reading and drive it. When the cheapest left of
//! every line are not the puzzle, [`cheapest_together`] searches the readings left of all lines
//! at once for the cheapest that fit one grid. This module only narrows and searches the
//! readings; the solver decides whether a choice is the puzzle.

use crate::kinds::nonogram::solver::{narrow_line, FILLED, UNKNOWN};
use crate::limits::Deadline;

/// One number as read: its value, confidence and other readings (most likely first).
#[derive(Debug, Clone, PartialEq)]
pub struct NumberRead {
    pub value: u32,
    pub confidence: f32,
    pub alternatives: Vec<(u32, f32)>,
}

/// One possible reading of a line: per number read, its value or `None` when it is dropped as a
/// stray mark, and what the changes cost (see `change_cost` in the reader).
#[derive(Debug, Clone, PartialEq)]
pub struct LineReading {
    pub cost: f32,
    pub numbers: Vec<Option<u32>>,
}

impl LineReading {
    /// The clue this reading gives.
    pub fn clue(&self) -> Vec<u32> {
        self.numbers.iter().flatten().copied().collect()
    }
}

/// The dearest change considered, here and in the totals corrector: an alternative 20 times
/// less likely than the reading is as far as a blurred digit goes.
pub const MOST_COST: f32 = 3.0;
/// The most numbers of one line changed at once.
const MOST_CHANGES: usize = 3;
/// The most readings of one line kept, cheapest first.
const MOST_READINGS: usize = 48;
/// The most alternatives of one number tried: a blurred serif 12 read as 2 at 0.49 ranked 12
/// fourth, behind 5, 3 and 1 (a hard 21x14 photo; a fifth alternative mended no other).
const ALTERNATIVES: usize = 4;
/// How much less likely than its being misread a number is taken to be a stray mark (dropped).
const STRAY_ODDS: f32 = 0.5;

/// How sure the reader must be of a number read as anything but 1 for it not to be taken for
/// a stray mark (see [`could_be_stray`]).
const UNSURE_MARK: f32 = 0.5;

/// Whether a number read as `value` with `confidence` may be a stray mark rather than a number:
/// the marks met beyond the clues are pieces of page rules and box lines, which read as 1, and
/// the odd blot of print beside a band (a word of the page's text, a box's corner) that the
/// reader hardly takes for any digit: on 1,380 generated nonogram photos, blots beyond four
/// lines' clues (a 7 read at 0.49, an 8 at 0.42) were dropped so and each photo read exactly,
/// none wrongly. A blurred digit read more surely as anything else is a number misread, not a
/// mark: dropping a blurred 1 read as 6 (at 0.44, now read as printed) had balanced another
/// line's misreading into a wrong puzzle that solved uniquely.
pub fn could_be_stray(value: u32, confidence: f32) -> bool {
    value == 1 || confidence < UNSURE_MARK
}

/// The probability that a line's outermost or innermost number, read with `confidence`, is a
/// stray mark beyond the clue or beside the grid rather than a number: what dropping it costs
/// here and in the totals corrector.
pub fn stray_probability(confidence: f32) -> f32 {
    (1.0 - confidence) * STRAY_ODDS
}

/// The possible readings of a line of `length` cells whose numbers were read as `numbers`
/// (outermost first), cheapest first, the reading as read first of all; `cost` prices a change
/// from a reading of one probability to an alternative of another. Readings that cannot fit
/// the line are left out (so possibly the one as read).
pub fn line_readings(
    numbers: &[NumberRead],
    length: usize,
    cost: &dyn Fn(f32, f32) -> f32,
) -> Vec<LineReading> {
    // Each number's options besides its reading: (value or dropped, cost).
    let options: Vec<Vec<(Option<u32>, f32)>> = numbers
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let mut found: Vec<(Option<u32>, f32)> = n
                .alternatives
                .iter()
                .filter(|&&(value, _)| value >= 1 && value != n.value)
                .take(ALTERNATIVES)
                .map(|&(value, p)| (Some(value), cost(n.confidence, p)))
                .collect();
            // Stray marks lie beyond the clues, outside where the reader looks last, or
            // between them and the grid, where its border line runs.
            let at_an_end = i == 0 || i + 1 == numbers.len();
            if at_an_end && numbers.len() > 1 && could_be_stray(n.value, n.confidence) {
                found.push((None, cost(n.confidence, stray_probability(n.confidence))));
            }
            found.retain(|&(_, c)| c <= MOST_COST);
            found
        })
        .collect();
    let mut readings = Vec::new();
    let mut current: Vec<Option<u32>> = numbers.iter().map(|n| Some(n.value)).collect();
    enumerate(&options, 0, 0, 0.0, &mut current, &mut readings);
    readings.retain(|r: &LineReading| fits(&r.clue(), length));
    // Stable, so the reading as read (enumerated first) leads among equal costs.
    readings.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    readings.truncate(MOST_READINGS);
    readings
}

/// Every combination of `options` from number `from` on, at most [`MOST_CHANGES`] changes
/// (`changed` made so far) and [`MOST_COST`] in all.
fn enumerate(
    options: &[Vec<(Option<u32>, f32)>],
    from: usize,
    changed: usize,
    cost: f32,
    current: &mut Vec<Option<u32>>,
    out: &mut Vec<LineReading>,
) {
    if from == options.len() {
        out.push(LineReading {
            cost,
            numbers: current.clone(),
        });
        return;
    }
    enumerate(options, from + 1, changed, cost, current, out);
    if changed == MOST_CHANGES {
        return;
    }
    let kept = current[from];
    for &(value, c) in &options[from] {
        if cost + c <= MOST_COST {
            current[from] = value;
            enumerate(options, from + 1, changed + 1, cost + c, current, out);
        }
    }
    current[from] = kept;
}

/// Whether `clue` fits in a line of `length` cells.
pub fn fits(clue: &[u32], length: usize) -> bool {
    clue.iter().sum::<u32>() as usize + clue.len().saturating_sub(1) <= length
}

/// For each line (rows top first, then columns left first) of a `height` x `width` grid with
/// the `givens` filled, which of its `readings` stay possible (cheapest first) once every
/// line's cells fit one of its possible readings, narrowed to a fixpoint; then each reading
/// left of a line with more than one is tried alone, and dropped when narrowing so leaves
/// some line no reading (a misread line's reading as read fits the cells the crossing lines
/// leave it while they keep theirs open, but not the truth of a crossing line), until the
/// `deadline`: readings not yet tried alone stay (a 29x22 puzzle's took 3.7 s to try). `Err`
/// names the first line left with no reading: that line's or a crossing line's true reading
/// was not among its readings.
pub fn narrow(
    (height, width): (usize, usize),
    givens: &[(usize, usize)],
    readings: &[Vec<LineReading>],
    deadline: &Deadline,
) -> Result<Vec<Vec<usize>>, usize> {
    // The grid with the givens filled and each reading's clue, made once for every narrowing.
    let start = givens_filled((height, width), givens);
    let clues = clues_of(readings);
    let narrowed = |alive: Vec<Vec<usize>>| {
        narrow_from((height, width), &start, &clues, alive).map(|(_, alive)| alive)
    };
    let all: Vec<Vec<usize>> = readings
        .iter()
        .map(|line| (0..line.len()).collect())
        .collect();
    let mut alive = narrowed(all)?;
    loop {
        let mut changed = false;
        for line in 0..alive.len() {
            if alive[line].len() < 2 {
                continue;
            }
            let before = alive[line].len();
            let kept: Vec<usize> = alive[line]
                .iter()
                .copied()
                .filter(|&i| {
                    if deadline.expired() {
                        return true;
                    }
                    let mut tried = alive.clone();
                    tried[line] = vec![i];
                    narrowed(tried).is_ok()
                })
                .collect();
            if kept.is_empty() {
                return Err(line);
            }
            if kept.len() < before {
                alive[line] = kept;
                alive = narrowed(alive)?;
                changed = true;
            }
        }
        if !changed {
            return Ok(alive);
        }
    }
}

/// A `height` x `width` grid of unknown cells but the `givens`, filled.
fn givens_filled((height, width): (usize, usize), givens: &[(usize, usize)]) -> Vec<u8> {
    let mut grid = vec![UNKNOWN; height * width];
    for &(r, c) in givens {
        if r < height && c < width {
            grid[r * width + c] = FILLED;
        }
    }
    grid
}

/// Each line's readings' clues, `[line][reading]`.
fn clues_of(readings: &[Vec<LineReading>]) -> Vec<Vec<Vec<u32>>> {
    readings
        .iter()
        .map(|line| line.iter().map(LineReading::clue).collect())
        .collect()
}

/// [`narrow`]'s first step, from the `start` grid and the readings `alive` of each line, whose
/// readings' clues are `clues[line][reading]`: the grid's cells as every line's readings left
/// settle them, and those readings.
fn narrow_from(
    (height, width): (usize, usize),
    start: &[u8],
    clues: &[Vec<Vec<u32>>],
    mut alive: Vec<Vec<usize>>,
) -> Result<(Vec<u8>, Vec<Vec<usize>>), usize> {
    let mut grid = start.to_vec();
    let every_line = (0..height + width).collect();
    propagate((height, width), &mut grid, clues, &mut alive, every_line)?;
    Ok((grid, alive))
}

/// Narrows the lines `queue`d, and every line crossing a cell that narrows, to a fixpoint:
/// `grid`'s cells to what every reading left of their lines allows, and `alive` to the
/// readings that fit the cells. `Err` names the first line left with no reading.
fn propagate(
    (height, width): (usize, usize),
    grid: &mut [u8],
    clues: &[Vec<Vec<u32>>],
    alive: &mut [Vec<usize>],
    mut queue: Vec<usize>,
) -> Result<(), usize> {
    let cell_index = |line: usize, k: usize| {
        if line < height {
            line * width + k
        } else {
            k * width + (line - height)
        }
    };
    let length = |line: usize| if line < height { width } else { height };
    let mut queued = vec![false; height + width];
    for &line in &queue {
        queued[line] = true;
    }
    while let Some(line) = queue.pop() {
        queued[line] = false;
        let cells: Vec<u8> = (0..length(line))
            .map(|k| grid[cell_index(line, k)])
            .collect();
        let mut possible = vec![0u8; cells.len()];
        alive[line].retain(|&i| {
            let mut states = cells.clone();
            let fits = narrow_line(&clues[line][i], &mut states);
            if fits {
                for (p, s) in possible.iter_mut().zip(states) {
                    *p |= s;
                }
            }
            fits
        });
        if alive[line].is_empty() {
            return Err(line);
        }
        for (k, (&before, &now)) in cells.iter().zip(&possible).enumerate() {
            let narrowed = before & now;
            if narrowed != before {
                grid[cell_index(line, k)] = narrowed;
                let crossing = if line < height { height + k } else { k };
                if !queued[crossing] {
                    queued[crossing] = true;
                    queue.push(crossing);
                }
            }
        }
    }
    Ok(())
}

/// The most narrowings [`cheapest_together`] makes: the search stops there whatever the clock
/// says, so that a reading takes the same path on a fast machine and a slow one.
const MOST_NARROWINGS: usize = 5_000;

/// The cheapest ways of reading every line at once, one of its readings `alive` (as [`narrow`]
/// left them) each, that fit one grid as far as narrowing line by line tells, that `accept`
/// takes (the solver: exactly one solution) and that cost at most `most_cost` in all: the
/// cheapest and every other within `margin` of it, cheapest first, each as the reading picked
/// for each line. [`narrow`] rules out what one reading tried alone contradicts; a dozen
/// misread numbers across the lines leave a dozen lines each keeping its reading as read, the
/// cheapest, and the corrector's search over sets of a few changes from those cannot reach
/// the truth. This one searches depth first: it drops every reading dearer than the bound
/// leaves room for (the bound: `most_cost`, then the cheapest found, each plus `margin`, so
/// that rivals are found too), narrows the lines again, fixes the line whose cheapest reading
/// is surest against its next (each of its readings in turn, cheapest first), and drops every
/// branch whose lines' cheapest readings, with the least change that balances the rows' and
/// columns' totals, cost more than the bound. Stops at the `deadline` or
/// [`MOST_NARROWINGS`], with what it found so far.
pub fn cheapest_together(
    (height, width): (usize, usize),
    givens: &[(usize, usize)],
    readings: &[Vec<LineReading>],
    alive: Vec<Vec<usize>>,
    (most_cost, margin): (f32, f32),
    accept: &mut dyn FnMut(&[usize]) -> bool,
    deadline: &Deadline,
) -> Vec<(f32, Vec<usize>)> {
    let start = givens_filled((height, width), givens);
    let clues = clues_of(readings);
    let Ok((grid, alive)) = narrow_from((height, width), &start, &clues, alive) else {
        return Vec::new();
    };
    let mut search = Together {
        dimensions: (height, width),
        clues: &clues,
        readings,
        most_cost,
        margin,
        accept,
        deadline,
        narrowings: 0,
        found: Vec::new(),
    };
    search.branch(grid, alive);
    let mut found = search.found;
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    match found.first() {
        Some(&(cheapest, _)) if cheapest <= most_cost => {
            found.retain(|&(cost, _)| cost <= cheapest + margin);
        }
        _ => found.clear(),
    }
    found
}

/// The state of [`cheapest_together`]'s search.
struct Together<'a> {
    dimensions: (usize, usize),
    clues: &'a [Vec<Vec<u32>>],
    readings: &'a [Vec<LineReading>],
    most_cost: f32,
    margin: f32,
    accept: &'a mut dyn FnMut(&[usize]) -> bool,
    deadline: &'a Deadline,
    narrowings: usize,
    found: Vec<(f32, Vec<usize>)>,
}

impl Together<'_> {
    /// The dearest a way of reading may cost and still be kept: within the margin of the
    /// cheapest found so far, so that a rival is found too.
    fn bound(&self) -> f32 {
        self.found
            .iter()
            .map(|&(cost, _)| cost)
            .fold(self.most_cost, f32::min)
            + self.margin
    }

    /// The least the readings `alive` must cost beyond their cheapest to balance the rows' and
    /// columns' totals: nothing when the cheapest balance, else the cheapest other reading
    /// of a line that moves the difference towards nought (every balanced set has one).
    fn to_balance(&self, alive: &[Vec<usize>]) -> f32 {
        let height = self.dimensions.0;
        let signed = |line: usize, reading: usize| -> i64 {
            let total: i64 = self.clues[line][reading]
                .iter()
                .map(|&n| i64::from(n))
                .sum();
            if line < height {
                total
            } else {
                -total
            }
        };
        let gap: i64 = alive
            .iter()
            .enumerate()
            .map(|(line, kept)| signed(line, kept[0]))
            .sum();
        if gap == 0 {
            return 0.0;
        }
        alive
            .iter()
            .enumerate()
            .flat_map(|(line, kept)| {
                let (first, cost) = (signed(line, kept[0]), self.readings[line][kept[0]].cost);
                kept[1..].iter().filter_map(move |&reading| {
                    let moved = signed(line, reading) - first;
                    (moved.signum() == -gap.signum())
                        .then(|| self.readings[line][reading].cost - cost)
                })
            })
            .fold(f32::INFINITY, f32::min)
    }

    fn stopped(&self) -> bool {
        self.narrowings >= MOST_NARROWINGS || self.deadline.expired()
    }

    fn branch(&mut self, mut grid: Vec<u8>, mut alive: Vec<Vec<usize>>) {
        let cheapest = |line: usize, reading: usize| self.readings[line][reading].cost;
        let least = loop {
            let least: f32 = alive
                .iter()
                .enumerate()
                .map(|(line, kept)| cheapest(line, kept[0]))
                .sum();
            let slack = self.bound() - least - self.to_balance(&alive);
            if slack < 0.0 || self.stopped() {
                return;
            }
            // A reading dearer than its line's cheapest by more than the slack cannot be in any
            // set within the bound: dropping it may settle cells, and those other lines.
            let mut dropped = Vec::new();
            for (line, kept) in alive.iter_mut().enumerate() {
                let first = self.readings[line][kept[0]].cost;
                let before = kept.len();
                kept.retain(|&reading| self.readings[line][reading].cost - first <= slack);
                if kept.len() < before {
                    dropped.push(line);
                }
            }
            if dropped.is_empty() {
                break least;
            }
            self.narrowings += 1;
            if propagate(self.dimensions, &mut grid, self.clues, &mut alive, dropped).is_err() {
                return;
            }
        };
        // The line whose cheapest reading is surest against its next: fixing it settles the
        // most cells for the least branching.
        let regret = |line: usize| {
            let kept = &alive[line];
            cheapest(line, kept[1]) - cheapest(line, kept[0])
        };
        let open = (0..alive.len())
            .filter(|&line| alive[line].len() > 1)
            .max_by(|&a, &b| regret(a).total_cmp(&regret(b)));
        let Some(line) = open else {
            let chosen: Vec<usize> = alive.iter().map(|kept| kept[0]).collect();
            if (self.accept)(&chosen) {
                self.found.push((least, chosen));
            }
            return;
        };
        let base = least - cheapest(line, alive[line][0]);
        for &reading in &alive[line] {
            if base + cheapest(line, reading) > self.bound() || self.stopped() {
                return;
            }
            let mut grid = grid.clone();
            let mut tried = alive.clone();
            tried[line] = vec![reading];
            self.narrowings += 1;
            if propagate(
                self.dimensions,
                &mut grid,
                self.clues,
                &mut tried,
                vec![line],
            )
            .is_ok()
            {
                self.branch(grid, tried);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sure(value: u32) -> NumberRead {
        NumberRead {
            value,
            confidence: 1.0,
            alternatives: Vec::new(),
        }
    }

    fn unsure(value: u32, confidence: f32, alternatives: &[(u32, f32)]) -> NumberRead {
        NumberRead {
            value,
            confidence,
            alternatives: alternatives.to_vec(),
        }
    }

    fn cost(read: f32, alternative: f32) -> f32 {
        (read.max(0.01) / alternative.max(0.01)).ln().max(0.0)
    }

    #[test]
    fn readings_change_unsure_numbers_drop_an_outer_stray_and_fit_the_line() {
        let line = [
            unsure(1, 0.4, &[(7, 0.3)]),
            unsure(8, 0.5, &[(1, 0.45), (3, 0.05)]),
            sure(2),
        ];
        let readings = line_readings(&line, 8, &cost);
        let clues: Vec<Vec<u32>> = readings.iter().map(LineReading::clue).collect();
        // 1,8,2 needs 13 cells; the 8 read as its alternative 1 is cheapest, then the outer
        // 1 dropped too; the first number is never dropped alone into a line read as one.
        assert_eq!(
            clues,
            vec![vec![1, 1, 2], vec![1, 2], vec![1, 3, 2], vec![3, 2]]
        );
        assert!(readings.windows(2).all(|w| w[0].cost <= w[1].cost));
        assert_eq!(readings[1].numbers, vec![None, Some(1), Some(2)]);
        let alone = line_readings(&[unsure(4, 0.3, &[(1, 0.2)])], 5, &cost);
        let clues: Vec<Vec<u32>> = alone.iter().map(LineReading::clue).collect();
        assert_eq!(clues, vec![vec![4], vec![1]]);
        // An outer number read fairly surely as anything but 1 is a digit misread, never
        // dropped; read hardly surer than a guess, it may be a blot of print beside the clues.
        let digit = line_readings(&[unsure(6, 0.6, &[(1, 0.3)]), sure(2)], 9, &cost);
        let clues: Vec<Vec<u32>> = digit.iter().map(LineReading::clue).collect();
        assert_eq!(clues, vec![vec![6, 2], vec![1, 2]]);
        let blot = line_readings(&[unsure(6, 0.4, &[(1, 0.3)]), sure(2)], 9, &cost);
        let clues: Vec<Vec<u32>> = blot.iter().map(LineReading::clue).collect();
        assert_eq!(clues.len(), 3);
        assert!(clues.contains(&vec![2]) && clues.contains(&vec![1, 2]));
    }

    #[test]
    fn a_number_is_read_as_its_fourth_alternative_but_not_its_fifth() {
        let blurred = [unsure(
            2,
            0.49,
            &[(5, 0.25), (3, 0.125), (1, 0.071), (12, 0.053), (8, 0.037)],
        )];
        let clues: Vec<Vec<u32>> = line_readings(&blurred, 21, &cost)
            .iter()
            .map(LineReading::clue)
            .collect();
        assert_eq!(clues, vec![vec![2], vec![5], vec![3], vec![1], vec![12]]);
    }

    #[test]
    fn an_unsure_1_next_to_the_grid_may_be_dropped_as_a_stray_but_not_one_between() {
        let line = [sure(3), unsure(1, 0.6, &[]), unsure(1, 0.6, &[])];
        let clues: Vec<Vec<u32>> = line_readings(&line, 9, &cost)
            .iter()
            .map(LineReading::clue)
            .collect();
        assert_eq!(clues, vec![vec![3, 1, 1], vec![3, 1]]);
        assert!(line_readings(&line, 9, &cost)[1].numbers[2].is_none());
    }

    #[test]
    fn sure_crossing_lines_rule_out_a_misreading_that_fits_its_own_line() {
        // ###   rows 3, 1, 3; columns 3, 1 1, 1 1. Row 2 read as 2, maybe 1: both fit three
        // #..   cells, but column 1 leaves its middle cell empty and column 0 fills it, so
        // ###   only 1 is left.
        let reading = |clue: &[u32]| LineReading {
            cost: 0.0,
            numbers: clue.iter().map(|&n| Some(n)).collect(),
        };
        let row_two = vec![
            reading(&[2]),
            LineReading {
                cost: 0.2,
                numbers: vec![Some(1)],
            },
        ];
        let readings = vec![
            vec![reading(&[3])],
            row_two,
            vec![reading(&[3])],
            vec![reading(&[3])],
            vec![reading(&[1, 1])],
            vec![reading(&[1, 1])],
        ];
        let narrowed = narrow((3, 3), &[], &readings, &Deadline::none()).expect("consistent");
        assert_eq!(narrowed[1], vec![1]);
        assert!(narrowed.iter().all(|line| line.len() == 1));
        // Column 0 read as 2 2 (which cannot fit) leaves it nothing.
        let mut broken = readings.clone();
        broken[3] = vec![reading(&[2, 2])];
        assert_eq!(narrow((3, 3), &[], &broken, &Deadline::none()), Err(3));
    }

    #[test]
    fn each_reading_left_is_tried_alone_and_dropped_when_the_lines_cannot_fit_it() {
        // .#######
        // ####.#..
        // .....###
        // #..##.##
        // .######.
        // ..#..#..
        // .#...##.
        // ##..###.
        // Read with row 3's 3 as 1 and row 2's 1 as 3, column 7's 1 and 3 the other way round,
        // each at 0.6 against the truth's 0.35: each line's reading as read fits the cells its
        // crossing lines leave it, one line at a time, and was kept as the cheapest; tried
        // alone, each leaves some line no reading.
        let rows: Vec<Vec<u32>> = vec![
            vec![7],
            vec![4, 1],
            vec![3],
            vec![1, 2, 2],
            vec![6],
            vec![1, 1],
            vec![1, 2],
            vec![2, 3],
        ];
        let columns: Vec<Vec<u32>> = vec![
            vec![1, 1, 1],
            vec![2, 1, 2],
            vec![2, 2],
            vec![2, 2],
            vec![1, 2, 1],
            vec![3, 4],
            vec![1, 3, 2],
            vec![1, 2],
        ];
        let mut lines: Vec<Vec<NumberRead>> = rows
            .iter()
            .chain(&columns)
            .map(|line| line.iter().map(|&value| sure(value)).collect())
            .collect();
        let misread = |value: u32, truth: u32| unsure(value, 0.6, &[(truth, 0.35)]);
        lines[2][0] = misread(1, 3);
        lines[1][1] = misread(3, 1);
        lines[14][0] = misread(3, 1);
        lines[14][1] = misread(1, 3);
        let readings: Vec<Vec<LineReading>> = lines
            .iter()
            .map(|line| line_readings(line, 8, &cost))
            .collect();
        let alive = narrow((8, 8), &[], &readings, &Deadline::none())
            .expect("the truth is among the readings");
        let left = |line: usize| -> Vec<Vec<u32>> {
            alive[line]
                .iter()
                .map(|&i| readings[line][i].clue())
                .collect()
        };
        assert_eq!(left(1), vec![vec![4, 1]]);
        assert_eq!(left(2), vec![vec![3]]);
        assert_eq!(left(14), vec![vec![1, 3, 2]]);
        // Past the deadline no reading is tried alone: the lines misread in ways only trying
        // them alone shows keep their readings as read, and no reading probing keeps is lost.
        let hurried = narrow((8, 8), &[], &readings, &Deadline::after(Duration::ZERO))
            .expect("the truth is among the readings");
        assert_eq!((hurried[2].len(), hurried[14].len()), (2, 2));
        assert!(hurried
            .iter()
            .zip(&alive)
            .all(|(hurried, alive)| alive.iter().all(|i| hurried.contains(i))));
        // Searched together, the lines the hurried narrowing left with their readings as read
        // cheapest are read as printed: the four changes, and nothing else, fit one grid.
        let mut solved = 0;
        let found = cheapest_together(
            (8, 8),
            &[],
            &readings,
            hurried,
            (4.6, 1.5),
            &mut |_| {
                solved += 1;
                true
            },
            &Deadline::none(),
        );
        assert_eq!(found.len(), 1);
        let (cost, chosen) = &found[0];
        let read: Vec<Vec<u32>> = chosen
            .iter()
            .enumerate()
            .map(|(line, &i)| readings[line][i].clue())
            .collect();
        let printed: Vec<Vec<u32>> = rows.iter().chain(&columns).cloned().collect();
        assert_eq!(read, printed);
        assert!((cost - 4.0 * (0.6f32 / 0.35).ln()).abs() < 1e-4);
        assert_eq!(solved, 1);
    }

    #[test]
    fn the_cheapest_way_of_reading_every_line_comes_with_its_rivals_within_the_margin() {
        // A 2x2 grid whose row 0 and column 0 read 1, or 2 for 0.1 more: 1 1 / 1 1 fits (a
        // diagonal), and so does 2 1 / 2 1 (three cells); 2 1 against 1 1 does not balance.
        let reading = |cost: f32, clue: u32| LineReading {
            cost,
            numbers: vec![Some(clue)],
        };
        let unsure = || vec![reading(0.0, 1), reading(0.1, 2)];
        let readings = vec![
            unsure(),
            vec![reading(0.0, 1)],
            unsure(),
            vec![reading(0.0, 1)],
        ];
        let every = vec![vec![0, 1], vec![0], vec![0, 1], vec![0]];
        let search = |margin: f32, accept: &mut dyn FnMut(&[usize]) -> bool| {
            cheapest_together(
                (2, 2),
                &[],
                &readings,
                every.clone(),
                (4.6, margin),
                accept,
                &Deadline::none(),
            )
        };
        let ways = |found: Vec<(f32, Vec<usize>)>| -> Vec<Vec<usize>> {
            found.into_iter().map(|(_, chosen)| chosen).collect()
        };
        assert_eq!(
            ways(search(1.5, &mut |_| true)),
            vec![vec![0, 0, 0, 0], vec![1, 0, 1, 0]]
        );
        assert_eq!(ways(search(0.05, &mut |_| true)), vec![vec![0, 0, 0, 0]]);
        // The solver refusing the cheapest (two solutions), the dearer way is the one.
        let refused = &mut |chosen: &[usize]| chosen != [0, 0, 0, 0];
        assert_eq!(ways(search(1.5, refused)), vec![vec![1, 0, 1, 0]]);
        // Dearer than the most a way may cost, it is no answer.
        let found = cheapest_together(
            (2, 2),
            &[],
            &readings,
            every.clone(),
            (0.05, 1.5),
            refused,
            &Deadline::none(),
        );
        assert!(found.is_empty());
    }
}
