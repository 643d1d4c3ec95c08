"""An integer in a query string is ASCII digits only, on every route of the service: one rule, the Gateway's."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.workflow_api import WorkflowApi

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
