//! Data access: SQL only. Functions take the pool and return sqlx's own errors; what a failed
//! constraint means to a client is decided by the handlers (`ResultExt::on_constraint`).
//!
//! Queries are checked at compile time by `sqlx::query!` against the prepared data in `.sqlx/`
//! (`SQLX_OFFLINE=true` in `.cargo/config.toml`), so building needs no live database.

pub mod categories;
pub mod items;

use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

/// Opens the pool and one connection, so that a wrong URL or an unreachable database fails the
/// start-up instead of the first request.
pub async fn connect(database_url: &str, max_connections: u32) -> sqlx::Result<PgPool> {
    PgPoolOptions::new()
        .max_connections(max_connections)
        // The contract: no request waits longer than 5 s for a connection; past that it is a 503.
        .acquire_timeout(Duration::from_secs(5))
        // An idle connection is pinged before it is handed out, so connections broken by a
        // database restart are dropped and replaced instead of failing a request.
        .test_before_acquire(true)
        .connect(database_url)
        .await
}

/// `SELECT 1`, the readiness check.
pub async fn ping(db: &PgPool) -> sqlx::Result<()> {
    sqlx::query!("SELECT 1 AS one").fetch_one(db).await?;
    Ok(())
}
