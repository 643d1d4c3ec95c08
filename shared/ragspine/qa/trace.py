"""A privacy-respecting trace of each answer: ids, codes, timings and decisions, never content.

It never holds a fact value, chunk text, or the question beyond its length and a hash
(seed 002: provenance is about where, not re-exposing what).
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _hashlib import HASH

logger = logging.getLogger(__name__)


def _interpreter_sha256() -> Callable[[bytes], HASH]:
    """The interpreter's own SHA-256 (``_sha2`` from 3.12, ``_sha256`` before), else ``hashlib``'s.

    The same digest either way; for a question's few dozen bytes, setting up OpenSSL's digest
    context costs more than hashing them (1–3 µs of an ask, measured in the ask).
    """
    for name in ("_sha2", "_sha256"):
        try:
            return importlib.import_module(name).sha256  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return hashlib.sha256


_SHA256 = _interpreter_sha256()


def question_digest(question: str) -> str:
    """The trace's stand-in for the question: a 16-hex-digit SHA-256 prefix, never the text."""
    return _SHA256(question.encode("utf-8")).hexdigest()[:16]


@dataclass(slots=True)
class TraceRecorder:
    """Collects stage timings and decisions while one question is answered."""

    question_chars: int
    question_sha256: str
    started: float = field(default_factory=time.perf_counter)
    timings_ms: dict[str, float] = field(default_factory=dict)
    decisions: list[str] = field(default_factory=list)
    _mark: float = 0.0

    @classmethod
    def start(cls, question: str) -> TraceRecorder:
        """Begin a trace now; only the question's length and a hash prefix are kept."""
        return cls.begin(len(question), question_digest(question), time.perf_counter())

    @classmethod
    def begin(cls, question_chars: int, question_sha256: str, started: float) -> TraceRecorder:
        """Begin a trace that started at ``started`` (``time.perf_counter``), the digest already known."""
        return cls(question_chars, question_sha256, started, _mark=started)

    def stage(self, name: str) -> None:
        """Close the current stage under ``name``."""
        now = time.perf_counter()
        # to the microsecond: rounding to a whole number and dividing is a third of ``round(ms, 3)``'s cost
        self.timings_ms[name] = round((now - self._mark) * 1e6) / 1000
        self._mark = now

    def skip(self, names: tuple[str, ...]) -> None:
        """Close ``names`` at once: stages whose result was already known (a cached parse)."""
        now = time.perf_counter()
        elapsed = round((now - self._mark) * 1e6) / 1000
        for name in names:
            self.timings_ms[name] = elapsed
            elapsed = 0.0
        self._mark = now

    def decide(self, decision: str) -> None:
        """Record a decision (codes only, e.g. ``screening:pass``)."""
        self.decisions.append(decision)

    def finish(self, *, route: str, status: str, slots: dict[str, list[str]], fact_ids: list[str],
               chunk_ids: list[str]) -> dict[str, object]:
        """Emit the trace through the logger and return it.

        Call it once, last: the trace takes the recorder's timings and decisions rather than copies.
        """
        self.timings_ms["total"] = round((time.perf_counter() - self.started) * 1e6) / 1000
        trace: dict[str, object] = {
            "route": route, "status": status, "slots": slots, "fact_ids": fact_ids, "chunk_ids": chunk_ids,
            "timings_ms": self.timings_ms, "decisions": self.decisions,
            "question_chars": self.question_chars, "question_sha256": self.question_sha256,
        }
        logger.info("qa.trace", extra={"qa_trace": trace})
        return trace
