//! The prompt a model is first shown (spec 2: summarized sections with their `read_section`
//! lines, and the tools offered), with the template's parameters left as named holes, so each
//! format writes them in its own variable syntax and its own escaping of the text around them.

use serde_json::Value;
use unfold_documents::{Result, Template};
use unfold_engine::Session;

/// A piece of the system prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptPiece {
    /// Text the model sees as it is.
    Text(String),
    /// Where a parameter's value goes.
    Parameter(String),
}

/// The first system prompt of a template, and the tools offered with it.
#[derive(Debug, Clone)]
pub struct FirstPrompt {
    /// The system prompt, text and parameters in order.
    pub pieces: Vec<PromptPiece>,
    /// The tools offered, in OpenAI's shape.
    pub tools: Vec<Value>,
    /// Every parameter the template declares or uses, declared ones first.
    pub parameters: Vec<String>,
}

// Private-use characters a template's text has no reason to hold: each parameter renders as
// OPEN index CLOSE, so the prompt can be cut back into text and parameters.
const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

impl FirstPrompt {
    /// The first prompt of `template`.
    pub fn of(template: &Template) -> Result<FirstPrompt> {
        let mut parameters: Vec<String> = template.params.keys().cloned().collect();
        for used in template.used_params() {
            if !parameters.contains(&used) {
                parameters.push(used);
            }
        }
        let holes = parameters.iter().enumerate().map(|(index, name)| (name.clone(), format!("{OPEN}{index}{CLOSE}")));
        let prompt = Session::new(template, holes.collect())?.render()?;
        let tools = prompt.tools.iter().map(|tool| tool.to_openai()).collect();
        let pieces = cut(&prompt.markdown, &parameters);
        Ok(FirstPrompt { pieces, tools, parameters })
    }

    /// The system prompt with each text piece passed through `text` and each parameter through
    /// `parameter`.
    pub fn write(&self, text: impl Fn(&str) -> String, parameter: impl Fn(&str) -> String) -> String {
        self.pieces
            .iter()
            .map(|piece| match piece {
                PromptPiece::Text(t) => text(t),
                PromptPiece::Parameter(name) => parameter(name),
            })
            .collect()
    }
}

/// `ns/key`, or the key of a template without a namespace: how other tools name the prompt.
pub fn qualified_name(template: &Template) -> String {
    if template.ns.is_empty() {
        template.key.clone()
    } else {
        format!("{}/{}", template.ns, template.key)
    }
}

/// Cuts the rendered `markdown` at its holes.
fn cut(markdown: &str, parameters: &[String]) -> Vec<PromptPiece> {
    let mut pieces = Vec::new();
    let mut rest = markdown;
    while let Some(start) = rest.find(OPEN) {
        let after = &rest[start + OPEN.len_utf8()..];
        let hole = after.find(CLOSE).and_then(|end| Some((end, parameters.get(after[..end].parse::<usize>().ok()?)?)));
        let Some((end, name)) = hole else {
            // Not one of ours: the character stays text.
            push_text(&mut pieces, &rest[..start + OPEN.len_utf8()]);
            rest = after;
            continue;
        };
        push_text(&mut pieces, &rest[..start]);
        pieces.push(PromptPiece::Parameter(name.clone()));
        rest = &after[end + CLOSE.len_utf8()..];
    }
    push_text(&mut pieces, rest);
    pieces
}

fn push_text(pieces: &mut Vec<PromptPiece>, text: &str) {
    if text.is_empty() {
        return;
    }
    match pieces.last_mut() {
        Some(PromptPiece::Text(last)) => last.push_str(text),
        _ => pieces.push(PromptPiece::Text(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn holes_become_parameters_and_stray_markers_stay_text() {
        let markdown = format!("Do {OPEN}0{CLOSE} for {OPEN}1{CLOSE}.{OPEN}9{CLOSE}{OPEN}");
        let pieces = cut(&markdown, &names(&["objective", "project"]));
        assert_eq!(
            pieces,
            [
                PromptPiece::Text("Do ".into()),
                PromptPiece::Parameter("objective".into()),
                PromptPiece::Text(" for ".into()),
                PromptPiece::Parameter("project".into()),
                PromptPiece::Text(format!(".{OPEN}9{CLOSE}{OPEN}")),
            ]
        );
    }
}
