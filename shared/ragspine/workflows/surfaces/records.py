"""Stored workflows and hashed API keys, and their JSON record form shared by every store adapter."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


class KeyKind(enum.StrEnum):
    """What a key opens: one Dify app (a stored workflow) or the n8n workflow API."""

    APP = "app"
    N8N = "n8n"


def iso_utc(moment: datetime) -> str:
    """``2024-11-30T09:15:01.123Z``: UTC with milliseconds, as n8n writes timestamps."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def parse_utc(text: str) -> datetime:
    """Read :func:`iso_utc` output back into an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass(frozen=True, slots=True)
class StoredWorkflow:
    """One workflow as the n8n API sees it, plus the Dify DSL it maps to and its webhook trigger.

    ``version_id`` changes on every content update (n8n's optimistic lock); ``extras`` holds the
    writable n8n fields we keep but do not interpret (``staticData``, ``pinData``, ``description``).
    """

    id: str
    name: str
    nodes: list[Any]
    connections: dict[str, Any]
    settings: dict[str, Any]
    active: bool
    version_id: str
    created_at: datetime
    updated_at: datetime
    extras: dict[str, Any] = field(default_factory=dict)
    dify_dsl: dict[str, Any] | None = None
    webhook_path: str | None = None
    webhook_method: str | None = None

    @property
    def active_path(self) -> str | None:
        """The webhook path this workflow answers on right now (None while inactive)."""
        return self.webhook_path if self.active and self.webhook_path else None

    def to_n8n(self) -> dict[str, Any]:
        """The workflow in n8n's public API shape."""
        return {"id": self.id, "name": self.name, "active": self.active, "isArchived": False,
                "createdAt": iso_utc(self.created_at), "updatedAt": iso_utc(self.updated_at),
                "versionId": self.version_id, "nodes": self.nodes, "connections": self.connections,
                "settings": self.settings, "staticData": self.extras.get("staticData"),
                "pinData": self.extras.get("pinData", {}), "meta": None, "tags": [], "triggerCount": 0,
                **({"description": self.extras["description"]} if "description" in self.extras else {})}

    def to_record(self) -> dict[str, Any]:
        """A flat JSON-compatible mapping; the adapters store it as text."""
        return {"id": self.id, "name": self.name, "nodes": self.nodes, "connections": self.connections,
                "settings": self.settings, "active": self.active, "version_id": self.version_id,
                "created_at": iso_utc(self.created_at), "updated_at": iso_utc(self.updated_at),
                "extras": self.extras, "dify_dsl": self.dify_dsl, "webhook_path": self.webhook_path,
                "webhook_method": self.webhook_method}

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> StoredWorkflow:
        """Rebuild from :meth:`to_record` output."""
        return cls(id=str(record["id"]), name=str(record["name"]), nodes=list(record["nodes"]),
                   connections=dict(record["connections"]), settings=dict(record["settings"]),
                   active=bool(record["active"]), version_id=str(record["version_id"]),
                   created_at=parse_utc(record["created_at"]), updated_at=parse_utc(record["updated_at"]),
                   extras=dict(record.get("extras") or {}), dify_dsl=record.get("dify_dsl"),
                   webhook_path=record.get("webhook_path"), webhook_method=record.get("webhook_method"))

    def dumps(self) -> str:
        """The record as compact JSON text."""
        return json.dumps(self.to_record(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> StoredWorkflow:
        """Read :meth:`dumps` output."""
        return cls.from_record(json.loads(text))


@dataclass(frozen=True, slots=True)
class ApiKeyRecord:
    """A key as stored: its public id, kind, salt and salted SHA-256 digest (never the key itself)."""

    key_id: str
    kind: KeyKind
    salt: str
    digest: str
    created_at: datetime
    workflow_id: str | None = None

    def dumps(self) -> str:
        """The record as compact JSON text."""
        return json.dumps({"key_id": self.key_id, "kind": self.kind.value, "salt": self.salt,
                           "digest": self.digest, "created_at": iso_utc(self.created_at),
                           "workflow_id": self.workflow_id}, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> ApiKeyRecord:
        """Read :meth:`dumps` output."""
        data = json.loads(text)
        return cls(key_id=str(data["key_id"]), kind=KeyKind(data["kind"]), salt=str(data["salt"]),
                   digest=str(data["digest"]), created_at=parse_utc(data["created_at"]),
                   workflow_id=data.get("workflow_id"))


@dataclass(frozen=True, slots=True)
class WorkflowPage:
    """One page of a listing and the id to continue after (None at the end)."""

    items: tuple[StoredWorkflow, ...]
    after: str | None
