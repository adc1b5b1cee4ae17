//! The one place where request, domain and database errors become HTTP answers: RFC 9457
//! problem JSON with a status, its RFC 9110 title and, for a 422, the JSON fields at fault.

use std::borrow::Cow;

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::{db, stock};

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

    /// No route for the path.
    #[error("{0}")]
    NotFound(String),

    #[error("method {0} is not allowed on this path")]
    MethodNotAllowed(axum::http::Method),

    #[error("request body is larger than 1 MiB")]
    ContentTooLarge,

    #[error("request body must be JSON (Content-Type: application/json)")]
    UnsupportedMediaType,

    #[error("request body has invalid fields: {}", field_list(.0))]
    UnprocessableContent(Vec<FieldError>),

    /// What data access reported: absent, taken, unknown, still referenced, unavailable, or a bug.
    #[error(transparent)]
    Db(#[from] db::Error),

    /// What the stock upstream answered: no record, no usable answer, or none in time.
    #[error(transparent)]
    Stock(#[from] stock::Error),

    /// A handler panicked (caught by `CatchPanicLayer`).
    #[error("an internal error occurred")]
    Panic(String),

    /// The body does not fit in what is left of the body budget; it was not read.
    #[error("the server is busy, try again shortly")]
    Busy,
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
        Self::UnprocessableContent(vec![FieldError::new(field, message)])
    }

    pub fn status_code(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::ContentTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::UnprocessableContent(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::Db(error) => match error {
                db::Error::NotFound { .. } => StatusCode::NOT_FOUND,
                db::Error::CodeTaken(_) | db::Error::SkuTaken(_) | db::Error::CategoryInUse(_) => {
                    StatusCode::CONFLICT
                }
                db::Error::UnknownCategory(_) => StatusCode::UNPROCESSABLE_ENTITY,
                db::Error::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
                db::Error::Unexpected(_) => StatusCode::INTERNAL_SERVER_ERROR,
            },
            Self::Stock(error) => match error {
                stock::Error::NotFound(_) => StatusCode::NOT_FOUND,
                stock::Error::Failed(_) => StatusCode::BAD_GATEWAY,
                stock::Error::TimedOut(_) => StatusCode::GATEWAY_TIMEOUT,
            },
            Self::Panic(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Self::Busy => StatusCode::SERVICE_UNAVAILABLE,
        }
    }

    /// The `errors[]` of a 422, named by the body's JSON properties.
    fn into_field_errors(self) -> Option<Vec<FieldError>> {
        match self {
            Self::UnprocessableContent(errors) => Some(errors),
            Self::Db(error @ db::Error::UnknownCategory(_)) => {
                Some(vec![FieldError::new("categoryId", error.to_string())])
            }
            _ => None,
        }
    }
}

/// The reason phrase of the status as RFC 9110 words it; the `http` crate still has the older
/// "Payload Too Large" and "Unprocessable Entity" for 413 and 422.
pub fn title(status: StatusCode) -> &'static str {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => "Content Too Large",
        StatusCode::UNPROCESSABLE_ENTITY => "Unprocessable Content",
        other => other.canonical_reason().unwrap_or("Error"),
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
                Self::ContentTooLarge
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
struct Problem {
    r#type: &'static str,
    title: &'static str,
    status: u16,
    detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    errors: Option<Vec<FieldError>>,
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        match &self {
            Self::Db(db::Error::Unavailable(cause)) => {
                tracing::warn!(error = %cause, "database unavailable");
            }
            // Display, not Debug: PostgreSQL's DETAIL (`Failing row contains (…)`) carries the
            // values written, and SQL parameters are logged nowhere.
            Self::Db(db::Error::Unexpected(cause)) => {
                tracing::error!(error = %cause, "database error");
            }
            // The upstream's fault, not a bug here: one line with the cause, at warn.
            Self::Stock(error @ (stock::Error::Failed(_) | stock::Error::TimedOut(_))) => {
                tracing::warn!(
                    error = error as &dyn std::error::Error,
                    "stock upstream failed"
                );
            }
            Self::Panic(message) => tracing::error!(panic = %message, "handler panicked"),
            _ => {}
        }
        let status = self.status_code();
        // The body was left unread, so the connection cannot carry another request.
        let connection = matches!(self, Self::Busy).then_some([(header::CONNECTION, "close")]);
        let detail = self.to_string();
        let problem = Problem {
            r#type: "about:blank",
            title: title(status),
            status: status.as_u16(),
            detail,
            errors: self.into_field_errors(),
        };
        // The header tuple is applied after `Json` sets its own content type, so it wins.
        (
            status,
            connection,
            [(header::CONTENT_TYPE, "application/problem+json")],
            Json(problem),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use http_body_util::BodyExt;
    use serde_json::{Value, json};

    use super::*;

    async fn problem(error: Error) -> (StatusCode, Value) {
        let response = error.into_response();
        let status = response.status();
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "application/problem+json"
        );
        let body = response.into_body().collect().await.unwrap().to_bytes();
        (status, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test]
    async fn domain_errors_map_to_status_title_and_field() {
        use db::Error as Db;
        let cases: Vec<(Error, u16, &str, Option<Value>)> = vec![
            (
                Db::NotFound {
                    entity: db::Entity::Item,
                    id: 7,
                }
                .into(),
                404,
                "Not Found",
                None,
            ),
            (
                Db::CodeTaken("CAT-0001".into()).into(),
                409,
                "Conflict",
                None,
            ),
            (
                Db::SkuTaken("SKU-000001".into()).into(),
                409,
                "Conflict",
                None,
            ),
            (Db::CategoryInUse(3).into(), 409, "Conflict", None),
            (
                Db::UnknownCategory(9).into(),
                422,
                "Unprocessable Content",
                Some(json!([{"field": "categoryId", "message": "category 9 does not exist"}])),
            ),
            (
                Db::Unavailable(sqlx::Error::PoolTimedOut).into(),
                503,
                "Service Unavailable",
                None,
            ),
            (
                Db::Unexpected(sqlx::Error::Protocol("SELECT secret".into())).into(),
                500,
                "Internal Server Error",
                None,
            ),
            (stock::Error::NotFound(5).into(), 404, "Not Found", None),
            (
                stock::Error::Failed(stock::Failure::NoQuantity).into(),
                502,
                "Bad Gateway",
                None,
            ),
            (Error::ContentTooLarge, 413, "Content Too Large", None),
            (
                Error::UnsupportedMediaType,
                415,
                "Unsupported Media Type",
                None,
            ),
            (Error::Busy, 503, "Service Unavailable", None),
        ];
        for (error, status, title, errors) in cases {
            let (actual, body) = problem(error).await;
            assert_eq!(actual.as_u16(), status, "{body}");
            assert_eq!(body["title"], title);
            assert_eq!(body["status"], status);
            assert_eq!(body.get("errors"), errors.as_ref(), "{body}");
            let detail = body["detail"].as_str().unwrap();
            assert!(!detail.is_empty() && !detail.contains("SELECT"), "{detail}");
        }
    }
}
