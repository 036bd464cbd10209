//! Fits a [`DigitNetwork`] to labelled glyphs: hand-written backpropagation through the
//! forward pass of `classifier`, cross-entropy loss, Adam, minibatches split over threads.
//!
//! Deterministic for a given seed, data and thread count (each thread sums its share of a
//! batch; the shares are added in a fixed order). It makes no data (see `synth`) and is not
//! used at run time.

use super::classifier::{Activations, DigitClassifier, DigitNetwork, Shape, CLASSES, KERNEL};
use super::glyphs::SIDE;
use super::synth::LabelledGlyph;
use crate::photo::rng::Rng;

/// How to train.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainOptions {
    pub shape: Shape,
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size at the start; it decays along a cosine to 5% of this at the end.
    pub learning_rate: f32,
    pub seed: u64,
    pub threads: usize,
}

/// A freshly initialised network: He-scaled random weights, zero biases.
pub fn initial(shape: Shape, seed: u64) -> DigitNetwork {
    let o = shape.offsets();
    let mut rng = Rng::new(seed);
    let mut params = vec![0f32; o.total];
    let k = (KERNEL * KERNEL) as f32;
    let layers = [
        (o.conv1_w..o.conv1_b, k),
        (o.conv2_w..o.conv2_b, k * shape.conv1 as f32),
        (o.fc1_w..o.fc1_b, shape.flat() as f32),
        (o.fc2_w..o.fc2_b, shape.hidden as f32),
    ];
    for (range, fan_in) in layers {
        let scale = (2.0 / fan_in).sqrt();
        for p in &mut params[range] {
            *p = rng.normal() * scale;
        }
    }
    DigitNetwork::from_parts(shape, params)
}

/// Trains from `initial(options.shape, options.seed)`; `progress` hears (epoch, mean loss,
/// training accuracy) after each epoch.
pub fn train(
    data: &[LabelledGlyph],
    options: &TrainOptions,
    progress: impl FnMut(usize, f32, f32),
) -> DigitNetwork {
    train_from(
        initial(options.shape, options.seed),
        data,
        options,
        progress,
    )
}

/// [`train`] starting from `model`'s weights (its shape, not `options.shape`): fine-tuning a
/// trained model on new data.
pub fn train_from(
    mut model: DigitNetwork,
    data: &[LabelledGlyph],
    options: &TrainOptions,
    mut progress: impl FnMut(usize, f32, f32),
) -> DigitNetwork {
    let n = model.params.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let (beta1, beta2, epsilon) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<usize> = (0..data.len()).collect();
    let mut rng = Rng::new(options.seed ^ 0xDA7A);
    let batches_per_epoch = data.len().div_ceil(options.batch.max(1));
    let total_steps = (batches_per_epoch * options.epochs).max(1);
    let mut step = 0usize;
    let threads = options.threads.max(1);
    for epoch in 0..options.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let (mut loss_sum, mut correct) = (0f64, 0usize);
        for batch in order.chunks(options.batch.max(1)) {
            let share = batch.len().div_ceil(threads);
            let results: Vec<(Vec<f32>, f64, usize)> = std::thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(share)
                    .map(|part| {
                        let model = &model;
                        scope.spawn(move || gradient(model, data, part))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                    .collect()
            });
            let mut grad = vec![0f32; n];
            for (g, loss, right) in results {
                for (total, value) in grad.iter_mut().zip(g) {
                    *total += value;
                }
                loss_sum += loss;
                correct += right;
            }
            step += 1;
            let progress_share = step as f32 / total_steps as f32;
            let rate = options.learning_rate
                * (0.05 + 0.95 * 0.5 * (1.0 + (std::f32::consts::PI * progress_share).cos()));
            let correction1 = 1.0 - beta1.powi(step as i32);
            let correction2 = 1.0 - beta2.powi(step as i32);
            let scale = 1.0 / batch.len() as f32;
            for i in 0..n {
                let g = grad[i] * scale;
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                model.params[i] -=
                    rate * (m[i] / correction1) / ((v[i] / correction2).sqrt() + epsilon);
            }
        }
        progress(
            epoch + 1,
            (loss_sum / data.len().max(1) as f64) as f32,
            correct as f32 / data.len().max(1) as f32,
        );
    }
    model
}

/// The summed gradient of the cross-entropy loss over the samples `indices`, their summed loss
/// and how many the model already gets right.
fn gradient(
    model: &DigitNetwork,
    data: &[LabelledGlyph],
    indices: &[usize],
) -> (Vec<f32>, f64, usize) {
    let mut grad = vec![0f32; model.params.len()];
    let (mut loss, mut correct) = (0f64, 0usize);
    for &i in indices {
        let sample = &data[i];
        let acts = model.forward(&sample.glyph.pixels);
        let target = usize::from(sample.digit);
        loss -= f64::from(acts.probabilities[target].max(1e-12).ln());
        let best = (0..CLASSES)
            .max_by(|&a, &b| acts.probabilities[a].total_cmp(&acts.probabilities[b]))
            .unwrap_or(0);
        correct += usize::from(best == target);
        backward(model, &sample.glyph.pixels, &acts, target, &mut grad);
    }
    (grad, loss, correct)
}

/// Adds the gradient of one sample's loss to `grad`.
fn backward(
    model: &DigitNetwork,
    input: &[f32],
    acts: &Activations,
    target: usize,
    grad: &mut [f32],
) {
    let (s, o, p) = (model.shape, model.shape.offsets(), &model.params);
    let conv1_side = SIDE - KERNEL + 1;
    let pool1_side = conv1_side / 2;
    let conv2_side = pool1_side - KERNEL + 1;

    // Output layer: softmax with cross-entropy gives probabilities minus the one-hot target.
    let mut d_logits = acts.probabilities;
    d_logits[target] -= 1.0;
    let mut d_hidden = vec![0f32; s.hidden];
    for (c, &d) in d_logits.iter().enumerate() {
        grad[o.fc2_b + c] += d;
        let row = o.fc2_w + c * s.hidden;
        for j in 0..s.hidden {
            grad[row + j] += d * acts.hidden[j];
            d_hidden[j] += d * p[row + j];
        }
    }
    let flat = s.flat();
    let mut d_pool2 = vec![0f32; flat];
    for (j, &d) in d_hidden.iter().enumerate() {
        if acts.hidden[j] <= 0.0 {
            continue;
        }
        grad[o.fc1_b + j] += d;
        let row = o.fc1_w + j * flat;
        for i in 0..flat {
            grad[row + i] += d * acts.pool2[i];
            d_pool2[i] += d * p[row + i];
        }
    }
    let mut d_conv2 = vec![0f32; acts.conv2.len()];
    for (k, &from) in acts.pool2_from.iter().enumerate() {
        if acts.conv2[from] > 0.0 {
            d_conv2[from] += d_pool2[k];
        }
    }
    let d_pool1 = conv_backward(
        &acts.pool1,
        s.conv1,
        pool1_side,
        &d_conv2,
        s.conv2,
        &p[o.conv2_w..o.conv2_b],
        &mut grad[o.conv2_w..o.fc1_w],
        true,
    );
    let mut d_conv1 = vec![0f32; acts.conv1.len()];
    for (k, &from) in acts.pool1_from.iter().enumerate() {
        if acts.conv1[from] > 0.0 {
            d_conv1[from] += d_pool1[k];
        }
    }
    let mut image = [0f32; SIDE * SIDE];
    for (slot, value) in image.iter_mut().zip(input) {
        *slot = *value;
    }
    conv_backward(
        &image,
        1,
        SIDE,
        &d_conv1,
        s.conv1,
        &p[o.conv1_w..o.conv1_b],
        &mut grad[o.conv1_w..o.conv2_w],
        false,
    );
    debug_assert_eq!(conv2_side * conv2_side * s.conv2, acts.conv2.len());
}

/// Backward pass of [`convolve`]: adds weight and bias gradients to `grad` (weights then
/// biases, as laid out in the parameters) and returns the input's gradient when `want_input`.
#[allow(clippy::too_many_arguments)]
fn conv_backward(
    input: &[f32],
    channels: usize,
    side: usize,
    d_out: &[f32],
    out_channels: usize,
    weights: &[f32],
    grad: &mut [f32],
    want_input: bool,
) -> Vec<f32> {
    let out_side = side - KERNEL + 1;
    let kk = KERNEL * KERNEL;
    let (grad_w, grad_b) = grad.split_at_mut(out_channels * channels * kk);
    let mut d_input = vec![0f32; if want_input { input.len() } else { 0 }];
    for oc in 0..out_channels {
        let d_map = &d_out[oc * out_side * out_side..][..out_side * out_side];
        grad_b[oc] += d_map.iter().sum::<f32>();
        for ic in 0..channels {
            let plane = &input[ic * side * side..][..side * side];
            let base = (oc * channels + ic) * kk;
            for ky in 0..KERNEL {
                for kx in 0..KERNEL {
                    let mut sum = 0f32;
                    let w = weights[base + ky * KERNEL + kx];
                    for oy in 0..out_side {
                        let src = &plane[(oy + ky) * side + kx..][..out_side];
                        let d_row = &d_map[oy * out_side..][..out_side];
                        sum += src.iter().zip(d_row).map(|(a, b)| a * b).sum::<f32>();
                        if want_input {
                            let dst = &mut d_input[ic * side * side + (oy + ky) * side + kx..]
                                [..out_side];
                            for (d, g) in dst.iter_mut().zip(d_row) {
                                *d += w * g;
                            }
                        }
                    }
                    grad_w[base + ky * KERNEL + kx] += sum;
                }
            }
        }
    }
    d_input
}

/// Share of `data` the reader reads right.
pub fn accuracy(model: &DigitClassifier, data: &[LabelledGlyph]) -> f32 {
    let right = data
        .iter()
        .filter(|s| model.classify(&s.glyph).best().0 == s.digit)
        .count();
    right as f32 / data.len().max(1) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::glyphs::{Bounds, NormalisedGlyph};

    /// The analytic gradient agrees with finite differences on a tiny network.
    #[test]
    fn backprop_matches_finite_differences() {
        let shape = Shape {
            conv1: 2,
            conv2: 3,
            hidden: 4,
        };
        let mut model = initial(shape, 3);
        let mut rng = Rng::new(9);
        let pixels: Vec<f32> = (0..SIDE * SIDE).map(|_| rng.unit()).collect();
        let sample = LabelledGlyph {
            glyph: NormalisedGlyph {
                pixels,
                bounds: Bounds {
                    x0: 0,
                    y0: 0,
                    x1: 1,
                    y1: 1,
                },
            },
            digit: 7,
        };
        let data = [sample];
        let (grad, _, _) = gradient(&model, &data, &[0]);
        let loss = |m: &DigitNetwork| -> f64 {
            f64::from(-m.forward(&data[0].glyph.pixels).probabilities[7].ln())
        };
        let o = shape.offsets();
        for &i in &[
            o.conv1_w + 3,
            o.conv1_b,
            o.conv2_w + 17,
            o.conv2_b + 1,
            o.fc1_w + 5,
            o.fc1_b + 2,
            o.fc2_w + 30,
            o.fc2_b + 7,
        ] {
            let saved = model.params[i];
            // Small steps: a larger one crosses ReLU and max-pool kinks and measures a different slope.
            let h = 3e-4;
            model.params[i] = saved + h;
            let up = loss(&model);
            model.params[i] = saved - h;
            let down = loss(&model);
            model.params[i] = saved;
            let numeric = (up - down) / (2.0 * f64::from(h));
            let analytic = f64::from(grad[i]);
            assert!(
                (numeric - analytic).abs() < 5e-2 * (1.0 + numeric.abs()),
                "param {i}: numeric {numeric}, analytic {analytic}"
            );
        }
    }
}
