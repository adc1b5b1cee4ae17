use rust_decimal::Decimal;
use sqlx::PgPool;
use time::OffsetDateTime;

use super::{Entity, Error, OnViolation, Result, categories};

/// A row of `item JOIN category`: the item with its category's code and name, so that a page
/// of items and their categories is one statement.
#[derive(Debug)]
pub struct Item {
    pub id: i64,
    pub sku: String,
    pub name: String,
    pub price: Decimal,
    pub stock: i32,
    pub description: Option<String>,
    pub category_id: i64,
    pub category_code: String,
    pub category_name: String,
    pub updated_at: OffsetDateTime,
}

/// A validated write body.
#[derive(Debug)]
pub struct ItemInput {
    pub sku: String,
    pub name: String,
    pub price: Decimal,
    pub stock: i32,
    pub description: Option<String>,
    pub category_id: i64,
}

pub async fn count(db: &PgPool) -> Result<i64> {
    Ok(
        sqlx::query_scalar!(r#"SELECT count(*) AS "count!" FROM item"#)
            .fetch_one(db)
            .await?,
    )
}

/// The number of items in a category, or `None` when there is no such category: one statement
/// for both, so a category's item page costs two statements in all.
pub async fn count_in_category(db: &PgPool, category_id: i64) -> Result<Option<i64>> {
    let row = sqlx::query!(
        r#"SELECT EXISTS (SELECT 1 FROM category WHERE id = $1) AS "found!",
                  (SELECT count(*) FROM item WHERE category_id = $1) AS "count!""#,
        category_id
    )
    .fetch_one(db)
    .await?;
    Ok(row.found.then_some(row.count))
}

/// [`count_in_category`] for a category that must exist.
pub async fn count_in_existing_category(db: &PgPool, category_id: i64) -> Result<i64> {
    count_in_category(db, category_id)
        .await?
        .ok_or_else(|| categories::not_found(category_id))
}

pub async fn list(db: &PgPool, limit: i64, offset: i64) -> Result<Vec<Item>> {
    Ok(sqlx::query_as!(
        Item,
        "SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id,
                c.code AS category_code, c.name AS category_name, i.updated_at
         FROM item i JOIN category c ON c.id = i.category_id
         ORDER BY i.id LIMIT $1 OFFSET $2",
        limit,
        offset
    )
    .fetch_all(db)
    .await?)
}

pub async fn list_in_category(
    db: &PgPool,
    category_id: i64,
    limit: i64,
    offset: i64,
) -> Result<Vec<Item>> {
    Ok(sqlx::query_as!(
        Item,
        "SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id,
                c.code AS category_code, c.name AS category_name, i.updated_at
         FROM item i JOIN category c ON c.id = i.category_id
         WHERE i.category_id = $1
         ORDER BY i.id LIMIT $2 OFFSET $3",
        category_id,
        limit,
        offset
    )
    .fetch_all(db)
    .await?)
}

pub async fn find(db: &PgPool, id: i64) -> Result<Item> {
    sqlx::query_as!(
        Item,
        "SELECT i.id, i.sku, i.name, i.price, i.stock, i.description, i.category_id,
                c.code AS category_code, c.name AS category_name, i.updated_at
         FROM item i JOIN category c ON c.id = i.category_id
         WHERE i.id = $1",
        id
    )
    .fetch_optional(db)
    .await?
    .ok_or_else(|| not_found(id))
}

/// Inserts and reads back the item with its category in one statement. A unique violation on
/// an item write is its sku being taken, a foreign-key violation its category not existing.
/// PostgreSQL checks the unique index while writing the row and the foreign key at the end of
/// the statement, which gives the contract's "taken key first".
pub async fn insert(db: &PgPool, input: &ItemInput) -> Result<Item> {
    sqlx::query_as!(
        Item,
        r#"WITH i AS (
               INSERT INTO item (sku, name, price, stock, description, category_id)
               VALUES ($1, $2, $3, $4, $5, $6)
               RETURNING id, sku, name, price, stock, description, category_id, updated_at
           )
           SELECT i.id AS "id!", i.sku AS "sku!", i.name AS "name!", i.price AS "price!",
                  i.stock AS "stock!", i.description, i.category_id AS "category_id!",
                  c.code AS category_code, c.name AS category_name, i.updated_at AS "updated_at!"
           FROM i JOIN category c ON c.id = i.category_id"#,
        input.sku,
        input.name,
        input.price,
        input.stock,
        input.description,
        input.category_id
    )
    .fetch_one(db)
    .await
    .on_unique_violation(|| Error::SkuTaken(input.sku.clone()))
    .on_foreign_key_violation(|| Error::UnknownCategory(input.category_id))
}

/// Full replacement, with the violations of [`insert`]. When there is no such item no row is
/// written and no constraint checked, so an absent item answers before an unknown category.
pub async fn update(db: &PgPool, id: i64, input: &ItemInput) -> Result<Item> {
    sqlx::query_as!(
        Item,
        r#"WITH i AS (
               UPDATE item
               SET sku = $2, name = $3, price = $4, stock = $5, description = $6,
                   category_id = $7, updated_at = now()
               WHERE id = $1
               RETURNING id, sku, name, price, stock, description, category_id, updated_at
           )
           SELECT i.id AS "id!", i.sku AS "sku!", i.name AS "name!", i.price AS "price!",
                  i.stock AS "stock!", i.description, i.category_id AS "category_id!",
                  c.code AS category_code, c.name AS category_name, i.updated_at AS "updated_at!"
           FROM i JOIN category c ON c.id = i.category_id"#,
        id,
        input.sku,
        input.name,
        input.price,
        input.stock,
        input.description,
        input.category_id
    )
    .fetch_optional(db)
    .await
    .on_unique_violation(|| Error::SkuTaken(input.sku.clone()))
    .on_foreign_key_violation(|| Error::UnknownCategory(input.category_id))?
    .ok_or_else(|| not_found(id))
}

pub async fn delete(db: &PgPool, id: i64) -> Result<()> {
    let result = sqlx::query!("DELETE FROM item WHERE id = $1", id)
        .execute(db)
        .await?;
    if result.rows_affected() == 0 {
        return Err(not_found(id));
    }
    Ok(())
}

fn not_found(id: i64) -> Error {
    Error::NotFound {
        entity: Entity::Item,
        id,
    }
}
