"""Document metadata through HTTP, exactly seed 003's rules and codes."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.knowledge_api import Gateway


def _upload(gateway: Gateway, space_id: str, metadata: Any) -> Any:
    resource = gateway.file_resource(space_id, b"# t\n\nbody text\n")
    return gateway.call("POST", f"/spaces/{space_id}/documents",
                        {"fileResourceId": resource, "documentName": "d", "metadata": metadata})


def _code(gateway: Gateway) -> str:
    return str(gateway.last.json()["meta"]["error"]["code"])


@pytest.fixture
def space_id(gateway: Gateway) -> str:
    return str(gateway.create_space()["knowledgeSpaceId"])


@pytest.mark.parametrize(("metadata", "status", "code"), [
    ({"category": "c" * 64}, 202, None),
    ({"category": "c" * 65}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    ({"versionLabel": "  v1  "}, 202, None),
    ({"productCode": "   "}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    ({"tags": [f"t{i}" for i in range(20)]}, 202, None),
    ({"tags": [f"t{i}" for i in range(21)]}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    ({"tags": ["x" * 32]}, 202, None),
    ({"tags": ["x" * 33]}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    ({"tags": ["a", " a"]}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    ({"tags": ["e\u0301", "\u00e9"]}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),  # equal after NFC
    ({"category": "a\u0007b"}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    ({"category": None}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),  # upload strings cannot be null
    ({"owner": "me"}, 400, "KNOWLEDGE_METADATA_FIELD_NOT_ALLOWED"),
    ({"tags": None}, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
    (None, 400, "KNOWLEDGE_METADATA_VALUE_INVALID"),
])
def test_upload_metadata_rules(gateway: Gateway, space_id: str, metadata: Any, status: int, code: str | None) -> None:
    response = _upload(gateway, space_id, metadata)
    assert response.status_code == status, response.text
    if code:
        assert _code(gateway) == code
        assert response.json()["meta"]["error"]["fieldErrors"]


@pytest.mark.parametrize(("category", "code"), [("a" * 4081, "KNOWLEDGE_METADATA_VALUE_INVALID"),
                                              ("a" * 4082, "KNOWLEDGE_METADATA_TOO_LARGE")])
def test_metadata_over_4096_serialised_bytes_is_too_large(gateway: Gateway, space_id: str, category: str,
                                                          code: str) -> None:
    # {"category":"…"} is 15 bytes of JSON around the value: 4,081 makes 4,096 bytes (too long a value), 4,082 one more
    response = _upload(gateway, space_id, {"category": category})
    assert response.status_code == 400 and _code(gateway) == code


def test_responses_carry_all_four_fields_normalised(gateway: Gateway, space_id: str) -> None:
    change = _upload(gateway, space_id, {"category": " Caf\u0065\u0301 "}).json()["data"]
    detail = gateway.document(change["documentId"])
    assert detail["metadata"] == {"category": "Café", "tags": [], "versionLabel": None, "productCode": None}
    assert unicodedata.is_normalized("NFC", detail["metadata"]["category"])


def test_patch_semantics(gateway: Gateway, space_id: str) -> None:
    change = _upload(gateway, space_id, {"category": "a", "tags": ["x"], "productCode": "p"}).json()["data"]
    path = f"/documents/{change['documentId']}"
    gateway.ok("PATCH", path, {"expectedVersion": 0, "metadata": {"productCode": None}})
    assert gateway.document(change["documentId"])["metadata"] == {"category": "a", "tags": ["x"],
                                                                   "versionLabel": None, "productCode": None}
    gateway.ok("PATCH", path, {"expectedVersion": 1, "metadata": {"tags": []}})
    assert gateway.document(change["documentId"])["metadata"]["tags"] == []
    assert gateway.call("PATCH", path, {"expectedVersion": 2, "metadata": {"tags": None}}).status_code == 400
    assert _code(gateway) == "KNOWLEDGE_METADATA_VALUE_INVALID"
    assert gateway.call("PATCH", path, {"expectedVersion": 2, "metadata": {"secret": 1}}).status_code == 400
    assert _code(gateway) == "KNOWLEDGE_METADATA_FIELD_NOT_ALLOWED"
    assert gateway.document(change["documentId"])["lockVersion"] == 2


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=24).filter(lambda k: k not in ("category", "tags", "versionLabel", "productCode")))
def test_any_other_metadata_field_is_refused_not_dropped(gateway: Gateway, key: str) -> None:
    space_id = gateway.create_space()["knowledgeSpaceId"]
    response = _upload(gateway, space_id, {key: "v"})
    assert response.status_code == 400 and _code(gateway) == "KNOWLEDGE_METADATA_FIELD_NOT_ALLOWED"
