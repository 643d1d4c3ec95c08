"""Documents through HTTP: optimistic locking, versions and the two slots, enable/disable, delete."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.integration.knowledge.api.conftest import Runs
from tests.support.knowledge_api import SAMPLE_MD, Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)


def _error(gateway: Gateway) -> dict[str, Any]:
    return gateway.last.json()["meta"]["error"]  # type: ignore[no-any-return]


@pytest.fixture
def ready(gateway: Gateway) -> dict[str, Any]:
    """An ACTIVE document with its first version READY."""
    space = gateway.create_space()
    change = gateway.upload(space["knowledgeSpaceId"])
    gateway.settle()
    return gateway.document(change["documentId"])


@pytest.mark.parametrize("offset", [-1, 1])
def test_expected_version_off_by_one_is_a_conflict(gateway: Gateway, ready: dict[str, Any], offset: int) -> None:
    path = f"/documents/{ready['documentId']}"
    lock = gateway.ok("PATCH", path, {"expectedVersion": 0, "documentName": "Read"})["lockVersion"]
    assert lock == 1
    response = gateway.call("PATCH", path, {"expectedVersion": lock + offset, "documentName": "X"})
    assert response.status_code == 409
    assert _error(gateway)["code"] == "KNOWLEDGE_CONFLICT" and "lockVersion" in _error(gateway)["message"]
    assert gateway.document(ready["documentId"])["documentName"] == "Read"  # nothing changed
    assert gateway.document(ready["documentId"])["lockVersion"] == 1  # the server never increments for the caller


def test_the_exact_lock_version_wins_and_the_lock_rises_by_one(gateway: Gateway, ready: dict[str, Any]) -> None:
    assert ready["lockVersion"] == 0  # 0 is a valid expectedVersion
    path = f"/documents/{ready['documentId']}"
    updated = gateway.ok("PATCH", path, {"expectedVersion": 0, "documentName": "Travel policy 2026"})
    assert updated["lockVersion"] == 1 and updated["documentName"] == "Travel policy 2026"
    assert gateway.call("PATCH", path, {"expectedVersion": 0, "documentName": "Again"}).status_code == 409


def test_two_concurrent_mutations_with_the_same_version_one_wins(gateway: Gateway, ready: dict[str, Any]) -> None:
    path = f"/documents/{ready['documentId']}"
    statuses: list[int] = []
    start = threading.Barrier(8)

    def mutate(i: int) -> None:
        headers = gateway.headers()
        start.wait()
        response = gateway.client.patch("/internal/v1/knowledge" + path, headers=headers,
                                        json={"expectedVersion": 0, "documentName": f"name {i}"})
        statuses.append(response.status_code)

    threads = [threading.Thread(target=mutate, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 7
    assert gateway.document(ready["documentId"])["lockVersion"] == 1


def test_replace_activates_a_new_version_and_retires_the_old(gateway: Gateway, ready: dict[str, Any]) -> None:
    space_id = ready["spaceId"]
    resource = gateway.file_resource(space_id, (SAMPLE_MD + "\nNew rule.\n").encode())
    change = gateway.ok("POST", f"/documents/{ready['documentId']}:replace",
                        {"expectedVersion": 0, "fileResourceId": resource})
    assert (change["versionNo"], change["lockVersion"]) == (2, 1)
    gateway.settle()
    detail = gateway.document(ready["documentId"])
    assert detail["activeVersion"]["versionNo"] == 2 and detail["candidateVersion"] is None
    first = gateway.operation(ready["activeVersion"]["operationId"])
    assert first["status"] == "SUCCEEDED"


def test_replace_and_reindex_take_no_metadata(gateway: Gateway, ready: dict[str, Any]) -> None:
    body = {"expectedVersion": 0, "metadata": {"category": "x"}}
    assert gateway.call("POST", f"/documents/{ready['documentId']}:reindex", body).status_code == 400
    assert _error(gateway)["fieldErrors"] == [{"field": "metadata", "message": "not allowed"}]


def test_reindex_runs_the_same_file_again(gateway: Gateway, ready: dict[str, Any]) -> None:
    change = gateway.ok("POST", f"/documents/{ready['documentId']}:reindex", {"expectedVersion": 0})
    gateway.settle()
    detail = gateway.document(ready["documentId"])
    assert detail["activeVersion"]["versionId"] == change["versionId"]
    assert detail["activeVersion"]["changeType"] == "REINDEX" and detail["activeVersion"]["fileName"] == "policy.md"


def test_one_candidate_at_a_time(gateway: Gateway, ready: dict[str, Any], runs: Runs) -> None:
    runs.hold.clear()
    gateway.ok("POST", f"/documents/{ready['documentId']}:reindex", {"expectedVersion": 0})
    detail = gateway.document(ready["documentId"])
    assert detail["candidateVersion"]["status"] in ("CREATED", "UPLOADING")  # held in fetch: the bytes are not in yet
    assert detail["candidateVersion"]["progress"]["percent"] is None
    assert detail["candidateVersion"]["progress"]["note"] == "the provider gave no reliable percentage"
    response = gateway.call("POST", f"/documents/{ready['documentId']}:reindex", {"expectedVersion": 1})
    assert response.status_code == 409 and _error(gateway)["code"] == "KNOWLEDGE_OPERATION_PENDING"
    assert _error(gateway)["retryable"] is True
    runs.hold.set()


def test_disable_makes_it_unsearchable_and_enable_restores(gateway: Gateway, ready: dict[str, Any]) -> None:
    path = f"/documents/{ready['documentId']}"
    disabled = gateway.ok("POST", path + ":disable", {"expectedVersion": 0})
    assert (disabled["status"], disabled["searchable"]) == ("DISABLED", False)
    assert gateway.call("POST", path + ":disable", {"expectedVersion": 1}).status_code == 409
    enabled = gateway.ok("POST", path + ":enable", {"expectedVersion": 1})
    assert (enabled["status"], enabled["searchable"], enabled["lockVersion"]) == ("ACTIVE", True, 2)


def test_delete_removes_the_document_and_its_chunks(gateway: Gateway, ready: dict[str, Any]) -> None:
    from ragspine.bootstrap import get_services

    index = get_services().retrieval.index  # type: ignore[union-attr]
    before = index.count()
    assert before > 0
    path = f"/documents/{ready['documentId']}"
    deleted = gateway.ok("DELETE", path, {"expectedVersion": 0})
    assert deleted["status"] == "DELETED"
    assert index.count() == 0
    assert gateway.call("GET", path, headers=gateway.headers(key=False)).status_code == 404
    space = gateway.ok("GET", f"/spaces/{ready['spaceId']}", headers=gateway.headers(key=False))
    assert space["documentCount"] == 0


def test_list_returns_summaries_not_details(gateway: Gateway, ready: dict[str, Any]) -> None:
    items = gateway.ok("GET", f"/spaces/{ready['spaceId']}/documents", headers=gateway.headers(key=False))["items"]
    assert [i["documentId"] for i in items] == [ready["documentId"]]
    assert "activeVersion" not in items[0] and items[0]["activeVersionNo"] == 1


@pytest.mark.parametrize(("length", "status"), [(255, 202), (256, 400)])
def test_document_name_limit(gateway: Gateway, length: int, status: int) -> None:
    space = gateway.create_space()
    resource = gateway.file_resource(space["knowledgeSpaceId"], b"# t\n\nbody text\n")
    response = gateway.call("POST", f"/spaces/{space['knowledgeSpaceId']}/documents",
                            {"fileResourceId": resource, "documentName": "名" * length})
    assert response.status_code == status


@pytest.mark.parametrize(("length", "status"), [(128, 404), (129, 400)])
def test_file_resource_id_limit(gateway: Gateway, length: int, status: int) -> None:
    space = gateway.create_space()
    response = gateway.call("POST", f"/spaces/{space['knowledgeSpaceId']}/documents",
                            {"fileResourceId": "f" * length, "documentName": "n"})
    assert response.status_code == status  # 128 is valid input naming no resource; 129 is refused as input
