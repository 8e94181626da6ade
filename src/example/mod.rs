//! tf.train.Example / SequenceExample: decoding, text and JSON rendering.
//! (Placeholder module: being written.)
