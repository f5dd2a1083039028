//! A template in the formats of the tools teams already use (spec 11), as JSON values the caller
//! writes: pure transformations of a template, no I/O. Each format is a module of its own.

pub mod langfuse;
