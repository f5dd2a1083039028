//! Agent Skills (spec 16) as templates: a folder of skills read into a template whose sections
//! disclose them as a skills host does (names and descriptions first, a skill's body on read, a
//! file it names on read), and a template written back as such a folder, byte for byte when
//! nothing was changed. Reading and writing the folders is here (layer 2); the conversion itself
//! touches no file.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod conversion;
pub mod folder;
pub mod front_matter;
