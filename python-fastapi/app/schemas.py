"""Request and response bodies: Create/Update validate what clients send, Public is what they get."""

from datetime import datetime
from decimal import ROUND_DOWN, Decimal
from typing import Annotated, Any, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

INT32_MAX = 2**31 - 1
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_PRICE = Decimal("99999999.99")
CENT = Decimal("0.01")


def _not_blank(value: str) -> str:
    # API.md's "blank": empty or only spaces, tabs, CR and LF (str.isspace() would take more).
    if not value.strip(" \t\r\n"):
        raise PydanticCustomError("blank", "must not be blank")
    return value


def _storable(value: str) -> str:
    # PostgreSQL text cannot hold U+0000, and UTF-8 cannot encode a lone surrogate ("\ud800"
    # is valid JSON): both would otherwise fail in the database as a 500.
    if "\x00" in value:
        raise PydanticCustomError("string_nul", "must not contain the character U+0000")
    if not value.isascii() and any("\ud800" <= c <= "\udfff" for c in value):
        raise PydanticCustomError("string_surrogate", "must not contain unpaired surrogates")
    return value


def _json_number(value: Any) -> Any:
    # Strict Decimal takes only Decimal instances; the body parser makes every JSON number with a
    # fraction or exponent a Decimal (exact, so 1.234 is judged by value), integers stay int.
    # Strings, booleans and null are refused rather than converted.
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        raise PydanticCustomError("decimal_type", "must be a number")
    return Decimal(value)


def _price(value: Decimal) -> Decimal:
    if not 0 <= value <= MAX_PRICE:
        raise PydanticCustomError("price_range", "must be between 0 and 99999999.99")
    # By value: 1.230 has two decimals, 1.234 three.
    if value != value.quantize(CENT, rounding=ROUND_DOWN):
        raise PydanticCustomError("price_places", "must have at most 2 decimal places")
    return value


StorableStr = Annotated[str, AfterValidator(_storable)]
RequiredStr = Annotated[StorableStr, AfterValidator(_not_blank)]
Price = Annotated[Decimal, BeforeValidator(_json_number), AfterValidator(_price)]
# Pydantic writes Decimal as a JSON string; prices are JSON numbers. numeric(10,2) has at most
# 10 significant digits, so the float prints exactly the stored value.
PublicPrice = Annotated[Decimal, PlainSerializer(float, return_type=float)]


class WriteModel(BaseModel):
    # Strict: "9.99" is not a number and 1.5 is not an integer. Unknown fields, id and updatedAt
    # are ignored.
    model_config = ConfigDict(alias_generator=to_camel, strict=True, extra="ignore")


class PublicModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, from_attributes=True, validate_by_name=True)


class CategoryCreate(WriteModel):
    code: Annotated[RequiredStr, Field(max_length=32)]
    name: Annotated[RequiredStr, Field(max_length=128)]


class CategoryUpdate(CategoryCreate):
    """PUT replaces the whole category, so it obeys the same rules as creation."""


class CategoryPublic(PublicModel):
    id: int
    code: str
    name: str
    updated_at: datetime


class CategoryRef(PublicModel):
    id: int
    code: str
    name: str


class ItemCreate(WriteModel):
    sku: Annotated[RequiredStr, Field(max_length=64)]
    name: Annotated[RequiredStr, Field(max_length=128)]
    price: Price
    stock: Annotated[int, Field(ge=0, le=INT32_MAX)]
    description: Annotated[StorableStr, Field(max_length=16384)] | None = None
    # 0 and negative ids are well formed; like any unknown id, the database rejects them.
    category_id: Annotated[int, Field(ge=INT64_MIN, le=INT64_MAX)]


class ItemUpdate(ItemCreate):
    """PUT replaces the whole item (an omitted description becomes null)."""


class ItemPublic(PublicModel):
    id: int
    sku: str
    name: str
    price: PublicPrice
    stock: int
    description: str | None
    category_id: int
    category: CategoryRef
    updated_at: datetime


class StockRecord(BaseModel):
    """What the stock upstream answers for an item; its other fields are ignored."""

    # Strict: "5", true and 5.0 are no quantity.
    model_config = ConfigDict(strict=True, extra="ignore")

    quantity: Annotated[int, Field(ge=0, le=INT32_MAX)]


class StockPublic(PublicModel):
    item_id: int
    quantity: int


class PageMeta(PublicModel):
    size: int
    number: int
    total_elements: int
    total_pages: int

    @classmethod
    def of(cls, number: int, size: int, total_elements: int) -> "PageMeta":
        return cls(
            size=size,
            number=number,
            total_elements=total_elements,
            total_pages=-(-total_elements // size),
        )


T = TypeVar("T")


class Page(BaseModel, Generic[T]):
    """The envelope Spring Data serialises pages to."""

    content: list[T]
    page: PageMeta
