//! Splits an image's rows into bands filled on separate threads (as many as the machine offers,
//! up to four), for the per-pixel passes over a full-resolution photo, and a list of items (a
//! grid's cells) between threads the same way. It does not decide what a pixel or an item gives;
//! the caller's function does, and must give each the same result whichever thread runs it.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Fewer pixels than this are filled on the calling thread: a thread costs more than it saves.
const MIN_PARALLEL_PIXELS: usize = 1 << 18;

/// Fewer items than this are mapped on the calling thread: a grid of a few cells is read
/// faster than threads start.
const MIN_PARALLEL_ITEMS: usize = 16;

/// How many threads to spread work over.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

/// `f` of each item, in order. Each thread takes the next item not yet taken, so a thread
/// slowed by other work on its core, or by costlier items, takes fewer.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = if items.len() < MIN_PARALLEL_ITEMS {
        1
    } else {
        cores()
    };
    if threads == 1 {
        return items.iter().map(f).collect();
    }
    let next = AtomicUsize::new(0);
    let taken: Vec<Vec<(usize, R)>> = std::thread::scope(|scope| {
        let (f, next) = (&f, &next);
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else {
                            return done;
                        };
                        done.push((i, f(item)));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    for (i, result) in taken.into_iter().flatten() {
        results[i] = Some(result);
    }
    results.into_iter().flatten().collect()
}

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
        cores()
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
    fn items_map_in_order() {
        for count in [0, 1, 15, 16, 17, 81, 400] {
            let items: Vec<usize> = (0..count).collect();
            let mapped = map(&items, |&i| (i, i * i));
            assert_eq!(
                mapped,
                items.iter().map(|&i| (i, i * i)).collect::<Vec<_>>()
            );
        }
    }

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
