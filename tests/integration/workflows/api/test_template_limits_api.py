"""Through the real app, a template that spends its budget fails the run in the surface's own shape (no 500)."""

from __future__ import annotations

import time

import pytest

from ragspine.workflows.surfaces.key_admin import create_app_key
from tests.support.workflow_api import WorkflowApi
from tests.unit.workflows.samples import dsl, edge, end, start, template

TEMPLATES = {
    "range": "{{ range(10**6) | length }}",
    "gigabyte": "{{ 'x' * 10**9 }}",
    "loop": "{% for i in range(1000) %}{% for j in range(1000) %}{% for k in range(300) %}{% endfor %}"
            "{% endfor %}{% endfor %}",
}


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_a_template_over_budget_is_a_failed_run_in_difys_shape(api: WorkflowApi, name: str) -> None:
    document = dsl([start(), template("t", TEMPLATES[name]), end(("out", ["t", "output"]))],
                   [edge("start", "t"), edge("t", "end")])
    key = create_app_key(api.components, document=document).plaintext
    began = time.monotonic()
    reply = api.client.post("/v1/workflows/run", json={"inputs": {}, "user": "u", "response_mode": "blocking"},
                            headers=api.dify(key))
    assert reply.status_code == 200, reply.text
    data = reply.json()["data"]
    assert data["status"] == "failed" and data["error"].startswith("template error")
    assert time.monotonic() - began < 5
