from fastapi import APIRouter

from app import crud
from app.api.deps import ReadSessionDep

router = APIRouter(tags=["health"])


@router.get("/health")
async def health(session: ReadSessionDep) -> dict[str, str]:
    # A database failure propagates to the error handlers, which answer 503.
    await crud.ping(session)
    return {"status": "UP"}
