//! Which requests reach a server at all. Every process on the machine can connect to it, web pages
//! too: a page can send a POST without a CORS preflight, and a page served from a name that its
//! owner points at 127.0.0.1 (DNS rebinding) reaches the server as if it were the same site. So a
//! request must name the server by a loopback name in its `Host`, and a request that carries an
//! `Origin` (only browsers send one) must come from an origin the user allowed (a server that
//! serves no page allows none); such an origin also gets the CORS answers a page needs to read the
//! server's replies.

use std::sync::Arc;

use axum::http::{header, HeaderMap, HeaderValue, Method};
use tower_http::cors::{AllowOrigin, CorsLayer};

/// Why a request is not admitted; each server answers it in its own words (and status 403).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Its `Host` is not a loopback name (shown cut short).
    #[error("Host '{0}' is not this machine: use 127.0.0.1 or localhost")]
    ForbiddenHost(String),
    /// Its `Origin` was not allowed (shown cut short).
    #[error("pages of origin '{0}' may not use this server")]
    ForbiddenOrigin(String),
}

/// The web origins the user allowed (`https://codap.concord.org`), as browsers send them.
#[derive(Debug, Clone, Default)]
pub struct AllowedOrigins(Arc<Vec<HeaderValue>>);

impl AllowedOrigins {
    /// The origins given, each as a browser writes it (scheme, host and port, no path); an origin
    /// that is not one is refused, naming it.
    pub fn new(origins: &[String]) -> Result<AllowedOrigins, String> {
        let parsed = origins
            .iter()
            .map(|origin| {
                let valid = url::Url::parse(origin)
                    .ok()
                    .filter(|url| url.origin().is_tuple() && url.origin().ascii_serialization() == *origin);
                valid
                    .and_then(|_| HeaderValue::from_str(origin).ok())
                    .ok_or_else(|| format!("'{origin}' is not a web origin (scheme://host[:port], no path)"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AllowedOrigins(Arc::new(parsed)))
    }

    /// The CORS answers for the allowed origins: preflights answered, replies readable.
    pub fn cors(&self) -> CorsLayer {
        CorsLayer::new()
            .allow_origin(AllowOrigin::list(self.0.iter().cloned()))
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE])
            .allow_private_network(true)
    }
}

/// Why a request with `headers` is refused: a `Host` that is not a loopback name, or an `Origin`
/// that was not allowed; `None` admits it.
pub fn check(headers: &HeaderMap, origins: &AllowedOrigins) -> Result<(), Refusal> {
    let host = headers.get(header::HOST).map(|value| value.to_str().unwrap_or("?"));
    match host {
        Some(host) if is_loopback_name(host) => {}
        other => return Err(Refusal::ForbiddenHost(shown(other.unwrap_or("")))),
    }
    match headers.get(header::ORIGIN) {
        Some(origin) if !origins.0.contains(origin) => {
            Err(Refusal::ForbiddenOrigin(shown(origin.to_str().unwrap_or("?"))))
        }
        _ => Ok(()),
    }
}

/// Whether `host` (a `Host` header: a name and an optional port) names this machine's loopback.
fn is_loopback_name(host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        Some((name, port)) if !name.ends_with(':') && (name.starts_with('[') || !name.contains(':')) => {
            (name, Some(port))
        }
        _ => (host, None),
    };
    let port_ok =
        port.is_none_or(|port| !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit()));
    port_ok && ["127.0.0.1", "localhost", "[::1]"].iter().any(|loopback| name.eq_ignore_ascii_case(loopback))
}

/// A client's text as an error may show it: short.
fn shown(text: &str) -> String {
    text.chars().take(100).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_names_with_or_without_a_port_are_this_machine() {
        for host in ["127.0.0.1", "127.0.0.1:7391", "localhost", "LOCALHOST:80", "[::1]", "[::1]:7391"] {
            assert!(is_loopback_name(host), "{host}");
        }
        for host in [
            "rebind.evil.example",
            "rebind.evil.example:7391",
            "127.0.0.1.evil.example",
            "localhost.",
            "127.0.0.2",
            "127.0.0.1:",
            "127.0.0.1:x",
            "127.0.0.1:123456",
            "::1",
            "[::1]:7391:1",
            "",
        ] {
            assert!(!is_loopback_name(host), "{host}");
        }
    }

    #[test]
    fn origins_are_taken_only_in_the_form_browsers_send() {
        assert!(
            AllowedOrigins::new(&["https://codap.concord.org".to_owned(), "http://localhost:8080".to_owned()]).is_ok()
        );
        for bad in ["https://codap.concord.org/", "codap.concord.org", "null", "https://x.example/app"] {
            assert!(AllowedOrigins::new(&[bad.to_owned()]).is_err(), "{bad}");
        }
    }
}
