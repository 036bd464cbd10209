//! The output stage's file writing: result images go to a temporary file beside the target and
//! are renamed into place, so a failed or interrupted run never leaves a half-written image.
//! Drawing the images is `render`'s job.

use std::path::Path;

use image::RgbImage;

/// Writes `image` as a PNG at `path`, atomically.
pub fn write_png(image: &RgbImage, path: &Path) -> Result<(), image::ImageError> {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.{}.part", std::process::id()));
    let written = image
        .save_with_format(&temporary, image::ImageFormat::Png)
        .and_then(|()| std::fs::rename(&temporary, path).map_err(image::ImageError::IoError));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_readable_png_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("gridsight-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.png");
        write_png(&RgbImage::from_pixel(3, 2, image::Rgb([1, 2, 3])), &path).unwrap();
        assert_eq!(
            image::open(&path).unwrap().to_rgb8().get_pixel(2, 1).0,
            [1, 2, 3]
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        assert!(write_png(&RgbImage::new(1, 1), &dir.join("missing/x.png")).is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
