//! The annotated photo through the library, for kinds the pipeline cannot detect yet: the jump
//! maze's path drawn into its sample photo through a lattice built from the truth's corners.

use std::path::Path;

use gridsight::annotate::{annotate, PhotoGeometry, ANSWER_INK};
use gridsight::detect::{load_upright, Lattice};
use gridsight::kinds::jump::{JumpMaze, JumpPath};
use gridsight::solve::Solved;
use serde_json::Value;

fn truth(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("samples")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The `rows` x `columns` lattice between the truth's four grid corners (top-left, top-right,
/// bottom-right, bottom-left), by bilinear interpolation: close enough on a flat scan.
fn lattice_from_corners(corners: &[(f32, f32)], rows: usize, columns: usize) -> Lattice {
    let mix = |a: (f32, f32), b: (f32, f32), t: f32| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    let points = (0..=rows)
        .map(|r| {
            (0..=columns)
                .map(|c| {
                    let (u, v) = (c as f32 / columns as f32, r as f32 / rows as f32);
                    mix(
                        mix(corners[0], corners[1], u),
                        mix(corners[3], corners[2], u),
                        v,
                    )
                })
                .collect()
        })
        .collect();
    Lattice {
        rows,
        columns,
        points,
    }
}

fn is_answer_ink(pixel: [u8; 3]) -> bool {
    let [r, g, b] = pixel;
    let [ar, ag, ab] = ANSWER_INK.0;
    (i32::from(r) - i32::from(ar)).abs() < 40
        && (i32::from(g) - i32::from(ag)).abs() < 40
        && (i32::from(b) - i32::from(ab)).abs() < 40
}

/// Distance from point `p` to the segment from `a` to `b`, in cells.
fn distance_to_segment(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy).max(1e-6)).clamp(0.0, 1.0);
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

#[test]
fn annotated_jump_maze_draws_the_path_through_every_landing_and_nowhere_else() {
    let truth = truth("jump-scan.truth.json");
    let maze = JumpMaze {
        grid: serde_json::from_value(truth["puzzle"]["grid"].clone()).unwrap(),
        start: serde_json::from_value(truth["puzzle"]["start"].clone()).unwrap(),
    };
    let path = JumpPath {
        cells: serde_json::from_value(truth["solution"]["path"].clone()).unwrap(),
        exit: serde_json::from_value(truth["solution"]["exit"].clone()).unwrap(),
    };
    maze.check_path(&path).unwrap();
    let (rows, columns) = (maze.grid.len(), maze.grid[0].len());
    let corners: Vec<(f32, f32)> =
        serde_json::from_value(truth["grid_corners_upright"].clone()).unwrap();
    let photo = PhotoGeometry {
        image: load_upright(&Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/jump-scan.jpg"))
            .unwrap(),
        lattice: lattice_from_corners(&corners, rows, columns),
        quarter_turns: 0,
    };
    let solved = Solved {
        solution: Box::new(path.clone()),
        unique: true,
        qr: None,
        time: std::time::Duration::ZERO,
        trace: None,
    };
    let picture = annotate(&photo, &maze, &solved);
    let cell = (corners[1].0 - corners[0].0) / columns as f32;
    let ink_within = |centre: (f32, f32), reach: f32| {
        let r = (reach * cell).ceil() as i64;
        (-r..=r)
            .flat_map(|dy| (-r..=r).map(move |dx| (dx, dy)))
            .any(|(dx, dy)| {
                let (x, y) = (centre.0 as i64 + dx, centre.1 as i64 + dy);
                (dx * dx + dy * dy) as f32 <= (reach * cell).powi(2)
                    && x >= 0
                    && y >= 0
                    && x < i64::from(picture.width())
                    && y < i64::from(picture.height())
                    && is_answer_ink(picture.get_pixel(x as u32, y as u32).0)
            })
    };
    let original_ink = (0..photo.image.height())
        .flat_map(|y| (0..photo.image.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| is_answer_ink(photo.image.get_pixel(x, y).0))
        .count();
    assert_eq!(
        original_ink, 0,
        "the photo itself has no answer-coloured pixels"
    );

    let centre = |(r, c): (i64, i64)| photo.any_cell_centre(r, c);
    let stops: Vec<(i64, i64)> = path
        .cells
        .iter()
        .map(|&(r, c)| (r as i64, c as i64))
        .chain([path.exit])
        .collect();
    for &stop in &stops {
        assert!(ink_within(centre(stop), 0.5), "no arrow at {stop:?}");
    }
    let mut far_cells = 0;
    for row in 0..rows as i64 {
        for column in 0..columns as i64 {
            let here = centre((row, column));
            let nearest = stops
                .windows(2)
                .map(|w| distance_to_segment(here, centre(w[0]), centre(w[1])))
                .fold(f32::INFINITY, f32::min);
            if nearest > 1.2 * cell {
                far_cells += 1;
                assert!(
                    !ink_within(here, 0.4),
                    "answer ink at r{row}c{column}, {:.1} cells from the path",
                    nearest / cell
                );
            }
        }
    }
    assert!(
        far_cells > rows * columns / 3,
        "{far_cells} cells far from the path"
    );
}
