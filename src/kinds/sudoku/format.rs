//! Sudoku text: 81 cells of `1`-`9`, `0` or `.` for blank, whitespace ignored (so one line of 81
//! or nine lines of nine). Parsing and printing only.

use super::Sudoku;
use crate::text::ParseError;

/// Whether `text` holds exactly 81 cell characters and nothing else.
pub fn looks_like_sudoku(text: &str) -> bool {
    let cells: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    cells.len() == 81 && cells.iter().all(|&c| c.is_ascii_digit() || c == '.')
}

/// Parses 81 cells.
pub fn parse(text: &str) -> Result<Sudoku, ParseError> {
    let mut cells = [0u8; 81];
    let mut count = 0;
    for (line_index, line) in text.lines().enumerate() {
        for (column_index, c) in line.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            let value = match c {
                '.' => 0,
                '0'..='9' => c as u8 - b'0',
                _ => {
                    return Err(ParseError::new(
                        line_index + 1,
                        column_index + 1,
                        format!("`{c}` is not a Sudoku cell (1-9, 0 or .)"),
                    ))
                }
            };
            if count == 81 {
                return Err(ParseError::new(
                    line_index + 1,
                    column_index + 1,
                    "more than 81 cells",
                ));
            }
            cells[count] = value;
            count += 1;
        }
    }
    if count != 81 {
        return Err(ParseError::whole(format!(
            "a Sudoku has 81 cells, found {count}"
        )));
    }
    Ok(Sudoku { cells })
}

/// The nine rows as digit strings.
pub fn rows(cells: &[u8; 81]) -> impl Iterator<Item = String> + '_ {
    cells
        .chunks(9)
        .map(|row| row.iter().map(|&d| char::from(b'0' + d)).collect())
}

/// Nine lines of nine digits, `0` for blank.
pub fn to_text(cells: &[u8; 81]) -> String {
    rows(cells).map(|row| row + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_and_nine_lines_agree() {
        let line = format!("53..7....{}", "0".repeat(72));
        let a = parse(&line).unwrap();
        let b = parse(&to_text(&a.cells)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.cells[..5], [5, 3, 0, 0, 7]);
    }

    #[test]
    fn bad_cells_and_counts_are_reported() {
        let err = parse(&format!("12x{}", "0".repeat(78))).unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
        assert!(parse(&"0".repeat(80))
            .unwrap_err()
            .message
            .contains("found 80"));
        let err = parse(&format!("{}\n00", "0".repeat(81))).unwrap_err();
        assert_eq!((err.line, err.column), (2, 1));
    }
}
