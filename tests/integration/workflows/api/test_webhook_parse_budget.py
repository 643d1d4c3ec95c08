"""A large webhook body is parsed only within the parse budget; an ordinary one is never held behind it.

The parsed value of a JSON body can be ~50x its bytes and lives until the run ends, so bodies
over the small-body size share a byte budget. While the budget is held, a large body waits its
turn up to its deadline and is then refused (503, retryable) without being run; a small body
to the same path is served meanwhile, and the large one is served once the budget is free. A
large body holds its bytes until its run ends: the model, called during the run, sees them held.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from ragspine.workflows.surfaces.parse_budget import ParseBudget
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.loopback import serve
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n, model_n8n

BUDGET = 8 * 1024
LARGE = {"text": "hello", "padding": "y" * (4 * 1024)}  # over the small-body size below
SMALL = {"text": "hello"}


@pytest.fixture
def api(sqlite_store: SqliteWorkflowStore) -> Iterator[WorkflowApi]:
    api = build_api(sqlite_store, enabled=True, max_bytes=64 * 1024, body_timeout_s=0.2,
                    parse_budget=ParseBudget(BUDGET, small_bytes=1024))
    created = api.client.post("/api/v1/workflows", json=echo_n8n(), headers=api.n8n()).json()
    assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
    yield api
    api.close()


def test_a_large_body_waits_for_the_parse_budget_and_a_small_one_does_not(api: WorkflowApi) -> None:
    budget = api.components.parse_budget
    assert budget.take(BUDGET)  # other large bodies are being parsed and run
    try:
        refused = api.client.post("/webhook/summarise", json=LARGE)
        assert refused.status_code == 503, refused.text
        assert refused.json()["retryable"] is True and "parsing other large webhook bodies" in refused.json()["message"]
        assert int(refused.headers["retry-after"]) >= 1
        assert api.client.post("/webhook/summarise", json=SMALL).status_code == 200  # never held behind them
    finally:
        budget.give_back(BUDGET)
    served = api.client.post("/webhook/summarise", json=LARGE)
    assert served.status_code == 200, served.text
    assert budget.held_bytes() == 0  # given back when its run ended


def test_a_large_body_holds_its_bytes_of_the_budget_until_its_run_ends(sqlite_store: SqliteWorkflowStore) -> None:
    budget = ParseBudget(BUDGET, small_bytes=1024)
    api = build_api(sqlite_store, enabled=True, max_bytes=64 * 1024, parse_budget=budget,
                    replies=lambda messages: f"{budget.held_bytes()} bytes held")  # asked in the middle of the run
    try:
        created = api.client.post("/api/v1/workflows", json=model_n8n(), headers=api.n8n()).json()
        assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
        large = api.client.post("/webhook/ask", json=LARGE)
        assert large.status_code == 200, large.text
        assert int(large.json()["result"].split()[0]) == int(large.request.headers["content-length"])
        assert api.client.post("/webhook/ask", json=SMALL).json() == {"result": "0 bytes held"}  # small: none
        assert budget.held_bytes() == 0
    finally:
        api.close()


PATIENCE = 30.0  # bounds a hang only; nothing is asserted about durations


def test_a_body_waiting_for_the_parse_budget_holds_no_reading_slot(sqlite_store: SqliteWorkflowStore) -> None:
    pytest.importorskip("uvicorn")
    budget = ParseBudget(BUDGET, small_bytes=1024)
    api = build_api(sqlite_store, enabled=True, max_bytes=64 * 1024, bodies=1, body_timeout_s=PATIENCE,
                    parse_budget=budget)
    created = api.client.post("/api/v1/workflows", json=echo_n8n(), headers=api.n8n()).json()
    assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
    replies: list[httpx.Response] = []
    try:
        with serve(api.client.app, name="parse-budget-uvicorn", log_level="error") as base:
            assert budget.take(BUDGET)  # other large bodies are being parsed and run
            waiter = threading.Thread(target=lambda: replies.append(
                httpx.post(base + "/webhook/summarise", json=LARGE, timeout=PATIENCE)), daemon=True)
            waiter.start()
            deadline = time.monotonic() + PATIENCE
            while not budget.waiting():
                assert time.monotonic() < deadline, "the large body never waited for the parse budget"
                time.sleep(0.01)
            # Read in full and waiting its turn: the server's only reading slot is free for another sender.
            assert api.components.body_slots.held(path="summarise") == 0
            small = httpx.post(base + "/webhook/summarise", json=SMALL, timeout=PATIENCE)
            assert small.status_code == 200, small.text
            budget.give_back(BUDGET)
            waiter.join(PATIENCE)
        assert [reply.status_code for reply in replies] == [200], [reply.text for reply in replies]
        assert budget.held_bytes() == 0
    finally:
        api.close()


def _asked(asked: list[str]) -> str:
    asked.append("run")
    return "ok"


def _wait_until(condition: Callable[[], bool], failure: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, failure
        time.sleep(0.01)


def test_one_path_takes_only_its_share_of_the_waiting_places(sqlite_store: SqliteWorkflowStore) -> None:
    pytest.importorskip("uvicorn")
    budget = ParseBudget(BUDGET, small_bytes=1024, max_waiting=4)
    api = build_api(sqlite_store, enabled=True, max_bytes=64 * 1024, body_timeout_s=PATIENCE, parse_budget=budget)
    for path in ("summarise", "other"):
        created = api.client.post("/api/v1/workflows", json=echo_n8n(path=path), headers=api.n8n()).json()
        assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
    replies: list[httpx.Response] = []
    try:
        with serve(api.client.app, name="parse-budget-share-uvicorn", log_level="error") as base:
            assert budget.take(BUDGET)  # other large bodies are being parsed and run
            waiters = []
            for path in ("summarise", "summarise", "other"):
                waiters.append(threading.Thread(target=lambda path=path: replies.append(
                    httpx.post(f"{base}/webhook/{path}", json=LARGE, timeout=PATIENCE)), daemon=True))
                waiters[-1].start()
                _wait_until(lambda: budget.waiting() == len(waiters), "a large body never waited for the budget")
            # Four places; the path already has its two: a third large body to it is refused at once.
            third = httpx.post(base + "/webhook/summarise", json=LARGE, timeout=PATIENCE)
            assert third.status_code == 429 and "its share of the server's 4 places" in third.json()["message"]
            assert budget.waiting(path="summarise") == 2 and budget.waiting(path="other") == 1
            budget.give_back(BUDGET)
            for waiter in waiters:
                waiter.join(PATIENCE)
        assert [reply.status_code for reply in replies] == [200, 200, 200], [reply.text for reply in replies]
    finally:
        api.close()


def test_a_waiting_body_whose_sender_hung_up_gives_its_place_up_and_is_not_run(
        sqlite_store: SqliteWorkflowStore) -> None:
    pytest.importorskip("uvicorn")
    budget = ParseBudget(BUDGET, small_bytes=1024, max_waiting=1)
    asked: list[str] = []
    # The body may wait longer than the test's patience: only the hang-up can free its place in time.
    api = build_api(sqlite_store, enabled=True, max_bytes=64 * 1024, body_timeout_s=2 * PATIENCE, parse_budget=budget,
                    replies=lambda messages: _asked(asked))
    try:
        created = api.client.post("/api/v1/workflows", json=model_n8n(), headers=api.n8n()).json()
        assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
        with serve(api.client.app, name="parse-budget-gone-uvicorn", log_level="error") as base:
            assert budget.take(BUDGET)  # other large bodies are being parsed and run
            body = json.dumps(LARGE).encode()
            port = int(base.rsplit(":", 1)[1])
            with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE) as sender:
                sender.sendall(b"POST /webhook/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                               + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
                _wait_until(lambda: budget.waiting() == 1, "the large body never waited for the budget")
            # The sender hung up: its place is free for another body (the only one here), without the budget freed.
            _wait_until(lambda: budget.waiting() == 0, "a body whose sender hung up kept its waiting place")
            budget.give_back(BUDGET)
            served = httpx.post(base + "/webhook/ask", json=SMALL, timeout=PATIENCE)
            assert served.status_code == 200, served.text
        assert asked == ["run"]  # the small body's run only: the abandoned large body never ran
        assert budget.held_bytes() == 0
    finally:
        api.close()
