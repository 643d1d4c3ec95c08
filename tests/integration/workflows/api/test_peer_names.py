"""Names and ids outside the Gateway follow the Gateway's name rule: n8n workflow names and Dify's ``user``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragspine.names import name_problem
from tests.support.workflow_api import WorkflowApi, echo_n8n

BASE = "/api/v1/workflows"
# Each breaks one part of the rule: a control character, a line break, a bidirectional override, a tag character,
# nothing visible, a lone surrogate's escape, and a length past the cap.
HOSTILE = ["a\x00b", "evil\u202egpj", "line\nFORGED", "Report\U000e0049", "\u200b\u200b", " ", "N" * 10_000]
N8N_NAME_MAX = 128  # n8n's own limit on a workflow's name
DIFY_USER_MAX = 255


def _run(api: WorkflowApi, user: str) -> Any:
    return api.client.post("/v1/workflows/run", json={"inputs": {"text": "hi"}, "user": user,
                                                      "response_mode": "blocking"}, headers=api.dify())


class TestN8nWorkflowNames:
    @pytest.mark.parametrize("name", HOSTILE)
    def test_a_hostile_name_is_refused_on_create_and_put(self, api: WorkflowApi, name: str) -> None:
        created = api.client.post(BASE, json=echo_n8n(name=name), headers=api.n8n())
        assert created.status_code == 400, created.text
        assert created.json()["message"].startswith("request/body/name ")
        kept = api.client.post(BASE, json=echo_n8n(), headers=api.n8n()).json()
        put = api.client.put(f"{BASE}/{kept['id']}", json=echo_n8n(name=name), headers=api.n8n())
        assert put.status_code == 400 and put.json()["message"].startswith("request/body/name "), put.text

    def test_a_name_of_visible_text_up_to_the_cap_is_kept(self, api: WorkflowApi) -> None:
        prefix = "מסמך ‏report 報告 👩‍💻 "  # a right-to-left mark and a zero-width joiner inside stay allowed
        name = prefix + "n" * (N8N_NAME_MAX - len(prefix))
        created = api.client.post(BASE, json=echo_n8n(name=name), headers=api.n8n())
        assert created.status_code == 200 and created.json()["name"] == name, created.text
        longer = api.client.post(BASE, json=echo_n8n(name=name + "n"), headers=api.n8n())
        assert longer.status_code == 400 and "at most 128" in longer.json()["message"]


def _with_node_name(name: str) -> dict[str, Any]:
    """The echo workflow with its second node renamed, its connections following the new name."""
    body = echo_n8n()
    old = body["nodes"][1]["name"]
    body["nodes"][1]["name"] = name
    text = json.dumps(body["connections"]).replace(json.dumps(old), json.dumps(name))
    body["connections"] = json.loads(text)
    return body


class TestN8nNodeNames:
    @pytest.mark.parametrize("name", HOSTILE)
    def test_a_hostile_node_name_is_refused_on_create_and_put(self, api: WorkflowApi, name: str) -> None:
        created = api.client.post(BASE, json=_with_node_name(name), headers=api.n8n())
        assert created.status_code == 400, created.text
        assert created.json()["message"].startswith("request/body/nodes/1/name "), created.text
        kept = api.client.post(BASE, json=echo_n8n(), headers=api.n8n()).json()
        put = api.client.put(f"{BASE}/{kept['id']}", json=_with_node_name(name), headers=api.n8n())
        assert put.status_code == 400 and put.json()["message"].startswith("request/body/nodes/1/name "), put.text

    def test_a_node_name_of_visible_text_up_to_the_cap_is_kept(self, api: WorkflowApi) -> None:
        prefix = "מסמך ‏echo 👩‍💻 "
        name = prefix + "n" * (N8N_NAME_MAX - len(prefix))
        created = api.client.post(BASE, json=_with_node_name(name), headers=api.n8n())
        assert created.status_code == 200 and created.json()["nodes"][1]["name"] == name, created.text
        longer = api.client.post(BASE, json=_with_node_name(name + "n"), headers=api.n8n())
        assert longer.status_code == 400 and "at most 128" in longer.json()["message"], longer.text


class TestDifyUser:
    @pytest.mark.parametrize("user", HOSTILE)
    def test_a_hostile_user_is_invalid_param_on_run_and_stop(self, api: WorkflowApi, user: str) -> None:
        reply = _run(api, user)
        assert reply.status_code == 400 and reply.json()["code"] == "invalid_param", reply.text
        stop = api.client.post("/v1/workflows/tasks/any-task/stop", json={"user": user}, headers=api.dify())
        assert stop.status_code == 400 and stop.json()["code"] == "invalid_param", stop.text

    def test_a_user_of_visible_text_runs(self, api: WorkflowApi) -> None:
        reply = _run(api, "אורח‏-7 👩‍💻 user@example.com")
        assert reply.status_code == 200 and reply.json()["data"]["status"] == "succeeded", reply.text


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(st.sampled_from(["a", " ", "\x00", "\n", "\u202e", "\u200b", "\u200f", "\U000e0041", "政"]),
                    min_size=1, max_size=6))
def test_an_n8n_name_is_kept_exactly_when_the_name_rule_allows_it(api: WorkflowApi, name: str) -> None:
    reply = api.client.post(BASE, json=echo_n8n(name=name), headers=api.n8n())
    assert reply.status_code == (200 if name_problem(name) is None else 400), (name, reply.text)
