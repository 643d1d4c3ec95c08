"""The documents page lists the documents the answers come from with their facts; a fact's value opens its cell."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.axe import run_axe
from tests.browser.conftest import Service

expect = pytest.importorskip("playwright.sync_api").expect

WORKBOOK = "ACME_Quarterly_Revenue.xlsx"
DECK = "ACME_FY2025_Review.pptx"


def _documents_page(service: Service, open_page: Any, **kwargs: Any) -> Any:
    ui = open_page(service, **kwargs)
    ui.page.goto(service.url + "/documents")
    ui.page.wait_for_selector("body[data-ready=true]")
    return ui


def _open_facts(page: Any, doc: str) -> Any:
    row = page.locator(f'#corpus-documents tr[data-corpus="{doc}"]')
    row.locator("button[data-action=facts]").click()
    expect(row.locator("button[data-action=facts]")).to_have_attribute("aria-expanded", "true")
    return page.locator("#corpus-documents tr.details-row", has=page.locator("caption", has_text=doc))


def test_clicking_a_fact_of_the_workbook_opens_its_cell_with_its_headers(acme: Service, open_page: Any) -> None:
    ui = _documents_page(acme, open_page)
    page = ui.page
    listed = page.locator("#corpus-documents tr[data-corpus]")
    expect(listed.first).to_be_visible()
    names = listed.evaluate_all("(rows) => rows.map((r) => r.dataset.corpus)")
    assert WORKBOOK in names and DECK in names
    assert "ACME_Board_Minutes_2025Q4.docx" not in names  # RESTRICTED: never named
    count = int(page.locator(f'#corpus-documents tr[data-corpus="{WORKBOOK}"] td.fact-count').inner_text())
    assert count > 0
    facts = _open_facts(page, WORKBOOK)
    assert facts.locator("tbody tr").count() == count
    chip = facts.locator('button[data-fact="REVENUE/ACME_CN/TOTAL/Q2024Q3"]')
    expect(chip).to_have_text("◆322")
    chip.click()
    panel = page.locator("rs-evidence")
    expect(panel.locator(".cited")).to_have_text("322 (cited cell)")
    cited_row = panel.locator("tr", has=page.locator(".cited"))
    assert cited_row.locator("th").nth(1).inner_text() == "ACME_CN"  # the row header of the cited cell
    expect(panel.locator("caption")).to_have_text("2024!D2")
    ui.shot("documents-facts-xlsx")
    assert run_axe(page) == []
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(chip).to_be_focused()


def test_a_slide_fact_opens_its_table_cell_in_japanese(acme: Service, open_page: Any) -> None:
    ui = _documents_page(acme, open_page, locale="ja")
    page = ui.page
    expect(page.locator("#corpus-caption")).to_have_text("回答の根拠となる文書")
    facts = _open_facts(page, DECK)
    chip = facts.locator('button[data-fact="REVENUE/ACME_CN/TOTAL/FY2025"]')
    chip.click()
    cited = page.locator("rs-evidence .cited")
    expect(cited).to_contain_text("1452")
    table = page.locator("rs-evidence table")
    cited_row = table.locator("tr", has=page.locator(".cited"))
    assert cited_row.locator("th").first.inner_text() == "营业收入"
    assert run_axe(page) == []
    ui.shot("documents-facts-pptx-ja")


def test_at_320_px_the_facts_reflow_and_the_cited_cell_is_shown(acme: Service, open_page: Any) -> None:
    ui = _documents_page(acme, open_page, width=320, height=700)
    page = ui.page
    facts = _open_facts(page, WORKBOOK)
    facts.locator('button[data-fact="REVENUE/ACME_HK/TOTAL/Q2024Q2"]').click()
    expect(page.locator("rs-evidence .cited")).to_contain_text("82")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    ui.shot("documents-facts-320px")
