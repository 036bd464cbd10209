//! Splits an image's rows into bands filled on separate threads (as many as the machine offers,
//! up to four), for the per-pixel passes over a full-resolution photo. It does not decide what
//! a pixel holds; the caller's function does, and must give each row the same result whichever
//! band it falls in.

/// Fewer pixels than this are filled on the calling thread: a thread costs more than it saves.
const MIN_PARALLEL_PIXELS: usize = 1 << 18;

/// Fills `out`, rows of `width` values, by calling `fill(first_row, band)` on contiguous bands
/// of whole rows, in parallel when `out` is large.
pub fn fill_rows<T: Send>(out: &mut [T], width: usize, fill: impl Fn(usize, &mut [T]) + Sync) {
    if width == 0 || out.is_empty() {
        return;
    }
    let rows = out.len() / width;
    let threads = if out.len() < MIN_PARALLEL_PIXELS {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    };
    let band_rows = rows.div_ceil(threads).max(1);
    if threads == 1 {
        fill(0, out);
        return;
    }
    std::thread::scope(|scope| {
        let fill = &fill;
        for (band, chunk) in out.chunks_mut(band_rows * width).enumerate() {
            scope.spawn(move || fill(band * band_rows, chunk));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_is_filled_once_with_its_own_index() {
        for (rows, width) in [(0, 5), (3, 4), (1000, 300), (1001, 301)] {
            let mut out = vec![usize::MAX; rows * width];
            fill_rows(&mut out, width, |first, band| {
                for (i, row) in band.chunks_exact_mut(width).enumerate() {
                    row.iter_mut().for_each(|v| *v = first + i);
                }
            });
            for (y, row) in out.chunks_exact(width).enumerate() {
                assert!(row.iter().all(|&v| v == y), "{rows}x{width} row {y}");
            }
        }
    }
}
