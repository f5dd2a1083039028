//! A template in the formats of the tools teams already use (spec 11), as JSON values the caller
//! writes: pure transformations of a template, no I/O. Each format is a module of its own, over
//! the first prompt they share.

pub mod first_prompt;
pub mod langfuse;
pub mod promptfoo;
