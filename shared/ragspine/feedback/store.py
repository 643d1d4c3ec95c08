"""Readers' feedback on an answer or on one number, kept with the locator it is about (SQLite locally)."""

from __future__ import annotations

import enum
import json
import sqlite3
import threading
import uuid
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

_SCHEMA = """
CREATE TABLE IF NOT EXISTS feedback (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    body TEXT NOT NULL
)
"""


class FeedbackReason(enum.StrEnum):
    """What the reader says about the answer or the number."""

    HELPFUL = "helpful"
    NOT_HELPFUL = "not_helpful"
    WRONG_NUMBER = "wrong_number"
    WRONG_SOURCE = "wrong_source"
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class Feedback:
    """One piece of feedback; ``doc``/``locator``/``version`` say exactly which figure or citation it is about."""

    id: str
    created_at: str
    reason: FeedbackReason
    question: str
    answer: str
    comment: str = ""
    value: str | None = None  # the number as written, when the feedback is about one number
    fact_id: str | None = None
    doc: str | None = None
    locator: str | None = None
    version: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        """JSON form."""
        return {k: (v.value if isinstance(v, FeedbackReason) else v) for k, v in asdict(self).items()}


def new_feedback(*, reason: FeedbackReason, question: str, answer: str, comment: str = "",
                 value: str | None = None, fact_id: str | None = None, doc: str | None = None,
                 locator: str | None = None, version: str | None = None) -> Feedback:
    """A piece of feedback with a fresh id and the current time."""
    return Feedback(id=f"fb-{uuid.uuid4().hex[:16]}", created_at=datetime.now(UTC).isoformat(timespec="seconds"),
                    reason=reason, question=question, answer=answer, comment=comment, value=value,
                    fact_id=fact_id, doc=doc, locator=locator, version=version)


def feedback_from_json(body: str) -> Feedback:
    """A stored piece of feedback from its JSON form."""
    data = json.loads(body)
    data["reason"] = FeedbackReason(data["reason"])
    return Feedback(**data)


class FeedbackLog(Protocol):
    """Where feedback is kept: ``feedback.db`` locally, a DynamoDB table on AWS."""

    def add(self, *, reason: FeedbackReason, question: str, answer: str, comment: str = "",
            value: str | None = None, fact_id: str | None = None, doc: str | None = None,
            locator: str | None = None, version: str | None = None) -> Feedback:
        """Store one piece of feedback and return it with its id and time."""
        ...

    def list(self, *, limit: int = 100) -> list[Feedback]:
        """The newest feedback first."""
        ...


class FeedbackStore:
    """Feedback rows in ``feedback.db`` (one connection per thread, as the other local stores)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._local = threading.local()
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._conn() as conn:
            conn.execute(_SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self._path)
            self._local.conn = conn
        return conn

    def add(self, *, reason: FeedbackReason, question: str, answer: str, comment: str = "",
            value: str | None = None, fact_id: str | None = None, doc: str | None = None,
            locator: str | None = None, version: str | None = None) -> Feedback:
        """Store one piece of feedback and return it with its id and time."""
        item = new_feedback(reason=reason, question=question, answer=answer, comment=comment, value=value,
                            fact_id=fact_id, doc=doc, locator=locator, version=version)
        with self._conn() as conn:
            conn.execute("INSERT INTO feedback (id, created_at, body) VALUES (?, ?, ?)",
                         (item.id, item.created_at, json.dumps(item.as_dict(), ensure_ascii=False)))
        return item

    def list(self, *, limit: int = 100) -> list[Feedback]:
        """The newest feedback first."""
        rows = self._conn().execute("SELECT body FROM feedback ORDER BY created_at DESC, rowid DESC LIMIT ?",
                                    (limit,)).fetchall()
        return [feedback_from_json(body) for (body,) in rows]

    def close(self) -> None:
        """Close this thread's connection."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None
