//! `unfold model serve` run as a test's model: the scripted endpoint as its own process on a free
//! port, found where it says it listens, and killed when the test is done with it (or fails).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The endpoint's process, killed when dropped: a test that fails leaves nothing running.
pub struct ServedModel {
    /// The process.
    pub child: Child,
    /// Where it listens: `127.0.0.1:PORT`.
    pub address: String,
}

impl ServedModel {
    /// Stops the endpoint as Ctrl+C does, and waits for it to end: every request it answered is
    /// in its log then.
    pub fn stop(mut self) {
        let pid = self.child.id().to_string();
        let interrupted = Command::new("kill").args(["-INT", &pid]).status().is_ok_and(|status| status.success());
        assert!(interrupted, "kill -INT {pid}");
        let _ = self.child.wait();
    }
}

impl Drop for ServedModel {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `unfold model serve SCENARIO --port 0 --log LOG` with the `unfold` program at `unfold`, from
/// `folder` (where a relative scenario is found).
pub fn serve_model(unfold: &str, folder: &Path, scenario: &str, log: &Path) -> ServedModel {
    let mut child = Command::new(unfold)
        .current_dir(folder)
        .args(["model", "serve", scenario, "--port", "0", "--log"])
        .arg(log)
        .stdout(Stdio::piped())
        .spawn()
        .expect("unfold model serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("its stdout")).read_line(&mut line).expect("it says where it listens");
    let address = line
        .trim()
        .strip_prefix("model endpoint listening on http://")
        .and_then(|rest| rest.strip_suffix("/v1 (Ctrl+C stops it)"))
        .map(str::to_owned);
    match address {
        Some(address) => ServedModel { child, address },
        None => {
            let _ = child.kill();
            panic!("unfold model serve said: {line}")
        }
    }
}
