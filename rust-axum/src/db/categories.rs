use serde::Serialize;
use sqlx::PgPool;
use time::OffsetDateTime;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Category {
    pub id: i64,
    pub code: String,
    pub name: String,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

/// A validated write body: `code` and `name` as the client sent them.
#[derive(Debug)]
pub struct CategoryInput {
    pub code: String,
    pub name: String,
}

pub async fn count(db: &PgPool) -> sqlx::Result<i64> {
    sqlx::query_scalar!(r#"SELECT count(*) AS "count!" FROM category"#)
        .fetch_one(db)
        .await
}

pub async fn list(db: &PgPool, limit: i64, offset: i64) -> sqlx::Result<Vec<Category>> {
    sqlx::query_as!(
        Category,
        "SELECT id, code, name, updated_at FROM category ORDER BY id LIMIT $1 OFFSET $2",
        limit,
        offset
    )
    .fetch_all(db)
    .await
}

pub async fn find(db: &PgPool, id: i64) -> sqlx::Result<Option<Category>> {
    sqlx::query_as!(
        Category,
        "SELECT id, code, name, updated_at FROM category WHERE id = $1",
        id
    )
    .fetch_optional(db)
    .await
}

pub async fn insert(db: &PgPool, input: &CategoryInput) -> sqlx::Result<Category> {
    sqlx::query_as!(
        Category,
        "INSERT INTO category (code, name) VALUES ($1, $2) RETURNING id, code, name, updated_at",
        input.code,
        input.name
    )
    .fetch_one(db)
    .await
}

/// `None` when there is no such category.
pub async fn update(db: &PgPool, id: i64, input: &CategoryInput) -> sqlx::Result<Option<Category>> {
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
}

/// `false` when there was no such category.
pub async fn delete(db: &PgPool, id: i64) -> sqlx::Result<bool> {
    let result = sqlx::query!("DELETE FROM category WHERE id = $1", id)
        .execute(db)
        .await?;
    Ok(result.rows_affected() > 0)
}
