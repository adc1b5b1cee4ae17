use sqlx::PgPool;
use time::OffsetDateTime;

use super::{Entity, Error, OnViolation, Result};

/// A row of `category`.
#[derive(Debug)]
pub struct Category {
    pub id: i64,
    pub code: String,
    pub name: String,
    pub updated_at: OffsetDateTime,
}

/// A validated write body: `code` and `name` as the client sent them.
#[derive(Debug)]
pub struct CategoryInput {
    pub code: String,
    pub name: String,
}

pub async fn count(db: &PgPool) -> Result<i64> {
    Ok(
        sqlx::query_scalar!(r#"SELECT count(*) AS "count!" FROM category"#)
            .fetch_one(db)
            .await?,
    )
}

pub async fn list(db: &PgPool, limit: i64, offset: i64) -> Result<Vec<Category>> {
    Ok(sqlx::query_as!(
        Category,
        "SELECT id, code, name, updated_at FROM category ORDER BY id LIMIT $1 OFFSET $2",
        limit,
        offset
    )
    .fetch_all(db)
    .await?)
}

pub async fn find(db: &PgPool, id: i64) -> Result<Category> {
    sqlx::query_as!(
        Category,
        "SELECT id, code, name, updated_at FROM category WHERE id = $1",
        id
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| not_found(id))
}

/// A unique violation here can only be the code: ids come from the sequence.
pub async fn insert(db: &PgPool, input: &CategoryInput) -> Result<Category> {
    sqlx::query_as!(
        Category,
        "INSERT INTO category (code, name) VALUES ($1, $2) RETURNING id, code, name, updated_at",
        input.code,
        input.name
    )
    .fetch_one(db)
    .await
    .on_unique_violation(|| Error::CodeTaken(input.code.clone()))
}

pub async fn update(db: &PgPool, id: i64, input: &CategoryInput) -> Result<Category> {
    sqlx::query_as!(
        Category,
        "UPDATE category SET code = $2, name = $3, updated_at = now() WHERE id = $1
         RETURNING id, code, name, updated_at",
        id,
        input.code,
        input.name
    )
    .fetch_optional(db)
    .await
    .on_unique_violation(|| Error::CodeTaken(input.code.clone()))?
    .ok_or_else(|| not_found(id))
}

/// A foreign-key violation on a category delete: items still reference it.
pub async fn delete(db: &PgPool, id: i64) -> Result<()> {
    let result = sqlx::query!("DELETE FROM category WHERE id = $1", id)
        .execute(db)
        .await
        .on_foreign_key_violation(|| Error::CategoryInUse(id))?;
    if result.rows_affected() == 0 {
        return Err(not_found(id));
    }
    Ok(())
}

pub(super) fn not_found(id: i64) -> Error {
    Error::NotFound {
        entity: Entity::Category,
        id,
    }
}
