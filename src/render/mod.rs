//! Draws puzzles as they are printed: a puzzle (any kind) becomes a white page with its grid,
//! clues and digits, or with its solution drawn in (filled cells, water, digits, the jump path).
//!
//! [`render_state`] draws a partly solved grid (a solver's [`Snapshot`]) on the same page, for
//! the frames of an animation: open cells shaded, known ones drawn as the kind draws them.
//!
//! One file per kind lays out its page; `canvas` holds the drawing primitives and `fonts` the
//! embedded typefaces. Nothing here reads or writes files, solves beyond asking the library's
//! solvers, or simulates a camera (that is `photo`).

pub mod canvas;
pub mod fonts;
mod jump;
mod nonogram;
mod nurikabe;
mod sudoku;

use image::{Rgb, RgbImage};

use crate::grid::BinaryGrid;
use crate::kinds::jump::{JumpMaze, JumpPath};
use crate::kinds::nonogram::{Nonogram, NonogramSolution};
use crate::kinds::nurikabe::Nurikabe;
use crate::kinds::sudoku::{Sudoku, SudokuSolution};
use crate::kinds::{Puzzle, Solution};
use crate::limits::Deadline;
use crate::outcome::Outcome;
use crate::trace::Snapshot;

pub use fonts::FontName;

/// How clues and cells are boxed. Kinds without a choice (Nurikabe, Sudoku) ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Nonogram: clues as space-separated numbers. Jump maze: digits only, no cell lines.
    Plain,
    /// Nonogram: "magazine" style, each clue in a box of its own. Jump maze: each cell boxed.
    Boxed,
}

impl Style {
    pub const ALL: [Style; 2] = [Style::Plain, Style::Boxed];

    /// The name used on the command line and in ground truth.
    pub fn name(self) -> &'static str {
        match self {
            Style::Plain => "plain",
            Style::Boxed => "boxed",
        }
    }

    /// Parses a style name; `magazine` and `digits` are accepted as the kind-specific names.
    pub fn from_name(name: &str) -> Option<Style> {
        match name {
            "plain" | "digits" => Some(Style::Plain),
            "boxed" | "magazine" => Some(Style::Boxed),
            _ => None,
        }
    }
}

/// How a page is drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    pub style: Style,
    pub font: FontName,
    /// Side of one cell in pixels.
    pub cell: u32,
    /// Draw a thicker line every five cells (nonogram).
    pub thick_every_five: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            style: Style::Plain,
            font: FontName::Sans,
            cell: 40,
            thick_every_five: true,
        }
    }
}

/// A drawn page and where its grid is on it.
#[derive(Debug, Clone)]
pub struct Page {
    pub image: RgbImage,
    /// The outer corners of the puzzle grid (the cells, without clues) in pixels: top-left,
    /// top-right, bottom-right, bottom-left. For a jump maze, the box around its whole array.
    pub grid_corners: [(f32, f32); 4],
    /// The ink height in pixels of the smallest numbers printed in the puzzle (its clues or
    /// givens, not a solution's labels): how small the print a reader must make out is.
    pub number_height: f32,
}

/// A puzzle of a kind the renderer can draw, as its concrete type.
#[derive(Debug, Clone, PartialEq)]
pub enum Drawable {
    Nonogram(Nonogram),
    Nurikabe(Nurikabe),
    Jump(JumpMaze),
    Sudoku(Sudoku),
}

/// A solution in the form the renderer draws it.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Nonogram filled cells or Nurikabe land.
    Grid(BinaryGrid),
    Digits([u8; 81]),
    Path(JumpPath),
}

/// What can go wrong while preparing a page.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    #[error("cannot draw puzzles of kind {0}")]
    UnsupportedKind(String),
    #[error("the puzzle has no solution to draw")]
    NoSolution,
    #[error("the solver's time limit passed")]
    TimedOut,
    #[error("the puzzle is too large to draw ({0} pixels across)")]
    TooLarge(u64),
    #[error("a {0}x{1} grid state does not fit this puzzle")]
    StateSize(usize, usize),
}

/// What a kind's page shows in its cells: the puzzle as printed, its solution (`S`, the kind's
/// answer type), or a partly solved state.
pub(crate) enum Cells<'a, S: ?Sized> {
    Puzzle,
    Solution(&'a S),
    State(&'a Snapshot),
}

/// The largest page side drawn; beyond this the cell size should be reduced.
const MAX_PAGE_SIDE: u64 = 20_000;

impl Drawable {
    /// The concrete puzzle behind a `dyn Puzzle`.
    pub fn from_puzzle(puzzle: &dyn Puzzle) -> Result<Drawable, RenderError> {
        let any = puzzle.as_any();
        let drawable = if let Some(p) = any.downcast_ref::<Nonogram>() {
            Drawable::Nonogram(p.clone())
        } else if let Some(p) = any.downcast_ref::<Nurikabe>() {
            Drawable::Nurikabe(p.clone())
        } else if let Some(p) = any.downcast_ref::<JumpMaze>() {
            Drawable::Jump(p.clone())
        } else if let Some(p) = any.downcast_ref::<Sudoku>() {
            Drawable::Sudoku(p.clone())
        } else {
            return Err(RenderError::UnsupportedKind(puzzle.kind().to_string()));
        };
        Ok(drawable)
    }

    /// The puzzle as the library's trait object, for its JSON and text.
    pub fn as_puzzle(&self) -> &dyn Puzzle {
        match self {
            Drawable::Nonogram(p) => p,
            Drawable::Nurikabe(p) => p,
            Drawable::Jump(p) => p,
            Drawable::Sudoku(p) => p,
        }
    }

    /// Solves the puzzle with the library's solvers; the first solution when there are several.
    pub fn solve(&self, deadline: &Deadline) -> Result<Answer, RenderError> {
        let first = |outcome: Outcome<Answer>| match outcome {
            Outcome::NoSolution => Err(RenderError::NoSolution),
            Outcome::Unique(answer) | Outcome::Several(answer) => Ok(answer),
        };
        let timed_out = |_| RenderError::TimedOut;
        match self {
            Drawable::Nonogram(p) => {
                first(p.solve_grid(deadline).map_err(timed_out)?.map(Answer::Grid))
            }
            Drawable::Nurikabe(p) => {
                first(p.solve_grid(deadline).map_err(timed_out)?.map(Answer::Grid))
            }
            Drawable::Sudoku(p) => first(
                p.solve_cells(deadline)
                    .map_err(timed_out)?
                    .map(Answer::Digits),
            ),
            Drawable::Jump(p) => first(
                crate::kinds::jump::solver::solve(p, deadline)
                    .map_err(timed_out)?
                    .map(Answer::Path),
            ),
        }
    }
}

impl Answer {
    /// A solution found by the solve stage, in the form the renderer draws.
    pub fn from_solution(solution: &dyn Solution) -> Option<Answer> {
        let any = solution.as_any();
        any.downcast_ref::<NonogramSolution>()
            .map(|s| Answer::Grid(s.0.clone()))
            .or_else(|| {
                any.downcast_ref::<crate::kinds::nurikabe::NurikabeSolution>()
                    .map(|s| Answer::Grid(s.0.clone()))
            })
            .or_else(|| {
                any.downcast_ref::<SudokuSolution>()
                    .map(|s| Answer::Digits(s.0))
            })
            .or_else(|| {
                any.downcast_ref::<JumpPath>()
                    .map(|p| Answer::Path(p.clone()))
            })
    }

    /// The answer as the library's solution type (for the JSON report's `solution` and `qr`).
    pub fn to_solution(&self, kind: &Drawable) -> Box<dyn Solution> {
        match (self, kind) {
            (Answer::Grid(grid), Drawable::Nonogram(_)) => Box::new(NonogramSolution(grid.clone())),
            (Answer::Grid(grid), _) => {
                Box::new(crate::kinds::nurikabe::NurikabeSolution(grid.clone()))
            }
            (Answer::Digits(cells), _) => Box::new(SudokuSolution(*cells)),
            (Answer::Path(path), _) => Box::new(path.clone()),
        }
    }
}

/// Draws `puzzle`, with `answer` filled in when given (an answer of another kind is ignored).
pub fn render(
    puzzle: &Drawable,
    answer: Option<&Answer>,
    options: &RenderOptions,
) -> Result<Page, RenderError> {
    check_size(puzzle, options)?;
    Ok(match (puzzle, answer) {
        (Drawable::Nonogram(p), Some(Answer::Grid(grid))) => {
            nonogram::draw(p, Cells::Solution(grid), options)
        }
        (Drawable::Nonogram(p), _) => nonogram::draw(p, Cells::Puzzle, options),
        (Drawable::Nurikabe(p), Some(Answer::Grid(grid))) => {
            nurikabe::draw(p, Cells::Solution(grid), options)
        }
        (Drawable::Nurikabe(p), _) => nurikabe::draw(p, Cells::Puzzle, options),
        (Drawable::Sudoku(p), Some(Answer::Digits(cells))) => {
            sudoku::draw(p, Cells::Solution(cells), options)
        }
        (Drawable::Sudoku(p), _) => sudoku::draw(p, Cells::Puzzle, options),
        (Drawable::Jump(p), Some(Answer::Path(path))) => {
            jump::draw(p, Cells::Solution(path), options)
        }
        (Drawable::Jump(p), _) => jump::draw(p, Cells::Puzzle, options),
    })
}

/// Draws `puzzle` part way to its solution: the cells `state` knows drawn as the solution draws
/// them (given Sudoku digits in black, deduced ones blue; a jump maze's path so far, without its
/// exit), the open cells shaded. The page has the printed page's layout; a jump maze's solved
/// page is larger by the room its exit needs, with the grid moved by that much.
pub fn render_state(
    puzzle: &Drawable,
    state: &Snapshot,
    options: &RenderOptions,
) -> Result<Page, RenderError> {
    check_size(puzzle, options)?;
    let p = puzzle.as_puzzle();
    if (state.width, state.height) != (p.width(), p.height())
        || state.cells.len() != state.width * state.height
    {
        return Err(RenderError::StateSize(state.width, state.height));
    }
    Ok(match puzzle {
        Drawable::Nonogram(p) => nonogram::draw(p, Cells::State(state), options),
        Drawable::Nurikabe(p) => nurikabe::draw(p, Cells::State(state), options),
        Drawable::Sudoku(p) => sudoku::draw(p, Cells::State(state), options),
        Drawable::Jump(p) => jump::draw(p, Cells::State(state), options),
    })
}

/// The font sizes of the numbers a kind prints in its cells, as shares of the cell: a number of
/// two digits is printed smaller to fit.
pub(super) struct NumberSize {
    pub one_digit: f32,
    pub two_digits: f32,
}

impl NumberSize {
    /// The font size of `value` in a cell of side `cell`.
    pub(super) fn of(&self, cell: f32, value: u32) -> f32 {
        cell * if value >= 10 {
            self.two_digits
        } else {
            self.one_digit
        }
    }

    /// The ink height of the smallest of `values` printed in cells of side `cell` (a page's
    /// [`Page::number_height`]).
    pub(super) fn smallest_height(
        &self,
        font: &ab_glyph::FontRef<'static>,
        cell: f32,
        values: impl Iterator<Item = u32>,
    ) -> f32 {
        let smallest = values
            .map(|value| self.of(cell, value))
            .fold(cell, f32::min);
        canvas::text_height(font, smallest, "0")
    }
}

/// Refuses pages larger than [`MAX_PAGE_SIDE`].
fn check_size(puzzle: &Drawable, options: &RenderOptions) -> Result<(), RenderError> {
    let side = u64::from(options.cell)
        * (puzzle.as_puzzle().width().max(puzzle.as_puzzle().height()) as u64 + 12);
    if side > MAX_PAGE_SIDE {
        return Err(RenderError::TooLarge(side));
    }
    Ok(())
}

/// Ink colours shared by the kinds.
pub(crate) const INK: Rgb<u8> = Rgb([20, 20, 20]);
pub(crate) const PAPER: Rgb<u8> = Rgb([255, 255, 255]);
/// Grid lines of a solved nonogram: light enough that the filled cells alone form the picture,
/// so a QR solution scans (a black border would merge with its finder patterns).
pub(crate) const SOLVED_GRID: Rgb<u8> = Rgb([225, 225, 225]);
/// Digits a solution adds to the printed ones.
pub(crate) const SOLVED_INK: Rgb<u8> = Rgb([25, 80, 170]);
/// Cells a partly solved state leaves open: a mid grey, unlike any colour a known cell takes.
pub(crate) const OPEN: Rgb<u8> = Rgb([150, 150, 150]);

/// A blank page of `width` x `height` pixels.
pub(crate) fn blank(width: f32, height: f32) -> RgbImage {
    RgbImage::from_pixel(width.ceil() as u32, height.ceil() as u32, PAPER)
}

/// Corners of the rectangle (x0, y0)-(x1, y1) in the order of [`Page::grid_corners`].
pub(crate) fn corners(x0: f32, y0: f32, x1: f32, y1: f32) -> [(f32, f32); 4] {
    [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
}

/// Draws the lines of a `columns` x `rows` grid at (x0, y0): thin lines, a thick border, and
/// thick lines every `block` cells when given.
pub(crate) fn grid_lines(
    image: &mut RgbImage,
    (x0, y0): (f32, f32),
    columns: usize,
    rows: usize,
    cell: f32,
    block: Option<usize>,
    colour: Rgb<u8>,
) {
    let thin = (cell / 28.0).max(1.0);
    let thick = (cell / 10.0).max(2.0);
    let (x1, y1) = (x0 + columns as f32 * cell, y0 + rows as f32 * cell);
    for i in 0..=columns {
        let heavy = i == 0 || i == columns || block.is_some_and(|b| i % b == 0);
        let w = if heavy { thick } else { thin };
        let x = x0 + i as f32 * cell;
        canvas::fill_rect(
            image,
            x - w / 2.0,
            y0 - thick / 2.0,
            x + w / 2.0,
            y1 + thick / 2.0,
            colour,
        );
    }
    for i in 0..=rows {
        let heavy = i == 0 || i == rows || block.is_some_and(|b| i % b == 0);
        let w = if heavy { thick } else { thin };
        let y = y0 + i as f32 * cell;
        canvas::fill_rect(
            image,
            x0 - thick / 2.0,
            y - w / 2.0,
            x1 + thick / 2.0,
            y + w / 2.0,
            colour,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_puzzles;

    fn drawable(text: &str) -> Drawable {
        Drawable::from_puzzle(parse_puzzles(text, None).unwrap()[0].as_ref()).unwrap()
    }

    #[test]
    fn every_kind_renders_puzzle_and_solution() {
        let texts = [
            include_str!("../../samples/gchq.non"),
            include_str!("../../assets/puzzles/nurikabe/7x7.txt"),
            include_str!("../../assets/puzzles/hlavolam.jump"),
            include_str!("../../samples/classic.sudoku"),
        ];
        for text in texts {
            let puzzle = drawable(text);
            let answer = puzzle.solve(&Deadline::none()).unwrap();
            for style in Style::ALL {
                let options = RenderOptions {
                    style,
                    ..RenderOptions::default()
                };
                let page = render(&puzzle, None, &options).unwrap();
                let solved = render(&puzzle, Some(&answer), &options).unwrap();
                assert_eq!(page.image.dimensions(), solved.image.dimensions());
                assert_ne!(page.image, solved.image, "the solution must show");
                let [(x0, y0), _, (x1, y1), _] = page.grid_corners;
                assert!(
                    x0 > 0.0
                        && y0 > 0.0
                        && x1 < page.image.width() as f32
                        && y1 < page.image.height() as f32
                );
            }
        }
    }

    #[test]
    fn a_state_draws_on_the_printed_layout_and_must_fit() {
        let puzzle = drawable(include_str!("../../samples/gchq.non"));
        let options = RenderOptions::default();
        let printed = render(&puzzle, None, &options).unwrap();
        let open = Snapshot {
            width: 25,
            height: 25,
            cells: vec![crate::trace::Cell::Unknown; 625],
        };
        let page = render_state(&puzzle, &open, &options).unwrap();
        assert_eq!(page.grid_corners, printed.grid_corners);
        assert_eq!(page.image.dimensions(), printed.image.dimensions());
        let (x, y) = page.grid_corners[0];
        assert_eq!(*page.image.get_pixel(x as u32 + 20, y as u32 + 20), OPEN);
        let wrong = Snapshot { width: 24, ..open };
        assert!(matches!(
            render_state(&puzzle, &wrong, &options),
            Err(RenderError::StateSize(24, 25))
        ));
    }

    #[test]
    fn multi_digit_clues_render_inside_the_page() {
        let text = "width 40\nheight 1\nrows\n40\ncolumns\n".to_string() + &"1\n".repeat(40);
        let page = render(&drawable(&text), None, &RenderOptions::default()).unwrap();
        // The clue "40" is left of the grid: some ink there.
        let (x0, y0) = page.grid_corners[0];
        let inked = (0..x0 as u32).any(|x| page.image.get_pixel(x, y0 as u32 + 20).0[0] < 128);
        assert!(inked);
    }

    #[test]
    fn style_and_font_names_round_trip() {
        for style in Style::ALL {
            assert_eq!(Style::from_name(style.name()), Some(style));
        }
        assert_eq!(Style::from_name("magazine"), Some(Style::Boxed));
        assert_eq!(Style::from_name("fancy"), None);
    }
}
