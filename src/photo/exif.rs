//! Writes the EXIF orientation tag into a JPEG: a minimal APP1 segment holding one IFD entry,
//! inserted after the JFIF header. It does not read or keep any other metadata.

/// The EXIF orientation values the simulator uses: how a viewer must turn the stored pixels.
/// 1 upright, 3 rotate 180, 6 rotate 90 clockwise, 8 rotate 90 counter-clockwise.
pub const ORIENTATIONS: [u16; 3] = [3, 6, 8];

/// `jpeg` with an APP1 EXIF segment carrying `orientation`, placed after the APP0 (JFIF)
/// segment when there is one, else right after SOI. `None` if `jpeg` does not start with SOI.
pub fn with_orientation(jpeg: &[u8], orientation: u16) -> Option<Vec<u8>> {
    if jpeg.get(..2) != Some(&[0xFF, 0xD8]) {
        return None;
    }
    let mut at = 2;
    if jpeg.get(2..4) == Some(&[0xFF, 0xE0]) {
        let length = usize::from(u16::from_be_bytes([*jpeg.get(4)?, *jpeg.get(5)?]));
        at = 4 + length;
        if at > jpeg.len() {
            return None;
        }
    }
    let mut tiff = Vec::new();
    tiff.extend_from_slice(b"MM\x00\x2A\x00\x00\x00\x08"); // big-endian, first IFD at offset 8
    tiff.extend_from_slice(&1u16.to_be_bytes()); // one entry
    tiff.extend_from_slice(&0x0112u16.to_be_bytes()); // Orientation
    tiff.extend_from_slice(&3u16.to_be_bytes()); // type SHORT
    tiff.extend_from_slice(&1u32.to_be_bytes()); // one value
    tiff.extend_from_slice(&orientation.to_be_bytes());
    tiff.extend_from_slice(&[0, 0]); // value padded to four bytes
    tiff.extend_from_slice(&0u32.to_be_bytes()); // no next IFD
    let payload_length = 2 + 6 + tiff.len();
    let mut out = Vec::with_capacity(jpeg.len() + payload_length + 2);
    out.extend_from_slice(&jpeg[..at]);
    out.extend_from_slice(&[0xFF, 0xE1]);
    out.extend_from_slice(&(payload_length as u16).to_be_bytes());
    out.extend_from_slice(b"Exif\x00\x00");
    out.extend_from_slice(&tiff);
    out.extend_from_slice(&jpeg[at..]);
    Some(out)
}

/// Reads the orientation tag back from a JPEG written by [`with_orientation`] (for tests and
/// for tools that check samples); `None` when there is no such segment.
pub fn orientation(jpeg: &[u8]) -> Option<u16> {
    let start = jpeg.windows(6).position(|w| w == b"Exif\x00\x00")? + 6;
    let tiff = jpeg.get(start..start + 26)?;
    (tiff.get(..2)? == b"MM" && tiff.get(10..12)? == [0x01, 0x12])
        .then(|| u16::from_be_bytes([tiff[18], tiff[19]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientation_round_trips_and_jpeg_still_decodes() {
        let image = image::RgbImage::from_pixel(16, 8, image::Rgb([200, 100, 50]));
        let mut jpeg = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
            .encode_image(&image)
            .unwrap();
        for value in ORIENTATIONS {
            let tagged = with_orientation(&jpeg, value).unwrap();
            assert_eq!(orientation(&tagged), Some(value));
            let decoded = image::load_from_memory(&tagged).unwrap();
            assert_eq!((decoded.width(), decoded.height()), (16, 8));
        }
        assert_eq!(orientation(&jpeg), None);
        assert!(with_orientation(b"not a jpeg", 6).is_none());
    }
}
