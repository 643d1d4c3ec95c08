"""The registry keeps n8n's CRUD semantics: inactive on create, new versionId per update, cursor paging."""

from __future__ import annotations

import itertools

import pytest

from ragspine.workflows.surfaces.errors import WorkflowConflictError, WorkflowNotFoundError, WorkflowRequestError
from ragspine.workflows.surfaces.registry import WorkflowRegistry, decode_cursor, encode_cursor
from tests.fakes.workflow_store import InMemoryWorkflowStore
from tests.support.workflow_api import NOW, echo_n8n, summarise_dsl


@pytest.fixture
def registry() -> WorkflowRegistry:
    ids = (f"wf{i:02d}" for i in itertools.count(1))
    return WorkflowRegistry(InMemoryWorkflowStore(), clock=lambda: NOW, new_id=lambda: next(ids))


class TestCreate:
    def test_a_new_workflow_is_inactive_with_its_webhook_and_dify_mapping(self, registry: WorkflowRegistry) -> None:
        workflow = registry.create(echo_n8n(path="/hooks/a/"))
        assert (workflow.id, workflow.active, workflow.webhook_path, workflow.webhook_method) == (
            "wf01", False, "hooks/a", "POST")
        assert workflow.dify_dsl is not None and workflow.dify_dsl["version"] == "0.6.0"
        assert workflow.to_n8n()["createdAt"] == "2026-11-30T09:00:00.000Z"

    def test_nodes_outside_the_subset_are_stored_without_a_dify_mapping(self, registry: WorkflowRegistry) -> None:
        body = {"name": "slack", "nodes": [{"name": "Slack", "type": "n8n-nodes-base.slack", "parameters": {}}],
                "connections": {}, "settings": {}}
        assert registry.create(body).dify_dsl is None

    def test_importing_a_dify_dsl_keeps_the_dsl_and_gives_an_n8n_view(self, registry: WorkflowRegistry) -> None:
        workflow = registry.import_dify(summarise_dsl())
        assert workflow.dify_dsl is not None and {n["type"] for n in workflow.nodes} >= {"n8n-nodes-base.webhook"}
        assert workflow.webhook_method == "POST" and workflow.webhook_path


class TestUpdate:
    def test_put_gives_a_new_version_and_keeps_created_at(self, registry: WorkflowRegistry) -> None:
        first = registry.create(echo_n8n())
        second = registry.update(first.id, {**echo_n8n(name="renamed"), "versionId": first.version_id})
        assert second.version_id != first.version_id and second.name == "renamed"
        assert second.created_at == first.created_at

    def test_a_stale_version_id_is_a_conflict(self, registry: WorkflowRegistry) -> None:
        first = registry.create(echo_n8n())
        registry.update(first.id, echo_n8n(name="v2"))
        with pytest.raises(WorkflowConflictError):
            registry.update(first.id, {**echo_n8n(name="v3"), "versionId": first.version_id})

    def test_updating_a_missing_workflow_is_not_found(self, registry: WorkflowRegistry) -> None:
        with pytest.raises(WorkflowNotFoundError):
            registry.update("nope", echo_n8n())


class TestActivation:
    def test_activation_keeps_the_version_and_deactivation_undoes_it(self, registry: WorkflowRegistry) -> None:
        created = registry.create(echo_n8n())
        active = registry.set_active(created.id, True)
        assert active.active and active.version_id == created.version_id and active.active_path == "summarise"
        assert not registry.set_active(created.id, False).active

    def test_two_active_workflows_cannot_share_a_webhook_path(self, registry: WorkflowRegistry) -> None:
        first, second = registry.create(echo_n8n()), registry.create(echo_n8n(name="other"))
        registry.set_active(first.id, True)
        with pytest.raises(WorkflowConflictError, match="summarise"):
            registry.set_active(second.id, True)


class TestPaging:
    def test_seven_workflows_page_three_three_one_then_null(self, registry: WorkflowRegistry) -> None:
        for i in range(7):
            registry.create(echo_n8n(name=f"w{i}"))
        sizes, seen, cursor = [], [], None
        while True:
            page, cursor = registry.list_page(limit=3, cursor=cursor)
            sizes.append(len(page.items))
            seen.extend(w.id for w in page.items)
            if cursor is None:
                break
        assert sizes == [3, 3, 1] and seen == sorted(seen) and len(set(seen)) == 7

    @pytest.mark.parametrize("limit", [0, 251])
    def test_limits_outside_1_to_250_are_refused(self, registry: WorkflowRegistry, limit: int) -> None:
        with pytest.raises(WorkflowRequestError, match="request/query/limit"):
            registry.list_page(limit=limit)

    @pytest.mark.parametrize("cursor", ["not base64!", "e30=", "x" * 65])
    def test_cursors_we_did_not_issue_are_refused(self, registry: WorkflowRegistry, cursor: str) -> None:
        with pytest.raises(WorkflowRequestError, match="request/query/cursor"):
            registry.list_page(limit=3, cursor=cursor)

    def test_a_cursor_round_trips_the_last_id(self) -> None:
        assert decode_cursor(encode_cursor("wf03")) == "wf03"

    def test_a_cursor_after_a_deleted_id_still_pages_in_order(self, registry: WorkflowRegistry) -> None:
        ids = sorted(registry.create(echo_n8n(name=f"w{i}")).id for i in range(3))
        registry.delete(ids[1])
        page, _ = registry.list_page(limit=5, cursor=encode_cursor(ids[1]))
        assert [w.id for w in page.items] == [ids[2]]


def test_delete_returns_the_workflow_once(registry: WorkflowRegistry) -> None:
    created = registry.create(echo_n8n())
    assert registry.delete(created.id).id == created.id
    with pytest.raises(WorkflowNotFoundError):
        registry.delete(created.id)
