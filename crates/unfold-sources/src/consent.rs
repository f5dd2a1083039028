//! What the user allowed (spec 8's trust rule): a template may come from anyone's repository, so no
//! source starts without consent, and a source's URL may only reach this machine (a loopback
//! address) unless the user allowed that source by name.

use std::collections::BTreeSet;
use std::net::IpAddr;

use unfold_documents::source::ToolSource;

/// The user's consent for one template's sources.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Consent {
    /// The sources may be started (`--allow-sources`, or the app's question answered yes).
    pub start: bool,
    /// Only these may start, by name (the app asks source by source); `None`: every source.
    pub only: Option<BTreeSet<String>>,
    /// The sources whose URL may reach another machine, by name.
    pub remote: BTreeSet<String>,
}

impl Consent {
    /// Consent to start every source, none of them remote.
    pub fn start_local() -> Consent {
        Consent::every_source(true, [])
    }

    /// Consent for every source at once, as the command line gives it: started if `start`, and
    /// those named in `remote` may reach another machine.
    pub fn every_source(start: bool, remote: impl IntoIterator<Item = String>) -> Consent {
        Consent { start, only: None, remote: remote.into_iter().collect() }
    }

    /// Why `source` may not be started; `None` when it may.
    pub fn refusal(&self, source: &ToolSource) -> Option<String> {
        if !self.start {
            return Some("not allowed to start".to_owned());
        }
        if self.only.as_ref().is_some_and(|only| !only.contains(&source.name)) {
            return Some("not allowed to start: allow it in the Sources panel".to_owned());
        }
        let url = source.mcp.as_ref()?.url.as_ref()?;
        if is_loopback_url(url) || self.remote.contains(&source.name) {
            return None;
        }
        Some(format!("{url} is not on this machine: allow source '{}' by name to reach it", source.name))
    }
}

/// Whether `url` (`http://` or `https://`) names this machine: `localhost`, or a loopback address.
pub fn is_loopback_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://").or_else(|| url.strip_prefix("https://")) else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // A user part would let "127.0.0.1@elsewhere" pass for this machine: refused.
    if authority.contains('@') {
        return false;
    }
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => authority.rsplit_once(':').map_or(authority, |(host, _port)| host),
    };
    host.eq_ignore_ascii_case("localhost") || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::is_loopback_url;

    #[test]
    fn only_this_machine_is_loopback() {
        let loopback = [
            "http://127.0.0.1:8931/mcp",
            "http://localhost/mcp",
            "https://LOCALHOST:1/",
            "http://[::1]:80/x",
            "http://127.9.9.9",
        ];
        for url in loopback {
            assert!(is_loopback_url(url), "{url}");
        }
        let remote = [
            "https://example.com/mcp",
            "http://127.0.0.1.example.com/mcp",
            "http://localhost.example.com/",
            "http://127.0.0.1@example.com/",
            "http://[::2]/",
            "http://10.0.0.1:8080/",
            "ftp://127.0.0.1/",
        ];
        for url in remote {
            assert!(!is_loopback_url(url), "{url}");
        }
    }
}
