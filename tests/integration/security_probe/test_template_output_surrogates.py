"""Outside probe: a template whose output holds a lone surrogate must end as the run's own result, never a 500.

Jinja string literals accept ``\\udfff`` escapes, so any app key holder can make a template node
return text that is not valid UTF-8. The render child's reply carries it as a JSON escape and the
service takes it as the node's output; storing the finished run, encoding the blocking reply or a
streamed event, or sending the text on to a code node then raises ``UnicodeEncodeError``. The
caller gets the opaque 500 (a streamed run just stops) and the run stays ``running`` for good.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ragspine.bootstrap import build_workflow_components
from ragspine.settings import Settings, load_settings
from ragspine.workflows.surfaces.components import WorkflowComponents
from ragspine.workflows.surfaces.key_admin import create_app_key
from tests.support.workflow_api import close_stores
from tests.unit.workflows.samples import code, dsl, edge, end, start, template

LONE_LOW = "{{ 'a' ~ '\\udfff' }}"
LONE_HIGHS = "{{ 'ok ' ~ '\\ud800' * 3 }}"


@dataclass
class Service:
    client: TestClient
    components: WorkflowComponents
    workflows_db: Path

    def run(self, document: dict[str, Any], mode: str = "blocking") -> Any:
        key = create_app_key(self.components, document=document).plaintext
        return self.client.post("/v1/workflows/run", json={"inputs": {}, "user": "u", "response_mode": mode},
                                headers={"Authorization": f"Bearer {key}"})

    def runs_left_running(self) -> int:
        with sqlite3.connect(self.workflows_db) as conn:
            return int(conn.execute("SELECT count(*) FROM workflow_run WHERE status = 'running'").fetchone()[0])


@pytest.fixture
def service(settings: Settings) -> Iterator[Service]:
    from ragspine.api.app import create_local_app
    from ragspine.api.workflow_deps import workflow_components

    tuned = load_settings(data_dir=settings.data_dir, dify_run_enabled=True, workflow_code_enabled=True)
    tuned.data_dir.mkdir(parents=True, exist_ok=True)
    components = build_workflow_components(tuned, llm=None)
    app = create_local_app()
    app.dependency_overrides[workflow_components] = lambda: components
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Service(client, components, tuned.workflows_db_path)
    close_stores(components)


def _template_only(text: str) -> dict[str, Any]:
    return dsl([start(), template("t", text), end(("out", ["t", "output"]))], [edge("start", "t"), edge("t", "end")])


@pytest.mark.parametrize("text", [LONE_LOW, LONE_HIGHS], ids=["lone-low", "lone-highs"])
def test_a_template_that_outputs_a_lone_surrogate_is_the_runs_result_not_a_500(service: Service, text: str) -> None:
    reply = service.run(_template_only(text))
    assert reply.status_code == 200, reply.text
    assert reply.json()["data"]["status"] in {"succeeded", "failed"}
    assert service.runs_left_running() == 0


def test_a_streamed_run_whose_template_outputs_a_lone_surrogate_finishes(service: Service) -> None:
    reply = service.run(_template_only(LONE_LOW), mode="streaming")
    assert reply.status_code == 200
    assert '"event": "workflow_finished"' in reply.text, reply.text[-400:]
    assert service.runs_left_running() == 0


def test_a_lone_surrogate_passed_from_a_template_to_a_code_node_is_not_a_500(service: Service) -> None:
    document = dsl([start(), template("t", LONE_LOW),
                    code("c", "def main(x):\n    return {'y': len(x)}\n", {"y": "number"}, x=["t", "output"]),
                    end(("out", ["c", "y"]))],
                   [edge("start", "t"), edge("t", "c"), edge("c", "end")])
    reply = service.run(document)
    assert reply.status_code == 200, reply.text
    assert reply.json()["data"]["status"] in {"succeeded", "failed"}
    assert service.runs_left_running() == 0


def test_the_same_workflows_without_a_surrogate_succeed(service: Service) -> None:
    plain = service.run(_template_only("{{ 'a' ~ 'b' }}"))
    assert plain.status_code == 200 and plain.json()["data"]["outputs"] == {"out": "ab"}
    assert service.runs_left_running() == 0
