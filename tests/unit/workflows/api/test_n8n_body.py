"""n8n body validation speaks n8n's wording: read-only, required and additional properties."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.workflows.surfaces.errors import WorkflowRequestError, WorkflowRequestUnprocessableError
from ragspine.workflows.surfaces.n8n_body import check_body
from tests.support.workflow_api import echo_n8n


def _refused(body: Any, *, allow_version: bool = False) -> str:
    with pytest.raises(WorkflowRequestError) as caught:
        check_body(body, allow_version=allow_version)
    assert caught.value.http_status == 400
    return caught.value.message


class TestReadOnly:
    def test_active_in_a_create_body_is_read_only(self) -> None:
        assert _refused({**echo_n8n(), "active": True}) == "request/body/active is read-only"

    @pytest.mark.parametrize("field", ["id", "createdAt", "updatedAt", "tags", "meta", "isArchived", "triggerCount"])
    def test_every_read_only_field_is_refused(self, field: str) -> None:
        assert _refused({**echo_n8n(), field: "x"}) == f"request/body/{field} is read-only"

    def test_version_id_is_a_precondition_on_put_only(self) -> None:
        assert _refused({**echo_n8n(), "versionId": "v1"}) == "request/body/versionId is read-only"
        assert check_body({**echo_n8n(), "versionId": "v1"}, allow_version=True).version_id == "v1"


class TestRequired:
    @pytest.mark.parametrize("field", ["name", "nodes", "connections", "settings"])
    def test_each_required_field_is_named_when_missing(self, field: str) -> None:
        body = echo_n8n()
        del body[field]
        assert _refused(body) == f"request/body must have required property '{field}'"

    def test_a_body_that_is_not_an_object_is_refused(self) -> None:
        assert _refused([1, 2]) == "request/body must be object"


class TestAdditional:
    def test_unknown_settings_keys_are_refused(self) -> None:
        body = {**echo_n8n(), "settings": {"executionOrder": "v1", "colour": "blue"}}
        assert _refused(body) == "request/body/settings must NOT have additional properties (colour)"

    def test_a_known_setting_with_a_bad_value_is_refused(self) -> None:
        body = {**echo_n8n(), "settings": {"saveDataErrorExecution": "sometimes"}}
        assert _refused(body) == "request/body/settings/saveDataErrorExecution has an invalid value"

    def test_unknown_top_level_fields_are_refused(self) -> None:
        assert "additional properties (owner)" in _refused({**echo_n8n(), "owner": "me"})

    def test_unknown_node_fields_are_refused(self) -> None:
        body = echo_n8n()
        body["nodes"][1]["colour"] = "red"
        assert _refused(body) == "request/body/nodes/1 must NOT have additional properties (colour)"

    def test_a_node_without_a_type_names_its_place(self) -> None:
        body = echo_n8n()
        del body["nodes"][2]["type"]
        assert _refused(body).startswith("request/body/nodes/2/type ")

    def test_duplicate_node_names_are_refused(self) -> None:
        body = echo_n8n()
        body["nodes"][1]["name"] = "Webhook"
        with pytest.raises(WorkflowRequestUnprocessableError, match="nodes/1/name must be unique") as caught:
            check_body(body)
        assert caught.value.http_status == 422  # schema-valid, so not 400: JSON Schema cannot state uniqueness


def test_writable_extras_are_kept() -> None:
    parsed = check_body({**echo_n8n(), "pinData": {}, "staticData": None, "description": "d"})
    assert parsed.extras == {"pinData": {}, "staticData": None, "description": "d"}
