"""``POST /v1/ask/stream``: accepted at once, the passages read as they are read, then /v1/ask's own answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from ragspine.api.app import create_local_app
from ragspine.bootstrap import Services, get_services
from ragspine.cli import app
from ragspine.settings import Settings


@pytest.fixture
def client(settings: Settings) -> TestClient:
    result = CliRunner().invoke(app, ["load-samples"])
    assert result.exit_code == 0, result.output
    services: Services = get_services()
    assert services.qa.retriever is not None
    return TestClient(create_local_app(settings))


def _events(text: str) -> list[tuple[str, Any]]:
    events = []
    for block in text.split("\n\n"):
        lines = [line for line in block.splitlines() if not line.startswith(":")]
        if lines:
            fields = dict(line.split(": ", 1) for line in lines)
            events.append((fields["event"], json.loads(fields["data"])))
    return events


def test_a_narrative_answer_streams_what_it_reads_then_the_same_answer_as_ask(client: TestClient) -> None:
    body = {"question": "香港2024年营业收入为什么下降？"}
    with client.stream("POST", "/v1/ask/stream", json=body) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = _events(response.read().decode("utf-8"))
    names = [name for name, _ in events]
    assert names[0] == "accepted" and names[-1] == "answer" and "reading" in names
    assert names.index("reading") < names.index("answer")
    read = next(data for name, data in events if name == "reading")["sources"]
    assert any(s["doc"] == "ACME_FY2024_MDA.docx" for s in read)
    assert all(set(s) == {"doc", "locator"} for s in read)  # citations only: no text before the check
    streamed = events[-1][1]
    assert streamed == client.post("/v1/ask", json=body).json()
    assert streamed["route"] in ("narrative", "composite") and streamed["sources"]


def test_restricted_passages_are_never_announced(client: TestClient) -> None:
    with client.stream("POST", "/v1/ask/stream",
                       json={"question": "What did the board decide about Project Falcon and Hikari Retail?"}) as r:
        text = r.read().decode("utf-8")
    assert "ACME_Board_Minutes_2025Q4.docx" not in text
    assert _events(text)[-1][0] == "answer"


def test_a_fact_answer_streams_accepted_then_the_answer(client: TestClient) -> None:
    with client.stream("POST", "/v1/ask/stream", json={"question": "What was ACME_CN revenue in 2024Q3?"}) as r:
        events = _events(r.read().decode("utf-8"))
    assert events[0][0] == "accepted" and events[-1][0] == "answer"
    assert "322" in events[-1][1]["answer"]


@pytest.mark.parametrize("question", ["", "   ", "x" * 1001])
def test_an_invalid_question_is_refused_before_the_stream_starts(client: TestClient, question: str) -> None:
    response = client.post("/v1/ask/stream", json={"question": question})
    assert response.status_code in (400, 422) and not response.headers["content-type"].startswith("text/event-stream")
    assert response.status_code == client.post("/v1/ask", json={"question": question}).status_code


def test_the_stream_is_in_the_openapi_schema(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/v1/ask/stream"]["post"]
    assert "text/event-stream" in operation["responses"]["200"]["content"]
    assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("AskRequest")
