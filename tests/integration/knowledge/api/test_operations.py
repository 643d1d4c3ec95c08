"""Operations through HTTP: automatic retries inside the run, manual retries as children (3 per root), cancel."""

from __future__ import annotations

import pytest

from ragspine.knowledge.operations import ALREADY_FINISHED, NOT_RETRYABLE, RETRY_LIMIT
from tests.integration.knowledge.api.conftest import Runs
from tests.support.knowledge_api import Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)


def _error(gateway: Gateway) -> dict[str, object]:
    return gateway.last.json()["meta"]["error"]  # type: ignore[no-any-return]


@pytest.fixture
def failed(gateway: Gateway, runs: Runs) -> dict[str, str]:
    """A first upload whose run failed retryably (the index was unreachable on every attempt)."""
    runs.index_down = True
    change = gateway.upload(gateway.create_space()["knowledgeSpaceId"])
    gateway.settle()
    return change  # type: ignore[no-any-return]


def test_a_retryable_failure_stays_visible_with_its_retries(gateway: Gateway, failed: dict[str, str]) -> None:
    operation = gateway.operation(failed["operationId"])
    assert operation["status"] == "FAILED" and operation["retryable"] is True
    assert operation["retryCount"] == 4  # automatic retries inside the same operation (5 attempts of the step)
    assert operation["error"]["code"] == "KNOWLEDGE_PROVIDER_UNAVAILABLE"
    assert operation["progress"]["percent"] is None
    detail = gateway.document(failed["documentId"])
    assert detail["status"] == "CREATE_FAILED" and detail["activeVersion"] is None
    assert detail["candidateVersion"]["status"] == "FAILED" and detail["candidateVersion"]["retryable"] is True


def test_manual_retry_creates_a_child_and_succeeds_when_the_cause_is_gone(gateway: Gateway, runs: Runs,
                                                                         failed: dict[str, str]) -> None:
    runs.index_down = False
    child = gateway.ok("POST", f"/operations/{failed['operationId']}:retry", {"reason": "index is back"})
    assert set(child) == {"operationId", "parentOperationId", "status"}
    assert child["parentOperationId"] == failed["operationId"] and child["operationId"] != failed["operationId"]
    gateway.settle()
    detail = gateway.operation(child["operationId"])
    assert (detail["status"], detail["rootOperationId"], detail["manualRetryCount"]) == (
        "SUCCEEDED", failed["operationId"], 1)
    assert detail["lastRetryAt"] is not None
    document = gateway.document(failed["documentId"])
    assert document["status"] == "ACTIVE" and document["activeVersion"]["operationId"] == child["operationId"]


def test_three_manual_retries_per_root_and_the_fourth_is_a_conflict(gateway: Gateway, failed: dict[str, str]) -> None:
    last = failed["operationId"]
    for _ in range(3):
        last = gateway.ok("POST", f"/operations/{last}:retry", {"reason": "again"})["operationId"]
        gateway.settle()
    assert gateway.call("POST", f"/operations/{last}:retry", {"reason": "again"}).status_code == 409
    assert _error(gateway)["message"] == RETRY_LIMIT
    assert gateway.operation(last)["manualRetryCount"] == 3


def test_a_superseded_or_succeeded_operation_is_not_retryable(gateway: Gateway, failed: dict[str, str]) -> None:
    gateway.ok("POST", f"/operations/{failed['operationId']}:retry", {"reason": "again"})
    gateway.settle()
    assert gateway.call("POST", f"/operations/{failed['operationId']}:retry", {"reason": "x"}).status_code == 409
    assert str(_error(gateway)["message"]).startswith(NOT_RETRYABLE)


def test_retry_needs_a_reason(gateway: Gateway, failed: dict[str, str]) -> None:
    assert gateway.call("POST", f"/operations/{failed['operationId']}:retry", {}).status_code == 400
    assert gateway.call("POST", f"/operations/{failed['operationId']}:retry", {"reason": " "}).status_code == 400


def test_cancel_a_pending_run_leaves_the_candidate_cancelled(gateway: Gateway, runs: Runs) -> None:
    runs.hold.clear()
    change = gateway.upload(gateway.create_space()["knowledgeSpaceId"])
    cancelled = gateway.ok("POST", f"/operations/{change['operationId']}:cancel", {})
    assert cancelled["status"] == "CANCELLED"
    runs.hold.set()
    gateway.settle()
    detail = gateway.document(change["documentId"])
    assert detail["candidateVersion"]["status"] == "CANCELLED" and detail["activeVersion"] is None
    assert detail["searchable"] is False
    assert gateway.call("POST", f"/operations/{change['operationId']}:cancel", {}).status_code == 409
    assert _error(gateway)["message"] == ALREADY_FINISHED
    from ragspine.bootstrap import get_services

    assert get_services().retrieval.index.count() == 0  # type: ignore[union-attr]  # nothing half-visible


def test_cancel_takes_exactly_an_empty_body(gateway: Gateway, runs: Runs) -> None:
    runs.hold.clear()
    change = gateway.upload(gateway.create_space()["knowledgeSpaceId"])
    assert gateway.call("POST", f"/operations/{change['operationId']}:cancel", {"force": True}).status_code == 400
    runs.hold.set()
