//! The pictures behind `--debug-dir`: what the detect and read stages saw in one photo, so a
//! user can see why it failed. The ink mask, the outlines tried (with why each failed) and the
//! lattice on the photo, the grid warped upright with its lattice, and a contact sheet of every
//! cell with its reading. It draws; `output` writes the files.

use image::imageops::{self, FilterType};
use image::{GrayImage, Rgb, RgbImage};

use crate::detect::{upright_grid, Inspection, Lattice};
use crate::read::{source_cell, CellValue, Reading};
use crate::render::canvas::{self, HAlign};
use crate::render::FontName;

/// The pictures collected for one photo, each with the name its file ends in.
#[derive(Debug, Default)]
pub struct DebugImages {
    pub pictures: Vec<(&'static str, RgbImage)>,
}

/// Long side of the photo with outlines, and of the upright grid: large enough to see a line
/// followed wrongly, small enough to write quickly.
const PICTURE_SIDE: f64 = 1600.0;
/// Side of one cell's crop on the contact sheet.
const CROP: u32 = 64;
/// Readings less sure than this are printed in red on the contact sheet.
const DOUBTFUL: f32 = 0.9;

const FOUND: Rgb<u8> = Rgb([20, 170, 60]);
const REJECTED: Rgb<u8> = Rgb([230, 120, 0]);
const DOUBT: Rgb<u8> = Rgb([210, 30, 40]);
const LABEL: Rgb<u8> = Rgb([20, 20, 20]);

impl DebugImages {
    /// The detect stage's pictures: the ink mask, and the photo with every outline tried (green
    /// the one that held the grid, orange the others, numbered in the order tried with the
    /// reason beside them) and the `lattice` found, if any, drawn on it.
    pub fn add_detect(&mut self, photo: &RgbImage, seen: &Inspection, lattice: Option<&Lattice>) {
        if let Some(ink) = &seen.ink {
            self.pictures.push((
                "1-threshold",
                image::DynamicImage::from(ink.clone()).to_rgb8(),
            ));
        }
        let scale = (PICTURE_SIDE / f64::from(photo.width().max(photo.height()).max(1))).min(1.0);
        let mut picture = imageops::resize(
            photo,
            ((f64::from(photo.width()) * scale).round() as u32).max(1),
            ((f64::from(photo.height()) * scale).round() as u32).max(1),
            FilterType::Triangle,
        );
        let at = |(x, y): (f64, f64)| ((x * scale) as f32, (y * scale) as f32);
        let font = FontName::SansBold.font();
        let size = (picture.width().max(picture.height()) as f32 / 60.0).max(12.0);
        let width = (size / 6.0).max(2.0);
        if let Some(lattice) = lattice {
            draw_lattice(
                &mut picture,
                &lattice.points,
                |&(x, y)| at((f64::from(x), f64::from(y))),
                width / 2.0,
            );
        }
        for (number, outline) in seen.outlines.iter().enumerate() {
            let corners = outline.corners;
            let colour = if outline.failure.is_some() {
                REJECTED
            } else {
                FOUND
            };
            for i in 0..4 {
                canvas::line(
                    &mut picture,
                    at(corners[i]),
                    at(corners[(i + 1) % 4]),
                    width,
                    colour,
                );
            }
            let text = match &outline.failure {
                Some(why) => format!("{}: {why}", number + 1),
                None => format!("{}: the grid", number + 1),
            };
            let (x, y) = at(corners[0]);
            let y = (y + size * (1.5 + number as f32)).min(picture.height() as f32 - size);
            let advance = canvas::text_advance(&font, size, &text);
            canvas::fill_rect(
                &mut picture,
                x,
                y - size,
                x + advance + size * 0.4,
                y + size * 0.35,
                Rgb([255, 255, 255]),
            );
            canvas::draw_text(&mut picture, &font, size, &text, x + size * 0.2, y, colour);
        }
        self.pictures.push(("2-outlines", picture));
    }

    /// The read stage's pictures: the grid warped upright with its lattice, and every cell's crop
    /// with what it was read as and how sure the reader was (a nonogram's cells: given black or
    /// not; its clues are not on the sheet).
    pub fn add_read(&mut self, gray: &GrayImage, lattice: &Lattice, reading: &Reading) {
        if let Some(upright) = upright_grid(gray, lattice, PICTURE_SIDE) {
            let points = upright.points;
            let mut picture = image::DynamicImage::from(upright.picture).to_rgb8();
            let width = (picture.width().max(picture.height()) as f32 / 600.0).max(1.5);
            draw_lattice(&mut picture, &points, |&p| p, width);
            self.pictures.push(("3-rectified", picture));
        }
        let cells = cell_labels(lattice, reading);
        self.pictures
            .push(("4-cells", contact_sheet(gray, lattice, &cells)));
    }
}

/// The lattice's lines: each row of points joined, and each column.
fn draw_lattice(
    picture: &mut RgbImage,
    points: &[Vec<(f32, f32)>],
    place: impl Fn(&(f32, f32)) -> (f32, f32),
    width: f32,
) {
    for row in points {
        for pair in row.windows(2) {
            canvas::line(picture, place(&pair[0]), place(&pair[1]), width, FOUND);
        }
    }
    for column in 0..points.first().map_or(0, Vec::len) {
        for pair in points.windows(2) {
            canvas::line(
                picture,
                place(&pair[0][column]),
                place(&pair[1][column]),
                width,
                FOUND,
            );
        }
    }
}

/// One cell's place on the contact sheet: where it is in the puzzle as read, where in the
/// lattice, how it was turned to read, and what it was read as.
struct CellLabel {
    row: usize,
    column: usize,
    source: (usize, usize),
    quarter_turns: u8,
    text: String,
    doubtful: bool,
}

/// Every cell of the reading, labelled "7 0.93" (`.` blank, `#` black) for a grid of numbers,
/// `#` or `.` for a nonogram's given cells.
fn cell_labels(lattice: &Lattice, reading: &Reading) -> Vec<CellLabel> {
    match reading {
        Reading::Cells { grid, .. } => grid
            .cells
            .iter()
            .map(|cell| {
                let value = match cell.value {
                    CellValue::Blank => ".".to_string(),
                    CellValue::Black => "#".to_string(),
                    CellValue::Number(n) => n.to_string(),
                };
                CellLabel {
                    row: cell.row,
                    column: cell.column,
                    source: source_cell(
                        cell.row,
                        cell.column,
                        grid.quarter_turns,
                        lattice.rows,
                        lattice.columns,
                    ),
                    quarter_turns: grid.quarter_turns,
                    text: format!("{value} {:.2}", cell.confidence),
                    doubtful: cell.confidence < DOUBTFUL,
                }
            })
            .collect(),
        Reading::Nonogram(nonogram) => (0..lattice.rows)
            .flat_map(|row| (0..lattice.columns).map(move |column| (row, column)))
            .map(|(row, column)| CellLabel {
                row,
                column,
                source: (row, column),
                quarter_turns: 0,
                text: if nonogram.givens.contains(&(row, column)) {
                    "#".to_string()
                } else {
                    ".".to_string()
                },
                doubtful: false,
            })
            .collect(),
    }
}

/// Every cell as the reader saw it, upright and in the puzzle's order, its label under it,
/// doubtful readings in red.
fn contact_sheet(gray: &GrayImage, lattice: &Lattice, cells: &[CellLabel]) -> RgbImage {
    let font = FontName::Sans.font();
    let label = CROP as f32 * 0.3;
    let (tile_w, tile_h) = (CROP + 8, CROP + label as u32 + 10);
    let rows = cells.iter().map(|c| c.row + 1).max().unwrap_or(0) as u32;
    let columns = cells.iter().map(|c| c.column + 1).max().unwrap_or(0) as u32;
    let mut sheet = RgbImage::from_pixel(
        (tile_w * columns).max(1),
        (tile_h * rows).max(1),
        Rgb([255, 255, 255]),
    );
    for cell in cells {
        let crop = lattice.cell_image(gray, cell.source.0, cell.source.1, CROP, 0.0);
        let crop = match cell.quarter_turns % 4 {
            0 => crop,
            1 => imageops::rotate90(&crop),
            2 => imageops::rotate180(&crop),
            _ => imageops::rotate270(&crop),
        };
        let (x, y) = (
            cell.column as u32 * tile_w + 4,
            cell.row as u32 * tile_h + 4,
        );
        imageops::replace(
            &mut sheet,
            &image::DynamicImage::from(crop).to_rgb8(),
            i64::from(x),
            i64::from(y),
        );
        let colour = if cell.doubtful { DOUBT } else { LABEL };
        canvas::draw_label(
            &mut sheet,
            &font,
            label,
            &cell.text,
            (
                x as f32 + CROP as f32 / 2.0,
                (y + CROP) as f32 + label * 0.7,
            ),
            HAlign::Centre,
            colour,
        );
    }
    sheet
}
