//! The router driven in-process with `tower::ServiceExt::oneshot`. Tests named `db_*` read and
//! write the database at `DATABASE_URL` (seeded with db/seed.sql); the others never reach it.
//! Tests named `stock_*` ask a fake stock upstream started in the test.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Path;
use axum::http::{HeaderMap, Method, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get as route_get;
use http_body_util::BodyExt;
use rust_axum::db;
use rust_axum::http::{ApiContext, Avatar, BODY_BUDGET, BodyBudget, router, serve_app};
use rust_axum::stock::StockClient;
use serde_json::{Value, json};
use sqlx::postgres::PgPoolOptions;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Instant;
use tower::ServiceExt;

/// Nothing listens on port 1: a stock upstream there refuses every connection.
const NO_UPSTREAM: &str = "http://127.0.0.1:1";

fn app_with(db: sqlx::PgPool, stock_url: &str) -> Router {
    app_with_budget(db, stock_url, BODY_BUDGET)
}

fn app_with_budget(db: sqlx::PgPool, stock_url: &str, body_budget: usize) -> Router {
    router(ApiContext {
        db,
        avatar: Arc::new(Avatar {
            base_url: "https://avatars.test".to_owned(),
            count: 3,
        }),
        stock: StockClient::new(&stock_url.parse().unwrap()).unwrap(),
        bodies: BodyBudget::new(body_budget),
    })
}

/// A pool that points at a port nothing listens on, with a short acquire timeout: anything
/// that reaches the database fails fast with "unavailable".
fn unreachable_db() -> sqlx::PgPool {
    PgPoolOptions::new()
        .acquire_timeout(Duration::from_millis(300))
        .connect_lazy("postgres://bench:bench@127.0.0.1:1/none")
        .unwrap()
}

fn app_without_db() -> Router {
    app_with(unreachable_db(), NO_UPSTREAM)
}

async fn app_with_db() -> Router {
    let url = std::env::var("DATABASE_URL")
        .expect("DATABASE_URL must point at a database seeded with db/seed.sql");
    app_with(
        db::connect(&url, 2)
            .await
            .expect("the test database is reachable"),
        NO_UPSTREAM,
    )
}

struct Reply {
    status: StatusCode,
    headers: HeaderMap,
    body: Value,
    raw: Vec<u8>,
}

async fn call(app: &Router, request: Request<Body>) -> Reply {
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let raw = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    let body = serde_json::from_slice(&raw).unwrap_or(Value::Null);
    Reply {
        status,
        headers,
        body,
        raw,
    }
}

async fn get(app: &Router, uri: &str) -> Reply {
    call(app, Request::get(uri).body(Body::empty()).unwrap()).await
}

async fn send_json(app: &Router, method: Method, uri: &str, body: impl Into<Body>) -> Reply {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .unwrap();
    call(app, request).await
}

fn assert_problem(reply: &Reply, status: StatusCode) {
    assert_eq!(reply.status, status, "body: {}", reply.body);
    assert_eq!(
        reply.headers[header::CONTENT_TYPE],
        "application/problem+json"
    );
    assert_eq!(reply.body["type"], "about:blank");
    assert_eq!(reply.body["status"], status.as_u16());
    assert_eq!(reply.body["title"], rfc9110_title(status));
    assert!(reply.body["detail"].as_str().is_some_and(|d| !d.is_empty()));
}

/// The reason phrases of RFC 9110, which every problem's title repeats.
fn rfc9110_title(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        other => panic!("no problem expected with status {other}"),
    }
}

fn error_fields(reply: &Reply) -> Vec<String> {
    let mut fields: Vec<String> = reply.body["errors"]
        .as_array()
        .expect("a 422 lists its errors")
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_owned())
        .collect();
    fields.sort();
    fields
}

#[tokio::test]
async fn unknown_routes_are_problem_404s_without_slash_redirects() {
    let app = app_without_db();
    for uri in ["/nope", "/items/", "/categories/1/items/2"] {
        assert_problem(&get(&app, uri).await, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn wrong_methods_are_405_with_allow_even_for_a_malformed_id() {
    let app = app_without_db();
    let cases = [
        (Method::PATCH, "/items/abc", &["GET", "PUT", "DELETE"][..]),
        (Method::DELETE, "/items", &["GET", "POST"]),
        (Method::POST, "/categories/1/items", &["GET"]),
        (Method::POST, "/health", &["GET"]),
        (Method::PUT, "/items/5/stock", &["GET"]),
        (Method::DELETE, "/items/abc/stock", &["GET"]),
    ];
    for (method, uri, allowed) in cases {
        let reply = call(
            &app,
            Request::builder()
                .method(method)
                .uri(uri)
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        assert_problem(&reply, StatusCode::METHOD_NOT_ALLOWED);
        let allow = reply.headers[header::ALLOW].to_str().unwrap();
        for m in allowed {
            assert!(allow.contains(m), "Allow {allow:?} lacks {m} for {uri}");
        }
    }
}

#[tokio::test]
async fn malformed_ids_and_query_parameters_are_400() {
    let app = app_without_db();
    for uri in [
        "/items/abc",
        "/items/1.5",
        "/categories/99999999999999999999",
        "/items?page=-1",
        "/items?page=",
        "/items?size=0",
        "/items?size=101",
        "/categories?size=x",
        "/items?categoryId=",
        "/items?categoryId=1.5",
        "/categories/1/items?page=abc",
    ] {
        assert_problem(&get(&app, uri).await, StatusCode::BAD_REQUEST);
    }
}

/// Path ids and integer query parameters are `[+-]?[0-9]+` in the signed 64-bit range. Without a
/// database, a well-formed request gets as far as the pool (503) and a malformed one stops at 400.
#[tokio::test]
async fn integers_in_paths_and_queries_are_an_optional_sign_and_ascii_digits() {
    let app = app_without_db();
    let cases = [
        ("/items/+5", StatusCode::SERVICE_UNAVAILABLE),
        ("/items/%2B5", StatusCode::SERVICE_UNAVAILABLE),
        ("/items/007", StatusCode::SERVICE_UNAVAILABLE),
        (
            "/items/-9223372036854775808",
            StatusCode::SERVICE_UNAVAILABLE,
        ),
        (
            "/items?page=%2B5&size=007&categoryId=-1",
            StatusCode::SERVICE_UNAVAILABLE,
        ),
        ("/items/-9223372036854775809", StatusCode::BAD_REQUEST),
        ("/items/%205", StatusCode::BAD_REQUEST),
        ("/items/5%20", StatusCode::BAD_REQUEST),
        ("/items/%D9%A1%D9%A2", StatusCode::BAD_REQUEST),
        ("/items/%EF%BC%95", StatusCode::BAD_REQUEST),
        ("/items/1_0", StatusCode::BAD_REQUEST),
        ("/items/1e3", StatusCode::BAD_REQUEST),
        ("/items/0x10", StatusCode::BAD_REQUEST),
        ("/items/+", StatusCode::BAD_REQUEST),
        ("/items/--5", StatusCode::BAD_REQUEST),
        // A query string is form-decoded: a raw `+` is a space.
        ("/items?page=+5", StatusCode::BAD_REQUEST),
        ("/items?page=%D9%A1", StatusCode::BAD_REQUEST),
        ("/items?size=%EF%BC%95", StatusCode::BAD_REQUEST),
        ("/items?size=1_0", StatusCode::BAD_REQUEST),
        ("/items?categoryId=0x10", StatusCode::BAD_REQUEST),
        ("/items?categoryId=-", StatusCode::BAD_REQUEST),
    ];
    for (uri, status) in cases {
        let reply = get(&app, uri).await;
        assert_problem(&reply, status);
        if status == StatusCode::BAD_REQUEST {
            let detail = reply.body["detail"].as_str().unwrap();
            assert!(detail.contains("integer"), "{uri}: detail {detail:?}");
        }
    }
}

#[tokio::test]
async fn a_body_without_json_content_type_is_415_even_when_it_is_json() {
    let app = app_without_db();
    for content_type in [None, Some("text/plain"), Some("application/*"), Some(";;")] {
        let mut request = Request::post("/categories");
        if let Some(content_type) = content_type {
            request = request.header(header::CONTENT_TYPE, content_type);
        }
        let reply = call(
            &app,
            request
                .body(Body::from(r#"{"code":"A","name":"B"}"#))
                .unwrap(),
        )
        .await;
        assert_problem(&reply, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    }
}

#[tokio::test]
async fn body_size_limit_is_exactly_one_mebibyte() {
    let app = app_without_db();
    // A JSON object of exactly `len` bytes whose fields are invalid, so nothing reaches the database.
    let body_of = |len: usize| {
        let head = r#"{"code":"","pad":""#;
        let tail = r#""}"#;
        format!("{head}{}{tail}", "x".repeat(len - head.len() - tail.len()))
    };
    let reply = send_json(&app, Method::POST, "/categories", body_of(1 << 20)).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    let reply = send_json(&app, Method::POST, "/categories", body_of((1 << 20) + 1)).await;
    assert_problem(&reply, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn a_body_over_what_is_left_of_the_budget_is_503_and_closes_the_connection() {
    // A category body of exactly 100 bytes whose code is blank, so nothing reaches the database.
    let body = format!(r#"{{"code":"","name":"{}"}}"#, "n".repeat(79));
    assert_eq!(body.len(), 100);

    let app = app_with_budget(unreachable_db(), NO_UPSTREAM, 99);
    let reply = send_json(&app, Method::POST, "/categories", body.clone()).await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        reply.body["detail"],
        "the server is busy, try again shortly"
    );
    assert_eq!(reply.headers[header::CONNECTION], "close");
    // Requests without a body take nothing of it.
    assert_eq!(get(&app, "/avatar").await.status, StatusCode::FOUND);

    let app = app_with_budget(unreachable_db(), NO_UPSTREAM, 100);
    let reply = send_json(&app, Method::POST, "/categories", body.clone()).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    // A chunked body takes the whole 1 MiB it may grow to.
    let chunked = Body::from_stream(Body::from(body).into_data_stream());
    let reply = send_json(&app, Method::POST, "/categories", chunked).await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE);
}

/// The server as `main` runs it, on a port of its own, with `app_without_db`.
async fn serve_without_db() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(serve_app(
        listener,
        app_without_db(),
        std::future::pending(),
    ));
    address
}

#[tokio::test]
async fn request_headers_not_all_there_after_10_s_close_the_connection() {
    let address = serve_without_db().await;
    let started = Instant::now();
    let mut slow = TcpStream::connect(address).await.unwrap();
    slow.write_all(b"GET /avatar HTTP/1.1\r\nHost: test\r\n")
        .await
        .unwrap();

    // A header line every 5 s, never the blank line that ends them; meanwhile another
    // connection is answered as ever.
    let mut next_line =
        tokio::time::interval_at(started + Duration::from_secs(5), Duration::from_secs(5));
    let mut other = TcpStream::connect(address).await.unwrap();
    other
        .write_all(b"GET /avatar HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let mut answer = Vec::new();
    other.read_to_end(&mut answer).await.unwrap();
    assert!(answer.starts_with(b"HTTP/1.1 302 "), "{answer:?}");

    let mut buffer = [0; 256];
    let closed = tokio::time::timeout(Duration::from_secs(15), async {
        for line in 1.. {
            tokio::select! {
                read = slow.read(&mut buffer) => return read,
                _ = next_line.tick() => {
                    slow.write_all(format!("X-Slow: {line}\r\n").as_bytes()).await?;
                }
            }
        }
        unreachable!()
    })
    .await
    .expect("the connection is still open after 15 s");
    // Closed without an answer (a reset, if the last line was still unread).
    assert!(matches!(closed, Ok(0) | Err(_)), "{closed:?}");
    let after = started.elapsed();
    assert!(
        (Duration::from_secs(10)..Duration::from_secs(11)).contains(&after),
        "closed after {after:?}"
    );
}

#[tokio::test]
async fn unparseable_json_is_400_and_a_non_object_is_422_on_the_body() {
    let app = app_without_db();
    for body in ["", "{", "[1, 2", r#"{"code": }"#] {
        let reply = send_json(&app, Method::POST, "/categories", body).await;
        assert_problem(&reply, StatusCode::BAD_REQUEST);
    }
    for body in ["null", "[]", r#""x""#, "42"] {
        let reply = send_json(&app, Method::POST, "/items", body).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(error_fields(&reply), [""]);
    }
}

#[tokio::test]
async fn every_invalid_field_is_listed_before_the_resource_is_looked_up() {
    let app = app_without_db();
    let body = json!({
        "sku": " ", "name": 7, "price": "9.99", "stock": 1.5, "categoryId": "1",
        "description": "x".repeat(16385), "id": 5, "updatedAt": "ignored", "unknown": true,
    });
    let reply = send_json(&app, Method::PUT, "/items/999999999", body.to_string()).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        error_fields(&reply),
        ["categoryId", "description", "name", "price", "sku", "stock"]
    );

    let reply = send_json(&app, Method::POST, "/categories", r#"{"code": null}"#).await;
    assert_eq!(error_fields(&reply), ["code", "name"]);
}

#[tokio::test]
async fn avatar_is_an_explicit_302_with_an_empty_body() {
    let app = app_without_db();
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..60 {
        let reply = get(&app, "/avatar").await;
        assert_eq!(reply.status, StatusCode::FOUND);
        assert!(reply.raw.is_empty());
        let location = reply.headers[header::LOCATION].to_str().unwrap().to_owned();
        let n: u32 = location
            .strip_prefix("https://avatars.test/Renard-")
            .and_then(|rest| rest.strip_suffix(".png"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("unexpected Location {location}"));
        assert!((1..=3).contains(&n));
        seen.insert(n);
    }
    assert_eq!(seen.len(), 3, "60 draws out of 3 should hit each");
}

#[tokio::test]
async fn an_unreachable_database_is_a_503_problem() {
    let app = app_without_db();
    for uri in ["/health", "/items/1", "/categories?page=0"] {
        assert_problem(&get(&app, uri).await, StatusCode::SERVICE_UNAVAILABLE);
    }
}

/// A fake stock upstream: `/stock/5` and `/stock/-3` have records, `/stock/7` fails, `/stock/8`
/// answers a body that is not JSON, `/stock/9` hangs; any other id has no record.
async fn app_with_upstream() -> Router {
    async fn stock(Path(id): Path<String>) -> Response {
        let json = [(header::CONTENT_TYPE, "application/json")];
        match id.as_str() {
            "5" => (json, r#"{"itemId":5,"quantity":12}"#).into_response(),
            "-3" => (json, r#"{"itemId":-3,"quantity":0,"note":"ignored"}"#).into_response(),
            "7" => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
            "8" => (json, "<html>").into_response(),
            "9" => {
                tokio::time::sleep(Duration::from_secs(10)).await;
                StatusCode::OK.into_response()
            }
            _ => (StatusCode::NOT_FOUND, json, r#"{"status":404}"#).into_response(),
        }
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let upstream = Router::new().route("/stock/{id}", route_get(stock));
    tokio::spawn(async move { axum::serve(listener, upstream).await.unwrap() });
    // The database is unreachable: the stock route must not need it.
    app_with(unreachable_db(), &url)
}

#[tokio::test]
async fn stock_is_the_upstream_quantity_for_the_canonical_id() {
    let app = app_with_upstream().await;
    for uri in [
        "/items/5/stock",
        "/items/+5/stock",
        "/items/%2B5/stock",
        "/items/005/stock",
    ] {
        let reply = get(&app, uri).await;
        assert_eq!(reply.status, StatusCode::OK, "{uri}: {}", reply.body);
        assert_eq!(reply.headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(reply.body, json!({"itemId": 5, "quantity": 12}), "{uri}");
    }
    let reply = get(&app, "/items/-3/stock").await;
    assert_eq!(reply.body, json!({"itemId": -3, "quantity": 0}));
}

#[tokio::test]
async fn stock_failures_are_problems_404_502_504() {
    let app = app_with_upstream().await;
    let reply = get(&app, "/items/6/stock").await;
    assert_problem(&reply, StatusCode::NOT_FOUND);
    assert_eq!(reply.body["detail"], "no stock record for item 6");
    assert_problem(&get(&app, "/items/7/stock").await, StatusCode::BAD_GATEWAY);
    assert_problem(&get(&app, "/items/8/stock").await, StatusCode::BAD_GATEWAY);
    assert_problem(
        &get(&app_without_db(), "/items/5/stock").await,
        StatusCode::BAD_GATEWAY,
    );

    let start = std::time::Instant::now();
    assert_problem(
        &get(&app, "/items/9/stock").await,
        StatusCode::GATEWAY_TIMEOUT,
    );
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}

#[tokio::test]
async fn stock_of_a_malformed_id_is_400() {
    let app = app_with_upstream().await;
    for uri in [
        "/items/abc/stock",
        "/items/1.5/stock",
        "/items/%205/stock",
        "/items/99999999999999999999/stock",
    ] {
        assert_problem(&get(&app, uri).await, StatusCode::BAD_REQUEST);
    }
}

#[tokio::test]
async fn db_reads_match_the_seed() {
    let app = app_with_db().await;

    let reply = get(&app, "/items/12345").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply.headers[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("application/json")
    );
    let item = &reply.body;
    assert_eq!(item["sku"], "SKU-012345");
    assert_eq!(item["price"].to_string(), "600.55");
    assert_eq!(item["stock"], 345);
    assert_eq!(item["categoryId"], 345);
    assert_eq!(
        item["category"],
        json!({"id": 345, "code": "CAT-0345", "name": "Category 345"})
    );
    assert_eq!(item["updatedAt"], "2026-01-01T03:25:45Z");

    for uri in ["/items/+7", "/items/%2B7", "/items/007"] {
        let reply = get(&app, uri).await;
        assert_eq!(
            (reply.status, &reply.body["id"]),
            (StatusCode::OK, &json!(7)),
            "{uri}"
        );
    }
    let reply = get(&app, "/items?page=%2B5&size=%2B1").await;
    assert_eq!(reply.body["content"][0]["id"], 6);

    let reply = get(&app, "/categories?page=1&size=2").await;
    assert_eq!(reply.body["content"][0]["code"], "CAT-0003");
    assert_eq!(
        reply.body["page"],
        json!({"size": 2, "number": 1, "totalElements": 2000, "totalPages": 1000})
    );

    let reply = get(&app, "/categories/7/items?size=100").await;
    let ids: Vec<i64> = reply.body["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids.len(), 50);
    assert!(ids.windows(2).all(|w| w[0] < w[1]) && ids[0] == 7 && ids[1] == 2007);
    assert!(reply.body["content"][0]["category"]["code"] == "CAT-0007");

    assert_problem(
        &get(&app, "/categories/2001/items").await,
        StatusCode::NOT_FOUND,
    );
    assert_problem(&get(&app, "/items/0").await, StatusCode::NOT_FOUND);
    assert_problem(&get(&app, "/categories/-5").await, StatusCode::NOT_FOUND);

    let reply = get(&app, "/items?categoryId=999999").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.body,
        json!({"content": [], "page": {"size": 20, "number": 0, "totalElements": 0, "totalPages": 0}})
    );

    let reply = get(&app, "/items?page=999999999999999999&size=100").await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["content"], json!([]));
    assert_eq!(reply.body["page"]["totalElements"], 100000);

    let reply = get(&app, "/health").await;
    assert_eq!(
        (reply.status, reply.body),
        (StatusCode::OK, json!({"status": "UP"}))
    );
}

#[tokio::test]
async fn db_category_lifecycle_and_conflicts() {
    let app = app_with_db().await;
    let code = format!("T-{}", std::process::id());

    let reply = send_json(
        &app,
        Method::POST,
        "/categories",
        json!({"code": code, "name": "Test"}).to_string(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let id = reply.body["id"].as_i64().unwrap();
    assert_eq!(reply.headers[header::LOCATION], format!("/categories/{id}"));
    assert_eq!(reply.body["code"], code.as_str());

    let taken = send_json(
        &app,
        Method::POST,
        "/categories",
        json!({"code": code, "name": "Again"}).to_string(),
    )
    .await;
    assert_problem(&taken, StatusCode::CONFLICT);

    // Keeping its own code is no conflict.
    let reply = send_json(
        &app,
        Method::PUT,
        &format!("/categories/{id}"),
        json!({"code": code, "name": "Renamed"}).to_string(),
    )
    .await;
    assert_eq!(
        (reply.status, &reply.body["name"]),
        (StatusCode::OK, &json!("Renamed"))
    );

    let reply = send_json(
        &app,
        Method::PUT,
        &format!("/categories/{id}"),
        json!({"code": "CAT-0001", "name": "x"}).to_string(),
    )
    .await;
    assert_problem(&reply, StatusCode::CONFLICT);

    assert_problem(
        &call(
            &app,
            Request::delete("/categories/1")
                .body(Body::empty())
                .unwrap(),
        )
        .await,
        StatusCode::CONFLICT,
    );

    let reply = call(
        &app,
        Request::delete(format!("/categories/{id}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert!(reply.raw.is_empty());
    let reply = call(
        &app,
        Request::delete(format!("/categories/{id}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_problem(&reply, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn db_item_lifecycle_and_what_only_the_database_can_tell() {
    let app = app_with_db().await;
    let sku = format!("T-{}", std::process::id());
    let body = |sku: &str, category_id: i64| {
        json!({"sku": sku, "name": "Test item", "price": 1.230, "stock": 3, "categoryId": category_id})
            .to_string()
    };

    let reply = send_json(&app, Method::POST, "/items", body(&sku, 999999)).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(error_fields(&reply), ["categoryId"]);

    // A taken sku is reported before an unknown category.
    let reply = send_json(&app, Method::POST, "/items", body("SKU-000001", 999999)).await;
    assert_problem(&reply, StatusCode::CONFLICT);

    // A valid body on an absent item: the absent item answers before the unknown category.
    let reply = send_json(&app, Method::PUT, "/items/999999999", body(&sku, 999999)).await;
    assert_problem(&reply, StatusCode::NOT_FOUND);

    let reply = send_json(&app, Method::POST, "/items", body(&sku, 42)).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
    let id = reply.body["id"].as_i64().unwrap();
    assert_eq!(reply.headers[header::LOCATION], format!("/items/{id}"));
    assert_eq!(reply.body["price"].as_f64(), Some(1.23));
    assert_eq!(reply.body["description"], Value::Null);
    assert_eq!(reply.body["category"]["code"], "CAT-0042");

    // Prices are judged by their exact value, in any spelling of it.
    for (literal, value) in [
        ("1e2", 100.0),
        ("125E-2", 1.25),
        ("1.10000000000000000000", 1.1),
    ] {
        let body = format!(
            r#"{{"sku": "{sku}", "name": "n", "price": {literal}, "stock": 1, "categoryId": 42}}"#
        );
        let reply = send_json(&app, Method::PUT, &format!("/items/{id}"), body).await;
        assert_eq!(reply.status, StatusCode::OK, "{literal}: {}", reply.body);
        assert_eq!(reply.body["price"].as_f64(), Some(value), "{literal}");
    }

    let replaced = json!({"sku": sku, "name": "Renamed", "price": 2, "stock": 0, "categoryId": 43, "description": " "});
    let reply = send_json(
        &app,
        Method::PUT,
        &format!("/items/{id}"),
        replaced.to_string(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["description"], " ");
    assert_eq!(reply.body["category"]["id"], 43);

    let reply = send_json(
        &app,
        Method::PUT,
        &format!("/items/{id}"),
        body(&sku, 999999),
    )
    .await;
    assert_eq!(error_fields(&reply), ["categoryId"]);

    let reply = call(
        &app,
        Request::delete(format!("/items/{id}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_problem(
        &get(&app, &format!("/items/{id}")).await,
        StatusCode::NOT_FOUND,
    );
}
