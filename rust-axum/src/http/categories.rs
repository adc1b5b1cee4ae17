use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use time::OffsetDateTime;

use super::ApiContext;
use super::error::Error;
use super::extract::{AppJson, AppPath, Paging};
use super::fields::JsonObject;
use super::page::Page;
use crate::db::categories::{self, CategoryInput};

pub fn router() -> Router<ApiContext> {
    Router::new()
        .route("/categories", get(list).post(create))
        .route("/categories/{id}", get(show).put(update).delete(remove))
}

/// A category as the API writes it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Category {
    id: i64,
    code: String,
    name: String,
    #[serde(with = "time::serde::rfc3339")]
    updated_at: OffsetDateTime,
}

impl From<categories::Category> for Category {
    fn from(row: categories::Category) -> Self {
        Self {
            id: row.id,
            code: row.code,
            name: row.name,
            updated_at: row.updated_at,
        }
    }
}

async fn list(
    State(ctx): State<ApiContext>,
    paging: Paging,
) -> Result<Json<Page<Category>>, Error> {
    let total = categories::count(&ctx.db).await?;
    let page = Page::fetch(paging, total, async |limit, offset| {
        categories::list(&ctx.db, limit, offset).await
    })
    .await?;
    Ok(Json(page))
}

async fn show(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
) -> Result<Json<Category>, Error> {
    Ok(Json(categories::find(&ctx.db, id).await?.into()))
}

async fn create(
    State(ctx): State<ApiContext>,
    AppJson(body): AppJson<JsonObject>,
) -> Result<impl IntoResponse, Error> {
    let input = parse_body(body)?;
    let category = Category::from(categories::insert(&ctx.db, &input).await?);
    let location = format!("/categories/{}", category.id);
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, location)],
        Json(category),
    ))
}

async fn update(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
    AppJson(body): AppJson<JsonObject>,
) -> Result<Json<Category>, Error> {
    let input = parse_body(body)?;
    Ok(Json(categories::update(&ctx.db, id, &input).await?.into()))
}

async fn remove(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
) -> Result<StatusCode, Error> {
    categories::delete(&ctx.db, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

fn parse_body(mut body: JsonObject) -> Result<CategoryInput, Error> {
    let code = body.required_string("code", 32);
    let name = body.required_string("name", 128);
    match (code, name) {
        (Ok(code), Ok(name)) => Ok(CategoryInput { code, name }),
        (code, name) => Err(Error::UnprocessableContent(
            [code.err(), name.err()].into_iter().flatten().collect(),
        )),
    }
}
