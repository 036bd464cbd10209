//! The `.non` text format (Steve Simpson's, as documented by nonogram-db) plus the `given` key.
//!
//! Parses single puzzles and `====`-separated packs, and prints a puzzle back. Unknown lines are
//! ignored as the format requires; colour letters after clue numbers are ignored (gridsight solves
//! black-and-white puzzles only).

use std::fmt::Write;

use super::Nonogram;
use crate::grid::BinaryGrid;
use crate::kinds::MAX_SIDE;
use crate::text::{number, ParseError};

/// Whether `text` has the keys every `.non` file must have.
pub fn looks_like_non(text: &str) -> bool {
    let has_key = |key: &str| text.lines().any(|line| first_word(line) == key);
    has_key("width") && has_key("height") && has_key("rows") && has_key("columns")
}

fn first_word(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// Parses every puzzle of a `.non` file or `.nonpack` bundle.
pub fn parse_pack(text: &str) -> Result<Vec<Nonogram>, ParseError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut puzzles = Vec::new();
    let mut start = 0;
    for (i, line) in lines
        .iter()
        .enumerate()
        .chain(std::iter::once((lines.len(), &"====")))
    {
        if line.trim() == "====" {
            let part = &lines[start..i];
            if part.iter().any(|l| !l.trim().is_empty()) {
                puzzles.push(parse_lines(part, start)?);
            }
            start = i + 1;
        }
    }
    if puzzles.is_empty() {
        return Err(ParseError::whole("no nonogram in the text"));
    }
    Ok(puzzles)
}

/// Parses one puzzle; `offset` is the number of lines before `lines` in the file, for error positions.
fn parse_lines(lines: &[&str], offset: usize) -> Result<Nonogram, ParseError> {
    let at = |index: usize| offset + index + 1;
    let mut width = None;
    let mut height = None;
    let mut rows = None;
    let mut columns = None;
    let mut goal = None;
    let mut givens = None;
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let key = first_word(line);
        let value = line.trim_start()[key.len()..].trim();
        let value_column = line.len() - line.trim_start()[key.len()..].trim_start().len() + 1;
        match key {
            "width" | "height" => {
                let n = number(value, at(index), value_column, key, MAX_SIDE as u64)? as usize;
                if key == "width" {
                    width = Some(n)
                } else {
                    height = Some(n)
                }
            }
            "rows" | "columns" => {
                let (count, other) = if key == "rows" {
                    (height, "height")
                } else {
                    (width, "width")
                };
                let count = count.ok_or_else(|| {
                    ParseError::new(at(index), 1, format!("`{key}` comes before `{other}`"))
                })?;
                let section_end = (index + 1..lines.len())
                    .find(|&i| {
                        lines[i]
                            .trim_start()
                            .starts_with(|c: char| !c.is_ascii_digit())
                    })
                    .unwrap_or(lines.len());
                let mut body: Vec<usize> = (index + 1..section_end).collect();
                while body.last().is_some_and(|&i| lines[i].trim().is_empty()) {
                    body.pop();
                }
                while body.len() > count && lines[body[0]].trim().is_empty() {
                    body.remove(0);
                }
                if body.len() != count {
                    return Err(ParseError::new(
                        at(index),
                        1,
                        format!("`{key}` needs {count} lines of clues, found {}", body.len()),
                    ));
                }
                let clues = body
                    .iter()
                    .map(|&i| parse_clue_line(lines[i], at(i), count_limit(key, width, height)))
                    .collect::<Result<Vec<_>, _>>()?;
                if key == "rows" {
                    rows = Some(clues)
                } else {
                    columns = Some(clues)
                }
                index = section_end;
                continue;
            }
            "goal" | "given" => {
                let cells = value.trim_matches('"');
                if key == "goal" {
                    goal = Some((cells, at(index), value_column))
                } else {
                    givens = Some((cells, at(index), value_column))
                }
            }
            _ => {}
        }
        index += 1;
    }
    let missing = |what: &str| ParseError::new(offset + 1, 1, format!("missing `{what}`"));
    let (width, height) = (
        width.ok_or_else(|| missing("width"))?,
        height.ok_or_else(|| missing("height"))?,
    );
    let rows = rows.ok_or_else(|| missing("rows"))?;
    let columns = columns.ok_or_else(|| missing("columns"))?;
    let grid_of = |(cells, line, column): (&str, usize, usize),
                   key: &str|
     -> Result<Vec<Vec<bool>>, ParseError> {
        let cells: Vec<char> = cells.chars().collect();
        if cells.len() != width * height {
            return Err(ParseError::new(
                line,
                column,
                format!(
                    "`{key}` needs {} cells, found {}",
                    width * height,
                    cells.len()
                ),
            ));
        }
        Ok(cells
            .chunks(width.max(1))
            .take(height)
            .map(|row| row.iter().map(|&c| c != '0').collect())
            .collect())
    };
    let goal = goal
        .map(|g| grid_of(g, "goal"))
        .transpose()?
        .map(BinaryGrid::new);
    let givens = match givens {
        Some(g) => {
            let (text, line, column) = g;
            if let Some(bad) = text.chars().position(|c| c != '0' && c != '1') {
                return Err(ParseError::new(
                    line,
                    column + bad + 1,
                    "`given` cells must be 0 or 1",
                ));
            }
            let grid = grid_of(g, "given")?;
            (0..height)
                .flat_map(|r| (0..width).map(move |c| (r, c)))
                .filter(|&(r, c)| grid[r][c])
                .collect()
        }
        None => Vec::new(),
    };
    Ok(Nonogram {
        rows,
        columns,
        givens,
        goal,
    })
}

fn count_limit(key: &str, width: Option<usize>, height: Option<usize>) -> u64 {
    let side = if key == "rows" { width } else { height };
    side.unwrap_or(MAX_SIDE) as u64
}

/// A clue line: numbers separated by commas or spaces, each optionally followed by a colour
/// letter; empty or `0` for an empty line.
fn parse_clue_line(line: &str, line_number: usize, max: u64) -> Result<Vec<u32>, ParseError> {
    let mut clues = Vec::new();
    let mut column = 1;
    for part in line.split([',', ' ', '\t']) {
        let digits = part.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        if !digits.is_empty() {
            let n = number(digits, line_number, column, "a clue", max)? as u32;
            if n > 0 {
                clues.push(n);
            }
        }
        column += part.chars().count() + 1;
    }
    Ok(clues)
}

/// The puzzle in `.non` form; `parse_pack` of the result gives the puzzle back.
pub fn to_text(puzzle: &Nonogram) -> String {
    let mut out = String::new();
    // An empty line is written `0`: a blank line could be taken for a separator.
    let clue_line = |clues: &[u32]| {
        if clues.is_empty() {
            "0".to_string()
        } else {
            clues
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    let _ = writeln!(
        out,
        "width {}\nheight {}\n\nrows",
        puzzle.columns.len(),
        puzzle.rows.len()
    );
    for clues in &puzzle.rows {
        let _ = writeln!(out, "{}", clue_line(clues));
    }
    out.push_str("\ncolumns\n");
    for clues in &puzzle.columns {
        let _ = writeln!(out, "{}", clue_line(clues));
    }
    let cells = |filled: &dyn Fn(usize, usize) -> bool| -> String {
        (0..puzzle.rows.len())
            .flat_map(|r| (0..puzzle.columns.len()).map(move |c| (r, c)))
            .map(|(r, c)| if filled(r, c) { '1' } else { '0' })
            .collect()
    };
    if !puzzle.givens.is_empty() {
        let _ = writeln!(
            out,
            "\ngiven \"{}\"",
            cells(&|r, c| puzzle.givens.contains(&(r, c)))
        );
    }
    if let Some(goal) = &puzzle.goal {
        let _ = writeln!(out, "\ngoal \"{}\"", cells(&|r, c| goal.get(r, c)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = "catalogue \"demo\"\nwidth 3\nheight 2\n\nrows\n3\n1,1\n\ncolumns\n2\n1\n2\n\ngoal \"111101\"\n";

    #[test]
    fn colour_letters_after_clues_are_ignored() {
        let p = &parse_pack("width 3\nheight 1\nrows\n1a,1b\ncolumns\n1\n0\n1\n").unwrap()[0];
        assert_eq!(p.rows, vec![vec![1, 1]]);
    }

    #[test]
    fn parses_keys_clues_and_goal() {
        let puzzles = parse_pack(DEMO).unwrap();
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!(p.rows, vec![vec![3], vec![1, 1]]);
        assert_eq!(p.columns, vec![vec![2], vec![1], vec![2]]);
        assert!(p.is_solved_by(p.goal.as_ref().unwrap()));
    }

    #[test]
    fn empty_lines_and_zero_are_empty_rows() {
        let text = "width 2\nheight 3\nrows\n\n0\n2\n\ncolumns\n1\n1\n";
        let p = &parse_pack(text).unwrap()[0];
        assert_eq!(p.rows, vec![vec![], vec![], vec![2]]);
    }

    #[test]
    fn round_trip_through_text() {
        let mut p = parse_pack(DEMO).unwrap().remove(0);
        p.givens = vec![(0, 2)];
        assert_eq!(parse_pack(&to_text(&p)).unwrap(), vec![p]);
    }

    #[test]
    fn packs_hold_several_puzzles() {
        let pack = format!("{DEMO}====\n{DEMO}");
        assert_eq!(parse_pack(&pack).unwrap().len(), 2);
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = parse_pack("width 2\nheight 1\nrows\n1,?\ncolumns\n1\n1\n").unwrap_err();
        assert_eq!((err.line, err.column), (4, 3), "{err}");
        let err = parse_pack("width 2\nheight 2\nrows\n1\ncolumns\n1\n1\n").unwrap_err();
        assert_eq!(err.line, 3, "{err}");
        assert!(err.message.contains("needs 2 lines"), "{err}");
        let err =
            parse_pack("width 2\nheight 1\nrows\n1\ncolumns\n1\n1\ngoal \"1\"\n").unwrap_err();
        assert_eq!(err.line, 8);
        let err = parse_pack("width 9999\nheight 1\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, 7));
        assert!(parse_pack("height 1\nrows\n1\ncolumns\n1\n")
            .unwrap_err()
            .message
            .contains("width"));
        assert!(parse_pack("width 1\nheight 1\nrows\n3\ncolumns\n1\n")
            .unwrap_err()
            .message
            .contains("larger"));
    }
}
