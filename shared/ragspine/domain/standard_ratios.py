"""The finance pack's standard ratios over a statement's own rows, for a domain that does not include the pack.

A domain fresh from ``domain init`` knows no "current ratio": the ratio is a formula metric only
the finance pack defines, and the statement's rows ("Total current assets", "Total current
liabilities") are open metrics (``open_vocabulary``). A pack ratio the glossary lacks becomes a
formula metric over those rows: each input is the one open row the pack's item names (its whole
label, or its item under a section heading when no whole label is). An input no row names, or
several rows name, is read under the pack's name, which no row has: the answer names it as missing
rather than choose a row. Only ratios of which at least one input is a row of the documents are
added, so a glossary with no statements is left as it is, and none a row already states under its
name (the stated figure is read, never recomputed); a domain including the pack already has every
ratio, so nothing changes for it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ragspine import parsed_yaml
from ragspine.facts.formulas import Formula, FormulaError, parse_formula
from ragspine.facts.glossary import Glossary, SlotKind, Term
from ragspine.facts.matching import slot_regex
from ragspine.facts.open_vocabulary import METRIC_PREFIX, label_of, matching_form
from ragspine.lazy import LazyModule, LazyPattern

if TYPE_CHECKING:
    from ragspine.domain import packs
else:  # the pack's file is read only for a glossary without the pack: a cold start never loads the module
    packs = LazyModule("ragspine.domain.packs")

STANDARD_PACK = "finance"
MULTIPLE = "TIMES"
RATIO_UNITS = frozenset({"PCT", "TIMES", "RATIO"})
_CODE = LazyPattern(r"\b[A-Z][A-Z0-9_]*\b")  # a metric code in a pack formula


@lru_cache(maxsize=1)
def standard_pack_metrics() -> Mapping[str, Mapping[str, Any]]:
    """The finance pack's metrics as its file states them (read once)."""
    path = packs.pack_path(STANDARD_PACK)
    if path is None:
        return {}
    data = parsed_yaml.load(path, path.read_text(encoding="utf-8"))
    metrics = data.get("metrics") if isinstance(data, Mapping) else None
    return metrics if isinstance(metrics, Mapping) else {}


def _plain_formula(spec: Mapping[str, Any]) -> Formula | None:
    """A pack metric's formula over stated balances of one period (no AVG, no PRIOR); None otherwise."""
    text = spec.get("formula")
    if not isinstance(text, str):
        return None
    try:
        formula = parse_formula(text)
    except FormulaError:
        return None
    return None if formula.averaged or formula.prior else formula


def _rows_named(spec: Mapping[str, Any], rows: Iterable[str]) -> list[str]:
    """The open rows a pack item names: by whole label, else by the item under a heading."""
    names = {matching_form(str(a)) for a in [*(spec.get("aliases") or []), *(spec.get("names") or {}).values()]}
    labels = {code: label_of(code) for code in rows}
    whole = [code for code, text in labels.items() if text in names]
    return whole or [code for code, text in labels.items() if text.rpartition(": ")[2] in names]


def _stated(spec: Mapping[str, Any], labels: str) -> bool:
    """Whether a row's label (``labels``: one a line) holds one of the ratio's names ("Current ratio (1)")."""
    names = {matching_form(str(a)) for a in [*(spec.get("aliases") or []), *(spec.get("names") or {}).values()]}
    return any(name in labels and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", labels) for name in names if name)


class _Renamed(ast.NodeTransformer):
    """A formula tree with its pack item codes replaced by the rows they name."""

    def __init__(self, codes: Mapping[str, str]) -> None:
        self.codes = codes

    def visit_Name(self, node: ast.Name) -> ast.Name:  # noqa: N802 (ast's visitor names)
        return ast.copy_location(ast.Name(id=self.codes.get(node.id, node.id), ctx=node.ctx), node)


def _shown(text: str, codes: Mapping[str, str], metrics: Mapping[str, Mapping[str, Any]]) -> str:
    """The formula as the answer states it: a row by its label, a pack item by its English name."""
    def name(match: re.Match[str]) -> str:
        code = codes.get(match.group(0), match.group(0))
        return label_of(code) if code.startswith(METRIC_PREFIX) else _english(metrics.get(code) or {}, code)
    return _CODE.sub(name, text)


def _english(spec: Mapping[str, Any], code: str) -> str:
    return str((spec.get("names") or {}).get("en") or code)


def _unit(spec: Mapping[str, Any]) -> str | None:
    """The unit a ratio over a statement's rows is shown in: a ratio as a multiple, as English analysts quote it.

    The pack states its ratios in percent (流動比率 78%, as Japanese and Chinese practice does); a
    multiple (0.78) also states its percent beside it (``qa/derived.py``).
    """
    unit = spec.get("unit")
    named = str((spec.get("names") or {}).get("en") or "")
    if unit in RATIO_UNITS and named.endswith("ratio"):
        return MULTIPLE
    return None if unit is None else str(unit)


def with_standard_ratios(glossary: Glossary) -> Glossary:
    """``glossary`` plus the pack's ratios it lacks, over its open rows (see the module docstring)."""
    known = glossary.terms[SlotKind.METRIC]
    rows = [code for code in known if code.startswith(METRIC_PREFIX)]
    if not rows:
        return glossary
    metrics = standard_pack_metrics()
    terms = {kind: dict(section) for kind, section in glossary.terms.items()}
    aliases = dict(glossary.aliases)
    formulas = dict(glossary.formulas)
    labels = "\n".join(label_of(code) for code in rows)
    for code, spec in metrics.items():
        formula = _plain_formula(spec)
        if formula is None or code in known or spec.get("unit") not in RATIO_UNITS:
            continue
        codes: dict[str, str] = {}
        for item in formula.inputs:
            if item in known or item not in metrics or "formula" in metrics[item]:
                continue
            named = _rows_named(metrics[item], rows)
            if len(named) == 1:
                codes[item] = named[0]
        if not codes or _stated(spec, labels):  # no input is a row of the documents, or a row is the ratio
            continue
        for item in formula.inputs:  # a row no statement has: named as missing, never offered as a figure to ask
            if item not in codes and item not in known:
                codes[item] = METRIC_PREFIX + matching_form(_english(metrics.get(item) or {}, item))
        terms[SlotKind.METRIC][code] = replace(Term.from_spec(code, spec), unit=_unit(spec))
        tree = _Renamed(codes).visit(ast.parse(formula.text, mode="eval").body)
        formulas[code] = Formula(_shown(formula.text, codes, metrics), tree,
                                 tuple(codes.get(item, item) for item in formula.inputs))
        for alias in spec.get("aliases") or []:
            aliases.setdefault(matching_form(str(alias)), (SlotKind.METRIC, code))
    if formulas == glossary.formulas:
        return glossary
    periods = [p.regex.pattern for p in glossary.period_patterns]
    return replace(glossary, terms=terms, aliases=aliases, formulas=formulas,
                   _slot_regex=slot_regex(periods, glossary.period_first_chars, aliases), _period_cache={})
