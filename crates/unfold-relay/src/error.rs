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
    /// No session has this code.
    #[error("no session '{0}'")]
    UnknownSession(String),
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
}

impl RelayError {
    fn status(&self) -> StatusCode {
        match self {
            RelayError::Unauthorized => StatusCode::UNAUTHORIZED,
            RelayError::UnknownSession(_) | RelayError::UnknownRequest(_) => StatusCode::NOT_FOUND,
            RelayError::Expired(_) => StatusCode::GONE,
            RelayError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            RelayError::TooManyTools { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            RelayError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            RelayError::Invalid(_) => StatusCode::BAD_REQUEST,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            RelayError::Unauthorized => "unauthorized",
            RelayError::UnknownSession(_) => "unknown_session",
            RelayError::Expired(_) => "session_expired",
            RelayError::TooLarge(_) => "body_too_large",
            RelayError::TooManyTools { .. } => "too_many_tools",
            RelayError::RateLimited { .. } => "rate_limited",
            RelayError::Invalid(_) => "invalid_request",
            RelayError::UnknownRequest(_) => "unknown_request",
        }
    }
}

impl IntoResponse for RelayError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.code(), "message": self.to_string() });
        let mut response = (self.status(), axum::Json(body)).into_response();
        if let RelayError::RateLimited { retry_after, .. } = self {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
        }
        response
    }
}
