//! What bounds the process under load it cannot serve: the body budget, and the time a request's
//! headers have to arrive (README.md, "Limits").

use std::sync::Arc;
use std::time::Duration;

use axum::body::HttpBody;
use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;
use tokio::sync::Semaphore;

use super::{BODY_LIMIT, Error};

/// The body bytes all requests together may be reading and parsing at once: 32 bodies of
/// 1 MiB, or thousands of ordinary ones. A body being parsed is held about twice over (the
/// bytes collected, the strings parsed out of them), so bodies keep at most about 64 MiB alive
/// however many arrive at once.
pub const BODY_BUDGET: usize = 32 * 1024 * 1024;

/// How long a request's headers have to arrive, whole (API.md, "Overload and slow clients").
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// What is left of the body budget, shared by every request.
#[derive(Clone, Debug)]
pub struct BodyBudget(Arc<Semaphore>);

impl BodyBudget {
    pub fn new(bytes: usize) -> Self {
        Self(Arc::new(Semaphore::new(bytes)))
    }
}

/// Middleware: a request takes its body's size from the budget until it is answered, or is
/// answered 503 without its body being read when that much is not left. The size is the
/// declared length, or the whole 1 MiB for a chunked body (it is read up to there, then a 413);
/// a request without a body takes nothing.
pub async fn take_body_budget(
    State(budget): State<BodyBudget>,
    request: Request,
    next: Next,
) -> Result<Response, Error> {
    let size = request
        .body()
        .size_hint()
        .upper()
        .map_or(BODY_LIMIT, |declared| {
            usize::try_from(declared).map_or(BODY_LIMIT, |d| d.min(BODY_LIMIT))
        });
    let size = u32::try_from(size).expect("BODY_LIMIT fits in u32");
    let _taken = budget.0.try_acquire_many(size).map_err(|_| Error::Busy)?;
    Ok(next.run(request).await)
}
