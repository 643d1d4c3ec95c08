"""API keys are shown once, stored as a salted hash, and checked by kind in constant time."""

from __future__ import annotations

import pytest

from ragspine.workflows.surfaces.errors import WorkflowUnauthenticatedError
from ragspine.workflows.surfaces.keys import PREFIXES, issue_key, key_record, verify_key
from ragspine.workflows.surfaces.records import ApiKeyRecord, KeyKind
from tests.fakes.workflow_store import InMemoryWorkflowStore
from tests.support.workflow_api import EVENT_APP_KEY, NOW


@pytest.fixture
def store() -> InMemoryWorkflowStore:
    return InMemoryWorkflowStore()


class TestIssue:
    def test_an_issued_key_verifies_and_names_its_workflow(self, store: InMemoryWorkflowStore) -> None:
        issued = issue_key(KeyKind.APP, created_at=NOW, workflow_id="wf1")
        store.put_key(issued.record)
        assert issued.plaintext.startswith("app-")
        assert verify_key(issued.plaintext, KeyKind.APP, store=store).workflow_id == "wf1"

    def test_the_stored_record_holds_neither_the_key_nor_its_secret(self) -> None:
        issued = issue_key(KeyKind.N8N, created_at=NOW)
        secret = issued.plaintext[len(PREFIXES[KeyKind.N8N]) + 12:]
        assert issued.plaintext not in issued.record.dumps() and secret not in issued.record.dumps()

    def test_two_records_of_the_same_key_have_different_salts_and_digests(self) -> None:
        first = key_record(EVENT_APP_KEY, KeyKind.APP, created_at=NOW)
        second = key_record(EVENT_APP_KEY, KeyKind.APP, created_at=NOW)
        assert first.salt != second.salt and first.digest != second.digest

    def test_a_record_round_trips_through_its_json(self) -> None:
        record = key_record(EVENT_APP_KEY, KeyKind.APP, created_at=NOW, workflow_id="wf1")
        assert ApiKeyRecord.loads(record.dumps()) == record


class TestVerify:
    @pytest.mark.parametrize("presented", ["", "app-", "app-xyz", "Bearer app-1", EVENT_APP_KEY + "0",
                                           EVENT_APP_KEY.upper().replace("APP-", "app-")])
    def test_malformed_keys_are_refused(self, store: InMemoryWorkflowStore, presented: str) -> None:
        with pytest.raises(WorkflowUnauthenticatedError):
            verify_key(presented, KeyKind.APP, store=store)

    def test_a_wrong_secret_is_refused(self, store: InMemoryWorkflowStore) -> None:
        issued = issue_key(KeyKind.APP, created_at=NOW)
        store.put_key(issued.record)
        wrong = issued.plaintext[:-1] + ("0" if issued.plaintext[-1] != "0" else "1")
        with pytest.raises(WorkflowUnauthenticatedError, match="not valid"):
            verify_key(wrong, KeyKind.APP, store=store)

    def test_an_unknown_key_id_is_refused(self, store: InMemoryWorkflowStore) -> None:
        with pytest.raises(WorkflowUnauthenticatedError, match="not valid"):
            verify_key(EVENT_APP_KEY, KeyKind.APP, store=store)
        assert store.calls == [f"get_key {EVENT_APP_KEY[4:16]}"]

    def test_a_record_of_the_other_kind_does_not_open_this_api(self, store: InMemoryWorkflowStore) -> None:
        # GIVEN an n8n record stored under the key id an app key claims
        app_key = issue_key(KeyKind.APP, created_at=NOW)
        store.put_key(ApiKeyRecord(**{**_fields(app_key.record), "kind": KeyKind.N8N}))
        # THEN the app key does not verify, although id and secret match
        with pytest.raises(WorkflowUnauthenticatedError):
            verify_key(app_key.plaintext, KeyKind.APP, store=store)


def _fields(record: ApiKeyRecord) -> dict[str, object]:
    return {name: getattr(record, name) for name in record.__slots__}
