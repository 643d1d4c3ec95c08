"""The parsed intent of a question."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from ragspine.qa.analytics.cues import NO_ANALYSIS, Analysis
from ragspine.qa.arithmetic_cues import NO_ARITHMETIC, Arithmetic
from ragspine.qa.slots import ParsedSlots


class Channel(enum.StrEnum):
    """Which evidence channel(s) a question needs (seed 001)."""

    STRUCTURED = "structured"
    NARRATIVE = "narrative"
    COMPOSITE = "composite"


@dataclass(frozen=True, slots=True)
class Intent:
    """Slots, the chosen channel and the lexical cues that chose it."""

    slots: ParsedSlots
    channel: Channel
    causal: bool = False
    quantity: bool = False
    comparison: bool = False
    analysis: Analysis = NO_ANALYSIS
    requested_unit: str | None = None  # a currency or unit the question asks the figures in ("in yen": JPY)
    arithmetic: Arithmetic = NO_ARITHMETIC  # averages, ratios, CAGR, sums, checks and rounding (qa/arithmetic.py)

    @property
    def needs_metric(self) -> bool:
        """A "what is the number" question about an entity or period but with no known metric."""
        s = self.slots
        return not s.metrics and self.quantity and not self.causal and bool(s.entities or s.periods)
