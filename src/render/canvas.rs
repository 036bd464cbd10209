//! Drawing primitives on an RGB image: rectangles, anti-aliased lines and triangles, and text
//! laid out with `ab_glyph`.
//!
//! Every shape is blended by coverage, so edges are smooth at any size. It knows nothing about
//! puzzles or layout.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};

/// Where the x coordinate given to [`draw_label`] sits on the text's ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HAlign {
    Left,
    Centre,
    Right,
}

/// Mixes `colour` into the pixel at (x, y) with weight `coverage` (0..1); outside the image
/// nothing happens.
pub fn blend(image: &mut RgbImage, x: i64, y: i64, colour: Rgb<u8>, coverage: f32) {
    if x < 0
        || y < 0
        || x >= i64::from(image.width())
        || y >= i64::from(image.height())
        || coverage <= 0.0
    {
        return;
    }
    let alpha = coverage.min(1.0);
    let pixel = image.get_pixel_mut(x as u32, y as u32);
    for (channel, target) in pixel.0.iter_mut().zip(colour.0) {
        *channel = (f32::from(*channel) * (1.0 - alpha) + f32::from(target) * alpha).round() as u8;
    }
}

/// Fills the axis-aligned rectangle from (x0, y0) to (x1, y1), pixel edges included partially.
pub fn fill_rect(image: &mut RgbImage, x0: f32, y0: f32, x1: f32, y1: f32, colour: Rgb<u8>) {
    for y in y0.floor() as i64..y1.ceil() as i64 {
        let cover_y = (y1.min(y as f32 + 1.0) - y0.max(y as f32)).clamp(0.0, 1.0);
        for x in x0.floor() as i64..x1.ceil() as i64 {
            let cover_x = (x1.min(x as f32 + 1.0) - x0.max(x as f32)).clamp(0.0, 1.0);
            blend(image, x, y, colour, cover_x * cover_y);
        }
    }
}

/// Outlines the rectangle with a border `width` wide lying inside it.
pub fn stroke_rect(
    image: &mut RgbImage,
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    width: f32,
    colour: Rgb<u8>,
) {
    fill_rect(image, x0, y0, x1, y0 + width, colour);
    fill_rect(image, x0, y1 - width, x1, y1, colour);
    fill_rect(image, x0, y0 + width, x0 + width, y1 - width, colour);
    fill_rect(image, x1 - width, y0 + width, x1, y1 - width, colour);
}

/// A straight line `width` wide with round ends, anti-aliased.
pub fn line(image: &mut RgbImage, from: (f32, f32), to: (f32, f32), width: f32, colour: Rgb<u8>) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length_sq = (dx * dx + dy * dy).max(1e-6);
    let reach = width / 2.0 + 1.0;
    for y in (from.1.min(to.1) - reach).floor() as i64..=(from.1.max(to.1) + reach).ceil() as i64 {
        for x in
            (from.0.min(to.0) - reach).floor() as i64..=(from.0.max(to.0) + reach).ceil() as i64
        {
            let (px, py) = (x as f32 + 0.5 - from.0, y as f32 + 0.5 - from.1);
            let t = ((px * dx + py * dy) / length_sq).clamp(0.0, 1.0);
            let distance = ((px - t * dx).powi(2) + (py - t * dy).powi(2)).sqrt();
            blend(image, x, y, colour, width / 2.0 - distance + 0.5);
        }
    }
}

/// A filled triangle, anti-aliased by the distance to its nearest edge.
pub fn triangle(image: &mut RgbImage, corners: [(f32, f32); 3], colour: Rgb<u8>) {
    let [a, b, c] = corners;
    let orientation = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    let sign = if orientation < 0.0 { -1.0 } else { 1.0 };
    let edges = [(a, b), (b, c), (c, a)];
    let min_x = a.0.min(b.0).min(c.0).floor() as i64 - 1;
    let max_x = a.0.max(b.0).max(c.0).ceil() as i64 + 1;
    let min_y = a.1.min(b.1).min(c.1).floor() as i64 - 1;
    let max_y = a.1.max(b.1).max(c.1).ceil() as i64 + 1;
    for y in min_y..=max_y {
        for x in min_x..=max_x {
            let p = (x as f32 + 0.5, y as f32 + 0.5);
            let inside = edges
                .iter()
                .map(|&(s, e)| {
                    let (ex, ey) = (e.0 - s.0, e.1 - s.1);
                    sign * (ex * (p.1 - s.1) - ey * (p.0 - s.0))
                        / (ex * ex + ey * ey).sqrt().max(1e-6)
                })
                .fold(f32::INFINITY, f32::min);
            blend(image, x, y, colour, inside + 0.5);
        }
    }
}

/// A ring (circle outline) of the given radius and stroke width.
pub fn ring(image: &mut RgbImage, centre: (f32, f32), radius: f32, width: f32, colour: Rgb<u8>) {
    let reach = radius + width;
    for y in (centre.1 - reach).floor() as i64..=(centre.1 + reach).ceil() as i64 {
        for x in (centre.0 - reach).floor() as i64..=(centre.0 + reach).ceil() as i64 {
            let distance =
                ((x as f32 + 0.5 - centre.0).powi(2) + (y as f32 + 0.5 - centre.1).powi(2)).sqrt();
            blend(
                image,
                x,
                y,
                colour,
                width / 2.0 - (distance - radius).abs() + 0.5,
            );
        }
    }
}

/// Glyphs of `text` laid out on a baseline at y = 0 from x = 0, with kerning; and the advance.
fn layout(font: &FontRef<'static>, size: f32, text: &str) -> (Vec<ab_glyph::Glyph>, f32) {
    let scaled = font.as_scaled(PxScale::from(size));
    let mut caret = 0.0;
    let mut previous = None;
    let mut glyphs = Vec::new();
    for ch in text.chars() {
        let id = scaled.glyph_id(ch);
        if let Some(previous) = previous {
            caret += scaled.kern(previous, id);
        }
        glyphs.push(id.with_scale_and_position(size, point(caret, 0.0)));
        caret += scaled.h_advance(id);
        previous = Some(id);
    }
    (glyphs, caret)
}

/// Draws glyphs shifted by (dx, dy).
fn draw_glyphs(
    image: &mut RgbImage,
    font: &FontRef<'static>,
    glyphs: Vec<ab_glyph::Glyph>,
    dx: f32,
    dy: f32,
    colour: Rgb<u8>,
) {
    for mut glyph in glyphs {
        glyph.position = point(glyph.position.x + dx, glyph.position.y + dy);
        if let Some(outlined) = font.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            outlined.draw(|x, y, coverage| {
                blend(
                    image,
                    bounds.min.x as i64 + i64::from(x),
                    bounds.min.y as i64 + i64::from(y),
                    colour,
                    coverage,
                );
            });
        }
    }
}

/// The ink box of laid-out glyphs, relative to its origin: (min x, min y, max x, max y).
fn ink_bounds(font: &FontRef<'static>, glyphs: &[ab_glyph::Glyph]) -> Option<(f32, f32, f32, f32)> {
    glyphs
        .iter()
        .filter_map(|g| font.outline_glyph(g.clone()))
        .map(|o| o.px_bounds())
        .fold(None, |acc, b| {
            let (x0, y0, x1, y1) = acc.unwrap_or((b.min.x, b.min.y, b.max.x, b.max.y));
            Some((
                x0.min(b.min.x),
                y0.min(b.min.y),
                x1.max(b.max.x),
                y1.max(b.max.y),
            ))
        })
}

/// Width of the ink of `text` at `size` pixels.
pub fn text_width(font: &FontRef<'static>, size: f32, text: &str) -> f32 {
    let (glyphs, _) = layout(font, size, text);
    ink_bounds(font, &glyphs).map_or(0.0, |(x0, _, x1, _)| x1 - x0)
}

/// Height of the ink of `text` at `size` pixels.
pub fn text_height(font: &FontRef<'static>, size: f32, text: &str) -> f32 {
    let (glyphs, _) = layout(font, size, text);
    ink_bounds(font, &glyphs).map_or(0.0, |(_, y0, _, y1)| y1 - y0)
}

/// Draws a label (a number, usually) whose ink is centred vertically on `y` and aligned on `x`
/// as `align` says. Offsets are rounded to whole pixels so digits stay crisp.
pub fn draw_label(
    image: &mut RgbImage,
    font: &FontRef<'static>,
    size: f32,
    text: &str,
    (x, y): (f32, f32),
    align: HAlign,
    colour: Rgb<u8>,
) {
    let (glyphs, _) = layout(font, size, text);
    let Some((x0, y0, x1, y1)) = ink_bounds(font, &glyphs) else {
        return;
    };
    let left = match align {
        HAlign::Left => x,
        HAlign::Centre => x - (x1 - x0) / 2.0,
        HAlign::Right => x - (x1 - x0),
    };
    let dx = (left - x0).round();
    let dy = (y - (y0 + y1) / 2.0).round();
    draw_glyphs(image, font, glyphs, dx, dy, colour);
}

/// Draws running text with its baseline at `baseline`, starting at `x`; returns the advance.
pub fn draw_text(
    image: &mut RgbImage,
    font: &FontRef<'static>,
    size: f32,
    text: &str,
    x: f32,
    baseline: f32,
    colour: Rgb<u8>,
) -> f32 {
    let (glyphs, advance) = layout(font, size, text);
    draw_glyphs(image, font, glyphs, x.round(), baseline.round(), colour);
    advance
}

/// The advance width of running text, for line breaking.
pub fn text_advance(font: &FontRef<'static>, size: f32, text: &str) -> f32 {
    layout(font, size, text).1
}

/// A convex quadrilateral (corners in order, either winding) filled with `colour` at `opacity`
/// (0..1), anti-aliased at its edges; for shading photographed cells, which perspective makes
/// quadrilaterals rather than rectangles.
pub fn fill_quad(image: &mut RgbImage, corners: [(f32, f32); 4], colour: Rgb<u8>, opacity: f32) {
    let area2: f32 = (0..4)
        .map(|i| {
            let (a, b) = (corners[i], corners[(i + 1) % 4]);
            a.0 * b.1 - b.0 * a.1
        })
        .sum();
    let sign = if area2 < 0.0 { -1.0 } else { 1.0 };
    // A pixel's margin either side, so that edge pixels partly covered are shaded too.
    let span = |coordinate: fn(&(f32, f32)) -> f32| {
        let values = corners.iter().map(coordinate);
        let low = values.clone().fold(f32::INFINITY, f32::min).floor() as i64 - 1;
        let high = values.fold(f32::NEG_INFINITY, f32::max).ceil() as i64 + 1;
        (low, high)
    };
    let (min_x, max_x) = span(|p| p.0);
    let (min_y, max_y) = span(|p| p.1);
    for y in min_y..=max_y {
        for x in min_x..=max_x {
            let p = (x as f32 + 0.5, y as f32 + 0.5);
            let inside = (0..4)
                .map(|i| {
                    let (s, e) = (corners[i], corners[(i + 1) % 4]);
                    let (ex, ey) = (e.0 - s.0, e.1 - s.1);
                    sign * (ex * (p.1 - s.1) - ey * (p.0 - s.0))
                        / (ex * ex + ey * ey).sqrt().max(1e-6)
                })
                .fold(f32::INFINITY, f32::min);
            blend(
                image,
                x,
                y,
                colour,
                (inside + 0.5).clamp(0.0, 1.0) * opacity,
            );
        }
    }
}
