//! Settings, read from the environment only.

use std::env;
use std::str::FromStr;

use reqwest::Url;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{0} is not set")]
    Missing(&'static str),
    #[error("{name} must be {expected}, got {value:?}")]
    Invalid {
        name: &'static str,
        expected: &'static str,
        value: String,
    },
}

#[derive(Clone, Debug)]
pub struct Config {
    pub host: String,
    pub port: u16,
    /// `postgres://user:pass@host:port/db`, which sqlx takes as it is.
    pub database_url: String,
    pub db_pool_size: u32,
    pub avatar_base_url: String,
    pub avatar_count: u32,
    pub log_requests: bool,
    /// The stock upstream's base URL: `http://`, a host and a port, no path.
    pub stock_url: Url,
}

impl Config {
    pub fn from_env() -> Result<Self, ConfigError> {
        Ok(Self {
            host: env::var("HOST").unwrap_or_else(|_| "127.0.0.1".to_owned()),
            port: parse_or("PORT", 8080, "a port number", |p: &u16| *p > 0)?,
            database_url: env::var("DATABASE_URL")
                .ok()
                .filter(|url| !url.is_empty())
                .ok_or(ConfigError::Missing("DATABASE_URL"))?,
            db_pool_size: parse_or("DB_POOL_SIZE", 10, "a positive integer", |n: &u32| *n > 0)?,
            avatar_base_url: env::var("AVATAR_BASE_URL")
                .unwrap_or_else(|_| "https://avatar.example.com".to_owned()),
            avatar_count: parse_or("AVATAR_COUNT", 21, "a positive integer", |n: &u32| *n > 0)?,
            log_requests: parse_or("LOG_REQUESTS", false, "true or false", |_: &bool| true)?,
            stock_url: stock_url()?,
        })
    }
}

/// `STOCK_URL`, `http://127.0.0.1:8099` when unset.
fn stock_url() -> Result<Url, ConfigError> {
    let value = env::var("STOCK_URL").unwrap_or_else(|_| "http://127.0.0.1:8099".to_owned());
    http_base_url(&value).ok_or(ConfigError::Invalid {
        name: "STOCK_URL",
        expected: "an http:// URL with a host and no path",
        value,
    })
}

/// The URL parser reads `http://host:8099` and `http://host:8099/` alike (path `/`); another
/// scheme, a path, a query or a fragment make it no base URL for the upstream. Only `http`:
/// the client is built without TLS.
fn http_base_url(value: &str) -> Option<Url> {
    Url::parse(value).ok().filter(|url| {
        url.scheme() == "http"
            && url.has_host()
            && url.path() == "/"
            && url.query().is_none()
            && url.fragment().is_none()
    })
}

fn parse_or<T: FromStr>(
    name: &'static str,
    default: T,
    expected: &'static str,
    valid: impl Fn(&T) -> bool,
) -> Result<T, ConfigError> {
    match env::var(name) {
        Err(_) => Ok(default),
        Ok(value) => value
            .trim()
            .parse()
            .ok()
            .filter(|parsed| valid(parsed))
            .ok_or(ConfigError::Invalid {
                name,
                expected,
                value,
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stock_url_is_an_http_base_url() {
        for valid in [
            "http://127.0.0.1:8099",
            "http://127.0.0.1:8099/",
            "http://stock:8080",
            "http://[::1]:8099",
        ] {
            assert!(http_base_url(valid).is_some(), "{valid}");
        }
        for invalid in [
            "",
            "127.0.0.1:8099",
            "stock:8099",
            "https://stock:8099",
            "ftp://stock",
            "http://stock:8099/api",
            "http://stock:8099//",
            "http://stock:8099/?x=1",
            "http://stock:99999",
        ] {
            assert!(http_base_url(invalid).is_none(), "{invalid}");
        }
    }
}
