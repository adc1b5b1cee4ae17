//! The stock upstream, over HTTP: `GET {STOCK_URL}/stock/{id}` answers an item's quantity. Like
//! `db`, this module speaks the domain's words (no record, no usable answer, no answer in time);
//! what they mean to a client is decided in one place, `crate::http::Error`.

use std::time::Duration;

use reqwest::{Client, StatusCode, Url, header, redirect, retry};
use serde_json::{Map, Value};

/// The longest the upstream may take to accept a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(1);
/// The longest the upstream may take to answer with its headers, and then with each piece of
/// its body.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(1);

/// What can go wrong in asking the upstream.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The upstream answered 404.
    #[error("no stock record for item {0}")]
    NotFound(i64),

    /// The upstream answered, or failed, in a way that gives no quantity.
    #[error("the stock service gave no usable answer")]
    Failed(#[source] Failure),

    /// No connection within [`CONNECT_TIMEOUT`], or no answer within [`RESPONSE_TIMEOUT`].
    #[error("the stock service did not answer in time")]
    TimedOut(#[source] reqwest::Error),
}

/// Why an answer gave no quantity; logged, never shown to a client.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Refused, reset, or closed before a whole answer; or a body that is not JSON.
    #[error(transparent)]
    Http(reqwest::Error),

    /// Any status but 200 and 404 (redirects are not followed).
    #[error("answered {0}")]
    Status(StatusCode),

    /// A 200 whose body is not an object with an integer `quantity` from 0 to 2,147,483,647.
    #[error("answered 200 without a valid quantity")]
    NoQuantity,
}

impl From<reqwest::Error> for Error {
    fn from(error: reqwest::Error) -> Self {
        if error.is_timeout() {
            Self::TimedOut(error)
        } else {
            Self::Failed(Failure::Http(error))
        }
    }
}

/// The process's one HTTP client for the upstream. Cloning shares it: `reqwest::Client` is a
/// handle on one connection pool.
#[derive(Clone, Debug)]
pub struct StockClient {
    http: Client,
    /// `{STOCK_URL}/stock/`, to which the id is appended.
    records: Url,
}

impl StockClient {
    /// `base_url` is `STOCK_URL` as `Config` checked it: `http://`, a host, a port, path `/`.
    pub fn new(base_url: &Url) -> Result<Self, reqwest::Error> {
        // reqwest's pool (hyper-util's) has no cap on connections per host: every request finds
        // an idle kept-alive connection or opens one, and keeps it for the next (90 s idle).
        let http = Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            // In reqwest, the read timeout runs from the start of the request until the headers
            // are in, then anew for each read of the body.
            .read_timeout(RESPONSE_TIMEOUT)
            .redirect(redirect::Policy::none())
            .retry(retry::never())
            // The upstream is a neighbour on the same network; a proxy from the environment
            // would only put a hop between them.
            .no_proxy()
            .build()?;
        let records = base_url
            .join("stock/")
            .expect("a base URL with a host takes a relative path");
        Ok(Self { http, records })
    }

    /// The quantity the upstream has for `item_id`, which it sends in canonical decimal and
    /// does not judge itself: whether the id names an item is the upstream's answer.
    pub async fn quantity(&self, item_id: i64) -> Result<i32, Error> {
        let response = self
            .http
            .get(format!("{}{item_id}", self.records))
            .header(header::ACCEPT, "application/json")
            .send()
            .await?;
        match response.status() {
            StatusCode::OK => {}
            StatusCode::NOT_FOUND => {
                // Read to its end, so that the connection goes back to the pool.
                let _ = response.bytes().await;
                return Err(Error::NotFound(item_id));
            }
            status => return Err(Error::Failed(Failure::Status(status))),
        }
        // A map, not a struct with `quantity`: serde would also take `[5]` for such a struct.
        let record: Map<String, Value> = response.json().await?;
        record
            .get("quantity")
            .and_then(Value::as_i64)
            .and_then(|quantity| i32::try_from(quantity).ok())
            .filter(|quantity| *quantity >= 0)
            .ok_or(Error::Failed(Failure::NoQuantity))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use axum::Router;
    use axum::extract::Path;
    use axum::http::HeaderMap;
    use axum::response::IntoResponse;
    use axum::routing::get;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;

    /// Starts `app` as a fake upstream on a free port and returns a client for it.
    async fn client_of(app: Router) -> StockClient {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        StockClient::new(&url).unwrap()
    }

    /// A fake upstream that answers every request alike.
    async fn answering(status: u16, body: &'static str) -> StockClient {
        let status = axum::http::StatusCode::from_u16(status).unwrap();
        let reply = move || async move {
            (
                status,
                [
                    (header::CONTENT_TYPE, "application/json"),
                    (header::LOCATION, "/stock/1"),
                ],
                body,
            )
        };
        client_of(Router::new().fallback(reply)).await
    }

    /// A fake "upstream" on raw TCP that reads the request, writes `reply` and closes.
    async fn closing_after(reply: &'static [u8]) -> StockClient {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let mut request = [0; 1024];
                let _ = socket.read(&mut request).await;
                let _ = socket.write_all(reply).await;
            }
        });
        StockClient::new(&url).unwrap()
    }

    #[tokio::test]
    async fn a_stock_record_is_its_quantity_asked_by_the_canonical_id() {
        // Echoes the id as sent, and answers only a client that asks for JSON.
        let app = Router::new().route(
            "/stock/{id}",
            get(async |Path(id): Path<String>, headers: HeaderMap| {
                if headers[header::ACCEPT] != "application/json" {
                    return axum::http::StatusCode::NOT_ACCEPTABLE.into_response();
                }
                let quantity = match id.as_str() {
                    "5" => 12,
                    "-3" => 0,
                    "7" => i32::MAX,
                    _ => return axum::http::StatusCode::NOT_FOUND.into_response(),
                };
                let body = format!(r#"{{"itemId":{id},"quantity":{quantity},"warehouse":"A"}}"#);
                ([(header::CONTENT_TYPE, "application/json")], body).into_response()
            }),
        );
        let client = client_of(app).await;
        assert_eq!(client.quantity(5).await.unwrap(), 12);
        assert_eq!(client.quantity(-3).await.unwrap(), 0);
        assert_eq!(client.quantity(7).await.unwrap(), i32::MAX);
        assert!(matches!(client.quantity(8).await, Err(Error::NotFound(8))));
    }

    #[tokio::test]
    async fn a_404_is_no_record() {
        let client = answering(404, r#"{"status":404}"#).await;
        assert!(matches!(client.quantity(5).await, Err(Error::NotFound(5))));
    }

    #[tokio::test]
    async fn any_other_status_fails_and_redirects_are_not_followed() {
        for status in [201, 204, 302, 400, 403, 500, 503] {
            let client = answering(status, r#"{"quantity":1}"#).await;
            let error = client.quantity(5).await.unwrap_err();
            assert!(
                matches!(error, Error::Failed(Failure::Status(s)) if s.as_u16() == status),
                "{status}: {error:?}"
            );
        }
    }

    #[tokio::test]
    async fn a_200_without_a_valid_quantity_fails() {
        for body in [
            "",
            "not json",
            r#"{"quantity":5"#,
            "[5]",
            "5",
            "null",
            "{}",
            r#"{"quantity":null}"#,
            r#"{"quantity":"5"}"#,
            r#"{"quantity":true}"#,
            r#"{"quantity":1.5}"#,
            r#"{"quantity":5.0}"#,
            r#"{"quantity":1e2}"#,
            r#"{"quantity":-1}"#,
            r#"{"quantity":2147483648}"#,
            r#"{"quantity":99999999999999999999999}"#,
        ] {
            let client = answering(200, body).await;
            let error = client.quantity(5).await.unwrap_err();
            assert!(matches!(error, Error::Failed(_)), "{body}: {error:?}");
        }
    }

    #[tokio::test]
    async fn a_refused_connection_fails() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
        drop(listener);
        let error = StockClient::new(&url)
            .unwrap()
            .quantity(5)
            .await
            .unwrap_err();
        assert!(
            matches!(error, Error::Failed(Failure::Http(_))),
            "{error:?}"
        );
    }

    #[tokio::test]
    async fn a_connection_closed_before_a_whole_answer_fails() {
        for reply in [
            &b""[..],
            b"HTTP/1.1 200 OK\r\nContent-Type: appl",
            b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"quantity\":",
        ] {
            let error = closing_after(reply).await.quantity(5).await.unwrap_err();
            assert!(
                matches!(error, Error::Failed(Failure::Http(_))),
                "{}: {error:?}",
                String::from_utf8_lossy(reply)
            );
        }
    }

    #[tokio::test]
    async fn no_answer_within_1_s_times_out() {
        let hang = async || tokio::time::sleep(Duration::from_secs(10)).await;
        let client = client_of(Router::new().fallback(hang)).await;
        let start = Instant::now();
        let error = client.quantity(5).await.unwrap_err();
        let elapsed = start.elapsed();
        assert!(matches!(error, Error::TimedOut(_)), "{error:?}");
        assert!(
            elapsed >= Duration::from_millis(900) && elapsed < Duration::from_secs(2),
            "{elapsed:?}"
        );
    }

    #[tokio::test]
    async fn a_body_that_stops_for_1_s_times_out() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = Url::parse(&format!("http://{}", listener.local_addr().unwrap())).unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0; 1024];
            let _ = socket.read(&mut request).await;
            let head = b"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"quantity\":";
            socket.write_all(head).await.unwrap();
            tokio::time::sleep(Duration::from_secs(10)).await;
        });
        let error = StockClient::new(&url)
            .unwrap()
            .quantity(5)
            .await
            .unwrap_err();
        assert!(matches!(error, Error::TimedOut(_)), "{error:?}");
    }
}
