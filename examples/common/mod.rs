//! What the debugging examples share: the photos named on their command line, each folder
//! among them listed. Not an example itself (cargo only runs `examples/*.rs` and
//! `examples/*/main.rs`).

use std::path::{Path, PathBuf};

/// Each argument as a photo, or when it is a folder, the files in it that `keep` accepts,
/// sorted by name. Panics on an unreadable folder: these are tools for a developer's own sets.
pub fn photos<S: AsRef<Path>>(
    args: impl IntoIterator<Item = S>,
    keep: impl Fn(&Path) -> bool,
) -> Vec<PathBuf> {
    let mut photos = Vec::new();
    for arg in args {
        let path = arg.as_ref();
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .expect("readable folder")
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|file| keep(file))
                .collect();
            found.sort();
            photos.extend(found);
        } else {
            photos.push(path.to_path_buf());
        }
    }
    photos
}

/// Whether `path` ends in `.jpg`, as generated photos do.
pub fn is_jpeg(path: &Path) -> bool {
    path.extension().is_some_and(|extension| extension == "jpg")
}
