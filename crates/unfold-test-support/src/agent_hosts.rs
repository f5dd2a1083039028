//! Where the real agent hosts and model SDKs the host lab's tests run are: installed by
//! `scripts/hosts.sh install` (which `scripts/test.sh` runs first) into `UNFOLD_CACHE` or
//! `~/.cache/unfold`.

use std::path::{Path, PathBuf};

use crate::cache;

/// The folder of the hosts' virtual environments, for `UNFOLD_HOSTS_DIR`.
pub fn hosts_dir() -> PathBuf {
    let dir = cache().join("hosts");
    let python = dir.join("openai-agents/bin/python");
    assert!(python.exists(), "{} is missing: run scripts/hosts.sh install first", python.display());
    dir
}

/// The Python that has the official `openai`, `anthropic` and `google-genai` SDKs.
pub fn model_sdks_python() -> PathBuf {
    let python = cache().join("model-sdks/bin/python");
    assert!(Path::new(&python).exists(), "{} is missing: run scripts/hosts.sh install first", python.display());
    python
}
