//! Extractors whose rejections are this API's problem JSON instead of axum's plain text.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, FromRequestParts, Query, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::Deserialize;

use super::Error;

/// `axum::Json` with our rejections: 415 without a JSON content type, 413 over the body limit,
/// 400 for unparseable JSON, 422 for JSON of the wrong shape. In that order, as the contract asks.
pub struct AppJson<T>(pub T);

impl<T, S> FromRequest<S> for AppJson<T>
where
    axum::Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = Error;

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        // axum::Json also takes `application/*+json` (JSON Patch and the like); the contract's
        // JSON content type is `application/json` alone, parameters aside.
        let essence = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.split(';').next())
            .map(str::trim);
        if !essence.is_some_and(|e| e.eq_ignore_ascii_case("application/json")) {
            return Err(Error::UnsupportedMediaType);
        }
        let axum::Json(value) = axum::Json::<T>::from_request(req, state).await?;
        Ok(Self(value))
    }
}

/// `axum::extract::Path` with our rejection: a path id that is not an `i64` is a 400.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(Error))]
pub struct AppPath<T>(pub T);

/// `?page=&size=`: `page` 0-based (default 0), `size` in 1..=100 (default 20).
#[derive(Clone, Copy, Debug)]
pub struct Paging {
    pub number: i64,
    pub size: i64,
}

impl Paging {
    /// `None` when `number × size` does not fit in 64 bits: such a page is past the end.
    pub fn offset(&self) -> Option<i64> {
        self.number.checked_mul(self.size)
    }
}

// Present-but-malformed parameters must be 400s with our own detail, so they are read as text.
#[derive(Deserialize)]
struct RawPaging {
    page: Option<String>,
    size: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for Paging {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        let Query(raw) = Query::<RawPaging>::from_request_parts(parts, state).await?;
        let number = match raw.page {
            None => 0,
            Some(page) => page
                .parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| Error::bad_request("page must be an integer of at least 0"))?,
        };
        let size = match raw.size {
            None => 20,
            Some(size) => size
                .parse::<i64>()
                .ok()
                .filter(|n| (1..=100).contains(n))
                .ok_or_else(|| Error::bad_request("size must be an integer between 1 and 100"))?,
        };
        Ok(Self { number, size })
    }
}

/// `?categoryId=` on the item list.
#[derive(Clone, Copy, Debug)]
pub struct CategoryFilter(pub Option<i64>);

#[derive(Deserialize)]
struct RawCategoryFilter {
    #[serde(rename = "categoryId")]
    category_id: Option<String>,
}

impl<S: Send + Sync> FromRequestParts<S> for CategoryFilter {
    type Rejection = Error;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Error> {
        let Query(raw) = Query::<RawCategoryFilter>::from_request_parts(parts, state).await?;
        raw.category_id
            .map(|id| {
                id.parse::<i64>()
                    .map_err(|_| Error::bad_request("categoryId must be a 64-bit integer"))
            })
            .transpose()
            .map(Self)
    }
}
