use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;

use super::{ApiContext, Error};
use crate::db;

pub fn router() -> Router<ApiContext> {
    Router::new().route("/health", get(health))
}

#[derive(Serialize)]
struct Health {
    status: &'static str,
}

async fn health(State(ctx): State<ApiContext>) -> Result<Json<Health>, Error> {
    // Whatever makes `SELECT 1` fail, the service is not ready: always a 503.
    db::ping(&ctx.db).await?;
    Ok(Json(Health { status: "UP" }))
}
