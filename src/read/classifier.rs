//! Reads one normalised glyph as a digit 0-9, with a probability for every digit so callers
//! can try the next most likely reading: the product of two small convolutional networks
//! trained alike from different seeds and data ([`DigitClassifier`]).
//!
//! The forward pass is written out here (no ML dependency): conv 5x5 -> ReLU -> max-pool 2 ->
//! conv 5x5 -> ReLU -> max-pool 2 -> dense -> ReLU -> dense 10 -> softmax. The weights are
//! embedded from `models/digits.bin` and `models/digits-2.bin` (format in
//! [`DigitNetwork::from_bytes`] and `models/README.md`); `train` fits one network. It does not
//! find glyphs in a cell (`glyphs` does) nor know letters or symbols: anything fed in comes out
//! as some digit, with a confidence.
//!
//! Readings are remembered per thread, keyed by the classifier and the glyph's exact pixels,
//! and forgotten when the pipeline starts on a photo ([`forget_readings`]): a photo that does
//! not read at first is read again on lattices near the one found, and most of its glyphs come
//! out of the same pixels each time (a hard 29x22 nonogram photo asked 85,000 readings of
//! 33,500 glyphs).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::glyphs::{NormalisedGlyph, SIDE};

/// The magic bytes that open a weights file (format version 1).
pub const MAGIC: &[u8; 8] = b"GSDIGIT1";
/// Side of the square convolution kernels.
pub const KERNEL: usize = 5;
/// Number of classes: the digits 0-9.
pub const CLASSES: usize = 10;
/// Side of the first convolution's output (valid padding).
const CONV1_SIDE: usize = SIDE - KERNEL + 1;
const POOL1_SIDE: usize = CONV1_SIDE / 2;
const CONV2_SIDE: usize = POOL1_SIDE - KERNEL + 1;
const POOL2_SIDE: usize = CONV2_SIDE / 2;
/// Largest channel or hidden count a file may declare; keeps a corrupt header from asking for
/// gigabytes.
const MAX_WIDTH: u32 = 256;

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    #[error("not a gridsight digit model (bad magic bytes)")]
    BadMagic,
    #[error("layer sizes {0:?} out of range (each 1..={MAX_WIDTH})")]
    BadShape([u32; 3]),
    #[error("weights file is {found} bytes, its header needs {expected}")]
    WrongLength { expected: usize, found: usize },
    #[error("weights file holds a value that is not a finite number")]
    NotFinite,
}

/// The network's sizes: channels of the two convolutions and width of the hidden layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    pub conv1: usize,
    pub conv2: usize,
    pub hidden: usize,
}

/// Where each tensor lives in the flat parameter vector, in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Offsets {
    pub conv1_w: usize,
    pub conv1_b: usize,
    pub conv2_w: usize,
    pub conv2_b: usize,
    pub fc1_w: usize,
    pub fc1_b: usize,
    pub fc2_w: usize,
    pub fc2_b: usize,
    pub total: usize,
}

impl Shape {
    /// Inputs to the first dense layer: the second pooling's output, flattened.
    pub fn flat(&self) -> usize {
        self.conv2 * POOL2_SIDE * POOL2_SIDE
    }

    pub(crate) fn offsets(&self) -> Offsets {
        let k = KERNEL * KERNEL;
        let conv1_w = 0;
        let conv1_b = conv1_w + self.conv1 * k;
        let conv2_w = conv1_b + self.conv1;
        let conv2_b = conv2_w + self.conv2 * self.conv1 * k;
        let fc1_w = conv2_b + self.conv2;
        let fc1_b = fc1_w + self.hidden * self.flat();
        let fc2_w = fc1_b + self.hidden;
        let fc2_b = fc2_w + CLASSES * self.hidden;
        Offsets {
            conv1_w,
            conv1_b,
            conv2_w,
            conv2_b,
            fc1_w,
            fc1_b,
            fc2_w,
            fc2_b,
            total: fc2_b + CLASSES,
        }
    }

    /// Number of parameters.
    pub fn parameters(&self) -> usize {
        self.offsets().total
    }
}

/// The reading of one glyph: a probability for each digit (they sum to 1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reading {
    pub probabilities: [f32; CLASSES],
}

impl Reading {
    /// Digits from most to least likely, with their probabilities.
    pub fn ranked(&self) -> [(u8, f32); CLASSES] {
        let mut ranked: [(u8, f32); CLASSES] =
            std::array::from_fn(|d| (d as u8, self.probabilities[d]));
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }

    /// The most likely digit and its probability.
    pub fn best(&self) -> (u8, f32) {
        self.ranked()[0]
    }
}

/// A glyph the first network reads at least this surely is not read by the others: most
/// glyphs of a clean photo are, and reading every glyph twice took reading a 12-megapixel
/// Sudoku photo from 0.78x to 0.97-1.10x the time of decoding it. The misreads the second
/// network is for are surer than one network should be, but not this sure (a blurred 3 read
/// as a 1 at 0.95-0.99).
const SURE_ALONE: f32 = 0.999;

/// One trained network.
#[derive(Debug, Clone, PartialEq)]
pub struct DigitNetwork {
    pub(crate) shape: Shape,
    pub(crate) params: Vec<f32>,
}

/// The digit reader: its networks' probabilities combined as a product (each digit's geometric
/// mean over the networks, scaled to sum to 1). Two networks trained alike misread different
/// glyphs; where one is surely wrong (a blurred 3 read as a 1 at 0.99) and the other not, the
/// product is less sure, which the solver in the loop can weigh. The product rather than the
/// plain mean: a digit either network all but rules out stays unlikely, so the correctors,
/// which price a change by how unlikely it is, are not handed cheap changes that balance a
/// misread into another puzzle (see `models/README.md`).
#[derive(Debug, Clone, PartialEq)]
pub struct DigitClassifier {
    members: Vec<DigitNetwork>,
    /// A hash of the members' weights, telling one classifier's remembered readings from
    /// another's.
    fingerprint: u64,
}

/// How many readings a thread remembers before it forgets them all: each is a few dozen
/// bytes, and one photo's retries ask for tens of thousands of glyphs (a reader that never
/// starts a photo, such as a test's, stays bounded too).
const REMEMBERED: usize = 1 << 16;

thread_local! {
    static REMEMBERED_READINGS: RefCell<HashMap<(u64, u128), Reading>> =
        RefCell::new(HashMap::new());
}

/// Forgets this thread's remembered readings. Each photo's reading starts so, so its time and
/// memory do not hang on what the thread read before (and a benchmark that reads one photo
/// over and over times reading it, not remembering it).
pub fn forget_readings() {
    REMEMBERED_READINGS.with(|seen| seen.borrow_mut().clear());
}

/// A 128-bit hash of `values`' exact bits (two 64-bit hashes of it, told apart by a prefix).
/// Two glyphs of the same key are taken for the same glyph: with at most [`REMEMBERED`] keys
/// held, a new glyph meets another's key by chance once in 2^112 lookups.
fn exact_key(values: &[f32]) -> u128 {
    let half = |prefix: u8| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        prefix.hash(&mut hasher);
        for value in values {
            value.to_bits().hash(&mut hasher);
        }
        hasher.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

impl DigitClassifier {
    /// The networks shipped in the binary (`models/digits.bin` and `models/digits-2.bin`). A
    /// test loads them, so a failure here is a broken build, not bad input.
    pub fn bundled() -> DigitClassifier {
        let members = [
            include_bytes!("../../models/digits.bin").as_slice(),
            include_bytes!("../../models/digits-2.bin").as_slice(),
        ]
        .map(|bytes| {
            DigitNetwork::from_bytes(bytes).expect("the bundled digit models are valid (tested)")
        });
        DigitClassifier::new(members.to_vec())
    }

    /// A reader combining `members`; `None` when there are none.
    pub fn of(members: Vec<DigitNetwork>) -> Option<DigitClassifier> {
        (!members.is_empty()).then(|| DigitClassifier::new(members))
    }

    fn new(members: Vec<DigitNetwork>) -> DigitClassifier {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        for member in &members {
            member.shape.hash(&mut hasher);
            for value in &member.params {
                value.to_bits().hash(&mut hasher);
            }
        }
        DigitClassifier {
            members,
            fingerprint: hasher.finish(),
        }
    }

    pub fn members(&self) -> &[DigitNetwork] {
        &self.members
    }

    /// Reads one glyph: each digit's geometric mean probability over the networks, scaled so
    /// the digits' probabilities sum to 1, unless the first network reads it at least
    /// [`SURE_ALONE`]. Worked in logarithms, each probability floored at the least positive
    /// number so that a network's zero cannot make a logarithm infinite. A glyph this thread
    /// read before with the same classifier is not read again (see the module's doc).
    pub fn classify(&self, glyph: &NormalisedGlyph) -> Reading {
        let key = (self.fingerprint, exact_key(&glyph.pixels));
        if let Some(reading) = REMEMBERED_READINGS.with(|seen| seen.borrow().get(&key).copied()) {
            return reading;
        }
        let reading = self.combined(glyph);
        REMEMBERED_READINGS.with(|seen| {
            let mut seen = seen.borrow_mut();
            if seen.len() >= REMEMBERED {
                seen.clear();
            }
            seen.insert(key, reading);
        });
        reading
    }

    /// [`DigitClassifier::classify`] without remembering.
    fn combined(&self, glyph: &NormalisedGlyph) -> Reading {
        let first = self.members[0].classify(glyph);
        if first.best().1 >= SURE_ALONE {
            return first;
        }
        let mut logs = [0f32; CLASSES];
        let others = self.members[1..]
            .iter()
            .map(|member| member.classify(glyph));
        for reading in std::iter::once(first).chain(others) {
            for (sum, p) in logs.iter_mut().zip(reading.probabilities) {
                *sum += p.max(f32::MIN_POSITIVE).ln();
            }
        }
        let count = self.members.len() as f32;
        let top = logs.iter().copied().fold(f32::MIN, f32::max);
        let scaled = logs.map(|l| ((l - top) / count).exp());
        let total: f32 = scaled.iter().sum();
        Reading {
            probabilities: scaled.map(|p| p / total),
        }
    }
}

impl From<DigitNetwork> for DigitClassifier {
    fn from(network: DigitNetwork) -> DigitClassifier {
        DigitClassifier::new(vec![network])
    }
}

/// Activations of one forward pass, kept for backpropagation.
#[derive(Debug, Clone, Default)]
pub(crate) struct Activations {
    pub conv1: Vec<f32>,
    pub pool1: Vec<f32>,
    pub pool1_from: Vec<usize>,
    pub conv2: Vec<f32>,
    pub pool2: Vec<f32>,
    pub pool2_from: Vec<usize>,
    pub hidden: Vec<f32>,
    pub probabilities: [f32; CLASSES],
}

impl DigitNetwork {
    pub(crate) fn from_parts(shape: Shape, params: Vec<f32>) -> DigitNetwork {
        DigitNetwork { shape, params }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Parses a weights file: the 8 magic bytes `GSDIGIT1`; three little-endian u32, the
    /// channels of conv 1 and conv 2 and the hidden width; then every parameter as a
    /// little-endian f32, tensor after tensor: conv 1 weights `[out][5][5]`, conv 1 biases,
    /// conv 2 weights `[out][in][5][5]`, conv 2 biases, dense 1 weights `[hidden][flat]` (flat
    /// is channel-major over the 4x4 pooled maps), dense 1 biases, dense 2 weights
    /// `[10][hidden]`, dense 2 biases. Nothing may follow.
    pub fn from_bytes(bytes: &[u8]) -> Result<DigitNetwork, ModelError> {
        if bytes.len() < 20 || &bytes[..8] != MAGIC {
            return Err(ModelError::BadMagic);
        }
        let dims: [u32; 3] = std::array::from_fn(|i| {
            let at = 8 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        });
        if dims.iter().any(|&d| d == 0 || d > MAX_WIDTH) {
            return Err(ModelError::BadShape(dims));
        }
        let shape = Shape {
            conv1: dims[0] as usize,
            conv2: dims[1] as usize,
            hidden: dims[2] as usize,
        };
        let expected = 20 + 4 * shape.parameters();
        if bytes.len() != expected {
            return Err(ModelError::WrongLength {
                expected,
                found: bytes.len(),
            });
        }
        let params: Vec<f32> = bytes[20..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if params.iter().any(|p| !p.is_finite()) {
            return Err(ModelError::NotFinite);
        }
        Ok(DigitNetwork { shape, params })
    }

    /// The weights file for this network (see [`DigitNetwork::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        for dim in [self.shape.conv1, self.shape.conv2, self.shape.hidden] {
            bytes.extend((dim as u32).to_le_bytes());
        }
        for p in &self.params {
            bytes.extend(p.to_le_bytes());
        }
        bytes
    }

    /// Reads one glyph with this network alone.
    pub fn classify(&self, glyph: &NormalisedGlyph) -> Reading {
        Reading {
            probabilities: self.forward(&glyph.pixels).probabilities,
        }
    }

    /// The forward pass over a [`SIDE`]x[`SIDE`] input; an input of another length reads as
    /// blank paper (zeros) where it falls short, so a malformed glyph cannot panic.
    pub(crate) fn forward(&self, input: &[f32]) -> Activations {
        let mut image = [0f32; SIDE * SIDE];
        for (slot, value) in image.iter_mut().zip(input) {
            *slot = *value;
        }
        let (s, o, p) = (self.shape, self.shape.offsets(), &self.params);
        let mut conv1 = convolve::<CONV1_SIDE>(
            &image,
            1,
            &p[o.conv1_w..o.conv1_b],
            &p[o.conv1_b..o.conv2_w],
        );
        relu(&mut conv1);
        let (pool1, pool1_from) = max_pool(&conv1, s.conv1, CONV1_SIDE);
        let mut conv2 = convolve::<CONV2_SIDE>(
            &pool1,
            s.conv1,
            &p[o.conv2_w..o.conv2_b],
            &p[o.conv2_b..o.fc1_w],
        );
        relu(&mut conv2);
        let (pool2, pool2_from) = max_pool(&conv2, s.conv2, CONV2_SIDE);
        let mut hidden = dense(&pool2, &p[o.fc1_w..o.fc1_b], &p[o.fc1_b..o.fc2_w]);
        relu(&mut hidden);
        let logits = dense(&hidden, &p[o.fc2_w..o.fc2_b], &p[o.fc2_b..o.total]);
        Activations {
            conv1,
            pool1,
            pool1_from,
            conv2,
            pool2,
            pool2_from,
            hidden,
            probabilities: softmax(&logits),
        }
    }
}

/// Valid 5x5 convolution of `channels` square maps of side `OUT + 4` into maps of side `OUT`;
/// weights `[out][in][5][5]`.
pub(crate) fn convolve<const OUT: usize>(
    input: &[f32],
    channels: usize,
    weights: &[f32],
    bias: &[f32],
) -> Vec<f32> {
    let side = OUT + KERNEL - 1;
    let mut out = vec![0f32; bias.len() * OUT * OUT];
    // One output row at a time, kept in `row` while every input channel and kernel tap is
    // added to it: each output value still sums its terms in the order channel, kernel row,
    // kernel column, so the result is the same to the bit as summing value by value. The row's
    // length is known when compiling, so it stays in registers: a glyph read twice as fast.
    for (oc, (map, b)) in out.chunks_exact_mut(OUT * OUT).zip(bias).enumerate() {
        let kernels = &weights[oc * channels * KERNEL * KERNEL..][..channels * KERNEL * KERNEL];
        for (oy, target) in map.chunks_exact_mut(OUT).enumerate() {
            let mut row = [*b; OUT];
            for (plane, kernel) in input
                .chunks_exact(side * side)
                .zip(kernels.chunks_exact(KERNEL * KERNEL))
            {
                for (ky, taps) in kernel.chunks_exact(KERNEL).enumerate() {
                    let line = &plane[(oy + ky) * side..][..side];
                    for (kx, &w) in taps.iter().enumerate() {
                        let span: &[f32; OUT] = line[kx..kx + OUT]
                            .try_into()
                            .expect("a span of the row's length");
                        for (d, s) in row.iter_mut().zip(span) {
                            *d += w * s;
                        }
                    }
                }
            }
            target.copy_from_slice(&row);
        }
    }
    out
}

pub(crate) fn relu(values: &mut [f32]) {
    for v in values {
        *v = v.max(0.0);
    }
}

/// 2x2 max pooling of `channels` maps of side `side`; also where each maximum came from.
pub(crate) fn max_pool(input: &[f32], channels: usize, side: usize) -> (Vec<f32>, Vec<usize>) {
    let half = side / 2;
    let mut out = Vec::with_capacity(channels * half * half);
    let mut from = Vec::with_capacity(channels * half * half);
    for c in 0..channels {
        for y in 0..half {
            for x in 0..half {
                let base = c * side * side + 2 * y * side + 2 * x;
                let best = [base, base + 1, base + side, base + side + 1]
                    .into_iter()
                    .fold(base, |b, i| if input[i] > input[b] { i } else { b });
                out.push(input[best]);
                from.push(best);
            }
        }
    }
    (out, from)
}

/// Outputs of a dense layer summed side by side (see [`dense`]).
const DENSE_LANES: usize = 8;

/// A dense layer: weights `[out][in]`. Each output is its bias plus the products summed in
/// input order from -0.0, as `Iterator::sum` does; eight outputs are summed side by side, so
/// that each addition need not wait for the one before it to finish.
pub(crate) fn dense(input: &[f32], weights: &[f32], bias: &[f32]) -> Vec<f32> {
    let n = input.len();
    let mut out = Vec::with_capacity(bias.len());
    for (biases, rows) in bias
        .chunks(DENSE_LANES)
        .zip(weights.chunks(DENSE_LANES * n))
    {
        let mut sums = [-0.0f32; DENSE_LANES];
        for (i, &x) in input.iter().enumerate() {
            for (sum, row) in sums.iter_mut().zip(rows.chunks_exact(n)) {
                *sum += row[i] * x;
            }
        }
        out.extend(biases.iter().zip(sums).map(|(b, sum)| b + sum));
    }
    out
}

fn softmax(logits: &[f32]) -> [f32; CLASSES] {
    let top = logits.iter().copied().fold(f32::MIN, f32::max);
    let mut out = [0f32; CLASSES];
    for (o, l) in out.iter_mut().zip(logits) {
        *o = (l - top).exp();
    }
    let total: f32 = out.iter().sum();
    out.map(|v| v / total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::synth::glyph_set;
    use crate::read::typefaces::{self, Typeface};

    /// Held-out-font accuracy on this test's set stated in `models/README.md`, less a margin
    /// for floating-point differences between machines.
    const STATED_HELD_OUT: f32 = 0.9618;
    const MARGIN: f32 = 0.002;

    fn accuracy_on(fonts: &[Typeface], seed: u64) -> f32 {
        let model = DigitClassifier::bundled();
        let (glyphs, missed) = glyph_set(seed, 2500, fonts);
        // About 17% of the rendered cells are cut wrongly: heavily defocused, thickened or
        // condensed bold digits that run together, thinned ones that break apart.
        assert!(
            missed < 500,
            "{missed} of 2500 cells cut into the wrong number of glyphs"
        );
        let right = glyphs
            .iter()
            .filter(|s| model.classify(&s.glyph).best().0 == s.digit)
            .count();
        right as f32 / glyphs.len() as f32
    }

    #[test]
    fn bundled_model_reads_held_out_fonts_as_stated() {
        let accuracy = accuracy_on(&typefaces::HELD_OUT, 31_337);
        assert!(
            accuracy >= STATED_HELD_OUT - MARGIN,
            "held-out accuracy {accuracy}"
        );
    }

    #[test]
    fn readings_are_ranked_probabilities() {
        let model = DigitClassifier::bundled();
        let (glyphs, _) = glyph_set(5, 20, &typefaces::every());
        for sample in &glyphs {
            let reading = model.classify(&sample.glyph);
            let total: f32 = reading.probabilities.iter().sum();
            assert!((total - 1.0).abs() < 1e-4);
            let ranked = reading.ranked();
            assert!(ranked.windows(2).all(|p| p[0].1 >= p[1].1));
            let mut digits: Vec<u8> = ranked.iter().map(|r| r.0).collect();
            digits.sort_unstable();
            assert_eq!(digits, (0..10).collect::<Vec<u8>>());
            assert_eq!(reading.best(), ranked[0]);
        }
    }

    #[test]
    fn weights_round_trip_and_corrupt_files_are_errors() {
        let reader = DigitClassifier::bundled();
        assert_eq!(reader.members().len(), 2);
        for member in reader.members() {
            let bytes = member.to_bytes();
            assert_eq!(DigitNetwork::from_bytes(&bytes).as_ref(), Ok(member));
        }
        let bytes = reader.members()[0].to_bytes();
        assert_eq!(DigitNetwork::from_bytes(&[]), Err(ModelError::BadMagic));
        assert_eq!(
            DigitNetwork::from_bytes(b"GSDIGIT2 and more bytes"),
            Err(ModelError::BadMagic)
        );
        assert!(matches!(
            DigitNetwork::from_bytes(&bytes[..bytes.len() - 3]),
            Err(ModelError::WrongLength { .. })
        ));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(
            DigitNetwork::from_bytes(&longer),
            Err(ModelError::WrongLength { .. })
        ));
        let mut huge = bytes.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            DigitNetwork::from_bytes(&huge),
            Err(ModelError::BadShape(_))
        ));
        let mut not_finite = bytes.clone();
        let at = not_finite.len() - 4;
        not_finite[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert_eq!(
            DigitNetwork::from_bytes(&not_finite),
            Err(ModelError::NotFinite)
        );
    }

    #[test]
    fn the_reader_multiplies_its_networks_unless_the_first_is_sure() {
        let reader = DigitClassifier::bundled();
        let (glyphs, _) = glyph_set(8, 300, &typefaces::every());
        let (mut multiplied, mut disagreeing) = (0, 0);
        for sample in &glyphs {
            let [first, second] = [0, 1].map(|i| reader.members()[i].classify(&sample.glyph));
            let combined = reader.classify(&sample.glyph);
            if first.best().1 >= SURE_ALONE {
                assert_eq!(combined, first);
                continue;
            }
            let geometric: Vec<f32> = (0..CLASSES)
                .map(|d| (first.probabilities[d] * second.probabilities[d]).sqrt())
                .collect();
            let total: f32 = geometric.iter().sum();
            for (d, (&found, unscaled)) in combined.probabilities.iter().zip(&geometric).enumerate()
            {
                let expected = unscaled / total;
                assert!(
                    (found - expected).abs() < 1e-4,
                    "digit {d}: {found} against {expected}"
                );
            }
            multiplied += 1;
            disagreeing += usize::from(first.probabilities != second.probabilities);
        }
        assert!(
            multiplied > 0 && multiplied < glyphs.len(),
            "{multiplied} multiplied"
        );
        assert_eq!(disagreeing, multiplied, "two networks, not one twice");
        assert!(DigitClassifier::of(Vec::new()).is_none());
    }

    #[test]
    fn a_glyph_read_again_reads_the_same_and_each_classifier_remembers_its_own() {
        let pair = DigitClassifier::bundled();
        let second = DigitClassifier::from(pair.members()[1].clone());
        let (glyphs, _) = glyph_set(9, 200, &typefaces::every());
        let mut told_apart = 0;
        for sample in &glyphs {
            let [first_time, again] = [0, 1].map(|_| pair.classify(&sample.glyph));
            assert_eq!(first_time, again);
            assert_eq!(first_time, pair.combined(&sample.glyph));
            // Read after the pair, the second network alone gives its own reading, not the
            // pair's remembered one.
            let alone = second.classify(&sample.glyph);
            assert_eq!(alone, second.combined(&sample.glyph));
            told_apart += usize::from(alone != first_time);
        }
        assert!(told_apart > 0, "the pair and its second network read alike");
        // The same pixels in another glyph (bounds are not read) are the same glyph.
        let mut moved = glyphs[0].glyph.clone();
        moved.bounds.x0 += 3;
        assert_eq!(pair.classify(&moved), pair.classify(&glyphs[0].glyph));
        let mut changed = glyphs[0].glyph.clone();
        changed.pixels[SIDE * SIDE / 2] += 0.25;
        assert_eq!(pair.classify(&changed), pair.combined(&changed));
        let remembered = || REMEMBERED_READINGS.with(|seen| seen.borrow().len());
        assert!(remembered() > glyphs.len());
        forget_readings();
        assert_eq!(remembered(), 0);
    }

    #[test]
    fn convolution_sums_each_value_in_channel_row_column_order() {
        let mut rng = crate::photo::rng::Rng::new(6);
        const OUT: usize = 5;
        let (channels, side, outs, out_side) = (3, OUT + KERNEL - 1, 2, OUT);
        let mut values = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.normal()).collect() };
        let input = values(channels * side * side);
        let weights = values(outs * channels * KERNEL * KERNEL);
        let bias = values(outs);
        let found = convolve::<OUT>(&input, channels, &weights, &bias);
        for oc in 0..outs {
            for oy in 0..out_side {
                for ox in 0..out_side {
                    let mut sum = bias[oc];
                    for ic in 0..channels {
                        for ky in 0..KERNEL {
                            for kx in 0..KERNEL {
                                let w = weights[((oc * channels + ic) * KERNEL + ky) * KERNEL + kx];
                                sum += w * input[(ic * side + oy + ky) * side + ox + kx];
                            }
                        }
                    }
                    assert_eq!(found[(oc * out_side + oy) * out_side + ox], sum);
                }
            }
        }
    }

    #[test]
    fn a_dense_layer_sums_each_output_in_input_order() {
        let mut rng = crate::photo::rng::Rng::new(7);
        let (inputs, outputs) = (13, 11);
        let mut values = |n: usize| -> Vec<f32> { (0..n).map(|_| rng.normal()).collect() };
        let input = values(inputs);
        let weights = values(inputs * outputs);
        let bias = values(outputs);
        let found = dense(&input, &weights, &bias);
        assert_eq!(found.len(), outputs);
        for (o, &value) in found.iter().enumerate() {
            let row = &weights[o * inputs..][..inputs];
            let sum: f32 = row.iter().zip(&input).map(|(w, x)| w * x).sum();
            assert_eq!(value.to_bits(), (bias[o] + sum).to_bits(), "output {o}");
        }
    }

    #[test]
    fn a_short_glyph_reads_without_panicking() {
        let model = DigitClassifier::bundled();
        let glyph = NormalisedGlyph {
            pixels: vec![1.0; 5],
            bounds: crate::read::glyphs::Bounds {
                x0: 0,
                y0: 0,
                x1: 1,
                y1: 1,
            },
        };
        let total: f32 = model.classify(&glyph).probabilities.iter().sum();
        assert!((total - 1.0).abs() < 1e-4);
    }
}
