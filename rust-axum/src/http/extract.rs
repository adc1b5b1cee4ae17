//! Extractors whose rejections are this API's problem JSON instead of axum's plain text.

use axum::extract::{FromRequest, FromRequestParts, Query};
use axum::http::request::Parts;
use serde::Deserialize;

use super::Error;

/// `axum::Json` with our rejection (axum's `error-handling` example): 415 without a JSON
/// content type, 413 over the body limit, 400 for unparseable JSON, 422 for JSON of the wrong
/// shape. axum checks them in that order, the contract's.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(Error))]
pub struct AppJson<T>(pub T);

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

// Present-but-malformed parameters must be 400s with our own detail, so they are read as text
// and parsed with `i64::from_str`: an optional sign and ASCII digits (spec/README.md), so `+5`
// and `007` are integers while ` 5`, `١٢`, `1_0` and an empty value are not.
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
