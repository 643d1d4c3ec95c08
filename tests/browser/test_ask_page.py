"""The ask page in a real browser against the real local service with the sample corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PageUnderTest, Service

expect = pytest.importorskip("playwright.sync_api").expect

LOCALES = Path(__file__).resolve().parents[2] / "shared" / "ragspine" / "web" / "locales"


def ask(ui: PageUnderTest, question: str) -> Any:
    """Type and send a question; return the newest answer card once it is shown."""
    page = ui.page
    count = page.locator("#answers > li").count()
    page.fill("#question", question)
    page.click("#send")
    expect(page.locator("#answers > li")).to_have_count(count + 1, timeout=60_000)
    return page.locator("#answers > li").first


def cited_cell(ui: PageUnderTest) -> Any:
    ui.page.wait_for_selector("#evidence:not([hidden]) table.cells td.cited")
    return ui.page.locator("#evidence table.cells td.cited")


@pytest.mark.parametrize("locale", ["en", "zh", "ja"])
def test_every_locale_renders_with_its_own_words_and_html_lang(acme: Service, open_page: Any, locale: str) -> None:
    ui = open_page(acme, locale=locale)
    strings = json.loads((LOCALES / f"{locale}.json").read_text(encoding="utf-8"))
    assert ui.page.get_attribute("html", "lang") == locale
    assert ui.page.inner_text("h1") == strings["title"]
    assert ui.page.inner_text("#send") == strings["ask"]
    ui.shot(f"locale-{locale}")


def test_an_english_question_answers_with_a_fact_chip_that_opens_its_worksheet_cell(acme: Service,
                                                                                   open_page: Any) -> None:
    ui = open_page(acme)
    card = ask(ui, "What was ACME_CN revenue in 2024Q3?")
    assert card.get_attribute("data-route") == "structured"
    assert "From the fact table" in card.locator(".meta").inner_text()
    chip = card.locator("button.chip.kind-fact")
    assert chip.inner_text().endswith("322")
    assert ui.page.inner_text("#status") == "Answer ready, 1 source"
    chip.click()
    cell = cited_cell(ui)
    assert cell.locator("mark").inner_text() == "322"
    table = ui.page.locator("#evidence table.cells")
    row = cell.locator("xpath=..")
    assert row.locator("th").nth(1).inner_text() == "ACME_CN"  # its row header
    column = int(ui.page.evaluate("document.querySelector('#evidence td.cited').cellIndex"))
    assert table.locator("tr").nth(1).locator("th, td").nth(column).inner_text() == "2024Q3"  # its column header
    ui.shot("xlsx-cell")
    card.locator("button.icon-copy").click()
    copied = ui.page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith("What was ACME_CN revenue in 2024Q3?")
    assert "[1] ACME_Quarterly_Revenue.xlsx · sheet=2024,cell=D2,row=ACME_CN,col=2024Q3 (sha256:" in copied


def test_a_chinese_question_opens_the_slide_table_with_the_cell_highlighted(acme: Service, open_page: Any) -> None:
    ui = open_page(acme, locale="zh")
    card = ask(ui, "2024年日本的毛利率是多少")
    assert "毛利率" in card.locator(".answer-text").inner_text()
    card.locator("button.chip.kind-fact").click()
    cell = cited_cell(ui)
    assert cell.locator("mark").inner_text() == "36.0"
    caption = ui.page.inner_text("#evidence table.cells caption")
    assert caption  # the slide title
    assert ui.page.get_attribute("#evidence table.cells", "lang") in ("en", "zh")
    ui.shot("pptx-cell")
    # A fact and the reasons behind it: the narrative figures are quoted from their passages, none unverified.
    why = ask(ui, "香港2024年营业收入为什么下降？")
    assert why.locator("button.chip.kind-fact").count() >= 1
    assert why.locator("button.chip.kind-quoted").count() >= 1
    assert why.locator("button.chip.kind-unverified").count() == 0
    why.locator("button.chip.kind-quoted").first.click()
    ui.page.wait_for_selector("#evidence blockquote.passage[lang=zh]")


def test_a_japanese_question_is_answered_in_japanese_and_a_change_is_marked_computed(acme: Service,
                                                                                     open_page: Any) -> None:
    ui = open_page(acme, locale="ja")
    card = ask(ui, "2025年の中国の売上高は？")
    assert "売上高" in card.locator(".answer-text").inner_text()
    assert card.locator(".answer-text").get_attribute("lang") == "ja"  # Japanese glyphs for the Japanese answer
    assert card.locator("button.chip.kind-fact").count() == 1
    change = ask(ui, "中国2025年营业收入同比增长多少")
    assert change.locator(".answer-text").get_attribute("lang") == "zh"  # a Chinese answer in a Japanese interface
    assert change.locator("button.chip.kind-computed").count() >= 1
    assert change.locator("button.chip.kind-unverified").count() == 0
    change.locator("button.chip.kind-computed").first.click()
    ui.page.wait_for_selector("#evidence .computed-from")
    ui.shot("computed")


def test_a_pdf_citation_opens_the_page_image_with_the_passage_boxed(vela: Service, open_page: Any) -> None:
    ui = open_page(vela)
    card = ask(ui, "What did the chair say about patient numbers?")
    card.locator("button.cite[aria-label*='Chair_Letter']").first.click()
    ui.page.wait_for_selector("#evidence .page img")
    box = ui.page.locator("#evidence .page .box")
    box.wait_for()
    size = box.bounding_box()
    assert size is not None and size["width"] > 20 and size["height"] > 5
    ui.shot("pdf-page")


def test_a_question_about_restricted_minutes_shows_nothing_of_them(acme: Service, open_page: Any) -> None:
    ui = open_page(acme)
    card = ask(ui, "What did the board decide about Project Falcon and Hikari Retail?")
    text = card.inner_text()
    assert "420" not in text and "price-sensitive" not in text
    assert "ACME_Board_Minutes" not in text
    # Asked directly, the evidence view of the minutes says "withheld" and shows no text of them.
    ui.page.evaluate("""document.getElementById('evidence').show({
        source: {doc: 'ACME_Board_Minutes_2025Q4.docx', locator: 'para=1', version: null}, opener: null})""")
    ui.page.wait_for_selector("#evidence .withheld")
    assert "Board only" not in ui.page.inner_text("#evidence")


def test_a_refinement_button_asks_its_follow_up(acme: Service, open_page: Any) -> None:
    ui = open_page(acme, locale="zh")
    card = ask(ui, "日本的毛利率是多少")
    option = card.locator("button.option").first
    follow_up = option.get_attribute("data-question")
    assert follow_up
    option.click()
    expect(ui.page.locator("#answers > li")).to_have_count(2, timeout=60_000)
    assert ui.page.locator("#answers > li").first.locator(".question").inner_text() == follow_up
    ui.shot("refinement")
    # A question asked back: its options are buttons, and one asks the question with that choice.
    back = ask(ui, "2024年的数据")
    assert back.get_attribute("data-route") == "clarification"
    choice = back.locator("button.option", has_text="毛利率").first
    chosen = choice.get_attribute("data-question")
    choice.click()
    expect(ui.page.locator("#answers > li")).to_have_count(4, timeout=60_000)
    answered = ui.page.locator("#answers > li").first
    assert answered.locator(".question").inner_text() == chosen
    assert answered.locator("button.chip.kind-fact").count() >= 1


def test_history_survives_a_reload_with_citations_pinned_to_their_version(acme: Service, open_page: Any) -> None:
    ui = open_page(acme)
    ask(ui, "What was ACME_CN revenue in 2024Q3?")
    ask(ui, "2024年日本的毛利率是多少")
    ui.page.reload()
    ui.page.wait_for_selector("body[data-ready=true]")
    assert ui.page.locator("#answers > li").count() == 2
    stored = ui.page.evaluate("JSON.parse(localStorage.getItem('ragspine.history.v1'))")
    versions = {s["version"] for item in stored for p in item["response"]["parts"] for s in p["sources"]}
    assert versions and all(v and v.startswith("sha256:") for v in versions)
    ui.page.locator("#answers > li").last.locator("button.chip").click()
    assert cited_cell(ui).locator("mark").inner_text() == "322"


def test_feedback_on_one_number_is_stored_with_its_locator(acme: Service, open_page: Any) -> None:
    import httpx

    ui = open_page(acme)
    card = ask(ui, "What was ACME_CN revenue in 2024Q3?")
    card.locator("button.chip").click()
    cited_cell(ui)
    ui.page.click("#evidence button.report >> nth=0")
    expect(ui.page.locator("#evidence .feedback-status")).not_to_be_empty()
    latest = httpx.get(f"{acme.url}/v1/feedback", params={"limit": 1}).json()[0]
    assert (latest["reason"], latest["value"], latest["doc"], latest["locator"]) == (
        "wrong_number", "322", "ACME_Quarterly_Revenue.xlsx", "sheet=2024,cell=D2,row=ACME_CN,col=2024Q3")
    # The administrator's view lists it, and its source opens the cited cell there too.
    ui.page.goto(acme.url + "/feedback")
    ui.page.wait_for_selector("body[data-ready=true]")
    row = ui.page.locator("#feedback tr").first
    assert "number is wrong" in row.inner_text() and "322" in row.inner_text()
    row.locator("button.source").click()
    assert cited_cell(ui).locator("mark").inner_text() == "322"
    ui.shot("feedback-admin")


def test_keyboard_only_opens_the_evidence_and_escape_returns_focus(acme: Service, open_page: Any) -> None:
    ui = open_page(acme)
    ask(ui, "What was ACME_CN revenue in 2024Q3?")
    chip = ui.page.locator("button.chip").first
    chip.focus()
    ui.page.keyboard.press("Enter")
    cited_cell(ui)
    assert ui.page.evaluate("document.activeElement.id") == "evidence-title"
    ui.page.keyboard.press("Escape")
    assert ui.page.locator("#evidence").is_hidden()
    assert ui.page.evaluate("document.activeElement.classList.contains('chip')")


def test_the_page_reflows_at_320_px(acme: Service, open_page: Any) -> None:
    ui = open_page(acme, width=320, height=640)
    card = ask(ui, "2024年日本的毛利率是多少")
    card.locator("button.chip").click()
    cell = cited_cell(ui).bounding_box()
    assert cell is not None and cell["x"] >= 0 and cell["x"] + cell["width"] <= 320  # scrolled into view
    assert ui.page.evaluate("document.documentElement.scrollWidth") <= 320
    ui.shot("narrow-320")


def test_axe_finds_no_accessibility_violations(acme: Service, open_page: Any) -> None:
    from tests.browser.axe import run_axe

    ui = open_page(acme, locale="ja")
    card = ask(ui, "2025年の中国の売上高は？")
    card.locator("button.chip").click()
    cited_cell(ui)
    violations = run_axe(ui.page)
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)


def test_the_local_page_streams_an_answer_and_says_what_it_reads_before_the_answer(acme: Service,
                                                                                    open_page: Any) -> None:
    ui = open_page(acme)
    asked: list[str] = []
    ui.page.on("request", lambda request: asked.append(request.url) if "/v1/ask" in request.url else None)
    ui.page.evaluate("""() => {
      window.statuses = [];
      new MutationObserver(() => window.statuses.push(document.getElementById('status').textContent))
        .observe(document.getElementById('status'), { childList: true, characterData: true, subtree: true });
    }""")
    card = ask(ui, "香港2024年营业收入为什么下降？")
    expect(ui.page.locator("#status")).to_have_text(re.compile(r"^Answer ready, \d+ sources?$"))
    statuses = ui.page.evaluate("window.statuses")
    reading = [s for s in statuses if s.startswith("Reading ")]
    assert reading and "ACME_FY2024_MDA.docx" in reading[0], statuses
    assert statuses.index(reading[0]) < len(statuses) - 1  # said before the answer was ready
    assert asked == [f"{acme.url}/v1/ask/stream"]
    assert card.locator(".chip, .citation").count() > 0
