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
/// Every frame must have the first one's size.
pub fn write_gif<W: Write>(
    frames: impl IntoIterator<Item = Result<Frame, AnimateError>>,
    writer: W,
) -> Result<usize, AnimateError> {
    let mut frames = frames.into_iter();
    let first = frames.next().ok_or(AnimateError::NoFrames)??;
    let (width, height) = first.image.dimensions();
    let (Ok(w), Ok(h)) = (u16::try_from(width), u16::try_from(height)) else {
        return Err(AnimateError::FrameSize(width, height));
    };
    let mut encoder = Encoder::new(writer, w, h, &[])?;
    encoder.set_repeat(Repeat::Infinite)?;
    encoder.write_frame(&indexed(&first, (0, 0, width, height), None))?;
    let mut previous = first.image;
    let mut count = 1;
    for frame in frames {
        let frame = frame?;
        if frame.image.dimensions() != (width, height) {
            let (w, h) = frame.image.dimensions();
            return Err(AnimateError::FrameSize(w, h));
        }
        // A frame that changes nothing still holds its time: one transparent pixel.
        let rect = changed(&previous, &frame.image).unwrap_or((0, 0, 1, 1));
        encoder.write_frame(&indexed(&frame, rect, Some(&previous)))?;
        previous = frame.image;
        count += 1;
    }
    encoder.into_inner()?;
    Ok(count)
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

/// The `rect` of `frame` as a GIF frame with its own palette; pixels equal to `previous` are
/// transparent, so the frame below shows through (and they compress to long runs).
fn indexed(
    frame: &Frame,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    previous: Option<&RgbImage>,
) -> gif::Frame<'static> {
    let image = &frame.image;
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
        // GIF delays are in hundredths of a second.
        delay: u16::try_from(frame.delay_ms / 10).unwrap_or(u16::MAX),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(width: u32, height: u32) -> Result<Frame, AnimateError> {
        Ok(Frame {
            image: RgbImage::from_pixel(width, height, image::Rgb([255; 3])),
            delay_ms: 500,
        })
    }

    #[test]
    fn refuses_no_frames_and_frames_of_another_size() {
        let mut out = Vec::new();
        assert!(matches!(
            write_gif(Vec::new(), &mut out),
            Err(AnimateError::NoFrames)
        ));
        assert!(matches!(
            write_gif(vec![frame(4, 4), frame(5, 4)], &mut out),
            Err(AnimateError::FrameSize(5, 4))
        ));
        assert!(matches!(
            write_gif(vec![frame(70_000, 1)], &mut out),
            Err(AnimateError::FrameSize(70_000, 1))
        ));
    }

    #[test]
    fn the_changed_rectangle_is_tight() {
        let before = RgbImage::new(10, 10);
        let mut after = before.clone();
        assert_eq!(changed(&before, &after), None);
        after.put_pixel(3, 7, image::Rgb([1, 0, 0]));
        after.put_pixel(5, 2, image::Rgb([1, 0, 0]));
        assert_eq!(changed(&before, &after), Some((3, 2, 6, 8)));
    }
}
