use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};

use super::ApiContext;
use super::error::{Error, ResultExt};
use super::extract::{AppJson, AppPath, Paging};
use super::fields::JsonObject;
use super::page::Page;
use crate::db::categories::{self, Category, CategoryInput};

const CODE_KEY: &str = "category_code_key";
/// `item.category_id` referencing the category: a delete while items remain.
const ITEM_CATEGORY_FK: &str = "item_category_id_fkey";

pub fn router() -> Router<ApiContext> {
    Router::new()
        .route("/categories", get(list).post(create))
        .route("/categories/{id}", get(show).put(update).delete(remove))
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
    categories::find(&ctx.db, id)
        .await?
        .map(Json)
        .ok_or_else(|| not_found(id))
}

async fn create(
    State(ctx): State<ApiContext>,
    AppJson(body): AppJson<JsonObject>,
) -> Result<impl IntoResponse, Error> {
    let input = parse_body(body)?;
    let category = categories::insert(&ctx.db, &input)
        .await
        .on_constraint(CODE_KEY, |_| code_taken(&input))?;
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
    categories::update(&ctx.db, id, &input)
        .await
        .on_constraint(CODE_KEY, |_| code_taken(&input))?
        .map(Json)
        .ok_or_else(|| not_found(id))
}

async fn remove(
    State(ctx): State<ApiContext>,
    AppPath(id): AppPath<i64>,
) -> Result<StatusCode, Error> {
    let deleted = categories::delete(&ctx.db, id)
        .await
        .on_constraint(ITEM_CATEGORY_FK, |_| {
            Error::Conflict(format!("category {id} still has items"))
        })?;
    if deleted {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(not_found(id))
    }
}

fn parse_body(mut body: JsonObject) -> Result<CategoryInput, Error> {
    let code = body.required_string("code", 32);
    let name = body.required_string("name", 128);
    match (code, name) {
        (Ok(code), Ok(name)) => Ok(CategoryInput { code, name }),
        (code, name) => Err(Error::UnprocessableEntity(
            [code.err(), name.err()].into_iter().flatten().collect(),
        )),
    }
}

pub(super) fn not_found(id: i64) -> Error {
    Error::NotFound(format!("category {id} not found"))
}

fn code_taken(input: &CategoryInput) -> Error {
    Error::Conflict(format!("code {} already exists", input.code))
}
