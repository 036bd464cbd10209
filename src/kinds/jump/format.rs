//! Jump-maze text: one line per row, cells separated by spaces, numbers inside the shape, `0` or
//! `.` outside; an optional line `start R C` after the grid. Parsing and printing only.

use super::JumpMaze;
use crate::kinds::{grid_lines, MAX_SIDE};
use crate::text::{number, tokens, ParseError};

/// Whether `text` is a grid of numbers and dots that looks like a maze rather than a Nurikabe:
/// it has a `start` line, a `0` cell, or more numbers than dots.
pub fn looks_like_jump(text: &str) -> bool {
    let lines: Vec<_> = grid_lines(text).collect();
    let (grid, start) = split_start(&lines);
    if grid.is_empty()
        || grid.iter().any(|(_, line)| {
            tokens(line).any(|(_, t)| t != "." && !t.bytes().all(|b| b.is_ascii_digit()))
        })
    {
        return false;
    }
    let cells = grid
        .iter()
        .flat_map(|(_, line)| tokens(line).map(|(_, t)| t));
    let (numbers, dots) = cells.fold(
        (0, 0),
        |(n, d), t| if t == "." { (n, d + 1) } else { (n + 1, d) },
    );
    let has_zero = grid
        .iter()
        .any(|(_, line)| tokens(line).any(|(_, t)| t.bytes().all(|b| b == b'0')));
    start.is_some() || has_zero || numbers > dots
}

/// A text line and its 1-based number.
type NumberedLine<'a> = (usize, &'a str);

/// The grid lines and, when the last line is one, the `start` line.
fn split_start<'a>(
    lines: &'a [NumberedLine<'a>],
) -> (&'a [NumberedLine<'a>], Option<NumberedLine<'a>>) {
    match lines.split_last() {
        Some((&last, grid)) if last.1.trim_start().starts_with("start") => (grid, Some(last)),
        _ => (lines, None),
    }
}

/// Parses a maze; the start defaults to the centre cell.
pub fn parse(text: &str) -> Result<JumpMaze, ParseError> {
    let lines: Vec<_> = grid_lines(text).collect();
    let (rows, start_line) = split_start(&lines);
    let Some(&(first_line, first)) = rows.first() else {
        return Err(ParseError::whole("empty jump maze"));
    };
    let width = tokens(first).count();
    if rows.len() > MAX_SIDE || width > MAX_SIDE {
        return Err(ParseError::new(
            first_line,
            1,
            format!(
                "maze of {width}x{} is larger than {MAX_SIDE}x{MAX_SIDE}",
                rows.len()
            ),
        ));
    }
    let mut grid = Vec::with_capacity(rows.len());
    for &(line, content) in rows {
        let cells: Vec<_> = tokens(content).collect();
        if cells.len() != width {
            return Err(ParseError::new(
                line,
                1,
                format!("row has {} cells, the first row has {width}", cells.len()),
            ));
        }
        let row = cells
            .iter()
            .map(|&(column, token)| {
                if token == "." {
                    Ok(0)
                } else {
                    number(token, line, column, "a jump length or `.`", MAX_SIDE as u64)
                        .map(|n| n as u32)
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        grid.push(row);
    }
    let start = match start_line {
        Some((line, content)) => {
            let parts: Vec<_> = tokens(content).collect();
            if parts.len() != 3 {
                return Err(ParseError::new(line, 1, "expected `start ROW COLUMN`"));
            }
            let row =
                number(parts[1].1, line, parts[1].0, "a start row", u32::MAX as u64)? as usize;
            let column = number(
                parts[2].1,
                line,
                parts[2].0,
                "a start column",
                u32::MAX as u64,
            )? as usize;
            (row, column, line)
        }
        None => (grid.len() / 2, width / 2, first_line),
    };
    let maze = JumpMaze {
        grid,
        start: (start.0, start.1),
    };
    if maze.value(start.0 as i64, start.1 as i64).is_none() {
        return Err(ParseError::new(
            start.2,
            1,
            format!(
                "the start, row {} column {}, is not inside the shape",
                start.0, start.1
            ),
        ));
    }
    Ok(maze)
}

/// The maze as text with an explicit `start` line; `parse` of the result gives it back.
pub fn to_text(maze: &JumpMaze) -> String {
    let mut text: String = maze
        .grid
        .iter()
        .map(|row| {
            row.iter()
                .map(|&v| {
                    if v == 0 {
                        ".".to_string()
                    } else {
                        v.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    text += &format!("start {} {}\n", maze.start.0, maze.start.1);
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_start_dots_and_zeros() {
        let maze = parse(". 1 .\n0 3 2\n. 4 .\n").unwrap();
        assert_eq!(maze.start, (1, 1));
        assert_eq!(maze.grid, vec![vec![0, 1, 0], vec![0, 3, 2], vec![0, 4, 0]]);
        assert_eq!(parse(&to_text(&maze)).unwrap(), maze);
    }

    #[test]
    fn explicit_start() {
        let maze = parse("1 2\n3 4\nstart 0 1\n").unwrap();
        assert_eq!(maze.start, (0, 1));
    }

    #[test]
    fn errors_are_located() {
        assert_eq!(parse("1 2\n3\n").unwrap_err().line, 2);
        let err = parse("1 x\n").unwrap_err();
        assert_eq!((err.line, err.column), (1, 3));
        assert!(parse(". . .\n. . .\n. . .\n")
            .unwrap_err()
            .message
            .contains("not inside"));
        assert!(parse("1 2\nstart 0\n")
            .unwrap_err()
            .message
            .contains("start ROW COLUMN"));
        assert!(parse("1 2\nstart 5 5\n").is_err());
    }
}
