//! The output stage's file writing: result images, animations and debug pictures go to a temporary file beside
//! the target and are renamed into place, so a failed or interrupted run never leaves a
//! half-written file. Drawing them is `render`'s and `animate`'s job.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use image::RgbImage;

use crate::animate::{self, AnimateError, Frame};
use crate::debug_images::DebugImages;

/// Writes `image` as a PNG at `path`, atomically.
pub fn write_png(image: &RgbImage, path: &Path) -> Result<(), image::ImageError> {
    atomically(path, |temporary| {
        image.save_with_format(temporary, image::ImageFormat::Png)
    })
}

/// Writes each of `debug`'s pictures as `NAME.PICTURE.png` in `dir`, creating `dir` if needed;
/// gives the paths written.
pub fn write_debug_images(
    dir: &Path,
    name: &str,
    debug: &DebugImages,
) -> Result<Vec<PathBuf>, image::ImageError> {
    std::fs::create_dir_all(dir)?;
    debug
        .pictures
        .iter()
        .map(|(picture, image)| {
            let path = dir.join(format!("{name}.{picture}.png"));
            write_png(image, &path).map(|()| path)
        })
        .collect()
}

/// Writes `frames` as a looping GIF at `path`, atomically; gives how many frames it wrote.
pub fn write_gif(
    frames: impl IntoIterator<Item = Result<Frame, AnimateError>>,
    path: &Path,
) -> Result<usize, AnimateError> {
    atomically(path, |temporary| {
        let mut file = BufWriter::new(std::fs::File::create(temporary)?);
        let count = animate::write_gif(frames, &mut file)?;
        file.flush()?;
        Ok(count)
    })
}

/// Runs `write` on a temporary path beside `path`, then renames the result into place; on any
/// failure the temporary file is removed and `path` is left as it was.
fn atomically<T, E: From<std::io::Error>>(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<T, E>,
) -> Result<T, E> {
    let temporary = temporary_path(path);
    let written = write(&temporary).and_then(|value| {
        std::fs::rename(&temporary, path)?;
        Ok(value)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

/// `.NAME.PID.part` beside `path`: hidden, and unique to this process.
fn temporary_path(path: &Path) -> PathBuf {
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{file_name}.{}.part", std::process::id()))
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
