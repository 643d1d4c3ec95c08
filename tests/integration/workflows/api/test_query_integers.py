"""An integer in a query string is ASCII digits only, on every route of the service: one rule, the Gateway's."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.workflow_api import WorkflowApi, echo_n8n

# Each route, with the other query parameters it needs to answer 200.
ROUTES = {"/v1/feedback": {}, "/v1/catalog/search": {"q": "refund"}, "/api/v1/workflows": {},
          "/api/v1/executions": {}}
LENIENT_FORMS = ["1_0", "+5", "5.0", " 5", "5 ", "٥", "５", "0x5", "5e0", "-5", "", "1" * 19]


@pytest.mark.parametrize("route", sorted(ROUTES))
class TestQueryIntegers:
    def test_ascii_digits_are_read(self, api: WorkflowApi, route: str) -> None:
        reply = api.client.get(route, params={**ROUTES[route], "limit": "5"}, headers=api.n8n())
        assert reply.status_code == 200, reply.text

    @pytest.mark.parametrize("value", LENIENT_FORMS)
    def test_any_other_form_is_a_400(self, api: WorkflowApi, route: str, value: str) -> None:
        reply = api.client.get(route, params={**ROUTES[route], "limit": value}, headers=api.n8n())
        assert reply.status_code == 400, f"limit={value!r}: {reply.status_code} {reply.text[:200]}"
        assert "limit" in reply.text


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.text(max_size=8))
def test_a_limit_is_read_only_when_it_is_ascii_digits(api: WorkflowApi, value: str) -> None:
    reply = api.client.get("/api/v1/workflows", params={"limit": value}, headers=api.n8n())
    digits = value.isascii() and value.isdigit() and 1 <= int(value) <= 250
    assert reply.status_code == (200 if digits else 400), (value, reply.text[:200])


def _one_execution(api: WorkflowApi) -> str:
    body = api.client.post("/api/v1/workflows", json=echo_n8n(path="ints", name="Echo ints"), headers=api.n8n()).json()
    assert api.client.post(f"/api/v1/workflows/{body['id']}/activate", headers=api.n8n()).status_code == 200
    assert api.client.post("/webhook/ints", json={"text": "x"}).status_code == 200
    listed = api.client.get("/api/v1/executions", headers=api.n8n()).json()["data"]
    return str(listed[0]["id"])


PATH_FORMS = ["+{id}", " {id}", "{id} ", "{id}.0", "0_{id}", "{id}_0"]


@pytest.mark.parametrize("method", ["GET", "DELETE"])
@pytest.mark.parametrize("form", PATH_FORMS)
def test_an_integer_in_the_path_follows_the_same_rule(api: WorkflowApi, method: str, form: str) -> None:
    execution = _one_execution(api)
    raw = form.format(id=execution)
    reply = api.client.request(method, f"/api/v1/executions/{quote(raw, safe='')}", headers=api.n8n())
    assert reply.status_code == 400, f"{raw!r} read as execution {execution}: {reply.status_code} {reply.text[:200]}"
    assert api.client.get(f"/api/v1/executions/{execution}", headers=api.n8n()).status_code == 200
