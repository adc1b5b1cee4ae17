from fastapi import APIRouter

from app.api.routes import avatar, categories, health, items, stock

api_router = APIRouter()
api_router.include_router(categories.router)
api_router.include_router(items.router)
api_router.include_router(stock.router)
api_router.include_router(avatar.router)
api_router.include_router(health.router)
