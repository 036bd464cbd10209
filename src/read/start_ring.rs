//! Erasing the ring printed around a number-jump maze's start digit: the ring is found as the
//! circle that is dark all the way round (a digit darkens only a few directions from the
//! middle, a box around the cell touches a circle at four points), and everything from its
//! inner edge outwards is painted paper, so the digit inside is read as any other digit is. It
//! does not read the digit, and it leaves a crop without such a circle alone.

use image::{GrayImage, Luma};

use super::glyphs;

/// Directions round the circle a ring is sampled in.
const DIRECTIONS: usize = 48;
/// The share of directions that may miss the ring (a digit touching it, a gap in the blur):
/// a circle's darkness is that low a quantile of its darkness over the directions.
const QUANTILE: f32 = 0.2;
/// How far (share of the crop) the ring's middle may stand from the crop's middle: the lattice
/// of a maze may be off by this much at its start.
const MAX_OFFSET: f32 = 0.08;
/// The smallest and largest ring radius looked for (share of the crop's side): printed at about
/// a tenth of the cell from its edges the ring has a radius of about 0.4 cells; a box printed
/// round the cell lies at 0.5.
const RADII: (f32, f32) = (0.28, 0.46);
/// The least darkness (0..1 over the local paper) all round that counts as a ring.
const LEAST_RING_DARKNESS: f32 = 0.2;
/// Where the ring's inner edge is taken: the radius, walking inwards, where the darkness all
/// round falls below this share of the ring's.
const INNER_EDGE: f32 = 0.35;
/// How far inside that edge (share of the ring's radius) the erasing starts: under heavy blur
/// the ring's shade reaches further in, and the faint rim left there was cut as an arc glyph
/// beside the digit (a start's 1 read as 12 at the cell's scale, so the maze was refused as
/// doubtful). The digit, about half the ring's diameter high, stays well inside. On 96 jump
/// hard photos 0.1 left 11 starts unsure (below 0.9) and 1 misread, against 20 and 2 with no
/// margin; 0.05 left 10 and 2 but read one maze fewer exactly, 0.15 and 0.2 misread 3 and 5.
/// Lowering [`INNER_EDGE`] to 0.15 instead erased 34 starts' digits with their rings.
const INNER_MARGIN: f32 = 0.1;

/// A ring found in a crop: its middle (x, y), radius and inner edge, in pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ring {
    pub x: f32,
    pub y: f32,
    pub radius: f32,
    pub inner: f32,
}

/// The darkness of `darkness` (`width` wide) at (x, y), 0 off the crop.
fn at(darkness: &[f32], width: usize, x: f32, y: f32) -> f32 {
    let (x, y) = (x.round(), y.round());
    let height = darkness.len() / width.max(1);
    if x < 0.0 || y < 0.0 || x as usize >= width || y as usize >= height {
        return 0.0;
    }
    darkness[y as usize * width + x as usize]
}

/// The [`QUANTILE`] and the mean of the darkness over the directions round the circle of
/// `radius` about (x, y).
fn all_round(darkness: &[f32], width: usize, (x, y): (f32, f32), radius: f32) -> (f32, f32) {
    let mut round: Vec<f32> = (0..DIRECTIONS)
        .map(|k| {
            let angle = k as f32 * std::f32::consts::TAU / DIRECTIONS as f32;
            at(
                darkness,
                width,
                x + radius * angle.cos(),
                y + radius * angle.sin(),
            )
        })
        .collect();
    let mean = round.iter().sum::<f32>() / DIRECTIONS as f32;
    let index = (QUANTILE * DIRECTIONS as f32) as usize;
    (*round.select_nth_unstable_by(index, f32::total_cmp).1, mean)
}

/// A circle tried: its darkness all round (see [`all_round`]), its middle and its radius.
type Circle = ((f32, f32), (f32, f32), f32);

/// The ring in `crop` (a square cut round the start cell), or `None` when no circle is dark
/// all round.
pub fn find(crop: &GrayImage) -> Option<Ring> {
    let darkness = glyphs::flattened(crop);
    let width = crop.width() as usize;
    if darkness.is_empty() {
        return None;
    }
    let side = crop.width().min(crop.height()) as f32;
    let middle = (crop.width() as f32 / 2.0, crop.height() as f32 / 2.0);
    let reach = (MAX_OFFSET * side).round() as i32;
    let (least, most) = (
        (RADII.0 * side).round() as i32,
        (RADII.1 * side).round() as i32,
    );
    // Circles dark all round, the one on the ring's middle line darkest on the whole (a circle
    // a little off it still crosses the ring in all but a few directions).
    let mut best: Option<Circle> = None;
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let centre = (middle.0 + dx as f32, middle.1 + dy as f32);
            for radius in least..=most {
                let score = all_round(&darkness, width, centre, radius as f32);
                if best.is_none_or(|(s, _, _)| score.0 > s.0 || score.0 == s.0 && score.1 > s.1) {
                    best = Some((score, centre, radius as f32));
                }
            }
        }
    }
    let ((score, _), (x, y), radius) = best?;
    if score < LEAST_RING_DARKNESS {
        return None;
    }
    let mut inner = radius;
    while inner > 1.0 && all_round(&darkness, width, (x, y), inner - 1.0).0 >= INNER_EDGE * score {
        inner -= 1.0;
    }
    Some(Ring {
        x,
        y,
        radius,
        inner: inner - 1.0 - INNER_MARGIN * radius,
    })
}

/// `crop` with everything from `ring`'s inner edge outwards painted the paper inside it (the
/// brightest tenth's level there). Lifting instead only the ring's blur (what is the same all
/// round) back to paper read fewer starts of generated hard photos right (5 of 48 wrong
/// against 3).
pub fn erased(crop: &GrayImage, ring: &Ring) -> GrayImage {
    let inside = |x: u32, y: u32| (x as f32 - ring.x).hypot(y as f32 - ring.y) < ring.inner;
    let levels: Vec<u8> = crop
        .enumerate_pixels()
        .filter(|&(x, y, _)| inside(x, y))
        .map(|(_, _, p)| p.0[0])
        .collect();
    let paper = if levels.is_empty() {
        255
    } else {
        let index = levels.len() * 9 / 10;
        glyphs::value_at_rank(&levels, index)
    };
    GrayImage::from_fn(crop.width(), crop.height(), |x, y| {
        if inside(x, y) {
            *crop.get_pixel(x, y)
        } else {
            Luma([paper])
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `size` square of paper with a ring of `radius` about (x, y) and a bar (a "1") in the
    /// middle.
    fn ringed_one(size: u32, (x, y): (f32, f32), radius: f32) -> GrayImage {
        GrayImage::from_fn(size, size, |px, py| {
            let d = (px as f32 - x).hypot(py as f32 - y);
            let ring = (d - radius).abs() < 2.0;
            let bar = (px as f32 - x).abs() < 2.5 && (py as f32 - y).abs() < 14.0;
            Luma([if ring || bar { 40 } else { 220 }])
        })
    }

    #[test]
    fn a_ring_off_the_middle_is_found_and_erased_leaving_the_digit() {
        let crop = ringed_one(100, (53.0, 47.0), 40.0);
        let ring = find(&crop).expect("a ring");
        assert!((ring.x - 53.0).abs() <= 1.0 && (ring.y - 47.0).abs() <= 1.0);
        assert!((ring.radius - 40.0).abs() <= 2.0);
        assert!(ring.inner < 38.5 && ring.inner > 30.0);
        let clean = erased(&crop, &ring);
        // The ring is paper now, the bar still ink.
        assert_eq!(clean.get_pixel(53 + 40, 47).0[0], 220);
        assert_eq!(clean.get_pixel(53, 47 - 40).0[0], 220);
        assert_eq!(clean.get_pixel(53, 47).0[0], 40);
    }

    #[test]
    fn a_digit_or_a_box_alone_is_no_ring() {
        let digit = GrayImage::from_fn(100, 100, |x, y| {
            let bar = (x as f32 - 50.0).abs() < 3.0 && (y as f32 - 50.0).abs() < 25.0;
            Luma([if bar { 40 } else { 220 }])
        });
        assert_eq!(find(&digit), None);
        let boxed = GrayImage::from_fn(100, 100, |x, y| {
            let edge = x < 3 || y < 3 || x > 96 || y > 96;
            Luma([if edge { 40 } else { 220 }])
        });
        assert_eq!(find(&boxed), None);
    }
}
