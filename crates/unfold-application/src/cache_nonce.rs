//! A study's fair cache (spec 14): a live conversation's prompts start with a nonce of its own, so
//! no lane is served from a prompt cache another lane, or another repetition, warmed.

use unfold_documents::Result;
use unfold_engine::provider::{HiddenTools, ModelRequest, ModelResponse, Provider};

/// The nonce of the conversation of `lane` in `repetition` (a study's and its repetition's name):
/// twelve digits, which every tokenizer splits alike, so that no conversation's prompt is longer
/// than another's for its nonce (an A/A control would otherwise differ from its lane).
pub fn conversation_nonce(repetition: &str, lane: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (repetition, lane).hash(&mut hasher);
    format!("study nonce {:012}", hasher.finish() % 1_000_000_000_000)
}

/// A provider whose every request's system prompt starts with `nonce`, the rest as it was.
pub struct Nonced {
    inner: Box<dyn Provider + Send>,
    nonce: String,
}

impl Nonced {
    /// `inner`, each request's system prompt after the line `[NONCE]`.
    pub fn new(inner: Box<dyn Provider + Send>, nonce: String) -> Nonced {
        Nonced { inner, nonce }
    }
}

#[async_trait::async_trait]
impl Provider for Nonced {
    async fn complete(&mut self, request: &ModelRequest<'_>) -> Result<ModelResponse> {
        let system = format!("[{}]\n\n{}", self.nonce, request.system);
        self.inner.complete(&ModelRequest { system: &system, ..*request }).await
    }

    fn fixed_tools(&self) -> Option<String> {
        self.inner.fixed_tools()
    }

    fn refuses(&self, hidden: HiddenTools) -> Option<String> {
        self.inner.refuses(hidden)
    }
}
