use serde::Serialize;

use super::Error;
use super::extract::Paging;
use crate::db;

/// The page envelope, in the shape Spring Data serialises pages to.
#[derive(Debug, Serialize)]
pub struct Page<T> {
    content: Vec<T>,
    page: PageInfo,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PageInfo {
    size: i64,
    number: i64,
    total_elements: i64,
    total_pages: i64,
}

impl<T> Page<T> {
    /// Builds the page for `total` elements, fetching its rows only when it is not past the end
    /// (a page past the end, or one whose offset overflows, is empty and costs no query) and
    /// turning each into its JSON form.
    pub async fn fetch<R, F>(paging: Paging, total: i64, fetch: F) -> Result<Self, Error>
    where
        F: AsyncFnOnce(i64, i64) -> db::Result<Vec<R>>,
        T: From<R>,
    {
        let content = match paging.offset() {
            Some(offset) if offset < total => fetch(paging.size, offset)
                .await?
                .into_iter()
                .map(T::from)
                .collect(),
            _ => Vec::new(),
        };
        Ok(Self {
            content,
            page: PageInfo {
                size: paging.size,
                number: paging.number,
                total_elements: total,
                total_pages: (total + paging.size - 1) / paging.size,
            },
        })
    }
}
