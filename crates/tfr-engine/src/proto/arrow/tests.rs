//! The layout and the rows of a message.
