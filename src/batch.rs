//! Many inputs at once: folders expanded into the puzzle files and images they hold, and work
//! spread over all cores with results handed back in input order.
//!
//! It knows nothing of solving or printing; the caller passes the work and consumes results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// File endings gridsight reads inside a folder: puzzle texts and photos.
const INPUT_ENDINGS: &[&str] = &[
    ".non", ".nonpack", ".txt", ".jump", ".sudoku", ".jpg", ".jpeg", ".png",
];
/// Files that sit beside inputs but are not inputs.
const COMPANION_ENDINGS: &[&str] = &[".solution.txt", ".truth.json", ".solved.png"];

/// The inputs named on the command line, each folder replaced by the inputs it holds (sorted, not
/// recursive). A name that is not a folder stays as it is, even if missing, so it gets its own error.
pub fn expand_inputs(names: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    let mut inputs = Vec::new();
    for name in names {
        if name.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(name)?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|path| path.is_file() && is_input(path))
                .collect();
            found.sort();
            inputs.extend(found);
        } else {
            inputs.push(name.clone());
        }
    }
    Ok(inputs)
}

fn is_input(path: &Path) -> bool {
    let name = path.to_string_lossy().to_lowercase();
    INPUT_ENDINGS.iter().any(|e| name.ends_with(e))
        && !COMPANION_ENDINGS.iter().any(|e| name.ends_with(e))
}

/// Runs `work` on every input over `threads` threads and calls `done` with each result in input
/// order, as soon as it and all before it are finished. When `done` fails, no new input starts
/// and its error is returned.
pub fn run_in_order<I, R, E>(
    inputs: &[I],
    threads: usize,
    work: impl Fn(&I) -> R + Sync,
    mut done: impl FnMut(usize, R) -> Result<(), E>,
) -> Result<(), E>
where
    I: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        for _ in 0..threads.clamp(1, inputs.len().max(1)) {
            let sender = sender.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= inputs.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                if sender.send((index, work(&inputs[index]))).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut pending = BTreeMap::new();
        let mut next_done = 0;
        for (index, result) in receiver {
            pending.insert(index, result);
            while let Some(result) = pending.remove(&next_done) {
                if let Err(error) = done(next_done, result) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                next_done += 1;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_input_order() {
        let inputs: Vec<u64> = (0..50).collect();
        let mut seen = Vec::new();
        run_in_order(
            &inputs,
            4,
            |&n| {
                std::thread::sleep(std::time::Duration::from_micros((50 - n) * 20));
                n * n
            },
            |index, square| -> Result<(), ()> {
                seen.push((index, square));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(
            seen,
            inputs
                .iter()
                .map(|&n| (n as usize, n * n))
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_failing_consumer_stops_the_run() {
        let inputs: Vec<u32> = (0..1000).collect();
        let started = AtomicUsize::new(0);
        let result = run_in_order(
            &inputs,
            2,
            |_| {
                std::thread::sleep(std::time::Duration::from_micros(500));
                started.fetch_add(1, Ordering::Relaxed)
            },
            |index, _| if index == 3 { Err("closed") } else { Ok(()) },
        );
        assert_eq!(result, Err("closed"));
        assert!(started.load(Ordering::Relaxed) < 1000);
    }

    #[test]
    fn folders_expand_to_their_inputs() {
        let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("samples");
        let inputs = expand_inputs(&[samples.clone(), PathBuf::from("missing.non")]).unwrap();
        assert!(inputs.iter().any(|p| p.ends_with("gchq.non")));
        assert!(inputs.iter().any(|p| p.ends_with("sudoku-scan.jpg")));
        assert!(!inputs
            .iter()
            .any(|p| p.to_string_lossy().ends_with(".truth.json")));
        assert_eq!(inputs.last().unwrap(), &PathBuf::from("missing.non"));
    }
}
