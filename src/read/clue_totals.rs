//! Sets of changes to a nonogram's clue numbers that make its row and column totals agree.
//!
//! Rows and columns fill the same cells, so their clue numbers sum alike; a reading whose sums
//! differ by D has a misread (or lost) number whose fix moves the difference by exactly -D.
//! That sum rules out nearly every set of changes before any is solved, so the search can weigh
//! every number read and not only the least sure: a blurred 3 read as a 1 with confidence
//! 0.9 is as often wrong as a doubtful one. This module only finds and ranks the sets; the
//! corrector asks the solver which one makes a puzzle with exactly one solution.

use std::collections::HashMap;

/// One possible change: the number at `index` becomes `value`, moving the rows' total minus
/// the columns' by `shift`, at `cost` (see `change_cost`).
#[derive(Debug, Clone, Copy)]
pub struct Change {
    pub index: usize,
    pub value: u32,
    pub shift: i64,
    pub cost: f32,
}

/// How many of the cheapest changes pairs and triples are made of: a set of three needs each of
/// its changes to be fairly likely, and the cheapest few hundred keep the count of sets small.
const TRIPLE_FROM: usize = 120;
/// The most sets returned, cheapest first.
const MOST_SETS: usize = 4000;

/// The sets of one to `most` changes (at most one per number) whose shifts cancel `difference`
/// (rows' total minus columns'), cheapest first by summed cost.
pub fn agreeing_sets(changes: &[Change], difference: i64, most: usize) -> Vec<(f32, Vec<Change>)> {
    let mut sorted = changes.to_vec();
    sorted.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    let mut by_shift: HashMap<i64, Vec<usize>> = HashMap::new();
    for (k, change) in sorted.iter().enumerate() {
        by_shift.entry(change.shift).or_default().push(k);
    }
    let mut sets: Vec<(f32, Vec<Change>)> = sorted
        .iter()
        .filter(|c| c.shift == -difference)
        .map(|&c| (c.cost, vec![c]))
        .collect();
    if most >= 2 {
        for (k, first) in sorted.iter().enumerate() {
            let Some(partners) = by_shift.get(&(-difference - first.shift)) else {
                continue;
            };
            for &j in partners.iter().filter(|&&j| j > k) {
                let second = sorted[j];
                if second.index != first.index {
                    sets.push((first.cost + second.cost, vec![*first, second]));
                }
            }
        }
    }
    if most >= 3 {
        let cheap = &sorted[..sorted.len().min(TRIPLE_FROM)];
        for (k, first) in cheap.iter().enumerate() {
            for (j, second) in cheap.iter().enumerate().skip(k + 1) {
                if second.index == first.index {
                    continue;
                }
                let rest = -difference - first.shift - second.shift;
                let Some(thirds) = by_shift.get(&rest) else {
                    continue;
                };
                for &t in thirds.iter().filter(|&&t| t > j && t < cheap.len()) {
                    let third = sorted[t];
                    if third.index != first.index && third.index != second.index {
                        sets.push((
                            first.cost + second.cost + third.cost,
                            vec![*first, *second, third],
                        ));
                    }
                }
            }
        }
    }
    // Stable, so equal costs keep fewer changes first.
    sets.sort_by(|a, b| a.0.total_cmp(&b.0));
    sets.truncate(MOST_SETS);
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(index: usize, value: u32, shift: i64, cost: f32) -> Change {
        Change {
            index,
            value,
            shift,
            cost,
        }
    }

    #[test]
    fn only_sets_that_make_the_totals_agree_are_returned_cheapest_first() {
        // Rows sum 2 more than columns: a row number 2 too big, or a column number 2 too small.
        let changes = [
            change(0, 1, -2, 0.5),
            change(1, 5, 1, 0.125),
            change(2, 3, -1, 0.25),
            change(3, 4, -3, 0.125),
            change(3, 2, -1, 0.25),
        ];
        let sets = agreeing_sets(&changes, 2, 2);
        let shown: Vec<Vec<(usize, u32)>> = sets
            .iter()
            .map(|(_, set)| set.iter().map(|c| (c.index, c.value)).collect())
            .collect();
        // (1->5, 3->4) costs 0.25, (0->1) 0.5, (2->3, 3->2) 0.5; never 3 changed twice.
        assert_eq!(
            shown,
            vec![vec![(1, 5), (3, 4)], vec![(0, 1)], vec![(2, 3), (3, 2)]]
        );
        for (cost, set) in &sets {
            assert_eq!(set.iter().map(|c| c.shift).sum::<i64>(), -2);
            assert!((set.iter().map(|c| c.cost).sum::<f32>() - cost).abs() < 1e-6);
        }
    }
}
