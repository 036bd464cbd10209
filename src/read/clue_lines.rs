//! Picks each nonogram clue line's reading from its possible readings by what the crossing lines
//! allow, so that many misread numbers can be corrected at once.
//!
//! A blurred photo can misread a dozen clue numbers, far more than a corrector trying sets of a
//! few changes can reach. But each line's possible readings (every number as read or as one of
//! its likelier alternatives, the outermost or innermost number dropped as a stray mark when
//! read as 1) are
//! few, and a line's cells must fit one of them: cells that every possible reading of a line
//! fills (or leaves empty) are known, which rules out readings of the crossing lines, and so on
//! to a fixpoint. Lines read surely have one reading and drive it. This module only narrows the
//! readings and picks the cheapest left; the solver decides whether the result is the puzzle.

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
    let mut start = vec![UNKNOWN; height * width];
    for &(r, c) in givens {
        if r < height && c < width {
            start[r * width + c] = FILLED;
        }
    }
    let clues: Vec<Vec<Vec<u32>>> = readings
        .iter()
        .map(|line| line.iter().map(LineReading::clue).collect())
        .collect();
    let narrowed = |alive: Vec<Vec<usize>>| narrow_from((height, width), &start, &clues, alive);
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

/// [`narrow`]'s first step, from the `start` grid and the readings `alive` of each line, whose
/// readings' clues are `clues[line][reading]`.
fn narrow_from(
    (height, width): (usize, usize),
    start: &[u8],
    clues: &[Vec<Vec<u32>>],
    mut alive: Vec<Vec<usize>>,
) -> Result<Vec<Vec<usize>>, usize> {
    let mut grid = start.to_vec();
    let cell_index = |line: usize, k: usize| {
        if line < height {
            line * width + k
        } else {
            k * width + (line - height)
        }
    };
    let length = |line: usize| if line < height { width } else { height };
    let mut queued = vec![true; height + width];
    let mut queue: Vec<usize> = (0..height + width).collect();
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
    Ok(alive)
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
    }
}
