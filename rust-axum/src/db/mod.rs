//! Data access: SQL only. Functions take the pool and return this module's [`Error`], which says
//! in the domain's words what went wrong (a taken code, an unknown category, the database gone);
//! what that means to a client is decided in one place, `crate::http::Error`.
//!
//! Queries are checked at compile time by `sqlx::query!` against the prepared data in `.sqlx/`
//! (`SQLX_OFFLINE=true` in `.cargo/config.toml`), so building needs no live database.

pub mod categories;
pub mod items;

use std::fmt;
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgPoolOptions;

/// What can go wrong in data access.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{entity} {id} not found")]
    NotFound { entity: Entity, id: i64 },

    /// Another category already has this code.
    #[error("code {0} already exists")]
    CodeTaken(String),

    /// Another item already has this sku.
    #[error("sku {0} already exists")]
    SkuTaken(String),

    /// An item names a category that does not exist.
    #[error("category {0} does not exist")]
    UnknownCategory(i64),

    /// A category cannot be deleted while items reference it.
    #[error("category {0} still has items")]
    CategoryInUse(i64),

    /// PostgreSQL cannot be used right now (see [`is_unavailable`]).
    #[error("the database is unavailable")]
    Unavailable(#[source] sqlx::Error),

    /// Anything else: a bug, never shown to a client beyond "internal error".
    #[error("unexpected database error")]
    Unexpected(#[source] sqlx::Error),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entity {
    Category,
    Item,
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Category => "category",
            Self::Item => "item",
        })
    }
}

impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Self {
        if is_unavailable(&error) {
            Self::Unavailable(error)
        } else {
            Self::Unexpected(error)
        }
    }
}

/// The one classifier of "the database is not there" (spec/README.md): SQLSTATE class 08
/// (connection exception), class 53 (insufficient resources, such as 53300 too many connections)
/// and class 57P (57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, …); the
/// driver's own I/O failures (refused, reset, closed, EOF); and the pool's 5 s acquire timeout.
/// Any other error, whatever its SQLSTATE (57014 query_canceled, XX000, 40P01, …), is not.
pub fn is_unavailable(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_) => true,
        sqlx::Error::Database(e) => e.code().is_some_and(|code| {
            code.starts_with("08") || code.starts_with("53") || code.starts_with("57P")
        }),
        _ => false,
    }
}

/// What a constraint violation means depends on the statement that raised it, so each write
/// says so where it runs: the violation is recognised by its SQLSTATE (23505, 23503), and any
/// other integrity error (23502, 23514, …) stays [`Error::Unexpected`].
trait OnViolation<T> {
    /// Maps a unique violation (23505).
    fn on_unique_violation(self, domain: impl FnOnce() -> Error) -> Result<T>;
    /// Maps a foreign-key violation (23503).
    fn on_foreign_key_violation(self, domain: impl FnOnce() -> Error) -> Result<T>;
}

impl<T, E: Into<Error>> OnViolation<T> for Result<T, E> {
    fn on_unique_violation(self, domain: impl FnOnce() -> Error) -> Result<T> {
        self.map_err(|e| match e.into() {
            Error::Unexpected(sqlx::Error::Database(e)) if e.is_unique_violation() => domain(),
            other => other,
        })
    }

    fn on_foreign_key_violation(self, domain: impl FnOnce() -> Error) -> Result<T> {
        self.map_err(|e| match e.into() {
            Error::Unexpected(sqlx::Error::Database(e)) if e.is_foreign_key_violation() => domain(),
            other => other,
        })
    }
}

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

/// `SELECT 1`, the readiness check: whatever makes it fail, the database is not usable.
pub async fn ping(db: &PgPool) -> Result<()> {
    sqlx::query!("SELECT 1 AS one")
        .fetch_one(db)
        .await
        .map_err(Error::Unavailable)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::error::Error as StdError;
    use std::io::ErrorKind;

    use serde::Serialize;
    use serde::de::DeserializeOwned;
    use sqlx::error::DatabaseError;
    use static_assertions::assert_not_impl_any;

    use super::*;

    // What a row looks like as JSON is the HTTP layer's business (docs/style.md): it converts
    // these types into its own. Deriving serde on one of them again breaks this module's build
    // ("type annotations needed" at the line that names it).
    assert_not_impl_any!(categories::Category: Serialize, DeserializeOwned);
    assert_not_impl_any!(categories::CategoryInput: Serialize, DeserializeOwned);
    assert_not_impl_any!(items::Item: Serialize, DeserializeOwned);
    assert_not_impl_any!(items::ItemInput: Serialize, DeserializeOwned);

    /// A PostgreSQL error with just a SQLSTATE, as the driver would report it.
    #[derive(Debug, thiserror::Error)]
    #[error("SQLSTATE {0}")]
    struct Sqlstate(&'static str);

    impl DatabaseError for Sqlstate {
        fn message(&self) -> &str {
            "test"
        }
        fn code(&self) -> Option<Cow<'_, str>> {
            Some(Cow::Borrowed(self.0))
        }
        fn as_error(&self) -> &(dyn StdError + Send + Sync + 'static) {
            self
        }
        fn as_error_mut(&mut self) -> &mut (dyn StdError + Send + Sync + 'static) {
            self
        }
        fn into_error(self: Box<Self>) -> Box<dyn StdError + Send + Sync + 'static> {
            self
        }
        // As sqlx's PostgreSQL driver derives it from the SQLSTATE.
        fn kind(&self) -> sqlx::error::ErrorKind {
            use sqlx::error::ErrorKind as Kind;
            match self.0 {
                "23505" => Kind::UniqueViolation,
                "23503" => Kind::ForeignKeyViolation,
                "23502" => Kind::NotNullViolation,
                "23514" => Kind::CheckViolation,
                _ => Kind::Other,
            }
        }
    }

    fn sqlstate(code: &'static str) -> sqlx::Error {
        sqlx::Error::Database(Box::new(Sqlstate(code)))
    }

    fn io(kind: ErrorKind) -> sqlx::Error {
        std::io::Error::from(kind).into()
    }

    #[test]
    fn what_counts_as_unavailable() {
        let cases: Vec<(&str, sqlx::Error, bool)> = vec![
            ("08006 connection_failure", sqlstate("08006"), true),
            ("08001 unable to connect", sqlstate("08001"), true),
            ("08P01 protocol_violation", sqlstate("08P01"), true),
            ("53300 too_many_connections", sqlstate("53300"), true),
            ("53100 disk_full", sqlstate("53100"), true),
            ("57P01 admin_shutdown", sqlstate("57P01"), true),
            ("57P02 crash_shutdown", sqlstate("57P02"), true),
            ("57P03 cannot_connect_now", sqlstate("57P03"), true),
            ("refused", io(ErrorKind::ConnectionRefused), true),
            ("reset", io(ErrorKind::ConnectionReset), true),
            ("EOF", io(ErrorKind::UnexpectedEof), true),
            ("pool acquire timeout", sqlx::Error::PoolTimedOut, true),
            ("pool closed", sqlx::Error::PoolClosed, true),
            ("23505 unique_violation", sqlstate("23505"), false),
            ("23503 foreign_key_violation", sqlstate("23503"), false),
            ("57014 query_canceled", sqlstate("57014"), false),
            ("XX000 internal_error", sqlstate("XX000"), false),
            ("40P01 deadlock_detected", sqlstate("40P01"), false),
            ("42P01 undefined_table", sqlstate("42P01"), false),
            ("no row", sqlx::Error::RowNotFound, false),
            (
                "protocol",
                sqlx::Error::Protocol("bad message".into()),
                false,
            ),
        ];
        for (name, error, unavailable) in cases {
            assert_eq!(is_unavailable(&error), unavailable, "{name}");
            let mapped = Error::from(error);
            assert_eq!(
                matches!(mapped, Error::Unavailable(_)),
                unavailable,
                "{name}: {mapped:?}"
            );
        }
    }

    #[test]
    fn violations_are_recognised_by_sqlstate_and_the_statement() {
        let item_write = |code| -> Result<()> {
            Err(sqlstate(code))
                .on_unique_violation(|| Error::SkuTaken("SKU-1".into()))
                .on_foreign_key_violation(|| Error::UnknownCategory(9))
        };
        assert!(matches!(item_write("23505"), Err(Error::SkuTaken(sku)) if sku == "SKU-1"));
        assert!(matches!(
            item_write("23503"),
            Err(Error::UnknownCategory(9))
        ));
        // Any other integrity error is unexpected (a logged 500), not a conflict.
        for code in ["23502", "23514", "23P01"] {
            assert!(
                matches!(item_write(code), Err(Error::Unexpected(_))),
                "{code}"
            );
        }
        assert!(matches!(item_write("57P01"), Err(Error::Unavailable(_))));

        let category_delete = |code| -> Result<()> {
            Err(sqlstate(code)).on_foreign_key_violation(|| Error::CategoryInUse(3))
        };
        assert!(matches!(
            category_delete("23503"),
            Err(Error::CategoryInUse(3))
        ));
        assert!(matches!(
            category_delete("23505"),
            Err(Error::Unexpected(_))
        ));
    }
}
