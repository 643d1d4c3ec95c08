"""A business system's session: create a space, upload a file, watch the operation, read the detail."""

from __future__ import annotations

import pytest

from tests.support.knowledge_api import Gateway

pytestmark = pytest.mark.both_backends  # every test here runs on the embedded default and on AWS (moto)


def test_upload_runs_the_ingestion_and_activates_the_first_version(gateway: Gateway) -> None:
    space = gateway.create_space()
    assert space["status"] == "ACTIVE" and space["version"] == 1
    change = gateway.upload(space["knowledgeSpaceId"], metadata={"category": " policy ", "tags": ["travel"]})
    assert change["lockVersion"] == 0 and change["versionNo"] == 1
    gateway.settle()
    operation = gateway.operation(change["operationId"])
    assert operation["status"] == "SUCCEEDED" and operation["progress"]["percent"] == 100
    detail = gateway.document(change["documentId"])
    assert detail["status"] == "ACTIVE" and detail["searchable"] is True
    assert detail["candidateVersion"] is None
    assert detail["activeVersion"]["status"] == "READY" and detail["activeVersion"]["progress"]["percent"] == 100
    assert detail["metadata"] == {"category": "policy", "tags": ["travel"], "versionLabel": None, "productCode": None}
