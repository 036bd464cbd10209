//! The solve animation: decoded with the `image` crate's GIF decoder, its first frame is the
//! puzzle as given and its last the solution, read back cell by cell from the pixels.

use std::io::Cursor;
use std::path::Path;

use gridsight::animate::{self, FINAL_MS, FRAME_MS};
use gridsight::kinds::Puzzle;
use gridsight::render::{Answer, Drawable};
use gridsight::solve::{solve_with, Solved};
use image::{AnimationDecoder, RgbaImage};

fn puzzle(path: &str) -> Box<dyn Puzzle> {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    gridsight::input::parse_puzzles(&text, None)
        .unwrap()
        .remove(0)
}

/// A decoded animation and the geometry of its grid.
struct Decoded {
    frames: Vec<image::Frame>,
    corners: [(f32, f32); 4],
    size: (usize, usize),
}

impl Decoded {
    /// The colour most of the inner part of cell (r, c) has on frame `i`: the cell's fill, not
    /// the digit, dot, label or arrow drawn over its middle.
    fn cell(&self, i: usize, r: usize, c: usize) -> [u8; 3] {
        let image: &RgbaImage = self.frames[i].buffer();
        let [(x0, y0), _, (x1, y1), _] = self.corners;
        let (w, h) = (
            (x1 - x0) / self.size.0 as f32,
            (y1 - y0) / self.size.1 as f32,
        );
        let mut counts = std::collections::HashMap::new();
        for dy in 2..9 {
            for dx in 2..9 {
                let x = x0 + (c as f32 + dx as f32 / 10.0) * w;
                let y = y0 + (r as f32 + dy as f32 / 10.0) * h;
                let p = image.get_pixel(x as u32, y as u32).0;
                *counts.entry([p[0], p[1], p[2]]).or_insert(0) += 1;
            }
        }
        counts.into_iter().max_by_key(|&(_, n)| n).unwrap().0
    }

    fn last(&self) -> usize {
        self.frames.len() - 1
    }
}

/// Solves with a trace, animates, encodes and decodes again; also checks the file loops forever
/// and the frame timing.
fn animated(puzzle: &dyn Puzzle) -> (Solved, Decoded) {
    let solved = solve_with(puzzle, None, true).unwrap();
    let frames = animate::frames(
        puzzle,
        solved.solution.as_ref(),
        solved.trace.as_ref().unwrap(),
    )
    .unwrap();
    let (count, corners) = (frames.frame_count(), frames.grid_corners());
    let mut gif = Vec::new();
    assert_eq!(animate::write_gif(frames, &mut gif).unwrap(), count);

    let mut decoder = gif::DecodeOptions::new()
        .read_info(Cursor::new(&gif))
        .unwrap();
    while decoder.read_next_frame().unwrap().is_some() {}
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite);

    let frames = image::codecs::gif::GifDecoder::new(Cursor::new(&gif))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap();
    assert_eq!(frames.len(), count);
    assert!(frames.len() >= 2, "at least the puzzle and its solution");
    let ms = |f: &image::Frame| f.delay().numer_denom_ms().0 / f.delay().numer_denom_ms().1;
    assert_eq!(ms(&frames[0]), FRAME_MS);
    assert_eq!(ms(frames.last().unwrap()), FINAL_MS);
    let size = (puzzle.width(), puzzle.height());
    (
        solved,
        Decoded {
            frames,
            corners,
            size,
        },
    )
}

fn dark(p: [u8; 3]) -> bool {
    p.iter().all(|&v| v < 60)
}
fn white(p: [u8; 3]) -> bool {
    p.iter().all(|&v| v > 240)
}
/// The mid grey of cells a state leaves open.
fn open(p: [u8; 3]) -> bool {
    p.iter().all(|&v| (130..=170).contains(&v))
}

fn grid(solved: &Solved) -> gridsight::grid::BinaryGrid {
    match Answer::from_solution(solved.solution.as_ref()) {
        Some(Answer::Grid(grid)) => grid,
        other => panic!("not a grid: {other:?}"),
    }
}

#[test]
fn gchq_starts_from_the_givens_and_ends_on_the_solution() {
    let gchq = puzzle("samples/gchq.non");
    let Ok(Drawable::Nonogram(nonogram)) = Drawable::from_puzzle(gchq.as_ref()) else {
        panic!("gchq is a nonogram");
    };
    assert_eq!(nonogram.givens.len(), 22);
    let (solved, gif) = animated(gchq.as_ref());
    let solution = grid(&solved);
    // Six line-solving passes leave open cells, which probing closes: more than the two ends.
    assert!(gif.frames.len() >= 7, "{} frames", gif.frames.len());
    for r in 0..25 {
        for c in 0..25 {
            let first = gif.cell(0, r, c);
            if nonogram.givens.contains(&(r, c)) {
                assert!(dark(first), "given r{r}c{c} is {first:?}");
            } else {
                assert!(open(first), "r{r}c{c} is {first:?} on the first frame");
            }
            let last = gif.cell(gif.last(), r, c);
            assert_eq!(dark(last), solution.get(r, c), "r{r}c{c} is {last:?}");
            assert!(dark(last) || white(last), "r{r}c{c} is {last:?}");
        }
    }
    // The cells become known pass by pass: fewer open cells on every frame.
    let open_cells = |i: usize| {
        (0..625)
            .filter(|&k| open(gif.cell(i, k / 25, k % 25)))
            .count()
    };
    let counts: Vec<usize> = (0..gif.frames.len()).map(open_cells).collect();
    assert!(counts.windows(2).all(|w| w[0] > w[1]), "{counts:?}");
}

#[test]
fn nurikabe_shades_water_and_keeps_islands_white() {
    let nurikabe = puzzle("assets/puzzles/nurikabe/7x7.txt");
    let (solved, gif) = animated(nurikabe.as_ref());
    let land = grid(&solved);
    for r in 0..7 {
        for c in 0..7 {
            let last = gif.cell(gif.last(), r, c);
            let water = last[2] > last[0] + 20 && last[2] < 200;
            assert_eq!(!water, land.get(r, c), "r{r}c{c} is {last:?}");
            assert!(water || white(last), "r{r}c{c} is {last:?}");
            let first = gif.cell(0, r, c);
            assert!(open(first) || white(first), "r{r}c{c} is {first:?}");
        }
    }
}

#[test]
fn sudoku_fills_open_cells_with_blue_digits() {
    let sudoku = puzzle("samples/classic.sudoku");
    let Ok(Drawable::Sudoku(given)) = Drawable::from_puzzle(sudoku.as_ref()) else {
        panic!("a sudoku");
    };
    let (_, gif) = animated(sudoku.as_ref());
    let image = gif.frames[gif.last()].buffer();
    let [(x0, y0), _, (x1, _), _] = gif.corners;
    let cell = (x1 - x0) / 9.0;
    for index in 0..81 {
        let (r, c) = (index / 9, index % 9);
        assert!(white(gif.cell(gif.last(), r, c)), "r{r}c{c} is open");
        let first = gif.cell(0, r, c);
        assert_eq!(
            given.cells[index] == 0,
            !white(first),
            "r{r}c{c}: {first:?}"
        );
        // The darkest pixel of the cell is the digit's ink: black if given, blue if deduced.
        let ink = (0..(cell as u32 * 6 / 10))
            .flat_map(|dy| (0..(cell as u32 * 6 / 10)).map(move |dx| (dx, dy)))
            .map(|(dx, dy)| {
                let x = (x0 + (c as f32 + 0.2) * cell) as u32 + dx;
                let y = (y0 + (r as f32 + 0.2) * cell) as u32 + dy;
                image.get_pixel(x, y).0
            })
            .min_by_key(|p| u32::from(p[0]) + u32::from(p[1]) + u32::from(p[2]))
            .unwrap();
        let blue = ink[2] > ink[0] + 60;
        assert_eq!(blue, given.cells[index] == 0, "r{r}c{c}: ink {ink:?}");
    }
}

#[test]
fn jump_path_grows_jump_by_jump() {
    let maze = puzzle("assets/puzzles/hlavolam.jump");
    let (solved, gif) = animated(maze.as_ref());
    let Some(Answer::Path(path)) = Answer::from_solution(solved.solution.as_ref()) else {
        panic!("a path");
    };
    // The puzzle, the start, one frame per jump inside the maze, the path with its exit.
    assert_eq!(gif.frames.len(), path.cells.len() + 2);
    let tinted = |p: [u8; 3]| p[0] > 240 && p[2] < 220;
    let Ok(Drawable::Jump(jump)) = Drawable::from_puzzle(maze.as_ref()) else {
        panic!("a jump maze");
    };
    for (r, row) in jump.grid.iter().enumerate() {
        for (c, &value) in row.iter().enumerate() {
            if value == 0 {
                continue;
            }
            let on_path = path.cells.contains(&(r, c));
            assert!(white(gif.cell(0, r, c)), "r{r}c{c} on the first frame");
            let last = gif.cell(gif.last(), r, c);
            assert_eq!(tinted(last), on_path, "r{r}c{c} is {last:?}");
        }
    }
    // Frame k + 1 shows the landings up to jump k.
    for (k, &(r, c)) in path.cells.iter().enumerate() {
        assert!(!tinted(gif.cell(k, r, c)), "jump {k} shown early");
        assert!(tinted(gif.cell(k + 1, r, c)), "jump {k} not shown");
    }
}
