//! Weighs a jump maze's digit readings by how often its page prints each digit. A maze prints a
//! few digits many times (1s, 2s and 3s) and others rarely or never, while the classifier was
//! trained on every digit alike: under heavy blur it read a maze's 2 as a 7 at 0.64, a digit no
//! other cell of that maze holds. The page's shares of the digits are estimated from the
//! readings themselves by expectation-maximisation (Saerens, Latinne and Decaestecker, "Adjusting
//! the outputs of a classifier to new a priori probabilities", 2002), and a cell whose likeliest
//! digit, so weighed, is another takes that one. With the company's `RULED_OUT` in place, the
//! 96 hard dev mazes read exactly went 87.5 -> 88.5%, and 30 hard photos of mazes given three
//! rare digits each 63.3 -> 66.7%, none lost.
//!
//! Used for jump mazes only, whose solver cannot catch a misread. It does not read glyphs, and
//! leaves blanks, numbers of several digits and the readings it does not change as read.

use super::{CellRead, CellValue, GridRead};

/// Rounds of expectation-maximisation. This and [`PSEUDO_COUNT`] are the first values tried, not
/// tuned.
const ROUNDS: usize = 30;
/// Cells' worth of each digit added to the page's counts, so that a digit the estimate finds
/// nowhere keeps a share and a reading sure enough can still hold it (a 7 read at 0.97 on a
/// page of 60 cells of 1s to 3s stays a 7).
const PSEUDO_COUNT: f32 = 0.5;
/// The share of each of the ten digits the classifier was trained with.
const EVEN_SHARE: f32 = 0.1;

/// `read` with each single digit's reading weighed by the page's share of that digit against
/// [`EVEN_SHARE`], where that makes another of its readings the likeliest.
pub fn weighed_by_shares(mut read: GridRead) -> GridRead {
    let readings: Vec<[f32; 10]> = read.cells.iter().filter_map(digit_readings).collect();
    if readings.is_empty() {
        return read;
    }
    let shares = page_shares(&readings);
    let weight = |digit: u32| shares[digit as usize] / EVEN_SHARE;
    for cell in &mut read.cells {
        let Some(listed) = listed_digits(cell) else {
            continue;
        };
        // (digit, probability as read, weighed)
        let mut candidates: Vec<(u32, f32, f32)> = listed
            .iter()
            .map(|&(digit, probability)| (digit, probability, probability * weight(digit)))
            .collect();
        // The readings not listed keep their unweighed share of the whole.
        let unlisted = (1.0 - candidates.iter().map(|c| c.1).sum::<f32>()).max(0.0);
        let total = candidates.iter().map(|c| c.2).sum::<f32>() + unlisted;
        candidates.sort_by(|a, b| b.2.total_cmp(&a.2));
        if candidates[0].0 == listed[0].0 {
            continue;
        }
        let others_read = cell
            .alternatives
            .iter()
            .filter(|(value, _)| !matches!(value, CellValue::Number(_)))
            .copied();
        cell.alternatives = candidates[1..]
            .iter()
            .map(|&(digit, _, weighed)| (CellValue::Number(digit), weighed / total))
            .chain(others_read)
            .collect();
        cell.value = CellValue::Number(candidates[0].0);
        cell.confidence = candidates[0].2 / total;
    }
    read
}

/// A cell read as a single digit: that digit with its confidence, then each alternative that
/// is a single digit, with its probability. `None` for blanks, black cells and numbers of
/// several digits.
fn listed_digits(cell: &CellRead) -> Option<Vec<(u32, f32)>> {
    let single = |value: CellValue| match value {
        CellValue::Number(digit) if digit <= 9 => Some(digit),
        _ => None,
    };
    let read_digit = single(cell.value)?;
    let alternatives = cell
        .alternatives
        .iter()
        .filter_map(|&(value, probability)| Some((single(value)?, probability)));
    Some(
        std::iter::once((read_digit, cell.confidence))
            .chain(alternatives)
            .collect(),
    )
}

/// A single digit's readings ([`listed_digits`]) as probabilities by digit, summing to one.
fn digit_readings(cell: &CellRead) -> Option<[f32; 10]> {
    let mut readings = [0.0f32; 10];
    for (digit, probability) in listed_digits(cell)? {
        readings[digit as usize] += probability;
    }
    let total: f32 = readings.iter().sum();
    (total > 0.0).then(|| readings.map(|p| p / total))
}

/// The page's share of each digit: each cell's readings weighed by the shares and made to sum
/// to one, summed over the page with [`PSEUDO_COUNT`], and taken as the next shares.
fn page_shares(readings: &[[f32; 10]]) -> [f32; 10] {
    let mut shares = [EVEN_SHARE; 10];
    for _ in 0..ROUNDS {
        let mut counts = [0.0f32; 10];
        for cell in readings {
            let weighed: [f32; 10] = std::array::from_fn(|d| cell[d] * shares[d]);
            let total = weighed.iter().sum::<f32>().max(1e-12);
            for (count, w) in counts.iter_mut().zip(weighed) {
                *count += w / total;
            }
        }
        let cells = readings.len() as f32;
        shares = counts.map(|count| (count + PSEUDO_COUNT) / (cells + 10.0 * PSEUDO_COUNT));
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(index: usize, value: u32, confidence: f32, others: &[(u32, f32)]) -> CellRead {
        CellRead {
            row: index / 10,
            column: index % 10,
            value: CellValue::Number(value),
            confidence,
            alternatives: others
                .iter()
                .map(|&(digit, p)| (CellValue::Number(digit), p))
                .chain([(CellValue::Blank, 0.0)])
                .collect(),
        }
    }

    /// A maze of 1s, 2s and 3s read surely, with `odd` as its last cell.
    fn maze_with(odd: CellRead) -> GridRead {
        let mut cells: Vec<CellRead> = (0..59)
            .map(|i| cell(i, 1 + (i % 3) as u32, 0.95, &[(8, 0.03)]))
            .collect();
        cells.push(odd);
        GridRead {
            rows: 6,
            columns: 10,
            cells,
            quarter_turns: 0,
            orientation_in_doubt: false,
            start_off_centre: None,
            digits_beyond: None,
        }
    }

    #[test]
    fn a_digit_the_page_does_not_print_gives_way_to_one_it_does() {
        let read = weighed_by_shares(maze_with(cell(59, 7, 0.64, &[(2, 0.3), (5, 0.04)])));
        let odd = &read.cells[59];
        assert_eq!(odd.value, CellValue::Number(2));
        assert!(odd.confidence > 0.8, "{odd:?}");
        assert_eq!(odd.alternatives[0].0, CellValue::Number(7));
        assert_eq!(odd.alternatives.last(), Some(&(CellValue::Blank, 0.0)));
        // The sure readings are left as they were.
        assert_eq!(
            read.cells[..59],
            maze_with(cell(59, 7, 0.64, &[])).cells[..59]
        );
    }

    #[test]
    fn a_rare_digit_read_surely_stays() {
        let read = weighed_by_shares(maze_with(cell(59, 7, 0.97, &[(2, 0.02)])));
        assert_eq!(read.cells[59].value, CellValue::Number(7));
        assert_eq!(read.cells[59].confidence, 0.97);
    }

    #[test]
    fn the_shares_follow_the_page() {
        let readings: Vec<[f32; 10]> = maze_with(cell(59, 1, 0.95, &[]))
            .cells
            .iter()
            .filter_map(digit_readings)
            .collect();
        let shares = page_shares(&readings);
        assert!((shares.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        // 21 cells of 1, 20 of 2 and 19 of 3, each with half a cell more, of 65 cells' worth.
        for (digit, cells) in [(1, 21.0), (2, 20.0), (3, 19.0)] {
            let expected = (cells + PSEUDO_COUNT) / 65.0;
            assert!((shares[digit] - expected).abs() < 0.01, "{shares:?}");
        }
        assert!(shares[7] < 0.01, "{shares:?}");
    }
}
