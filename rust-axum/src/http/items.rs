use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

use super::ApiContext;
use super::error::Error;
use super::extract::{AppJson, AppPath, CategoryFilter, Paging};
use super::fields::JsonObject;
use super::page::Page;
use crate::db::items::{self, Item, ItemInput};

pub fn router() -> Router<ApiContext> {
    Router::new()
        .route("/items", get(list).post(create))
        .route("/items/{id}", get(show).put(update).delete(remove))
        .route("/categories/{id}/items", get(list_in_category))
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
    Ok(Json(items::find(&ctx.db, id).await?))
}

async fn create(
    State(ctx): State<ApiContext>,
    AppJson(body): AppJson<JsonObject>,
) -> Result<impl IntoResponse, Error> {
    let input = parse_body(body)?;
    let item = items::insert(&ctx.db, &input).await?;
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
    Ok(Json(items::update(&ctx.db, id, &input).await?))
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
