//! The printed sheet around a puzzle: newsprint-coloured paper with the puzzle page printed on
//! it, a title, columns of running text, rules and boxes, as on a magazine or newspaper page.
//!
//! The text is pseudo-words: it only has to look like print to a detector. Camera effects are
//! applied later, in `effects`.

use image::{Rgb, RgbImage};

use super::rng::Rng;
use crate::render::canvas::{self, HAlign};
use crate::render::{FontName, Page};

/// A sheet of paper and where the puzzle is printed on it.
#[derive(Debug, Clone)]
pub struct Sheet {
    pub image: RgbImage,
    pub grid_corners: [(f32, f32); 4],
    /// The corners of the printed puzzle page, its clues and margin included.
    pub puzzle_corners: [(f32, f32); 4],
    /// Ink height of the puzzle's smallest numbers, in sheet pixels.
    pub number_height: f32,
}

const INK: Rgb<u8> = Rgb([28, 28, 30]);
const SYLLABLES: [&str; 24] = [
    "ta", "ren", "ko", "mi", "sol", "ve", "da", "lin", "or", "pu", "zel", "an", "is", "tor", "me",
    "ga", "ri", "no", "bel", "qu", "es", "han", "dor", "vi",
];

/// Prints `page` on paper with margins and surrounding matter growing with `clutter` (0..1);
/// with `rules_through_puzzle` the page's column rules cross the puzzle instead of stopping at it.
pub fn compose(
    page: &Page,
    kind: &str,
    clutter: f32,
    rules_through_puzzle: bool,
    rng: &mut Rng,
) -> Sheet {
    let (pw, ph) = (page.image.width() as f32, page.image.height() as f32);
    let paper = [
        [247, 245, 238],
        [240, 236, 224],
        [250, 250, 247],
        [236, 232, 220],
    ][rng.below(4)];
    let margin =
        |rng: &mut Rng| (pw.max(ph) * (0.04 + 0.55 * clutter * rng.range(0.6, 1.0))).round();
    let (left, right, top, bottom) = (margin(rng), margin(rng), margin(rng), margin(rng));
    let (width, height) = ((pw + left + right) as u32, (ph + top + bottom) as u32);
    let mut image = RgbImage::from_pixel(width, height, Rgb(paper));
    // Print the page: ink multiplies the paper colour, so white stays paper-coloured.
    for (x, y, pixel) in page.image.enumerate_pixels() {
        let target = image.get_pixel_mut(x + left as u32, y + top as u32);
        for c in 0..3 {
            target.0[c] = ((u16::from(target.0[c]) * u16::from(pixel.0[c])) / 255) as u8;
        }
    }
    let puzzle_box = (left, top, left + pw, top + ph);
    let unit = pw.max(ph) / 30.0;
    let title_font = [
        FontName::SansBold,
        FontName::SerifBold,
        FontName::WideSansBold,
    ][rng.below(3)]
    .font();
    if top > unit * 1.6 {
        let title = format!("{} No. {}", kind.to_uppercase(), 1 + rng.below(999));
        canvas::draw_text(
            &mut image,
            &title_font,
            unit * 1.2,
            &title,
            left,
            top - unit * 0.4,
            INK,
        );
    }
    if clutter > 0.35 && rng.chance(0.6) {
        let gap = unit * 0.5;
        canvas::stroke_rect(
            &mut image,
            left - gap,
            top - gap * 0.2,
            left + pw + gap,
            top + ph + gap,
            unit * 0.08,
            INK,
        );
    }
    if clutter > 0.15 {
        running_text(
            &mut image,
            puzzle_box,
            unit,
            clutter,
            rules_through_puzzle,
            rng,
        );
    }
    let corners = page.grid_corners.map(|(x, y)| (x + left, y + top));
    Sheet {
        image,
        grid_corners: corners,
        puzzle_corners: [
            (puzzle_box.0, puzzle_box.1),
            (puzzle_box.2, puzzle_box.1),
            (puzzle_box.2, puzzle_box.3),
            (puzzle_box.0, puzzle_box.3),
        ],
        number_height: page.number_height,
    }
}

/// Fills the sheet with columns of text, skipping the area around the puzzle.
fn running_text(
    image: &mut RgbImage,
    puzzle: (f32, f32, f32, f32),
    unit: f32,
    clutter: f32,
    rules_through_puzzle: bool,
    rng: &mut Rng,
) {
    let body = [FontName::Serif, FontName::Sans, FontName::WideSerif][rng.below(3)].font();
    let bold = [FontName::SerifBold, FontName::SansBold][rng.below(2)].font();
    let (width, height) = (image.width() as f32, image.height() as f32);
    let size = unit * rng.range(0.45, 0.7);
    let leading = size * 1.3;
    let column_width = (puzzle.2 - puzzle.0) * rng.range(0.25, 0.4);
    let gutter = size * 1.5;
    let keep_out = unit * 1.2;
    let mut x = gutter;
    while x + column_width < width {
        let mut baseline = rng.range(1.0, 3.0) * leading;
        while baseline < height - leading {
            let blocked = |top: f32, bottom: f32| {
                x < puzzle.2 + keep_out
                    && x + column_width > puzzle.0 - keep_out
                    && bottom > puzzle.1 - keep_out
                    && top < puzzle.3 + keep_out
            };
            if blocked(baseline - size, baseline) {
                baseline += leading;
                continue;
            }
            if rng.chance(0.03 * clutter) {
                // A headline with a rule above it starts a new article. It keeps to its column
                // and out of the puzzle's keep-out as the body text does, its descenders
                // included.
                let count = 2 + rng.below(2);
                let mut headline = words(rng, count);
                while canvas::text_advance(&bold, size * 1.6, &headline) > column_width {
                    match headline.rfind(' ') {
                        Some(end) => headline.truncate(end),
                        None => break,
                    }
                }
                let fits = canvas::text_advance(&bold, size * 1.6, &headline) <= column_width;
                if !fits || blocked(baseline - size * 1.2, baseline + size * 1.4) {
                    baseline += leading;
                    continue;
                }
                canvas::fill_rect(
                    image,
                    x,
                    baseline - size * 1.2,
                    x + column_width,
                    baseline - size * 1.1,
                    INK,
                );
                canvas::draw_text(
                    image,
                    &bold,
                    size * 1.6,
                    &headline,
                    x,
                    baseline + size * 0.9,
                    INK,
                );
                baseline += leading * 2.4;
                continue;
            }
            let mut caret = x;
            let line_end = if rng.chance(0.08) {
                x + column_width * rng.range(0.3, 0.8)
            } else {
                x + column_width
            };
            loop {
                let word = words(rng, 1);
                let advance = canvas::text_advance(&body, size, &word);
                if caret + advance > line_end {
                    break;
                }
                canvas::draw_text(image, &body, size, &word, caret, baseline, INK);
                caret += advance + size * 0.3;
            }
            baseline += leading;
        }
        if rng.chance(0.5 * clutter) {
            let rule_x = x + column_width + gutter / 2.0;
            let right = rule_x + unit * 0.05;
            let crosses = rule_x < puzzle.2 + keep_out && right > puzzle.0 - keep_out;
            if crosses && !rules_through_puzzle {
                // A column rule stops at the puzzle and its title, as a layout engine breaks it
                // around a boxed item; printed through the clues it would be no page seen in print.
                let above = puzzle.1 - unit * 2.0;
                canvas::fill_rect(image, rule_x, 0.0, right, above, INK);
                canvas::fill_rect(image, rule_x, puzzle.3 + keep_out, right, height, INK);
            } else {
                canvas::fill_rect(image, rule_x, 0.0, right, height, INK);
            }
        }
        x += column_width + gutter;
    }
    if rng.chance(clutter) {
        // A page number or folio line, as at the foot of a printed page.
        let folio = format!("{}", 2 + rng.below(60));
        canvas::draw_label(
            image,
            &bold,
            size,
            &folio,
            (width / 2.0, height - leading * 0.8),
            HAlign::Centre,
            INK,
        );
    }
}

/// `count` pseudo-words separated by spaces, capitalised now and then.
fn words(rng: &mut Rng, count: usize) -> String {
    let mut out = Vec::new();
    for _ in 0..count {
        let mut word: String = (0..1 + rng.below(3))
            .map(|_| SYLLABLES[rng.below(SYLLABLES.len())])
            .collect();
        if rng.chance(0.12) {
            word = word[..1].to_uppercase() + &word[1..];
        }
        if rng.chance(0.08) {
            word.push(',');
        }
        out.push(word);
    }
    out.join(" ")
}
