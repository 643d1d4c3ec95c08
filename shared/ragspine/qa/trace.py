"""A privacy-respecting trace of each answer: ids, codes, timings and decisions, never content.

It never holds a fact value, chunk text, or the question beyond its length and a hash
(seed 002: provenance is about where, not re-exposing what).
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass, field

logger = logging.getLogger(__name__)


@dataclass
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
        """Begin a trace; only the question's length and a hash prefix are kept."""
        digest = hashlib.sha256(question.encode("utf-8")).hexdigest()[:16]
        recorder = cls(len(question), digest)
        recorder._mark = recorder.started
        return recorder

    def stage(self, name: str) -> None:
        """Close the current stage under ``name``."""
        now = time.perf_counter()
        self.timings_ms[name] = round((now - self._mark) * 1000, 3)
        self._mark = now

    def decide(self, decision: str) -> None:
        """Record a decision (codes only, e.g. ``screening:pass``)."""
        self.decisions.append(decision)

    def finish(self, *, route: str, status: str, slots: dict[str, list[str]], fact_ids: list[str],
               chunk_ids: list[str]) -> dict[str, object]:
        """Emit the trace through the logger and return it."""
        self.timings_ms["total"] = round((time.perf_counter() - self.started) * 1000, 3)
        trace: dict[str, object] = {
            "route": route, "status": status, "slots": slots, "fact_ids": fact_ids, "chunk_ids": chunk_ids,
            "timings_ms": dict(self.timings_ms), "decisions": list(self.decisions),
            "question_chars": self.question_chars, "question_sha256": self.question_sha256,
        }
        logger.info("qa.trace", extra={"qa_trace": trace})
        return trace
