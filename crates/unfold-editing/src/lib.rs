//! Unfold's editing: what the desktop editor does to an open template or scenario. Typed template
//! edits that answer with their exact inverse, undo and redo, the open documents with their dirty
//! state, checked saves and crash recovery, the views and previews the UI reads, the tool editor's
//! checks and the import of tools from other APIs' formats. Every call is one a test makes without
//! a window.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod economics;
pub mod editor_document;
pub mod open_documents;
pub mod prompt_parts;
pub mod scenario_edit;
pub mod template_edit;
pub mod tool_check;
pub mod tool_import;
pub mod undo;
pub mod views;
