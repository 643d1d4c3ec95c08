"""The ACME figures of SAMPLE_CORPUS.md, transcribed once as plain data.

Every value is kept as the exact literal of the specification ("472.0", not 472.0) because
answers are checked against the text the documents show, trailing zeros included.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Entity:
    """A reporting entity of the ACME group."""

    code: str
    name_zh: str
    name_ja: str
    geography: str


@dataclass(frozen=True, slots=True)
class Metric:
    """A financial metric with its Chinese row label and fact unit."""

    code: str
    name_zh: str
    unit: str


@dataclass(frozen=True, slots=True)
class AnnualRow:
    """One row of the annual table: FY2023, FY2024 and FY2025 literals for a series."""

    entity: str
    metric: str
    channel: str
    values: tuple[str, str, str]

    def value(self, year: str) -> str:
        """Return the literal for a fiscal year such as "2024"."""
        return self.values[YEARS.index(year)]


@dataclass(frozen=True, slots=True)
class QuarterlyRow:
    """Quarterly TOTAL revenue of one entity, 2024Q1 to 2025Q4, as literals."""

    entity: str
    values: tuple[str, ...]

    def value(self, quarter: str) -> str:
        """Return the literal for a quarter such as "2024Q2"."""
        return self.values[QUARTERS.index(quarter)]


YEARS: tuple[str, ...] = ("2023", "2024", "2025")
QUARTERS: tuple[str, ...] = tuple(f"{year}Q{q}" for year in ("2024", "2025") for q in range(1, 5))
CHANNELS: tuple[str, ...] = ("TOTAL", "ONLINE", "OFFLINE")

# Order matters: it is the slide order of the review decks (slides 2 to 5).
ENTITIES: tuple[Entity, ...] = (
    Entity("ACME_CN", "中国内地", "中国本土", "CN"),
    Entity("ACME_HK", "香港", "香港", "HK"),
    Entity("ACME_JP", "日本", "日本", "JP"),
    Entity("ACME_GROUP", "集团", "グループ", "GLOBAL"),
)

# Order matters: it is the row order of every per-entity table.
METRICS: tuple[Metric, ...] = (
    Metric("REVENUE", "营业收入", "USD_M"),
    Metric("GROSS_PROFIT", "毛利", "USD_M"),
    Metric("GROSS_MARGIN", "毛利率", "PCT"),
    Metric("OPERATING_PROFIT", "经营利润", "USD_M"),
    Metric("NET_PROFIT", "净利润", "USD_M"),
    Metric("STORE_COUNT", "门店数", "COUNT"),
)

ANNUAL: tuple[AnnualRow, ...] = (
    AnnualRow("ACME_CN", "REVENUE", "TOTAL", ("1180", "1320", "1452")),
    AnnualRow("ACME_CN", "GROSS_PROFIT", "TOTAL", ("472.0", "541.2", "610.0")),
    AnnualRow("ACME_CN", "GROSS_MARGIN", "TOTAL", ("40.0", "41.0", "42.0")),
    AnnualRow("ACME_CN", "OPERATING_PROFIT", "TOTAL", ("153.4", "184.8", "217.8")),
    AnnualRow("ACME_CN", "NET_PROFIT", "TOTAL", ("112.1", "138.6", "163.4")),
    AnnualRow("ACME_CN", "STORE_COUNT", "TOTAL", ("412", "446", "471")),
    AnnualRow("ACME_CN", "REVENUE", "ONLINE", ("413", "528", "668")),
    AnnualRow("ACME_CN", "REVENUE", "OFFLINE", ("767", "792", "784")),
    AnnualRow("ACME_HK", "REVENUE", "TOTAL", ("365", "338", "351")),
    AnnualRow("ACME_HK", "GROSS_PROFIT", "TOTAL", ("153.3", "138.6", "147.4")),
    AnnualRow("ACME_HK", "GROSS_MARGIN", "TOTAL", ("42.0", "41.0", "42.0")),
    AnnualRow("ACME_HK", "OPERATING_PROFIT", "TOTAL", ("40.2", "30.4", "33.3")),
    AnnualRow("ACME_HK", "NET_PROFIT", "TOTAL", ("29.8", "21.5", "24.6")),
    AnnualRow("ACME_HK", "STORE_COUNT", "TOTAL", ("58", "55", "54")),
    AnnualRow("ACME_HK", "REVENUE", "ONLINE", ("55", "61", "70")),
    AnnualRow("ACME_HK", "REVENUE", "OFFLINE", ("310", "277", "281")),
    AnnualRow("ACME_JP", "REVENUE", "TOTAL", ("640", "655", "672")),
    AnnualRow("ACME_JP", "GROSS_PROFIT", "TOTAL", ("243.2", "235.8", "245.3")),
    AnnualRow("ACME_JP", "GROSS_MARGIN", "TOTAL", ("38.0", "36.0", "36.5")),
    AnnualRow("ACME_JP", "OPERATING_PROFIT", "TOTAL", ("57.6", "45.9", "47.0")),
    AnnualRow("ACME_JP", "NET_PROFIT", "TOTAL", ("38.4", "29.5", "31.9")),
    AnnualRow("ACME_JP", "STORE_COUNT", "TOTAL", ("190", "201", "208")),
    AnnualRow("ACME_JP", "REVENUE", "ONLINE", ("147.2", "170.3", "188.2")),
    AnnualRow("ACME_JP", "REVENUE", "OFFLINE", ("492.8", "484.7", "483.8")),
    AnnualRow("ACME_GROUP", "REVENUE", "TOTAL", ("2185", "2313", "2475")),
    AnnualRow("ACME_GROUP", "GROSS_PROFIT", "TOTAL", ("868.5", "915.6", "1002.7")),
    AnnualRow("ACME_GROUP", "GROSS_MARGIN", "TOTAL", ("39.7", "39.6", "40.5")),
    AnnualRow("ACME_GROUP", "OPERATING_PROFIT", "TOTAL", ("251.2", "261.1", "298.1")),
    AnnualRow("ACME_GROUP", "NET_PROFIT", "TOTAL", ("180.3", "189.6", "219.9")),
    AnnualRow("ACME_GROUP", "STORE_COUNT", "TOTAL", ("660", "702", "733")),
)

QUARTERLY_REVENUE: tuple[QuarterlyRow, ...] = (
    QuarterlyRow("ACME_CN", ("298", "315", "322", "385", "331", "352", "361", "408")),
    QuarterlyRow("ACME_HK", ("90", "82", "80", "86", "86", "85", "88", "92")),
    QuarterlyRow("ACME_JP", ("158", "160", "165", "172", "162", "166", "168", "176")),
)


def entity(code: str) -> Entity:
    """Return the entity with this code."""
    return next(item for item in ENTITIES if item.code == code)


def metric(code: str) -> Metric:
    """Return the metric with this code."""
    return next(item for item in METRICS if item.code == code)


def annual_row(entity_code: str, metric_code: str, channel: str = "TOTAL") -> AnnualRow:
    """Return the annual series of one entity, metric and channel."""
    return next(
        row for row in ANNUAL if (row.entity, row.metric, row.channel) == (entity_code, metric_code, channel)
    )


def channel_rows() -> tuple[AnnualRow, ...]:
    """Return the ONLINE/OFFLINE revenue rows in slide-6 order."""
    return tuple(row for row in ANNUAL if row.channel != "TOTAL")


def channel_label(row: AnnualRow) -> str:
    """Return the slide-6 row label of a channel row, e.g. "ACME_CN/ONLINE"."""
    return f"{row.entity}/{row.channel}"
