//! Nurikabe text formats: the code-golf line `m,n s,x,y ...` (y counted from the bottom) and a
//! plain grid (numbers are clues, `.` unknown). Parsing and printing only.

use std::collections::HashSet;

use super::Nurikabe;
use crate::kinds::{grid_lines, MAX_SIDE};
use crate::text::{number, tokens, ParseError};

/// Whether `text` is a code-golf line or a grid of numbers and dots.
pub fn looks_like_nurikabe(text: &str) -> bool {
    let lines: Vec<_> = grid_lines(text).collect();
    let is_line_format =
        lines.len() == 1 && is_size_token(lines[0].1.split_whitespace().next().unwrap_or(""));
    let is_grid = !lines.is_empty()
        && lines.iter().all(|(_, line)| {
            tokens(line).all(|(_, t)| t == "." || t.bytes().all(|b| b.is_ascii_digit()))
        })
        && lines
            .windows(2)
            .all(|w| tokens(w[0].1).count() == tokens(w[1].1).count());
    is_line_format || is_grid
}

fn is_size_token(token: &str) -> bool {
    let mut parts = token.split(',');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Parses either format.
pub fn parse(text: &str) -> Result<Nurikabe, ParseError> {
    let lines: Vec<_> = grid_lines(text).collect();
    match lines.as_slice() {
        [] => Err(ParseError::whole("empty Nurikabe puzzle")),
        [(line, content)] if content.contains(',') => parse_line_format(*line, content),
        _ => parse_grid(&lines),
    }
}

fn parse_line_format(line: usize, content: &str) -> Result<Nurikabe, ParseError> {
    let mut parts = tokens(content);
    let (column, size) = parts
        .next()
        .ok_or_else(|| ParseError::new(line, 1, "missing `width,height`"))?;
    let numbers =
        |token: &str, column: usize, count: usize, what: &str| -> Result<Vec<u64>, ParseError> {
            let fields: Vec<&str> = token.split(',').collect();
            if fields.len() != count {
                return Err(ParseError::new(
                    line,
                    column,
                    format!("expected {what}, found `{token}`"),
                ));
            }
            let mut field_column = column;
            fields
                .iter()
                .map(|field| {
                    let n = number(field, line, field_column, what, u32::MAX as u64);
                    field_column += field.chars().count() + 1;
                    n
                })
                .collect()
        };
    let dims = numbers(size, column, 2, "`width,height`")?;
    let (width, height) = (dims[0] as usize, dims[1] as usize);
    check_size(width, height, line, column)?;
    let mut clues = Vec::new();
    let mut seen = HashSet::new();
    for (column, token) in parts {
        let fields = numbers(token, column, 3, "a clue `size,x,y`")?;
        let (size, x, y) = (fields[0] as u32, fields[1] as usize, fields[2] as usize);
        if x >= width || y >= height {
            return Err(ParseError::new(
                line,
                column,
                format!("clue `{token}` lies outside the {width}x{height} grid"),
            ));
        }
        let row = height - 1 - y;
        push_clue(&mut clues, &mut seen, (row, x, size), line, column)?;
    }
    Ok(Nurikabe {
        width,
        height,
        clues,
    })
}

fn parse_grid(lines: &[(usize, &str)]) -> Result<Nurikabe, ParseError> {
    let width = tokens(lines[0].1).count();
    let height = lines.len();
    check_size(width, height, lines[0].0, 1)?;
    let mut clues = Vec::new();
    let mut seen = HashSet::new();
    for (row, &(line, content)) in lines.iter().enumerate() {
        let cells: Vec<_> = tokens(content).collect();
        if cells.len() != width {
            return Err(ParseError::new(
                line,
                1,
                format!("row has {} cells, the first row has {width}", cells.len()),
            ));
        }
        for (column_index, &(column, token)) in cells.iter().enumerate() {
            if token != "." {
                let size = number(
                    token,
                    line,
                    column,
                    "a clue or `.`",
                    (width * height) as u64,
                )? as u32;
                push_clue(
                    &mut clues,
                    &mut seen,
                    (row, column_index, size),
                    line,
                    column,
                )?;
            }
        }
    }
    Ok(Nurikabe {
        width,
        height,
        clues,
    })
}

fn check_size(width: usize, height: usize, line: usize, column: usize) -> Result<(), ParseError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(ParseError::new(
            line,
            column,
            format!("grid size {width}x{height} is outside 1..={MAX_SIDE}"),
        ));
    }
    Ok(())
}

fn push_clue(
    clues: &mut Vec<(usize, usize, u32)>,
    seen: &mut HashSet<(usize, usize)>,
    clue: (usize, usize, u32),
    line: usize,
    column: usize,
) -> Result<(), ParseError> {
    if clue.2 == 0 {
        return Err(ParseError::new(
            line,
            column,
            "an island size must be at least 1",
        ));
    }
    if !seen.insert((clue.0, clue.1)) {
        return Err(ParseError::new(
            line,
            column,
            format!("a second clue in row {}, column {}", clue.0, clue.1),
        ));
    }
    clues.push(clue);
    Ok(())
}

/// The puzzle as a grid, top row first; `parse` of the result gives the same puzzle back.
pub fn to_grid_text(puzzle: &Nurikabe) -> String {
    let mut cells = vec![vec![".".to_string(); puzzle.width]; puzzle.height];
    for &(r, c, size) in &puzzle.clues {
        cells[r][c] = size.to_string();
    }
    cells.iter().map(|row| row.join(" ") + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_format_counts_rows_from_the_bottom() {
        let p = parse("5,5 3,0,1 1,4,1 2,0,4 2,2,4 2,4,4").unwrap();
        assert_eq!((p.width, p.height), (5, 5));
        assert_eq!(p.clues[0], (3, 0, 3));
        assert_eq!(p.clues[2], (0, 0, 2));
    }

    #[test]
    fn grid_format_and_round_trip() {
        let p = parse("2 . . .\n. . . 12\n. . . .\n. . . .\n").unwrap();
        assert_eq!(p.clues, vec![(0, 0, 2), (1, 3, 12)]);
        let sorted = |mut q: Nurikabe| {
            q.clues.sort();
            q
        };
        assert_eq!(sorted(parse(&to_grid_text(&p)).unwrap()), sorted(p.clone()));
        let from_line = parse("5,5 3,0,1 1,4,1 2,0,4 2,2,4 2,4,4").unwrap();
        assert_eq!(
            sorted(parse(&to_grid_text(&from_line)).unwrap()),
            sorted(from_line)
        );
    }

    #[test]
    fn malformed_input_is_located() {
        let err = parse("5,5 3,0,1 1,9,1").unwrap_err();
        assert_eq!((err.line, err.column), (1, 11), "{err}");
        let err = parse("5,5 3,0").unwrap_err();
        assert_eq!(err.column, 5, "{err}");
        let err = parse("1 .\n. . .\n").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        let err = parse("1 .\n. x\n").unwrap_err();
        assert_eq!((err.line, err.column), (2, 3), "{err}");
        assert!(parse("3,3 1,0,0 1,0,0")
            .unwrap_err()
            .message
            .contains("second clue"));
        assert!(parse("0,3").is_err());
        assert!(parse("3,3 0,1,1").is_err());
    }
}
