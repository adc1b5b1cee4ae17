//! HTTP only: routing, extraction, problem JSON. One module per resource.

mod avatar;
mod categories;
mod error;
mod extract;
mod fields;
mod health;
mod items;
mod limits;
mod page;
mod stock;

use std::any::Any;
use std::pin::pin;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::serve::{Listener, ListenerExt};
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use sqlx::PgPool;
use tokio::net::TcpListener;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use error::Error;
pub use limits::{BODY_BUDGET, BodyBudget, HEADER_READ_TIMEOUT};

use crate::config::Config;
use crate::stock::StockClient;

/// The contract's body limit: 1 MiB.
const BODY_LIMIT: usize = 1024 * 1024;

/// What every handler can reach: the pool, the avatar settings and the stock upstream's client;
/// and the body budget, which every request goes through.
#[derive(Clone)]
pub struct ApiContext {
    pub db: PgPool,
    pub avatar: Arc<Avatar>,
    pub stock: StockClient,
    pub bodies: BodyBudget,
}

#[derive(Debug)]
pub struct Avatar {
    /// Without a trailing slash.
    pub base_url: String,
    pub count: u32,
}

impl ApiContext {
    pub fn new(config: &Config, db: PgPool, stock: StockClient) -> Self {
        Self {
            db,
            stock,
            avatar: Arc::new(Avatar {
                base_url: config.avatar_base_url.trim_end_matches('/').to_owned(),
                count: config.avatar_count,
            }),
            bodies: BodyBudget::new(BODY_BUDGET),
        }
    }
}

pub fn router(ctx: ApiContext) -> Router {
    let bodies = ctx.bodies.clone();
    Router::new()
        .merge(categories::router())
        .merge(items::router())
        .merge(avatar::router())
        .merge(health::router())
        .merge(stock::router())
        // Both fallbacks answer problem JSON; axum still adds `Allow` to the 405.
        .method_not_allowed_fallback(async |method: Method| Error::MethodNotAllowed(method))
        .fallback(async |uri: Uri| Error::NotFound(format!("no route for {}", uri.path())))
        // axum's limit, not tower-http's `RequestBodyLimitLayer`: that one answers 413 from
        // `Content-Length` before the content type is looked at (the contract puts 415 first)
        // and with a plain-text body. This one is enforced inside the JSON extractor.
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(
            bodies,
            limits::take_body_budget,
        ))
        .layer(CatchPanicLayer::custom(panic_response))
        .with_state(ctx)
}

fn panic_response(panic: Box<dyn Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned());
    Error::Panic(message).into_response()
}

/// Serves until SIGTERM or Ctrl-C, lets in-flight requests finish, then closes the pool. The
/// stock client goes with the router: its connections close when the last connection drops it.
pub async fn serve(config: &Config, db: PgPool, stock: StockClient) -> std::io::Result<()> {
    let mut app = router(ApiContext::new(config, db.clone(), stock));
    if config.log_requests {
        // The span carries method and path; at tower-http's default (DEBUG) the INFO filter
        // would drop it and the response lines would not say which request they answer.
        app = app.layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::INFO))
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        );
    }

    let listener = TcpListener::bind((config.host.as_str(), config.port)).await?;
    println!(
        "rust-axum {} (axum, sqlx) listening on {}, pool size {}",
        env!("CARGO_PKG_VERSION"),
        listener.local_addr()?,
        config.db_pool_size
    );
    serve_app(listener, app, shutdown_signal()).await;
    db.close().await;
    Ok(())
}

/// `axum::serve` with a bound on the wait for request headers, which `axum::serve` cannot set:
/// its hyper connections have no timer. The loop is axum's own (`examples/serve-with-hyper`):
/// connections accepted through axum's `Listener` (which rides out `EMFILE` and the like) and
/// served by hyper's HTTP/1 builder; on `shutdown`, no more accepting, idle connections closed,
/// in-flight requests finished.
pub async fn serve_app(listener: TcpListener, app: Router, shutdown: impl Future<Output = ()>) {
    // Responses are written whole; Nagle's algorithm would only delay them.
    let mut listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let mut http = http1::Builder::new();
    // hyper starts this clock when it begins to read a request (on a kept-alive connection,
    // once the previous answer is sent), and closes the connection when it runs out.
    http.timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    let connections = GracefulShutdown::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let (io, _) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = connections.watch(http.serve_connection(TokioIo::new(io), service));
        tokio::spawn(async move {
            // A client that goes away, breaks the protocol or runs out of time ends only its
            // own connection; axum::serve does not log these either.
            let _ = connection.await;
        });
    }
    drop(listener);
    connections.shutdown().await;
}

async fn shutdown_signal() {
    let ctrl_c = async {
        tokio::signal::ctrl_c()
            .await
            .expect("failed to install the Ctrl-C handler");
    };
    let terminate = async {
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("failed to install the SIGTERM handler")
            .recv()
            .await;
    };
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
