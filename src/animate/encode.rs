//! Encodes animation frames as a looping GIF, small: each frame after the first holds only the
//! rectangle that changed, with unchanged pixels in it transparent, and a palette of its own of
//! at most [`COLOURS`] colours, the most frequent exactly (the flat cell and ink colours) and
//! the rest (anti-aliased edges) mapped to the nearest of them. It does not draw or open files.

use std::collections::HashMap;
use std::io::Write;

use gif::{DisposalMethod, Encoder, Repeat};
use image::RgbImage;

use super::{AnimateError, Frame};

/// Colours in a frame's palette, the transparent one included.
const COLOURS: usize = 64;

/// Writes `frames` to `writer` as a GIF that loops forever; gives how many frames it wrote.
pub fn write_gif<W: Write>(
    frames: impl IntoIterator<Item = Result<Frame, AnimateError>>,
    writer: W,
) -> Result<usize, AnimateError> {
    let mut writer = Some(writer);
    let mut encoder: Option<Encoder<W>> = None;
    let mut previous: Option<RgbImage> = None;
    let mut count = 0;
    for frame in frames {
        let Frame { image, delay_ms } = frame?;
        let (width, height) = image.dimensions();
        let size_error = AnimateError::FrameSize(width, height);
        let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(size_error);
        };
        if previous
            .as_ref()
            .is_some_and(|p| p.dimensions() != (width, height))
        {
            return Err(size_error);
        }
        let encoder = match (&mut encoder, writer.take()) {
            (Some(encoder), _) => encoder,
            (None, Some(writer)) => {
                let mut started = Encoder::new(writer, w, h, &[])?;
                started.set_repeat(Repeat::Infinite)?;
                encoder.insert(started)
            }
            (None, None) => return Err(AnimateError::NoFrames),
        };
        let mut gif_frame = match &previous {
            None => indexed(&image, (0, 0, width, height), None),
            Some(previous) => {
                let rect = changed(previous, &image).unwrap_or((0, 0, 1, 1));
                indexed(&image, rect, Some(previous))
            }
        };
        // GIF delays are in hundredths of a second.
        gif_frame.delay = u16::try_from(delay_ms / 10).unwrap_or(u16::MAX);
        encoder.write_frame(&gif_frame)?;
        previous = Some(image);
        count += 1;
    }
    match encoder {
        Some(encoder) => {
            encoder.into_inner()?;
            Ok(count)
        }
        None => Err(AnimateError::NoFrames),
    }
}

/// The smallest rectangle (x0, y0, x1, y1), ends exclusive, holding every pixel that differs.
fn changed(before: &RgbImage, after: &RgbImage) -> Option<(u32, u32, u32, u32)> {
    let mut rect: Option<(u32, u32, u32, u32)> = None;
    for (x, y, pixel) in after.enumerate_pixels() {
        if before.get_pixel(x, y) != pixel {
            let (x0, y0, x1, y1) = rect.unwrap_or((x, y, x + 1, y + 1));
            rect = Some((x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1)));
        }
    }
    rect
}

/// The `rect` of `image` as a GIF frame with its own palette; pixels equal to `previous` are
/// transparent, so the frame below shows through (and they compress to long runs).
fn indexed(
    image: &RgbImage,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    previous: Option<&RgbImage>,
) -> gif::Frame<'static> {
    let unchanged =
        |x: u32, y: u32| previous.is_some_and(|p| p.get_pixel(x, y) == image.get_pixel(x, y));
    let mut counts: HashMap<[u8; 3], u32> = HashMap::new();
    for y in y0..y1 {
        for x in x0..x1 {
            if !unchanged(x, y) {
                *counts.entry(image.get_pixel(x, y).0).or_default() += 1;
            }
        }
    }
    let mut by_count: Vec<([u8; 3], u32)> = counts.into_iter().collect();
    // Most frequent first; ties by colour, so the same frames give the same bytes.
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let transparent = previous.map(|_| 0u8);
    let mut palette: Vec<[u8; 3]> = transparent.map(|_| [255, 0, 255]).into_iter().collect();
    palette.extend(
        by_count
            .iter()
            .map(|&(colour, _)| colour)
            .take(COLOURS - palette.len()),
    );
    let first_colour = usize::from(transparent.is_some());
    let mut nearest: HashMap<[u8; 3], u8> = HashMap::new();
    let mut buffer = Vec::with_capacity(((x1 - x0) * (y1 - y0)) as usize);
    for y in y0..y1 {
        for x in x0..x1 {
            if unchanged(x, y) {
                buffer.push(0);
                continue;
            }
            let colour = image.get_pixel(x, y).0;
            let index = *nearest.entry(colour).or_insert_with(|| {
                (first_colour..palette.len())
                    .min_by_key(|&i| distance(palette[i], colour))
                    .unwrap_or(first_colour) as u8
            });
            buffer.push(index);
        }
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0) as u16,
        height: (y1 - y0) as u16,
        buffer: buffer.into(),
        palette: Some(palette.concat()),
        transparent,
        dispose: DisposalMethod::Keep,
        ..gif::Frame::default()
    }
}

/// Squared distance between two colours.
fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| (i32::from(x) - i32::from(y)).pow(2) as u32)
        .sum()
}
