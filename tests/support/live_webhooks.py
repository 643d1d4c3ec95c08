"""Active echo webhooks served by uvicorn on loopback, for tests that send raw bodies over sockets."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.surfaces.ports import WorkflowStore
from tests.support.body_counter import BodyCounter
from tests.support.loopback import read_reply, serve
from tests.support.workflow_api import WorkflowApi, build_api, echo_n8n


@dataclass
class LiveWebhooks:
    api: WorkflowApi
    counter: BodyCounter
    base: str

    @property
    def port(self) -> int:
        return int(self.base.rsplit(":", 1)[1])

    def held(self, path: str | None = None) -> int:
        """Body slots held now: all of them, or those of one ``path``."""
        return self.api.components.body_slots.held(path=path)


def live_webhooks(store: WorkflowStore, paths: tuple[str, ...], *, name: str, **limits: Any) -> Iterator[LiveWebhooks]:
    """An echo workflow active at each of ``paths`` (four body slots, payloads up to 1 MiB, ``limits`` as
    ``build_api`` takes them), served until the caller is done."""
    api = build_api(store, enabled=True, max_bytes=1024 * 1024, bodies=4, **limits)
    for path in paths:
        created = api.client.post("/api/v1/workflows", json=echo_n8n(path=path), headers=api.n8n()).json()
        assert api.client.post(f"/api/v1/workflows/{created['id']}/activate", headers=api.n8n()).status_code == 200
    counter = BodyCounter(api.client.app)
    with serve(counter, name=name, log_level="error") as base_url:
        yield LiveWebhooks(api, counter, base_url)
    api.close()


def reply_status(sock: socket.socket) -> tuple[int, dict[str, object]]:
    """The status and JSON body of the reply on ``sock``."""
    head, body = read_reply(sock)
    return int(head.split(b" ", 2)[1]), json.loads(body)
