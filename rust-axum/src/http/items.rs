use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use rust_decimal::Decimal;
use serde::Serialize;
use time::OffsetDateTime;

use super::ApiContext;
use super::error::Error;
use super::extract::{AppJson, AppPath, CategoryFilter, Paging};
use super::fields::JsonObject;
use super::page::Page;
use crate::db::items::{self, ItemInput};

pub fn router() -> Router<ApiContext> {
    Router::new()
        .route("/items", get(list).post(create))
        .route("/items/{id}", get(show).put(update).delete(remove))
        .route("/categories/{id}/items", get(list_in_category))
}

/// An item as the API writes it, with its category embedded.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Item {
    id: i64,
    sku: String,
    name: String,
    #[serde(with = "rust_decimal::serde::float")]
    price: Decimal,
    stock: i32,
    description: Option<String>,
    category_id: i64,
    category: CategoryRef,
    #[serde(with = "time::serde::rfc3339")]
    updated_at: OffsetDateTime,
}

/// The category embedded in an item.
#[derive(Debug, Serialize)]
struct CategoryRef {
    id: i64,
    code: String,
    name: String,
}

impl From<items::Item> for Item {
    fn from(row: items::Item) -> Self {
        Self {
            id: row.id,
            sku: row.sku,
            name: row.name,
            price: row.price,
            stock: row.stock,
            description: row.description,
            category_id: row.category_id,
            category: CategoryRef {
                id: row.category_id,
                code: row.category_code,
                name: row.category_name,
            },
            updated_at: row.updated_at,
        }
    }
}

async fn list(
    State(ctx): State<ApiContext>,
    paging: Paging,
    CategoryFilter(category_id): CategoryFilter,
) -> Result<Json<Page<Item>>, Error> {
    let page = match category_id {
        None => {
            let total = items::count(&ctx.db).await?;
            Page::fetch(paging, total, async |limit, offset| {
                items::list(&ctx.db, limit, offset).await
            })
            .await?
        }
        Some(category_id) => {
            // An unknown category is not an error here: its page is simply empty.
            let total = items::count_in_category(&ctx.db, category_id)
                .await?
                .unwrap_or(0);
            Page::fetch(paging, total, async |limit, offset| {
                items::list_in_category(&ctx.db, category_id, limit, offset).await
            })
            .await?
        }
    };
    Ok(Json(page))
}

async fn list_in_category(
    State(ctx): State<ApiContext>,
    AppPath(category_id): AppPath<i64>,
    paging: Paging,
) -> Result<Json<Page<Item>>, Error> {
    let total = items::count_in_existing_category(&ctx.db, category_id).await?;
    let page = Page::fetch(paging, total, async |limit, offset| {
        items::list_in_category(&ctx.db, category_id, limit, offset).await
    })
    .await?;
    Ok(Json(page))
}

async fn show(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
) -> Result<Json<Item>, Error> {
    Ok(Json(items::find(&ctx.db, id).await?.into()))
}

async fn create(
    State(ctx): State<ApiContext>,
    AppJson(body): AppJson<JsonObject>,
) -> Result<impl IntoResponse, Error> {
    let input = parse_body(body)?;
    let item = Item::from(items::insert(&ctx.db, &input).await?);
    let location = format!("/items/{}", item.id);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(item),
    ))
}

async fn update(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
    AppJson(body): AppJson<JsonObject>,
) -> Result<Json<Item>, Error> {
    let input = parse_body(body)?;
    Ok(Json(items::update(&ctx.db, id, &input).await?.into()))
}

async fn remove(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
) -> Result<StatusCode, Error> {
    items::delete(&ctx.db, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

fn parse_body(mut body: JsonObject) -> Result<ItemInput, Error> {
    let sku = body.required_string("sku", 64);
    let name = body.required_string("name", 128);
    let price = body.price("price");
    let stock = body.integer(
        "stock",
        0,
        i32::MAX,
        "must be an integer from 0 to 2147483647",
    );
    let description = body.optional_string("description", 16384);
    // 0 and negative ids are well formed; like any unknown id, the database rejects them.
    let category_id = body.integer(
        "categoryId",
        i64::MIN,
        i64::MAX,
        "must be the id of a category (a 64-bit integer)",
    );
    match (sku, name, price, stock, description, category_id) {
        (Ok(sku), Ok(name), Ok(price), Ok(stock), Ok(description), Ok(category_id)) => {
            Ok(ItemInput {
                sku,
                name,
                price,
                stock,
                description,
                category_id,
            })
        }
        (sku, name, price, stock, description, category_id) => Err(Error::UnprocessableContent(
            [
                sku.err(),
                name.err(),
                price.err(),
                stock.err(),
                description.err(),
                category_id.err(),
            ]
            .into_iter()
            .flatten()
            .collect(),
        )),
    }
}
