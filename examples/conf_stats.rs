use gridsight::detect::{find_lattice, load_upright};
use gridsight::eval::truth_for;
use gridsight::read::{bundled_classifier, read_grid, CellValue};
fn main() {
    let dir = std::env::args().nth(1).unwrap();
    let mut photos: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jpg"))
        .collect();
    photos.sort();
    for photo in &photos {
        let Some(truth) = truth_for(photo) else {
            continue;
        };
        let Ok(rgb) = load_upright(photo) else {
            continue;
        };
        let gray = gridsight::detect::grayscale(&rgb);
        let Ok(lattice) = find_lattice(&gray) else {
            continue;
        };
        let read = read_grid(&gray, &lattice, bundled_classifier());
        for (cell, want) in read.cells.iter().zip(&truth.cells) {
            if let CellValue::Number(n) = cell.value {
                let t = match want {
                    CellValue::Number(m) => {
                        if *m == n {
                            "ok"
                        } else {
                            "wrongdigit"
                        }
                    }
                    CellValue::Blank => "blank",
                    _ => "?",
                };
                println!(
                    "{} {} {} {:.3} {}",
                    photo.file_name().unwrap().to_string_lossy(),
                    t,
                    n,
                    cell.confidence,
                    cell.alternatives
                        .iter()
                        .map(|(v, p)| format!("{:?}:{:.2}", v, p))
                        .collect::<Vec<_>>()
                        .join(" ")
                );
            }
        }
    }
}
