"""Canonical questions in zh / en / ja, used for one-click options a client sends back."""

from __future__ import annotations

from ragspine.facts.glossary import Glossary, Period, SlotKind
from ragspine.qa.language import Lang


def render_question(*, lang: Lang, glossary: Glossary, metric: str, entity: str, period: Period,
                    channel: str) -> str:
    """A question that parses back to exactly these slots (a test round-trips every option)."""
    terms = glossary.terms
    entity_name = terms[SlotKind.ENTITY][entity].name(lang.value)
    metric_name = terms[SlotKind.METRIC][metric].name(lang.value)
    channel_name = "" if channel == glossary.default_channel else terms[SlotKind.CHANNEL][channel].name(lang.value)
    if lang is Lang.EN:
        qualifier = f"{channel_name} " if channel_name else ""
        return f"What was {entity_name} {qualifier}{metric_name} in {period.label}?"
    if lang is Lang.JA:
        return f"{entity_name}の{period.label}の{channel_name}{metric_name}はいくらですか"
    return f"{period.label}{entity_name}的{channel_name}{metric_name}是多少"
