"""Validation of n8n public-API workflow bodies (create and PUT), with n8n's error wording.

n8n's schema (``workflow.yml``, ``additionalProperties: false``) requires ``name``, ``nodes``,
``connections`` and ``settings``; ``active`` and the other read-only fields are refused with
``request/body/<field> is read-only``; settings keys outside ``workflowSettings.yml`` are
refused too. We keep ``staticData``, ``pinData`` and ``description`` as opaque extras; the
newer project/publishing fields (``shared``, ``nodeGroups``, ``activeVersion``) are refused
because nothing here would honour them. A PUT may carry ``versionId`` as a precondition.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ragspine.errors import RagspineError
from ragspine.names import name_problem
from ragspine.workflows.n8n import read_n8n
from ragspine.workflows.surfaces.errors import WorkflowRequestError, WorkflowRequestUnprocessableError

REQUIRED = ("name", "nodes", "connections", "settings")
NAME_MAX = 128  # n8n's own limit on a workflow's name; node names share it
EXTRAS = ("staticData", "pinData", "description")
READ_ONLY = frozenset({"id", "active", "createdAt", "updatedAt", "isArchived", "versionId", "triggerCount",
                       "tags", "meta"})
NODE_KEYS = frozenset({"id", "name", "type", "typeVersion", "position", "parameters", "credentials", "webhookId",
                       "disabled", "notes", "notesInFlow", "executeOnce", "alwaysOutputData", "retryOnFail",
                       "maxTries", "waitBetweenTries", "onError", "continueOnFail"})
_SAVE = frozenset({"all", "none"})
_CALLER = frozenset({"any", "none", "workflowsFromAList", "workflowsFromSameOwner"})
SETTINGS: dict[str, Callable[[Any], bool]] = {
    "saveExecutionProgress": lambda v: isinstance(v, bool),
    "saveManualExecutions": lambda v: isinstance(v, bool),
    "saveDataErrorExecution": lambda v: isinstance(v, str) and v in _SAVE,
    "saveDataSuccessExecution": lambda v: isinstance(v, str) and v in _SAVE,
    # JSON has one number type: 787.0 is the integer 787 (as n8n's JSON Schema validator reads it).
    "executionTimeout": lambda v: (isinstance(v, int | float) and not isinstance(v, bool) and float(v).is_integer()
                                   and v >= -1),
    "errorWorkflow": lambda v: isinstance(v, str),
    "timezone": lambda v: isinstance(v, str),
    "executionOrder": lambda v: isinstance(v, str) and v in ("v0", "v1"),
    "callerPolicy": lambda v: isinstance(v, str) and v in _CALLER,
    "callerIds": lambda v: isinstance(v, str),
    "timeSavedPerExecution": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "availableInMCP": lambda v: isinstance(v, bool),
}


@dataclass(frozen=True, slots=True)
class WorkflowBody:
    """A validated create/update body; ``version_id`` is the PUT precondition, if any."""

    name: str
    nodes: list[Any]
    connections: dict[str, Any]
    settings: dict[str, Any]
    extras: dict[str, Any]
    version_id: str | None = None

    def document(self) -> dict[str, Any]:
        """The body as an n8n workflow mapping (for conversion)."""
        return {"name": self.name, "nodes": self.nodes, "connections": self.connections, "settings": self.settings}


def _check_name(name: Any, place: str) -> str:
    """A workflow's or a node's name: the Gateway's rule for names (visible text only), at most ``NAME_MAX``.

    Node names are shown in the editor and the executions, logged and used as keys of ``connections`` and of
    each run's node outputs, so they follow the same rule as the workflow's own name.
    """
    if not isinstance(name, str) or not name.strip():
        raise WorkflowRequestError(place, "must be a non-empty string")
    if len(name) > NAME_MAX:
        raise WorkflowRequestError(place, f"must be at most {NAME_MAX} characters")
    if (problem := name_problem(name)) is not None:
        raise WorkflowRequestError(place, problem)
    return name


def _check_settings(settings: Any) -> dict[str, Any]:
    if not isinstance(settings, Mapping):
        raise WorkflowRequestError("request/body/settings", "must be object")
    for key, value in settings.items():
        check = SETTINGS.get(key)
        if check is None:
            raise WorkflowRequestError("request/body/settings", f"must NOT have additional properties ({key})")
        if not check(value):
            raise WorkflowRequestError(f"request/body/settings/{key}", "has an invalid value")
    return dict(settings)


def _check_nodes(nodes: Any) -> list[Any]:
    if not isinstance(nodes, list):
        raise WorkflowRequestError("request/body/nodes", "must be array")
    names: set[str] = set()
    for i, node in enumerate(nodes):
        if not isinstance(node, Mapping):
            raise WorkflowRequestError(f"request/body/nodes/{i}", "must be object")
        extra = sorted(set(node) - NODE_KEYS)
        if extra:
            raise WorkflowRequestError(f"request/body/nodes/{i}", f"must NOT have additional properties ({extra[0]})")
        name, parameters = _check_name(node.get("name"), f"request/body/nodes/{i}/name"), node.get("parameters")
        if parameters is not None and not isinstance(parameters, Mapping):
            raise WorkflowRequestError(f"request/body/nodes/{i}/parameters", "must be object")
        if name in names:
            raise WorkflowRequestUnprocessableError(f"request/body/nodes/{i}/name",
                                                    "must be unique (connections use names)")
        names.add(name)
    return list(nodes)


def check_body(body: Any, *, allow_version: bool = False) -> WorkflowBody:
    """Validate a create (``allow_version=False``) or PUT body.

    Raises:
        WorkflowRequestError: with n8n's ``request/body/...`` path and the problem.
    """
    if not isinstance(body, Mapping):
        raise WorkflowRequestError("request/body", "must be object")
    for key in body:
        if key in READ_ONLY and not (allow_version and key == "versionId"):
            raise WorkflowRequestError(f"request/body/{key}", "is read-only")
        if key not in READ_ONLY and key not in REQUIRED and key not in EXTRAS:
            raise WorkflowRequestError("request/body", f"must NOT have additional properties ({key})")
    missing = [key for key in REQUIRED if key not in body]
    if missing:
        raise WorkflowRequestError("request/body", f"must have required property '{missing[0]}'")
    name, version = _check_name(body["name"], "request/body/name"), body.get("versionId")
    if version is not None and not isinstance(version, str):
        raise WorkflowRequestError("request/body/versionId", "must be string")
    if not isinstance(body["connections"], Mapping):
        raise WorkflowRequestError("request/body/connections", "must be object")
    parsed = WorkflowBody(name=name, nodes=_check_nodes(body["nodes"]), connections=dict(body["connections"]),
                          settings=_check_settings(body["settings"]),
                          extras={k: body[k] for k in EXTRAS if k in body}, version_id=version)
    try:
        read_n8n(parsed.document())
    except RagspineError as exc:
        # read_n8n names the place as a JSON pointer (/nodes/0/type); n8n writes request/body/nodes/0/type.
        pointer = exc.field_errors[0].field if exc.field_errors else ""
        raise WorkflowRequestError(f"request/body{pointer}", exc.message) from exc
    return parsed
