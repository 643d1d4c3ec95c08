"""Open codes: derived from a label or company name in any case or width, never a glossary code, read back by questions."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from ragspine.facts.glossary import SlotKind
from ragspine.facts.open_vocabulary import label_of, open_entity_code, open_metric_code, with_open_terms
from ragspine.ingestion.document_company import stated_company
from ragspine.ingestion.model import Block, BlockKind, ParsedDocument
from ragspine.qa.slots import parse_slots
from tests.support.glossary import default_glossary

GLOSSARY_CODE = re.compile(r"^[A-Z][A-Z0-9_]*$")


@given(st.text(min_size=1, max_size=80))
def test_an_open_code_is_never_a_glossary_code_and_gives_back_its_label(label: str) -> None:
    code = open_metric_code(label)
    if code is not None:
        assert not GLOSSARY_CODE.match(code)
        assert open_metric_code(label_of(code)) == code  # stable: the label read back codes the same


def test_case_and_width_do_not_change_the_code() -> None:
    assert open_metric_code("Purchases of Property,  Plant and Equipment") == open_metric_code(
        "ＰＵＲＣＨＡＳＥＳ of property, plant and equipment") == "label:purchases of property, plant and equipment"
    assert open_metric_code("2019") is None and open_metric_code("(1,234)") is None
    assert open_entity_code("キリンホールディングス株式会社") == open_entity_code("キリンホールディングス")
    assert open_entity_code("Kirin Holdings Inc.") == "company:kirin holdings"


def test_questions_name_open_terms_by_their_words_and_the_glossary_stays_on_top() -> None:
    glossary = default_glossary()
    metric = open_metric_code("Purchases of property, plant and equipment")
    company = open_entity_code("アサヒグループホールディングス株式会社")
    assert metric and company
    extended = with_open_terms(glossary, [(metric, company), ("REVENUE", company)])
    slots = parse_slots("What were purchases of property plant and equipment of アサヒグループホールディングス in FY2024?",
                        glossary=extended)
    assert slots.metrics == (metric,) and slots.entities == (company,)
    # an open term never takes a spelling the glossary gives its own term
    revenue = open_metric_code("revenue")
    assert revenue and with_open_terms(glossary, [(revenue, glossary.home_entity)]).normalize(
        SlotKind.METRIC, "revenue") == "REVENUE"
    assert with_open_terms(glossary, []) is glossary


def _doc(title: str, first_line: str) -> ParsedDocument:
    blocks = (Block(BlockKind.HEADING, title, "p=1"), Block(BlockKind.PARAGRAPH, first_line, "p=1"))
    return ParsedDocument("notes.md", title, "text/markdown", blocks)


def test_a_title_its_first_lines_take_up_as_subject_names_the_company() -> None:
    assert stated_company(_doc("エーザイ", "エーザイ(IFRS適用)の2024年3月期における損益計算書を以下に示す。")) == "エーザイ"
    assert stated_company(_doc("SMC", "以下はSMCの2024年3月期連結損益計算書の抜粋である。")) == "SMC"
    assert stated_company(_doc("Kirin Holdings Inc.", "Figures below.")) == "Kirin Holdings Inc."
    # a title naming a kind of document, or one the text does not take up, names no company
    assert stated_company(_doc("有価証券報告書", "有価証券報告書の主要項目は次のとおり。")) == ""
    assert stated_company(_doc("Annual report excerpt", "Revenue grew in 2019.")) == ""
    assert stated_company(_doc("Notes", "The notes below are unaudited.")) == ""


def test_a_company_named_in_a_sentence_is_read_without_the_words_before_it() -> None:
    from ragspine.ingestion.document_company import COMPANY_NAME

    found = [COMPANY_NAME.search(text) for text in ("以下は日清食品ホールディングスの2024年3月期連結損益計算書",
                                                    "株式会社良品計画は", "Kirin Holdings Inc. reported")]
    assert [m.group(0) if m else "" for m in found] == ["日清食品ホールディングス", "株式会社良品計画", "Kirin Holdings Inc."]


def test_a_unit_stated_in_the_sentence_after_the_table_is_the_unit_of_its_figures() -> None:
    from ragspine.ingestion.facts_extract import extract_facts
    from ragspine.ingestion.parsers.registry import parse_document

    text = ("# 日本航空\n\n以下は日本航空のFY2024連結貸借対照表である。\n\n| 項目 | FY2024 |\n|---|---|\n"
            "| 流動資産 | 1,022,608 |\n| 繰延資産の部 | 12 |\n\nなお、金額は百万円単位で表示している。\n")
    doc = parse_document(text.encode(), filename="jal.md", doc_id="jal.md", max_bytes=100_000)
    facts = extract_facts(doc, glossary=default_glossary(), source_file_hash="sha256:00").facts
    assert {(f.metric_code, f.entity, f.period, f.value, f.unit) for f in facts} == {
        ("label:流動資産", "company:日本航空", "2024", 1022608, "JPY_M"),
        ("label:繰延資産の部", "company:日本航空", "2024", 12, "JPY_M")}
