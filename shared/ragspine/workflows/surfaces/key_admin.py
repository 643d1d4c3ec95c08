"""Issuing API keys: an app key bound to a stored workflow (or to a Dify DSL imported for it), or an n8n key."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.workflows.surfaces.components import WorkflowComponents
from ragspine.workflows.surfaces.keys import issue_key
from ragspine.workflows.surfaces.records import KeyKind, StoredWorkflow


@dataclass(frozen=True, slots=True)
class CreatedKey:
    """The plaintext key (show it once) and, for app keys, the workflow it opens."""

    plaintext: str
    kind: KeyKind
    workflow: StoredWorkflow | None = None


def create_n8n_key(components: WorkflowComponents) -> CreatedKey:
    """Issue and store an n8n API key."""
    issued = issue_key(KeyKind.N8N, created_at=components.clock(), pepper=components.key_pepper)
    components.store.put_key(issued.record)
    return CreatedKey(issued.plaintext, KeyKind.N8N)


def create_app_key(components: WorkflowComponents, *, workflow_id: str | None = None,
                   document: Mapping[str, Any] | None = None) -> CreatedKey:
    """Issue and store a Dify app key for a stored workflow, or for a Dify DSL stored first.

    Raises:
        WorkflowNotFoundError: ``workflow_id`` does not exist.
        WorkflowInvalidError: ``document`` is not a workflow/advanced-chat Dify app.
        ValueError: neither or both of ``workflow_id`` and ``document`` were given.
    """
    if (workflow_id is None) == (document is None):
        raise ValueError("give exactly one of workflow_id and document")
    registry = components.registry()
    workflow = registry.get(workflow_id) if workflow_id is not None else registry.import_dify(document or {})
    issued = issue_key(KeyKind.APP, created_at=components.clock(), workflow_id=workflow.id,
                       pepper=components.key_pepper)
    components.store.put_key(issued.record)
    return CreatedKey(issued.plaintext, KeyKind.APP, workflow)
