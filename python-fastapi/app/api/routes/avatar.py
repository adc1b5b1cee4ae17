import random

from fastapi import APIRouter
from fastapi.responses import RedirectResponse

from app.api.deps import SettingsDep

router = APIRouter(tags=["avatar"])


@router.get("/avatar")
async def avatar(settings: SettingsDep) -> RedirectResponse:
    n = random.randint(1, settings.AVATAR_COUNT)
    # RedirectResponse defaults to 307; the contract says 302.
    return RedirectResponse(f"{settings.AVATAR_BASE_URL}/Renard-{n}.png", status_code=302)
