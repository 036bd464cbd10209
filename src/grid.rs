//! A solved grid of two-valued cells: nonogram filled/empty, Nurikabe land/water.
//!
//! It prints itself as `#`/`.` rows and, when square, is a QR bit grid (`rqrr::BitGrid`), so a
//! solved nonogram can be decoded without going through pixels. It knows nothing of clues.

use serde_json::Value;

/// Rows of two-valued cells as the solvers return them, top first; `true` is filled or land.
pub type Rows = Vec<Vec<bool>>;

/// Rows of cells, top first; `true` is filled (nonogram) or land (Nurikabe).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinaryGrid {
    rows: Vec<Vec<bool>>,
}

impl BinaryGrid {
    /// A grid from its rows; all rows must have the same length.
    pub fn new(rows: Vec<Vec<bool>>) -> Self {
        debug_assert!(rows.windows(2).all(|w| w[0].len() == w[1].len()));
        BinaryGrid { rows }
    }

    /// Parses `#`/`.` rows (the solution text format). Returns `None` if the text is not one.
    pub fn parse(text: &str) -> Option<Self> {
        let rows: Vec<Vec<bool>> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .map(|line| line.chars().map(|c| c == '#').collect())
            .collect();
        let valid = text
            .lines()
            .flat_map(str::chars)
            .all(|c| matches!(c, '#' | '.') || c.is_whitespace());
        (valid && rows.windows(2).all(|w| w[0].len() == w[1].len())).then_some(BinaryGrid { rows })
    }

    pub fn width(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    pub fn height(&self) -> usize {
        self.rows.len()
    }

    pub fn get(&self, row: usize, column: usize) -> bool {
        self.rows[row][column]
    }

    pub fn rows(&self) -> &[Vec<bool>] {
        &self.rows
    }

    /// One `#`/`.` line per row, top first.
    pub fn to_text(&self) -> String {
        self.row_strings().map(|row| row + "\n").collect()
    }

    /// The rows as JSON strings of `#` and `.`.
    pub fn to_json(&self) -> Value {
        Value::from(self.row_strings().collect::<Vec<_>>())
    }

    fn row_strings(&self) -> impl Iterator<Item = String> + '_ {
        self.rows.iter().map(|row| {
            row.iter()
                .map(|&cell| if cell { '#' } else { '.' })
                .collect()
        })
    }
}

impl rqrr::BitGrid for BinaryGrid {
    fn size(&self) -> usize {
        self.height()
    }

    fn bit(&self, y: usize, x: usize) -> bool {
        self.rows[y][x]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        let text = "#..#\n.##.\n";
        let grid = BinaryGrid::parse(text).unwrap();
        assert_eq!((grid.width(), grid.height()), (4, 2));
        assert!(grid.get(0, 0) && !grid.get(0, 1));
        assert_eq!(grid.to_text(), text);
        assert_eq!(grid.to_json(), serde_json::json!(["#..#", ".##."]));
    }

    #[test]
    fn ragged_or_foreign_text_is_not_a_grid() {
        assert!(BinaryGrid::parse("#.\n#\n").is_none());
        assert!(BinaryGrid::parse("#x\n").is_none());
    }
}
