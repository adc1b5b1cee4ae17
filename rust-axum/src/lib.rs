//! The benchmark's catalogue API on axum and sqlx.

pub mod config;
pub mod db;
pub mod http;
pub mod stock;
