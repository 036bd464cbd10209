//! The bold part of an ink mask: what is left of the ink after a morphological opening (each
//! pixel kept only when a square of ink around it, or around a neighbour, covers it). A grid's
//! border is printed bolder than the page rules and the frame around a puzzle, so a rule or
//! frame touching it joins it in the ink but not in the bold ink, and the border's own outline
//! shows there. It finds no outline itself; the caller takes the pieces' hulls.

/// `ink` (`width` x `height`, row-major) opened by a square `2 * radius + 1` pixels wide:
/// strokes thinner than that vanish, bolder ones keep their shape.
pub fn opened(ink: &[bool], width: usize, height: usize, radius: usize) -> Vec<bool> {
    if width == 0 || ink.len() != width * height {
        return Vec::new();
    }
    let eroded = spread(ink, width, height, radius, false);
    spread(&eroded, width, height, radius, true)
}

/// Each pixel set to whether any (`grow`) or every (not `grow`) pixel of the square within
/// `radius` of it is set; pixels beyond the mask count as unset when eroding and growing alike.
fn spread(mask: &[bool], width: usize, height: usize, radius: usize, grow: bool) -> Vec<bool> {
    let pass = |source: &[bool], stride: usize, step: usize, lines: usize, length: usize| {
        let mut out = vec![false; source.len()];
        // Running count of set pixels in the window along each line.
        for line in 0..lines {
            let at = |k: usize| source[line * stride + k * step];
            let mut count = 0usize;
            for k in 0..radius.min(length) {
                count += usize::from(at(k));
            }
            for k in 0..length {
                if k + radius < length {
                    count += usize::from(at(k + radius));
                }
                if k > radius {
                    count -= usize::from(at(k - radius - 1));
                }
                let window = 2 * radius + 1;
                out[line * stride + k * step] = if grow { count > 0 } else { count == window };
            }
        }
        out
    };
    let across = pass(mask, width, 1, height, width);
    pass(&across, 1, width, width, height)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thin_rule_vanishes_and_a_bold_border_stays() {
        let (w, h) = (40, 30);
        let mut ink = vec![false; w * h];
        // A bold box 4 pixels wide from (5, 5) to (24, 24), a 1-pixel rule from it to the edge.
        for y in 5..25 {
            for x in 5..25 {
                let border = !(9..=20).contains(&x) || !(9..=20).contains(&y);
                ink[y * w + x] = border;
            }
        }
        for x in 25..40 {
            ink[12 * w + x] = true;
        }
        let bold = opened(&ink, w, h, 1);
        assert!((25..40).all(|x| !bold[12 * w + x]), "the rule is gone");
        let kept = (0..w * h).filter(|&i| bold[i] == ink[i]).count();
        assert_eq!(kept, w * h - 15, "the box is untouched");
    }
}
