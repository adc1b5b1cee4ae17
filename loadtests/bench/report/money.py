"""What a stack costs a month at a rate, on an offer of the price list (docs/prices.toml).

The app's cores and memory at the rate (bench.report.at_rate) are each divided by a target
utilisation, so that a stack needing 0.3 cores at 60% is given 0.5 vCPU, and then priced: on a
per-resource offer at exactly that size, on a VM family as the cheapest instance that fits both.
PostgreSQL's cores are priced the same way beside the app's, never added to them: the database is
often a service of its own. A stack that does not hold the rate in every run gets no price.

The page does the same sum with the reader's offer and utilisation (site.js, `priceOf`); its browser
test holds both to a computation of its own. docs/reading-results.md says what a price leaves out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from bench.report.at_rate import Reading
from bench.report.figures import fmt
from bench.report.prices import Offer, PriceList

# A year's 8,760 hours over twelve: the month the providers' own calculators price by.
HOURS_PER_MONTH = 730
DEFAULT_UTILISATION = 0.6
MIB_PER_GIB = 1024


@dataclass(frozen=True)
class Priced:
    monthly: float | None
    """None: more than the family's largest instance."""
    instance: str | None
    """The instance size chosen on a VM family; None on a per-resource offer."""


def price_of(offer: Offer, vcpus: float, memory_gib: float) -> Priced:
    """`vcpus` and `memory_gib` a month on `offer`."""
    if offer.kind == "per-resource":
        assert offer.per_vcpu_hour is not None and offer.per_gib_hour is not None
        return Priced(HOURS_PER_MONTH * (vcpus * offer.per_vcpu_hour + memory_gib * offer.per_gib_hour), None)
    fitting = [i for i in offer.instances if i.vcpus >= vcpus and i.memory_gib >= memory_gib]
    if not fitting:
        return Priced(None, None)
    cheapest = min(fitting, key=lambda i: (i.per_hour, i.vcpus, i.memory_gib))
    return Priced(HOURS_PER_MONTH * cheapest.per_hour, cheapest.name)


@dataclass(frozen=True)
class Bill:
    app: Priced
    postgres: Priced | None
    """PostgreSQL's cores alone (its memory and storage are not measured per request); None where
    the steps have no PostgreSQL CPU figure."""


def bill_at(reading: Reading, offer: Offer, utilisation: float = DEFAULT_UTILISATION) -> Bill | None:
    """The month's price of a stack at the reading's rate; None where it does not hold the rate in
    every run or has no CPU or memory figure there."""
    if not 0 < utilisation <= 1:
        raise ValueError(f"a utilisation is above 0 and at most 1, not {utilisation}")
    if not reading.holds:
        return None
    figures = reading.figures()
    app_cores, memory_mib, postgres_cores = figures["app_cores"], figures["memory_mib"], figures["postgres_cores"]
    if app_cores is None or memory_mib is None:
        return None
    app = price_of(offer, app_cores / utilisation, memory_mib / MIB_PER_GIB / utilisation)
    postgres = None if postgres_cores is None else price_of(offer, postgres_cores / utilisation, 0.0)
    return Bill(app, postgres)


def money(value: float, currency: str) -> str:
    """A month's price as results.md and the page print it: cents, thousands separated."""
    amount = fmt(value, 2)
    return f"${amount}" if currency == "USD" else f"{amount} {currency}"


def said_priced(priced: Priced | None, offer: Offer) -> str:
    if priced is None:
        return "–"
    if priced.monthly is None:
        largest = max(offer.instances, key=lambda i: (i.vcpus, i.memory_gib))
        return f"over {largest.name}"
    shown = money(priced.monthly, offer.currency)
    return f"{shown} ({priced.instance})" if priced.instance else shown


def offer_words(offer: Offer) -> str:
    """The offer as the page and results.md name it, with where and when its prices were read."""
    return f"{offer.provider} {offer.offer}, {offer.region}, {offer.currency}; prices read {offer.read_on:%Y-%m-%d}"


def money_table(
    names: list[str], scenarios: list[str], readings: dict[tuple[str, str], Reading], prices: PriceList
) -> list[str]:
    """results.md's table of prices: each stack (`names`, in the summary's order) in each scenario at
    the reading it has there (the summary's, at the scenario's common rate), on the default offer."""
    offer = next(o for o in prices.offers if o.id == prices.default)
    rates = {s: next((r.rate for (_, scenario), r in readings.items() if scenario == s), None) for s in scenarios}
    lines = [
        "",
        f"What that costs a month on {offer_words(offer)} ([source]({offer.source})): the app's cores and "
        f"memory at the common rate, each divided by a target utilisation of {DEFAULT_UTILISATION:.0%}, "
        "then PostgreSQL's cores alone on the same terms, priced beside it and not added in; "
        f"{HOURS_PER_MONTH} hours a month. Not priced: network, storage, the database's memory and "
        "instance, discounts for commitment ([reading the results](docs/reading-results.md#prices)). "
        "The page prices any rate, on every offer of docs/prices.toml, at the utilisation one picks.",
        "",
        "| stack | " + " | ".join(f"{s} @ {fmt(rates[s])}/s: app · PostgreSQL" for s in scenarios if rates[s]) + " |",
        "|" + " --- |" * (1 + sum(1 for s in scenarios if rates[s])),
    ]
    for name in names:
        row = []
        for s in scenarios:
            if not rates[s]:
                continue
            reading = readings.get((name, s))
            bill = None if reading is None else bill_at(reading, offer)
            if reading is None:
                row.append("–")
            elif bill is None:
                row.append(f"– ({reading.answer()})" if not reading.holds else "– (no CPU or memory figure)")
            else:
                row.append(f"{said_priced(bill.app, offer)} · {said_priced(bill.postgres, offer)}")
        lines.append(f"| {name} | " + " | ".join(row) + " |")
    return lines


class InstanceData(TypedDict):
    name: str
    vcpus: int
    memory_gib: float
    per_hour: float


class OfferData(TypedDict):
    id: str
    label: str
    """offer_words: the provider, the offer, the region, the currency and the date."""
    kind: str
    currency: str
    per_vcpu_hour: float | None
    per_gib_hour: float | None
    instances: list[InstanceData]
    read_on: str
    source: str


class PriceData(TypedDict):
    """The price list as the page prices with it (site.js, `priceOf`)."""

    default: str
    hours_per_month: int
    utilisation: float
    offers: list[OfferData]


def price_data(prices: PriceList) -> PriceData:
    return {
        "default": prices.default,
        "hours_per_month": HOURS_PER_MONTH,
        "utilisation": DEFAULT_UTILISATION,
        "offers": [
            {
                "id": offer.id,
                "label": offer_words(offer),
                "kind": offer.kind,
                "currency": offer.currency,
                "per_vcpu_hour": offer.per_vcpu_hour,
                "per_gib_hour": offer.per_gib_hour,
                "instances": [
                    {"name": i.name, "vcpus": i.vcpus, "memory_gib": i.memory_gib, "per_hour": i.per_hour}
                    for i in offer.instances
                ],
                "read_on": offer.read_on.isoformat(),
                "source": str(offer.source),
            }
            for offer in prices.offers
        ],
    }
