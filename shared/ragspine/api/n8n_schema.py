"""The JSON Schema of n8n workflow bodies (create and PUT), published on the n8n-compatible routes.

It states what ``ragspine.workflows.surfaces.n8n_body.check_body`` enforces, built from the same field
lists, so a body the schema accepts is a body the route accepts (except node names, which must
be unique: JSON Schema cannot say that of one property, so the description does).
"""

from __future__ import annotations

from typing import Any

from ragspine.names import NAME_PATTERN
from ragspine.workflows.surfaces import EXTRAS, NAME_MAX, NODE_KEYS, REQUIRED

_NON_EMPTY = {"type": "string", "minLength": 1}
# A workflow's and a node's name: the service's name rule and n8n's cap.
_NAME = {"type": "string", "pattern": NAME_PATTERN, "maxLength": NAME_MAX}
_SETTING_TYPES: dict[str, dict[str, Any]] = {
    "saveExecutionProgress": {"type": "boolean"},
    "saveManualExecutions": {"type": "boolean"},
    "saveDataErrorExecution": {"enum": ["all", "none"]},
    "saveDataSuccessExecution": {"enum": ["all", "none"]},
    "executionTimeout": {"type": "integer", "minimum": -1},
    "errorWorkflow": {"type": "string"},
    "timezone": {"type": "string"},
    "executionOrder": {"enum": ["v0", "v1"]},
    "callerPolicy": {"enum": ["any", "none", "workflowsFromAList", "workflowsFromSameOwner"]},
    "callerIds": {"type": "string"},
    "timeSavedPerExecution": {"type": "number"},
    "availableInMCP": {"type": "boolean"},
}
_NODE: dict[str, Any] = {
    "type": "object", "required": ["name", "type"], "additionalProperties": False,
    "properties": {**{key: {} for key in sorted(NODE_KEYS)}, "name": _NAME, "type": _NON_EMPTY,
                   "parameters": {"type": ["object", "null"]}},
}
_TARGETS = {"type": ["array", "null"], "items": {}}
_CONNECTIONS = {"type": "object", "additionalProperties": {
    "type": "object", "additionalProperties": {"type": "array", "items": _TARGETS}}}


def workflow_body_schema(*, put: bool) -> dict[str, Any]:
    """The create body (``put=False``) or the PUT body, which may carry ``versionId`` as a precondition."""
    properties: dict[str, Any] = {
        "name": _NAME,
        "nodes": {"type": "array", "items": _NODE, "description": "Node names must be unique (connections use them)."},
        "connections": _CONNECTIONS,
        "settings": {"type": "object", "properties": _SETTING_TYPES, "additionalProperties": False},
        **{key: {} for key in EXTRAS},
    }
    if put:
        properties["versionId"] = {"type": ["string", "null"],
                                   "description": "Must be the current versionId (else 409); null: no check."}
    return {"type": "object", "required": list(REQUIRED), "properties": properties, "additionalProperties": False,
            "description": "An n8n workflow: name, nodes, connections and settings (active and the other "
                           "read-only fields are refused)."}
