//! Reading puzzle text from a file or stdin, with a size cap, and parsing it by kind.
//!
//! Images are not handled here; this is the text entry point of the pipeline.

use std::io::Read;

use crate::error::Error;
use crate::kinds::{self, Kind, Puzzle};

/// The largest puzzle text gridsight reads; real puzzle files are a few kilobytes.
pub const MAX_TEXT_BYTES: u64 = 4 << 20;

/// Reads `path` (`-` for stdin) as UTF-8 text, refusing more than [`MAX_TEXT_BYTES`].
pub fn read_text(path: &str) -> Result<String, Error> {
    let io_error = |source| Error::Io {
        path: path.to_string(),
        source,
    };
    let mut bytes = Vec::new();
    let reader: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(io_error)?)
    };
    reader
        .take(MAX_TEXT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(Error::InputTooLarge {
            limit: MAX_TEXT_BYTES,
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        io_error(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}

/// Parses every puzzle in `text`, as `kind` when given, else as the kind its content shows.
pub fn parse_puzzles(text: &str, kind: Option<&dyn Kind>) -> Result<Vec<Box<dyn Puzzle>>, Error> {
    let kind = match kind {
        Some(kind) => kind,
        None => kinds::detect(text).ok_or(Error::UnknownKind)?,
    };
    Ok(kind.parse(text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_files_are_io_errors() {
        let err = read_text("/nonexistent/puzzle.txt").unwrap_err();
        assert!(matches!(err, Error::Io { .. }));
        assert_eq!(err.exit_code(), 2);
    }

    #[test]
    fn forced_kind_wins_over_detection() {
        let text = "1 2\n3 4\n";
        assert_eq!(parse_puzzles(text, None).unwrap()[0].kind(), "jump");
        let forced = parse_puzzles(text, kinds::by_name("nurikabe")).unwrap();
        assert_eq!(forced[0].kind(), "nurikabe");
        assert!(matches!(
            parse_puzzles("no puzzle here", None),
            Err(Error::UnknownKind)
        ));
    }
}
