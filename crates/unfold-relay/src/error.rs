//! The relay's one error type: each refusal of spec 9 with its HTTP status and a JSON body
//! `{"error": code, "message"}` whose message names the field or the limit.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// Why the relay refused a request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RelayError {
    /// No token, or not this session's: says nothing else about the session.
    #[error("this session needs its token: Authorization: Bearer <token>")]
    Unauthorized,
    /// The session was not used for its time to live.
    #[error("session '{0}' expired: create a new one")]
    Expired(String),
    /// The body is over the limit.
    #[error("the body is over {0} bytes")]
    TooLarge(usize),
    /// The session would hold more tools than allowed.
    #[error("{field}: a session holds at most {limit} tools; this would make {count}")]
    TooManyTools {
        /// The field that brought them.
        field: &'static str,
        /// The limit.
        limit: usize,
        /// How many there would be.
        count: usize,
    },
    /// Too many updates in the last minute.
    #[error("at most {limit} updates a minute per session: try again in {retry_after} s")]
    RateLimited {
        /// The limit.
        limit: usize,
        /// Seconds until the next update is accepted.
        retry_after: u64,
    },
    /// The body is not JSON, or not the request's shape: the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// A response to a tool request that is not waiting (answered, timed out, or never made).
    #[error("no tool request '{0}' is waiting for an answer")]
    UnknownRequest(String),
    /// Too many requests with a wrong token (or none, or for no session) of late, in all.
    #[error("too many requests with a wrong token: try again in {retry_after} s")]
    TooManyAttempts {
        /// Seconds until the next attempt is answered.
        retry_after: u64,
    },
    /// The relay holds as many sessions as it may.
    #[error("the relay holds {limit} sessions, its most: try again once one expires")]
    TooManySessions {
        /// The limit.
        limit: usize,
    },
    /// The session, or the relay, has as many streams open as it may.
    #[error("a {of} has at most {limit} streams open: close one first")]
    TooManyStreams {
        /// The limit.
        limit: usize,
        /// `session` or `relay`.
        of: &'static str,
    },
    /// The session's tools and plugin description would be over its bound.
    #[error("the session would hold {bytes} bytes of tools and plugin description; at most {limit}")]
    SessionTooLarge {
        /// The limit, in bytes.
        limit: usize,
        /// What it would hold.
        bytes: usize,
    },
    /// The relay keeps as many bytes for its clients as it may.
    #[error("the relay keeps as much for its sessions as it may: try again later")]
    RelayFull,
    /// The request's `Host` is not a loopback name: a web page's (DNS rebinding), not a client of
    /// this machine.
    #[error("Host '{0}' is not this machine: the relay answers only requests to 127.0.0.1, localhost or [::1]")]
    ForbiddenHost(String),
    /// The request comes from a web page whose origin the user did not allow.
    #[error("requests from the web page '{0}' are not allowed (unfold relay --allow-origin ORIGIN allows one)")]
    ForbiddenOrigin(String),
    /// The client took too long to send the body.
    #[error("the body did not arrive within {0} s")]
    BodyTimeout(u64),
    /// The relay failed at its own work (a bug): the request changed nothing.
    #[error("the relay failed: {0}")]
    Internal(String),
}

impl RelayError {
    fn status(&self) -> StatusCode {
        match self {
            RelayError::Unauthorized => StatusCode::UNAUTHORIZED,
            RelayError::UnknownRequest(_) => StatusCode::NOT_FOUND,
            RelayError::Expired(_) => StatusCode::GONE,
            RelayError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            RelayError::TooManyTools { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            RelayError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            RelayError::Invalid(_) => StatusCode::BAD_REQUEST,
            RelayError::TooManyAttempts { .. } | RelayError::TooManyStreams { .. } => StatusCode::TOO_MANY_REQUESTS,
            RelayError::TooManySessions { .. } | RelayError::RelayFull => StatusCode::SERVICE_UNAVAILABLE,
            RelayError::SessionTooLarge { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            RelayError::ForbiddenHost(_) | RelayError::ForbiddenOrigin(_) => StatusCode::FORBIDDEN,
            RelayError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            RelayError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            RelayError::Unauthorized => "unauthorized",
            RelayError::Expired(_) => "session_expired",
            RelayError::TooLarge(_) => "body_too_large",
            RelayError::TooManyTools { .. } => "too_many_tools",
            RelayError::RateLimited { .. } => "rate_limited",
            RelayError::Invalid(_) => "invalid_request",
            RelayError::UnknownRequest(_) => "unknown_request",
            RelayError::TooManyAttempts { .. } => "too_many_attempts",
            RelayError::TooManySessions { .. } => "too_many_sessions",
            RelayError::TooManyStreams { .. } => "too_many_streams",
            RelayError::SessionTooLarge { .. } => "session_too_large",
            RelayError::RelayFull => "relay_full",
            RelayError::ForbiddenHost(_) => "forbidden_host",
            RelayError::ForbiddenOrigin(_) => "forbidden_origin",
            RelayError::BodyTimeout(_) => "body_timeout",
            RelayError::Internal(_) => "internal",
        }
    }

    /// Seconds after which the same request may be answered otherwise, when that is known.
    fn retry_after(&self) -> Option<u64> {
        match self {
            RelayError::RateLimited { retry_after, .. } | RelayError::TooManyAttempts { retry_after } => {
                Some(*retry_after)
            }
            RelayError::TooManySessions { .. } | RelayError::RelayFull => Some(60),
            _ => None,
        }
    }
}

impl IntoResponse for RelayError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.code(), "message": self.to_string() });
        let mut response = (self.status(), axum::Json(body)).into_response();
        if let Some(seconds) = self.retry_after() {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<unfold_loopback::Refusal> for RelayError {
    fn from(refusal: unfold_loopback::Refusal) -> RelayError {
        match refusal {
            unfold_loopback::Refusal::ForbiddenHost(host) => RelayError::ForbiddenHost(host),
            unfold_loopback::Refusal::ForbiddenOrigin(origin) => RelayError::ForbiddenOrigin(origin),
        }
    }
}

impl From<unfold_loopback::BodyError> for RelayError {
    fn from(error: unfold_loopback::BodyError) -> RelayError {
        match error {
            unfold_loopback::BodyError::TooLarge(limit) => RelayError::TooLarge(limit),
            unfold_loopback::BodyError::Timeout(seconds) => RelayError::BodyTimeout(seconds),
            unfold_loopback::BodyError::Unreadable(why) => RelayError::Invalid(format!("body: not read whole ({why})")),
        }
    }
}
