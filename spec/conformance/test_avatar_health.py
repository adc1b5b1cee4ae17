"""The /avatar redirect and the /health readiness answer: the same in every dialect."""

import os

from helpers import assert_json

AVATAR_BASE_URL = os.environ.get("AVATAR_BASE_URL", "https://avatar.example.com")
AVATAR_COUNT = int(os.environ.get("AVATAR_COUNT", "21"))


def test_avatar_is_a_bare_302(client):
    response = client.get("/avatar")
    assert response.status_code == 302
    assert response.content == b""
    location = response.headers["location"]
    assert location.startswith(AVATAR_BASE_URL + "/Renard-") and location.endswith(".png"), location


def test_avatar_spreads_over_every_picture(client):
    # 1,000 draws miss one of 21 pictures with a probability of about 1e-20.
    seen = {client.get("/avatar").headers["location"] for _ in range(1000)}
    assert seen == {f"{AVATAR_BASE_URL}/Renard-{n}.png" for n in range(1, AVATAR_COUNT + 1)}


def test_health_is_up(client):
    # The process contract (spec/API.md) in every dialect: application/json, whatever HAL's types.
    assert assert_json(client.get("/health"), 200) == {"status": "UP"}
