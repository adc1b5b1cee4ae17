//! Settings, read from the environment only.

use std::env;
use std::str::FromStr;

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
        })
    }
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
