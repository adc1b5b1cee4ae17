from functools import lru_cache
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings
from sqlalchemy.engine import URL, make_url


class ConfigError(Exception):
    """The environment does not describe a runnable service."""


class Settings(BaseSettings):
    """Read from the environment only: no .env file, no defaults for the database."""

    HOST: str = "127.0.0.1"
    PORT: int = Field(default=8080, ge=1, le=65535)
    DATABASE_URL: str
    DB_POOL_SIZE: int = Field(default=10, ge=1)
    AVATAR_BASE_URL: str = "https://avatar.example.com"
    AVATAR_COUNT: int = Field(default=21, ge=1)
    LOG_REQUESTS: bool = False
    STOCK_URL: str = "http://127.0.0.1:8099"

    @field_validator("DATABASE_URL")
    @classmethod
    def _postgres_url(cls, value: str) -> str:
        if not value.startswith(("postgres://", "postgresql://")):
            raise ValueError("must be a postgres://user:password@host:port/database URL")
        return value

    @field_validator("AVATAR_BASE_URL")
    @classmethod
    def _without_trailing_slash(cls, value: str) -> str:
        return value.rstrip("/")

    @field_validator("STOCK_URL")
    @classmethod
    def _http_base_url(cls, value: str) -> str:
        # http://host:port, one trailing slash tolerated: the client speaks plain HTTP only.
        url = urlsplit(value)
        try:
            port_ok = url.port != 0
        except ValueError:  # not a number from 0 to 65535
            port_ok = False
        base = url.scheme == "http" and url.hostname and url.path in ("", "/")
        if not (port_ok and base) or url.query or url.fragment:
            raise ValueError("must be an http://host:port URL without a path")
        return f"http://{url.netloc}"

    @property
    def sqlalchemy_database_uri(self) -> URL:
        # One URL form for every stack; SQLAlchemy names its driver in the scheme.
        return make_url(self.DATABASE_URL).set(drivername="postgresql+asyncpg")


@lru_cache
def get_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        raise ConfigError(f"invalid configuration: {problems}") from None
