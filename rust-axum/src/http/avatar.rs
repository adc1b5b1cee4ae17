use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::ApiContext;

pub fn router() -> Router<ApiContext> {
    Router::new().route("/avatar", get(avatar))
}

/// A 302 built by hand: axum's `Redirect` helpers answer 303 or 307.
async fn avatar(State(ctx): State<ApiContext>) -> Response {
    let n = rand::random_range(1..=ctx.avatar.count);
    let location = format!("{}/Renard-{n}.png", ctx.avatar.base_url);
    (StatusCode::FOUND, [(header::LOCATION, location)]).into_response()
}
