use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::ApiContext;
use super::error::Error;
use super::extract::AppPath;

pub fn router() -> Router<ApiContext> {
    Router::new().route("/items/{id}/stock", get(show))
}

/// An item's stock as the upstream keeps it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Stock {
    item_id: i64,
    quantity: i32,
}

/// Asks the upstream only: no database read, so it answers while PostgreSQL is down.
async fn show(
    State(ctx): State<ApiContext>,
    AppPath(item_id): AppPath<i64>,
) -> Result<Json<Stock>, Error> {
    let quantity = ctx.stock.quantity(item_id).await?;
    Ok(Json(Stock { item_id, quantity }))
}
