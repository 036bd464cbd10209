//! The detect stage end to end: the committed sample photos against their truth, the newspaper
//! Sudoku photos of `../shared` (skipped when absent), pictures without a puzzle, refused and
//! broken files, EXIF orientation, and a printed timing of a 12 MP photo against its decoding.

mod common;

use std::path::{Path, PathBuf};

use gridsight::detect::{find_cell_lattice, find_lattice, load_upright, DetectError, Lattice};
use gridsight::photo::{effects::Desk, photograph, rng::Rng, PhotoOptions, Preset};
use gridsight::render::Drawable;
use image::GrayImage;
use serde_json::Value;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples")
}

fn gray(path: &Path) -> GrayImage {
    image::DynamicImage::ImageRgb8(load_upright(path).unwrap()).to_luma8()
}

/// The largest corner distance as a fraction of the grid size, and the quarter turn between the
/// lattice and the truth (the detector cannot tell a puzzle's top from its bottom).
fn corner_error(lattice: &Lattice, truth: &[(f32, f32)]) -> (f32, usize) {
    let (r, c) = (lattice.rows, lattice.columns);
    let p = &lattice.points;
    let mine = [p[0][0], p[0][c], p[r][c], p[r][0]];
    let distance = |a: (f32, f32), b: (f32, f32)| (a.0 - b.0).hypot(a.1 - b.1);
    let side = (0..4)
        .map(|i| distance(truth[i], truth[(i + 1) % 4]))
        .fold(0.0, f32::max);
    (0..4)
        .map(|turn| {
            let worst = (0..4)
                .map(|i| distance(mine[(i + turn) % 4], truth[i]))
                .fold(0.0, f32::max);
            (worst / side, turn)
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .unwrap()
}

/// Asserts that `lattice` has `sides` cells one way and the other (either way round, as the
/// detector cannot tell a puzzle's top from its side) and that its corners lie within 2% of the
/// grid's size of the truth's.
fn assert_found(lattice: &Lattice, sides: [usize; 2], corners: &[(f32, f32)]) {
    let mut size = [lattice.rows, lattice.columns];
    size.sort_unstable();
    let mut expected = sides;
    expected.sort_unstable();
    assert_eq!(size, expected);
    let (error, _) = corner_error(lattice, corners);
    assert!(error <= 0.02, "corners off by {:.2}%", error * 100.0);
}

/// Asserts each of a grid's `corners` lies within 2% of the grid's side of a point of `lattice`:
/// a lattice grown past the grid (or holding its clue boxes) has the grid's corners inside it.
fn assert_corners_are_points(lattice: &Lattice, corners: &[(f32, f32)], context: &str) {
    let side = (corners[0].0 - corners[1].0).hypot(corners[0].1 - corners[1].1);
    for corner in corners {
        let nearest = lattice
            .points
            .iter()
            .flatten()
            .map(|p| (p.0 - corner.0).hypot(p.1 - corner.1))
            .fold(f32::INFINITY, f32::min);
        assert!(
            nearest <= 0.02 * side,
            "{context}grid corner {corner:?} off by {nearest:.1} px"
        );
    }
}

#[test]
fn sample_photos_give_their_lattice_within_two_percent() {
    // nurikabe-hard and the photographed nonograms are not found yet (see the detect module).
    for name in [
        "sudoku-scan",
        "sudoku-photo",
        "sudoku-hard",
        "nurikabe-scan",
        "nurikabe-photo",
        "nonogram-scan",
    ] {
        let photo = samples().join(format!("{name}.jpg"));
        let truth: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(samples().join(format!("{name}.truth.json"))).unwrap(),
        )
        .unwrap();
        let corners: Vec<(f32, f32)> = truth["grid_corners_upright"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32))
            .collect();
        let lattice = find_lattice(&gray(&photo)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (error, turn) = corner_error(&lattice, &corners);
        let (width, height) = (
            truth["width"].as_u64().unwrap() as usize,
            truth["height"].as_u64().unwrap() as usize,
        );
        let expected = if turn % 2 == 0 {
            (height, width)
        } else {
            (width, height)
        };
        assert_eq!((lattice.rows, lattice.columns), expected, "{name}");
        assert!(
            error <= 0.02,
            "{name}: corners off by {:.2}%",
            error * 100.0
        );
        assert_eq!(lattice.points.len(), lattice.rows + 1);
        assert!(lattice
            .points
            .iter()
            .all(|row| row.len() == lattice.columns + 1));
    }
}

#[test]
fn a_grid_joined_at_a_corner_to_a_page_rule_is_found() {
    // The grid's bottom border runs on into the box lines of the crossword beside it, so its
    // outline's bottom-right corner sits on the page's column rule, a cell and a half off.
    let Some(shared) = common::shared("a_grid_joined_at_a_corner_to_a_page_rule_is_found") else {
        return;
    };
    let lattice = find_lattice(&gray(&shared.join("photos/sudoku-train/image1049.jpg"))).unwrap();
    assert_eq!((lattice.rows, lattice.columns), (9, 9));
    let corner = lattice.points[9][9];
    assert!(
        (corner.0 - 720.0).abs() < 12.0 && (corner.1 - 940.0).abs() < 12.0,
        "{corner:?}"
    );
}

#[test]
fn newspaper_sudoku_photos_give_a_nine_by_nine_lattice() {
    let Some(shared) = common::shared("newspaper_sudoku_photos_give_a_nine_by_nine_lattice") else {
        return;
    };
    let photos = common::files(&shared.join("photos/sudoku-train"), ".jpg");
    let mut failures = Vec::new();
    for photo in &photos {
        match find_lattice(&gray(photo)) {
            Ok(l) if (l.rows, l.columns) == (9, 9) => {}
            other => failures.push(format!(
                "{}: {:?}",
                photo.display(),
                other.map(|l| (l.rows, l.columns))
            )),
        }
    }
    let rate = 1.0 - failures.len() as f64 / photos.len() as f64;
    println!(
        "sudoku-train: {:.1}% found; failures: {failures:#?}",
        rate * 100.0
    );
    assert!(
        rate >= 0.97,
        "only {:.1}% found: {failures:#?}",
        rate * 100.0
    );
}

/// Asserts `image` holds no puzzle, neither as an outlined grid nor as a lattice of cells (the
/// pipeline's last way to find a grid).
fn no_puzzle(image: &GrayImage, what: &str) {
    for (how, found) in [
        ("outline", find_lattice(image)),
        ("cells", find_cell_lattice(image)),
    ] {
        match found {
            Err(DetectError::NoPuzzle(reason)) => println!("{what} ({how}): {reason}"),
            other => panic!("{what} ({how}): expected NoPuzzle, got {other:?}"),
        }
    }
}

#[test]
fn pictures_without_a_grid_have_no_puzzle() {
    no_puzzle(
        &GrayImage::from_pixel(1200, 900, image::Luma([235])),
        "blank page",
    );
    no_puzzle(&GrayImage::new(10, 10), "tiny image");
    let mut rng = Rng::new(5);
    let noise = GrayImage::from_fn(800, 600, |_, _| image::Luma([rng.below(256) as u8]));
    no_puzzle(&noise, "random noise");
    let desk = Desk::new(&mut Rng::new(9));
    let desk = GrayImage::from_fn(1000, 750, |x, y| {
        let [r, g, b] = desk.at(x as f32, y as f32);
        image::Luma([((r + g + b) / 3.0).clamp(0.0, 255.0) as u8])
    });
    no_puzzle(&desk, "desk only");
}

#[test]
fn huge_corrupt_and_missing_files_are_refused_distinctly() {
    let dir = std::env::temp_dir().join(format!("gridsight-detect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80)
        .encode_image(&image::RgbImage::new(16, 16))
        .unwrap();
    // Claim 65000 x 65000 pixels in the frame header (SOF0: marker, length, precision, h, w).
    let sof = jpeg.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
    jpeg[sof + 5..sof + 9].copy_from_slice(&[0xFD, 0xE8, 0xFD, 0xE8]);
    let huge = dir.join("huge.jpg");
    std::fs::write(&huge, &jpeg).unwrap();
    assert!(matches!(
        load_upright(&huge),
        Err(DetectError::TooLarge {
            width: 65000,
            height: 65000
        })
    ));
    let corrupt = dir.join("corrupt.jpg");
    std::fs::write(&corrupt, b"\xFF\xD8\xFF\xE0 not really a jpeg").unwrap();
    assert!(matches!(
        load_upright(&corrupt),
        Err(DetectError::Corrupt(_))
    ));
    assert!(matches!(
        load_upright(&dir.join("absent.jpg")),
        Err(DetectError::Io { .. })
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exif_rotated_samples_load_upright() {
    let mut turned = 0;
    for entry in std::fs::read_dir(samples()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "jpg") {
            continue;
        }
        let truth: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("truth.json")).unwrap(),
        )
        .unwrap();
        let upright = load_upright(&path).unwrap();
        let effects = &truth["effects"];
        assert_eq!(
            (u64::from(upright.width()), u64::from(upright.height())),
            (
                effects["width"].as_u64().unwrap(),
                effects["height"].as_u64().unwrap()
            ),
            "{}",
            path.display()
        );
        turned += usize::from(truth["image"]["exif_orientation"] != 1);
    }
    assert!(turned > 0, "some sample carries an EXIF rotation");
}

/// The puzzle in `text` photographed with `preset` and `seed` at the preset's size, or at
/// `megapixels`: the stored photo in grey, the grid's corners in it and the whole truth. The
/// page's rules run through the puzzle, as on every simulated photo when these were written;
/// with `past_reading` the preset's framing and blur are kept where the numbers come out past
/// reading, as they were then too.
fn photographed(
    text: &str,
    preset: Preset,
    seed: u64,
    megapixels: Option<f32>,
    past_reading: bool,
) -> (GrayImage, Vec<(f32, f32)>, Value) {
    let puzzle =
        Drawable::from_puzzle(gridsight::input::parse_puzzles(text, None).unwrap()[0].as_ref())
            .unwrap();
    let answer = puzzle.solve(&gridsight::limits::Deadline::none()).unwrap();
    let options = PhotoOptions {
        preset,
        seed,
        megapixels: megapixels.map(|m| (m, m)),
        rules_through_puzzle: true,
        past_reading,
    };
    let photo = photograph(&puzzle, &answer, &options).unwrap();
    let stored = image::load_from_memory(&photo.jpeg).unwrap().to_luma8();
    let corners = photo.truth["grid_corners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32))
        .collect();
    (stored, corners, photo.truth)
}

#[test]
fn a_12_mp_photo_gives_its_lattice_within_two_percent() {
    // Full phone resolution, where the working image is shrunk and the warp reads the photo
    // itself (its time against decoding is `cargo bench --bench pipeline`'s).
    let text = std::fs::read_to_string(samples().join("classic.sudoku")).unwrap();
    let (gray, corners, _) = photographed(&text, Preset::Photo, 3, Some(12.0), false);
    assert!(u64::from(gray.width()) * u64::from(gray.height()) >= 11_000_000);
    assert_found(&find_lattice(&gray).unwrap(), [9, 9], &corners);
}

#[test]
fn an_outline_off_a_curled_grid_gives_way_to_one_whose_lattice_runs_on_its_lines() {
    // A hard photo of a strongly curled Sudoku with a page's column rule beside it: the first
    // outline (the hull of the grid's ink, rule included) shows 8 x 9 cells whose lines run
    // partly on paper; another outline gives the 9 x 9 lattice on the printed lines.
    let text = "....43981\n...1.....\n..326....\n9....71..\n2....46..\n71..82.53\n42....736\n..5......\n.813.....\n";
    let (stored, corners, _) = photographed(text, Preset::Hard, 5511, None, false);
    assert_found(&find_lattice(&stored).unwrap(), [9, 9], &corners);
}

#[test]
fn a_curled_grid_counted_right_only_in_the_straightened_warp_is_not_taken_a_row_too_high() {
    // A strongly curled 16 x 21 grid, its rows' lines bowed off straight most in the middle
    // rows. In the first outline the straight warp counts 18 rows (77% of its lines on ink)
    // and its recount 17 (88%); the warp straightened along the traced border counts the
    // printed 16 with all its lines on ink, but was dropped for counting otherwise. The next
    // outline's 16-row recount (89%, never sure) was not clearly better than 88%, so the
    // 17-row lattice was taken (the photo was then refused: its clues read did not agree).
    let photo = common::photographed(
        &common::test_data("nonogram-21x16.non"),
        common::ruled("photo"),
        20003,
    );
    let image = gridsight::detect::grayscale(&load_upright(&photo.path).unwrap());
    let lattice = find_lattice(&image).unwrap();
    assert_eq!((lattice.rows, lattice.columns), (16, 21));
}

#[test]
fn a_boxed_nonograms_faint_blurred_clue_box_lines_are_grown_into() {
    // A photo (generated set /tmp/gen4, 00004) of a boxed nonogram, 29 x 22 cells with 6 clue
    // boxes left of every row and 5 above every column: the lattice found in its outline misses
    // clue boxes, and the lines of those beyond it, thin and blurred on the far side of a tilted
    // page, are only 0.74 to 0.8 of the paper's level, so it was not grown into them.
    let text = std::fs::read_to_string(common::test_data("nonogram-29x22.non")).unwrap();
    let (stored, corners, truth) = photographed(&text, Preset::Photo, 904, None, false);
    assert_eq!(truth["render"]["style"], "boxed");
    let grown = gridsight::detect::grow::grow(&stored, &find_lattice(&stored).unwrap());
    let mut size = [grown.rows, grown.columns];
    size.sort_unstable();
    assert_eq!(size, [22 + 5, 29 + 6]);
    // The grid's own corners are lattice points inside the grown lattice.
    assert_corners_are_points(&grown, &corners, "");
}

#[test]
fn a_hard_nonograms_lattice_is_found_inside_its_given_outline() {
    // A hard photo of a boxed 21 x 16 nonogram (as `gridsight photo --preset hard --seed 1130`):
    // blurred, tilted and curled. Given the grid's outline (the truth's corners), its lines are
    // counted and followed as for an outline found in the photo, so reading can be measured
    // apart from finding the outline.
    let text = std::fs::read_to_string(common::test_data("nonogram-21x16.non")).unwrap();
    let (stored, corners, truth) = photographed(&text, Preset::Hard, 1130, None, true);
    assert_eq!(truth["preset"], "hard");
    let outline = [0, 1, 2, 3].map(|i| (f64::from(corners[i].0), f64::from(corners[i].1)));
    let lattice = gridsight::detect::find_lattice_in_outline(&stored, outline).unwrap();
    assert_found(&lattice, [16, 21], &corners);
}

#[test]
fn a_hard_boxed_nonograms_blurred_clue_box_lines_are_grown_into() {
    // The same hard photo of the boxed 21 x 16 nonogram (5 clue boxes left of every row, 3
    // above every column): its clue box lines, blurred wide and noisy, have single samples no
    // darker than the paper's noise, but the profile averaged along each box side dips clearly.
    // Grown from the lattice in its given outline, it takes in every clue box and no more.
    let text = std::fs::read_to_string(common::test_data("nonogram-21x16.non")).unwrap();
    let (stored, corners, truth) = photographed(&text, Preset::Hard, 1130, None, true);
    assert_eq!(truth["render"]["style"], "boxed");
    let outline = [0, 1, 2, 3].map(|i| (f64::from(corners[i].0), f64::from(corners[i].1)));
    let lattice = gridsight::detect::find_lattice_in_outline(&stored, outline).unwrap();
    let grown = gridsight::detect::grow::grow(&stored, &lattice);
    let mut size = [grown.rows, grown.columns];
    size.sort_unstable();
    assert_eq!(size, [16 + 3, 21 + 5]);
}

#[test]
fn a_blurred_grid_whose_crossings_pass_for_digits_is_found_around_them() {
    // A hard photo of a plain 10 x 30 nonogram (generated set /tmp/dev-nonohard1, as
    // `gridsight photo --preset hard --seed 1124`): blurred, its fine lines fade but their
    // crossings stay dark, and no outline holds countable lines, so the lattice of "digits" is
    // found on the crossings, 29 x 9 and half a cell off. The grid around them is the puzzle's.
    let text = std::fs::read_to_string(common::test_data("nonogram-10x30.non")).unwrap();
    let (stored, corners, _) = photographed(&text, Preset::Hard, 1124, None, true);
    let digits = gridsight::detect::find_glyph_lattice(&stored).unwrap();
    let mut crossings = [digits.rows, digits.columns];
    crossings.sort_unstable();
    assert_eq!(crossings, [9, 29]);
    let grid = gridsight::detect::grid_around_crossings(&stored, &digits).expect("a grid");
    assert_found(&grid, [10, 30], &corners);
    // A maze printed as digits without lines has no grid around its digits.
    let maze = gray(&samples().join("jump-photo.jpg"));
    let digits = gridsight::detect::find_glyph_lattice(&maze).unwrap();
    assert_eq!(
        gridsight::detect::grid_around_crossings(&maze, &digits),
        None
    );
}

#[test]
fn a_grid_whose_border_touches_finer_page_rules_is_found_from_its_bold_ink() {
    // A hard photo of a 15 x 15 Nurikabe (generated set /tmp/dev-hard8, as `gridsight photo
    // --preset hard --seed 8125`): tilted, blurred and curled, with the page's column rules and
    // the frame around the puzzle joined to the grid's border in the ink, so every outline of
    // the ink reaches past the grid and none holds countable lines. The border is printed bolder
    // than the rules: the outline of the bold ink alone is the grid's.
    let text = "15,15 2,8,0 2,4,1 2,7,1 1,10,1 6,4,3 1,1,4 12,5,4 3,11,4 5,13,4 3,10,5 3,0,6 \
                1,6,6 2,8,6 4,13,7 2,3,8 1,6,8 3,8,8 2,14,8 2,4,9 5,1,10 4,3,10 1,9,10 6,13,10 \
                3,8,11 1,10,11 3,4,13 2,7,13 3,10,13 1,6,14 1,14,14\n";
    let (stored, corners, truth) = photographed(text, Preset::Hard, 8125, None, false);
    assert_eq!(truth["preset"], "hard");
    assert_found(&find_lattice(&stored).unwrap(), [15, 15], &corners);
}

/// The first photo (a nonogram scan) of `gridsight generate DIR --count 1 --seed SEED`, in
/// grey, the grid's corners in it and its truth.
fn generated_nonogram_scan(seed: u64) -> (GrayImage, Vec<(f32, f32)>, Value) {
    let dir = std::env::temp_dir().join(format!("gridsight-detect-{}-{seed}", std::process::id()));
    gridsight::photo::dataset::generate(&dir, 1, seed).unwrap();
    let photo = dir.join("00000-nonogram-scan.jpg");
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("00000-nonogram-scan.truth.json")).unwrap(),
    )
    .unwrap();
    let stored = gray(&photo);
    std::fs::remove_dir_all(&dir).unwrap();
    let corners = truth["grid_corners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32))
        .collect();
    (stored, corners, truth)
}

#[test]
fn a_boxed_nonogram_whose_clue_boxes_a_page_rule_crosses_is_found_from_its_cells() {
    // Scans of boxed nonograms (generated sets /tmp/dev-mag11 and a fresh one, seeds 31061 and
    // 32057) with the page's column rule running down through the row clue boxes: joined to the
    // rule, the ink's outline reaches from the page's top to its bottom, and the blank cells'
    // group, clue boxes included, has a corner cut away. That group's sides extended are the
    // outline of the grid and its clue boxes: 26 x 10 cells with 6 x 4 clue boxes, and 24 x 14
    // with 5 x 4.
    for (seed, rows, columns) in [(31061, 26 + 6, 10 + 4), (32057, 24 + 5, 14 + 4)] {
        let (stored, corners, truth) = generated_nonogram_scan(seed);
        assert_eq!(truth["render"]["style"], "boxed");
        let lattice = find_lattice(&stored).unwrap();
        assert_eq!(
            (lattice.rows, lattice.columns),
            (rows, columns),
            "seed {seed}"
        );
        // The grid's own corners are lattice points.
        assert_corners_are_points(&lattice, &corners, &format!("seed {seed}: "));
    }
}
