use std::process::ExitCode;

use rust_axum::config::Config;
use rust_axum::stock::StockClient;
use rust_axum::{db, http};
use tracing::Level;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::prelude::*;

// tokio's multi-threaded runtime sizes its workers as its docs describe: one per core available,
// from `available_parallelism` (which honours a cgroup CPU quota) unless `TOKIO_WORKER_THREADS`
// says otherwise. Under the benchmark's 1-CPU cap that is one worker; impl.toml and the
// Dockerfile set TOKIO_WORKER_THREADS=1 so that a cap by CPU affinity alone gives the same.
#[tokio::main]
async fn main() -> ExitCode {
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(err) => {
            eprintln!("rust-axum: {err}");
            return ExitCode::FAILURE;
        }
    };

    // Logs go to stderr, stdout carries the start-up line. sqlx is quieted to errors: its
    // slow-acquire and slow-statement warnings would otherwise log per request under load.
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(
            Targets::new()
                .with_default(Level::INFO)
                .with_target("sqlx", Level::ERROR),
        )
        .init();

    let stock = match StockClient::new(&config.stock_url) {
        Ok(stock) => stock,
        Err(err) => {
            eprintln!("rust-axum: cannot build the stock client: {err}");
            return ExitCode::FAILURE;
        }
    };

    let pool = match db::connect(&config.database_url, config.db_pool_size).await {
        Ok(pool) => pool,
        Err(err) => {
            // sqlx retries a refused connection until the acquire timeout and then only says
            // that the pool timed out.
            let reason = match err {
                sqlx::Error::PoolTimedOut => "no connection within 5 s".to_owned(),
                other => other.to_string(),
            };
            eprintln!("rust-axum: cannot connect to the database: {reason}");
            return ExitCode::FAILURE;
        }
    };

    match http::serve(&config, pool, stock).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("rust-axum: {err}");
            ExitCode::FAILURE
        }
    }
}
