"""One behaviour suite for the Gateway store: SQLite (knowledge.db) and DynamoDB (moto, table from template.yaml)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from ragspine.errors import ConflictError
from ragspine.knowledge.identity import new_token, token_matches
from ragspine.knowledge.model import (
    Action,
    AuditEntry,
    ChangeType,
    Document,
    DocumentStatus,
    FileResource,
    GatewayOperation,
    Grant,
    Metadata,
    PrincipalType,
    Space,
    SpaceStatus,
    Version,
    VersionStatus,
)
from ragspine.knowledge.ports import Change, KnowledgeStore
from ragspine.knowledge.sqlite_store import SqliteKnowledgeStore
from tests.support.cfn import dynamodb_create_table_kwargs

NOW = datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
REGION = "us-east-1"


@pytest.fixture(params=["sqlite", "dynamodb"])
def store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[KnowledgeStore]:
    if request.param == "sqlite":
        yield SqliteKnowledgeStore(tmp_path / "knowledge.db")
        return
    from moto import mock_aws

    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.setenv(name, "testing")
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    with mock_aws():
        import boto3

        from ragspine.aws.dynamo_knowledge import DynamoKnowledgeStore

        client = boto3.client("dynamodb", region_name=REGION)
        client.create_table(**dynamodb_create_table_kwargs("KnowledgeTable", "knowledge-test"))
        yield DynamoKnowledgeStore("knowledge-test", client=client)


def _space(code: str = "acme", **changes: Any) -> Space:
    return replace(Space(id=f"ks-{code}", code=code, name="ACME", description=None, security_domain="internal",
                         status=SpaceStatus.ACTIVE, version=1, created_at=NOW, updated_at=NOW), **changes)


def _document(i: int = 1, space: str = "ks-acme") -> Document:
    return Document(id=f"doc-{i}", space_id=space, name=f"doc {i}", status=DocumentStatus.CREATING, lock_version=0,
                    security_domain="internal", metadata=Metadata(category="c", tags=("a",)), active_version_id=None,
                    candidate_version_id=f"ver-{i}", created_at=NOW + timedelta(seconds=i), updated_at=NOW)


def _version(i: int = 1, number: int = 1) -> Version:
    return Version(id=f"ver-{i}", document_id="doc-1", number=number, change_type=ChangeType.UPLOAD,
                   status=VersionStatus.UPLOADED, file_resource_id="fr-1", file_name="a.md", mime_type="text/markdown",
                   file_size=3, operation_id=f"op-{i}", created_at=NOW, updated_at=NOW)


def _operation(i: int = 1, root: str | None = None, retry_no: int = 0) -> GatewayOperation:
    return GatewayOperation(id=f"op-{i}", type=ChangeType.UPLOAD, space_id="ks-acme", document_id="doc-1",
                            version_id="ver-1", parent_id=root, root_id=root or f"op-{i}", reason=None,
                            created_at=NOW + timedelta(seconds=i), retry_no=retry_no)


def test_spaces_round_trip_with_unique_codes_and_versions(store: KnowledgeStore) -> None:
    store.commit(Change(space=_space()))
    assert store.space("ks-acme") == _space()
    with pytest.raises(ConflictError):
        store.commit(Change(space=_space(id="ks-other")))  # the code is taken
    store.commit(Change(space=_space(version=2, name="New"), space_expected=1))
    with pytest.raises(ConflictError):
        store.commit(Change(space=_space(version=3), space_expected=1))
    assert [s.name for s in store.spaces()] == ["New"]


def test_a_change_is_all_or_nothing(store: KnowledgeStore) -> None:
    store.commit(Change(document=_document(), versions=[_version()], operations=[_operation()]))
    assert store.document("doc-1") == _document() and store.versions("doc-1") == [_version()]
    stale = replace(_document(), lock_version=1, name="renamed")
    with pytest.raises(ConflictError):
        store.commit(Change(document=stale, document_expected=5, versions=[_version(2, 2)]))
    assert store.document("doc-1") == _document() and store.version("ver-2") is None
    store.commit(Change(document=stale, document_expected=0))
    assert store.document("doc-1") == stale


def test_concurrent_writers_with_one_expected_version_one_wins(store: KnowledgeStore) -> None:
    store.commit(Change(document=_document()))
    outcomes: list[str] = []
    start = threading.Barrier(6)

    def write(i: int) -> None:
        start.wait()
        try:
            store.commit(Change(document=replace(_document(), name=f"w{i}", lock_version=1), document_expected=0))
            outcomes.append("won")
        except ConflictError:
            outcomes.append("lost")
        except Exception as exc:  # recorded, so the assertion names it
            outcomes.append(type(exc).__name__)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["lost"] * 5 + ["won"]


def test_documents_versions_and_operations_by_parent(store: KnowledgeStore) -> None:
    for i in (1, 2):
        store.commit(Change(document=_document(i)))
    store.commit(Change(document=_document(3, space="ks-else")))
    assert [d.id for d in store.documents("ks-acme")] == ["doc-1", "doc-2"]
    store.commit(Change(versions=[_version(2, 2), _version(1, 1)]))
    assert [v.number for v in store.versions("doc-1")] == [1, 2]
    store.commit(Change(operations=[_operation(1)]))
    store.commit(Change(operations=[_operation(2, root="op-1", retry_no=1)]))
    with pytest.raises(ConflictError):  # a second first retry of the same root
        store.commit(Change(operations=[_operation(3, root="op-1", retry_no=1)]))
    assert [o.id for o in store.operations(root_id="op-1")] == ["op-1", "op-2"]
    assert [o.id for o in store.operations(space_id="ks-acme")] == ["op-1", "op-2"]
    store.save_operation(replace(_operation(1), finalized=True))
    assert store.operation("op-1").finalized is True  # type: ignore[union-attr]


def test_files_grants_tokens_and_audit(store: KnowledgeStore) -> None:
    resource = FileResource("fr-1", "ks-acme", "a.md", "text/markdown", 3, False, "alice", NOW)
    store.put_file(resource)
    store.put_file(replace(resource, uploaded=True, sha256="sha256:x"))
    assert store.file("fr-1") == replace(resource, uploaded=True, sha256="sha256:x")
    store.put_grant(Grant("ks-acme", PrincipalType.ROLE, "reader", frozenset({Action.SPACE_VIEW})))
    store.put_grant(Grant("*", PrincipalType.USER, "bob", frozenset({Action.SPACE_CREATE})))
    store.put_grant(Grant("ks-else", PrincipalType.USER, "eve", frozenset({Action.SPACE_VIEW})))
    assert {g.principal for g in store.grants("ks-acme")} == {"reader", "bob"}
    assert len(store.grants()) == 3
    assert store.delete_grant("ks-acme", "ROLE", "reader") and not store.delete_grant("ks-acme", "ROLE", "reader")
    secret, stored = new_token("crm")
    store.put_token(stored)
    assert token_matches(store.token(stored.token_id), secret.split("_", 2)[2])
    with pytest.raises(ConflictError):
        store.put_token(new_token("crm")[1])
    for i in range(3):
        store.append_audit(AuditEntry(NOW + timedelta(seconds=i), "alice", "SPACE_VIEW", f"r{i}", "req", "", "",
                                      "ALLOWED"))
    assert [e.resource for e in store.audit(limit=2)] == ["r1", "r2"]
