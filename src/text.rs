//! Helpers shared by the puzzle text parsers: positioned errors and number scanning.
//!
//! Each kind's `format` module owns its grammar; this module only knows lines and columns.

use std::fmt;

/// A malformed puzzle text, located by 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl ParseError {
    pub fn new(line: usize, column: usize, message: impl Into<String>) -> Self {
        ParseError {
            line,
            column,
            message: message.into(),
        }
    }

    /// An error about the text as a whole, reported at its first line.
    pub fn whole(message: impl Into<String>) -> Self {
        ParseError::new(1, 1, message)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for ParseError {}

/// A whitespace-separated token and the 1-based column where it starts.
pub fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    line.char_indices()
        .filter(|&(i, c)| {
            !c.is_whitespace() && (i == 0 || line[..i].ends_with(char::is_whitespace))
        })
        .map(move |(i, _)| {
            let rest = &line[i..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (line[..i].chars().count() + 1, &rest[..end])
        })
}

/// Parses a non-negative decimal number no larger than `max`, naming `what` in the error.
pub fn number(
    token: &str,
    line: usize,
    column: usize,
    what: &str,
    max: u64,
) -> Result<u64, ParseError> {
    if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(
            line,
            column,
            format!("expected {what} (a number), found `{token}`"),
        ));
    }
    match token.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(ParseError::new(
            line,
            column,
            format!("{what} `{token}` is larger than {max}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_report_one_based_columns() {
        let found: Vec<_> = tokens("  ab c\tdd ").collect();
        assert_eq!(found, vec![(3, "ab"), (6, "c"), (8, "dd")]);
    }

    #[test]
    fn number_rejects_signs_and_overflow() {
        assert_eq!(number("42", 1, 1, "a clue", 100), Ok(42));
        assert!(number("-1", 1, 1, "a clue", 100).is_err());
        assert!(number("101", 1, 1, "a clue", 100)
            .unwrap_err()
            .message
            .contains("larger"));
        assert!(number("99999999999999999999999", 1, 1, "a clue", 100).is_err());
    }
}
