"""The Gateway contract file: valid OpenAPI 3.1, closed schemas, seed-003 tool policies, examples, manifest."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ragspine.knowledge.contract import load_contract, manifest_text, schema_validator, tools
from tests.support.cfn import REPO_ROOT

# Seed 003's tool table, transcribed: (Gateway action, approval, concurrency) per tool, and its toolset.
SEED_TOOLS = {
    "knowledge_space_list": ("SPACE_VIEW", "allow", "parallel", "read"),
    "knowledge_space_get": ("SPACE_VIEW", "allow", "parallel", "read"),
    "knowledge_document_list": ("DOCUMENT_VIEW", "allow", "parallel", "read"),
    "knowledge_document_get": ("DOCUMENT_VIEW", "allow", "parallel", "read"),
    "knowledge_operation_get": ("RESOURCE_VIEW", "allow", "parallel", "read"),
    "knowledge_search": ("KNOWLEDGE_SEARCH", "allow", "parallel", "read"),
    "knowledge_document_upload": ("DOCUMENT_UPLOAD", "allow", "exclusive", "write"),
    "knowledge_document_update": ("DOCUMENT_UPDATE", "allow", "exclusive", "write"),
    "knowledge_document_replace": ("DOCUMENT_UPDATE", "ask", "exclusive", "write"),
    "knowledge_document_enable": ("DOCUMENT_UPDATE", "ask", "exclusive", "write"),
    "knowledge_document_disable": ("DOCUMENT_UPDATE", "ask", "exclusive", "write"),
    "knowledge_document_reindex": ("DOCUMENT_REINDEX", "ask", "exclusive", "write"),
    "knowledge_operation_cancel": ("OPERATION_RESOURCE", "ask", "exclusive", "write"),
    "knowledge_operation_retry": ("OPERATION_RESOURCE+OPERATION_RETRY", "ask", "exclusive", "write"),
    "knowledge_space_create": ("SPACE_CREATE", "ask", "exclusive", "admin"),
    "knowledge_space_update": ("SPACE_UPDATE", "ask", "exclusive", "admin"),
    "knowledge_space_delete": ("SPACE_DELETE", "ask", "exclusive", "admin"),
    "knowledge_document_delete": ("DOCUMENT_DELETE", "ask", "exclusive", "admin"),
    "knowledge_source_read": ("DOCUMENT_VIEW", "allow", "parallel", "read"),
    "knowledge_document_download": ("DOCUMENT_DOWNLOAD", "ask", "parallel", "read"),
}
FILE_TOOLS = {"file_resource_create", "file_resource_upload", "file_download"}
# Supporting routes' policies (not seed tools): the signed download link is followed without approval.
FILE_POLICIES = {"file_download": ("DOCUMENT_DOWNLOAD", "allow", "parallel", "read")}
# POSTs that are reads: issuing a download link is never replayed (seed 003), so it takes no key.
SIGNED_URL_ROUTES = {"file_resource_upload", "file_download"}  # the signed URL is the credential


def validator(name: str) -> Any:
    return schema_validator(name)


def _objects(node: Any, where: str = "") -> list[tuple[str, dict[str, Any]]]:
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object":
            found.append((where, node))
        for key, value in node.items():
            found += _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _objects(value, f"{where}/{i}")
    return found


def test_the_contract_is_openapi_3_1_with_a_route_per_tool() -> None:
    spec = load_contract()
    assert spec["openapi"].startswith("3.1")
    names = [t.name for t in tools()]
    assert len(names) == len(set(names))
    assert set(names) == set(SEED_TOOLS) | FILE_TOOLS
    assert all(t.path.startswith("/internal/v1/knowledge/") for t in tools())


def test_every_tool_carries_the_seed_policy_exactly() -> None:
    for t in tools():
        if t.name in FILE_TOOLS:
            expected = FILE_POLICIES.get(t.name, ("DOCUMENT_UPLOAD", "allow", "exclusive", "write"))
            assert (t.action, t.approval, t.concurrency, t.toolset) == expected, t.name
            continue
        assert (t.action, t.approval, t.concurrency, t.toolset) == SEED_TOOLS[t.name], t.name


def test_every_object_schema_is_closed() -> None:
    spec = load_contract()
    objects = _objects(spec["components"]["schemas"])
    assert len(objects) > 30
    for where, schema in objects:
        assert schema.get("additionalProperties") is False, where


def test_every_operation_documents_its_errors_with_the_envelope() -> None:
    spec = load_contract()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            codes = set(operation["responses"])
            assert {"400", "500", "503"} <= codes, (method, path)
            for code in codes - {"200", "201", "202"}:
                assert operation["responses"][code]["$ref"] == f"#/components/responses/E{code}"
    for response in spec["components"]["responses"].values():
        assert response["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorEnvelope")


def test_mutations_require_an_idempotency_key_and_every_route_takes_the_assertion() -> None:
    spec = load_contract()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            refs = {p["$ref"].rsplit("/", 1)[-1] for p in operation["parameters"] if "$ref" in p}
            if operation["x-knowledge-tool"] in SIGNED_URL_ROUTES:
                assert operation["security"] == []  # the signed URL is the credential
                continue
            assert "XUserAssertion" in refs
            # Every mutation takes one; a read tool sent with POST (knowledge_search) changes nothing.
            mutation = method != "get" and operation["x-knowledge-toolset"] != "read"
            assert ("IdempotencyKey" in refs) == mutation, (method, path)


@pytest.mark.parametrize("name", sorted(load_contract()["components"]["examples"]))
def test_each_example_validates_against_its_schema(name: str) -> None:
    example = load_contract()["components"]["examples"][name]
    validator(example["x-schema"]).validate(example["value"])


def test_the_required_examples_exist() -> None:
    schemas = {e["x-schema"] for e in load_contract()["components"]["examples"].values()}
    assert {"KnowledgeDocumentDetailEnvelope", "DocumentSummaryPageEnvelope", "ErrorEnvelope",
            "DocumentUpdateRequest", "KnowledgeSearchRequest", "KnowledgeSearchResultEnvelope"} <= schemas


def test_a_closed_schema_refuses_a_forbidden_field() -> None:
    errors = list(validator("DocumentUploadRequest").iter_errors(
        {"fileResourceId": "fr-1", "documentName": "a", "datasetId": "rag-1"}))
    assert errors and "datasetId" in errors[0].message


def test_the_committed_manifest_matches_the_contract() -> None:
    committed = (REPO_ROOT / "contracts" / "knowledge-capabilities.json").read_text(encoding="utf-8")
    assert committed == manifest_text(), "run `ragspine knowledge manifest --out contracts/knowledge-capabilities.json`"
    body = json.loads(committed)
    assert len(body["toolsets"]["read"]) == 8 and len(body["toolsets"]["admin"]) == 20  # seed 003: 8 read, 20 in all
    assert set(body["toolsets"]["read"]) <= set(body["toolsets"]["write"]) <= set(body["toolsets"]["admin"])


def test_the_manifest_drifts_when_the_contract_changes() -> None:
    spec = json.loads(json.dumps(load_contract()))
    spec["paths"]["/internal/v1/knowledge/spaces"]["get"]["x-knowledge-approval"] = "ask"
    assert manifest_text(spec) != manifest_text()


def test_the_manifest_command_writes_the_committed_file(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from ragspine.cli import app

    out = tmp_path / "manifest.json"
    result = CliRunner().invoke(app, ["knowledge", "manifest", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == (REPO_ROOT / "contracts" / "knowledge-capabilities.json").read_text(
        encoding="utf-8")
