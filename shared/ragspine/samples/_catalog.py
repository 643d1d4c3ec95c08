"""Write the catalogue files: manifest.yaml of the sample corpus and faq.yaml of the ACME domain folder."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import yaml

from ragspine.samples import _layout
from ragspine.samples._texts import (
    FISCAL_YEAR_SENTENCE,
    RETURNS_SENTENCE,
    TIER_REVIEW_SENTENCE,
    TIERS_SENTENCE,
    UNIT_SENTENCE,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

_DECK_2024 = _layout.REVIEW_DECKS["2024"]
_TITLE_SLIDE = f"slide={_layout.TITLE_SLIDE}"

# Each answer is a sentence of the cited document at the cited locator, verbatim: the FAQ
# short-circuit may only say what a source says.
FAQ_ENTRIES: tuple[dict[str, Any], ...] = (
    {
        "id": "fiscal_year_definition",
        "questions": [
            "ACME的财年是如何定义的？",
            "How is ACME's fiscal year defined?",
            "ACMEの会計年度はどのように定義されていますか？",
        ],
        "answer": FISCAL_YEAR_SENTENCE,
        "source": {"doc": _DECK_2024, "locator": _TITLE_SLIDE},
    },
    {
        "id": "reporting_unit",
        "questions": [
            "财务数据使用什么货币和单位？",
            "What currency and unit are the financial figures in?",
            "財務数値の通貨と単位は何ですか？",
        ],
        "answer": UNIT_SENTENCE,
        "source": {"doc": _DECK_2024, "locator": _TITLE_SLIDE},
    },
    {
        "id": "returns_window",
        "questions": [
            "商品可以在多少天内退货？",
            "How long do I have to return an item?",
            "返品は何日以内にできますか？",
        ],
        "answer": RETURNS_SENTENCE,
        "source": {"doc": _layout.PRODUCT_POLICY, "locator": "heading=Returns"},
    },
    {
        "id": "membership_tiers",
        "questions": [
            "ACME会员有哪些等级？",
            "What membership tiers does ACME offer?",
            "ACMEの会員ランクにはどのような種類がありますか？",
        ],
        "answer": TIERS_SENTENCE,
        "source": {"doc": _layout.PRODUCT_POLICY, "locator": "heading=Membership"},
    },
    {
        "id": "membership_tier_review",
        "questions": [
            "会员等级多久评定一次？",
            "How often are membership tiers reviewed?",
            "会員ランクはどのくらいの頻度で見直されますか？",
        ],
        "answer": TIER_REVIEW_SENTENCE,
        "source": {"doc": _layout.PRODUCT_POLICY, "locator": "heading=Membership"},
    },
)

# (file, title, language, sensitivity, library), in build order.
DOCUMENTS: tuple[tuple[str, str, str, str, str], ...] = (
    (_DECK_2024, "ACME Group FY2024 Review", "mixed", "INTERNAL", "financial_reports"),
    (_layout.REVIEW_DECKS["2025"], "ACME Group FY2025 Review", "mixed", "INTERNAL", "financial_reports"),
    (_layout.QUARTERLY_WORKBOOK, "ACME quarterly revenue 2024–2025", "en", "INTERNAL", "financial_reports"),
    (_layout.MDA_DOCS["2024"], "ACME集团 2024财年管理层讨论与分析", "zh", "INTERNAL", "financial_reports"),
    (_layout.MDA_DOCS["2025"], "ACME集团 2025财年管理层讨论与分析", "zh", "INTERNAL", "financial_reports"),
    (_layout.JP_REPORT, "ACME_JP 2025年 事業レポート", "ja", "INTERNAL", "financial_reports"),
    (_layout.PRODUCT_POLICY, "ACME Product Policy", "mixed", "PUBLIC", "policies"),
    (_layout.BOARD_MINUTES, "Board minutes, 2025 Q4", "en", "RESTRICTED", "governance"),
)


def write_faq(path: Path) -> None:
    """Write faq.yaml: version 1 and the curated entries."""
    _dump_yaml(path, {"version": 1, "entries": [dict(entry) for entry in FAQ_ENTRIES]})


def write_manifest(path: Path, file_hashes: Mapping[str, str]) -> None:
    """Write manifest.yaml: one record per document with its sha256 hex digest."""
    documents = [
        {
            "file": file,
            "title": title,
            "language": language,
            "sensitivity": sensitivity,
            "library": library,
            "sha256": file_hashes[file],
        }
        for file, title, language, sensitivity, library in DOCUMENTS
    ]
    _dump_yaml(path, {"version": 1, "corpus": "ACME", "documents": documents})


def _dump_yaml(path: Path, data: dict[str, Any]) -> None:
    """Dump YAML in insertion order with readable CJK text and "\\n" line ends."""
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120)
    path.write_text(text, encoding="utf-8", newline="\n")
