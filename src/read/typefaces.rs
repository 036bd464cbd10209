//! The typefaces the digit model is trained and tested on: the renderer's fonts plus faces that
//! puzzles are printed in but `render` never draws (condensed sans as in puzzle magazines,
//! newspaper serifs whose "1" has a heavy flag and a foot).
//!
//! The extra faces are embedded here, not in `render::FontName`, so the renderer's font list
//! (and the photos and ground truth made with it) stays as it is; a binary that never renders
//! training cells leaves them out. Licences are beside the files in `assets/fonts/`. This module
//! only hands out fonts; `synth` draws cells with them.

use ab_glyph::FontRef;

use crate::render::FontName;

/// A face only the digit model sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrintFace {
    /// Roboto Condensed (Apache 2.0): a narrow modern sans.
    CondensedSans,
    /// Roboto Condensed Bold.
    CondensedSansBold,
    /// TeX Gyre Heros Condensed (GUST): Helvetica Condensed's shapes, as in puzzle magazines.
    HelveticaCondensed,
    /// TeX Gyre Heros Condensed Bold.
    HelveticaCondensedBold,
    /// TeX Gyre Schola (GUST): Century Schoolbook's shapes, the heavy-flagged "1" of newspapers.
    Schoolbook,
    /// TeX Gyre Schola Bold.
    SchoolbookBold,
    /// TeX Gyre Termes (GUST): Times' shapes.
    Times,
}

impl PrintFace {
    fn bytes(self) -> &'static [u8] {
        match self {
            PrintFace::CondensedSans => {
                include_bytes!("../../assets/fonts/RobotoCondensed-Regular.ttf")
            }
            PrintFace::CondensedSansBold => {
                include_bytes!("../../assets/fonts/RobotoCondensed-Bold.ttf")
            }
            PrintFace::HelveticaCondensed => {
                include_bytes!("../../assets/fonts/texgyreheroscn-regular.otf")
            }
            PrintFace::HelveticaCondensedBold => {
                include_bytes!("../../assets/fonts/texgyreheroscn-bold.otf")
            }
            PrintFace::Schoolbook => include_bytes!("../../assets/fonts/texgyreschola-regular.otf"),
            PrintFace::SchoolbookBold => {
                include_bytes!("../../assets/fonts/texgyreschola-bold.otf")
            }
            PrintFace::Times => include_bytes!("../../assets/fonts/texgyretermes-regular.otf"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            PrintFace::CondensedSans => "condensed-sans",
            PrintFace::CondensedSansBold => "condensed-sans-bold",
            PrintFace::HelveticaCondensed => "helvetica-condensed",
            PrintFace::HelveticaCondensedBold => "helvetica-condensed-bold",
            PrintFace::Schoolbook => "schoolbook",
            PrintFace::SchoolbookBold => "schoolbook-bold",
            PrintFace::Times => "times",
        }
    }
}

/// A typeface digits are drawn in for training or testing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Typeface {
    Render(FontName),
    Print(PrintFace),
}

impl Typeface {
    /// A short name, for reports.
    pub fn name(self) -> &'static str {
        match self {
            Typeface::Render(font) => font.name(),
            Typeface::Print(face) => face.name(),
        }
    }

    /// The parsed font. The files are fixed at build time and a test parses each one, so a
    /// failure here is a broken build, not bad input.
    pub fn font(self) -> FontRef<'static> {
        match self {
            Typeface::Render(font) => font.font(),
            Typeface::Print(face) => FontRef::try_from_slice(face.bytes())
                .expect("embedded fonts are valid OpenType (tested)"),
        }
    }
}

/// The faces the bundled model is trained on.
pub const TRAINING: [Typeface; 13] = [
    Typeface::Render(FontName::Sans),
    Typeface::Render(FontName::SansBold),
    Typeface::Render(FontName::Serif),
    Typeface::Render(FontName::WideSansBold),
    Typeface::Render(FontName::WideSans),
    Typeface::Render(FontName::Mono),
    Typeface::Render(FontName::MonoBold),
    Typeface::Print(PrintFace::CondensedSans),
    Typeface::Print(PrintFace::CondensedSansBold),
    Typeface::Print(PrintFace::HelveticaCondensed),
    Typeface::Print(PrintFace::Schoolbook),
    Typeface::Print(PrintFace::SchoolbookBold),
    Typeface::Print(PrintFace::Times),
];

/// Faces never seen in training, for the held-out accuracy.
pub const HELD_OUT: [Typeface; 3] = [
    Typeface::Render(FontName::SerifBold),
    Typeface::Render(FontName::WideSerif),
    Typeface::Print(PrintFace::HelveticaCondensedBold),
];

/// Every face, trained on or held out.
pub fn every() -> Vec<Typeface> {
    TRAINING.iter().chain(&HELD_OUT).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_parses_has_digits_and_is_used_once() {
        use ab_glyph::Font;
        let faces = every();
        for (i, face) in faces.iter().enumerate() {
            let parsed = face.font();
            assert!(
                ('0'..='9').all(|d| parsed.glyph_id(d).0 != 0),
                "{}",
                face.name()
            );
            assert!(!faces[..i].contains(face), "{} listed twice", face.name());
        }
        for font in FontName::EVERY {
            assert!(faces.contains(&Typeface::Render(font)), "{}", font.name());
        }
    }
}
