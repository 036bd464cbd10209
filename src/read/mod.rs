//! Reading printed cells: `glyphs` finds and normalises the glyphs in a cell crop,
//! `classifier` reads each as a digit, `synth` renders labelled cells, `train` fits the model.
//! (Placeholder glue; the owner writes the real module.)

pub mod classifier;
pub mod glyphs;
pub mod synth;
pub mod train;
