//! A comparison's chart saved as an image for a pull request or a doc: the SVG the app drew, or a
//! PNG rasterized from it. The front end draws the chart (its geometry is the UI's), so the bytes
//! come from a client: they are bounded, checked to be what they claim, and refused if the SVG
//! they were drawn from holds a live model's secrets, like every other export.

use std::path::Path;

use unfold_documents::document::write_bytes_atomically;
use unfold_documents::Error;
use unfold_live::Secrets;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::redaction;

/// The largest SVG accepted: a chart of every call of a long comparison is a few hundred KB.
pub const MAX_SVG_BYTES: usize = 4 << 20;
/// The largest PNG accepted: the chart at twice its size is well under a megabyte.
pub const MAX_PNG_BYTES: usize = 16 << 20;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// A chart image to save.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(tag = "format", rename_all = "snake_case")]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub enum ChartImage {
    /// The chart as a standalone SVG document.
    Svg {
        /// The document's text.
        svg: String,
    },
    /// The chart rasterized.
    Png {
        /// The SVG it was drawn from (checked for secrets: a PNG's pixels cannot be).
        svg: String,
        /// The PNG file's bytes.
        png: Vec<u8>,
    },
}

/// Writes `image` to `path`, atomically, once it is checked: within its bounds, an SVG document
/// (and a PNG file), holding none of `secrets`.
pub fn write_chart(path: &Path, image: &ChartImage, secrets: &Secrets) -> AppResult<()> {
    let (svg, bytes) = match image {
        ChartImage::Svg { svg } => (svg, svg.as_bytes()),
        ChartImage::Png { svg, png } => (svg, png.as_slice()),
    };
    let refuse = |pointer: &str, message: &str| {
        let error = Error::problem(pointer, message).in_file(path);
        Err(AppError::invalid_as(ErrorCode::InvalidRequest)(error))
    };
    if svg.len() > MAX_SVG_BYTES {
        return refuse("/svg", &format!("the chart's SVG is larger than {MAX_SVG_BYTES} bytes"));
    }
    if !is_svg_document(svg) {
        return refuse("/svg", "the chart is not an SVG document");
    }
    if let ChartImage::Png { png, .. } = image {
        if png.len() > MAX_PNG_BYTES {
            return refuse("/png", &format!("the chart's PNG is larger than {MAX_PNG_BYTES} bytes"));
        }
        if !png.starts_with(PNG_SIGNATURE) {
            return refuse("/png", "the chart's image is not a PNG file");
        }
    }
    redaction::check_file_text(path, svg, secrets)?;
    Ok(write_bytes_atomically(path, bytes)?)
}

/// Whether `text` is an SVG document: its root element `svg`, after an XML declaration if any.
fn is_svg_document(text: &str) -> bool {
    let text = text.trim_start();
    let text = match text.strip_prefix("<?xml") {
        Some(rest) => rest.split_once("?>").map_or("", |(_, after)| after.trim_start()),
        None => text,
    };
    text.starts_with("<svg") && text.trim_end().ends_with("</svg>")
}
