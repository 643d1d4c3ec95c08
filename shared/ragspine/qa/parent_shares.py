"""A part's share of its parent asked in a ratio's words: "2025年6月期の売上収益に占める欧州の割合",
"What percentage of FY2025 revenue did Europe account for at Nordvik?".

The share analysis (``analytics/compute.py``) divides an entity's figure by its parent's; its cue
words are the domain's own (``share`` in intent.yaml), and a domain listing "share of" but not "に占める
… 割合" or "percentage of" reads these questions as a ratio with one metric, which divides nothing
by nothing. The ratio's words name the whole as the metric itself (its denominator, or no other
metric), so the whole is the same figure one level up: the part's parent.

A percentage asked of a part with its parent named ("2024年度の日本の売上高はグループ全体の何%ですか") is
the same share in other words. Read so only for one additive metric (a margin or a ratio has no share),
one period, no other computation, and an entity named that is a part of another (the home group has
none). The share is then the analysis's alone: the arithmetic's own reading of the words finds no whole
among the metrics and would say so beside the share computed (``without_share_reading``).
"""

from __future__ import annotations

from dataclasses import replace

from ragspine.facts.glossary import Glossary, SlotKind
from ragspine.qa.arithmetic_cues import Arithmetic
from ragspine.qa.slots import ParsedSlots


def asks_parent_share(arithmetic: Arithmetic, slots: ParsedSlots, glossary: Glossary) -> bool:
    """Whether the ratio asked is a named part's share of its parent in the one metric asked."""
    if not (arithmetic.ratio or arithmetic.percent) or arithmetic.explicit is not None or len(slots.metrics) != 1 \
            or len(slots.periods) > 1:
        return False
    other = (arithmetic.average or arithmetic.cagr or arithmetic.subtract or arithmetic.add or arithmetic.entity_gap
             or arithmetic.consistency or arithmetic.change or arithmetic.growth or arithmetic.period_sum)
    metric = slots.metrics[0]
    if other or arithmetic.denominator not in (None, metric) or metric not in glossary.terms[SlotKind.METRIC]:
        return False
    if not glossary.term(SlotKind.METRIC, metric).additive:
        return False
    parts = [e for e in slots.entities if e != glossary.home_entity and e in glossary.terms[SlotKind.ENTITY]]
    named = set(slots.entities)
    # the parts asked: every entity named but a parent of another named one ("Europe … at Nordvik")
    asked = [e for e in parts if not any(glossary.term(SlotKind.ENTITY, o).parent == e for o in named if o != e
                                         and o in glossary.terms[SlotKind.ENTITY])]
    if len(asked) != 1:
        return False
    # a percentage alone asks a share only of a whole named: "the group's 何%", not "revenue in %"
    return arithmetic.ratio or (glossary.term(SlotKind.ENTITY, asked[0]).parent or glossary.home_entity) in named


def without_share_reading(arithmetic: Arithmetic) -> Arithmetic:
    """``arithmetic`` with the share it read left to the analysis (its ratio, share and percentage words)."""
    return replace(arithmetic, ratio=False, share_of=False, percent=False, whole=None, denominator=None)
