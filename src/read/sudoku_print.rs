//! A doubtful Sudoku reading mended as a whole: every cell read with other likely readings
//! becomes a choice for [`likeliest`], which finds the likeliest printed puzzle with one
//! solution, whatever the number of changes.
//!
//! The corrector of [`super::first_unique`] tries a few changes among the least sure cells
//! (three when this was written, four of each value's likeliest alternative since). A real
//! photo read by a digit model retrained on maze glyphs (sudoku-train image209) held four
//! misreads, a 1 read as 7 at 0.82 among them, and was refused though each misread had the
//! print among its alternatives. This module only turns readings into costed
//! options and the search's answer into corrections; the search is the Sudoku kind's.

use crate::kinds::sudoku::likeliest::{likeliest, CellOptions, Search};
use crate::kinds::sudoku::Sudoku;
use crate::limits::Deadline;

use super::{change_cost, most_set_cost, CellRead, CellValue, Corrected, GridRead, RIVAL_MARGIN};

/// The likeliest printed Sudoku behind `read` (already constrained to what a Sudoku prints),
/// costing at most as much as one change to a reading the classifier all but rules out
/// ([`most_set_cost`], as for the few-changes corrector) and with no rival within
/// [`RIVAL_MARGIN`]: the puzzle and its changes (cell index, new value). `None` when no such
/// puzzle is found, two are about as likely, or the search runs past `deadline`.
pub(super) fn likeliest_print(
    read: &GridRead,
    deadline: &Deadline,
) -> Option<Corrected<CellValue>> {
    if read.rows != 9 || read.columns != 9 || read.cells.len() != 81 {
        return None;
    }
    let most_cost = most_set_cost();
    let mut fixed = [0u8; 81];
    let mut doubtful = Vec::new();
    for (index, cell) in read.cells.iter().enumerate() {
        fixed[index] = digit(cell.value)?;
        let options = options(cell, most_cost);
        if options.len() > 1 {
            doubtful.push(CellOptions { index, options });
        }
    }
    let Ok(Search::Found(found)) = likeliest(&fixed, &doubtful, most_cost, RIVAL_MARGIN, deadline)
    else {
        return None;
    };
    let changes = (0..81)
        .filter(|&i| found.givens[i] != fixed[i])
        .map(|i| (i, value_of(found.givens[i])))
        .collect();
    Some((
        Box::new(Sudoku {
            cells: found.givens,
        }),
        changes,
    ))
}

/// A Sudoku cell's value as a digit, 0 for blank; `None` for a value no Sudoku prints.
pub(super) fn digit(value: CellValue) -> Option<u8> {
    match value {
        CellValue::Blank => Some(0),
        CellValue::Number(n) if (1..=9).contains(&n) => Some(n as u8),
        _ => None,
    }
}

fn value_of(digit: u8) -> CellValue {
    match digit {
        0 => CellValue::Blank,
        d => CellValue::Number(u32::from(d)),
    }
}

/// What `cell` may have been printed as, with the cost of each against its reading: the
/// reading (0) and the alternatives the reader listed that a Sudoku can print (blank among
/// them), as the few-changes corrector takes them. Options dearer than `most_cost` are left
/// out.
fn options(cell: &CellRead, most_cost: f32) -> Vec<(u8, f32)> {
    let Some(read) = digit(cell.value) else {
        return Vec::new();
    };
    let mut options = vec![(read, 0.0)];
    for &(value, p) in &cell.alternatives {
        if let Some(d) = digit(value) {
            if options.iter().all(|&(o, _)| o != d) {
                options.push((d, change_cost(cell.confidence, p)));
            }
        }
    }
    options.retain(|&(_, cost)| cost <= most_cost);
    options
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::grid_read;

    fn cell(
        index: usize,
        value: CellValue,
        confidence: f32,
        alternatives: &[(CellValue, f32)],
    ) -> CellRead {
        CellRead {
            row: index / 9,
            column: index % 9,
            value,
            confidence,
            alternatives: alternatives.to_vec(),
        }
    }

    /// The classic puzzle's givens.
    const PUZZLE: &str =
        "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

    /// The puzzle read with every cell sure but the ones the test changes.
    fn read_surely(digits: &str) -> GridRead {
        let rows: Vec<String> = digits
            .replace('0', ".")
            .as_bytes()
            .chunks(9)
            .map(|row| String::from_utf8_lossy(row).into_owned())
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        grid_read(&rows)
    }

    #[test]
    fn four_misread_digits_are_mended_where_each_has_the_print_among_its_alternatives() {
        let mut read = read_surely(PUZZLE);
        // Four digits misread, each wrong reading conflicting with a sure digit, the print the
        // reader's second guess: four changes, past the few-changes corrector.
        let misreads = [
            (0usize, 6u32, 5u32, 0.6f32, 0.3f32),
            (1, 8, 3, 0.5, 0.3),
            (20, 4, 8, 0.55, 0.35),
            (79, 9, 7, 0.82, 0.1),
        ];
        for &(index, wrong, right, confidence, p) in &misreads {
            read.cells[index] = cell(
                index,
                CellValue::Number(wrong),
                confidence,
                &[(CellValue::Number(right), p)],
            );
        }
        let (puzzle, changes) = likeliest_print(&read, &Deadline::none()).expect("mended");
        assert_eq!(puzzle.to_json()["givens"], PUZZLE);
        let mut changed: Vec<usize> = changes.iter().map(|&(i, _)| i).collect();
        changed.sort_unstable();
        assert_eq!(changed, vec![0, 1, 20, 79]);
    }

    #[test]
    fn a_misread_whose_print_was_never_listed_is_left_unmended() {
        let mut read = read_surely(PUZZLE);
        read.cells[0] = cell(
            0,
            CellValue::Number(6),
            0.95,
            &[(CellValue::Number(8), 0.03)],
        );
        assert!(likeliest_print(&read, &Deadline::none()).is_none());
    }
}
