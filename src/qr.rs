//! Decoding a QR code that a solved grid forms.
//!
//! The solved grid is already the QR module matrix, so it goes to `rqrr`'s decoder directly as a
//! bit grid; no quiet zone or pixel sampling is involved. This does not find QR codes in photos.

use crate::grid::BinaryGrid;

/// The text of the QR code `grid` forms, if it is a square of a QR size (21, 25, ... 177
/// modules) that decodes, in its orientation as given.
pub fn decode(grid: &BinaryGrid) -> Option<String> {
    let size = grid.height();
    let is_qr_size = (21..=177).contains(&size) && (size - 17) % 4 == 0 && grid.width() == size;
    if !is_qr_size {
        return None;
    }
    rqrr::Grid::new(grid.clone())
        .decode()
        .ok()
        .map(|(_meta, text)| text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_qr_grids_give_nothing() {
        assert_eq!(decode(&BinaryGrid::new(vec![vec![true; 5]; 5])), None);
        assert_eq!(decode(&BinaryGrid::new(vec![vec![false; 21]; 21])), None);
        assert_eq!(decode(&BinaryGrid::new(vec![vec![true; 21]; 20])), None);
    }
}
