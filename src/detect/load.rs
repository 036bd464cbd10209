//! Loading a photo upright: the header is read first so an oversized image is refused before
//! any pixel is decoded, then the pixels are decoded and turned as the EXIF orientation tag
//! says. It does not look at the picture's content.

use std::path::Path;

use image::{ImageDecoder, ImageReader};

use super::DetectError;

/// The largest image accepted, in pixels (a 40 MP photo decodes to 120 MB of RGB).
pub const MAX_PIXELS: u64 = 40_000_000;

/// A decoder's message on one line: some end theirs with a newline, and errors are one line.
pub(super) fn one_line(error: &image::ImageError) -> String {
    error
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Loads an image file upright: EXIF orientation honoured, more than [`MAX_PIXELS`] refused
/// from the header alone, unreadable and corrupt files reported as such.
pub fn load_upright(path: &Path) -> Result<image::RgbImage, DetectError> {
    let io = |source| DetectError::Io {
        path: path.display().to_string(),
        source,
    };
    let reader = ImageReader::open(path)
        .map_err(io)?
        .with_guessed_format()
        .map_err(io)?;
    let mut decoder = reader.into_decoder().map_err(DetectError::Corrupt)?;
    let (width, height) = decoder.dimensions();
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(DetectError::TooLarge { width, height });
    }
    // A broken orientation tag is not worth refusing the photo for: treat it as upright.
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut picture = image::DynamicImage::from_decoder(decoder).map_err(DetectError::Corrupt)?;
    picture.apply_orientation(orientation);
    // A JPEG decodes to RGB already: taking it over spares copying 36 MB for 12 megapixels.
    Ok(picture.into_rgb8())
}
