"""The ACME sample corpus: reproducible bytes, locators that resolve, figures as specified."""

from __future__ import annotations

import csv
import hashlib
import re
from collections import Counter
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pytest
import yaml

from ragspine.samples._catalog import write_faq
from ragspine.samples.acme_figures import ENTITIES, METRICS
from ragspine.samples.build_acme import DOMAIN_DIR, SAMPLES_DIR, build_corpus

if TYPE_CHECKING:
    from pathlib import Path

# The document libraries are the optional "docs" extra; the builder imports them lazily.
pytest.importorskip("pptx")
pytest.importorskip("openpyxl")
pytest.importorskip("docx")

EXPECTED_FILES = {
    "ACME_FY2024_Review.pptx",
    "ACME_FY2025_Review.pptx",
    "ACME_Quarterly_Revenue.xlsx",
    "ACME_FY2024_MDA.docx",
    "ACME_FY2025_MDA.docx",
    "ACME_JP_2025_Report.md",
    "ACME_Product_Policy.md",
    "ACME_Board_Minutes_2025Q4.docx",
    "manifest.yaml",
    "facts.csv",
}
FACT_HEADER = (
    "metric_code,entity,geography,channel,period_type,period,value,unit,"
    "source_doc_id,source_locator,source_file_hash,extractor_version,mapping_version"
)


# ---- helpers: read the committed corpus the way a consumer would ----------------------


def _facts() -> list[dict[str, str]]:
    with (SAMPLES_DIR / "facts.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _yaml(name: str) -> Any:
    folder = DOMAIN_DIR if name == "faq.yaml" else SAMPLES_DIR  # the FAQ is the domain's, not a sample document
    return yaml.safe_load((folder / name).read_text(encoding="utf-8"))


def _locator(text: str) -> dict[str, str]:
    return dict(part.split("=", 1) for part in text.split(","))


def _slide_table_cell(path: Path, slide: int, table: int, row: str, col: str) -> str:
    """Return the text of the cell at (row label, column header) of a slide's Nth table."""
    from pptx import Presentation

    shapes = Presentation(str(path)).slides[slide - 1].shapes
    grid = [
        [cell.text for cell in table_row.cells]
        for table_row in [shape for shape in shapes if shape.has_table][table - 1].table.rows
    ]
    header = grid[0]
    matches = [cells for cells in grid[1:] if cells[0] == row]
    assert len(matches) == 1, f"row {row!r} found {len(matches)} times in {path.name} slide {slide}"
    return matches[0][header.index(col)]


def _sheet_cell(path: Path, sheet: str, cell: str) -> object:
    from openpyxl import load_workbook

    return load_workbook(path)[sheet][cell].value


def _slide_text(path: Path, slide: int) -> str:
    from pptx import Presentation

    shapes = Presentation(str(path)).slides[slide - 1].shapes
    return "\n".join(shape.text_frame.text for shape in shapes if shape.has_text_frame)


def _markdown_section(path: Path, heading: str) -> str:
    """Return the lines under a Markdown heading, up to the next heading of any level."""
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"^#+ {re.escape(heading)}\n(.*?)(?=^#|\Z)", text, flags=re.M | re.S)
    assert match, f"no heading {heading!r} in {path.name}"
    return match.group(1)


def _located_text(doc: str, locator: str) -> str:
    parts = _locator(locator)
    if "slide" in parts:
        return _slide_text(SAMPLES_DIR / doc, int(parts["slide"]))
    return _markdown_section(SAMPLES_DIR / doc, parts["heading"])


def _docx_blocks(path: Path) -> list[tuple[str, str]]:
    from docx import Document

    return [(p.style.name if p.style else "", p.text) for p in Document(str(path)).paragraphs]


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _value(facts: list[dict[str, str]], **key: str) -> dict[str, str]:
    rows = [row for row in facts if all(row[name] == wanted for name, wanted in key.items())]
    assert len(rows) == 1, f"{key} matched {len(rows)} facts"
    return rows[0]


# ---- the builder ----------------------------------------------------------------------


class TestBuild:
    def test_building_twice_gives_identical_bytes(self, tmp_path: Path) -> None:
        # GIVEN two builds into separate folders
        first = build_corpus(tmp_path / "first")
        second = build_corpus(tmp_path / "second")

        # THEN they hold the same files with the same bytes
        assert [p.name for p in first] == [p.name for p in second]
        assert {p.name for p in first} == EXPECTED_FILES
        for a, b in zip(first, second, strict=True):
            assert a.read_bytes() == b.read_bytes(), a.name

    def test_committed_files_equal_a_fresh_build(self, tmp_path: Path) -> None:
        # WHEN the corpus is rebuilt from the figures
        fresh = build_corpus(tmp_path)

        # THEN the committed copy is not stale
        assert {p.name for p in SAMPLES_DIR.iterdir() if p.is_file()} == EXPECTED_FILES
        stale = [p.name for p in fresh if p.read_bytes() != (SAMPLES_DIR / p.name).read_bytes()]
        assert stale == [], "run `python -m ragspine.samples.build_acme` and commit the result"

    def test_the_domain_faq_equals_a_fresh_build(self, tmp_path: Path) -> None:
        # The ACME domain's faq.yaml quotes the built documents, so the builder writes it too.
        write_faq(tmp_path / "faq.yaml")
        assert (tmp_path / "faq.yaml").read_bytes() == (DOMAIN_DIR / "faq.yaml").read_bytes()


# ---- facts.csv ------------------------------------------------------------------------


class TestFacts:
    def test_facts_file_has_the_lineage_header(self) -> None:
        header = (SAMPLES_DIR / "facts.csv").read_text(encoding="utf-8").splitlines()[0]
        assert header == FACT_HEADER

    def test_every_fact_locator_points_at_its_value(self) -> None:
        for fact in _facts():
            path = SAMPLES_DIR / fact["source_doc_id"]
            where = _locator(fact["source_locator"])
            if path.suffix == ".pptx":
                shown = _slide_table_cell(
                    path, int(where["slide"]), int(where["table"]), where["row"], where["col"]
                )
                assert shown == fact["value"], fact
                assert where["col"] == f"FY{fact['period']}", fact
            else:
                assert path.suffix == ".xlsx", fact
                cell = _sheet_cell(path, where["sheet"], where["cell"])
                assert isinstance(cell, int) and str(cell) == fact["value"], fact

    def test_seed_example_is_cn_revenue_1320_on_slide_2(self) -> None:
        fact = _value(_facts(), metric_code="REVENUE", entity="ACME_CN", channel="TOTAL", period="2024")
        assert (fact["value"], fact["unit"], fact["geography"]) == ("1320", "USD_M", "CN")
        assert fact["source_doc_id"] == "ACME_FY2024_Review.pptx"
        assert fact["source_locator"] == "slide=2,table=1,row=REVENUE,col=FY2024"

    @pytest.mark.parametrize(
        ("key", "value", "doc", "locator"),
        [
            (
                ("GROSS_MARGIN", "ACME_JP", "TOTAL", "2024"),
                "36.0",
                "ACME_FY2024_Review.pptx",
                "slide=4,table=1,row=GROSS_MARGIN,col=FY2024",
            ),
            (
                ("GROSS_PROFIT", "ACME_GROUP", "TOTAL", "2025"),
                "1002.7",
                "ACME_FY2025_Review.pptx",
                "slide=5,table=1,row=毛利,col=FY2025",
            ),
            (
                ("REVENUE", "ACME_JP", "ONLINE", "2023"),
                "147.2",
                "ACME_FY2024_Review.pptx",
                "slide=6,table=1,row=ACME_JP/ONLINE,col=FY2023",
            ),
            (
                ("REVENUE", "ACME_HK", "TOTAL", "2024Q2"),
                "82",
                "ACME_Quarterly_Revenue.xlsx",
                "sheet=2024,cell=C3,row=ACME_HK,col=2024Q2",
            ),
        ],
    )
    def test_spot_checked_facts_match_the_specification(
        self, key: tuple[str, str, str, str], value: str, doc: str, locator: str
    ) -> None:
        metric, entity, channel, period = key
        fact = _value(_facts(), metric_code=metric, entity=entity, channel=channel, period=period)
        assert (fact["value"], fact["source_doc_id"], fact["source_locator"]) == (value, doc, locator)

    def test_there_are_114_facts_and_no_duplicate_keys(self) -> None:
        facts = _facts()
        keys = Counter(
            (f["metric_code"], f["entity"], f["channel"], f["period_type"], f["period"]) for f in facts
        )
        assert len(facts) == 114
        assert [key for key, seen in keys.items() if seen > 1] == []
        assert Counter(f["period_type"] for f in facts) == {"FY": 90, "Q": 24}

    def test_units_geographies_and_versions_follow_the_glossary(self) -> None:
        units = {m.code: m.unit for m in METRICS}
        geographies = {e.code: e.geography for e in ENTITIES}
        for fact in _facts():
            assert fact["unit"] == units[fact["metric_code"]], fact
            assert fact["geography"] == geographies[fact["entity"]], fact
            assert (fact["extractor_version"], fact["mapping_version"]) == ("curated-1", "glossary-1")

    def test_figures_add_up_across_channels_quarters_and_entities(self) -> None:
        # Independent arithmetic on the transcription: a mistyped literal breaks a sum.
        amounts = {
            (f["metric_code"], f["entity"], f["channel"], f["period"]): Decimal(f["value"]) for f in _facts()
        }
        for entity in ("ACME_CN", "ACME_HK", "ACME_JP"):
            for year in ("2023", "2024", "2025"):
                total = amounts[("REVENUE", entity, "TOTAL", year)]
                online, offline = (amounts[("REVENUE", entity, ch, year)] for ch in ("ONLINE", "OFFLINE"))
                assert online + offline == total, (entity, year)
                if year != "2023":
                    quarters = sum(amounts[("REVENUE", entity, "TOTAL", f"{year}Q{q}")] for q in range(1, 5))
                    assert quarters == total, (entity, year)
        # The spec's FY2023 group net profit (180.3) is not the entities' sum (150.3); the
        # figures are fixed by the spec, so that one cell is exempt from the check.
        for metric in ("REVENUE", "GROSS_PROFIT", "OPERATING_PROFIT", "NET_PROFIT", "STORE_COUNT"):
            for year in ("2023", "2024", "2025"):
                if (metric, year) == ("NET_PROFIT", "2023"):
                    continue
                parts = sum(amounts[(metric, e, "TOTAL", year)] for e in ("ACME_CN", "ACME_HK", "ACME_JP"))
                assert parts == amounts[(metric, "ACME_GROUP", "TOTAL", year)], (metric, year)


# ---- lineage and catalogue ------------------------------------------------------------


class TestCatalog:
    def test_source_file_hash_of_every_fact_matches_its_file(self) -> None:
        for fact in _facts():
            assert fact["source_file_hash"] == "sha256:" + _sha256(SAMPLES_DIR / fact["source_doc_id"])

    def test_manifest_records_every_document_with_its_digest(self) -> None:
        documents = _yaml("manifest.yaml")["documents"]
        assert {d["file"] for d in documents} == EXPECTED_FILES - {"manifest.yaml", "facts.csv"}
        for document in documents:
            assert document["sha256"] == _sha256(SAMPLES_DIR / document["file"]), document["file"]
            assert document["language"] in {"zh", "en", "ja", "mixed"}
            assert document["library"] in {"financial_reports", "policies", "governance", "faq"}

    def test_manifest_sensitivity_follows_the_specification(self) -> None:
        sensitivity = {d["file"]: d["sensitivity"] for d in _yaml("manifest.yaml")["documents"]}
        assert sensitivity["ACME_Board_Minutes_2025Q4.docx"] == "RESTRICTED"
        assert sensitivity["ACME_Product_Policy.md"] == "PUBLIC"
        others = set(sensitivity) - {"ACME_Board_Minutes_2025Q4.docx", "ACME_Product_Policy.md"}
        assert {sensitivity[name] for name in others} == {"INTERNAL"}

    def test_every_faq_answer_is_stated_at_its_cited_locator(self) -> None:
        faq = _yaml("faq.yaml")
        assert faq["version"] == 1
        assert 4 <= len(faq["entries"]) <= 6
        for entry in faq["entries"]:
            located = _located_text(entry["source"]["doc"], entry["source"]["locator"])
            assert entry["answer"] in located, entry["id"]
            assert len(entry["questions"]) >= 3, entry["id"]

    def test_faq_covers_fiscal_year_returns_and_membership(self) -> None:
        sources = {(e["source"]["doc"], e["source"]["locator"]) for e in _yaml("faq.yaml")["entries"]}
        assert ("ACME_FY2024_Review.pptx", "slide=1") in sources
        assert ("ACME_Product_Policy.md", "heading=Returns") in sources
        assert ("ACME_Product_Policy.md", "heading=Membership") in sources


# ---- narrative documents --------------------------------------------------------------


class TestNarrative:
    @pytest.mark.parametrize("doc", ["ACME_FY2024_MDA.docx", "ACME_FY2025_MDA.docx"])
    def test_mda_has_a_heading_and_a_figure_free_paragraph_per_entity(self, doc: str) -> None:
        blocks = _docx_blocks(SAMPLES_DIR / doc)
        headings = [i for i, (style, _) in enumerate(blocks) if style == "Heading 1"]
        assert [blocks[i][1] for i in headings] == [
            "中国内地（ACME_CN）",
            "香港（ACME_HK）",
            "日本（ACME_JP）",
            "集团（ACME_GROUP）",
        ]
        for start, end in zip(headings, [*headings[1:], len(blocks)], strict=True):
            paragraphs = [text for _, text in blocks[start + 1 : end]]
            assert any(not re.search(r"\d", text) for text in paragraphs), blocks[start][1]

    @pytest.mark.parametrize(
        ("doc", "phrases"),
        [
            (
                "ACME_FY2024_MDA.docx",
                [
                    "11.9%",
                    "微信小程序",
                    "2024年3月",
                    "直播",
                    "34家",
                    "二线城市",
                    "7.4%",
                    "广东道",
                    "2个百分点",
                    "日元",
                    "Project Lotus",
                ],
            ),
            ("ACME_FY2025_MDA.docx", ["46%", "租金重新谈判", "2025年4月", "0.5个百分点"]),
            ("ACME_JP_2025_Report.md", ["2025年4月", "0.5ポイント", "Project Lotus"]),
        ],
    )
    def test_narrative_facts_are_stated(self, doc: str, phrases: list[str]) -> None:
        path = SAMPLES_DIR / doc
        text = (
            path.read_text(encoding="utf-8")
            if path.suffix == ".md"
            else "\n".join(text for _, text in _docx_blocks(path))
        )
        assert [phrase for phrase in phrases if phrase not in text] == []

    def test_board_minutes_are_marked_restricted_and_discuss_project_falcon(self) -> None:
        text = "\n".join(text for _, text in _docx_blocks(SAMPLES_DIR / "ACME_Board_Minutes_2025Q4.docx"))
        assert text.startswith("CONFIDENTIAL / RESTRICTED")
        assert "Project Falcon" in text and "Hikari Retail for 420 USD_M" in text

    def test_review_decks_keep_the_narrative_causes_out(self) -> None:
        # The "why" of each change lives only in the MD&A, so a narrative question cannot
        # be answered from the decks alone.
        for doc in ("ACME_FY2024_Review.pptx", "ACME_FY2025_Review.pptx"):
            text = "\n".join(_slide_text(SAMPLES_DIR / doc, n) for n in range(1, 8))
            for phrase in ("WeChat", "Canton Road", "yen", "Lotus", "rent"):
                assert phrase not in text, (doc, phrase)
