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
    for name in (
        "HOST",
        "PORT",
        "DB_POOL_SIZE",
        "AVATAR_BASE_URL",
        "AVATAR_COUNT",
        "LOG_REQUESTS",
        "STOCK_URL",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgres://bench@localhost/bench")

    settings = Settings()

    assert (settings.HOST, settings.PORT, settings.DB_POOL_SIZE) == ("127.0.0.1", 8080, 10)
    assert (settings.AVATAR_BASE_URL, settings.AVATAR_COUNT, settings.LOG_REQUESTS) == (
        "https://avatar.example.com",
        21,
        False,
    )
    assert settings.STOCK_URL == "http://127.0.0.1:8099"


def test_missing_database_url_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        with pytest.raises(ConfigError, match="DATABASE_URL: Field required") as error:
            get_settings()
        assert "\n" not in str(error.value)
    finally:
        get_settings.cache_clear()


@pytest.mark.parametrize(
    ("value", "base_url"),
    [
        ("http://127.0.0.1:8099", "http://127.0.0.1:8099"),
        ("http://127.0.0.1:8099/", "http://127.0.0.1:8099"),
        ("http://upstream:8080", "http://upstream:8080"),
        ("http://[::1]:8099/", "http://[::1]:8099"),
    ],
)
def test_stock_url_is_an_http_base_url(monkeypatch: pytest.MonkeyPatch, value: str, base_url: str) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://bench@localhost/bench")
    monkeypatch.setenv("STOCK_URL", value)

    settings = Settings()

    assert base_url == settings.STOCK_URL


@pytest.mark.parametrize(
    "value",
    [
        "",
        "127.0.0.1:8099",
        "upstream:8099",
        "https://upstream:8099",
        "ftp://upstream",
        "http://upstream:8099/api",
        "http://upstream:8099//",
        "http://upstream:8099/?x=1",
        "http://upstream:99999",
        "http://:8099",
    ],
)
def test_stock_url_that_is_no_http_base_url_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://bench@localhost/bench")
    monkeypatch.setenv("STOCK_URL", value)
    get_settings.cache_clear()
    try:
        with pytest.raises(
            ConfigError, match="STOCK_URL: Value error, must be an http://host:port URL"
        ) as error:
            get_settings()
        assert "\n" not in str(error.value)
    finally:
        get_settings.cache_clear()
