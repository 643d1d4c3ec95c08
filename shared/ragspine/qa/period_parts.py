"""Periods asked that hold one another: a fiscal year and its own quarters.

A mean or a sum over periods counts each amount once, so a year never sits beside its own
quarters in one: "the average of the four quarters of 2024" reads the year to find its quarters,
and the year's own figure is the quarters' total, not a fifth quarter.
"""

from __future__ import annotations

from ragspine.facts.glossary import Period
from ragspine.qa.analytics.periods import quarters_of


def without_wholes(periods: list[Period]) -> list[Period]:
    """``periods`` less every fiscal year whose four quarters are asked too (the quarters are what is meant)."""
    asked = set(periods)
    return [p for p in periods if not (quarters_of(p) and set(quarters_of(p)) <= asked)]


def mixes_whole_and_part(periods: list[Period]) -> bool:
    """Whether a fiscal year is asked beside some of its own quarters (a mean of those means nothing)."""
    asked = set(periods)
    return any(asked & set(quarters_of(p)) for p in periods)
