"""The ask page says what became of a chat model's reply, against a real service whose model is a loopback server.

The service runs ``ragspine serve --samples`` with ``RAGSPINE_LLM_PROVIDER=openai`` pointed at a
chat server in this process that replies the way a real small model did: a cause with a figure
no passage states, and an answer on a project no cited passage names. The engine withholds both;
the card must say so, with the value or the name, and the hint is shown when the model times out.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import Service, _start
from tests.browser.test_ask_page import ask
from tests.support.chat_server import ChatServer

expect = pytest.importorskip("playwright.sync_api").expect

WHY = "香港在2024财年收入为什么会下滑？"
SLOW = "Why did Japan's gross margin fall in FY2024?"
FALCON = "What is Project Falcon?"  # only the RESTRICTED board minutes say


def small_model(messages: list[dict[str, str]]) -> str:
    if "Japan" in messages[-1]["content"]:
        time.sleep(3.0)  # longer than the service's timeout
    if "Falcon" in messages[-1]["content"]:  # another project's passage, cited
        return "Project Falcon is the Project Lotus cost reduction program [1]."
    return "香港收入下滑，是因为广东道关闭了9家门店[1]。"


@pytest.fixture(scope="module")
def modelled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    server = ChatServer(small_model)
    server.serve()
    service = _start("acme-model", tmp_path_factory.mktemp("model-service"), None, {
        "RAGSPINE_LLM_PROVIDER": "openai", "RAGSPINE_OPENAI_BASE_URL": server.base_url,
        "RAGSPINE_OPENAI_MODEL": "local-test", "RAGSPINE_OPENAI_TIMEOUT_S": "1"})
    try:
        yield service.wait()
    finally:
        service.process.terminate()
        try:
            service.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            service.process.kill()
        server.close()


def test_a_withheld_model_answer_is_said_on_the_card_with_the_unsupported_value(modelled: Service,
                                                                                 open_page: Any) -> None:
    ui = open_page(modelled, locale="zh")
    card = ask(ui, WHY)
    note = card.locator(".narrative-note")
    expect(note).to_have_attribute("data-kind", "provenance_rejected")
    assert "9" in note.inner_text() and "9家" not in card.locator(".answer-text").inner_text()
    ui.shot("narrative-note-rejected")


def test_a_model_timeout_is_said_on_the_card_with_its_retry_hint(modelled: Service, open_page: Any) -> None:
    ui = open_page(modelled)
    card = ask(ui, SLOW)
    note = card.locator(".narrative-note")
    expect(note).to_have_attribute("data-kind", "model_timeout")
    assert "RAGSPINE_" in note.inner_text()  # the hint names the setting to raise


def test_an_answer_no_cited_passage_supports_is_said_on_the_card_with_what_was_asked(modelled: Service,
                                                                                      open_page: Any) -> None:
    ui = open_page(modelled)
    card = ask(ui, FALCON)
    note = card.locator(".narrative-note")
    expect(note).to_have_attribute("data-kind", "unsupported_subject")
    assert "Project Falcon" in note.inner_text()
    assert card.locator(".answer-text").inner_text().startswith("The documents do not say")
