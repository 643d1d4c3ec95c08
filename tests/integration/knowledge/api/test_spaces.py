"""Spaces through HTTP: limits in code points, versions from 1, no cascade, the seed's states, pagination."""

from __future__ import annotations

from typing import Any

import pytest

from ragspine.bootstrap import get_knowledge_gateway
from ragspine.errors import ProviderUnavailableError
from ragspine.knowledge.model import Space
from ragspine.knowledge.spaces import NOT_EMPTY, UNFINISHED
from tests.integration.knowledge.api.conftest import Runs
from tests.support.knowledge_api import Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)


CJK = "知"  # one code point, three UTF-8 bytes: limits count code points


def _error(gateway: Gateway) -> dict[str, Any]:
    return gateway.last.json()["meta"]["error"]  # type: ignore[no-any-return]


def _create(gateway: Gateway, **fields: Any) -> Any:
    body = {"code": "acme", "name": "ACME", "profileCode": "enterprise-long-document",
            "defaultSecurityDomainCode": "internal", **fields}
    return gateway.call("POST", "/spaces", body)


@pytest.mark.parametrize(("field", "limit"), [("name", 128), ("description", 1000)])
def test_text_limits_are_code_points_exactly(gateway: Gateway, field: str, limit: int) -> None:
    assert _create(gateway, code="at-limit", **{field: CJK * limit}).status_code == 201
    response = _create(gateway, code="over-limit", **{field: CJK * (limit + 1)})
    assert response.status_code == 400
    assert _error(gateway)["code"] == "KNOWLEDGE_INVALID_INPUT"
    assert [f["field"] for f in _error(gateway)["fieldErrors"]] == [field]


def test_code_and_security_domain_limits(gateway: Gateway) -> None:
    assert _create(gateway, code="c" * 64).status_code == 201
    assert _create(gateway, code="d" * 65).status_code == 400
    assert _error(gateway)["fieldErrors"][0]["field"] == "code"
    assert _create(gateway, code="e", defaultSecurityDomainCode="x" * 101).status_code == 400
    assert _create(gateway, code="f", defaultSecurityDomainCode="x" * 100).status_code == 403
    assert "is not configured" in _error(gateway)["message"]  # 100 passes the schema, then the domain check


def test_profile_code_is_fixed(gateway: Gateway) -> None:
    assert _create(gateway, profileCode="custom").status_code == 400
    assert _error(gateway)["fieldErrors"][0]["field"] == "profileCode"


def test_a_code_is_unique(gateway: Gateway) -> None:
    assert _create(gateway).status_code == 201
    assert _create(gateway).status_code == 409


def test_update_needs_the_version_and_a_field(gateway: Gateway) -> None:
    space = gateway.create_space()
    path = f"/spaces/{space['knowledgeSpaceId']}"
    assert gateway.call("PATCH", path, {"expectedVersion": 1}).status_code == 400
    assert _error(gateway)["fieldErrors"][0]["message"] == "send at least one of description or name"
    assert gateway.call("PATCH", path, {"expectedVersion": 2, "name": "New"}).status_code == 409
    assert gateway.call("PATCH", path, {"expectedVersion": 0, "name": "New"}).status_code == 400  # versions from 1
    updated = gateway.ok("PATCH", path, {"expectedVersion": 1, "name": "New", "description": None})
    assert (updated["name"], updated["description"], updated["version"]) == ("New", None, 2)
    assert gateway.call("PATCH", path, {"expectedVersion": 1, "name": "Again"}).status_code == 409


def test_a_non_empty_space_is_not_deleted(gateway: Gateway) -> None:
    space = gateway.create_space()
    gateway.upload(space["knowledgeSpaceId"])
    gateway.settle()
    response = gateway.call("DELETE", f"/spaces/{space['knowledgeSpaceId']}", {"expectedVersion": 1, "reason": "tidy"})
    assert response.status_code == 409 and _error(gateway)["message"] == NOT_EMPTY


def test_a_space_with_an_unfinished_operation_is_not_deleted(gateway: Gateway, runs: Runs) -> None:
    space = gateway.create_space()
    runs.hold.clear()
    gateway.upload(space["knowledgeSpaceId"])
    response = gateway.call("DELETE", f"/spaces/{space['knowledgeSpaceId']}", {"expectedVersion": 1, "reason": "x"})
    assert response.status_code == 409 and _error(gateway)["message"] == UNFINISHED
    runs.hold.set()


def test_delete_takes_no_cascade_and_the_deleted_space_is_gone(gateway: Gateway) -> None:
    space = gateway.create_space()
    path = f"/spaces/{space['knowledgeSpaceId']}"
    assert gateway.call("DELETE", path, {"expectedVersion": 1, "reason": "x", "cascade": True}).status_code == 400
    assert gateway.call("DELETE", path, {"expectedVersion": 1}).status_code == 400  # reason is required
    deleted = gateway.ok("DELETE", path, {"expectedVersion": 1, "reason": "no longer used"})
    assert deleted["status"] == "DELETED"
    assert gateway.call("GET", path, headers=gateway.headers(key=False)).status_code == 404


class _Failing:
    def prepare(self, space: Space) -> None:
        raise ProviderUnavailableError("index down")

    def release(self, space: Space) -> None:
        raise ProviderUnavailableError("index down")


def test_a_provider_failure_leaves_create_failed_and_delete_failed(gateway: Gateway) -> None:
    ready = gateway.create_space()
    get_knowledge_gateway().provisioner = _Failing()
    assert _create(gateway, code="broken").status_code == 503
    assert _error(gateway)["retryable"] is True
    listed = gateway.ok("GET", "/spaces", headers=gateway.headers(key=False))["items"]
    assert {s["code"]: s["status"] for s in listed}["broken"] == "CREATE_FAILED"
    path = f"/spaces/{ready['knowledgeSpaceId']}"
    assert gateway.call("DELETE", path, {"expectedVersion": 1, "reason": "x"}).status_code == 503
    assert gateway.ok("GET", path, headers=gateway.headers(key=False))["status"] == "DELETE_FAILED"


def test_pagination_echoes_and_counts(gateway: Gateway) -> None:
    for i in range(5):
        gateway.create_space(code=f"s{i}")
    read = gateway.headers(key=False)
    page = gateway.call("GET", "/spaces", headers=read, params={"page": 2, "pageSize": 2}).json()
    assert [s["code"] for s in page["data"]["items"]] == ["s2", "s3"]
    assert page["meta"]["pagination"] == {"page": 2, "pageSize": 2, "totalItems": 5, "totalPages": 3, "hasNext": True}
    past = gateway.call("GET", "/spaces", headers=read, params={"page": 9}).json()
    assert past["data"]["items"] == [] and past["meta"]["pagination"]["hasNext"] is False
    default = gateway.call("GET", "/spaces", headers=read).json()["meta"]["pagination"]
    assert (default["page"], default["pageSize"], default["totalPages"]) == (1, 20, 1)


@pytest.mark.parametrize(("params", "status"), [({"pageSize": 100}, 200), ({"pageSize": 101}, 400),
                                                 ({"pageSize": 0}, 400), ({"page": 0}, 400), ({"page": 1}, 200),
                                                 ({"cursor": "abc"}, 400), ({"limit": 5}, 400)])
def test_page_size_bounds_and_no_cursor(gateway: Gateway, params: dict[str, Any], status: int) -> None:
    assert gateway.call("GET", "/spaces", headers=gateway.headers(key=False), params=params).status_code == status


def test_an_empty_list_has_zero_pages(gateway: Gateway) -> None:
    body = gateway.call("GET", "/spaces", headers=gateway.headers(key=False)).json()
    assert body["meta"]["pagination"] == {"page": 1, "pageSize": 20, "totalItems": 0, "totalPages": 0,
                                          "hasNext": False}


def test_the_operator_disables_and_enables_a_space(gateway: Gateway) -> None:
    from typer.testing import CliRunner

    from ragspine.cli import app

    space = gateway.create_space()
    result = CliRunner().invoke(app, ["knowledge", "space", "disable", space["knowledgeSpaceId"]])
    assert result.exit_code == 0 and "DISABLED" in result.output
    resource = gateway.call("POST", f"/spaces/{space['knowledgeSpaceId']}/file-resources",
                            {"fileName": "a.md", "mimeType": "text/markdown", "fileSize": 3})
    assert resource.status_code == 409
    assert CliRunner().invoke(app, ["knowledge", "space", "enable", space["knowledgeSpaceId"]]).exit_code == 0
    assert gateway.ok("GET", f"/spaces/{space['knowledgeSpaceId']}", headers=gateway.headers(key=False))[
        "status"] == "ACTIVE"
