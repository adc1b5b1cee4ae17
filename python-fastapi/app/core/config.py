from functools import lru_cache

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
