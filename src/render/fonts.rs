//! The typefaces puzzles are printed in, embedded in the binary so that rendering needs no font
//! files and no network at run time.
//!
//! Liberation 2 (SIL OFL 1.1) and DejaVu (Bitstream Vera licence); the licences are beside the
//! files in `assets/fonts/`. This module only hands out fonts; `canvas` draws text with them.

use ab_glyph::FontRef;

/// One embedded typeface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontName {
    Sans,
    SansBold,
    Serif,
    SerifBold,
    /// DejaVu Sans Bold: wide, heavy digits as in many puzzle magazines.
    WideSansBold,
    /// DejaVu Serif: a second, rounder serif face.
    WideSerif,
    /// DejaVu Sans: a wide regular sans.
    WideSans,
    /// DejaVu Sans Mono: its "1" has a flag and a foot serif, as in much newspaper print.
    Mono,
    /// DejaVu Sans Mono Bold.
    MonoBold,
}

impl FontName {
    /// The fonts the photo simulator picks from by index, in a fixed order: fonts added later go
    /// in [`FontName::EVERY`] only, so the committed sample photos still regenerate the same.
    pub const ALL: [FontName; 6] = [
        FontName::Sans,
        FontName::SansBold,
        FontName::Serif,
        FontName::SerifBold,
        FontName::WideSansBold,
        FontName::WideSerif,
    ];

    /// Every embedded font: [`FontName::ALL`] and then the ones only the digit model trains on.
    pub const EVERY: [FontName; 9] = [
        FontName::Sans,
        FontName::SansBold,
        FontName::Serif,
        FontName::SerifBold,
        FontName::WideSansBold,
        FontName::WideSerif,
        FontName::WideSans,
        FontName::Mono,
        FontName::MonoBold,
    ];

    /// The name used on the command line and in ground truth.
    pub fn name(self) -> &'static str {
        match self {
            FontName::Sans => "sans",
            FontName::SansBold => "sans-bold",
            FontName::Serif => "serif",
            FontName::SerifBold => "serif-bold",
            FontName::WideSansBold => "wide-sans-bold",
            FontName::WideSerif => "wide-serif",
            FontName::WideSans => "wide-sans",
            FontName::Mono => "mono",
            FontName::MonoBold => "mono-bold",
        }
    }

    /// The font called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<FontName> {
        FontName::EVERY.into_iter().find(|font| font.name() == name)
    }

    fn bytes(self) -> &'static [u8] {
        match self {
            FontName::Sans => include_bytes!("../../assets/fonts/LiberationSans-Regular.ttf"),
            FontName::SansBold => include_bytes!("../../assets/fonts/LiberationSans-Bold.ttf"),
            FontName::Serif => include_bytes!("../../assets/fonts/LiberationSerif-Regular.ttf"),
            FontName::SerifBold => include_bytes!("../../assets/fonts/LiberationSerif-Bold.ttf"),
            FontName::WideSansBold => include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf"),
            FontName::WideSerif => include_bytes!("../../assets/fonts/DejaVuSerif.ttf"),
            FontName::WideSans => include_bytes!("../../assets/fonts/DejaVuSans.ttf"),
            FontName::Mono => include_bytes!("../../assets/fonts/DejaVuSansMono.ttf"),
            FontName::MonoBold => include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf"),
        }
    }

    /// The parsed font. The files are fixed at build time and a test parses each one, so a
    /// failure here is a broken build, not bad input.
    pub fn font(self) -> FontRef<'static> {
        FontRef::try_from_slice(self.bytes()).expect("embedded fonts are valid TrueType (tested)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_font_parses_and_has_digits() {
        use ab_glyph::Font;
        for font in FontName::EVERY {
            let parsed = font.font();
            assert!(
                ('0'..='9').all(|d| parsed.glyph_id(d).0 != 0),
                "{}",
                font.name()
            );
            assert_eq!(FontName::from_name(font.name()), Some(font));
        }
    }
}
