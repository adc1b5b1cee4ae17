"""The price list (docs/prices.toml): cloud offers a stack's cores and memory can be priced on,
each with the date its prices were read and where. A price with no source or no date is refused:
a figure a reader cannot check does not go on the page."""

from __future__ import annotations

import tomllib
from datetime import date
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, HttpUrl, ValidationError, model_validator

from bench import paths
from bench.errors import BenchError

PRICES_PATH = paths.ROOT / "docs" / "prices.toml"

Price = Annotated[float, Field(gt=0)]


class Instance(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    vcpus: Annotated[int, Field(gt=0)]
    memory_gib: Annotated[float, Field(gt=0)]
    per_hour: Price


class Offer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")]
    provider: str
    offer: str
    kind: Literal["per-resource", "instances"]
    region: str
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
    read_on: date
    source: HttpUrl
    per_vcpu_hour: Price | None = None
    per_gib_hour: Price | None = None
    instances: tuple[Instance, ...] = ()
    specs_source: HttpUrl | None = None
    specs_read_on: date | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _priced_as_its_kind(self) -> Offer:
        if self.kind == "per-resource" and (self.per_vcpu_hour is None or self.per_gib_hour is None or self.instances):
            raise ValueError("kind = 'per-resource' is priced by per_vcpu_hour and per_gib_hour, with no instances")
        if self.kind == "instances" and (not self.instances or self.per_vcpu_hour or self.per_gib_hour):
            raise ValueError("kind = 'instances' is priced by its instances, with no per-resource prices")
        if (self.specs_source is None) != (self.specs_read_on is None):
            raise ValueError("specs_source and specs_read_on go together")
        return self


class PriceList(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    default: str
    offers: tuple[Offer, ...]

    @model_validator(mode="after")
    def _default_is_an_offer(self) -> PriceList:
        ids = [offer.id for offer in self.offers]
        if len(set(ids)) != len(ids):
            raise ValueError(f"offer ids must be unique ({', '.join(sorted({i for i in ids if ids.count(i) > 1}))})")
        if self.default not in ids:
            raise ValueError(f"default {self.default!r} is not an offer's id ({', '.join(ids)})")
        return self


def load_prices(path: Path = PRICES_PATH) -> PriceList:
    """The price list of `path`; an offer that does not fit the model is an error naming it."""
    try:
        table = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BenchError(f"{path}: {error}") from None
    try:
        return PriceList.model_validate(table)
    except ValidationError as error:
        problems = []
        for e in error.errors():
            where = list(e["loc"])
            if where[:1] == ["offers"] and len(where) > 1 and isinstance(where[1], int):
                offers = table.get("offers", [])
                offer = offers[where[1]] if where[1] < len(offers) else {}
                where[1] = offer.get("id", f"offer {where[1] + 1}") if isinstance(offer, dict) else where[1]
            problems.append(f"{'.'.join(map(str, where)) or 'the list'}: {e['msg']}")
        raise BenchError(f"{path}: {'; '.join(problems)}") from None
