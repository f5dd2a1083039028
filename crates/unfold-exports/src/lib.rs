//! Templates, runs and comparisons in the formats of the tools teams already use (spec 11), as
//! JSON or Markdown the caller writes: pure transformations, no I/O. Each format is a module of
//! its own; the template formats share the first prompt.

pub mod comparison_markdown;
pub mod first_prompt;
pub mod langfuse;
pub mod otlp;
pub mod promptfoo;
pub mod promptfoo_runs;
