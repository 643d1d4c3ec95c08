"""Authenticated surfaces refuse a caller on its headers before reading a byte of its body.

The real app runs in uvicorn on loopback behind a layer that counts the body bytes the app
pulls from the server. A raw-socket client announces a 90 MiB body, sends its first 64 KiB
and waits: the 401 must come back with nothing of the body read (before, the app waited for
the whole body and answered only once it had buffered it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from ragspine.settings import Settings
from ragspine.workflows.surfaces.sqlite_store import SqliteWorkflowStore
from tests.support.body_counter import BodyCounter
from tests.support.loopback import first_reply, serve
from tests.support.workflow_api import WorkflowApi, build_api

pytest.importorskip("uvicorn")

ANNOUNCED = 90 * 1024 * 1024
FIRST_PART = b"{" + b" " * (64 * 1024)
# The Gateway's JSON routes take the engine's 64 KiB: a larger announced body is refused at once (413).
GATEWAY_ANNOUNCED, GATEWAY_PART = 60_000, b"{" + b" " * 30_000


@dataclass
class Server:
    api: WorkflowApi
    counter: BodyCounter
    port: int

    def send(self, path: str, headers: dict[str, str], *, chunked: bool = False, announced: int = ANNOUNCED,
             first_part: bytes = FIRST_PART) -> tuple[int, bytes]:
        """Announce a large body, send its first part, return (status, response head); status 0: no answer yet."""
        framing = {"Transfer-Encoding": "chunked"} if chunked else {"Content-Length": str(announced)}
        head = "".join(f"{k}: {v}\r\n" for k, v in {"Host": "127.0.0.1", "Content-Type": "application/json",
                                                      **framing, **headers}.items())
        part = f"{len(first_part):x}\r\n".encode() + first_part + b"\r\n" if chunked else first_part
        return first_reply(self.port, f"POST {path} HTTP/1.1\r\n{head}\r\n".encode() + part)


@pytest.fixture
def server(settings: Settings, sqlite_store: SqliteWorkflowStore) -> Iterator[Server]:
    api = build_api(sqlite_store, enabled=True)
    counter = BodyCounter(api.client.app)
    with serve(counter, name="auth-before-body-uvicorn", log_level="error") as base_url:
        yield Server(api, counter, int(base_url.rsplit(":", 1)[1]))
    api.close()


CASES = {
    "dify run, no key": ("/v1/workflows/run", {}),
    "dify run, wrong key": ("/v1/workflows/run", {"Authorization": "Bearer app-0a1b2c3d4e5f00112233445566778899aa"}),
    "dify run, not bearer": ("/v1/workflows/run", {"Authorization": "Basic dXNlcjpwYXNz"}),
    "dify stop, no key": ("/v1/workflows/tasks/t1/stop", {}),
    "n8n create, no key": ("/api/v1/workflows", {}),
    "n8n create, wrong key": ("/api/v1/workflows", {"X-N8N-API-KEY": "n8n_api_nope"}),
    "gateway create space, no token": ("/internal/v1/knowledge/spaces", {"Idempotency-Key": "k1"}),
    "gateway search, forged token": ("/internal/v1/knowledge/search", {"Authorization": "Bearer forged.jwt.token"}),
}


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_caller_without_valid_credentials_is_refused_before_its_body_is_read(server: Server, case: str,
                                                                              chunked: bool) -> None:
    path, headers = CASES[case]
    sizes = {"announced": GATEWAY_ANNOUNCED, "first_part": GATEWAY_PART} if path.startswith("/internal/") else {}
    status, head = server.send(path, headers, chunked=chunked, **sizes)
    assert status == 401, head[:300]
    assert server.counter.read == 0


def test_a_forged_gateway_token_with_a_chunked_body_over_the_limit_gets_401_unread(server: Server) -> None:
    token = {"Authorization": "Bearer forged.jwt.token"}
    status, _ = server.send("/internal/v1/knowledge/search", token, chunked=True, first_part=b" " * 100_000)
    assert status == 401 and server.counter.read == 0


def test_a_valid_key_still_reaches_the_route_which_reads_the_body(server: Server) -> None:
    status, _ = server.send("/v1/workflows/run", server.api.dify())
    # The 64 KiB sent so far are read; the rest never comes, so the server is still waiting (no reply yet).
    assert status == 0 and server.counter.read >= len(FIRST_PART)


class _KeyStoreDown(SqliteWorkflowStore):
    def get_key(self, key_id: str) -> Any:
        from ragspine.errors import ProviderUnavailableError

        raise ProviderUnavailableError("the key table is unreachable")


def test_a_key_store_that_fails_is_a_503_in_the_surfaces_shape_not_a_crash(settings: Settings,
                                                                          tmp_path: Any) -> None:
    api = build_api(_KeyStoreDown(tmp_path / "down.db"), enabled=True)
    try:
        reply = api.client.post("/v1/workflows/run", json={"inputs": {}, "user": "u"}, headers=api.dify())
        assert reply.status_code == 503 and set(reply.json()) == {"code", "message", "status"}
        reply = api.client.post("/api/v1/workflows", json={}, headers=api.n8n())
        assert reply.status_code == 503 and "message" in reply.json()
    finally:
        api.close()
