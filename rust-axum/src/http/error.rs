//! The one place where domain and database errors become HTTP answers: RFC 9457 problem JSON.

use std::borrow::Cow;

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use sqlx::error::DatabaseError;

/// A field of a write body that failed validation; `field` is `""` for the body itself.
#[derive(Debug, Serialize)]
pub struct FieldError {
    pub field: &'static str,
    pub message: Cow<'static, str>,
}

impl FieldError {
    pub fn new(field: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            field,
            message: message.into(),
        }
    }
}

/// Every way a request can fail. The `Display` text is the problem's `detail`, so it never
/// carries database text: causes of 5xx answers are logged instead.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A malformed path id, query parameter or unparseable body.
    #[error("{0}")]
    BadRequest(Cow<'static, str>),

    #[error("{0}")]
    NotFound(String),

    #[error("method {0} is not allowed on this path")]
    MethodNotAllowed(axum::http::Method),

    /// A unique key is taken, or a category is still referenced.
    #[error("{0}")]
    Conflict(String),

    #[error("request body is larger than 1 MiB")]
    PayloadTooLarge,

    #[error("request body must be JSON (Content-Type: application/json)")]
    UnsupportedMediaType,

    #[error("request body has invalid fields: {}", field_list(.0))]
    UnprocessableEntity(Vec<FieldError>),

    /// PostgreSQL refused or lost the connection, or no pooled connection freed up in time.
    #[error("the database is unavailable")]
    Unavailable(#[source] sqlx::Error),

    /// Any other database error is a bug.
    #[error("an internal error occurred")]
    Database(#[source] sqlx::Error),

    /// A handler panicked (caught by `CatchPanicLayer`).
    #[error("an internal error occurred")]
    Panic(String),
}

fn field_list(errors: &[FieldError]) -> String {
    let fields: Vec<&str> = errors
        .iter()
        .map(|e| {
            if e.field.is_empty() {
                "(body)"
            } else {
                e.field
            }
        })
        .collect();
    fields.join(", ")
}

impl Error {
    pub fn bad_request(detail: impl Into<Cow<'static, str>>) -> Self {
        Self::BadRequest(detail.into())
    }

    pub fn unprocessable(field: &'static str, message: impl Into<Cow<'static, str>>) -> Self {
        Self::UnprocessableEntity(vec![FieldError::new(field, message)])
    }

    pub fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::UnprocessableEntity(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Database(_) | Self::Panic(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// Sorts database errors into "PostgreSQL is not there" (503) and everything else (500).
impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Self {
        let unreachable = match &error {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::Tls(_) => true,
            // Class 08 is "connection exception", 57P0x the server shutting down or starting.
            sqlx::Error::Database(e) => e
                .code()
                .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
            _ => false,
        };
        if unreachable {
            Self::Unavailable(error)
        } else {
            Self::Database(error)
        }
    }
}

impl From<JsonRejection> for Error {
    fn from(rejection: JsonRejection) -> Self {
        match rejection {
            JsonRejection::MissingJsonContentType(_) => Self::UnsupportedMediaType,
            JsonRejection::JsonSyntaxError(_) => {
                Self::bad_request("request body is not valid JSON")
            }
            // Bodies are extracted as `JsonObject`, so this is the only data error there is.
            JsonRejection::JsonDataError(_) => {
                Self::unprocessable("", "request body must be a JSON object")
            }
            rejection if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Self::PayloadTooLarge
            }
            rejection => Self::bad_request(rejection.body_text()),
        }
    }
}

impl From<PathRejection> for Error {
    fn from(_: PathRejection) -> Self {
        Self::bad_request("path id must be a base-10 integer in the signed 64-bit range")
    }
}

impl From<QueryRejection> for Error {
    fn from(rejection: QueryRejection) -> Self {
        Self::bad_request(rejection.body_text())
    }
}

#[derive(Serialize)]
struct Problem<'a> {
    r#type: &'static str,
    title: &'static str,
    status: u16,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<&'a [FieldError]>,
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        match &self {
            Self::Unavailable(cause) => tracing::warn!(error = %cause, "database unavailable"),
            Self::Database(cause) => tracing::error!(error = ?cause, "database error"),
            Self::Panic(message) => tracing::error!(panic = %message, "handler panicked"),
            _ => {}
        }
        let status = self.status_code();
        let problem = Problem {
            r#type: "about:blank",
            title: status.canonical_reason().unwrap_or("Error"),
            status: status.as_u16(),
            detail: self.to_string(),
            errors: match &self {
                Self::UnprocessableEntity(errors) => Some(errors),
                _ => None,
            },
        };
        // The header tuple is applied after `Json` sets its own content type, so it wins.
        (
            status,
            [(header::CONTENT_TYPE, "application/problem+json")],
            Json(problem),
        )
            .into_response()
    }
}

/// Turns a database constraint error into an API error, matched by constraint name.
///
/// ```text
/// db::categories::insert(&ctx.db, &input)
///     .await
///     .on_constraint("category_code_key", |_| Error::Conflict(format!("code {} already exists", input.code)))?;
/// ```
pub trait ResultExt<T> {
    fn on_constraint(
        self,
        name: &str,
        map_err: impl FnOnce(Box<dyn DatabaseError>) -> Error,
    ) -> Result<T, Error>;
}

impl<T, E> ResultExt<T> for Result<T, E>
where
    E: Into<Error>,
{
    fn on_constraint(
        self,
        name: &str,
        map_err: impl FnOnce(Box<dyn DatabaseError>) -> Error,
    ) -> Result<T, Error> {
        self.map_err(|e| match e.into() {
            Error::Database(sqlx::Error::Database(dbe)) if dbe.constraint() == Some(name) => {
                map_err(dbe)
            }
            e => e,
        })
    }
}
