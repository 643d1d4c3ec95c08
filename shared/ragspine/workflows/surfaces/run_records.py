"""Recorded workflow runs: one per run through the Dify app API or a webhook, as every run store keeps it.

A run is recorded ``running`` when it starts and finished once (succeeded, failed or stopped).
``owner`` scopes who may read it back: the workflow id of the app a Dify key opens, or
``webhook`` for runs the n8n executions API lists. ``seq`` is the store's ascending number of
the run (n8n's numeric execution id); the Dify run id is ``id``.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ragspine.workflows.surfaces.records import iso_utc, parse_utc


class RunSurface(enum.StrEnum):
    """Which surface started the run."""

    DIFY = "dify"
    WEBHOOK = "webhook"


class RecordedStatus(enum.StrEnum):
    """A recorded run's state, in Dify's words."""

    RUNNING = "running"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class NodeTrace:
    """What one node did: enough for n8n's ``runData`` and Dify's step count."""

    node_id: str
    node_type: str
    title: str
    status: str
    outputs: dict[str, Any]
    elapsed_time: float
    error: str | None = None

    def to_record(self) -> dict[str, Any]:
        """JSON-compatible form."""
        return {"node_id": self.node_id, "node_type": self.node_type, "title": self.title, "status": self.status,
                "outputs": self.outputs, "elapsed_time": self.elapsed_time, "error": self.error}

    @classmethod
    def from_record(cls, data: dict[str, Any]) -> NodeTrace:
        """Read :meth:`to_record` output."""
        return cls(node_id=str(data["node_id"]), node_type=str(data["node_type"]), title=str(data["title"]),
                   status=str(data["status"]), outputs=dict(data.get("outputs") or {}),
                   elapsed_time=float(data.get("elapsed_time") or 0.0), error=data.get("error"))


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One recorded run. ``finished_at`` is None while it runs; ``seq`` is 0 until the store numbers it."""

    id: str
    workflow_id: str
    surface: RunSurface
    owner: str
    status: RecordedStatus
    inputs: dict[str, Any]
    created_at: datetime
    task_id: str = ""
    user: str = ""
    outputs: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    elapsed_time: float = 0.0
    total_steps: int = 0
    total_tokens: int = 0
    finished_at: datetime | None = None
    nodes: tuple[NodeTrace, ...] = ()
    seq: int = 0

    def to_record(self) -> dict[str, Any]:
        """A flat JSON-compatible mapping (without ``seq``, which the store owns)."""
        return {"id": self.id, "workflow_id": self.workflow_id, "surface": self.surface.value, "owner": self.owner,
                "status": self.status.value, "inputs": self.inputs, "created_at": iso_utc(self.created_at),
                "task_id": self.task_id, "user": self.user, "outputs": self.outputs, "error": self.error,
                "elapsed_time": self.elapsed_time, "total_steps": self.total_steps,
                "total_tokens": self.total_tokens,
                "finished_at": iso_utc(self.finished_at) if self.finished_at else None,
                "nodes": [n.to_record() for n in self.nodes]}

    @classmethod
    def from_record(cls, data: dict[str, Any], *, seq: int = 0) -> RunRecord:
        """Rebuild from :meth:`to_record` output and the store's number."""
        finished = data.get("finished_at")
        return cls(id=str(data["id"]), workflow_id=str(data["workflow_id"]), surface=RunSurface(data["surface"]),
                   owner=str(data["owner"]), status=RecordedStatus(data["status"]), inputs=dict(data["inputs"]),
                   created_at=parse_utc(data["created_at"]), task_id=str(data.get("task_id") or ""),
                   user=str(data.get("user") or ""), outputs=dict(data.get("outputs") or {}),
                   error=data.get("error"), elapsed_time=float(data.get("elapsed_time") or 0.0),
                   total_steps=int(data.get("total_steps") or 0), total_tokens=int(data.get("total_tokens") or 0),
                   finished_at=parse_utc(finished) if finished else None,
                   nodes=tuple(NodeTrace.from_record(n) for n in data.get("nodes") or []), seq=seq)

    def dumps(self) -> str:
        """The record as compact JSON text."""
        return json.dumps(self.to_record(), ensure_ascii=False, separators=(",", ":"), default=str)

    @classmethod
    def loads(cls, text: str, *, seq: int = 0) -> RunRecord:
        """Read :meth:`dumps` output."""
        return cls.from_record(json.loads(text), seq=seq)


@dataclass(frozen=True, slots=True)
class RunPage:
    """Runs newest first, and the ``seq`` to continue below (None at the end)."""

    items: tuple[RunRecord, ...]
    before: int | None


@dataclass(frozen=True, slots=True)
class RunRetention:
    """How many runs a store keeps and for how long; older ones go when a new run is recorded."""

    max_runs: int = 10_000
    max_age_days: int = 30
