import pytest

from app.core.config import ConfigError, Settings, get_settings


def test_database_url_is_turned_into_the_asyncpg_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://bench:secret@db.internal:5433/bench")

    url = Settings().sqlalchemy_database_uri

    assert url.drivername == "postgresql+asyncpg"
    assert (url.username, url.password, url.host, url.port, url.database) == (
        "bench",
        "secret",
        "db.internal",
        5433,
        "bench",
    )


def test_defaults_follow_the_contract(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HOST", "PORT", "DB_POOL_SIZE", "AVATAR_BASE_URL", "AVATAR_COUNT", "LOG_REQUESTS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgres://bench@localhost/bench")

    settings = Settings()

    assert (settings.HOST, settings.PORT, settings.DB_POOL_SIZE) == ("127.0.0.1", 8080, 10)
    assert (settings.AVATAR_BASE_URL, settings.AVATAR_COUNT, settings.LOG_REQUESTS) == (
        "https://avatar.example.com",
        21,
        False,
    )


def test_missing_database_url_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigError, match="DATABASE_URL: Field required") as error:
            get_settings()
        assert "\n" not in str(error.value)
    finally:
        get_settings.cache_clear()
